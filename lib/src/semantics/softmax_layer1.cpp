#include "lgcheck/semantics/softmax_layer1.hpp"

#include "lgcheck/report/position_progress.hpp"
#include "lgcheck/semantics/forward.hpp"

#include <algorithm>
#include <stdexcept>

namespace lgc {
namespace {

IVector zeros(std::size_t n, unsigned bits) { return IVector(n, Interval::zero(bits)); }

IVector divided(const IVector& num, const Interval& den) {
  IVector out(num.size());
  for (std::size_t k = 0; k < num.size(); ++k) out[k] = num[k] / den;
  return out;
}

}  // namespace

std::uint64_t SoftmaxFirstLayer::Point::bulk() const {
  std::uint64_t b = 0;
  for (auto n : counts) b += n;
  return b;
}

std::vector<Rational> SoftmaxFirstLayer::Point::histogram() const {
  const std::uint64_t b = bulk();
  if (b == 0) throw std::invalid_argument("the limit map needs a bulk: the input must be longer than tau + 1");
  std::vector<Rational> mu;
  for (auto n : counts) mu.emplace_back(Integer(n), Integer(b));
  return mu;
}

SoftmaxFirstLayer::SoftmaxFirstLayer(const Model& model, unsigned bits)
    : model_(model), bits_(bits), shape_(shape_of(model)) {
  if (model.layers.empty()) throw std::invalid_argument("SoftmaxFirstLayer: the model has no layer");
  const std::size_t K = shape_.classes();
  for (std::size_t c = 0; c < K; ++c) {
    embeddings_.push_back(initial_embedding(model, static_cast<int>(c / shape_.period), c % shape_.period));
    IVector e;
    for (const auto& q : embeddings_.back()) e.emplace_back(q, bits);
    iembeddings_.push_back(std::move(e));
  }
  for (const Head& head : model.layers[0].heads) {
    std::vector<QVector> v;
    std::vector<IVector> iv;
    for (std::size_t c = 0; c < K; ++c) {
      v.push_back(apply<Rational>(head.value, embeddings_[c]));
      IVector x;
      for (const auto& q : v.back()) x.emplace_back(q, bits);
      iv.push_back(std::move(x));
    }
    std::vector<std::vector<Rational>> l(K, std::vector<Rational>(K));
    std::vector<std::vector<Interval>> w(K, std::vector<Interval>(K));
    for (std::size_t q = 0; q < K; ++q) {
      QVector query = apply<Rational>(head.qk, embeddings_[q]);
      for (std::size_t c = 0; c < K; ++c) {
        l[q][c] = dot<Rational>(embeddings_[c], query);
        w[q][c] = exp(Interval(l[q][c], bits));
      }
    }
    std::vector<bool> has_phi;
    for (const Rational& phi : head.phi) has_phi.push_back(phi != 0);
    values_.push_back(std::move(v));
    logits_.push_back(std::move(l));
    tables_.push_back({std::move(w), std::move(iv), std::move(has_phi)});
    top_.push_back(std::max(Rational(1), *std::max_element(head.phi.begin(), head.phi.end())));
  }
}

std::size_t SoftmaxFirstLayer::class_at(const Tokens& x, std::size_t j) const {
  return static_cast<std::size_t>(x[j - 1]) * shape_.period + j % shape_.period;
}

Interval SoftmaxFirstLayer::position_factor(std::size_t h, std::size_t t, std::uint64_t i) const {
  const Rational& phi = model_.layers[0].heads[h].phi[t];
  if (i > kFactorCache) return power(Integer(i), phi, bits_);
  std::lock_guard<std::mutex> lock(*factors_mutex_);  // evaluations may run on several threads
  if (factors_.empty()) {
    factors_.resize(heads());
    for (std::size_t g = 0; g < heads(); ++g) factors_[g].resize(model_.layers[0].heads[g].phi.size());
  }
  auto& cache = factors_[h][t];
  while (cache.size() < i) cache.push_back(power(Integer(cache.size() + 1), phi, bits_));
  return cache[i - 1];
}

void SoftmaxFirstLayer::for_each_position(const Tokens& x, const std::function<void(const Point&)>& visit) const {
  Point p;
  p.counts.assign(shape_.classes(), 0);
  const std::size_t tau = shape_.locality;
  for (std::uint64_t i = 1; i <= x.size(); ++i) {
    if ((i & 0xFFFF) == 0) report_positions(i, x.size());
    p.i = i;
    if (i > tau + 1) ++p.counts[class_at(x, static_cast<std::size_t>(i - tau - 1))];
    p.window.clear();
    for (std::size_t t = 0; t <= tau && t < i; ++t) p.window.push_back(class_at(x, static_cast<std::size_t>(i - t)));
    visit(p);
  }
}

void SoftmaxFirstLayer::head_sums(std::size_t h, const Point& p, IVector& num, Interval& den) const {
  num.resize(model_.width);
  attention::first_head_sums(
      tables_[h], p.window.front(), p.counts, p.window, p.i, Interval::zero(bits_),
      [&](std::uint64_t n) { return Interval(Rational(Integer(n)), bits_); },
      [&](std::size_t t) { return position_factor(h, t, p.i); }, num, den);
}

IVector SoftmaxFirstLayer::head_output(std::size_t h, const Point& p) const {
  IVector num;
  Interval den;
  head_sums(h, p, num, den);
  return divided(num, den);
}

Vector<Number> SoftmaxFirstLayer::finish(const IVector& y) const {
  Vector<Number> out;
  for (const Interval& e : y) out.emplace_back(e);
  return model_.layers[0].mlp ? apply_mlp(*model_.layers[0].mlp, out) : out;
}

Vector<Number> SoftmaxFirstLayer::layer_output(const Point& p) const {
  IVector y = iembeddings_[p.window.front()], num;
  Interval den;
  for (std::size_t h = 0; h < heads(); ++h) {
    head_sums(h, p, num, den);
    attention::add_quotient(y, num, den);
  }
  return finish(y);
}

IVector SoftmaxFirstLayer::limit_head(std::size_t h, const std::vector<std::size_t>& window,
                                      const std::vector<Rational>& mu) const {
  const Head& head = model_.layers[0].heads[h];
  const std::size_t q = window.front(), width = model_.width;
  IVector num = zeros(width, bits_);
  Interval den = Interval::zero(bits_);
  if (top_[h] == 1)
    for (std::size_t c = 0; c < mu.size(); ++c) {
      if (mu[c] == 0) continue;
      Interval w = Interval(mu[c], bits_) * weight(h, q, c);
      den += w;
      attention::add_scaled(num, w, tables_[h].values[c]);
    }
  for (std::size_t t = 0; t < window.size(); ++t) {
    if (head.phi[t] != top_[h]) continue;
    Interval w = weight(h, q, window[t]);
    den += w;
    attention::add_scaled(num, w, tables_[h].values[window[t]]);
  }
  return divided(num, den);
}

Vector<Number> SoftmaxFirstLayer::limit_layer(const std::vector<std::size_t>& window,
                                              const std::vector<Rational>& mu) const {
  IVector y = iembeddings_[window.front()];
  for (std::size_t h = 0; h < heads(); ++h) {
    const IVector out = limit_head(h, window, mu);
    for (std::size_t k = 0; k < y.size(); ++k) y[k] += out[k];
  }
  return finish(y);
}

}  // namespace lgc
