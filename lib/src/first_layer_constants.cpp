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

ConvergenceConstant convergence_constant(const Model& model, bool with_bulk) {
  SoftmaxFirstLayer layer(model);
  ConvergenceConstant k;
  k.mlp_lipschitz = mlp_linf_lipschitz(model);
  k.gamma = positional_margin(model, with_bulk).gamma;
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
  }
  k.K = k.mlp_lipschitz * sum;
  return k;
}

LipschitzConstant limit_map_lipschitz(const Model& model, bool with_exponential) {
  SoftmaxFirstLayer layer(model);
  PositionalMargin pm = positional_margin(model);
  LipschitzConstant l;
  l.mlp_lipschitz = mlp_linf_lipschitz(model);
  const std::size_t K = layer.shape().classes();
  Rational sum = 0;
  for (std::size_t h = 0; h < layer.heads(); ++h) {
    Rational lh = 0;
    if (pm.heads[h].regime != Regime::PositionDominant) {
      Rational spread = 0;
      for (std::size_t q = 0; q < K; ++q) {
        Rational lo = layer.logit(h, q, 0), hi = lo;
        for (std::size_t c = 0; c < K; ++c) {
          lo = std::min(lo, layer.logit(h, q, c));
          hi = std::max(hi, layer.logit(h, q, c));
        }
        spread = std::max(spread, Rational(hi - lo));
      }
      lh = 2 * value_norm(model, h) * (with_exponential ? exp_upper(spread) : Rational(1));
    }
    l.head_L.push_back(lh);
    sum += lh;
  }
  l.L = l.mlp_lipschitz * sum;
  return l;
}

}  // namespace lgc
