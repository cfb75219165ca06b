#include "lgcheck/semantics/softmax_linear_fast.hpp"

#include "lgcheck/report/position_progress.hpp"

#include <stdexcept>

namespace lgc {
namespace {

FVector enclosed(const QVector& v) {
  FVector out;
  out.reserve(v.size());
  for (const auto& q : v) out.push_back(FastInterval::enclosing(q));
  return out;
}

std::vector<FVector> rows_of(const QMatrix& m) {
  std::vector<FVector> rows;
  for (std::size_t r = 0; r < m.rows(); ++r) {
    FVector row;
    for (std::size_t c = 0; c < m.cols(); ++c) row.push_back(FastInterval::enclosing(m(r, c)));
    rows.push_back(std::move(row));
  }
  return rows;
}

FastInterval dot(const FVector& a, const FVector& b) {
  FastInterval s{0, 0};
  for (std::size_t k = 0; k < a.size(); ++k) s += a[k] * b[k];
  return s;
}

void add_scaled(FVector& sum, FastInterval w, const FVector& v) {
  for (std::size_t k = 0; k < sum.size(); ++k) sum[k] += w * v[k];
}

}  // namespace

FastSoftmaxLinear::Mlp FastSoftmaxLinear::mlp_of(const Model& model, std::size_t layer) {
  const lgc::Mlp& m = *model.layers[layer].mlp;
  return {rows_of(m.in), rows_of(m.out), enclosed(m.in_bias), enclosed(m.out_bias)};
}

FastSoftmaxLinear::FastSoftmaxLinear(const SoftmaxFirstLayer& first)
    : shape_(first.shape()), width_(first.model().width), two_layers_(first.model().layers.size() == 2) {
  const Model& model = first.model();
  if (model.layers.size() > 2)
    throw std::invalid_argument("FastSoftmaxLinear: one or two layers, got " + std::to_string(model.layers.size()));
  const std::size_t K = shape_.classes();
  for (std::size_t c = 0; c < K; ++c)
    embeddings_.push_back(enclosed(initial_embedding(model, static_cast<int>(c / shape_.period), c % shape_.period)));
  for (std::size_t h = 0; h < first.heads(); ++h) {
    FirstHead head;
    for (std::size_t q = 0; q < K; ++q) {
      std::vector<FastInterval> row;
      for (std::size_t c = 0; c < K; ++c) row.push_back(FastInterval::enclosing(exp(Interval(first.logit(h, q, c)))));
      head.weights.push_back(std::move(row));
    }
    for (std::size_t c = 0; c < K; ++c) head.values.push_back(enclosed(first.value(h, c)));
    for (const Rational& phi : model.layers[0].heads[h].phi) {
      head.phi.push_back(FastInterval::enclosing(phi));
      head.has_phi.push_back(phi != 0);
    }
    first_.push_back(std::move(head));
  }
  if (model.layers[0].mlp) mlp1_ = mlp_of(model, 0);
  if (!two_layers_) return;
  if (model.layers[1].mlp) mlp2_ = mlp_of(model, 1);
  for (const Head& head : model.layers[1].heads) {
    SecondHead g;
    for (std::size_t r = 0; r < width_; ++r)
      for (std::size_t c = 0; c < width_; ++c) {
        if (head.qk(r, c) != 0) g.qk.push_back({r, c, FastInterval::enclosing(head.qk(r, c))});
        if (head.value(r, c) != 0) g.value.push_back({r, c, FastInterval::enclosing(head.value(r, c))});
      }
    for (const Rational& phi : head.phi) {
      g.phi.push_back(FastInterval::enclosing(phi));
      g.has_phi.push_back(phi != 0);
    }
    second_.push_back(std::move(g));
  }
}

std::size_t FastSoftmaxLinear::class_at(const Tokens& x, std::uint64_t j) const {
  return static_cast<std::size_t>(x[j - 1]) * shape_.period + j % shape_.period;
}

void FastSoftmaxLinear::apply_mlp(const Mlp& mlp, FVector& y, FVector& hidden) {
  hidden.resize(mlp.in.size());
  for (std::size_t r = 0; r < hidden.size(); ++r) hidden[r] = relu(dot(mlp.in[r], y) + mlp.in_bias[r]);
  for (std::size_t k = 0; k < y.size(); ++k) y[k] = y[k] + dot(mlp.out[k], hidden) + mlp.out_bias[k];
}

void FastSoftmaxLinear::first_layer(const Tokens& x, std::uint64_t i, const std::vector<std::uint64_t>& counts,
                                    FVector& y, FVector& num) const {
  const std::size_t q = class_at(x, i), tau = shape_.locality;
  y = embeddings_[q];
  const FastInterval log_i = log(FastInterval::point(static_cast<double>(i)));
  for (const FirstHead& head : first_) {
    num.assign(width_, FastInterval{0, 0});
    FastInterval den{0, 0};
    for (std::size_t c = 0; c < counts.size(); ++c) {
      if (counts[c] == 0) continue;
      const FastInterval w = FastInterval::point(static_cast<double>(counts[c])) * head.weights[q][c];
      den += w;
      add_scaled(num, w, head.values[c]);
    }
    for (std::size_t t = 0; t <= tau && t < i; ++t) {
      const std::size_t c = class_at(x, i - t);
      FastInterval w = head.weights[q][c];
      if (i > 1 && head.has_phi[t]) w *= exp(head.phi[t] * log_i);
      den += w;
      add_scaled(num, w, head.values[c]);
    }
    for (std::size_t k = 0; k < width_; ++k) y[k] += num[k] / den;
  }
  if (mlp1_) apply_mlp(*mlp1_, y, num);
}

std::optional<FVector> FastSoftmaxLinear::representation(const Tokens& x) const {
  if (x.empty()) throw std::invalid_argument("FastSoftmaxLinear: empty input");
  const std::uint64_t T = x.size(), tau = shape_.locality;
  std::vector<std::uint64_t> counts(shape_.classes(), 0);
  for (std::uint64_t j = 1; j + tau + 1 <= T; ++j) ++counts[class_at(x, j)];
  FVector last, scratch;
  first_layer(x, T, counts, last, scratch);
  auto finite = [](const FVector& v) {
    for (const auto& e : v)
      if (!e.is_finite()) return false;
    return true;
  };
  if (!two_layers_) return finite(last) ? std::optional<FVector>(last) : std::nullopt;

  struct Sum {
    FVector query, num, value;
    FastInterval den{0, 0};
  };
  std::vector<Sum> sums(second_.size());
  for (std::size_t g = 0; g < second_.size(); ++g) {
    sums[g].query.assign(width_, FastInterval{0, 0});
    for (const Entry& e : second_[g].qk) sums[g].query[e.row] += e.value * last[e.col];
    sums[g].num.assign(width_, FastInterval{0, 0});
  }
  const FastInterval log_T = log(FastInterval::point(static_cast<double>(T)));
  counts.assign(shape_.classes(), 0);
  FVector key;
  for (std::uint64_t j = 1; j <= T; ++j) {
    if ((j & 0xFFFF) == 0) report_positions(j, T);
    if (j > tau + 1) ++counts[class_at(x, j - tau - 1)];
    first_layer(x, j, counts, key, scratch);
    for (std::size_t g = 0; g < second_.size(); ++g) {
      const SecondHead& head = second_[g];
      Sum& s = sums[g];
      FastInterval logit = dot(key, s.query);
      const std::uint64_t t = T - j;
      if (t < head.phi.size() && head.has_phi[t]) logit += head.phi[t] * log_T;
      const FastInterval w = exp(logit);
      s.den += w;
      s.value.assign(width_, FastInterval{0, 0});
      for (const Entry& e : head.value) s.value[e.row] += e.value * key[e.col];
      add_scaled(s.num, w, s.value);
    }
  }
  FVector y = last;
  for (const Sum& s : sums)
    for (std::size_t k = 0; k < width_; ++k) y[k] += s.num[k] / s.den;
  if (mlp2_) apply_mlp(*mlp2_, y, scratch);
  return finite(y) ? std::optional<FVector>(y) : std::nullopt;
}

}  // namespace lgc
