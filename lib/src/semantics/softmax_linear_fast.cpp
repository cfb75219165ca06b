#include "lgcheck/semantics/softmax_linear_fast.hpp"

#include "lgcheck/report/position_progress.hpp"
#include "lgcheck/semantics/mlp.hpp"

#include <stdexcept>

namespace lgc {
namespace {

FVector enclosed(const QVector& v) {
  FVector out;
  out.reserve(v.size());
  for (const auto& q : v) out.push_back(FastInterval::enclosing(q));
  return out;
}

Matrix<FastInterval> enclosed(const QMatrix& m) {
  return m.map<FastInterval>([](const Rational& q) { return FastInterval::enclosing(q); });
}

constexpr FastInterval kZero{0, 0};

}  // namespace

FastSoftmaxLinear::Mlp FastSoftmaxLinear::mlp_of(const Model& model, std::size_t layer) {
  const lgc::Mlp& m = *model.layers[layer].mlp;
  return {enclosed(m.in), enclosed(m.in_bias), enclosed(m.out), enclosed(m.out_bias)};
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
      head.tables.weights.push_back(std::move(row));
    }
    for (std::size_t c = 0; c < K; ++c) head.tables.values.push_back(enclosed(first.value(h, c)));
    for (const Rational& phi : model.layers[0].heads[h].phi) {
      head.phi.push_back(FastInterval::enclosing(phi));
      head.tables.has_phi.push_back(phi != 0);
    }
    first_.push_back(std::move(head));
  }
  if (model.layers[0].mlp) mlp1_ = mlp_of(model, 0);
  if (!two_layers_) return;
  if (model.layers[1].mlp) mlp2_ = mlp_of(model, 1);
  for (const Head& head : model.layers[1].heads)
    second_.push_back(attention::second_head_tables<FastInterval>(
        head, [](const Rational& q) { return FastInterval::enclosing(q); }));
}

std::size_t FastSoftmaxLinear::class_at(const Tokens& x, std::uint64_t j) const {
  return static_cast<std::size_t>(x[j - 1]) * shape_.period + j % shape_.period;
}

void FastSoftmaxLinear::apply_mlp(const Mlp& mlp, FVector& y, Scratch& scratch) {
  apply_mlp_in_place(MlpWeights<FastInterval>{mlp.in, mlp.in_bias, mlp.out, mlp.out_bias}, y, kZero, scratch.num,
                     scratch.product);
}

void FastSoftmaxLinear::first_layer(const Tokens& x, std::uint64_t i, const std::vector<std::uint64_t>& counts,
                                    FVector& y, std::vector<std::size_t>& window, Scratch& scratch) const {
  window.clear();
  for (std::size_t t = 0; t <= shape_.locality && t < i; ++t) window.push_back(class_at(x, i - t));
  const std::size_t q = window.front();
  y = embeddings_[q];
  FVector& num = scratch.num;
  num.resize(width_);
  const FastInterval log_i = log(FastInterval::point(static_cast<double>(i)));
  for (const FirstHead& head : first_) {
    FastInterval den;
    attention::first_head_sums(
        head.tables, q, counts, window, i, kZero,
        [](std::uint64_t n) { return FastInterval::point(static_cast<double>(n)); },
        [&](std::size_t t) { return exp(head.phi[t] * log_i); }, num, den);
    attention::add_quotient(y, num, den);
  }
  if (mlp1_) apply_mlp(*mlp1_, y, scratch);
}

std::optional<FVector> FastSoftmaxLinear::representation(const Tokens& x) const {
  if (x.empty()) throw std::invalid_argument("FastSoftmaxLinear: empty input");
  const std::uint64_t T = x.size(), tau = shape_.locality;
  std::vector<std::uint64_t> counts(shape_.classes(), 0);
  for (std::uint64_t j = 1; j + tau + 1 <= T; ++j) ++counts[class_at(x, j)];
  FVector last;
  Scratch scratch;
  std::vector<std::size_t> window;
  first_layer(x, T, counts, last, window, scratch);
  auto finite = [](const FVector& v) {
    for (const auto& e : v)
      if (!e.is_finite()) return false;
    return true;
  };
  if (!two_layers_) return finite(last) ? std::optional<FVector>(last) : std::nullopt;

  const FastInterval log_T = log(FastInterval::point(static_cast<double>(T)));
  FVector y = attention::second_layer_attention(second_, last, T, log_T, kZero, [&](auto&& add) {
    counts.assign(shape_.classes(), 0);
    FVector key;
    for (std::uint64_t j = 1; j <= T; ++j) {
      if ((j & 0xFFFF) == 0) report_positions(j, T);
      if (j > tau + 1) ++counts[class_at(x, j - tau - 1)];
      first_layer(x, j, counts, key, window, scratch);
      add(j, key);
    }
  });
  if (mlp2_) apply_mlp(*mlp2_, y, scratch);
  return finite(y) ? std::optional<FVector>(y) : std::nullopt;
}

}  // namespace lgc
