#pragma once
// Running the Theorem 4.1 construction on one input and measuring it: the
// length of z, the attention distance, and the exact (or certified) output
// error |f(x) − f(z)|∞ for each model, under hardmax or finite:p.
#include "lgcheck/simulate/construction.hpp"

#include <optional>
#include <vector>

namespace lgc {

struct SimulationOutcome {
  Simulation simulation;
  Rational attention_distance;  ///< attention_distance(models, x, z): max over heads not of one same value
  std::vector<Number> errors;   ///< |f(x) − f(z)|∞ per model
  Number error;                 ///< the largest of them
  std::optional<bool> within;   ///< error <= ε, certified; nullopt when undecided
  bool shortened = true;        ///< false when x is below the finite:p threshold (z = x)
};

/// Measures a given z against x (the trusted part: no construction):
/// attention distance, errors under hardmax (p = 0) or finite:p, and error <= ε.
SimulationOutcome measure_simulation(const std::vector<const OneLayerEvaluator*>& models, const Statistic& x,
                                     const Statistic& z, const Rational& epsilon, unsigned p);

/// Simulates x for `models` at accuracy ε (δ = ε / L), padding to the
/// finite:p threshold when p > 0; `options` may override Q (mutations).
SimulationOutcome simulate_and_measure(const std::vector<const OneLayerEvaluator*>& models, const Statistic& x,
                                       const Rational& epsilon, const Rational& delta, unsigned p,
                                       const Integer& threshold, SimulationOptions options = {});

/// The shortest z (same window and query residue as x) with every model's
/// error |f(x) − f(z)|∞ <= ε, by exhaustive search over statistics of
/// increasing length up to `max_length`; nullopt when none is found there or a
/// length exceeds `budget` statistics. Decisions are certified; an
/// undecidable comparison counts as not within ε.
std::optional<Statistic> shortest_simulation(const std::vector<const OneLayerEvaluator*>& models, const Statistic& x,
                                             const Rational& epsilon, unsigned p, std::uint64_t max_length,
                                             std::uint64_t budget = 200000);

}  // namespace lgc
