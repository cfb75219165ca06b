#pragma once
// Forward passes of a limit transformer under the three semantics
// (THEORY.md §1): hardmax (exact ℚ), finite:p (exact sub-2^{-p} decisions,
// surviving weights exact when rational, else certified), softmax with ln i
// scaling of φ (certified enclosures).
#include "lgcheck/model/input.hpp"
#include "lgcheck/model/model.hpp"
#include "lgcheck/model/semantics.hpp"
#include "lgcheck/numeric/number.hpp"

#include <cstddef>
#include <stdexcept>
#include <vector>

namespace lgc {

/// A decision the enclosures at the current precision cannot make.
/// `precision_helps` is false for decisions no precision can make (an exact
/// equality of enclosed values); those are not retried.
class Undecided : public std::runtime_error {
 public:
  Undecided(const std::string& what, unsigned precision_bits, bool precision_helps = true)
      : std::runtime_error(what), precision_bits_(precision_bits), precision_helps_(precision_helps) {}
  unsigned precision_bits() const { return precision_bits_; }
  bool precision_helps() const { return precision_helps_; }

 private:
  unsigned precision_bits_;
  bool precision_helps_;
};

using Output = Vector<Number>;

struct ForwardOptions {
  Semantics semantics;
  unsigned precision_bits = kDefaultPrecisionBits;  ///< starting precision
  unsigned max_precision_bits = 4096;               ///< budget for retries
};

/// Readout outputs at the given query positions (1-based, strictly
/// increasing, each <= T). Raises the precision on Undecided up to the budget.
std::vector<Output> evaluate_at(const Model& model, const Tokens& x, const ForwardOptions& options,
                                const std::vector<std::size_t>& queries);
/// The last layer's residual stream (before the readout) at the queries.
std::vector<Vector<Number>> representation_at(const Model& model, const Tokens& x, const ForwardOptions& options,
                                              const std::vector<std::size_t>& queries);
/// y + out·ReLU(in·y + in_bias) + out_bias, on exact numbers or enclosures.
Vector<Number> apply_mlp(const Mlp& mlp, const Vector<Number>& y);
/// The readout applied to one representation.
Output apply_readout(const Model& model, const Vector<Number>& y, unsigned bits);
/// |f − g|∞ from the two representations before the readouts: max_abs_difference of the outputs, where, when the
/// readouts apply one activation (sin of one ω, or none), each coordinate k with exactly equal arguments
/// (U_f y_f + u_f)_k = (U_g y_g + u_g)_k gives the exact 0, which two sin enclosures subtracted would not show
/// (theory.md §2, "Distances and thresholds"): the exact 0 when every argument is equal.
Number readout_distance(const Model& f, const Vector<Number>& yf, const Model& g, const Vector<Number>& yg,
                        unsigned bits);
/// The output at the last position T.
Output evaluate(const Model& model, const Tokens& x, const ForwardOptions& options);
/// The outputs at every position 1..T.
std::vector<Output> evaluate_all(const Model& model, const Tokens& x, const ForwardOptions& options);

/// True when every entry is exact.
bool is_exact(const Output& y);

/// Attention weights at query position i from its logits a_{i1..ii}
/// (already including the positional term of the semantics).
Vector<Number> hardmax_weights(const Vector<Number>& logits, unsigned bits);
Vector<Number> finite_weights(const Vector<Number>& logits, std::size_t i, unsigned p, unsigned bits);
/// finite-weights:p [toolkit]: w_j = u_j / Σu (u_j = i^{a_ij − a*}, not
/// rounded), every w_j <= 2^{−p} set to 0, the survivors renormalised; when
/// every weight rounds (the top keys too, possible once Σu >= 2^p) all are 0.
Vector<Number> finite_normalised_weights(const Vector<Number>& logits, std::size_t i, unsigned p, unsigned bits);
Vector<Number> softmax_weights(const Vector<Number>& logits, unsigned bits);

}  // namespace lgc
