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

/// ε̂_g: ε(L, Δ) <= ε̂_g·n^{−r′} (Φ = 1), or ε°(L) <= ε̂_g·n^{−r′} (Φ > 1; docs/theory.md).
Interval head_eps_hat(const SecondLayerHeadBox& h, const SecondLayerProfile& profile, const Head& head,
                      const Interval& eA, const ComplexityConstant& cf, const Rational& sigma, const Interval& early) {
  const Rational tau1 = cf.locality + 1, spread = std::max(Rational(1), h.B);
  const std::size_t lower = head.phi.size() - profile.top_offsets.size();  // |W⁻|, the window keys below Φ
  if (profile.top > 1)  // ε°(L) <= e^A max(1,B)(1 + |W⁻|)L^{−γ₂,g} <= e^A max(1,B)(1 + |W⁻|)j₀^{r′−γ₂,g}n^{−r′}
    return eA * Interval(spread * (1 + static_cast<long>(lower)), kBits) * n_power(cf.from, cf.rate - profile.margin);
  // Φ = 1: 6(τ+1)/L when every φ is 0; else (2j₀ + τ + 1)/L + W⁻_L/L <= [5(τ+1)j₀^{r′−1} + (τ+1)j₀^{r′−γ}]n^{−r′},
  // γ = 1 − max_{t∉W⁺} φ(t) (no second term when every window key is a top key).
  std::optional<Rational> below;  // the largest φ(t) below Φ = 1
  for (const Rational& phi : head.phi)
    if (phi != 1 && (!below || phi > *below)) below = phi;
  Interval head_early = early;
  if (!profile.top_offsets.empty() || *below != 0) {  // W⁺ empty: every φ is below 1, so `below` is set
    head_early = Interval(5 * tau1, kBits) * n_power(cf.from, cf.rate - 1);
    if (below) head_early += Interval(tau1, kBits) * n_power(cf.from, cf.rate - (1 - *below));
  }
  return eA * (Interval(spread * (h.m * cf.K * sigma + h.m_query * cf.drift), kBits) +
               Interval(spread, kBits) * head_early + Interval(h.v * cf.K * sigma, kBits));
}

/// π̂_g: π_g <= π̂_g·n^{−r′} with Ŷ_t = 3K + Lip(Φ)(8t·j₀^{r′−1} + cH(τ+1)) bounding ΔY_t·n^{r′}:
/// π̂_g = Σ_{t∈W⁺} e^A[max(1,B)(m Ŷ_t + m_query(K + D)) + v Ŷ_t] (docs/theory.md).
Interval top_pairing_hat(const SecondLayerHeadBox& h, const SecondLayerProfile& profile, const Interval& eA,
                         const ComplexityConstant& cf) {
  Interval pi = Interval::zero(kBits);
  const Rational spread = std::max(Rational(1), h.B);
  const Interval shift_unit = n_power(cf.from, cf.rate - 1);
  const Rational drift_premise = cf.subsample_constant * cf.classes * (cf.locality + 1);
  for (std::size_t t : profile.top_offsets) {
    const Interval dY = Interval(3 * cf.K + cf.lip_phi * drift_premise, kBits) +
                        Interval(cf.lip_phi * 8 * static_cast<long>(t), kBits) * shift_unit;
    pi += eA * (Interval(spread, kBits) * (Interval(h.m, kBits) * dY + Interval(h.m_query * (cf.K + cf.drift), kBits)) +
                Interval(h.v, kBits) * dY);
  }
  return pi;
}

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
  cf.start = k.from + kept_tail(model) - model.locality - 1;
  const Rational tau1 = model.locality + 1;
  cf.drift = cf.K + subsample_constant * cf.lip_phi * cf.classes * tau1;
  const Rational sigma = 1 / (1 - cf.rate);
  // 6(τ+1)/L <= 6(τ+1)·j₀^{r′−1}·n^{−r′} for L >= n >= j₀ (a head with φ = 0); with the second-layer window keys
  // weighing L^{φ(t)}: (2j₀ + τ + 1)/L + W_L/L <= 5(τ+1)·j₀^{r′−1}·n^{−r′} + (τ+1)·j₀^{r′−γ₂,g}·n^{−r′}, γ₂,g = 1 − max φ.
  const Interval early = Interval(6 * tau1, kBits) * n_power(k.from, cf.rate - 1);
  const Interval statistic(subsample_constant * (cf.G + cf.L) * tau1, kBits);
  Interval heads = Interval::zero(kBits);
  const Rational j0(Integer(k.from));
  for (const Head& head : model.layers[1].heads) {
    const SecondLayerHeadBox h = second_layer_head_box(head, integrands.box);
    const SecondLayerProfile profile = second_layer_profile(head);
    const Interval eA = with_exponential ? exp(Interval(h.A, kBits)) : Interval(Rational(1), kBits);
    // k_g window keys with φ < 0: Ā_x >= e^{-A}(T − k_g)/T >= e^{-A}(j₀ − k_g)/j₀ for T >= j₀.
    const std::size_t light = profile.light_keys;
    const Rational share = light == 0 ? Rational(1) : j0 / Rational(Integer(k.from - light));
    const Interval factor = eA * Interval(share * (1 + h.B), kBits);
    const Interval eps = head_eps_hat(h, profile, head, eA, cf, sigma, early);
    const Interval pairing = top_pairing_hat(h, profile, eA, cf);
    cf.head_factor.push_back(factor);
    cf.head_eps.push_back(eps);
    cf.head_pairing.push_back(pairing);
    cf.head_top.push_back(profile.top);
    // Φ = 1: the bulk compared through the statistic averages (c-good premise); Φ > 1: its share is in ε̂.
    const Interval compared = profile.top == 1 ? statistic : Interval::zero(kBits);
    heads += factor * (Interval(Rational(2), kBits) * eps + pairing + compared);
  }
  cf.C = Interval(cf.lip_out, kBits) * (Interval(cf.K + cf.drift, kBits) + heads);
  return cf;
}

}  // namespace lgc
