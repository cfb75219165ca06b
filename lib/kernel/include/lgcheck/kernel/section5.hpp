#pragma once
// Section 5 constants that need no search (docs/theory.md §3): the positional margin, the first-layer MLP's Lipschitz
// factor, K, the limit map's Lipschitz constant, T₀, and the Lemma 5.3 / Theorem 5.2 bounds G, L, C(f).
#include "lgcheck/kernel/forward.hpp"
#include "lgcheck/kernel/quantities.hpp"
#include "lgcheck/model/case_file.hpp"
#include "lgcheck/numeric/number.hpp"

#include <cstdint>
#include <functional>
#include <optional>
#include <random>
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

/// The first layer's limit map Φ(window, μ̂) = MLP(y_q + Σ_h Φ_h) (theory.md "The limit map"), with each head's weights
/// e^{ℓ(q,c) − max_c ℓ(q,c)} and values V_h y_c computed once. window[t] is the class s·Δ + r of the slot at offset
/// t from the query (window[0] the query's). Φ_h keeps the slots with φ_h(t) = P = max({φ_h(t)} ∪ {1}) and, when
/// P = 1, the bulk.
class LimitMap {
 public:
  explicit LimitMap(const Model& model, unsigned bits = 128);  ///< bits: the weights' enclosures
  /// Φ with bulk weights `bulk` over the SΔ classes (μ̂, or the counts n with slot_factor B = Σ n: the same ratios).
  Values at(const std::vector<std::size_t>& window, const std::vector<Rational>& bulk,
            const Rational& slot_factor = Rational(1)) const;
  /// Φ(window_i, μ̂_i) at every position i = τ + 2..|x| of x (each with a bulk), in order.
  void along(const Tokens& x, const std::function<void(std::uint64_t i, const Values& phi)>& visit) const;
  /// Φ_q = Φ(window_T, μ̂_T) at x's last position (|x| > τ + 1).
  Values at_end(const Tokens& x) const;
  const Model& model() const { return model_; }

 private:
  Model model_;
  std::vector<QVector> classes_;
  std::vector<std::vector<std::vector<Number>>> weight_;  ///< [head][query class][key class]
  std::vector<std::vector<Values>> value_;                ///< [head][class]
};
Values limit_map(const Model& model, const std::vector<std::size_t>& window, const std::vector<Rational>& mu,
                 unsigned bits = 128);

/// Lemma 5.3's integrands at the query Φ_q (theory.md "The integrands"), per second-layer head g: p_{g,0} =
/// e^{⟨Φ, M_gΦ_q⟩} and p_{g,1+k} = p_{g,0}·(V_gΦ)_k; their averages over the positions i > τ + 1 of w.
std::vector<Number> integrand_averages(const LimitMap& phi, const Values& phi_q, const Tokens& w, unsigned bits = 128);
/// The statistic error of z against x: max_k |avg_x p_k − avg_z p_k|, certified (the query Φ_q is x's).
Number statistic_error(const std::vector<Number>& averages_x, const std::vector<Number>& averages_z,
                       unsigned bits = 128);

/// The drift form of Lemma 5.3's proof (theory.md "The drift form") for z = x at the kept positions i_1 < … < i_n
/// (1-based), with the integrands at x's query Φ_q, their averages over x, and the bounds G, L.
struct DriftForm {
  std::uint64_t positions = 0, broken = 0;  ///< n_b: z's positions j > τ + 1; those whose window differs at i_j
  Rational drift;                           ///< D = (1/n_b)·Σ_{same window} ‖μ̂_j(z) − μ̂_{i_j}(x)‖₁
  std::vector<Number> bounds;  ///< S_k + 2Gβ + L·D at each k whose E_k − it may be the largest (ties: several)
  Rational lipschitz_ratio, range_ratio;    ///< max |Δp_k| / (L‖Δμ̂‖₁) at the same windows, / 2G elsewhere (upper)
  bool premise_broken = false, inequality_broken = false;  ///< certainly, at some position or some k
  bool inequality_certain = true;  ///< E_k <= S_k + 2Gβ + L·D certainly, for every k
  std::uint64_t open = 0;          ///< premises (position, k) neither certainly held nor broken
  std::uint64_t informative = 0;  ///< same-window positions whose premise L‖Δμ̂‖₁ is below 2G
};
DriftForm drift_form(const LimitMap& phi, const Values& phi_q, const std::vector<Number>& averages_x, const Tokens& x,
                     const std::vector<std::uint64_t>& kept, const Number& G, const Number& L, unsigned bits = 128);

/// T₀ = k + ⌈5k/(2ρε)⌉ (theory.md "The in-context k-gram construction").
Integer kgram_min_length(std::uint64_t k, const Rational& rho, const Rational& epsilon);
/// The match fraction #{t ∈ [k+1, T] : x_{t−k..t−1} = x_{T−k+1..T}} / (T − k) (0 when T <= k), and the target
/// f*(x): the mean one-hot e_{x_t} over those t, uniform when there is none (theory.md, Definition 5.4).
Rational match_fraction(const std::vector<int>& x, std::size_t k);
std::vector<Rational> kgram_target(const std::vector<int>& x, std::size_t k, std::size_t S);

/// Why Theorem 5.2's bounds below do not cover `model`, or nullopt: they need two softmax layers (any Δ, any
/// second-layer φ). A certificate of T5.2.sim on another model was not issued by the search: rejected.
std::optional<std::string> layer2_obstacle(const Model& model);
/// T5.2.witness's statistic argument (theory.md "A witness family for the positional margin"): the first head after
/// the first layer with a non-zero value, named as the search names it ("f: layer 2 head 1 has a non-zero value, …");
/// nullopt when every such head has value 0, so each output is its first layer's statistic's.
std::optional<std::string> statistic_obstacle(const std::vector<Model>& models);
/// The larger of two certified numbers: exact when both are, else the hull of their ends.
Number certified_max(const Number& a, const Number& b, unsigned bits = 128);
/// The first layer's box (theory.md "The integrands"): b_r = max(|lo_r|, |hi_r|), lo_r = min_c y_c,r + Σ_h min_c
/// (V_h y_c)_r and hi_r the same with max; a first-layer MLP widens every b_r to β + ‖W_out‖∞(‖W_in‖∞β + ‖b_in‖∞) +
/// ‖b_out‖∞, β = max_r b_r. Every first-layer output (and Φ) lies in [−b, b].
std::vector<Rational> first_layer_box(const Model& model);
/// T5.2.sim's a-priori range R of |f(x) − f(z)| (theory.md "T5.2.sim"): max_j 2 Σ_k |W_jk| y_k, y_k = b_k +
/// Σ_g Σ_c |V_g,kc| b_c (b the first-layer box) plus a second-layer MLP's Σ_u |W_out,ku|(|b_in,u| + Σ_c |W_in,uc| y_c)
/// + |b_out,k|; a sin readout's min(2, |ω|·that); nullopt unless the model has two layers.
std::optional<Rational> output_range(const Model& model);
/// L5.conv's exhaustive length (theory.md "L5.conv"): check.max_length (default 12) shortened until S^n <= 4096; its
/// domain is the positions i >= 2(τ+1) of every input of that length, none when n < 2(τ+1).
std::uint64_t convergence_length(const Case& c);
/// The query-free integrand bounds G, L of Lemma 5.3, the complexity C(f) of
/// Theorem 5.2 with Lemma 5.3's constant c, and r′ = min(γ, 1/3) (theory.md §3).
struct Section5Bounds {
  Number G, L, C;
  Rational rate;            ///< r′
  std::uint64_t start = 0;  ///< C(f) holds for n >= start = 2(τ+1) + the largest top offset
};
/// Lemma 5.3's G and L at a query (theory.md "The integrands"): with q_g = M_g Φ_q, A_g = Σ_r b_r|q_g,r|,
/// G = max_g e^{A_g}·max(1, B_g), L = max_g e^{A_g}·Lip(Φ)·max(‖q_g‖₁, ‖q_g‖₁B_g + ‖V_g‖∞).
struct IntegrandBounds { Number G, L; };
IntegrandBounds integrand_bounds(const Model& model, const Values& phi_q, unsigned bits = 128);
/// Theorem 5.2's a-posteriori bound on |f(x) − f(z)|∞ for x and its subsamples z (theory.md "The simulation-error
/// bound"): Lip_out·[Δ_x + Δ_z + Σ_g e^{A_g}(1 + B_g)(ε_g(T, Δ_x) + ε_g(n, Δ_z) + E)], E the statistic error, head
/// g's factor times T/(T − k_g) when k_g window offsets have φ_g < 0; what depends on x alone (Δ_x, ε_g(T, Δ_x),
/// μ̂_T(x)) is computed once.
struct SimulationErrorBound { Number total; Rational drift; };  ///< the bound; ‖μ̂_n(z) − μ̂_T(x)‖₁ (exact)
/// The constants of one second-layer head g over the first layer's box b (theory.md "The simulation-error bound").
struct Layer2Head {
  Number A, grow;        ///< min(Σ b_r|M_rc|b_c, ‖M‖₂‖b‖₂²) and e^A
  Rational B, m, m2, v;  ///< max_k Σ_c|V_kc|b_c; Σ|M_rc|b_c; Σ b_r|M_rc|; ‖V‖∞
  std::vector<Rational> phi;  ///< φ_g(0..τ): the window key of offset t weighs L^{φ(t)} at query L
  std::uint64_t light = 0;    ///< k_g: the offsets with φ_g(t) < 0, keys that may weigh less than e^{−A}
  Rational top, margin;       ///< Φ = max(φ_g ∪ {1}) and γ₂,g = min(1, Φ − the next element of φ_g ∪ {1})
  std::vector<std::uint64_t> top_offsets;  ///< W⁺ = {t : φ_g(t) = Φ}, compared key by key between x and z
};
/// u(lo, hi) of theory.md "The draws, exactly": words of the engine until r < 2^64 − 1 − ((2^64 − 1) mod s),
/// s = hi − lo + 1, then lo + r mod s. Every input the kernel re-draws (the subsampler's chain, the Section 5 inputs,
/// T4.1.sim's random statistics) is made of these draws.
std::uint64_t uniform_draw(std::uint64_t lo, std::uint64_t hi, std::mt19937_64& engine);
/// The subsampler's kept positions (1-based, increasing) for x of length T, target n (1 <= n <= T), locality τ, seed
/// and period Δ, draw by draw as theory.md "The draws, exactly" states: a seed determines z.
std::vector<std::uint64_t> subsampler_positions(std::uint64_t T, std::uint64_t n, std::uint64_t tau, std::uint64_t seed,
                                                std::uint64_t period);
/// The long inputs x the Section 5 claims draw, draw by draw as theory.md "The inputs, exactly" states, from one
/// std::mt19937_64 seeded with check.seed: a seed determines x. L5.3.subsample: the uniform x and the noisy periodic
/// x of length T₁ = min(10⁴, L), then a noisy periodic x of length 10⁵ when L >= 10⁵, else of length T₁
/// (L = check.subsample_length).
std::vector<Tokens> subsample_inputs(std::size_t alphabet, std::uint64_t max_length, std::uint64_t seed);
/// T5.2.sim: one x of length T per family of check.simulation_inputs, in their order.
std::vector<Tokens> simulation_inputs(const std::vector<InputFamily>& families, std::size_t alphabet, std::uint64_t T,
                                      std::uint64_t seed);
/// How many of x's last tokens a z must keep: τ + 1 + the largest top offset of a second-layer head (τ + 1 if none).
std::uint64_t kept_tail(const Model& model);
class SimulationErrorBounder {
 public:
  SimulationErrorBounder(const Model& model, const Tokens& x, unsigned bits = 128);
  SimulationErrorBound bound(const Tokens& z, const Number& error) const;

 private:
  const Model* model_;
  unsigned bits_;
  Rational rate_;
  std::uint64_t x_length_;
  Number K_, lip_, dx_;
  std::vector<Rational> histogram_x_;
  Tokens x_;                       ///< x (its tail and the histograms before its end)
  std::vector<Layer2Head> heads_;  ///< per second-layer head, over the box
  std::vector<Number> eps_x_;      ///< per second-layer head: ε_g(T, Δ_x)
};

/// γ₂,g of a second-layer head: P = φ_g ∪ {1}, Φ = max P, min(1, Φ − max(P ∖ {Φ})) (1 when P = {Φ}).
Rational layer2_margin(const Head& g);
/// The least γ₂,g over the heads after the first layer (1 for a one-layer model).
Rational second_layer_margin(const Model& model);
/// Theorem 5.2's rate r′ = min(γ, 1/3, γ₂), γ the positional margin (1/3 when it is undefined).
Rational complexity_rate(const Model& model);
Section5Bounds section5_bounds(const Model& model, const Rational& c, unsigned bits = 128);

}  // namespace lgc::kernel
