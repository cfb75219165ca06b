#include "lgcheck/quantities/first_layer_constants.hpp"

#include "lgcheck/numeric/interval.hpp"
#include "lgcheck/quantities/norm_constant.hpp"
#include "lgcheck/quantities/positional_margin.hpp"
#include "lgcheck/semantics/softmax_layer1.hpp"

#include <algorithm>

namespace lgc {
Rational mlp_linf_lipschitz(const Model& model) {
  const auto& mlp = model.layers.at(0).mlp;
  return mlp ? 1 + max_row_sum_norm(mlp->out) * max_row_sum_norm(mlp->in) : Rational(1);
}

namespace {

/// W_h = max over class pairs of ‖v_c − v_c'‖∞ (at most 2V_h).
Rational value_diameter(const SoftmaxFirstLayer& layer, std::size_t h) {
  const std::size_t K = layer.shape().classes();
  Rational w = 0;
  for (std::size_t a = 0; a < K; ++a)
    for (std::size_t b = a + 1; b < K; ++b)
      for (std::size_t d = 0; d < layer.value(h, a).size(); ++d)
        w = std::max(w, Rational(abs(layer.value(h, a)[d] - layer.value(h, b)[d])));
  return w;
}

/// s_h = max over queries q of max_c ℓ(q, c) − min_c ℓ(q, c).
Rational query_spread(const SoftmaxFirstLayer& layer, std::size_t h) {
  const std::size_t K = layer.shape().classes();
  Rational spread = 0;
  for (std::size_t q = 0; q < K; ++q) {
    Rational lo = layer.logit(h, q, 0), hi = lo;
    for (std::size_t c = 0; c < K; ++c) {
      lo = std::min(lo, layer.logit(h, q, c));
      hi = std::max(hi, layer.logit(h, q, c));
    }
    spread = std::max(spread, Rational(hi - lo));
  }
  return spread;
}

}  // namespace

ConvergenceConstant convergence_constant(const Model& model, bool with_bulk) {
  SoftmaxFirstLayer layer(model);
  ConvergenceConstant k;
  k.mlp_lipschitz = mlp_linf_lipschitz(model);
  const PositionalMargin margin = positional_margin(model, with_bulk);  // the regimes do not depend on with_bulk
  k.gamma = margin.gamma;
  k.rate = k.gamma ? std::min(*k.gamma, Rational(1)) : Rational(1);
  k.from = 2 * (model.locality + 1);
  const std::size_t K = layer.shape().classes();
  Rational sum = 0;
  for (std::size_t h = 0; h < layer.heads(); ++h) {
    Rational lo = layer.logit(h, 0, 0), hi = lo;
    for (std::size_t q = 0; q < K; ++q)
      for (std::size_t c = 0; c < K; ++c) {
        lo = std::min(lo, layer.logit(h, q, c));
        hi = std::max(hi, layer.logit(h, q, c));
      }
    Rational kh = 8 * value_norm(model, h) * (model.locality + 2) * exp_upper(hi - lo);
    k.head_K.push_back(kh);
    sum += kh;
    k.token_factor.push_back(margin.heads[h].regime == Regime::TokenDominant
                                 ? std::optional<Rational>(value_diameter(layer, h) * exp_upper(query_spread(layer, h)))
                                 : std::nullopt);
  }
  k.K = k.mlp_lipschitz * sum;
  return k;
}

Interval convergence_bound_at(const Model& model, const ConvergenceConstant& k, std::uint64_t i, unsigned bits) {
  const std::size_t tau = model.locality;
  const Integer position(static_cast<unsigned long>(i));
  Interval sum = Interval::zero(bits);
  for (std::size_t h = 0; h < k.head_K.size(); ++h) {
    if (!k.token_factor[h]) {
      sum += Interval(k.head_K[h], bits) * power(position, -k.rate, bits);
      continue;
    }
    const auto& phi = model.layers.at(0).heads.at(h).phi;
    Interval slots = Interval::zero(bits);
    for (std::size_t t = 0; t <= tau; ++t)
      slots += phi[t] == 0 ? Interval(Rational(1), bits) : power(position, phi[t], bits);
    sum += Interval(*k.token_factor[h], bits) * slots / Interval(Rational(Integer(static_cast<unsigned long>(i - tau - 1))), bits);
  }
  return Interval(k.mlp_lipschitz, bits) * sum;
}

LipschitzConstant limit_map_lipschitz(const Model& model, bool with_exponential) {
  SoftmaxFirstLayer layer(model);
  PositionalMargin pm = positional_margin(model);
  LipschitzConstant l;
  l.mlp_lipschitz = mlp_linf_lipschitz(model);
  Rational sum = 0;
  for (std::size_t h = 0; h < layer.heads(); ++h) {
    Rational lh = 0;
    if (pm.heads[h].regime != Regime::PositionDominant) {
      lh = 2 * value_norm(model, h) * (with_exponential ? exp_upper(query_spread(layer, h)) : Rational(1));
    }
    l.head_L.push_back(lh);
    sum += lh;
  }
  l.L = l.mlp_lipschitz * sum;
  return l;
}

}  // namespace lgc
