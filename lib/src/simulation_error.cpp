#include "lgcheck/simulate/simulation_error.hpp"

namespace lgc {

Output evaluate_statistic(const OneLayerEvaluator& model, const Statistic& sigma, unsigned p) {
  return p == 0 ? model.evaluate(sigma) : model.evaluate_finite(sigma, p);
}

SimulationOutcome simulate_and_measure(const std::vector<const OneLayerEvaluator*>& models, const Statistic& x,
                                       const Rational& epsilon, const Rational& delta, unsigned p,
                                       const Integer& threshold, SimulationOptions options) {
  SimulationOutcome out;
  if (p > 0 && Integer(x.length) < threshold) {
    // Below the threshold finite:p is not hardmax; the construction does not apply.
    out.shortened = false;
    out.simulation.z = x;
    out.simulation.delta = delta;
  } else {
    if (p > 0) options.min_length = static_cast<std::uint64_t>(threshold);
    out.simulation = simulate(models, x, delta, options);
  }
  out.attention_distance = attention_distance(models, x, out.simulation.z);
  auto upper = [](const Number& n) { return n.is_exact() ? n.exact() : n.enclosure().upper(); };
  out.error = Number(0);
  for (const auto* m : models) {
    Number e = max_abs_difference(evaluate_statistic(*m, x, p), evaluate_statistic(*m, out.simulation.z, p));
    if (out.errors.empty() || upper(e) > upper(out.error)) out.error = e;
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

}  // namespace lgc
