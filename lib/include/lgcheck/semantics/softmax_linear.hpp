#pragma once
// Certified evaluation of softmax models of one or two layers in time linear
// in T (THEORY.md §3): the first layer from prefix class counts
// (SoftmaxFirstLayer), the second layer at the last position only, in two
// streaming passes (the first finds the query Y_T, the second sums the keys),
// so memory does not grow with T. A 10⁵-token input takes seconds where the
// forward pass, quadratic in T, takes hours.
#include "lgcheck/semantics/forward.hpp"

namespace lgc {

/// The residual stream at the last position, before the readout.
Vector<Number> softmax_representation_linear(const Model& model, const Tokens& x, unsigned bits = kDefaultPrecisionBits);
/// f(x) at the last position (throws std::invalid_argument beyond two layers).
Output softmax_evaluate_linear(const Model& model, const Tokens& x, unsigned bits = kDefaultPrecisionBits);

}  // namespace lgc
