#include "lgcheck/simulate/simulation_error.hpp"

#include "lgcheck/enumerate/ordered_search.hpp"

namespace lgc {

SimulationOutcome measure_simulation(const std::vector<const OneLayerEvaluator*>& models, const Statistic& x,
                                     const Statistic& z, const Rational& epsilon, unsigned p) {
  SimulationOutcome out;
  out.simulation.z = z;
  out.attention_distance = attention_distance(models, x, z);
  out.error = Number(0);
  for (const auto* m : models) {
    Number e = output_distance(*m, x, *m, z, p);
    if (out.errors.empty() || upper_of(e) > upper_of(out.error)) out.error = e;
    out.errors.push_back(e);
  }
  // Certified: every error <= ε (true), some error > ε (false), else unknown.
  out.within = true;
  for (const auto& e : out.errors) {
    std::optional<int> order = compare(e, Number(epsilon));
    if (order && *order > 0) {
      out.within = false;
      break;
    }
    if (!order) out.within.reset();
  }
  return out;
}

SimulationOutcome simulate_and_measure(const std::vector<const OneLayerEvaluator*>& models, const Statistic& x,
                                       const Rational& epsilon, const Rational& delta, unsigned p,
                                       const Integer& threshold, SimulationOptions options) {
  Simulation sim;
  bool shortened = true;
  if (p > 0 && Integer(x.length) < threshold) {
    // Below the threshold finite:p is not hardmax; the construction does not apply.
    shortened = false;
    sim.z = x;
    sim.delta = delta;
  } else {
    if (p > 0) options.min_length = static_cast<std::uint64_t>(threshold);
    sim = simulate(models, x, delta, options);
  }
  SimulationOutcome out = measure_simulation(models, x, sim.z, epsilon, p);
  out.simulation = sim;
  out.shortened = shortened;
  return out;
}

std::optional<Statistic> shortest_simulation(const std::vector<const OneLayerEvaluator*>& models, const Statistic& x,
                                             const Rational& epsilon, unsigned p, std::uint64_t max_length,
                                             std::uint64_t budget) {
  const Shape& shape = models.front()->shape();
  std::vector<Vector<Number>> yx;  // x's representations: |f(x) − f(z)| by output_distance's rule
  for (const auto* m : models) yx.push_back(representation_under(*m, x, p));
  for (std::uint64_t T = x.window.size(); T <= max_length; ++T) {
    if (T % shape.period != x.length % shape.period) continue;
    if (std::min<std::uint64_t>(T, shape.locality + 1) != x.window.size()) continue;
    if (statistic_count(shape, T) > budget) return std::nullopt;
    // The first z in enumeration order within ε of x for every model (the
    // search split over the threads, the same z for any thread count).
    OrdinalLog<Statistic> within;
    const auto first = first_statistic_where(shape, T, 0, [&](const Statistic& z, std::uint64_t ordinal) {
      if (z.window != x.window) return false;
      for (std::size_t k = 0; k < models.size(); ++k) {
        const Model& m = models[k]->model();
        std::optional<int> order = compare(
            readout_distance(m, yx[k], m, representation_under(*models[k], z, p), kDefaultPrecisionBits), Number(epsilon));
        if (!order || *order > 0) return false;
      }
      within.add(ordinal, z);
      return true;
    });
    if (first) return within.at(*first);
  }
  return std::nullopt;
}

}  // namespace lgc
