// L5.3.subsample: the Markov-chain subsampler keeps the statistics of x
// within the Lemma 5.3 rate (docs/theory.md#the-subsampler-lemma-53).
#include "claims/agreement.hpp"
#include "claims/declarations.hpp"
#include "lgcheck/enumerate/budget.hpp"
#include "lgcheck/enumerate/strings.hpp"
#include "lgcheck/quantities/drift_form.hpp"
#include "lgcheck/quantities/layer2_integrands.hpp"
#include "lgcheck/simulate/subsample.hpp"
#include "claims/section5/section5.hpp"

#include <fmt/format.h>

#include <cmath>
#include <random>

namespace lgc {
namespace {

struct Test {
  std::string kind;
  Tokens x;
  std::uint64_t n;
};

/// The bound c·(G + L)(τ+1)·n^{−rate}, an enclosure.
Interval rate_bound(const SubsampleParams& p, const IntegrandBounds& b, std::size_t tau, std::uint64_t n) {
  return statistic_error_limit(p.constant, b.G, b.L, tau, n, p.rate);
}

/// The log-log slope of the statistic error against |z| on x for targets
/// n = 10^2, 10^3, 10^4 (mean over seeds 1..4): a reported measurement set
/// beside the −1/3 rate, computed in double and never a verdict.
std::string fitted_slope(const StatisticAverages& stats, const Tokens& x, const Model& m) {
  const ErrorCurve curve = subsample_error_curve(x, {100, 1000, 10000}, 4, m, [&](const Tokens& z) {
    return upper_of(stats.error(z)).convert_to<double>();
  });
  return curve.points.size() < 2 ? "n/a" : fmt::format("{:.3f}", curve.slope);
}

}  // namespace

Tokens noisy_periodic_input(std::size_t S, std::uint64_t T, std::mt19937_64& rng) {
  Tokens u{static_cast<int>(uniform_integer(0, S - 1, rng)), 0};
  u[1] = (u[0] + 1) % static_cast<int>(S);
  Tokens x(T);
  for (std::uint64_t t = 0; t < T; ++t)
    x[t] = uniform_integer(0, 9, rng) == 0 ? static_cast<int>(uniform_integer(0, S - 1, rng)) : u[t % u.size()];
  return x;
}

ErrorCurve subsample_error_curve(const Tokens& x, const std::vector<std::uint64_t>& targets, std::uint64_t seeds,
                                 const Model& m, const std::function<double(const Tokens&)>& error) {
  ErrorCurve curve;
  for (std::uint64_t n : targets) {
    if (n >= x.size()) break;
    double log_n = 0, log_e = 0, mean = 0, length = 0;
    for (std::uint64_t s = 1; s <= seeds; ++s) {
      charge_enumeration(x.size());
      Tokens z = restrict_to(x, markov_subsample(x.size(), n, m.locality, s, m.period));
      const double e = error(z);
      log_n += std::log(static_cast<double>(z.size())) / static_cast<double>(seeds);
      log_e += std::log(std::max(e, 1e-300)) / static_cast<double>(seeds);
      mean += e / static_cast<double>(seeds);
      length += static_cast<double>(z.size()) / static_cast<double>(seeds);
    }
    curve.points.push_back({n, length, mean, log_n, log_e});
  }
  if (curve.points.size() >= 2) {
    double mx = 0, my = 0;
    const double k = static_cast<double>(curve.points.size());
    for (const auto& p : curve.points) mx += p.log_length / k, my += p.log_error / k;
    double sxy = 0, sxx = 0;
    for (const auto& p : curve.points) sxy += (p.log_length - mx) * (p.log_error - my), sxx += (p.log_length - mx) * (p.log_length - mx);
    curve.slope = sxy / sxx;
  }
  return curve;
}

bool is_two_layer_softmax(const Case& c) {
  return !c.is_pair && c.model().semantics.kind == Semantics::Kind::Softmax && c.model().layers.size() == 2;
}

SubsampleParams subsample_params(const Case& c) {
  SubsampleParams p;
  p.constant = c.check_rational("subsample_constant", p.constant);
  p.seed = c.check_count("seed", p.seed);
  p.max_length = c.check_count("subsample_length", p.max_length);
  return p;
}

ClaimResult check_subsample(const Case& c, const SubsampleParams& params) {
  ClaimResult r;
  r.id = kSubsampleId;
  r.case_name = c.name;
  const Model& m = c.model();
  const std::size_t S = m.alphabet_size(), tau = m.locality;
  SoftmaxFirstLayer layer(m);
  r.evidence = {{"c", to_string(params.constant)}, {"rate", to_string(params.rate)}};
  std::mt19937_64 rng(params.seed);
  std::vector<Test> tests;
  const std::uint64_t T1 = std::min<std::uint64_t>(10000, params.max_length);
  Tokens uniform = random_string(S, T1, rng), periodic = noisy_periodic_input(S, T1, rng);
  for (std::uint64_t n : {100u, 1000u}) {
    if (n >= T1) continue;  // z would be x itself (or n > |x|, which the subsampler refuses)
    tests.push_back({"uniform", uniform, n});
    tests.push_back({"periodic", periodic, n});
  }
  if (params.max_length >= 100000) tests.push_back({"periodic", noisy_periodic_input(S, 100000, rng), 10000});
  else tests.push_back({"periodic", noisy_periodic_input(S, T1, rng), T1 / 10});
  nlohmann::json rows = nlohmann::json::array();
  Rational G_max = 0, L_max = 0, slack = 0, lipschitz_ratio = 0, range_ratio = 0;
  std::uint64_t informative = 0;  // drift-form premises below the a-priori range
  bool bound_above_range = true;  // every bound >= 2G, the a-priori range of the statistic error
  std::optional<StatisticAverages> last_stats;
  for (const Test& t : tests) {
    // The integrands of this x (its query fixes them), their G and L.
    last_stats.emplace(layer, t.x);
    const StatisticAverages& stats = *last_stats;
    const IntegrandBounds& b = stats.bounds();
    G_max = std::max(G_max, b.G);
    L_max = std::max(L_max, b.L);
    std::optional<std::uint64_t> found;
    Number last_error;
    std::uint64_t length_z = 0;
    std::vector<std::uint64_t> kept;
    for (std::uint64_t s = 1; s <= params.seeds && !found; ++s) {
      charge_enumeration(t.x.size());  // one subsample of x: |x| items of --budget
      kept = markov_subsample(t.x.size(), t.n, tau, s, m.period);
      Tokens z = restrict_to(t.x, kept);
      Number e = stats.error(z);
      Interval bound = rate_bound(params, b, tau, z.size());
      last_error = e;
      length_z = z.size();
      if (upper_of(e) <= bound.lower()) found = s;
    }
    Interval bound = rate_bound(params, b, tau, length_z);
    if (found && bound.lower() > 0) slack = std::max(slack, Rational(upper_of(last_error) / bound.lower()));
    bound_above_range = bound_above_range && bound.lower() >= 2 * b.G;
    // x and the last z tried (the seed's, when one was found), for the kernel to recompute G, L and the error.
    rows.push_back({{"input", t.kind}, {"T", t.x.size()}, {"x", format_input(m, t.x)},
                    {"z", format_input(m, restrict_to(t.x, kept))}, {"n", t.n}, {"length_z", length_z},
                    {"G", to_decimal(b.G, 8)}, {"L", to_decimal(b.L, 8)},
                    {"seed", found ? nlohmann::json(*found) : nlohmann::json(nullptr)},
                    {"error", show(last_error, 6)}, {"bound", bound.upper_decimal(6)}});
    if (!found) {
      r.evidence["tests"] = rows;
      // Lemma 5.3 says some z exists: seeds that miss the bound do not refute it (docs/theory.md).
      r.verdict = Verdict::Undecided;
      r.detail = fmt::format("{} input (T = {}, n = {}): no seed among 1..{} gives a statistic error within "
                             "c (G+L)(tau+1) n^-{} = {}; the last, |z| = {}, gives {} (the lemma asserts that some "
                             "z exists: seeds that miss do not refute it)",
                             t.kind, t.x.size(), t.n, params.seeds, to_string(params.rate), bound.to_string(6), length_z,
                             show(last_error, 6));
      return r;
    }
    // The drift form at the recorded seed's z (docs/theory.md, "The drift form"), at its kept positions.
    rows.back()["kept"] = kept;
    const DriftForm d = drift_form(stats, t.x, kept, params.drift_G_scale * b.G, params.drift_L_scale * b.L);
    rows.back()["drift"] = d.drift.upper_decimal(6);
    rows.back()["broken_windows"] = d.broken;
    rows.back()["drift_form_bound"] = d.bound.upper_decimal(6);
    rows.back()["lipschitz_ratio"] = to_decimal(d.lipschitz_ratio, 4);
    rows.back()["range_ratio"] = to_decimal(d.range_ratio, 4);
    lipschitz_ratio = std::max(lipschitz_ratio, d.lipschitz_ratio);
    range_ratio = std::max(range_ratio, d.range_ratio);
    informative += d.informative;
    if (d.premises_fail || d.fails || !d.holds) {
      r.evidence["tests"] = rows;
      r.verdict = d.premises_fail || d.fails ? Verdict::Refuted : Verdict::Undecided;
      r.detail = d.premises_fail
                     ? fmt::format("{} input (T = {}, n = {}), seed {}: a kept position's integrand moves by more "
                                   "than its drift-form premise: |p(z_j) - p(x_i_j)| > L |mu_j(z) - mu_i_j(x)|_1 "
                                   "(ratio {} of L = {}) or > 2G (ratio {} of G = {})",
                                   t.kind, t.x.size(), t.n, *found, to_decimal(d.lipschitz_ratio, 4),
                                   to_decimal(params.drift_L_scale * b.L, 6), to_decimal(d.range_ratio, 4),
                                   to_decimal(params.drift_G_scale * b.G, 6))
                     : fmt::format("{} input (T = {}, n = {}), seed {}: at the integrand k that comes closest, "
                                   "E_k = {} {} the drift form S_k + 2G beta + L D = {} (beta = {}/{}, D = {}; "
                                   "the statistic error, the largest E_k, is {})",
                                   t.kind, t.x.size(), t.n, *found, d.closest_error.to_string(6),
                                   d.fails ? ">" : "not certainly <=", d.bound.to_string(6), d.broken, d.positions,
                                   d.drift.upper_decimal(6), show(d.error, 6));
      return r;
    }
  }
  r.evidence["tests"] = rows;
  const std::string slope = fitted_slope(*last_stats, tests.back().x, m);
  r.evidence["fitted_slope"] = slope;
  r.scope.samples = tests.size();
  r.scope.seed = params.seed;
  r.scope.caps.push_back({"subsampler seeds tried per (x, n)", params.seeds, false});
  r.scope.decided_by = "certified statistic error of the recorded seed's z against c (G+L)(tau+1) n^-rate, and "
                       "the drift form S + 2G beta + L D with its premise at every kept position";
  r.scope.slack = fmt::format("{} (largest error / rate bound at the seed found); {} (drift form: largest change at a "
                              "kept position / its premise L |mu_j(z) - mu_i_j(x)|_1); {} (drift form: the same / 2G)",
                              to_decimal(slack, 4), to_decimal(lipschitz_ratio, 4), to_decimal(range_ratio, 4));
  if (bound_above_range && informative == 0)
    r.scope.vacuous = "every rate bound is at least 2G, the a-priori range of the statistic error (|p| <= G), and "
                      "every drift-form premise is at least 2G: no z could fail";
  r.verdict = holding_verdict(r.scope);
  r.detail = fmt::format("on {} (x, n) pairs a seed gives statistic error <= c (G+L)(tau+1) n^-{} (c = {}, G <= {}, "
                         "L <= {}){}, and the drift form holds position by position ({} premises below 2G); "
                         "measured log-log slope {} on the long periodic input (reported, against -1/3)",
                         tests.size(), to_string(params.rate), to_string(params.constant), to_decimal(G_max, 6),
                         to_decimal(L_max, 6), bound_above_range ? " (every rate bound >= 2G: that part could not fail)" : "",
                         informative, slope);
  return r;
}


// The claim and the mutations that must break it (claims/claim.hpp).
namespace {

constexpr const char* kRegimeToken = "section5/regime_token.json";
constexpr const char* kInduction = "paper/induction/induction_head_k1.json";

constexpr ParamsMutation<SubsampleParams> subsample_mutation{kSubsampleId, subsample_params, check_subsample};

}  // namespace

ClaimDeclaration subsample_declaration() {
  const auto check = [](const Case& c) { return check_subsample(c, subsample_params(c)); };
  const std::string shows = "moves by more than its drift-form premise";
  return {{kSubsampleId,
           "two-layer softmax models: the Markov subsampler's z keeps every second-layer integrand's average within "
           "c (G+L)(tau+1) n^(-1/3), the seed as certificate",
           "softmax", "docs/theory.md#the-subsampler-lemma-53-paper-p14-statement-toolkit-chain-and-check",
           is_two_layer_softmax, named(check), rerun(check)},
          {subsample_mutation({"drift term dropped", "the drift form without its L |mu_j(z) - mu_i_j(x)|_1 term (the "
                               "histogram drift charged nothing)", shows, kRegimeToken},
                              [](SubsampleParams& p) { p.drift_L_scale = 0; }),
           subsample_mutation({"G/4 in the drift form", "the integrand bound G divided by 4 in the drift form (a window "
                               "broken at a block boundary charged 2G/4)", shows, kInduction},
                              [](SubsampleParams& p) { p.drift_G_scale = Rational(1, 4); })}};
}

}  // namespace lgc
