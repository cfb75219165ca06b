#pragma once
// The complexity C(f) of a two-layer softmax model (THEORY.md §3; defined
// and derived in docs/theory.md, "The complexity C(f)"): the constant of the
// a-priori simulation bound
//   |f(x) − f(z)|∞ <= C(f)·n^{−r′},  r′ = min(γ, 1/3, γ₂),
// γ₂ = min(1, min_g (1 − max_t φ_g(t))) over the second-layer heads, for every x of
// length T >= n and every z of length n >= 2(τ+1), n ≡ T (mod Δ), that keeps
// x's last τ + 1 tokens and is c-good for x (Lemma 5.3's conclusion with
// constant c):
//   E(z) <= c·(G + L)(τ+1)·n^{−1/3}   and   ‖μ̂_n(z) − μ̂_T(x)‖₁ <= c·H·(τ+1)·n^{−1/3},
// with G, L the query-free integrand bounds and H the number of classes.
//   C(f) = Lip_out·[K + D + Σ_g e^{A_g}(1 + B_g)(2ε̂_g + c(G + L)(τ+1))],
//   D = K + c·Lip(Φ)·H·(τ+1),
//   ε̂_g = e^{A_g}[max(1, B_g)(m_g K σ + m′_g D + early_g) + v_g K σ],  σ = 1/(1 − r′),
//   early_g = 6(τ+1)·j₀^{r′−1} (φ_g = 0), else 5(τ+1)·j₀^{r′−1} + (τ+1)·j₀^{r′−γ₂,g},
// and head g's factor e^{A_g}(1 + B_g) times j₀/(j₀ − k_g) when k_g of its
// window offsets have φ_g(t) < 0 (keys that may weigh less than e^{−A_g});
// a head whose φ reaches 1 adds π̂_g (its top window keys compared key by
// key), and one whose φ exceeds 1 has ε̂_g = e^{A_g}max(1, B_g)(1 + |W⁻|)·
// j₀^{r′−γ₂,g} and no statistic term (docs/theory.md),
// exponential in the second-layer bilinear norms (e^{2A_g}) and, through K and
// Lip(Φ), in the first-layer logit spread; polynomial in the rest. Stated,
// like the simulation-error bound it comes from, for any period and any
// second-layer positional terms, for n >= j₀ + the largest top offset.
#include "lgcheck/model/model.hpp"
#include "lgcheck/numeric/interval.hpp"

#include <optional>
#include <vector>

namespace lgc {

struct ComplexityConstant {
  Interval C;                     ///< certified enclosure of C(f)
  std::optional<Rational> gamma;  ///< the positional margin (nullopt = +∞)
  Rational second_layer_margin = 1;  ///< γ₂ = min_g γ₂,g (`second_layer_profile`; 1 when the second layer has no φ)
  Rational rate;                  ///< r′ = min(γ, 1/3, γ₂)
  Rational subsample_constant;    ///< c
  Rational K, lip_phi, lip_out;   ///< L5.conv, L5.lip, the second MLP and readout
  Rational G, L;                  ///< query-free integrand bounds
  Rational drift;                 ///< D
  std::size_t classes = 0;        ///< H
  std::size_t locality = 0;       ///< τ
  std::size_t period = 1;         ///< Δ (c-good z have |z| ≡ |x| mod Δ)
  std::uint64_t from = 1;         ///< j₀ = 2(τ+1)
  std::uint64_t start = 1;        ///< the bound holds for n >= start = j₀ + the largest top offset (j₀ without one)
  std::vector<Interval> head_factor;  ///< e^{A_g}(1 + B_g)·j₀/(j₀ − k_g) (the last factor 1 when k_g = 0)
  std::vector<Interval> head_eps;     ///< ε̂_g
  std::vector<Interval> head_pairing; ///< π̂_g (0 without a top window key)
  std::vector<Rational> head_top;     ///< Φ_g = max(φ_g ∪ {1}) (> 1: no statistic term)

  /// C(f)·n^{−r′}.
  Interval bound(std::uint64_t n) const;
  /// The c-good premise: c(G + L)(τ+1)n^{−1/3} for the statistic error.
  Interval statistic_limit(std::uint64_t n) const;
  /// The c-good premise: c·H·(τ+1)n^{−1/3} for the histogram drift.
  Interval drift_limit(std::uint64_t n) const;
};

/// C(f) with Lemma 5.3's constant c. `with_exponential` = false drops every
/// e^{A_g} (a mutation: C(f) without its exponential factor). Throws
/// std::invalid_argument when `simulation_bound_obstacle` names an obstacle.
ComplexityConstant complexity_constant(const Model& model, const Rational& subsample_constant = 1,
                                       bool with_exponential = true);

}  // namespace lgc
