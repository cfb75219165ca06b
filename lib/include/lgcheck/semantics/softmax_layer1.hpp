#pragma once
// The first layer of a softmax model with ln i scaling (THEORY.md §3),
// evaluated from prefix class counts, and its limit map Φ.
//
// At query i (class q = (x_i, i mod Δ)), head h weighs a window slot t =
// 0..τ (position i − t, class w_t) by i^{φ(t)}·e^{ℓ(q, w_t)} and each bulk
// position j <= i − τ − 1 of class c by e^{ℓ(q, c)}, ℓ(q, c) = y_cᵀ M y_q the
// content logit. With n_c the bulk counts, the head's output is
//   [Σ_c n_c e^{ℓ(q,c)} v_c + Σ_t i^{φ(t)} e^{ℓ(q,w_t)} v_{w_t}] / [same without v],
// so one pass over x keeps the counts and gives every position in O(classes
// + τ) interval operations: linear in T.
//
// The limit map Φ_h(q, window, μ̂), μ̂ = n / (bulk size) a probability
// vector, keeps what survives as i → ∞: the window slots with φ(t) =
// max P_h, and the bulk when max P_h = 1 (P_h = {φ(t)} ∪ {1}).
#include "lgcheck/model/model.hpp"
#include "lgcheck/numeric/interval.hpp"
#include "lgcheck/numeric/number.hpp"
#include "lgcheck/semantics/softmax_attention.hpp"
#include "lgcheck/enumerate/statistic.hpp"

#include <functional>
#include <memory>
#include <mutex>
#include <vector>

namespace lgc {

using IVector = Vector<Interval>;

class SoftmaxFirstLayer {
 public:
  /// Any model with at least one layer (copied); only the first layer is used.
  SoftmaxFirstLayer(const Model& model, unsigned bits = kDefaultPrecisionBits);

  const Model& model() const { return model_; }
  const Shape& shape() const { return shape_; }
  unsigned bits() const { return bits_; }
  std::size_t heads() const { return values_.size(); }

  /// Class index s·Δ + r of the token at position j (1-based).
  std::size_t class_at(const Tokens& x, std::size_t j) const;
  /// The content logit ℓ_h(q, c) (exact).
  const Rational& logit(std::size_t h, std::size_t q, std::size_t c) const { return logits_[h][q][c]; }
  /// V_h (E_s + p_r) of class c (exact).
  const QVector& value(std::size_t h, std::size_t c) const { return values_[h][c]; }

  /// The state of one query: its position, the classes of its window slots
  /// t = 0..min(τ, i−1) (slot 0 is the query) and the bulk class counts.
  struct Point {
    std::uint64_t i = 0;
    std::vector<std::size_t> window;
    std::vector<std::uint64_t> counts;
    std::uint64_t bulk() const;
    /// μ̂ = counts / bulk, exactly; throws std::invalid_argument without a bulk.
    std::vector<Rational> histogram() const;
  };

  /// Calls visit(point) for i = 1..|x| in one pass (counts updated in place).
  void for_each_position(const Tokens& x, const std::function<void(const Point&)>& visit) const;

  /// Head h's output at the point (the exact formula, certified).
  IVector head_output(std::size_t h, const Point& p) const;
  /// The first layer's output y_i + Σ_h head_h, then its MLP.
  Vector<Number> layer_output(const Point& p) const;

  /// Φ_h at (query class, window, μ̂): μ̂ over the classes, summing to 1.
  IVector limit_head(std::size_t h, const std::vector<std::size_t>& window, const std::vector<Rational>& mu) const;
  /// Φ of the layer: MLP(y_q + Σ_h Φ_h).
  Vector<Number> limit_layer(const std::vector<std::size_t>& window, const std::vector<Rational>& mu) const;

 private:
  Interval weight(std::size_t h, std::size_t q, std::size_t c) const { return tables_[h].weights[q][c]; }
  /// i^{φ_h(t)}, cached for small i (the same positions recur across inputs;
  /// the cache is guarded by a mutex, so evaluations may run on several threads).
  Interval position_factor(std::size_t h, std::size_t t, std::uint64_t i) const;
  /// Head h's numerator and denominator at the point (attention::first_head_sums).
  void head_sums(std::size_t h, const Point& p, IVector& num, Interval& den) const;
  Vector<Number> finish(const IVector& y) const;

  Model model_;
  unsigned bits_;
  Shape shape_;
  std::vector<QVector> embeddings_;                     // per class
  std::vector<IVector> iembeddings_;                    // the same, enclosed
  std::vector<std::vector<QVector>> values_;            // [h][c]
  std::vector<std::vector<std::vector<Rational>>> logits_;   // [h][q][c]
  std::vector<attention::FirstHeadTables<Interval>> tables_;  // per head: e^{ℓ}, values, φ ≠ 0
  std::vector<Rational> top_;                           // max P_h per head
  mutable std::vector<std::vector<std::vector<Interval>>> factors_;  // [h][t][i − 1] for i <= kFactorCache
  std::shared_ptr<std::mutex> factors_mutex_ = std::make_shared<std::mutex>();
  static constexpr std::uint64_t kFactorCache = 1 << 12;
};

}  // namespace lgc
