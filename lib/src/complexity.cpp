#include "lgcheck/quantities/complexity.hpp"

#include "lgcheck/quantities/first_layer_constants.hpp"
#include "lgcheck/quantities/layer2_integrands.hpp"
#include "lgcheck/quantities/norm_constant.hpp"
#include "lgcheck/quantities/simulation_bound.hpp"

#include <algorithm>
#include <stdexcept>

namespace lgc {
namespace {

constexpr unsigned kBits = 128;

Interval n_power(std::uint64_t n, const Rational& exponent) { return power(Integer(n), exponent, kBits); }

}  // namespace

Interval ComplexityConstant::bound(std::uint64_t n) const { return C * n_power(n, -rate); }

Interval ComplexityConstant::statistic_limit(std::uint64_t n) const {
  return statistic_error_limit(subsample_constant, G, L, locality, n);
}

Interval ComplexityConstant::drift_limit(std::uint64_t n) const {
  return Interval(subsample_constant * classes * (locality + 1), kBits) * n_power(n, Rational(-1, 3));
}

ComplexityConstant complexity_constant(const Model& model, const Rational& subsample_constant, bool with_exponential) {
  if (std::string why = simulation_bound_obstacle(model); !why.empty())
    throw std::invalid_argument("C(f): " + why);
  if (subsample_constant <= 0) throw std::invalid_argument("C(f): the subsample constant c must be > 0");
  const SoftmaxFirstLayer layer(model);
  const ConvergenceConstant k = convergence_constant(model);
  const IntegrandBounds integrands = a_priori_integrand_bounds(layer, with_exponential);
  ComplexityConstant cf;
  cf.gamma = k.gamma;
  cf.second_layer_margin = second_layer_margin(model);
  cf.rate = std::min(k.gamma ? std::min(*k.gamma, Rational(1, 3)) : Rational(1, 3), cf.second_layer_margin);
  cf.subsample_constant = subsample_constant;
  cf.K = k.K;
  cf.lip_phi = integrands.lip_phi;
  cf.lip_out = readout_lipschitz(model);
  cf.G = integrands.G;
  cf.L = integrands.L;
  cf.classes = layer.shape().classes();
  cf.period = model.period;
  cf.locality = model.locality;
  cf.from = k.from;
  const Rational tau1 = model.locality + 1;
  cf.drift = cf.K + subsample_constant * cf.lip_phi * cf.classes * tau1;
  const Rational sigma = 1 / (1 - cf.rate);
  // 6(τ+1)/L <= 6(τ+1)·j₀^{r′−1}·n^{−r′} for L >= n >= j₀ (a head with φ = 0); with the second-layer window keys
  // weighing L^{φ(t)}: (2j₀ + τ + 1)/L + W_L/L <= 5(τ+1)·j₀^{r′−1}·n^{−r′} + (τ+1)·j₀^{r′−γ₂,g}·n^{−r′}, γ₂,g = 1 − max φ.
  const Interval early = Interval(6 * tau1, kBits) * n_power(k.from, cf.rate - 1);
  const Interval statistic(subsample_constant * (cf.G + cf.L) * tau1, kBits);
  Interval heads = Interval::zero(kBits);
  for (const Head& head : model.layers[1].heads) {
    const SecondLayerHeadBox h = second_layer_head_box(head, integrands.box);
    const Rational top_phi = *std::max_element(head.phi.begin(), head.phi.end());
    const Interval head_early = top_phi == 0 ? early
                                             : Interval(5 * tau1, kBits) * n_power(k.from, cf.rate - 1) +
                                                   Interval(tau1, kBits) * n_power(k.from, cf.rate - (1 - top_phi));
    const Interval eA = with_exponential ? exp(Interval(h.A, kBits)) : Interval(Rational(1), kBits);
    const Rational spread = std::max(Rational(1), h.B);
    const Interval eps = eA * (Interval(spread * (h.m * cf.K * sigma + h.m_query * cf.drift), kBits) +
                               Interval(spread, kBits) * head_early + Interval(h.v * cf.K * sigma, kBits));
    // k_g window keys with φ < 0: Ā_x >= e^{-A}(T − k_g)/T >= e^{-A}(j₀ − k_g)/j₀ for T >= j₀.
    const std::size_t light = negative_window_terms(head);
    const Rational share = light == 0 ? Rational(1) : Rational(k.from) / Rational(k.from - light);
    const Interval factor = eA * Interval(share * (1 + h.B), kBits);
    cf.head_factor.push_back(factor);
    cf.head_eps.push_back(eps);
    heads += factor * (Interval(Rational(2), kBits) * eps + statistic);
  }
  cf.C = Interval(cf.lip_out, kBits) * (Interval(cf.K + cf.drift, kBits) + heads);
  return cf;
}

}  // namespace lgc
