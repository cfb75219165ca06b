#pragma once
// Certified evaluation of softmax models of one or two layers in time linear
// in T (THEORY.md §3): the first layer from prefix class counts
// (SoftmaxFirstLayer), the second layer at the last position only, in two
// streaming passes (the first finds the query Y_T, the second sums the keys),
// so memory does not grow with T. A 10⁵-token input takes seconds where the
// forward pass, quadratic in T, takes hours.
#include "lgcheck/semantics/forward.hpp"
#include "lgcheck/semantics/softmax_attention.hpp"
#include "lgcheck/semantics/softmax_layer1.hpp"
#include "lgcheck/semantics/softmax_linear_fast.hpp"

namespace lgc {

/// The evaluator for many inputs of one model: the first layer's tables and
/// the second layer's matrices are enclosed once.
///
/// Cheap enclosure first: representation() and evaluate() try the double
/// enclosure of FastSoftmaxLinear and return it when it is bounded and each
/// component's width is at most 2^-30·max(1, |component|); otherwise (an
/// exponential beyond the double range, or cancellation) they compute at
/// `bits` through MPFI. Callers whose comparison stays undecided on that
/// enclosure ask again with precise_representation() / precise_evaluate(),
/// which always use MPFI at `bits`.
class SoftmaxLinearEvaluator {
 public:
  SoftmaxLinearEvaluator(const Model& model, unsigned bits = kDefaultPrecisionBits);
  Vector<Number> representation(const Tokens& x) const;
  Output evaluate(const Tokens& x) const;
  Vector<Number> precise_representation(const Tokens& x) const;
  Output precise_evaluate(const Tokens& x) const;

 private:
  SoftmaxFirstLayer first_;
  FastSoftmaxLinear fast_;
  unsigned bits_;
  std::vector<attention::SecondHeadTables<Interval>> second_;  // enclosed at bits_
};

/// The residual stream at the last position, before the readout.
Vector<Number> softmax_representation_linear(const Model& model, const Tokens& x, unsigned bits = kDefaultPrecisionBits);
/// f(x) at the last position (throws std::invalid_argument beyond two layers).
Output softmax_evaluate_linear(const Model& model, const Tokens& x, unsigned bits = kDefaultPrecisionBits);

}  // namespace lgc
