#pragma once
// One-layer hardmax evaluation from the sufficient statistic σ(x): the
// output, the argmax ("top level") sets of every head and the attention
// distribution ω_h over classes, at a cost independent of T.
#include "lgcheck/numeric/fast_interval.hpp"
#include "lgcheck/numeric/fast_sparse_matrix.hpp"
#include "lgcheck/numeric/number.hpp"
#include "lgcheck/numeric/small_rational.hpp"
#include "lgcheck/semantics/forward.hpp"
#include "lgcheck/enumerate/statistic.hpp"

#include <vector>

namespace lgc {

/// The argmax set of one head at the last query: bulk classes (index s·Δ+r,
/// present in σ) and window slots (offset t = T − j) of maximal logit.
struct HeadTop {
  Rational max_logit;
  std::vector<std::size_t> classes;
  std::vector<std::size_t> window_slots;
};

/// How the exact hardmax evaluation computes: in 64-bit rationals
/// (SmallRational) first, redoing in GMP whatever does not fit, or in GMP
/// only (the reference the fast path is tested and benchmarked against).
enum class ExactArithmetic { small_first, gmp_only };

class OneLayerEvaluator {
 public:
  /// Requires a model of exactly one layer (throws std::invalid_argument).
  /// Keeps a reference to `model`, which must outlive the evaluator.
  explicit OneLayerEvaluator(const Model& model, ExactArithmetic arithmetic = ExactArithmetic::small_first);
  /// A temporary model would dangle: refused at compile time.
  explicit OneLayerEvaluator(Model&& model, ExactArithmetic arithmetic = ExactArithmetic::small_first) = delete;

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
  /// Whether head h weighs its argmax set `top` (= top(h, sigma)) with one
  /// value only: every top class and window slot carries the same value
  /// vector V_h(E_s + p_r), so the head's output is that vector whatever the
  /// counts (in particular when the set is a single class or slot).
  bool single_valued(std::size_t h, const Statistic& sigma, const HeadTop& top) const {
    return single_value(h, sigma, top) != nullptr;
  }
  /// That one value vector when head h weighs `top` with one value, else null.
  const QVector* single_value(std::size_t h, const Statistic& sigma, const HeadTop& top) const;
  /// ω_h(σ): weights over the K bulk classes followed by the window slots
  /// t = 0..window−1 (exact; sums to 1).
  std::vector<Rational> attention(std::size_t h, const Statistic& sigma) const;

  /// The residual stream after the layer (and its MLP), before the readout.
  /// Computed in 64-bit rationals (SmallRational) when every number fits,
  /// else in GMP: the same exact value either way.
  QVector representation(const Statistic& sigma) const;
  /// representation() in SmallRational; false (and `y` meaningless) without
  /// a small path or when some intermediate number left 64 bits.
  bool representation_small(const Statistic& sigma, std::vector<SmallRational>& y) const;
  /// True when the model's numbers fit SmallRational, its readout is
  /// rational (no sin) and the arithmetic is small_first: evaluate_small can
  /// then be tried.
  bool has_small_path() const { return small_.has_value() && small_->rational_readout; }
  /// True when the model's numbers fit SmallRational (with any readout):
  /// enclose_fast and enclose_after_attention can then be tried.
  bool has_fast_enclosure() const { return small_.has_value(); }
  /// Whether the readout is rational (no sin): the output is then exact.
  bool rational_readout() const { return !model_->readout.sin_omega.has_value(); }
  /// f(x) under hardmax in SmallRational; false (and `out` meaningless) when
  /// has_small_path() is false or some intermediate number left 64 bits:
  /// evaluate() then gives the value.
  bool evaluate_small(const Statistic& sigma, std::vector<SmallRational>& out) const;
  /// f(x) under hardmax as certified double enclosures (FastInterval): the
  /// attention exactly in SmallRational (the argmax sets need exact
  /// comparisons), then the MLP, the readout and a sin readout's sin(ω·) in
  /// FastInterval. false when a number left 64 bits or an enclosure is
  /// unbounded. A cheap bound for skipping what cannot matter (D(n)'s
  /// statistics below the maximum), never a value reported.
  bool enclose_fast(const Statistic& sigma, std::vector<FastInterval>& out) const;
  /// The rest of enclose_fast from an enclosure `y` of the residual stream
  /// after the attention (its query embedding plus every head's output; y is
  /// overwritten): the MLP, the readout and a sin readout, in FastInterval,
  /// for any box of y. false without the 64-bit tables or when an enclosure
  /// is unbounded.
  bool enclose_after_attention(std::vector<FastInterval>& y, std::vector<FastInterval>& out) const;
  /// f(x) for any x with statistic σ, under hardmax.
  Output evaluate(const Statistic& sigma, unsigned bits = kDefaultPrecisionBits) const;
  /// f(x) under finite:p at the last position, from σ: every class and
  /// window slot gets weight T^{−δ} (δ its gap to the maximum), rounded to 0
  /// exactly when T^δ >= 2^p; exact when the survivors' weights are rational.
  Output evaluate_finite(const Statistic& sigma, unsigned p, unsigned bits = kDefaultPrecisionBits) const;
  /// The finite:p residual stream before the readout (see evaluate_finite).
  Vector<Number> representation_finite(const Statistic& sigma, unsigned p, unsigned bits = kDefaultPrecisionBits) const;
  /// The residual stream before the readout under a rounding semantics:
  /// finite:p as representation_finite; finite-weights:p with every key's
  /// normalised weight T^{−δ}/Σ_keys T^{−δ'} rounded to 0 when <= 2^{−p}
  /// (decided by weight_rounds_to_zero) and the survivors renormalised (a
  /// head whose every weight rounds adds 0). Throws std::invalid_argument for
  /// hardmax or softmax.
  Vector<Number> representation_rounded(const Statistic& sigma, const Semantics& semantics,
                                        unsigned bits = kDefaultPrecisionBits) const;
  /// The output under a rounding semantics (see representation_rounded).
  Output evaluate_rounded(const Statistic& sigma, const Semantics& semantics,
                          unsigned bits = kDefaultPrecisionBits) const;

 private:
  /// E_y + p_r of the statistic's query (y its token, r its residue), as Numbers: the residual before the heads.
  Vector<Number> query_embedding(const Statistic& sigma) const;
  /// The tables below (and the MLP and readout) in SmallRational.
  struct SmallTables {
    using Row = std::vector<SmallRational>;
    std::vector<Row> embeddings;               // per class
    std::vector<std::vector<Row>> values;      // [h][class]
    std::vector<Row> logits;                   // as logits_
    std::vector<Row> phi;                      // [h][offset t]
    std::vector<Row> mlp_in, mlp_out;          // h×d, d×h (empty without an MLP)
    Row mlp_in_bias, mlp_out_bias;
    std::vector<Row> readout;                  // o×d
    Row readout_bias;
    bool rational_readout = true;              // no sin
    // enclose_fast's: the MLP (when there is one) and the readout enclosed in doubles, ω of a sin readout
    FastSparseMatrix fast_mlp_in, fast_mlp_out, fast_readout;
    std::vector<FastInterval> fast_mlp_in_bias, fast_mlp_out_bias, fast_readout_bias;
    FastInterval omega;
  };
  /// representation_small before the layer's MLP.
  bool attention_small(const Statistic& sigma, std::vector<SmallRational>& y) const;
  static std::optional<SmallTables> small_tables(const Model& model, const std::vector<QVector>& embeddings,
                                                 const std::vector<std::vector<QVector>>& values,
                                                 const std::vector<std::vector<Rational>>& logits);
  const Model* model_;
  Shape shape_;
  std::vector<QVector> embeddings_;            // per class
  std::vector<std::vector<QVector>> values_;   // [h][class] V_h·(E_s + p_r)
  std::vector<std::vector<Rational>> logits_;  // [(h·S + y)·Δ + r][class]
  std::optional<SmallTables> small_;            // small_first, when every entry fits
};

/// m's representation before the readout at σ: under hardmax for p = 0 (exact), else under finite:p.
Vector<Number> representation_under(const OneLayerEvaluator& m, const Statistic& sigma, unsigned p,
                                    unsigned bits = kDefaultPrecisionBits);

/// |f(x) − g(z)|∞ under hardmax (p = 0) or finite:p: readout_distance of the two representations before the
/// readouts (the exact 0 when the readouts apply one activation to equal arguments). A pair at one statistic takes
/// (f, σ, g, σ); one model at two statistics (m, x, m, z).
Number output_distance(const OneLayerEvaluator& f, const Statistic& x, const OneLayerEvaluator& g, const Statistic& z,
                       unsigned p = 0, unsigned bits = kDefaultPrecisionBits);

/// ‖u − v‖₁ of two weight vectors of equal size.
Rational l1_distance(const std::vector<Rational>& u, const std::vector<Rational>& v);

}  // namespace lgc
