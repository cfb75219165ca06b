// T5.2.witness: a witness pair of softmax models agrees (within 2^-64, certified) on every input of length <= n
// and differs by at least η on one of length M, so no length bound of Theorem 5.2 valid for ε < η/3 is below n + 1
// (docs/theory.md, "A witness family for the positional margin").
#include "claims/agreement.hpp"
#include "claims/declarations.hpp"
#include "claims/section5/section5.hpp"
#include "claims/section4/theorem41.hpp"

#include "lgcheck/enumerate/visit_digest.hpp"
#include "lgcheck/quantities/positional_margin.hpp"
#include "lgcheck/semantics/forward.hpp"
#include "lgcheck/semantics/softmax_layer1.hpp"
#include "lgcheck/enumerate/statistic.hpp"

#include <fmt/format.h>

namespace lgc {

bool is_witness52_case(const Case& c) {
  if (!c.is_pair || !c.check.contains("witness_n")) return false;
  for (const Model& m : c.models)
    if (m.semantics.kind != Semantics::Kind::Softmax || m.layers.size() > 2) return false;
  return true;
}

std::string statistic_obstacle(const Model& m) {
  for (std::size_t l = 1; l < m.layers.size(); ++l)
    for (std::size_t h = 0; h < m.layers[l].heads.size(); ++h)
      for (std::size_t i = 0; i < m.width; ++i)
        for (std::size_t j = 0; j < m.width; ++j)
          if (m.layers[l].heads[h].value(i, j) != 0)
            return fmt::format("{}: layer {} head {} has a non-zero value, so the output at T depends on more than "
                               "T's statistic",
                               m.name, l + 1, h + 1);
  return "";
}

Rational witness52_tolerance() { return Rational(1) / Rational(pow(Integer(2), 64)); }

namespace {

/// The largest |f − g| over the statistics of one length: the largest upper end, and the largest lower end with
/// the statistic that has it.
struct LengthGap {
  Rational upper = 0, lower = 0;
  Number at_lower = 0;
  Statistic argmax;
};

}  // namespace

Output witness52_output(const SoftmaxFirstLayer& first, const Tokens& x) {
  Vector<Number> y;
  first.for_each_position(x, [&](const SoftmaxFirstLayer::Point& p) {
    if (p.i == x.size()) y = first.layer_output(p);
  });
  const Model& m = first.model();
  for (std::size_t l = 1; l < m.layers.size(); ++l)
    if (m.layers[l].mlp) y = apply_mlp(*m.layers[l].mlp, y);
  return apply_readout(m, y, first.bits());
}

namespace {

class PairGaps {
 public:
  explicit PairGaps(const Case& c) : shape_(shape_of(c.model())), f_(c.models[0]), g_(c.models[1]) {}

  /// Every statistic of length T; each one is added to `visited` when given.
  LengthGap at_length(std::uint64_t T, VisitDigest* visited) const {
    LengthGap gap;
    bool first = true;
    for_each_statistic(shape_, T, [&](const Statistic& s) {
      const Tokens x = string_of(shape_, s);
      const Number d = max_abs_difference(witness52_output(f_, x), witness52_output(g_, x));
      if (visited) visited->add(s);
      gap.upper = std::max(gap.upper, upper_of(d));
      if (first || lower_of(d) > gap.lower) gap.lower = lower_of(d), gap.at_lower = d, gap.argmax = s;
      first = false;
      return true;
    });
    return gap;
  }
  const Shape& shape() const { return shape_; }

 private:
  Shape shape_;
  SoftmaxFirstLayer f_, g_;
};

std::string margin_text(const Case& c) {
  std::optional<Rational> gamma;
  bool infinite = true;
  for (const Model& m : c.models)
    if (const auto g = positional_margin(m).gamma) gamma = gamma ? std::min(*gamma, *g) : *g, infinite = false;
  return infinite ? "inf" : to_string(*gamma);
}

}  // namespace

ClaimResult check_witness52(const Case& c, const WitnessParams& params) {
  ClaimResult result;
  result.id = kWitness52Id;
  result.case_name = c.name;
  const std::uint64_t n = params.n, M = params.differ_by;
  const Rational tolerance = witness52_tolerance();
  const std::string gamma = margin_text(c);
  result.evidence = {{"n", n},
                     {"tolerance", to_string(tolerance)},
                     {"differ_by", M},
                     {"eta", to_string(params.eta)},
                     {"positional_margin", gamma}};
  if (n == 0 || M <= n) {
    result.verdict = Verdict::Undecided;
    result.detail = "the case names no witness (check.witness_n >= 1 and check.witness_length > witness_n)";
    return result;
  }
  if (params.eta <= 3 * tolerance) {
    result.verdict = Verdict::Undecided;
    result.detail = "the case names no difference to check (check.eta must exceed 3 * 2^-64)";
    return result;
  }
  for (const Model& m : c.models)
    if (const std::string why = statistic_obstacle(m); !why.empty()) {
      result.verdict = Verdict::Undecided;
      result.detail = "the statistic argument does not apply: " + why;
      return result;
    }
  const PairGaps gaps(c);
  VisitDigest visited;
  std::uint64_t count = 0;
  Rational worst = 0;
  for (std::uint64_t T = 1; T <= n; ++T) {
    const LengthGap at = gaps.at_length(T, &visited);
    count += statistic_count(gaps.shape(), T);
    const std::string where = describe(gaps.shape(), at.argmax, c.model());
    if (at.lower > tolerance) {  // a statistic certainly beyond 2^-64. The witness: halfway from 2^-64 to the enclosure's lower end, for any kernel enclosure
      result.evidence["differs_at"] = T;
      result.evidence["witnesses"] = nlohmann::json::array(
          {{{"kind", "pair_distance"}, {"statistic", statistic_to_json(at.argmax)},
            {"at_least", to_string((tolerance + at.lower) / 2)}, {"expect", "holds"}}});
      result.verdict = Verdict::Refuted;
      result.detail = fmt::format("f and g differ at length {} <= n = {}: |f - g| = {} > 2^-64 at {}", T, n,
                                  show(at.at_lower), where);
      return result;
    }
    if (at.upper > tolerance) {
      result.verdict = Verdict::Undecided;
      result.detail = fmt::format("|f - g| at length {} is neither certainly above 2^-64 nor within it (up to {})",
                                  T, to_decimal(at.upper, 4));
      return result;
    }
    worst = std::max(worst, at.upper);
  }
  const LengthGap far = gaps.at_length(M, nullptr);
  result.evidence["D_n_upper"] = to_string(worst);
  result.evidence["D_differ"] = show(far.at_lower);
  if (far.lower < params.eta) {
    const bool below = far.upper < params.eta;
    result.verdict = below ? Verdict::Refuted : Verdict::Undecided;
    result.detail = fmt::format("{} of eta = {} at length {}: |f - g| <= {} at every statistic",
                                below ? "no difference" : "no certified difference", to_string(params.eta), M,
                                to_decimal(far.upper, 6));
    return result;
  }
  result.evidence["witnesses"] = nlohmann::json::array(
      {{{"kind", "pair_distance"}, {"statistic", statistic_to_json(far.argmax)},
        {"at_least", to_string(params.eta)}, {"expect", "holds"}}});
  result.evidence["visited"] = visited.to_json();
  Scope& scope = result.scope;
  scope.domain = fmt::format("every statistic of length <= {}", n);
  scope.exhaustive = count;
  scope.decided_by = "certified |f - g| <= 2^-64 at every statistic of length <= n (the layers after the first "
                     "have value 0, so the output is a function of the statistic); certified |f - g| >= eta at the "
                     "witness";
  scope.slack = fmt::format("{} (eta / |f - g| at the witness)", to_decimal(params.eta / far.lower, 4));
  result.verdict = holding_verdict(scope);
  result.detail = fmt::format(
      "|f - g| <= 2^-64 on every input of length <= {} ({} statistics) and |f - g| = {} >= eta = {} at length {} "
      "({}): any valid N(eps) of Theorem 5.2 for 2^-64 <= eps < eta/3 = {} is at least {} (positional margin {})",
      n, count, show(far.at_lower), to_string(params.eta), M, describe(gaps.shape(), far.argmax, c.model()),
      to_string(params.eta / 3), n + 1, gamma);
  return result;
}


// The claim and the mutations that must break it (claims/claim.hpp).
namespace {

constexpr const char* kPositionWitness2 = "witnesses/position_witness_gamma1_2_rho1_4.json";
constexpr const char* kPositionWitness3 = "witnesses/position_witness_gamma1_3_rho1_4.json";
constexpr const char* kPositionWitness4 = "witnesses/position_witness_gamma1_4_rho1_4.json";

}  // namespace

ClaimDeclaration witness52_declaration() {
  const auto check = [](const Case& c) { return check_witness52(c, witness_params(c)); };
  ClaimDeclaration d{{kWitness52Id,
                      "softmax witness pairs: |f - g| <= 2^-64 on every input of length <= n, |f - g| >= eta at the "
                      "witness length",
                      "softmax", "docs/theory.md#a-witness-family-for-the-positional-margin-toolkit", is_witness52_case,
                      named(check), rerun(check)},
                     {}};
  for (const auto& [gamma, file] :
       {std::pair{"1/2", kPositionWitness2}, std::pair{"1/3", kPositionWitness3}, std::pair{"1/4", kPositionWitness4}})
    for (Mutation& m : witness_member_mutations(kWitness52Id, check_witness52, "position witness", gamma, file))
      d.mutations.push_back(std::move(m));
  return d;
}

}  // namespace lgc
