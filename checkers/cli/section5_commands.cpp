// lgcheck simulate on softmax models: Lemma 5.3's subsampler from the
// command line.
#include "commands.hpp"

#include "../agreement.hpp"
#include "../cli_output.hpp"
#include "lgcheck/enumerate/strings.hpp"
#include "lgcheck/quantities/layer2_integrands.hpp"
#include "lgcheck/semantics/softmax_linear.hpp"
#include "lgcheck/simulate/subsample.hpp"

#include <fmt/format.h>

#include <iostream>
#include <random>

namespace lgc::cli {

int cmd_simulate_softmax(const Case& c, const SoftmaxSimulateInputs& in) {
  if (c.is_pair) throw UsageError(in.file + ": simulate on softmax models takes a model case");
  const Model& m = c.model();
  if (m.layers.size() > 2) throw UsageError(in.file + ": softmax models of one or two layers");
  Rational eps = positive_rational_flag("--epsilon", in.epsilon);
  if (in.input.empty() == (in.random_length == 0)) throw UsageError("give exactly one of --input STR and --random T");
  Tokens x;
  if (!in.input.empty()) {
    try {
      x = parse_input(m, in.input);
    } catch (const InputError& e) {
      throw UsageError(std::string("--input: ") + e.what());
    }
  } else {
    std::mt19937_64 rng(in.seed);
    x = random_string(m.alphabet_size(), in.random_length, rng);
  }
  if (x.size() <= m.locality + 1) throw UsageError("x must be longer than tau + 1 = " + std::to_string(m.locality + 1));
  const std::uint64_t n = in.length ? in.length : std::max<std::uint64_t>(m.locality + 2, x.size() / 10);
  if (n > x.size()) throw UsageError("--length: the target length must be at most |x| = " + std::to_string(x.size()));
  const Rational constant = c.check_rational("subsample_constant", 1);
  SoftmaxFirstLayer layer(m);
  const bool two_layers = m.layers.size() == 2;
  std::optional<StatisticAverages> stats;
  if (two_layers) stats.emplace(layer, x);
  // Seeds in order until the statistic error meets Lemma 5.3's bound (two
  // layers); the first seed otherwise.
  std::uint64_t seed = 1;
  Tokens z;
  Number stat_error;
  Interval stat_bound = Interval::zero(128);
  for (; seed <= in.seeds; ++seed) {
    z = restrict_to(x, markov_subsample(x.size(), n, m.locality, seed));
    if (!two_layers) break;
    const IntegrandBounds& b = stats->bounds();
    stat_error = stats->error(z);
    stat_bound = Interval(constant * (b.G + b.L) * static_cast<long>(m.locality + 1), 128) *
                 power(Integer(z.size()), Rational(-1, 3), 128);
    if (upper_of(stat_error) <= stat_bound.lower()) break;
  }
  const bool met = !two_layers || seed <= in.seeds;
  if (seed > in.seeds) seed = in.seeds;
  SoftmaxLinearEvaluator eval(m);
  Number error = max_abs_difference(eval.evaluate(x), eval.evaluate(z));
  std::optional<int> side = compare(error, Number(eps));
  std::optional<bool> within;
  if (side) within = *side <= 0;
  if (in.json) {
    nlohmann::json j = {{"length_x", x.size()},
                        {"length_z", z.size()},
                        {"target_length", n},
                        {"seed", seed},
                        {"attention_distance", nullptr},
                        {"error", number_json(error)},
                        {"epsilon", to_string(eps)},
                        {"within_epsilon", within ? nlohmann::json(*within) : nlohmann::json(nullptr)},
                        {"semantics", "softmax"}};
    if (two_layers) {
      j["statistic_error"] = number_json(stat_error);
      j["statistic_bound"] = stat_bound.upper_decimal(12);
      j["statistic_bound_met"] = met;
    }
    if (z.size() <= 10000) j["z"] = format_input(m, z);
    print_json(j);
  } else {
    std::cout << fmt::format("|x| = {}, |z| = {} (target n = {}, Markov subsampler, block length {}, seed {})\n",
                             x.size(), z.size(), n, block_length(n), seed);
    if (two_layers)
      std::cout << fmt::format("statistic error {} {} c (G+L)(tau+1) |z|^-1/3 = {} (Lemma 5.3, c = {})\n",
                               show(stat_error, 8), met ? "<=" : "> (no seed met it)", stat_bound.upper_decimal(8),
                               to_string(constant));
    std::cout << fmt::format("error |f(x) - f(z)| = {}  {} epsilon = {}\n", show(error, 12),
                             within ? (*within ? "<=" : ">") : "undecided against", to_string(eps));
  }
  return within && *within ? 0 : (within ? 1 : 3);
}

}  // namespace lgc::cli
