#pragma once
// The parameters of a limit transformer (THEORY.md §1), all exact rationals.
#include "lgcheck/model/semantics.hpp"
#include "lgcheck/numeric/matrix.hpp"
#include "lgcheck/numeric/rational.hpp"

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

namespace lgc {

using QMatrix = Matrix<Rational>;
using QVector = Vector<Rational>;

struct Head {
  QMatrix qk;     ///< M = KᵀQ (d×d); logit y_jᵀ·M·y_i, key on the left
  QMatrix value;  ///< V (d×d); a key contributes V·y_j
  QVector phi;    ///< φ(t), t = 0..τ
  friend bool operator==(const Head&, const Head&) = default;
};

/// y' = Y + out·ReLU(in·Y + in_bias) + out_bias.
struct Mlp {
  QMatrix in;  ///< h×d
  QVector in_bias;
  QMatrix out;  ///< d×h
  QVector out_bias;
  friend bool operator==(const Mlp&, const Mlp&) = default;
};

struct Layer {
  std::vector<Head> heads;
  std::optional<Mlp> mlp;
  friend bool operator==(const Layer&, const Layer&) = default;
};

/// f = U·y + u, then elementwise sin(ω·) when sin_omega is set.
struct Readout {
  QMatrix weights;  ///< o×d
  QVector bias;
  std::optional<Rational> sin_omega;
  friend bool operator==(const Readout&, const Readout&) = default;
};

struct Model {
  std::string name;
  std::string description;
  std::vector<std::string> alphabet;
  std::size_t width = 0;
  std::size_t period = 1;    ///< Δ
  std::size_t locality = 0;  ///< τ
  Semantics semantics;
  QMatrix embedding;   ///< S×d, row s is E_s
  QMatrix positional;  ///< Δ×d, row r is p_r for positions i ≡ r (mod Δ)
  std::vector<Layer> layers;
  Readout readout;

  std::size_t alphabet_size() const { return alphabet.size(); }
  std::size_t outputs() const { return readout.weights.rows(); }
  friend bool operator==(const Model&, const Model&) = default;
};

/// y_i^{(0)} = E_{x_i} + p_{i mod Δ}, position i counted from 1.
QVector initial_embedding(const Model& model, int token, std::size_t position);

}  // namespace lgc
