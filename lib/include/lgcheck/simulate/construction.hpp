#pragma once
// The toolkit's simulation construction for Theorem 4.1 (docs/theory.md,
// "The simulation construction"): from a long input x (its statistic) build
// a short z with the same window and query residue such that every head of
// every given one-layer model has ‖ω_h(x) − ω_h(z)‖₁ <= δ, hence
// |f(x) − f(z)|∞ <= L(f)·δ. Deterministic; exact integer/rational arithmetic.
#include "lgcheck/semantics/one_layer.hpp"

#include <string>
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

struct SimulationOptions {
  Integer resolution_override = 0;  ///< replaces Q when > 0 (mutation tests)
  std::uint64_t min_length = 0;     ///< pad z to at least this length (finite:p threshold)
  bool no_intervals = false;        ///< mutation: every head treated as weighing one value (no interval kept)
};

/// z for x; `models` share S, Δ, τ (a pair gives two). δ > 0.
Simulation simulate(const std::vector<const OneLayerEvaluator*>& models, const Statistic& x, const Rational& delta,
                    const SimulationOptions& options = {});

/// Head h is anchored when, for every query (token, residue), some residue r
/// has all its classes at the largest class logit: its top set, when it holds
/// a class, then holds a whole residue's worth of positions.
bool is_anchored(const OneLayerEvaluator& model, std::size_t head);
/// Whether head h weighs one value on every input: at every query (token,
/// residue), the keys it can see with equal logits (bulk classes, window slots
/// with any token, the query) carry equal value vectors. Such a head's output
/// never depends on counts, and the construction gives it no interval.
bool weighs_one_value(const OneLayerEvaluator& model, std::size_t head);
/// The number of distinct attention patterns among the heads that do not
/// weigh one value (heads with the same logit table and φ have the same
/// argmax sets on every input).
std::size_t attention_patterns(const std::vector<const OneLayerEvaluator*>& models);

struct LengthBound {
  Integer N;           ///< N_sim: no z is longer
  Integer resolution;  ///< Q
  std::size_t patterns = 0;
  bool anchored = false;  ///< the sharper anchored form applies
  std::string formula;    ///< the formula used, in words
  /// e with N_sim = Θ(ε^{−e}) as ε → 0 for fixed models (Q ∝ 1/ε): 1 when
  /// anchored, E + 1 otherwise (the finite:p padding does not depend on ε).
  std::size_t epsilon_exponent = 1;
};

/// N_sim(δ), over the heads that do not weigh one value: anchored (every
/// such head anchored, at most one pattern):
/// Δ·(SQ(τ+1) + S + 2) + τ; otherwise, with H patterns and E = min(H, SΔ),
/// Δ·S·(Q(τ+1))^E·2SQ + Δ + τ. With a finite:p threshold t > 1 the padded
/// construction also needs 2t + Δ(S+1): N_sim = max of the two.
LengthBound simulation_length_bound(const std::vector<const OneLayerEvaluator*>& models, const Rational& delta,
                                    const Integer& threshold = 1);

/// max of ‖ω_h(x) − ω_h(z)‖₁ over the heads of all the models, leaving out
/// a head that weighs one value at x and the same one value at z (its
/// output is that vector at both).
Rational attention_distance(const std::vector<const OneLayerEvaluator*>& models, const Statistic& x,
                            const Statistic& z);

}  // namespace lgc
