#pragma once
// Section 5 constants that need no search (docs/theory.md §3): the positional margin, the first-layer MLP's Lipschitz
// factor, K, the limit map's Lipschitz constant, T₀, and the Lemma 5.3 / Theorem 5.2 bounds G, L, C(f).
#include "lgcheck/kernel/forward.hpp"
#include "lgcheck/kernel/quantities.hpp"
#include "lgcheck/numeric/number.hpp"

#include <optional>
#include <string>
#include <vector>

namespace lgc::kernel {

/// γ_h = max P_h − the largest element of P_h below it, P_h = {φ_h(t)} ∪ {1};
/// γ(f) = min over first-layer heads (nullopt: +∞).
Margin positional_margin(const Model& model);
/// Lip∞(MLP) = 1 + ‖out‖∞‖in‖∞ of the first layer's MLP (1 without one).
Rational first_mlp_lipschitz(const Model& model);
/// K = Lip∞(MLP)·Σ_h 8·V_h·(τ+2)·e^{ℓmax,h − ℓmin,h} (theory.md "Convergence lemma"):
/// exact when every spread is 0, else a certified enclosure.
Number convergence_constant(const Model& model, unsigned bits = 128);
/// Lip = Lip∞(MLP)·Σ_{h not position-dominant} 2V_h·max_q e^{max_c ℓ(q,c) − min_c ℓ(q,c)}.
Number limit_lipschitz(const Model& model, unsigned bits = 128);

/// The first layer's limit map Φ(window, μ̂) = MLP(y_q + Σ_h Φ_h) (theory.md "The limit map"): window[t] the class
/// s·Δ + r of the slot at offset t from the query (window[0] the query's), μ̂ the bulk histogram over the SΔ classes.
/// Φ_h keeps the slots with φ_h(t) = P = max({φ_h(t)} ∪ {1}) and, when P = 1, the bulk, each weighted e^{ℓ(q,c)}.
Values limit_map(const Model& model, const std::vector<std::size_t>& window, const std::vector<Rational>& mu,
                 unsigned bits = 128);
/// Φ at the last position of the string with statistic (T, window tokens, bulk counts): μ̂ = counts/B, B = T − τ − 1.
Values limit_map_at(const Model& model, std::uint64_t T, const Tokens& window, const std::vector<std::uint64_t>& counts,
                    unsigned bits = 128);

/// T₀ = k + ⌈5k/(2ρε)⌉ (theory.md "The in-context k-gram construction").
Integer kgram_min_length(std::uint64_t k, const Rational& rho, const Rational& epsilon);
/// The match fraction #{t ∈ [k+1, T] : x_{t−k..t−1} = x_{T−k+1..T}} / (T − k) (0 when T <= k), and the target
/// f*(x): the mean one-hot e_{x_t} over those t, uniform when there is none (theory.md, Definition 5.4).
Rational match_fraction(const std::vector<int>& x, std::size_t k);
std::vector<Rational> kgram_target(const std::vector<int>& x, std::size_t k, std::size_t S);

/// Why the Section 5 bounds below do not cover `model`, or nullopt: they need two
/// softmax layers, Δ = 1, second-layer φ = 0 and (the kernel's restriction) no first-layer MLP.
std::optional<std::string> layer2_obstacle(const Model& model);
/// The larger of two certified numbers: exact when both are, else the hull of their ends.
Number certified_max(const Number& a, const Number& b, unsigned bits = 128);
/// b_r = max_c |y_c,r| + Σ_h max_c |(V_h y_c)_r|: every first-layer output lies in [−b, b].
std::vector<Rational> first_layer_box(const Model& model);
/// The query-free integrand bounds G, L of Lemma 5.3, the complexity C(f) of
/// Theorem 5.2 with Lemma 5.3's constant c, and r′ = min(γ, 1/3) (theory.md §3).
struct Section5Bounds {
  Number G, L, C;
  Rational rate;  ///< r′
};
/// Lemma 5.3's G and L at a query (theory.md "The integrands"): with q_g = M_g Φ_q, A_g = Σ_r b_r|q_g,r|,
/// G = max_g e^{A_g}·max(1, B_g), L = max_g e^{A_g}·Lip(Φ)·max(‖q_g‖₁, ‖q_g‖₁B_g + ‖V_g‖∞).
struct IntegrandBounds { Number G, L; };
IntegrandBounds integrand_bounds(const Model& model, const Values& phi_q, unsigned bits = 128);
Section5Bounds section5_bounds(const Model& model, const Rational& c, unsigned bits = 128);

}  // namespace lgc::kernel
