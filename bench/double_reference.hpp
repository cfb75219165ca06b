#pragma once
// Plain double-precision evaluations of the same models, for the benchmarks'
// ratios only: no enclosure, no exactness, never used for a verdict.
#include "lgcheck/model/model.hpp"
#include "lgcheck/enumerate/statistic.hpp"

#include <vector>

namespace lgc::bench {

/// A one-layer hardmax model's representation at the last position, from a
/// statistic, in double (ties within 1e-12 of the top logit); the tables of
/// logits and values are computed once, like OneLayerEvaluator's.
class DoubleHardmax {
 public:
  explicit DoubleHardmax(const Model& model);
  std::vector<double> representation(const Statistic& sigma) const;

 private:
  struct HeadTables {
    std::vector<std::vector<double>> logits, values;  // [q][c], [c]
    std::vector<double> phi;
  };
  const Model* model_;
  std::vector<std::vector<double>> emb_;
  std::vector<HeadTables> heads_;
};

/// A two-layer softmax model's output at the last position, in double, by the
/// same linear-time algorithm as SoftmaxLinearEvaluator (first layer from
/// prefix class counts, second layer at the last position).
std::vector<double> double_softmax_two_layer(const Model& model, const Tokens& x);

}  // namespace lgc::bench
