#pragma once
// The cheap certified enclosure of a softmax model's residual stream at the
// last position (one or two layers, time linear in T): the same formulas as
// SoftmaxFirstLayer and SoftmaxLinearEvaluator (THEORY.md §3, written once
// in softmax_attention.hpp), evaluated in FastInterval (double endpoints
// rounded outward) instead of 128-bit MPFI.
// It is the first try of SoftmaxLinearEvaluator, which falls back to MPFI
// when this enclosure overflows or comes out too wide.
#include "lgcheck/model/model.hpp"
#include "lgcheck/numeric/fast_interval.hpp"
#include "lgcheck/semantics/softmax_attention.hpp"
#include "lgcheck/semantics/softmax_layer1.hpp"
#include "lgcheck/enumerate/statistic.hpp"

#include <optional>
#include <vector>

namespace lgc {

using FVector = std::vector<FastInterval>;

class FastSoftmaxLinear {
 public:
  /// The tables of `first` (its model: one or two softmax layers) enclosed
  /// in doubles; `first` need not outlive this.
  explicit FastSoftmaxLinear(const SoftmaxFirstLayer& first);
  /// The residual stream at position |x| after the last layer's MLP, or
  /// nullopt when an exponential overflowed (some endpoint is unbounded).
  std::optional<FVector> representation(const Tokens& x) const;

 private:
  struct Mlp {
    Matrix<FastInterval> in;
    FVector in_bias;
    Matrix<FastInterval> out;
    FVector out_bias;
  };
  struct Scratch {
    FVector num, product;  // a head's numerator, then the MLP's hidden layer; the MLP's W_out product
  };
  struct FirstHead {
    attention::FirstHeadTables<FastInterval> tables;
    std::vector<FastInterval> phi;  // φ(t)
  };

  std::size_t class_at(const Tokens& x, std::uint64_t j) const;
  /// The first layer's output at position i from the bulk counts (positions
  /// 1..i−τ−1); `window` and `scratch` are working space.
  void first_layer(const Tokens& x, std::uint64_t i, const std::vector<std::uint64_t>& counts, FVector& y,
                   std::vector<std::size_t>& window, Scratch& scratch) const;
  static void apply_mlp(const Mlp& mlp, FVector& y, Scratch& scratch);
  static Mlp mlp_of(const Model& model, std::size_t layer);

  Shape shape_;
  std::size_t width_;
  std::vector<FVector> embeddings_;  // per class
  std::vector<FirstHead> first_;
  std::optional<Mlp> mlp1_, mlp2_;
  std::vector<attention::SecondHeadTables<FastInterval>> second_;
  bool two_layers_;
};

}  // namespace lgc
