// lgcheck simulate on softmax models: Lemma 5.3's subsampler from the
// command line.
#include "commands.hpp"

#include "claims/agreement.hpp"
#include "output/cli_output.hpp"
#include "output/progress.hpp"
#include "lgcheck/bounds/theorem52.hpp"
#include "lgcheck/enumerate/strings.hpp"
#include "lgcheck/quantities/simulation_bound.hpp"
#include "lgcheck/quantities/layer2_integrands.hpp"
#include "lgcheck/report/position_progress.hpp"
#include "lgcheck/semantics/softmax_linear.hpp"
#include "lgcheck/simulate/subsample.hpp"

#include <fmt/format.h>

#include <iostream>
#include <random>

namespace lgc::cli {
namespace {

std::string interval_text(const Interval& x) {
  return "[" + x.lower_decimal(6) + ", " + x.upper_decimal(6) + "]";
}

nlohmann::json complexity_json(const Model& m, const ComplexityConstant& k) {
  nlohmann::json heads = nlohmann::json::array();
  for (std::size_t g = 0; g < k.head_factor.size(); ++g)
    heads.push_back({{"factor", interval_json(k.head_factor[g])},
                     {"eps_hat", interval_json(k.head_eps[g])},
                     {"pi_hat", interval_json(k.head_pairing[g])},
                     {"top", to_string(k.head_top[g])}});
  return {{"model", m.name},
          {"gamma", k.gamma ? nlohmann::json(to_string(*k.gamma)) : nlohmann::json(nullptr)},
          {"second_layer_margin", to_string(k.second_layer_margin)},
          {"rate", to_string(k.rate)},
          {"K", to_string(k.K)},
          {"lip_phi", to_string(k.lip_phi)},
          {"lip_out", to_string(k.lip_out)},
          {"G", to_string(k.G)},
          {"L", to_string(k.L)},
          {"D", to_string(k.drift)},
          {"subsample_constant", to_string(k.subsample_constant)},
          {"classes", k.classes},
          {"locality", k.locality},
          {"from", k.from},
          {"start", k.start},
          {"heads", heads},
          {"C", interval_json(k.C)}};
}

std::string complexity_text(const Model& m, const ComplexityConstant& k) {
  auto line = [](const std::string& label, const std::string& value) { return fmt::format("  {:<32}{}\n", label, value); };
  std::string text = "model " + m.name + "\n";
  if (k.second_layer_margin == 1)
    text += line("gamma, rate min(gamma, 1/3)", (k.gamma ? to_string(*k.gamma) : "inf") + ", " + to_string(k.rate));
  else
    text += line("gamma, gamma2, rate", (k.gamma ? to_string(*k.gamma) : "inf") + ", " +
                                            to_string(k.second_layer_margin) + ", " + to_string(k.rate));
  text += line("K (L5.conv)", to_decimal(k.K, 6));
  text += line("Lip(Phi) (L5.lip)", to_decimal(k.lip_phi, 6));
  text += line("Lip_out (second MLP, readout)", to_decimal(k.lip_out, 6));
  text += line("G, L (every query)", to_decimal(k.G, 6) + ", " + to_decimal(k.L, 6));
  text += line("c, classes H, tau", fmt::format("{}, {}, {}", to_string(k.subsample_constant), k.classes, k.locality));
  text += line("D = K + c Lip(Phi) H (tau+1)", to_decimal(k.drift, 6));
  text += line("start (2(tau+1) + top offset)", std::to_string(k.start));
  for (std::size_t g = 0; g < k.head_factor.size(); ++g) {
    text += line(fmt::format("head {}: e^A (1 + B) s", g + 1), interval_text(k.head_factor[g]));
    text += line(fmt::format("head {}: eps_hat", g + 1), interval_text(k.head_eps[g]));
    if (k.head_top[g] != 1 || k.head_pairing[g].upper() != 0) {
      text += line(fmt::format("head {}: Phi, pi_hat", g + 1),
                   to_string(k.head_top[g]) + ", " + interval_text(k.head_pairing[g]));
    }
  }
  text += line("C(f)", interval_text(k.C));
  return text + "\n";
}

}  // namespace

int cmd_bound_theorem52(const BoundInputs& in) {
  Case c = load_case(in.file);
  Rational eps = positive_rational_flag("--epsilon", in.epsilon);
  const Rational constant =
      in.c_given ? positive_rational_flag("--c", in.c) : c.check_rational("subsample_constant", Rational(1));
  std::vector<ComplexityConstant> constants;
  for (const Model& m : c.models) {
    if (std::string why = simulation_bound_obstacle(m); !why.empty())
      throw UsageError(in.file + ": Theorem 5.2's C(f) is not defined for model " + m.name + ": " + why);
    constants.push_back(complexity_constant(m, constant));
  }
  const Theorem52Bounds b = theorem52_bounds(constants, eps);
  if (in.json) {
    nlohmann::json models = nlohmann::json::array();
    for (std::size_t k = 0; k < constants.size(); ++k) models.push_back(complexity_json(c.models[k], constants[k]));
    print_json({{"theorem", "5.2"},
                {"case", c.name},
                {"epsilon", to_string(b.epsilon)},
                {"models", models},
                {"C", to_string(b.C)},
                {"gamma", b.gamma ? nlohmann::json(to_string(*b.gamma)) : nlohmann::json(nullptr)},
                {"exponent", to_string(b.exponent)},
                {"period", b.period},
                {"N_variant_A", b.N_variant_A.str()},
                {"N_variant_B", b.N_variant_B.str()}});
    return 0;
  }
  std::string text = fmt::format("Theorem 5.2 bounds for {} at epsilon = {}\n\n", c.name, to_string(b.epsilon));
  text += "C(f) = Lip_out [K + D + sum_g e^A_g (1 + B_g) s_g (2 eps_hat_g + pi_hat_g + c (G + L)(tau + 1))]  "
          "(docs/theory.md;\n  s_g = j0/(j0 - k_g) for k_g window offsets with phi_g < 0; pi_hat_g = 0 without a "
          "top window key (phi_g = Phi_g >= 1);\n  no c (G + L)(tau + 1) term for a head with Phi_g = max(phi_g, 1) > "
          "1)\n";
  const bool second_phi = b.second_layer_margin != 1;
  text += second_phi ? "|f(x) - f(z)| <= C(f) n^-min(gamma,1/3,gamma2) for every c-good z of length n >= start "
                       "(Lemma 5.3;\n  gamma2 = min over the second-layer heads of min(1, Phi_g - the next value "
                       "below it in phi_g and 1))\n\n"
                     : "|f(x) - f(z)| <= C(f) n^-min(gamma,1/3) for every c-good z of length n >= start (Lemma "
                       "5.3)\n\n";
  for (std::size_t k = 0; k < constants.size(); ++k) text += complexity_text(c.models[k], constants[k]);
  const std::string delta = b.period == 1 ? "" : " + Delta - 1";  // c-good z have |z| = |x| mod Delta
  std::uint64_t start = 1;  // C(f) holds from the larger start on
  for (const ComplexityConstant& k : constants) start = std::max(start, k.start);
  const std::string lengths =
      b.period == 1 ? "n >= N_variant_A"
                    : fmt::format("n >= N_variant_A - {} with n = |x| (mod Delta), Delta = {}", b.period - 1, b.period);
  text += fmt::format(
      "bounds (C = max C(f) upper end = {}, gamma = {}, exponent {} = {})\n"
      "  N_variant_A = max(ceil((C/eps)^exponent), start {}){}  {}\n"
      "  N_variant_B = ceil(C eps^-exponent)   {}\n"
      "N_variant_A is conditional: |f(x) - g(x)| <= 3 eps for every x needs a c-good z of every length\n"
      "{}, which is not proved (L5.3.subsample tests that the subsampler finds one; docs/theory.md)\n",
      to_decimal(b.C, 6), b.gamma ? to_string(*b.gamma) : "inf",
      second_phi ? "max(1/gamma, 3, 1/gamma2)" : "max(1/gamma, 3)", to_string(b.exponent), start, delta,
      readable(b.N_variant_A), readable(b.N_variant_B), lengths);
  std::cout << text;
  return 0;
}

int cmd_simulate_softmax(const Case& c, const SoftmaxSimulateInputs& in) {
  if (c.is_pair) throw UsageError(in.file + ": simulate on softmax models takes a model case");
  const Model& m = c.model();
  if (m.layers.size() > 2) throw UsageError(in.file + ": softmax models of one or two layers");
  Rational eps = positive_rational_flag("--epsilon", in.epsilon);
  if (in.input.empty() == (in.random_length == 0)) throw UsageError("give exactly one of --input STR and --random T");
  Tokens x;
  if (!in.input.empty()) {
    x = input_flag(m, in.input);
  } else {
    std::mt19937_64 rng(in.seed);
    x = random_string(m.alphabet_size(), in.random_length, rng);
  }
  if (x.size() <= m.locality + 1) throw UsageError("x must be longer than tau + 1 = " + std::to_string(m.locality + 1));
  const std::uint64_t n = in.length ? in.length : std::max<std::uint64_t>(m.locality + 2, x.size() / 10);
  if (n > x.size()) throw UsageError("--length: the target length must be at most |x| = " + std::to_string(x.size()));
  const Rational constant = c.check_rational("subsample_constant", 1);
  // Each pass over x or z reports its positions; `phase` names the pass.
  Progress progress("positions", in.quiet);
  std::string phase = "x's statistic averages";
  const PositionObserverScope observe([&](std::uint64_t done, std::uint64_t total) { progress.update(done, total, phase); });
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
    z = restrict_to(x, markov_subsample(x.size(), n, m.locality, seed, m.period));
    if (!two_layers) break;
    phase = fmt::format("z's statistic error (seed {})", seed);
    const IntegrandBounds& b = stats->bounds();
    stat_error = stats->error(z);
    stat_bound = statistic_error_limit(constant, b.G, b.L, m.locality, z.size());
    if (upper_of(stat_error) <= stat_bound.lower()) break;
  }
  const bool met = !two_layers || seed <= in.seeds;
  if (seed > in.seeds) seed = in.seeds;
  SoftmaxLinearEvaluator eval(m);
  phase = "f(x) and f(z)";
  Number error = max_abs_difference(eval.evaluate(x), eval.evaluate(z));
  std::optional<int> side = compare(error, Number(eps));
  if (!side) {  // undecided on the cheap enclosures: ask at full precision
    error = max_abs_difference(eval.precise_evaluate(x), eval.precise_evaluate(z));
    side = compare(error, Number(eps));
  }
  progress.clear();
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
                               readable(stat_error), met ? "<=" : "> (no seed met it)", stat_bound.upper_decimal(8),
                               to_string(constant));
    std::cout << fmt::format("error |f(x) - f(z)| = {}  {} epsilon = {}\n", readable(error),
                             within ? (*within ? "<=" : ">") : "undecided against", to_string(eps));
  }
  return within && *within ? 0 : (within ? 1 : 3);
}

}  // namespace lgc::cli
