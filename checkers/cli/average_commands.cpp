// lgcheck average and bound --theorem 4.2: Theorem 4.2 from the command line.
#include "commands.hpp"

#include "claims/agreement.hpp"
#include "claims/case_models.hpp"
#include "output/cli_output.hpp"
#include "output/progress.hpp"
#include "claims/average/theorem42.hpp"
#include "lgcheck/average/monte_carlo.hpp"
#include "lgcheck/bounds/theorem42.hpp"
#include "lgcheck/model/case_file.hpp"
#include "lgcheck/quantities/distance.hpp"
#include "lgcheck/quantities/logit_margin.hpp"
#include "lgcheck/semantics/finite_precision.hpp"

#include <fmt/format.h>

#include <cmath>
#include <iostream>
#include <memory>

namespace lgc::cli {
namespace {

/// The prior of --alpha, else the case's check.dirichlet_alpha (for a
/// regularity case: its distribution at `length`).
DirichletPrior prior_flag(const Case& c, const std::string& alpha, std::uint64_t length) {
  if (!alpha.empty()) {
    DirichletPrior p{QVector(rational_list_flag("--alpha", alpha, c.model().alphabet_size()))};
    try {
      validate_prior(p, c.model().alphabet_size());
    } catch (const std::invalid_argument& e) {
      throw UsageError(std::string("--alpha: ") + e.what());
    }
    return p;
  }
  if (is_regularity_case(c)) return case_switching_distribution(c).at(length);
  if (auto p = case_prior(c)) return *p;
  throw UsageError("no prior: give --alpha A1,A2,... or a case with check.dirichlet_alpha");
}

/// A certified bound on |f − g|∞ over all inputs, for Hoeffding's interval.
Rational distance_range(const CaseModels& cm) {
  const Model& f = cm.models[0]->model();
  const Model& g = cm.models[1]->model();
  if (auto b = value_perturbation_bound(f, g)) return *b;
  if (auto b = readout_gap_bound(*cm.models[0], *cm.models[1])) return *b;
  throw UsageError("--method monte-carlo: no certified bound on |f - g| for this pair (it needs f and g to differ "
                   "only in V, or only after the attention)");
}

/// The exact expectation caches rising factorials of every length up to T:
/// about T²·log₂(T)/2 bits per group of symbols (docs/theory.md, Computing
/// E_T exactly). Refused before allocating when one group alone would
/// exceed the ceiling.
constexpr double kExactMemoryCeilingBytes = 1.0 * (1u << 30);
constexpr double kMonteCarloTokenCeiling = 1e10;  // samples × length drawn

void require_exact_within_memory(std::uint64_t length) {
  const double T = static_cast<double>(length);  // an estimate for a refusal, never a verdict
  const double bytes = T * T * std::log2(std::max(T, 2.0)) / 16;
  if (bytes > kExactMemoryCeilingBytes)
    throw UsageError(fmt::format("--length {}: the exact expectation needs about {:.3g} GB (rising factorials up to T: "
                                 "about T^2 log2(T)/2 bits per symbol group), beyond the {} GB ceiling; use --method "
                                 "monte-carlo or a shorter --length",
                                 length, bytes / 1e9, kExactMemoryCeilingBytes / (1u << 30)));
}

void require_monte_carlo_within_work(std::uint64_t length, std::uint64_t samples) {
  if (static_cast<double>(length) * static_cast<double>(samples) > kMonteCarloTokenCeiling)
    throw UsageError(fmt::format("--length {} with --samples {}: {:.3g} tokens to draw, beyond the {:.0e} a run may "
                                 "take; lower --samples or --length",
                                 length, samples, static_cast<double>(length) * static_cast<double>(samples),
                                 kMonteCarloTokenCeiling));
}

/// Statistics the exact E_T under a rounding semantics sums one by one (below its threshold), at most.
constexpr std::uint64_t kRoundedStatisticCeiling = 20000000;

/// How E_T is computed under a rounding semantics: by top patterns where it equals hardmax at the last position
/// (finite:p from the threshold t on; finite-weights:p on t <= T <= 2^p − 1), else statistic by statistic.
struct RoundedRoute {
  bool via_hardmax = false;
  std::string text;
};

RoundedRoute rounded_route(const CaseModels& cm, const Semantics& semantics, std::uint64_t length) {
  Integer t(1);
  bool margin = false;  // some head has two attainable logits (else nothing below the top can round: t = 1)
  for (const auto* m : cm.models)
    if (const auto gamma = logit_margin(m->model()).gamma) {
      margin = true;
      t = std::max(t, hardmax_threshold(semantics.bits, *gamma));
    }
  const std::string t_text = margin ? "t = ceil(2^(p/gamma)) = " + readable(t) : "gamma = inf: t = 1";
  const bool weights = semantics.kind == Semantics::Kind::FiniteWeights;
  const Integer end = weights ? (Integer(1) << semantics.bits) - 1 : Integer(0);
  if (Integer(length) >= t && (!weights || Integer(length) <= end))
    return {true, fmt::format("top patterns under hardmax: {} equals hardmax at the last position for {} ({})",
                              semantics.str(), weights ? "t <= T <= 2^p - 1" : "T >= t", t_text)};
  const std::uint64_t count = statistic_count(cm.models.front()->shape(), length);
  if (count > kRoundedStatisticCeiling)
    throw UsageError(fmt::format("--length {}: where {} is not known to equal hardmax ({}{}), E_T sums every "
                                 "statistic, {} of them, beyond the {} a run may take; use another --length",
                                 length, semantics.str(), t_text, weights ? ", window up to 2^p - 1" : "", count,
                                 kRoundedStatisticCeiling));
  return {false, fmt::format("every statistic of length {} ({}), each evaluated under {} ({} the window {}{})", length,
                             count, semantics.str(), Integer(length) < t ? "below" : "past", t_text,
                             weights ? " <= T <= 2^p - 1" : " <= T")};
}

/// An exact E_T: its JSON keys (expectation, its decimal, exact) and its text lines.
void report_expectation(const Number& value, nlohmann::json& out, std::string& text) {
  out["expectation"] = number_json(value);
  out["expectation_decimal"] = decimal(value);
  out["exact"] = value.is_exact();
  text += fmt::format("  exact        {}\n", readable(value));
  if (value.is_exact() && to_string(value.exact()).size() <= 200 && readable(value) != to_string(value.exact()))
    text += fmt::format("               = {}\n", to_string(value.exact()));
}

struct AverageArgs {
  std::string file, alpha, method = "exact", confidence = "19/20", semantics;
  std::uint64_t length = 0, samples = 1000, seed = 1;
  bool json = false, quiet = false;
};

int cmd_average(const AverageArgs& a) {
  Case c = load_case(a.file);
  if (!c.is_pair) throw UsageError(a.file + ": average needs a pair case (f, g)");
  CaseModels cm = one_layer_models(c);
  // --semantics, else the case's own (hardmax, finite:p or finite-weights:p).
  const Semantics semantics = a.semantics.empty() ? c.model().semantics : semantics_flag(a.semantics);
  if (semantics.kind == Semantics::Kind::Softmax)
    throw UsageError("--semantics: average is for one-layer hardmax, finite:<p> or finite-weights:<p> (got softmax)");
  if (semantics.rounds() && a.method != "exact")
    throw UsageError("--method " + a.method + ": the Monte Carlo estimate samples under hardmax only; under " +
                     semantics.str() + " use --method exact");
  if (a.method != "monte-carlo") require_exact_within_memory(a.length);
  if (a.method != "exact") require_monte_carlo_within_work(a.length, a.samples);
  const DirichletPrior prior = prior_flag(c, a.alpha, a.length);
  nlohmann::json out = {{"case", c.name}, {"length", a.length}, {"alpha", nlohmann::json::array()},
                        {"semantics", semantics.str()}};
  for (const auto& q : prior.alpha) out["alpha"].push_back(to_string(q));
  std::string text = fmt::format("E|f(x) - g(x)| for {} at T = {}, x ~ Dirichlet-multinomial(alpha = {}){}\n", c.name,
                                 a.length, describe(prior), semantics.rounds() ? ", under " + semantics.str() : "");
  const std::optional<RoundedRoute> route =
      semantics.rounds() ? std::optional<RoundedRoute>(rounded_route(cm, semantics, a.length)) : std::nullopt;
  if (route && !route->via_hardmax) {
    const Number value = expected_distance_by_statistics(*cm.models[0], *cm.models[1], prior, a.length,
                                                         kDefaultPrecisionBits, semantics);
    report_expectation(value, out, text);
    out["route"] = route->text;
    text += fmt::format("  ({})\n", route->text);
  } else if (a.method != "monte-carlo") {
    DirichletMoments moments(prior);
    ExpectationOptions options;
    Progress progress("terms", a.quiet);  // the number of terms is not known in advance
    const std::string label = fmt::format("E|f - g| at T = {}", a.length);
    options.progress = [&](std::uint64_t terms) { progress.update(terms, 0, label); };
    Expectation e = expected_distance(*cm.models[0], *cm.models[1], moments, a.length, options);
    progress.clear();
    report_expectation(e.value, out, text);
    out["terms"] = e.terms;
    text += fmt::format("  ({} top-pattern terms summed; the weights sum to 1 exactly: {})\n", e.terms,
                        e.mass == 1 ? "yes" : "NO");
    if (route) {
      out["route"] = route->text;
      text += fmt::format("  ({})\n", route->text);
    }
  }
  if (a.method != "exact") {
    Rational confidence = positive_rational_flag("--confidence", a.confidence);
    if (confidence >= 1) throw UsageError("--confidence: expected a number in (0, 1), got " + a.confidence);
    MonteCarloEstimate m = monte_carlo_distance(*cm.models[0], *cm.models[1], prior, a.length, a.samples, a.seed,
                                                1 - confidence, distance_range(cm));
    out["estimate"] = {{"kind", "Monte Carlo estimate (not a verdict)"},
                       {"samples", m.samples},
                       {"seed", a.seed},
                       {"confidence", to_string(confidence)},
                       {"range", to_string(m.range)},
                       {"mean", to_decimal(m.mean_upper, 12)},
                       {"lower", to_decimal(m.lower(), 12)},
                       {"upper", to_decimal(m.upper(), 12)}};
    text += fmt::format(
        "  estimate     {} in [{}, {}] with confidence {} (Monte Carlo, {} samples, seed {};\n"
        "               Hoeffding with |f - g| <= {}) -- an estimate, not a verdict\n",
        to_decimal(m.mean_upper, 8), to_decimal(m.lower(), 8), to_decimal(m.upper(), 8), to_string(confidence),
        m.samples, a.seed, to_decimal(m.range, 8));
  }
  if (a.json)
    print_json(out);
  else
    std::cout << text;
  return 0;
}

}  // namespace

int cmd_bound_theorem42(const BoundInputs& in) {
  Case c = load_case(in.file);
  Rational eps = positive_rational_flag("--epsilon", in.epsilon);
  if (eps > 1) throw UsageError("--epsilon: Theorem 4.2 is stated for epsilon <= 1, got " + in.epsilon);
  Rational constant = positive_rational_flag("--c", in.c);
  const DirichletPrior prior = prior_flag(c, in.alpha, 1);
  Theorem42Bounds b = theorem42_bounds(eps, alpha_min(prior), constant, in.log_power);
  nlohmann::json alpha = nlohmann::json::array();
  for (const auto& q : prior.alpha) alpha.push_back(to_string(q));
  const Model& m = c.model();
  if (in.json) {
    print_json({{"theorem", "4.2"},
                {"case", c.name},
                {"epsilon", to_string(b.epsilon)},
                {"alpha", alpha},
                {"alpha_min", to_string(b.alpha_min)},
                {"exponent", to_string(b.exponent)},
                {"c", to_string(b.c)},
                {"log_power", b.log_power},
                {"alphabet_size", m.alphabet_size()},
                {"period", m.period},
                {"locality", m.locality},
                {"value", interval_json(b.value)},
                {"N0", b.N0.str()}});
    return 0;
  }
  std::cout << fmt::format(
      "Theorem 4.2 bound for {} at epsilon = {}\n\n"
      "ingredients\n"
      "  alpha (Dirichlet prior)        {}\n"
      "  alpha_min                      {}\n"
      "  exponent 2 + 2/alpha_min       {}\n"
      "  c (the O~(.) constant)         {}\n"
      "  k (power of 1 + ln(1/eps))     {}\n"
      "  S, Delta, tau                  {}, {}, {}\n\n"
      "bound\n"
      "  c eps^(-exponent) (1 + ln(1/eps))^k in {}\n"
      "  N0                             {}\n",
      c.name, to_string(b.epsilon), describe(prior), to_string(b.alpha_min), readable(b.exponent), to_string(b.c),
      b.log_power, m.alphabet_size(), m.period, m.locality, b.value.to_string(12), readable(b.N0));
  return 0;
}

Command add_average(CLI::App& app) {
  auto a = std::make_shared<AverageArgs>();
  auto* sub = app.add_subcommand(
      "average",
      "Theorem 4.2's average distance E|f(x) - g(x)| over x ~ Dirichlet-multinomial(T, alpha), exactly under hardmax "
      "or a finite-precision semantics (a rational, or a certified enclosure with sin readouts or irrational surviving "
      "weights); --method monte-carlo estimates it under hardmax at lengths beyond exact reach, labelled as an "
      "estimate");
  add_command_budget_option(sub);
  sub->add_option("PAIR", a->file, "pair case (one-layer, hardmax, finite:p or finite-weights:p)")->required();
  sub->add_option("--length", a->length, "the input length T")->required()->check(CLI::Range(std::uint64_t{1}, std::uint64_t{1000000000}));
  sub->add_option("--alpha", a->alpha, "the prior, e.g. 1,1/2 (default: the case's check.dirichlet_alpha)");
  sub->add_option("--semantics", a->semantics,
                  "hardmax | finite:<p> | finite-weights:<p> (default: the case's own): a rounding semantics is summed "
                  "statistic by statistic below its threshold, by top patterns where it equals hardmax");
  sub->add_option("--method", a->method, "exact | monte-carlo | both")->capture_default_str()
      ->check(CLI::IsMember({"exact", "monte-carlo", "both"}));
  sub->add_option("--samples", a->samples, "Monte Carlo samples")->capture_default_str()->check(CLI::Range(std::uint64_t{1}, std::uint64_t{100000000}));
  sub->add_option("--seed", a->seed, "Monte Carlo seed")->capture_default_str();
  sub->add_option("--confidence", a->confidence, "Monte Carlo confidence 1 - delta")->capture_default_str();
  sub->add_flag("--json", a->json, "print a JSON object (length, alpha, expectation, ...)");
  sub->add_flag("--quiet", a->quiet, "no progress line on stderr (it is shown only on a terminal, after 2 s)");
  return {sub, [a] { return cmd_average(*a); }};
}

}  // namespace lgc::cli
