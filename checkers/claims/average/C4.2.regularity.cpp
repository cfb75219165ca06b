// C4.2.regularity: the counterexample showing that Theorem 4.2 needs a
// regularity assumption (docs/theory.md#the-regularity-counterexample).
#include "claims/agreement.hpp"
#include "claims/declarations.hpp"
#include "claims/case_models.hpp"
#include "claims/average/theorem42.hpp"

#include <fmt/format.h>

#include <algorithm>

namespace lgc {

DirichletPrior SwitchingDistribution::at(std::uint64_t length) const {
  std::vector<bool> keep = short_alphabet;
  if (length > switch_length) keep.flip();
  return restrict_prior(prior, keep);
}

bool is_regularity_case(const Case& c) {
  return is_hardmax_pair(c) && case_prior(c) && c.check.contains("switch_length") && c.check.contains("short_alphabet");
}

SwitchingDistribution case_switching_distribution(const Case& c) {
  SwitchingDistribution d;
  d.prior = *case_prior(c);
  d.switch_length = c.check_count("switch_length", 1);
  const auto& alphabet = c.model().alphabet;
  d.short_alphabet.assign(alphabet.size(), false);
  for (const auto& symbol : c.check["short_alphabet"]) {
    auto it = std::find(alphabet.begin(), alphabet.end(), symbol.get<std::string>());
    d.short_alphabet[static_cast<std::size_t>(it - alphabet.begin())] = true;
  }
  return d;
}

RegularityParams regularity_params(const Case& c) {
  RegularityParams p;
  p.eta = c.check_rational("eta", p.eta);
  p.tail = c.check_count("regularity_tail", p.tail);
  p.budget = c.check_count("average_budget", p.budget);
  return p;
}

ClaimResult check_regularity(const Case& c, const RegularityParams& params) {
  ClaimResult r;
  r.id = kRegularityId;
  r.case_name = c.name;
  const SwitchingDistribution dist = case_switching_distribution(c);
  const std::uint64_t K = params.claimed_switch.value_or(dist.switch_length);
  r.evidence = {{"switch_length", K}, {"tail", params.tail}, {"eta", to_string(params.eta)},
                {"alpha", describe(dist.prior)}};
  if (K + params.tail > params.budget) {
    r.verdict = Verdict::Undecided;
    r.detail = fmt::format("lengths up to K + tail = {} exceed the budget {} (check.average_budget)", K + params.tail,
                           params.budget);
    return r;
  }
  CaseModels cm = section4_models(c);
  DirichletMoments before(dist.at(1)), after(dist.at(dist.switch_length + 1));
  for (std::uint64_t t = 1; t <= K + params.tail; ++t) {
    DirichletMoments& moments = t <= dist.switch_length ? before : after;
    Expectation e = expected_distance(*cm.models[0], *cm.models[1], moments, t);
    const Rational want = t <= K ? Rational(0) : params.eta;
    const char* law = t <= dist.switch_length ? "short" : "long";
    // A sin readout's E_t is an enclosure: one that holds the claimed value decides nothing.
    if (e.mass == 1 && !e.value.is_exact() && !compare(e.value, Number(want))) {
      r.verdict = Verdict::Undecided;
      r.detail = fmt::format("E_{} = {} under the {} distribution is not separated from {}, the claimed value (switch "
                             "K = {})",
                             t, show_short(e.value), law, to_string(want), K);
      return r;
    }
    if (e.mass != 1 || !e.value.is_exact() || e.value.exact() != want) {
      r.verdict = Verdict::Refuted;
      r.detail = fmt::format("E_{} = {} under the {} distribution, not {} as claimed (switch K = {})", t, show_short(e.value),
                             law, to_string(want), K);
      return r;
    }
  }
  r.scope.domain = fmt::format("E_t exactly for t = 1..K + tail = {}", K + params.tail);
  r.scope.exhaustive = K + params.tail;
  r.scope.decided_by = "exact expectations, compared for equality";
  r.verdict = holding_verdict(r.scope);
  r.detail = fmt::format("E_t = 0 exactly for every t <= K = {} and E_t = eta = {} for K < t <= {}: the premise of "
                         "Theorem 4.2 holds at every N0 <= K for every eps > 0, the conclusion fails once eps < "
                         "(eta/C)^2, so without regularity no N0 <= K works",
                         K, to_string(params.eta), K + params.tail);
  return r;
}


// The claim and the mutations that must break it (claims/claim.hpp).
namespace {

constexpr const char* kRegularity = "average/regularity_k64.json";

constexpr ParamsMutation<RegularityParams> regularity_mutation{kRegularityId, regularity_params, check_regularity};

}  // namespace

ClaimDeclaration regularity_declaration() {
  const auto check = [](const Case& c) { return check_regularity(c, regularity_params(c)); };
  return {{kRegularityId,
           "without regularity no N0 works: E_t = 0 for t <= K and E_t = eta after, for the switch K of the case",
           "hardmax", "docs/theory.md#the-regularity-counterexample-paper-p8-idea-toolkit-construction",
           is_regularity_case, named(check), rerun(check)},
          {regularity_mutation({"switch one step late", "the pair claimed equal in average up to K + 1",
                                "not 0 as claimed", kRegularity},
                               [](RegularityParams& p) { p.claimed_switch = 65; }),
           regularity_mutation({"eta doubled", "the average distance after the switch claimed 2 eta",
                                "not 2 as claimed", kRegularity},
                               [](RegularityParams& p) { p.eta *= 2; })}};
}

}  // namespace lgc
