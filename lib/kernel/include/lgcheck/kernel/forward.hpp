#pragma once
// The kernel's forward pass (docs/theory.md §1): the obvious loop over queries and keys, written from the definitions.
// Keys whose summands are equal by construction (same embedding class, farther than τ from the query) are added once
// with their number as multiplicity; no statistic of the search is used. Values are lgc::Number: exact rationals
// while every operation is rational, certified MPFI enclosures once ln i, exp or sin enters.
#include "lgcheck/model/model.hpp"
#include "lgcheck/model/semantics.hpp"
#include "lgcheck/numeric/number.hpp"

#include <cstdint>
#include <stdexcept>
#include <vector>

namespace lgc::kernel {

using Tokens = std::vector<int>;
using Values = std::vector<Number>;

/// Raised when a decision the semantics needs cannot be made exactly (hardmax or finite:p on enclosed logits).
struct Undecided : std::runtime_error {
  using std::runtime_error::runtime_error;
};

/// True when i^{-delta} <= 2^{-p}, i.e. i^u >= 2^{p v} for delta = u/v > 0:
/// the finite:p rule "a weight <= 2^{-p} is rounded to 0", decided on integers.
bool rounds_to_zero(const Integer& i, const Rational& delta, unsigned p);

/// The weight w_{T j} of `multiplicity` keys j: `key` and the keys farther than τ from the query with the same
/// token and the same residue mod Δ (their weights are equal by the definition). Keys within τ have multiplicity 1.
struct KeyWeight {
  std::size_t key = 0;
  std::uint64_t multiplicity = 0;
  Number weight;
};

/// The weights w_{T j}, j = 1..T, of every first-layer head at the last position of `tokens` (index: head, then one
/// entry per group of keys; the multiplicities of a head add up to T).
std::vector<std::vector<KeyWeight>> last_position_weights(const Model& model, const Tokens& tokens,
                                                           Semantics semantics, unsigned bits = 128);
/// The representation at the last position after the last layer (before the readout).
Values last_representation(const Model& model, const Tokens& tokens, Semantics semantics, unsigned bits = 128);
/// y + out·ReLU(in·y + in_bias) + out_bias.
Values apply_mlp(const Mlp& mlp, const Values& y);
/// The readout's argument U y + u.
Values readout_argument(const Model& model, const Values& y);
/// sin(omega .) elementwise when set, else the argument itself.
Values activate(const Model& model, Values argument, unsigned bits = 128);
/// The readout R(y) = activate(U y + u).
Values apply_readout(const Model& model, const Values& y, unsigned bits = 128);
/// f(x): the output at the last position.
Values evaluate(const Model& model, const Tokens& tokens, Semantics semantics, unsigned bits = 128);

}  // namespace lgc::kernel
