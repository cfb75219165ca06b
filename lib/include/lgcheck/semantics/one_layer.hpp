#pragma once
// One-layer hardmax evaluation from the sufficient statistic σ(x): the
// output, the argmax ("top level") sets of every head and the attention
// distribution ω_h over classes, at a cost independent of T.
#include "lgcheck/numeric/number.hpp"
#include "lgcheck/semantics/forward.hpp"
#include "lgcheck/semantics/statistic.hpp"

#include <vector>

namespace lgc {

/// The argmax set of one head at the last query: bulk classes (index s·Δ+r,
/// present in σ) and window slots (offset t = T − j) of maximal logit.
struct HeadTop {
  Rational max_logit;
  std::vector<std::size_t> classes;
  std::vector<std::size_t> window_slots;
};

class OneLayerEvaluator {
 public:
  /// Requires a model of exactly one layer (throws std::invalid_argument).
  explicit OneLayerEvaluator(const Model& model);

  const Model& model() const { return *model_; }
  const Shape& shape() const { return shape_; }
  std::size_t heads() const { return model_->layers[0].heads.size(); }

  /// (E_s + p_r) for class index c = s·Δ + r.
  const QVector& class_embedding(std::size_t c) const { return embeddings_[c]; }
  /// V_h·(E_s + p_r), the value vector of class c in head h.
  const QVector& class_value(std::size_t h, std::size_t c) const { return values_[h][c]; }
  /// Logit of the bulk class c at query (token y, residue r) for head h.
  const Rational& class_logit(std::size_t h, int y, std::size_t r, std::size_t c) const;
  /// The class (token, residue) of window slot t.
  std::size_t window_class(const Statistic& sigma, std::size_t t) const;
  /// Logit of window slot t: its class logit plus φ_h(t).
  Rational window_logit(std::size_t h, const Statistic& sigma, std::size_t t) const;
  /// The same without allocating: the class logit itself when φ(t) = 0, else
  /// the sum written into `scratch` (the reference is valid while both live).
  const Rational& window_logit(std::size_t h, const Statistic& sigma, std::size_t t, Rational& scratch) const;

  HeadTop top(std::size_t h, const Statistic& sigma) const;
  /// ω_h(σ): weights over the K bulk classes followed by the window slots
  /// t = 0..window−1 (exact; sums to 1).
  std::vector<Rational> attention(std::size_t h, const Statistic& sigma) const;

  /// The residual stream after the layer (and its MLP), before the readout.
  QVector representation(const Statistic& sigma) const;
  /// f(x) for any x with statistic σ, under hardmax.
  Output evaluate(const Statistic& sigma, unsigned bits = kDefaultPrecisionBits) const;
  /// f(x) under finite:p at the last position, from σ: every class and
  /// window slot gets weight T^{−δ} (δ its gap to the maximum), rounded to 0
  /// exactly when T^δ >= 2^p; exact when the survivors' weights are rational.
  Output evaluate_finite(const Statistic& sigma, unsigned p, unsigned bits = kDefaultPrecisionBits) const;
  /// The finite:p residual stream before the readout (see evaluate_finite).
  Vector<Number> representation_finite(const Statistic& sigma, unsigned p, unsigned bits = kDefaultPrecisionBits) const;

 private:
  const Model* model_;
  Shape shape_;
  std::vector<QVector> embeddings_;            // per class
  std::vector<std::vector<QVector>> values_;   // [h][class] V_h·(E_s + p_r)
  std::vector<std::vector<Rational>> logits_;  // [(h·S + y)·Δ + r][class]
};

/// ‖u − v‖₁ of two weight vectors of equal size.
Rational l1_distance(const std::vector<Rational>& u, const std::vector<Rational>& v);

}  // namespace lgc
