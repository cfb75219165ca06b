// T4.1.threshold: finite:p equals hardmax at every query position T >= 2^{p/γ}
// (checked from statistics, exhaustively near the threshold and at random
// lengths far beyond it), and a certified witness at T = t − 1 where they
// differ, whenever the search finds the gap realised. Under finite-weights:p
// the claim is agreement on the window t <= T <= 2^p − 1 (beyond it a top
// key's weight 1/Σu can round too), and a difference just past the window is
// reported when the search finds one.
#include "claims/section4/theorem41.hpp"
#include "claims/declarations.hpp"

#include "claims/agreement.hpp"

#include "lgcheck/enumerate/ordered_search.hpp"
#include "lgcheck/enumerate/strings.hpp"
#include "lgcheck/enumerate/visit_digest.hpp"
#include "lgcheck/quantities/logit_margin.hpp"
#include "lgcheck/semantics/finite_precision.hpp"
#include "lgcheck/simulate/simulation_error.hpp"

#include <fmt/format.h>

namespace lgc {
namespace {

/// A statistic where finite:p and hardmax differ: the detail text, the
/// certificate witness, and where it is (for the evidence).
struct Finding {
  std::string text;
  nlohmann::json witness;
  std::string where;
};

nlohmann::json finding_witness(std::size_t model, unsigned p, const Statistic& s) {
  return {{"kind", "finite_differs"}, {"model", model}, {"p", p}, {"statistic", statistic_to_json(s)},
          {"expect", "differs"}};
}

}  // namespace

ThresholdParams threshold_params(const Case& c) {
  ThresholdParams p;
  p.p = rounding_bits(c, p.p);
  p.seed = c.check_count("seed", p.seed);
  p.require_sharp = c.check_flag("threshold_sharp", p.require_sharp);
  p.exhaustive_span = c.check_count("exhaustive_span", p.exhaustive_span);
  p.normalised_weights = c.model().semantics.kind == Semantics::Kind::FiniteWeights;
  return p;
}

namespace {

/// Certificates record lengths up to 10^12 (the kernel refuses larger integers): no past-window witness beyond it.
constexpr std::uint64_t kLongestRecordedLength = 1000000000000;

/// The window's last length under finite-weights:p: 2^p − 1 (the claim's), or the mutation's.
Integer window_end(const ThresholdParams& params) {
  return params.window_end ? params.window_end(params.p) : (Integer(1) << params.p) - 1;
}

/// finite-weights:p with t beyond the window's end (γ <= 1 makes t >= 2^p): nothing to compare.
ClaimResult empty_window(const Case& c, const ThresholdParams& params, const std::optional<Rational>& gamma,
                         const Integer& t, const Integer& end) {
  ClaimResult r;
  r.id = kThresholdId;
  r.case_name = c.name;
  r.evidence = {{"p", params.p}, {"gamma", gamma ? to_string(*gamma) : "inf"}, {"threshold", t.str()},
                {"compared", 0}, {"exhaustive_lengths", 0}, {"seed", params.seed},
                {"semantics", Semantics::finite_weights(params.p).str()}, {"window_end", end.str()},
                {"witnesses", nlohmann::json::array()}};
  r.scope.decided_by = "the window's bounds: t > 2^p - 1";
  r.scope.vacuous = fmt::format("the window t = {} <= T <= {} is empty (t = ceil(2^(p/gamma)) > 2^p - 1, as whenever "
                                "gamma <= 1): no length is known to have every sub-maximal weight rounded and every "
                                "top weight kept",
                                t.str(), end.str());
  r.verdict = holding_verdict(r.scope);
  r.detail = fmt::format("finite-weights:{}: the window [t, 2^p - 1] = [{}, {}] is empty, nothing to compare", params.p,
                         t.str(), end.str());
  return r;
}

/// A statistic of length T where the rounding semantics and hardmax differ: the first in enumeration order when the
/// length is within the statistic budget (`exhaustive`), else the first of `witness_tries` random ones.
struct LengthSearch {
  std::optional<Finding> found;
  bool exhaustive = false;
};

template <class Look>
LengthSearch first_difference_at(const Shape& shape, std::uint64_t T, const ThresholdParams& params, const Look& look,
                                 std::mt19937_64& rng) {
  LengthSearch out;
  out.exhaustive = statistic_count(shape, T) <= params.statistic_budget;
  if (out.exhaustive) {
    OrdinalLog<Finding> seen;
    const auto first = first_statistic_where(shape, T, 0, [&](const Statistic& s, std::uint64_t ordinal) {
      std::optional<Finding> f = look(s);
      if (f) seen.add(ordinal, std::move(*f));
      return f.has_value();
    });
    if (first) out.found = seen.at(*first);
  }
  for (std::size_t k = 0; k < params.witness_tries && !out.found && !out.exhaustive; ++k)
    out.found = look(random_statistic(shape, T, rng));
  return out;
}

/// finite-weights:p just past the window (T = end + 1): the first statistic where the representation differs from
/// hardmax (first_difference_at), recorded as a witness; the detail's closing clause.
template <class Look>
std::string past_window(const Shape& shape, std::uint64_t T, const ThresholdParams& params, const Look& look,
                        std::mt19937_64& rng, nlohmann::json& evidence, nlohmann::json& witnesses) {
  const auto [found, exhaustive] = first_difference_at(shape, T, params, look, rng);
  if (!found)
    return fmt::format("past the window, at T = {}, no difference {} (not part of the claim)", T,
                       exhaustive ? "on any statistic" : fmt::format("among {} random statistics", params.witness_tries));
  evidence["past_window"] = {{"length", T}, {"statistic", found->where}};
  witnesses.push_back(found->witness);
  return fmt::format("past the window, at T = {}: {} ({}; the reading's counterexample to agreement at every T >= t, "
                     "not part of the claim)",
                     T, found->text, exhaustive ? "first in enumeration order" : "found by random search");
}

}  // namespace

std::optional<ClaimResult> threshold_beyond_statistics(const std::string& claim_id, const Case& c, const Integer& t) {
  if (t <= Integer(kLongestStatistic)) return std::nullopt;
  ClaimResult r;
  r.id = claim_id;
  r.case_name = c.name;
  r.verdict = Verdict::Undecided;
  r.evidence = {{"threshold", t.str()}};
  r.detail = fmt::format("the threshold ceil(2^(p/gamma)) = {} ({} digits) is beyond the longest statistic the checker "
                         "represents (2^62 positions): nothing at or above it can be evaluated",
                         t.str().size() > 30 ? t.str().substr(0, 6) + "..." : t.str(), t.str().size());
  return r;
}

ClaimResult check_threshold(const Case& c, const ThresholdParams& params) {
  CaseModels cm = one_layer_models(c);
  const Semantics rounding = params.normalised_weights ? Semantics::finite_weights(params.p) : Semantics::finite(params.p);
  const std::string sem = rounding.str();
  ClaimResult result;
  result.id = kThresholdId;
  result.case_name = c.name;
  std::optional<Rational> gamma;
  for (const auto* m : cm.models) {
    LogitMargin lm = logit_margin(m->model());
    if (lm.gamma && (!gamma || *lm.gamma < *gamma)) gamma = lm.gamma;
  }
  auto rule = params.threshold ? params.threshold : hardmax_threshold;
  Integer t = gamma ? rule(params.p, *gamma) : Integer(1);
  if (t < 1) t = 1;
  // finite-weights:p: the claim covers t <= T <= end only (2^p − 1 unless a mutation moves it).
  const std::optional<Integer> end = params.normalised_weights ? std::optional<Integer>(window_end(params)) : std::nullopt;
  if (end && *end < t) return empty_window(c, params, gamma, t, *end);
  if (auto beyond = threshold_beyond_statistics(kThresholdId, c, t)) return *beyond;
  const std::uint64_t t64 = static_cast<std::uint64_t>(t);
  const std::uint64_t last = !end ? kLongestStatistic : static_cast<std::uint64_t>(std::min(*end, Integer(kLongestStatistic)));
  const Shape shape = cm.models.front()->shape();
  std::uint64_t compared = 0, undecided = 0;
  std::optional<std::string> counterexample;
  nlohmann::json witnesses = nlohmann::json::array();

  // One statistic against every model (thread-safe: the evaluators are const).
  struct Comparison {
    std::uint64_t unknown = 0;
    std::optional<Finding> differs;  // the first model where finite:p != hardmax
  };
  auto compare_models = [&](const Statistic& s) {
    Comparison out;
    for (std::size_t mi = 0; mi < cm.models.size(); ++mi) {
      const OneLayerEvaluator* m = cm.models[mi];
      // Compared before the readout: a sin readout would blur exact equality.
      QVector exact = m->representation(s);
      Vector<Number> hard(exact.begin(), exact.end()), fin = m->representation_rounded(s, rounding);
      Agreement d = agreement(hard, fin);
      if (d == Agreement::Unknown) ++out.unknown;
      if (d == Agreement::Different && !out.differs) {
        const std::string where = describe(shape, s, m->model());
        out.differs = Finding{fmt::format("at {}: {} gives {}, hardmax gives {}", where, sem, show(fin), show(hard)),
                              finding_witness(mi, params.p, s), where};
      }
    }
    return out;
  };
  auto record = [&](const Comparison& k) {
    compared += cm.models.size();
    undecided += k.unknown;
    if (k.differs && !counterexample) {
      counterexample = k.differs->text;
      witnesses.push_back(k.differs->witness);
    }
  };
  // Exhaustive near the threshold, where the rounding is closest to the edge;
  // split over the threads, the same result for any count (first_statistic_where).
  std::uint64_t exhaustive_lengths = 0;
  VisitDigest visited;  // every statistic compared at the exhaustive lengths
  const std::uint64_t exhaustive_last = std::min(t64 + params.exhaustive_span, last);
  for (std::uint64_t T = t64; T <= exhaustive_last && !counterexample; ++T) {
    const std::uint64_t count = statistic_count(shape, T);
    if (count > params.statistic_budget) continue;
    OrdinalLog<Comparison> seen;
    const auto first = first_statistic_where(shape, T, 0, [&](const Statistic& s, std::uint64_t ordinal) {
      Comparison k = compare_models(s);
      visited.add(s);
      const bool stop = k.differs.has_value();
      if (stop || k.unknown) seen.add(ordinal, std::move(k));
      return stop;
    });
    const std::uint64_t upto = first ? *first : count - 1;
    compared += (upto + 1) * cm.models.size();
    for (const auto& [ordinal, k] : seen.up_to(upto)) {
      undecided += k.unknown;
      if (k.differs && ordinal == upto) {
        counterexample = k.differs->text;
        witnesses.push_back(k.differs->witness);
      }
    }
    ++exhaustive_lengths;
  }
  // Random lengths: half just above the threshold (t..2t, where a wrong
  // threshold shows), half log-uniform up to far beyond it.
  // A window covered length by length needs no random draws.
  const bool window_exhausted = end && exhaustive_lengths == last - t64 + 1;
  const std::size_t random_inputs = window_exhausted ? 0 : params.random_inputs;
  std::mt19937_64 rng(params.seed);
  const std::uint64_t far = std::min(std::max<std::uint64_t>(1000000, 4 * t64), last);
  for (std::size_t k = 0; k < random_inputs && !counterexample; ++k) {
    std::uint64_t length =
        k % 2 == 0 ? uniform_integer(t64, std::min(2 * t64, last), rng) : log_uniform_integer(t64, far, rng);
    record(compare_models(random_statistic(shape, length, rng)));
  }

  std::string gamma_text = gamma ? to_string(*gamma) : "inf";
  result.evidence = {{"p", params.p}, {"gamma", gamma_text}, {"threshold", t.str()}, {"compared", compared},
                     {"exhaustive_lengths", exhaustive_lengths}, {"seed", params.seed}};
  if (end) {
    result.evidence["semantics"] = sem;
    result.evidence["window_end"] = end->str();
  }
  if (counterexample) {
    result.evidence["witnesses"] = witnesses;
    result.verdict = Verdict::Refuted;
    result.detail = end ? fmt::format("{} != hardmax at T in [{}, {}] (claimed window): {}", sem, t.str(), end->str(),
                                      *counterexample)
                        : fmt::format("{} != hardmax at T >= {} (claimed threshold): {}", sem, t.str(), *counterexample);
    return result;
  }
  if (undecided > 0) {
    result.verdict = Verdict::Undecided;
    result.detail = fmt::format("{} of {} comparisons undecided at the default precision", undecided, compared);
    return result;
  }
  // Tightness: at T = t − 1 a gap-γ key still survives, so finite:p must
  // differ from hardmax there (the rule that found t is ceil(2^(p/gamma))).
  Scope& scope = result.scope;
  result.evidence["visited"] = visited.to_json();
  scope.domain = fmt::format("every statistic of each length T in [{}, {}] with at most {} statistics", t.str(),
                             exhaustive_last, params.statistic_budget);
  scope.exhaustive = (compared - random_inputs * cm.models.size()) / cm.models.size();  // statistics
  scope.samples = random_inputs;
  scope.seed = params.seed;
  scope.caps.push_back({"statistics per exhaustive length", params.statistic_budget,
                        exhaustive_lengths < exhaustive_last - t64 + 1});
  // The first model whose representation differs under the rounding semantics: the same comparison as above the
  // threshold (and as the certificate's witness).
  auto look = [&](const Statistic& s) { return compare_models(s).differs; };
  // finite-weights:p just past the window: a witness where the reading leaves hardmax (outside the claim).
  auto past = [&] {
    if (*end >= Integer(kLongestRecordedLength))
      return std::string("past the window, T = 2^p is beyond the longest length a certificate records (10^12)");
    return past_window(shape, last + 1, params, look, rng, result.evidence, witnesses);
  };
  if (!gamma) {
    scope.vacuous = end ? "gamma = inf: no key is below the top, and in the window T <= 2^p - 1 no top weight 1/T "
                          "reaches 2^-p, so nothing rounds there"
                        : "gamma = inf: every attainable-logit set has one value, so no attention weight is ever rounded";
    const std::string after = end ? "; " + past() : "";
    result.evidence["witnesses"] = witnesses;
    result.verdict = holding_verdict(scope);
    result.detail = fmt::format("{} = hardmax on {} statistics: gamma = inf, threshold 1 (nothing to round{}){}", sem,
                                compared, end ? " in the window" : "", after);
    return result;
  }
  std::string witness = "threshold 1: no length below it";
  const std::string rule_text = params.threshold ? "the rule under test" : "ceil(2^(p/gamma)), the least i with i^gamma >= 2^p";
  if (t > 1) {
    const std::uint64_t below = t64 - 1;
    const auto [found, below_exhaustive] = first_difference_at(shape, below, params, look, rng);
    result.evidence["witnesses"] = witnesses;
    if (!found && !params.require_sharp) {
      // The theorem's threshold is sufficient; sharpness is asked for only by check.threshold_sharp.
      witness = below_exhaustive
                    ? fmt::format("not sharp on this model: every statistic of length {} = t - 1 already agrees ({}; "
                                  "check.threshold_sharp would make this a refutation)",
                                  below, end ? "under finite-weights:p a sub-maximal weight u/sum(u) can round before t"
                                             : "the margin is not realised there")
                    : fmt::format("no difference found at T = {} = t - 1 among {} random statistics (sharpness not "
                                  "asked for: check.threshold_sharp)",
                                  below, params.witness_tries);
    } else if (!found && below_exhaustive) {
      result.verdict = Verdict::Refuted;
      result.detail = fmt::format("the threshold {} is not the first length where {} = hardmax: they agree on "
                                  "every statistic of length {} = t - 1 (threshold rule: {})",
                                  t.str(), sem, below, rule_text);
      return result;
    }
    if (!found && params.require_sharp) {
      result.verdict = Verdict::Undecided;
      result.detail = fmt::format("{} = hardmax from T = {} on, but no statistic of length {} = t - 1 out of {} "
                                  "random ones shows a difference, so the threshold's tightness is not established",
                                  sem, t.str(), below, params.witness_tries);
      return result;
    }
    if (found) {
      result.evidence["witness"] = {{"length", below}, {"statistic", found->where}};
      witnesses.push_back(found->witness);
      witness = fmt::format("witness at T = {}: {}{}", below, found->text,
                            below_exhaustive ? " (first in enumeration order)" : " (found by random search)");
    }
  }
  if (end) {
    const std::string after = past();
    result.evidence["witnesses"] = witnesses;
    scope.decided_by = "exact comparison of the finite-weights:p and hardmax representations on the window t <= T <= "
                       "2^p - 1";
    result.verdict = holding_verdict(scope);
    result.detail = fmt::format("{} = hardmax on {} statistics with t = {} <= T <= {} ({}; the window's end 2^p - 1: "
                                "below 2^p no normalised weight of a top key reaches 2^-p), gamma = {} ({} lengths "
                                "exhaustively{}); {}; {}",
                                sem, compared, t.str(), end->str(), rule_text, gamma_text, exhaustive_lengths,
                                random_inputs ? fmt::format(", {} random in the window", random_inputs) : "", witness,
                                after);
    return result;
  }
  result.evidence["witnesses"] = witnesses;
  scope.decided_by = witnesses.empty() ? "exact comparison of the finite:p and hardmax representations (t sufficient; "
                                         "sharpness not asked for)"
                                       : "exact comparison of the finite:p and hardmax representations; tightness by "
                                         "the witness at t - 1";
  result.verdict = holding_verdict(scope);
  result.detail = fmt::format("{} = hardmax on {} statistics with T >= t = {} ({}), gamma = {} "
                              "({} lengths exhaustively, {} random in [t, 2t] and up to T = {}); {}",
                              sem, compared, t.str(), rule_text, gamma_text, exhaustive_lengths, params.random_inputs,
                              far, witness);
  return result;
}


// The claim and the mutations that must break it (claims/claim.hpp).
namespace {

bool is_one_layer_model(const Case& c) {
  return !c.is_pair && c.model().layers.size() == 1 && c.model().semantics.kind != Semantics::Kind::Softmax;
}

constexpr const char* kModp2 = "paper/modp/modp_p2_hardmax.json";
constexpr const char* kMargin = "section4/modp_p3_finite6_margin1_2.json";
constexpr const char* kWeights = "section4/attend_ones_gamma2_finite_weights6.json";

constexpr ParamsMutation<ThresholdParams> threshold_mutation{kThresholdId, threshold_params, check_threshold};

/// The mutation that replaces the threshold ceil(2^(p/gamma)) by `rule`.
Mutation threshold_rule_mutation(MutationText text, std::function<Integer(unsigned, const Rational&)> rule) {
  return threshold_mutation(std::move(text), [rule](ThresholdParams& p) { p.threshold = rule; });
}

}  // namespace

ClaimDeclaration threshold_declaration() {
  const auto check = [](const Case& c) { return check_threshold(c, threshold_params(c)); };
  return {{kThresholdId,
           "finite:p = hardmax at every length T >= ceil(2^{p/gamma}), with a certified witness below where they "
           "differ (finite-weights:p: on the window ceil(2^{p/gamma}) <= T <= 2^p - 1)",
           "finite:p (or finite-weights:p) vs hardmax", "docs/theory.md#hardmax-threshold-paper-p5", is_one_layer_model,
           named(check), rerun(check)},
          {threshold_rule_mutation({"2^p/gamma for 2^(p/gamma)", "the threshold written 2^p/gamma instead of "
                                    "2^(p/gamma)", "!= hardmax at T >=", kMargin},
                                   [](unsigned bits, const Rational& g) {
                                     return ceil(Rational(pow(Integer(2), bits)) / g);
                                   }),
           threshold_rule_mutation({"threshold halved", "ceil(2^(p/gamma)) divided by 2", "!= hardmax at T >=", kMargin},
                                   [](unsigned bits, const Rational& g) { return hardmax_threshold(bits, g) / 2; }),
           threshold_rule_mutation({"threshold 4x too large", "ceil(2^(p/gamma)) multiplied by 4: caught by the "
                                    "tightness witness at t - 1", "is not the first length where", kModp2},
                                   [](unsigned bits, const Rational& g) { return 4 * hardmax_threshold(bits, g); }),
           threshold_rule_mutation({"threshold halved (finite-weights:6)", "ceil(2^(p/gamma)) divided by 2 under "
                                    "finite-weights:p: a sub-maximal key's normalised weight still exceeds 2^-p there",
                                    "!= hardmax at T in", kWeights},
                                   [](unsigned bits, const Rational& g) { return hardmax_threshold(bits, g) / 2; }),
           threshold_mutation({"window end 2^p (finite-weights:6)", "the finite-weights:p window claimed to reach 2^p: "
                               "the top keys' weights 1/2^p round there", "!= hardmax at T in", kWeights},
                              [](ThresholdParams& p) {
                                p.window_end = [](unsigned bits) { return Integer(1) << bits; };
                              })}};
}

}  // namespace lgc
