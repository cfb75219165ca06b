#pragma once
// A layer's MLP (docs/theory.md §1), written once and generic over the number
// type A: y ← y + W_out relu(W_in y + b_in) + b_out. Number (the forward pass,
// SoftmaxFirstLayer, SoftmaxLinearEvaluator, over the model's rationals) and
// FastInterval (FastSoftmaxLinear, over the weights enclosed in doubles) both
// instantiate it, so both perform the same operations in the same order: each
// row summed from `zero` in column order, the weights that are exact zeros
// skipped (is_exact_zero: a rational 0, or the point [0, 0] that only the
// enclosure of 0 gives), then the bias added.
#include "lgcheck/numeric/matrix.hpp"

#include <cstddef>
#include <vector>

namespace lgc {

/// The weights and biases of an MLP, entries of type W.
template <class W>
struct MlpWeights {
  const Matrix<W>& in;
  const Vector<W>& in_bias;
  const Matrix<W>& out;
  const Vector<W>& out_bias;
};

/// out = M·v, the exact-zero entries of M skipped, each row summed from `zero`.
template <class A, class W>
void times_skipping_zeros(const Matrix<W>& m, const std::vector<A>& v, const A& zero, std::vector<A>& out) {
  require_size(v.size(), m.cols(), "MLP");
  out.assign(m.rows(), zero);
  for (std::size_t r = 0; r < m.rows(); ++r)
    for (std::size_t c = 0; c < m.cols(); ++c)
      if (!is_exact_zero(m(r, c))) out[r] += A(m(r, c)) * v[c];
}

/// y ← y + W_out relu(W_in y + b_in) + b_out; `hidden` and `product` are
/// working space (reused across calls by the double path).
template <class A, class W>
void apply_mlp_in_place(const MlpWeights<W>& mlp, std::vector<A>& y, const A& zero, std::vector<A>& hidden,
                        std::vector<A>& product) {
  times_skipping_zeros(mlp.in, y, zero, hidden);
  for (std::size_t k = 0; k < hidden.size(); ++k) hidden[k] = relu(hidden[k] + A(mlp.in_bias[k]));
  times_skipping_zeros(mlp.out, hidden, zero, product);
  for (std::size_t k = 0; k < y.size(); ++k) y[k] = y[k] + product[k] + A(mlp.out_bias[k]);
}

}  // namespace lgc
