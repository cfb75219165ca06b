// T5.2.sim: the subsampled z imitates x within the toolkit's explicit
// simulation-error bound, for both models of a pair
// (docs/theory.md#the-simulation-error-bound).
#include "agreement.hpp"
#include "lgcheck/enumerate/strings.hpp"
#include "lgcheck/quantities/simulation_bound.hpp"
#include "lgcheck/semantics/softmax_linear.hpp"
#include "lgcheck/simulate/subsample.hpp"
#include "section5.hpp"

#include <fmt/format.h>

#include <map>
#include <random>

namespace lgc {
namespace {

/// x with each token 1 with probability 1/density_inverse, else 0 (S = 2),
/// or uniform over the alphabet when density_inverse = 0.
Tokens bernoulli_input(std::size_t S, std::uint64_t T, std::uint64_t density_inverse, std::mt19937_64& rng) {
  if (density_inverse == 0) return random_string(S, T, rng);
  Tokens x(T);
  for (auto& t : x) t = uniform_integer(0, density_inverse - 1, rng) == 0 ? 1 : 0;
  return x;
}

}  // namespace

bool is_simulation52_case(const Case& c) {
  if (!c.is_pair) return false;
  for (const Model& m : c.models)
    if (!simulation_bound_obstacle(m).empty()) return false;
  return true;
}

Simulation52Params simulation52_params(const Case& c) {
  Simulation52Params p;
  p.epsilon = c.check_rational("epsilon", p.epsilon);
  p.length = c.check_count("simulation_length", p.length);
  p.seed = c.check_count("seed", p.seed);
  return p;
}

ClaimResult check_simulation52(const Case& c, const Simulation52Params& params) {
  ClaimResult r;
  r.id = kSimulation52Id;
  r.case_name = c.name;
  const std::size_t S = c.model().alphabet_size(), tau = c.model().locality;
  std::vector<SoftmaxFirstLayer> layers;
  std::vector<SoftmaxLinearEvaluator> evals;
  for (const Model& m : c.models) {
    layers.emplace_back(m);
    evals.emplace_back(m);
  }
  std::mt19937_64 rng(params.seed);
  std::vector<std::uint64_t> targets{100, 1000};
  if (params.length / 10 > 1000) targets.push_back(params.length / 10);
  nlohmann::json rows = nlohmann::json::array();
  Rational smallest_bound = -1;
  std::map<std::uint64_t, bool> all_within;  // n -> both models within eps on every x
  std::size_t checks = 0;
  for (std::uint64_t density : {0u, 20u, 400u}) {
    if (density && S != 2) continue;
    Tokens x = bernoulli_input(S, params.length, density, rng);
    for (std::size_t k = 0; k < c.models.size(); ++k) {
      const SimulationErrorBound bounder(layers[k], x, params.with_exponential);
      const Output fx = evals[k].evaluate(x);
      for (std::uint64_t n : targets) {
        if (n < 2 * (tau + 1) || n >= x.size()) continue;
        Tokens z = restrict_to(x, markov_subsample(x.size(), n, tau, 1));
        SimulationBound b = bounder.bound(z);
        Number error = max_abs_difference(fx, evals[k].evaluate(z));
        ++checks;
        if (smallest_bound < 0 || b.total < smallest_bound) smallest_bound = b.total;
        auto [it, fresh] = all_within.emplace(n, true);
        it->second = it->second && upper_of(error) <= params.epsilon;
        rows.push_back({{"model", k == 0 ? "f" : "g"}, {"density", density ? "1/" + std::to_string(density) : "uniform"},
                        {"n", n}, {"length_z", z.size()}, {"error", show(error, 6)}, {"bound", to_decimal(b.total, 6)},
                        {"statistic_error", to_decimal(b.statistic_error, 6)}});
        if (upper_of(error) <= b.total) continue;
        r.evidence["rows"] = rows;
        r.verdict = lower_of(error) > b.total ? Verdict::Refuted : Verdict::Undecided;
        r.detail = fmt::format("model {} on x (|x| = {}, {}), z from the subsampler (|z| = {}): |f(x) - f(z)| = {} "
                               "exceeds the simulation-error bound {}",
                               k == 0 ? "f" : "g", x.size(), density ? "1s at rate 1/" + std::to_string(density) : "uniform",
                               z.size(), show(error, 8), to_decimal(b.total, 8));
        return r;
      }
    }
  }
  std::string reached = "none of the tested n";
  for (const auto& [n, ok] : all_within)
    if (ok) {
      reached = "n = " + std::to_string(n);
      break;
    }
  r.evidence["rows"] = rows;
  r.evidence["smallest_bound"] = to_decimal(smallest_bound, 6);
  r.evidence["eps_reached_at"] = reached;
  r.verdict = Verdict::Proved;
  r.detail = fmt::format("|f(x) - f(z)| and |g(x) - g(z)| within the simulation-error bound on {} (x, n) checks "
                         "(|x| = {}); smallest bound {}; both within eps = {} first at {} (measured)",
                         checks, params.length, to_decimal(smallest_bound, 4), to_string(params.epsilon), reached);
  return r;
}

}  // namespace lgc
