// T4.1.witness: a witness pair agrees on every input of length <= n and
// differs by η on one of length <= 2n (or the length the case names).
#include "claims/section4/theorem41.hpp"
#include "claims/declarations.hpp"

#include "claims/agreement.hpp"

#include <fmt/format.h>

namespace lgc {

WitnessParams witness_params(const Case& c) {
  WitnessParams p;
  p.n = c.check_count("witness_n", 0);
  p.differ_by = c.check_count("witness_length", 2 * p.n);
  p.eta = c.check_rational("eta", 0);
  return p;
}

ClaimResult check_witness(const Case& c, const WitnessParams& params) {
  CaseModels cm = section4_models(c);
  ClaimResult result;
  result.id = kWitnessId;
  result.case_name = c.name;
  if (params.n == 0 || params.differ_by < params.n) {
    result.verdict = Verdict::Undecided;
    result.detail = "the case names no witness order (check.witness_n >= 1, check.witness_length >= witness_n)";
    return result;
  }
  DistanceCurve curve = distance_curve(*cm.models[0], *cm.models[1], std::max(params.n, params.differ_by), cm.precision_bits);
  const std::uint64_t top = std::max(params.n, params.differ_by);
  if (curve.reached < top) {
    result.verdict = Verdict::Undecided;
    result.detail = fmt::format("lengths up to {} needed, reached {} within the statistic budget", top, curve.reached);
    return result;
  }
  const Number& agree = curve.D[params.n - 1];
  const Number& differ = curve.D[params.differ_by - 1];
  result.evidence = {{"n", params.n}, {"D_n", show(agree)}, {"differ_by", params.differ_by}, {"D_differ", show(differ)},
                     {"eta", to_string(params.eta)}};
  if (!(agree.is_exact() && agree.exact() == 0)) {
    // The first length where D is not the exact 0: a certified difference refutes the agreement; an enclosure
    // that still holds 0 decides nothing.
    std::uint64_t first = 1;
    while (first <= params.n && curve.D[first - 1].is_exact() && curve.D[first - 1].exact() == 0) ++first;
    const Number& at = curve.D[first - 1];
    const std::string where = describe(cm.models[0]->shape(), curve.argmax[first - 1], cm.models[0]->model());
    if (lower_of(at) > 0) {
      result.verdict = Verdict::Refuted;
      result.detail = fmt::format("f and g differ at length {} <= n = {}: |f - g| = {} at {}", first, params.n,
                                  show(at), where);
    } else {
      result.verdict = Verdict::Undecided;
      result.detail = fmt::format("D({}) = {} is neither the exact 0 nor certainly positive (at {})", first,
                                  show(at), where);
    }
    return result;
  }
  std::optional<int> reached_eta = compare(differ, Number(params.eta));
  if (!reached_eta) {
    result.verdict = Verdict::Undecided;
    result.detail = fmt::format("D({}) = {} not separated from eta = {}", params.differ_by, show(differ), to_string(params.eta));
    return result;
  }
  if (*reached_eta < 0) {
    result.verdict = Verdict::Refuted;
    result.detail = fmt::format("no difference of eta = {} by length {}: D({}) = {}", to_string(params.eta),
                                params.differ_by, params.differ_by, show(differ));
    return result;
  }
  std::uint64_t at = params.n + 1;
  while (at < params.differ_by && upper_of(curve.D[at - 1]) < params.eta) ++at;
  // The length where the cumulative maximum first reaches eta carries the witness.
  result.evidence["witnesses"] = nlohmann::json::array(
      {{{"kind", "pair_distance"}, {"statistic", statistic_to_json(curve.argmax[at - 1])},
        {"at_least", to_string(params.eta)}, {"expect", "holds"}}});
  result.scope.domain = fmt::format("every statistic of length <= {}", top);
  result.evidence["visited"] = curve.visited.to_json();
  result.scope.exhaustive = curve.statistics;
  result.scope.decided_by = "exact D(n) = 0 up to n; certified |f - g| >= eta at the witness";
  if (lower_of(curve.D[at - 1]) > 0)
    result.scope.slack =
        fmt::format("{} (eta / |f - g| at the witness)", to_decimal(params.eta / lower_of(curve.D[at - 1]), 4));
  result.verdict = holding_verdict(result.scope);
  result.detail = fmt::format("f = g on every input of length <= {} (D({}) = 0 exactly) and |f - g| = {} >= eta = {} at "
                              "length {} <= {}: any valid N(eps) for eps < eta/3 = {} is at least {}",
                              params.n, params.n, show(curve.D[at - 1]), to_string(params.eta), at, params.differ_by,
                              to_string(params.eta / 3), params.n + 1);
  return result;
}


// The claim and the mutations that must break it (claims/claim.hpp).
std::vector<Mutation> witness_member_mutations(const char* claim, ClaimResult (*check)(const Case&, const WitnessParams&),
                                               const std::string& family, const std::string& gamma, const char* file) {
  const std::string tag = family + " (gamma " + gamma + ")";
  return {edited_params_mutation<WitnessParams>(claim, {tag + ": agreement up to N", "the " + family +
                                                        " claimed equal at its first differing length N too",
                                                        "f and g differ at length", file},
                                                witness_params, check, [](WitnessParams& p) { p.n += 1; }),
          edited_params_mutation<WitnessParams>(claim, {tag + ": eta doubled", "the " + family +
                                                        "'s difference claimed 2 eta", "no difference of eta", file},
                                                witness_params, check, [](WitnessParams& p) { p.eta *= 2; })};
}

namespace {

bool is_witness_pair(const Case& c) { return is_section4_pair(c) && c.check.contains("witness_n"); }

constexpr const char* kFarey8 = "witnesses/farey_hat_n8.json";
constexpr const char* kMarginWitness = "witnesses/margin_witness_gamma1_3_p2.json";
constexpr const char* kMarginWitness2 = "witnesses/margin_witness_gamma1_2_p2.json";
constexpr const char* kMarginWitness4 = "witnesses/margin_witness_gamma1_4_p2.json";

constexpr ParamsMutation<WitnessParams> witness_mutation{kWitnessId, witness_params, check_witness};

}  // namespace

ClaimDeclaration witness_declaration() {
  const auto check = [](const Case& c) { return check_witness(c, witness_params(c)); };
  ClaimDeclaration d{
      {kWitnessId,
       "witness pairs: f = g on every input of length <= n, |f - g| >= eta at a length <= the witness length (2n "
       "unless the case names it)",
       "hardmax or finite:p", "docs/theory.md#lower-bound-witnesses-toolkit", is_witness_pair, named(check),
       rerun(check)},
      {witness_mutation({"agreement up to 2n", "the pair claimed equal on every input of length <= 2n",
                         "f and g differ at length", kFarey8},
                        [](WitnessParams& p) { p.n *= 2; }),
       witness_mutation({"eta doubled", "the difference claimed 2 eta", "no difference of eta", kFarey8},
                        [](WitnessParams& p) { p.eta *= 2; }),
       witness_mutation({"margin witness: agreement up to N", "the margin witness claimed equal at length N = "
                         "ceil(2^(p/gamma)) too (one more length)", "f and g differ at length", kMarginWitness},
                        [](WitnessParams& p) { p.n += 1; }),
       witness_mutation({"margin witness: eta doubled", "the margin witness's difference claimed 2 eta",
                         "no difference of eta", kMarginWitness},
                        [](WitnessParams& p) { p.eta *= 2; })}};
  for (const auto& [gamma, file] : {std::pair{"1/2", kMarginWitness2}, std::pair{"1/4", kMarginWitness4}})
    for (Mutation& m : witness_member_mutations(kWitnessId, check_witness, "margin witness", gamma, file))
      d.mutations.push_back(std::move(m));
  return d;
}

}  // namespace lgc
