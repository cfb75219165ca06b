#pragma once
// Certified constants of the first layer of a softmax model (THEORY.md §3,
// derived in docs/theory.md "The first-layer limit map"):
//   K    |Y_i − Φ(window_i, μ̂_i)|∞ <= K·i^{−min(γ,1)} for every i >= 2(τ+1),
//        K = Lip∞(MLP)·Σ_h 8·V_h·(τ+2)·e^{ℓ_max,h − ℓ_min,h};
//   Lip  ‖Φ(w, μ̂) − Φ(w, μ̂')‖∞ <= Lip·‖μ̂ − μ̂'‖₁,
//        Lip = Lip∞(MLP)·Σ_{h not position-dominant} 2·V_h·max_q e^{max_c ℓ_h(q,c) − min_c ℓ_h(q,c)};
// V_h = max_c ‖V_h y_c‖∞, ℓ_h(q, c) the content logits over all class pairs,
// Lip∞(MLP) = 1 + ‖out‖∞·‖in‖∞ (row-sum norms; 1 without an MLP). The
// exponentials are certified enclosures; the constants are their upper ends.
#include "lgcheck/model/model.hpp"
#include "lgcheck/numeric/interval.hpp"

#include <optional>
#include <vector>

namespace lgc {

/// 1 + ‖out‖∞·‖in‖∞ of the first layer's MLP, 1 without one.
Rational mlp_linf_lipschitz(const Model& model);

struct ConvergenceConstant {
  Rational K;                     ///< the constant (upper end of its enclosure)
  Rational rate;                  ///< min(γ, 1)
  std::optional<Rational> gamma;  ///< the positional margin used (nullopt = +∞)
  std::vector<Rational> head_K;   ///< 8·V_h·(τ+2)·e^{Δℓ_h} per head
  Rational mlp_lipschitz;
  std::uint64_t from = 1;         ///< the bound holds for i >= from = 2(τ+1)
  /// Per head: W_h·e^{s_h} (upper end) for a token-dominant head, nullopt for
  /// the others; W_h = max ‖v_c − v_c'‖∞ over class pairs, s_h = max over
  /// queries of the spread of the content logits (see convergence_bound_at).
  std::vector<std::optional<Rational>> token_factor;
};

/// `with_bulk` = false takes γ without the element 1 of P_h (a mutation).
ConvergenceConstant convergence_constant(const Model& model, bool with_bulk = true);

/// The lemma's bound at one position i >= k.from, in the sharper per-position
/// form L5.conv checks: Lip∞(MLP)·Σ_h b_h(i) with
///   b_h(i) = W_h·e^{s_h}·Σ_{t=0..τ} i^{φ_h(t)} / (i − τ − 1)   (token-dominant h),
///   b_h(i) = K_h·i^{−min(γ,1)}                                  (the other heads);
/// b_h(i) <= K_h·i^{−min(γ,1)} for every h, so the result is at most K·i^{−min(γ,1)}
/// (docs/theory.md, "The first-layer limit map"). A certified enclosure.
Interval convergence_bound_at(const Model& model, const ConvergenceConstant& k, std::uint64_t i, unsigned bits);

struct LipschitzConstant {
  Rational L;
  std::vector<Rational> head_L;
  Rational mlp_lipschitz;
};

/// `with_exponential` = false drops e^{Δℓ} (a mutation).
LipschitzConstant limit_map_lipschitz(const Model& model, bool with_exponential = true);

}  // namespace lgc
