// T4.2.avg: Theorem 4.2's implication on a pair under a Dirichlet prior,
// with exact expectations (docs/theory.md#theorem-42-average-case).
#include "claims/agreement.hpp"
#include "claims/declarations.hpp"
#include "claims/case_models.hpp"
#include "lgcheck/bounds/theorem42.hpp"
#include "lgcheck/enumerate/parallel.hpp"
#include "lgcheck/enumerate/strings.hpp"
#include "claims/average/theorem42.hpp"

#include "lgcheck/report/readable.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <mutex>

namespace lgc {
namespace {

/// E_t, computed once per length.
class ExpectationSweep {
 public:
  ExpectationSweep(const Case& c, const DirichletPrior& prior, bool multiplicities)
      : models_(section4_models(c)), prior_(prior), moments_(prior) {
    options_.multiplicities = multiplicities;
  }
  const Expectation& at(std::uint64_t t) {
    auto it = cache_.find(t);
    if (it == cache_.end()) it = cache_.emplace(t, expected_distance(f(), g(), moments_, t, options_)).first;
    return it->second;
  }
  /// Computes the lengths not yet known over the threads (length k of the
  /// list on thread k mod n, each thread with its own moment tables): every
  /// E_t is computed exactly as at() would, so the results do not depend on
  /// the thread count.
  void prefetch(const std::vector<std::uint64_t>& lengths) {
    std::vector<std::uint64_t> missing;
    for (std::uint64_t t : lengths)
      if (!cache_.count(t)) missing.push_back(t);
    const unsigned threads = static_cast<unsigned>(std::min<std::size_t>(enumeration_threads(), missing.size()));
    if (threads <= 1) return;  // at() computes them one by one
    std::mutex mutex;
    run_shards(threads, [&](const Shard& shard) {
      DirichletMoments moments(prior_);
      for (std::size_t k = shard.index; k < missing.size(); k += shard.count) {
        Expectation e = expected_distance(f(), g(), moments, missing[k], options_);
        std::lock_guard<std::mutex> lock(mutex);
        cache_.emplace(missing[k], std::move(e));
      }
    });
  }
  const OneLayerEvaluator& f() const { return *models_.models[0]; }
  const OneLayerEvaluator& g() const { return *models_.models[1]; }

 private:
  CaseModels models_;
  DirichletPrior prior_;
  DirichletMoments moments_;
  ExpectationOptions options_;
  std::map<std::uint64_t, Expectation> cache_;
};

ClaimResult refuted(ClaimResult r, std::string detail) {
  r.verdict = Verdict::Refuted;
  r.detail = std::move(detail);
  return r;
}

ClaimResult undecided(ClaimResult r, std::string detail) {
  r.verdict = Verdict::Undecided;
  r.detail = std::move(detail);
  return r;
}

/// A length whose weights do not sum to 1 or whose expectation differs from
/// brute force over every string: the computation itself is refuted.
std::optional<std::string> cross_check(ExpectationSweep& sweep, const DirichletPrior& prior, std::uint64_t t,
                                       bool brute_force) {
  const Expectation& e = sweep.at(t);
  if (e.mass != 1)
    return fmt::format("the weights of length {} sum to {}, not 1", t, to_decimal(e.mass, 12));
  if (!brute_force) return std::nullopt;
  Number exact = expected_distance_by_strings(sweep.f().model(), sweep.g().model(), prior, t);
  bool differ = exact.is_exact() && e.value.is_exact() ? exact.exact() != e.value.exact()
                                                        : certainly_different(exact.enclosure(), e.value.enclosure());
  if (differ)
    return fmt::format("at length {} the statistic sum gives E = {} but every string gives {}", t, show_short(e.value),
                       show_short(exact));
  return std::nullopt;
}

/// Sign of E² − C²ε (E >= 0): the conclusion E <= C·ε^{1/2} holds when < 0 or = 0.
std::optional<int> conclusion_sign(const Number& e, const Rational& squared_bound) {
  if (e.is_exact()) {
    Rational sq = e.exact() * e.exact();
    return sq < squared_bound ? -1 : (sq > squared_bound ? 1 : 0);
  }
  Rational lo = std::max(Rational(0), lower_of(e)), hi = upper_of(e);
  if (hi * hi <= squared_bound) return -1;
  if (lo * lo > squared_bound) return 1;
  return std::nullopt;
}

/// The lengths at which the conclusion is decided: every T in [N0, N0·2^d]
/// when the terms that takes (estimated from those of the two ends, which
/// grow with T) fit the budget, else the doublings N0·2^j.
struct ConclusionLengths {
  std::vector<std::uint64_t> lengths;
  bool every = false;
  std::uint64_t estimated_terms = 0;
};

ConclusionLengths conclusion_lengths(ExpectationSweep& sweep, std::uint64_t n0, const AverageParams& params) {
  const std::uint64_t top = n0 << params.doublings;
  sweep.prefetch({n0, top});
  ConclusionLengths out;
  const std::uint64_t span = top - n0 + 1, ends = sweep.at(n0).terms + sweep.at(top).terms;
  out.estimated_terms = ends > UINT64_MAX / span ? UINT64_MAX : span * ends / 2;
  out.every = out.estimated_terms <= params.term_budget;
  if (out.every)
    for (std::uint64_t T = n0; T <= top; ++T) out.lengths.push_back(T);
  else
    for (unsigned j = 0; j <= params.doublings; ++j) out.lengths.push_back(n0 << j);
  return out;
}

}  // namespace

std::optional<DirichletPrior> case_prior(const Case& c) {
  if (!c.check.contains("dirichlet_alpha")) return std::nullopt;
  DirichletPrior p;
  const auto& a = c.check["dirichlet_alpha"];
  for (std::size_t k = 0; k < a.size(); ++k)
    p.alpha.push_back(json_rational(a[k], c.file, "check.dirichlet_alpha[" + std::to_string(k) + "]"));
  return p;
}

bool is_hardmax_pair(const Case& c) {
  if (!c.is_pair || !is_section4_case(c)) return false;
  for (const Model& m : c.models)
    if (m.semantics.kind != Semantics::Kind::Hardmax) return false;
  return true;
}

bool is_average_case(const Case& c) { return is_hardmax_pair(c) && case_prior(c) && !c.check.contains("switch_length"); }

AverageParams average_params(const Case& c) {
  AverageParams p;
  p.epsilon = c.check_rational("epsilon", p.epsilon);
  p.c = c.check_rational("N0_constant", p.c);
  p.log_power = static_cast<unsigned>(c.check_count("N0_log_power", p.log_power));
  p.conclusion_constant = c.check_rational("conclusion_constant", p.conclusion_constant);
  p.doublings = static_cast<unsigned>(c.check_count("doublings", p.doublings));
  p.budget = c.check_count("average_budget", p.budget);
  p.term_budget = c.check_count("conclusion_term_budget", p.term_budget);
  return p;
}

ClaimResult check_average(const Case& c, const AverageParams& params) {
  ClaimResult r;
  r.id = kAverageId;
  r.case_name = c.name;
  const DirichletPrior prior = *case_prior(c);
  if (params.epsilon > 1) return undecided(r, "Theorem 4.2 is stated for eps <= 1");
  const Rational a = params.bound_with_alpha_max ? alpha_max(prior) : alpha_min(prior);
  const Theorem42Bounds b = theorem42_bounds(params.epsilon, a, params.c, params.log_power);
  const Integer top = b.N0 << params.doublings;
  r.evidence = {{"alpha", describe(prior)},       {"alpha_min", to_string(b.alpha_min)},
                {"epsilon", to_string(b.epsilon)}, {"c", to_string(b.c)},
                {"log_power", b.log_power},        {"N0", to_string(b.N0)},
                {"C", to_string(params.conclusion_constant)}};
  if (top > params.budget)
    return undecided(r, fmt::format("N0 = {} needs lengths up to {}, beyond the budget {} (check.average_budget)",
                                    to_string(b.N0), to_string(top), params.budget));
  const std::uint64_t n0 = b.N0.convert_to<std::uint64_t>();
  ExpectationSweep sweep(c, prior, params.multiplicities);

  // The computation is checked against brute force where strings can be listed.
  const std::size_t S = sweep.f().shape().alphabet_size;
  for (std::uint64_t t = 1; t <= params.brute_force_length; ++t)
    if (auto bad = cross_check(sweep, prior, t, string_count(S, t) <= 65536)) return refuted(r, *bad);

  // Premise: E_t <= eps for every t <= N0.
  std::vector<std::uint64_t> premise_lengths;
  for (std::uint64_t t = 1; t <= n0; ++t) premise_lengths.push_back(t);
  sweep.prefetch(premise_lengths);
  Number worst(0);
  std::uint64_t worst_at = 1;
  bool undecided_premise = false;
  // E_1..E_min(last, 16), exact where they are: the replay kernel re-derives the ones strings reach.
  auto premise_values = [&](std::uint64_t last) {
    nlohmann::json v = nlohmann::json::array();
    for (std::uint64_t t = 1; t <= std::min<std::uint64_t>(last, 16); ++t) v.push_back(show(sweep.at(t).value));
    return v;
  };
  for (std::uint64_t t = 1; t <= n0; ++t) {
    if (auto bad = cross_check(sweep, prior, t, false)) return refuted(r, *bad);
    const Number& e = sweep.at(t).value;
    if (upper_of(e) > upper_of(worst)) worst = e, worst_at = t;
    std::optional<int> above = compare(e, Number(params.epsilon));
    if (above && *above > 0) {
      r.scope.domain = fmt::format("E_t exactly for t = 1..{}", t);
      r.scope.exhaustive = t;
      r.scope.decided_by = "the premise, exactly";
      r.scope.vacuous = fmt::format("the premise fails: E_{} > eps, so the implication holds without its conclusion", t);
      r.verdict = holding_verdict(r.scope);
      r.evidence["premise"] = {{"holds", false}, {"length", t}, {"E", show(e)}, {"values", premise_values(t)}};
      r.detail = fmt::format("vacuous: the premise fails, E_{} = {} > eps = {} with N0 = {} (alpha_min = {})", t,
                             show_short(e), to_string(params.epsilon), to_string(b.N0), to_string(a));
      return r;
    }
    undecided_premise = undecided_premise || !above;
  }
  if (undecided_premise) return undecided(r, "some E_t with t <= N0 is not separated from eps at the working precision");
  r.evidence["premise"] = {{"holds", true}, {"max_E", show(worst)}, {"at", worst_at}, {"values", premise_values(n0)}};

  // Conclusion: E_T <= C·eps^{1/2} at every T in [N0, N0·2^d], or at T = N0·2^j.
  const ConclusionLengths lengths = conclusion_lengths(sweep, n0, params);
  const Rational squared_bound = params.conclusion_constant * params.conclusion_constant * params.epsilon;
  Rational needed_sq = 0;  // (max E_T)² / eps, an upper bound when E_T is an enclosure
  nlohmann::json rows = nlohmann::json::array();
  sweep.prefetch(lengths.lengths);
  for (const std::uint64_t T : lengths.lengths) {
    if (auto bad = cross_check(sweep, prior, T, false)) return refuted(r, *bad);
    const Number& e = sweep.at(T).value;
    if (!lengths.every || T == n0 || T == lengths.lengths.back())
      rows.push_back({{"length", T}, {"E", show(e)}, {"E_decimal", decimal(e)}});
    needed_sq = std::max(needed_sq, upper_of(e) * upper_of(e) / params.epsilon);
    std::optional<int> sign = conclusion_sign(e, squared_bound);
    if (!sign) return undecided(r, fmt::format("E_{} = {} not separated from C eps^(1/2)", T, show_short(e)));
    if (*sign > 0) {
      r.evidence["conclusion"] = rows;
      return refuted(r, fmt::format("premise holds (max E_t = {} <= eps = {} for t <= N0 = {}) but E_{} = {} > C eps^(1/2) "
                                    "= {}·{}^(1/2)",
                                    show_short(worst), to_string(params.epsilon), to_string(b.N0), T, show_short(e),
                                    to_string(params.conclusion_constant), to_string(params.epsilon)));
    }
  }
  const std::string needed = sqrt(Interval(needed_sq, 128)).upper_decimal(6);
  const std::uint64_t last = lengths.lengths.back();
  r.evidence["conclusion"] = rows;
  r.evidence["conclusion_lengths"] = lengths.every ? "every" : "doubling";
  r.evidence["C_needed"] = needed;
  r.scope.domain = fmt::format("E_t exactly for t = 1..{} (premise) and E_T at {} (conclusion)", n0,
                               lengths.every ? fmt::format("every T in [{}, {}]", n0, last)
                                             : fmt::format("T = N0 * 2^j, j = 0..{}", params.doublings));
  r.scope.exhaustive = n0 + lengths.lengths.size();
  // The theorem concludes for every T >= N0; lengths beyond N0·2^d are not computed.
  r.scope.caps.push_back({"conclusion lengths: T <= N0 * 2^doublings (the theorem states every T >= N0)",
                          n0 << params.doublings, true});
  if (!lengths.every)
    r.scope.caps.push_back({fmt::format("conclusion lengths: T = N0 * 2^j only; every T in [{}, {}] would sum about {} "
                                        "terms, beyond check.conclusion_term_budget",
                                        n0, n0 << params.doublings, lengths.estimated_terms),
                            params.term_budget, true});
  r.scope.decided_by = "exact expectations E_T = E|f - g| over the Dirichlet-multinomial law";
  if (params.conclusion_constant > 0)
    r.scope.slack = fmt::format("{} (the C the instance needs / C)",
                                (sqrt(Interval(needed_sq, 128)) / Interval(params.conclusion_constant, 128)).upper_decimal(4));
  r.verdict = holding_verdict(r.scope);
  r.detail = fmt::format("max E_t over t <= N0 = {} is {} <= eps = {}; E_T <= {}·eps^(1/2) at {} T = {}..{}; "
                         "the instance needs C >= {}",
                         to_string(b.N0), show_short(worst), to_string(params.epsilon), to_string(params.conclusion_constant),
                         lengths.every ? "every" : "the doublings", n0, last, needed);
  return r;
}


// The claim and the mutations that must break it (claims/claim.hpp).
namespace {

constexpr const char* kPresenceSkewed = "average/presence_skewed.json";
constexpr const char* kPresenceBinding = "average/presence_binding.json";
constexpr const char* kAbsence = "average/absence_uniform.json";

constexpr ParamsMutation<AverageParams> average_mutation{kAverageId, average_params, check_average};

}  // namespace

ClaimDeclaration average_declaration() {
  const auto check = [](const Case& c) { return check_average(c, average_params(c)); };
  const std::string shows = "> C eps^(1/2)";
  return {{kAverageId,
           "pairs under a Dirichlet prior: E_t <= eps for all t <= N0 = c eps^(-2-2/alpha_min) (1 + ln 1/eps)^k "
           "implies E_T <= C eps^(1/2) at T = N0, 2 N0, 4 N0, ...",
           "hardmax", "docs/theory.md#theorem-42-average-case-paper-p7-statement-toolkit-computation", is_average_case,
           named(check), rerun(check)},
          {average_mutation({"no multiplicities", "each statistic weighted as one string (multinomial factors dropped, "
                             "weights renormalised to sum to 1; no brute-force cross-check)", shows, kAbsence},
                            [](AverageParams& p) {
                              p.multiplicities = false;
                              p.brute_force_length = 0;
                            }),
           average_mutation({"N0 from alpha_max", "N0 = c eps^(-2-2/alpha_max): the prior's largest entry in the "
                             "exponent", shows, kPresenceSkewed},
                            [](AverageParams& p) { p.bound_with_alpha_max = true; }),
           average_mutation({"C halved", "the conclusion's constant C of E_T <= C eps^(1/2) halved on a pair where the "
                             "implication nearly binds", shows, kPresenceBinding},
                            [](AverageParams& p) { p.conclusion_constant /= 2; })}};
}

}  // namespace lgc
