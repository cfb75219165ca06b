#pragma once
// Section 5 constants that need no search (docs/theory.md §3): the positional
// margin, the first-layer MLP's Lipschitz factor, the convergence constant K,
// the limit map's Lipschitz constant, and the k-gram minimum length T₀.
#include "lgcheck/kernel/quantities.hpp"
#include "lgcheck/numeric/number.hpp"

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

/// T₀ = k + ⌈5k/(2ρε)⌉ (theory.md "The in-context k-gram construction").
Integer kgram_min_length(std::uint64_t k, const Rational& rho, const Rational& epsilon);

}  // namespace lgc::kernel
