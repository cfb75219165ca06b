#include "lgcheck/semantics/one_layer.hpp"

#include "lgcheck/semantics/finite_precision.hpp"

#include <map>
#include <stdexcept>

namespace lgc {
namespace {

int query_token(const Statistic& sigma) { return sigma.window.back(); }

std::size_t query_residue(const Statistic& sigma, std::size_t period) {
  return static_cast<std::size_t>(sigma.length % period);
}

}  // namespace

OneLayerEvaluator::OneLayerEvaluator(const Model& model) : model_(&model), shape_(shape_of(model)) {
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

Vector<Number> OneLayerEvaluator::representation_finite(const Statistic& sigma, unsigned p, unsigned bits) const {
  const int y = query_token(sigma);
  const std::size_t r = query_residue(sigma, shape_.period);
  const Integer T(sigma.length);
  Vector<Number> residual;
  {
    const QVector& e = embeddings_[static_cast<std::size_t>(y) * shape_.period + r];
    residual.assign(e.begin(), e.end());
  }
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

Rational l1_distance(const std::vector<Rational>& u, const std::vector<Rational>& v) {
  if (u.size() != v.size()) throw std::invalid_argument("l1_distance: sizes differ");
  Rational d = 0;
  for (std::size_t k = 0; k < u.size(); ++k) d += abs(u[k] - v[k]);
  return d;
}

}  // namespace lgc
