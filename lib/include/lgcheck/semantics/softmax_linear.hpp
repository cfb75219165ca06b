#pragma once
// Certified evaluation of softmax models of one or two layers in time linear
// in T (THEORY.md §3): the first layer from prefix class counts
// (SoftmaxFirstLayer), the second layer at the last position only, in two
// streaming passes (the first finds the query Y_T, the second sums the keys),
// so memory does not grow with T. A 10⁵-token input takes seconds where the
// forward pass, quadratic in T, takes hours.
#include "lgcheck/semantics/forward.hpp"
#include "lgcheck/semantics/softmax_layer1.hpp"

namespace lgc {

/// The evaluator for many inputs of one model: the first layer's tables and
/// the second layer's matrices are enclosed once.
class SoftmaxLinearEvaluator {
 public:
  SoftmaxLinearEvaluator(const Model& model, unsigned bits = kDefaultPrecisionBits);
  Vector<Number> representation(const Tokens& x) const;
  Output evaluate(const Tokens& x) const;

 private:
  struct Entry {
    std::size_t row, col;
    Interval value;
  };
  using Sparse = std::vector<Entry>;
  SoftmaxFirstLayer first_;
  unsigned bits_;
  std::vector<Sparse> qk_, value_;  // per second-layer head
};

/// The residual stream at the last position, before the readout.
Vector<Number> softmax_representation_linear(const Model& model, const Tokens& x, unsigned bits = kDefaultPrecisionBits);
/// f(x) at the last position (throws std::invalid_argument beyond two layers).
Output softmax_evaluate_linear(const Model& model, const Tokens& x, unsigned bits = kDefaultPrecisionBits);

}  // namespace lgc
