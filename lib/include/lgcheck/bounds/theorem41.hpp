#pragma once
// Theorem 4.1's length bounds side by side (THEORY.md §2):
//   N_paper(ε; c)      = ⌈c·max{2^{p/γ}, L²Δ⁷S⁶τ̂²/ε²}⌉, τ̂ = τ + 1,
//   N_paper_sum_form   = ⌈c·max{2^{p/γ}, L²Δ⁷(S³ + τ̂)²/ε²}⌉ (the form before the O(·) simplification),
//   N_sim(ε)           = the toolkit construction's proven length bound.
#include "lgcheck/simulate/construction.hpp"

#include <optional>
#include <string>
#include <vector>

namespace lgc {

struct Theorem41Bounds {
  // ingredients
  Rational epsilon, c;
  unsigned precision_bits = 0;    ///< p; 0 when the models are hardmax (no rounding)
  std::optional<Rational> gamma;  ///< min over the models; nullopt = +inf
  Rational L;                     ///< max over the models
  std::size_t alphabet_size = 0, period = 0, locality = 0, heads = 0;
  // derived
  Integer threshold;              ///< ⌈2^{p/γ}⌉ (1 without rounding or with γ = inf)
  Integer scaled_threshold;       ///< ⌈c·2^{p/γ}⌉
  Rational sample_term, sample_term_sum_form;
  Integer N_paper, N_paper_sum_form;
  Rational delta;                 ///< ε / L: the attention distance the construction keeps
  LengthBound sim;                ///< N_sim and how it was derived
};

/// The bounds for one model or a pair (f, g).
Theorem41Bounds theorem41_bounds(const std::vector<const OneLayerEvaluator*>& models, const Rational& epsilon,
                                 unsigned precision_bits, const Rational& c = 1);

/// δ = ε / L, or 2 (any z with the right window works) when L = 0.
Rational simulation_delta(const Rational& epsilon, const Rational& L);

}  // namespace lgc
