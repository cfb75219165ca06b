#pragma once
// The toolkit's simulation construction for Theorem 4.1 (docs/theory.md,
// "The simulation construction"): from a long input x (its statistic) build
// a short z with the same window and query residue such that every head of
// every given one-layer model has ‖ω_h(x) − ω_h(z)‖₁ <= δ, hence
// |f(x) − f(z)|∞ <= L(f)·δ. Deterministic; exact integer/rational arithmetic.
#include "lgcheck/semantics/one_layer.hpp"

#include <vector>

namespace lgc {

/// The resolution Q = ⌈(5K + 7S + 2τ + 6)/δ + 1/2⌉, K = S·Δ classes.
Integer simulation_resolution(const Shape& shape, const Rational& delta);

/// One linear piece of the count map: counts in [lo, hi] are multiplied by kappa.
struct CountComponent {
  Rational lo, hi, kappa;
};

struct Simulation {
  Statistic z;
  Rational delta;
  Integer resolution;                     ///< Q
  std::vector<CountComponent> components;  ///< the count map φ, ascending
  bool balanced = false;                  ///< the residue-balance interval was needed
};

/// z for x; `models` share S, Δ, τ (a pair gives two). δ > 0.
/// `resolution_override` replaces Q (mutation tests only).
Simulation simulate(const std::vector<const OneLayerEvaluator*>& models, const Statistic& x, const Rational& delta,
                    const Integer& resolution_override = 0);

/// N_sim: the largest |z| the construction can produce for any x, given the
/// total number of heads H of the models: Δ·S·(Q(τ+1))^H·2SQ + Δ + τ.
Integer simulation_length_bound(const Shape& shape, std::size_t heads, const Rational& delta);

/// max over heads of ‖ω_h(x) − ω_h(z)‖₁, over all the models.
Rational attention_distance(const std::vector<const OneLayerEvaluator*>& models, const Statistic& x,
                            const Statistic& z);

}  // namespace lgc
