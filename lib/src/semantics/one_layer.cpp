#include "lgcheck/semantics/one_layer.hpp"

#include "lgcheck/semantics/finite_precision.hpp"
#include "lgcheck/semantics/mlp.hpp"

#include <map>
#include <stdexcept>

namespace lgc {
namespace {

int query_token(const Statistic& sigma) { return sigma.window.back(); }

std::size_t query_residue(const Statistic& sigma, std::size_t period) {
  return static_cast<std::size_t>(sigma.length % period);
}

using SmallRow = std::vector<SmallRational>;

/// Every entry in SmallRational, or nullopt when one does not fit.
std::optional<SmallRow> small_row(const std::vector<Rational>& row) {
  SmallRow out;
  for (const Rational& q : row) {
    std::optional<SmallRational> s = to_small(q);
    if (!s) return std::nullopt;
    out.push_back(*s);
  }
  return out;
}

std::optional<std::vector<SmallRow>> small_rows(const QMatrix& m) {
  std::vector<SmallRow> out;
  for (std::size_t r = 0; r < m.rows(); ++r) {
    std::vector<Rational> row;
    for (std::size_t c = 0; c < m.cols(); ++c) row.push_back(m(r, c));
    std::optional<SmallRow> s = small_row(row);
    if (!s) return std::nullopt;
    out.push_back(std::move(*s));
  }
  return out;
}

/// m·v + bias in SmallRational.
void small_affine(SmallArithmetic& a, const std::vector<SmallRow>& m, const SmallRow& bias, const SmallRow& v,
                  SmallRow& out) {
  out.resize(m.size());
  for (std::size_t r = 0; r < m.size(); ++r) {
    SmallRational acc = bias[r];
    for (std::size_t c = 0; c < v.size(); ++c)
      if (m[r][c].num != 0 && v[c].num != 0) acc = a.add(acc, a.mul(m[r][c], v[c]));
    out[r] = acc;
  }
}

}  // namespace

OneLayerEvaluator::OneLayerEvaluator(const Model& model, ExactArithmetic arithmetic)
    : model_(&model), shape_(shape_of(model)) {
  if (model.layers.size() != 1) throw std::invalid_argument("one-layer evaluation needs a model of one layer");
  const std::size_t S = shape_.alphabet_size, D = shape_.period, K = shape_.classes();
  for (std::size_t c = 0; c < K; ++c) embeddings_.push_back(initial_embedding(model, static_cast<int>(c / D), c % D));
  const auto& heads = model.layers[0].heads;
  for (const auto& head : heads) {
    std::vector<QVector> v;
    for (std::size_t c = 0; c < K; ++c) v.push_back(apply<Rational>(head.value, embeddings_[c]));
    values_.push_back(std::move(v));
  }
  for (std::size_t h = 0; h < heads.size(); ++h)
    for (std::size_t y = 0; y < S; ++y)
      for (std::size_t r = 0; r < D; ++r) {
        QVector mq = apply<Rational>(heads[h].qk, embeddings_[y * D + r]);
        std::vector<Rational> row;
        for (std::size_t c = 0; c < K; ++c) row.push_back(dot<Rational>(embeddings_[c], mq));
        logits_.push_back(std::move(row));
      }
  if (arithmetic == ExactArithmetic::small_first) small_ = small_tables(model, embeddings_, values_, logits_);
}

std::optional<OneLayerEvaluator::SmallTables> OneLayerEvaluator::small_tables(
    const Model& model, const std::vector<QVector>& embeddings, const std::vector<std::vector<QVector>>& values,
    const std::vector<std::vector<Rational>>& logits) {
  SmallTables t;
  auto take = [](const std::vector<Rational>& row, SmallRow& into) {
    std::optional<SmallRow> s = small_row(row);
    if (s) into = std::move(*s);
    return s.has_value();
  };
  auto take_rows = [](const QMatrix& m, std::vector<SmallRow>& into) {
    std::optional<std::vector<SmallRow>> s = small_rows(m);
    if (s) into = std::move(*s);
    return s.has_value();
  };
  for (const QVector& e : embeddings)
    if (!take(e, t.embeddings.emplace_back())) return std::nullopt;
  for (const auto& per_class : values) {
    auto& head = t.values.emplace_back();
    for (const QVector& v : per_class)
      if (!take(v, head.emplace_back())) return std::nullopt;
  }
  for (const auto& row : logits)
    if (!take(row, t.logits.emplace_back())) return std::nullopt;
  for (const auto& head : model.layers[0].heads)
    if (!take(head.phi, t.phi.emplace_back())) return std::nullopt;
  if (const auto& mlp = model.layers[0].mlp)
    if (!take_rows(mlp->in, t.mlp_in) || !take_rows(mlp->out, t.mlp_out) || !take(mlp->in_bias, t.mlp_in_bias) ||
        !take(mlp->out_bias, t.mlp_out_bias))
      return std::nullopt;
  t.rational_readout = !model.readout.sin_omega;
  if (t.rational_readout &&
      (!take_rows(model.readout.weights, t.readout) || !take(model.readout.bias, t.readout_bias)))
    return std::nullopt;
  const auto enclosed = [](const Rational& q) { return FastInterval::enclosing(q); };
  const auto enclosed_vector = [&](const QVector& v) {
    std::vector<FastInterval> out;
    for (const Rational& q : v) out.push_back(enclosed(q));
    return out;
  };
  if (const auto& mlp = model.layers[0].mlp) {
    t.fast_mlp_in = FastSparseMatrix(mlp->in), t.fast_mlp_out = FastSparseMatrix(mlp->out);
    t.fast_mlp_in_bias = enclosed_vector(mlp->in_bias), t.fast_mlp_out_bias = enclosed_vector(mlp->out_bias);
  }
  t.fast_readout = FastSparseMatrix(model.readout.weights);
  t.fast_readout_bias = enclosed_vector(model.readout.bias);
  if (model.readout.sin_omega) t.omega = enclosed(*model.readout.sin_omega);
  return t;
}

bool OneLayerEvaluator::representation_small(const Statistic& sigma, std::vector<SmallRational>& y) const {
  if (!attention_small(sigma, y)) return false;
  if (model_->layers[0].mlp) {
    const SmallTables& t = *small_;
    SmallArithmetic a;
    thread_local SmallRow hidden, out;
    small_affine(a, t.mlp_in, t.mlp_in_bias, y, hidden);
    for (SmallRational& x : hidden)
      if (x.num < 0) x = SmallRational{};
    small_affine(a, t.mlp_out, t.mlp_out_bias, hidden, out);
    for (std::size_t k = 0; k < y.size(); ++k) y[k] = a.add(y[k], out[k]);
    return !a.overflowed();
  }
  return true;
}

bool OneLayerEvaluator::attention_small(const Statistic& sigma, std::vector<SmallRational>& y) const {
  if (!small_) return false;
  const SmallTables& t = *small_;
  SmallArithmetic a;
  const int token = query_token(sigma);
  const std::size_t r = query_residue(sigma, shape_.period), K = shape_.classes();
  y = t.embeddings[static_cast<std::size_t>(token) * shape_.period + r];
  thread_local SmallRow window_logits, sum;
  for (std::size_t h = 0; h < heads(); ++h) {
    const SmallRow& row = t.logits[(h * shape_.alphabet_size + static_cast<std::size_t>(token)) * shape_.period + r];
    // The top logit over the present bulk classes and the window slots.
    std::optional<SmallRational> top;
    for (std::size_t c = 0; c < K; ++c)
      if (sigma.counts[c] > 0 && (!top || compare(row[c], *top) > 0)) top = row[c];
    window_logits.resize(sigma.window.size());
    for (std::size_t slot = 0; slot < sigma.window.size(); ++slot) {
      const SmallRational& phi = t.phi[h][slot];
      const SmallRational& content = row[window_class(sigma, slot)];
      window_logits[slot] = phi.num == 0 ? content : a.add(content, phi);
      if (!top || compare(window_logits[slot], *top) > 0) top = window_logits[slot];
    }
    // (Σ_{top classes} n_c·v_c + Σ_{top slots} v_slot) / their total weight.
    sum.assign(y.size(), SmallRational{});
    std::uint64_t total = 0;
    for (std::size_t c = 0; c < K; ++c) {
      if (sigma.counts[c] == 0 || !(row[c] == *top)) continue;
      total += sigma.counts[c];
      for (std::size_t k = 0; k < y.size(); ++k) sum[k] = a.add(sum[k], a.scale(t.values[h][c][k], sigma.counts[c]));
    }
    for (std::size_t slot = 0; slot < sigma.window.size(); ++slot) {
      if (!(window_logits[slot] == *top)) continue;
      ++total;
      const SmallRow& v = t.values[h][window_class(sigma, slot)];
      for (std::size_t k = 0; k < y.size(); ++k) sum[k] = a.add(sum[k], v[k]);
    }
    for (std::size_t k = 0; k < y.size(); ++k) y[k] = a.add(y[k], a.divide(sum[k], total));
  }
  return !a.overflowed();
}

bool OneLayerEvaluator::evaluate_small(const Statistic& sigma, std::vector<SmallRational>& out) const {
  if (!has_small_path()) return false;
  thread_local SmallRow y;
  if (!representation_small(sigma, y)) return false;
  SmallArithmetic a;
  small_affine(a, small_->readout, small_->readout_bias, y, out);
  return !a.overflowed();
}

namespace {

/// An enclosure of an int64 (exact below 2^53 in magnitude).
FastInterval enclose_integer(std::int64_t n) {
  const double d = static_cast<double>(n);
  return std::abs(d) < 0x1p53 ? FastInterval::point(d) : FastInterval{next_down(d), next_up(d)};
}

}  // namespace

bool OneLayerEvaluator::enclose_fast(const Statistic& sigma, std::vector<FastInterval>& out) const {
  thread_local SmallRow exact;
  thread_local std::vector<FastInterval> y;
  if (!attention_small(sigma, exact)) return false;
  y.resize(exact.size());
  for (std::size_t k = 0; k < exact.size(); ++k) y[k] = enclose_integer(exact[k].num) / enclose_integer(exact[k].den);
  return enclose_after_attention(y, out);
}

bool OneLayerEvaluator::enclose_after_attention(std::vector<FastInterval>& y, std::vector<FastInterval>& out) const {
  thread_local std::vector<FastInterval> hidden, product;
  if (!small_) return false;
  const SmallTables& t = *small_;
  if (model_->layers[0].mlp) {  // y ← y + W_out relu(W_in y + b_in) + b_out
    t.fast_mlp_in.times(y, hidden);
    for (std::size_t k = 0; k < hidden.size(); ++k)
      hidden[k] = relu(add_exact_zero_aware(hidden[k], t.fast_mlp_in_bias[k]));
    t.fast_mlp_out.times(hidden, product);
    for (std::size_t k = 0; k < y.size(); ++k)
      y[k] = add_exact_zero_aware(add_exact_zero_aware(y[k], product[k]), t.fast_mlp_out_bias[k]);
  }
  t.fast_readout.times(y, out);
  for (std::size_t k = 0; k < out.size(); ++k) {
    out[k] = add_exact_zero_aware(out[k], t.fast_readout_bias[k]);
    if (!t.rational_readout) out[k] = sin(t.omega * out[k]);
  }
  for (const FastInterval& v : out)
    if (!v.is_finite()) return false;
  return true;
}

const Rational& OneLayerEvaluator::class_logit(std::size_t h, int y, std::size_t r, std::size_t c) const {
  return logits_[(h * shape_.alphabet_size + static_cast<std::size_t>(y)) * shape_.period + r][c];
}

std::size_t OneLayerEvaluator::window_class(const Statistic& sigma, std::size_t t) const {
  int token = sigma.window[sigma.window.size() - 1 - t];
  std::size_t residue = static_cast<std::size_t>((sigma.length - t) % shape_.period);
  return static_cast<std::size_t>(token) * shape_.period + residue;
}

Rational OneLayerEvaluator::window_logit(std::size_t h, const Statistic& sigma, std::size_t t) const {
  Rational scratch;
  return window_logit(h, sigma, t, scratch);
}

const Rational& OneLayerEvaluator::window_logit(std::size_t h, const Statistic& sigma, std::size_t t,
                                                Rational& scratch) const {
  const Rational& content =
      class_logit(h, query_token(sigma), query_residue(sigma, shape_.period), window_class(sigma, t));
  const Rational& phi = model_->layers[0].heads[h].phi[t];
  if (phi == 0) return content;
  scratch = content;
  scratch += phi;
  return scratch;
}

HeadTop OneLayerEvaluator::top(std::size_t h, const Statistic& sigma) const {
  const int y = query_token(sigma);
  const std::size_t r = query_residue(sigma, shape_.period);
  HeadTop top;
  bool any = false;
  auto consider = [&](const Rational& logit, bool is_class, std::size_t index) {
    if (!any || logit > top.max_logit) {
      any = true;
      top.max_logit = logit;
      top.classes.clear();
      top.window_slots.clear();
    }
    if (logit == top.max_logit) (is_class ? top.classes : top.window_slots).push_back(index);
  };
  for (std::size_t c = 0; c < shape_.classes(); ++c)
    if (sigma.counts[c] > 0) consider(class_logit(h, y, r, c), true, c);
  thread_local Rational scratch;  // a window logit with its bonus, without a fresh allocation per slot
  for (std::size_t t = 0; t < sigma.window.size(); ++t) consider(window_logit(h, sigma, t, scratch), false, t);
  return top;
}

const QVector* OneLayerEvaluator::single_value(std::size_t h, const Statistic& sigma, const HeadTop& top) const {
  const QVector* first = nullptr;
  auto same = [&](const QVector& v) {
    if (!first) first = &v;
    return v == *first;
  };
  for (std::size_t c : top.classes)
    if (!same(class_value(h, c))) return nullptr;
  for (std::size_t t : top.window_slots)
    if (!same(class_value(h, window_class(sigma, t)))) return nullptr;
  return first;
}

std::vector<Rational> OneLayerEvaluator::attention(std::size_t h, const Statistic& sigma) const {
  HeadTop t = top(h, sigma);
  std::vector<Rational> w(shape_.classes() + sigma.window.size(), Rational(0));
  Integer total = Integer(t.window_slots.size());
  for (std::size_t c : t.classes) total += sigma.counts[c];
  for (std::size_t c : t.classes) w[c] = Rational(Integer(sigma.counts[c]), total);
  for (std::size_t s : t.window_slots) w[shape_.classes() + s] = Rational(Integer(1), total);
  return w;
}

QVector OneLayerEvaluator::representation(const Statistic& sigma) const {
  thread_local std::vector<SmallRational> fast;
  if (representation_small(sigma, fast)) {
    QVector out;
    out.reserve(fast.size());
    for (const SmallRational& q : fast) out.push_back(to_rational(q));
    return out;
  }
  QVector y = embeddings_[static_cast<std::size_t>(query_token(sigma)) * shape_.period +
                          query_residue(sigma, shape_.period)];
  // Per head: (Σ_{top classes} n_c·v_c + Σ_{top slots} v_slot) / (their total
  // weight), accumulated with integer weights and divided once (the same
  // value as Σ_slot attention(h)_slot·v_slot, with fewer rational operations).
  thread_local QVector sum;  // scratch, reused across calls (the hot path of every exhaustive check)
  thread_local Rational term;
  sum.resize(y.size());
  for (std::size_t h = 0; h < heads(); ++h) {
    const HeadTop t = top(h, sigma);
    std::uint64_t total = t.window_slots.size();
    for (auto& e : sum) e = 0;
    for (std::size_t c : t.classes) {
      total += sigma.counts[c];
      const Rational n(Integer(sigma.counts[c]));
      for (std::size_t k = 0; k < y.size(); ++k) {
        term = values_[h][c][k];
        term *= n;
        sum[k] += term;
      }
    }
    for (std::size_t slot : t.window_slots) {
      const QVector& v = values_[h][window_class(sigma, slot)];
      for (std::size_t k = 0; k < y.size(); ++k) sum[k] += v[k];
    }
    const Rational inverse(Integer(1), Integer(total));
    for (std::size_t k = 0; k < y.size(); ++k) {
      if (sum[k] == 0) continue;
      term = sum[k];
      term *= inverse;
      y[k] += term;
    }
  }
  const auto& mlp = model_->layers[0].mlp;
  if (!mlp) return y;
  QVector out;
  for (const Number& x : apply_mlp(*mlp, Vector<Number>(y.begin(), y.end()))) out.push_back(x.exact());
  return out;
}

Output OneLayerEvaluator::evaluate(const Statistic& sigma, unsigned bits) const {
  QVector y = representation(sigma);
  return apply_readout(*model_, Vector<Number>(y.begin(), y.end()), bits);
}

Output OneLayerEvaluator::evaluate_finite(const Statistic& sigma, unsigned p, unsigned bits) const {
  return apply_readout(*model_, representation_finite(sigma, p, bits), bits);
}

Vector<Number> OneLayerEvaluator::query_embedding(const Statistic& sigma) const {
  const QVector& e = embeddings_[static_cast<std::size_t>(query_token(sigma)) * shape_.period +
                                 query_residue(sigma, shape_.period)];
  return Vector<Number>(e.begin(), e.end());
}

Vector<Number> OneLayerEvaluator::representation_finite(const Statistic& sigma, unsigned p, unsigned bits) const {
  const int y = query_token(sigma);
  const std::size_t r = query_residue(sigma, shape_.period);
  const Integer T(sigma.length);
  Vector<Number> residual = query_embedding(sigma);
  for (std::size_t h = 0; h < heads(); ++h) {
    HeadTop t = top(h, sigma);
    std::map<Rational, Number> weight_of_gap;  // one decision per distinct gap
    auto weight = [&](const Rational& logit) -> Number {
      Rational gap = t.max_logit - logit;
      auto it = weight_of_gap.find(gap);
      if (it == weight_of_gap.end()) it = weight_of_gap.emplace(gap, finite_weight(T, gap, p, bits)).first;
      return it->second;
    };
    Number total(0);
    Vector<Number> sum(residual.size(), Number(0));
    for (std::size_t c = 0; c < shape_.classes(); ++c) {
      if (sigma.counts[c] == 0) continue;
      Number w = weight(class_logit(h, y, r, c)) * Number(Rational(Integer(sigma.counts[c])));
      if (w.is_exact() && w.exact() == 0) continue;
      total += w;
      for (std::size_t k = 0; k < sum.size(); ++k) sum[k] += w * Number(values_[h][c][k]);
    }
    for (std::size_t slot = 0; slot < sigma.window.size(); ++slot) {
      Number w = weight(window_logit(h, sigma, slot));
      if (w.is_exact() && w.exact() == 0) continue;
      total += w;
      for (std::size_t k = 0; k < sum.size(); ++k) sum[k] += w * Number(values_[h][window_class(sigma, slot)][k]);
    }
    for (std::size_t k = 0; k < sum.size(); ++k) residual[k] += sum[k] / total;
  }
  const auto& mlp = model_->layers[0].mlp;
  return mlp ? apply_mlp(*mlp, residual) : residual;
}

Output OneLayerEvaluator::evaluate_rounded(const Statistic& sigma, const Semantics& semantics, unsigned bits) const {
  return apply_readout(*model_, representation_rounded(sigma, semantics, bits), bits);
}

Vector<Number> OneLayerEvaluator::representation_rounded(const Statistic& sigma, const Semantics& semantics,
                                                         unsigned bits) const {
  if (semantics.kind == Semantics::Kind::Finite) return representation_finite(sigma, semantics.bits, bits);
  if (semantics.kind != Semantics::Kind::FiniteWeights)
    throw std::invalid_argument("representation_rounded: " + semantics.str() + " rounds no weight");
  const int y = query_token(sigma);
  const std::size_t r = query_residue(sigma, shape_.period);
  const Integer T(sigma.length);
  Vector<Number> residual = query_embedding(sigma);
  for (std::size_t h = 0; h < heads(); ++h) {
    const HeadTop t = top(h, sigma);
    // Every key as (its gap to the maximum, how many keys, its value): the bulk classes, then the window slots.
    struct Keys {
      Rational gap;
      std::uint64_t count;
      const QVector* value;
    };
    std::vector<Keys> keys;
    for (std::size_t c = 0; c < shape_.classes(); ++c)
      if (sigma.counts[c] > 0) keys.push_back({t.max_logit - class_logit(h, y, r, c), sigma.counts[c], &values_[h][c]});
    for (std::size_t slot = 0; slot < sigma.window.size(); ++slot)
      keys.push_back({t.max_logit - window_logit(h, sigma, slot), 1, &values_[h][window_class(sigma, slot)]});
    std::map<Rational, std::uint64_t> keys_of_gap;
    for (const Keys& k : keys) keys_of_gap[k.gap] += k.count;
    const std::map<Rational, Number> kept = surviving_terms(keys_of_gap, T, semantics.bits, bits);
    if (kept.empty()) continue;  // every weight rounded: the head adds 0
    Number total(0);
    Vector<Number> sum(residual.size(), Number(0));
    for (const Keys& k : keys) {
      const auto it = kept.find(k.gap);
      if (it == kept.end()) continue;
      const Number w = it->second * Number(Rational(Integer(k.count)));
      total += w;
      for (std::size_t i = 0; i < sum.size(); ++i) sum[i] += w * Number((*k.value)[i]);
    }
    for (std::size_t i = 0; i < sum.size(); ++i) residual[i] += sum[i] / total;
  }
  const auto& mlp = model_->layers[0].mlp;
  return mlp ? apply_mlp(*mlp, residual) : residual;
}

Rational l1_distance(const std::vector<Rational>& u, const std::vector<Rational>& v) {
  if (u.size() != v.size()) throw std::invalid_argument("l1_distance: sizes differ");
  Rational d = 0;
  for (std::size_t k = 0; k < u.size(); ++k) d += abs(u[k] - v[k]);
  return d;
}

Vector<Number> representation_under(const OneLayerEvaluator& m, const Statistic& sigma, unsigned p, unsigned bits) {
  if (p != 0) return m.representation_finite(sigma, p, bits);
  const QVector y = m.representation(sigma);
  return Vector<Number>(y.begin(), y.end());
}

Number output_distance(const OneLayerEvaluator& f, const Statistic& x, const OneLayerEvaluator& g, const Statistic& z,
                       unsigned p, unsigned bits) {
  return readout_distance(f.model(), representation_under(f, x, p, bits), g.model(), representation_under(g, z, p, bits),
                          bits);
}

}  // namespace lgc
