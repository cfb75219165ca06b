// T4.1.lg: on pairs, D(N_sim(ε)) <= ε implies D∞ <= 3ε, with the bracket
// D(n) <= D∞ <= min(upper bounds) as evidence.
#include "claims/section4/theorem41.hpp"
#include "claims/declarations.hpp"

#include "claims/agreement.hpp"

#include "lgcheck/bounds/theorem41.hpp"

#include <fmt/format.h>

namespace lgc {
namespace {

/// A lower bound of |f − g| at a curve's argmax that a recomputation at another precision re-establishes: the lower
/// end itself when D is exact, else the largest decimal of 8 significant digits strictly below it (0 when the end is
/// not positive), with 8 digits more while it is not above `above` and the end is (the enclosure's own end can sit
/// above another precision's).
Rational witnessed_lower_end(const Number& D, const Rational& above = 0) {
  const Rational q = lower_of(D);
  if (D.is_exact()) return q;
  if (q <= 0) return 0;
  Rational unit = 1;  // 10^e with 10^e <= q < 10^{e+1}
  while (unit > q) unit /= 10;
  while (unit * 10 <= q) unit *= 10;
  for (int digits = 8;; digits += 8) {
    const Rational u = unit / Rational(pow(Integer(10), static_cast<unsigned>(digits - 1)));
    Integer k = floor(q / u);
    if (Rational(k) * u == q) k -= 1;
    if (Rational(k) * u > above || q <= above || digits >= 64) return Rational(k) * u;
  }
}

/// The pair_distance witness at argmax[n − 1], the statistic attaining D(n).
nlohmann::json distance_witness(const DistanceCurve& curve, std::size_t n, const Rational& above = 0) {
  return {{"kind", "pair_distance"}, {"statistic", statistic_to_json(curve.argmax[n - 1])},
          {"at_least", to_string(witnessed_lower_end(curve.D[n - 1], above))}, {"expect", "holds"}};
}

}  // namespace

DistanceBracket distance_bracket(const CaseModels& cm, const DistanceCurve& curve) {
  DistanceBracket b;
  b.reached = curve.reached;
  b.lower = curve.D.empty() ? Number(0) : curve.D.back();
  const OneLayerEvaluator &f = *cm.models[0], &g = *cm.models[1];
  auto offer = [&](const Rational& u, const std::string& source) {
    if (b.upper && u >= *b.upper) return false;
    b.upper = u;
    b.upper_source = source;
    return true;
  };
  // Simulation: D∞ <= D(N_sim(ε')) + 2ε' for every ε' whose N_sim is reached
  // (for finite:p pairs N_sim includes the padding to the threshold, so z is
  // long enough for finite:p to be hardmax).
  Rational L = 0;
  for (const auto* m : cm.models) L = std::max(L, norm_constant(m->model()).L);
  const Integer threshold = theorem41_bounds(cm.models, Rational(1), cm.precision_bits).threshold;
  for (Rational delta = 2; delta > Rational(1, 1000000); delta /= 2) {
    Rational eps = L == 0 ? Rational(0) : Rational(L * delta);
    LengthBound nb = simulation_length_bound(cm.models, delta, threshold);
    if (nb.N > Integer(curve.reached)) continue;
    const Number& at = curve.D[static_cast<std::size_t>(nb.N) - 1];
    const bool best = offer(upper_of(at) + 2 * eps, fmt::format("simulation: D(N_sim = {}) + 2*{}", nb.N.str(),
                                                                to_string(eps)));
    if (best) {  // the ε′ whose bound is the best of the simulation ones (they are offered first)
      b.evidence["simulation_eps"] = to_string(eps);
      b.evidence["simulation_N"] = nb.N.str();
    }
    if (L == 0) break;
  }
  if (auto v = value_perturbation_bound(f.model(), g.model()))
    offer(*v, "value perturbation: Lip(R) * sum_h max_c |(V_f - V_g) e_c|");
  if (auto r = readout_gap_bound(f, g)) offer(*r, "readout gap: sup over the representation box of |R_f - R_g|");
  return b;
}

/// The kind of bound that gave the bracket's upper end: simulation,
/// value_perturbation or readout_gap.
std::string bracket_kind(const std::string& upper_source) {
  if (upper_source.rfind("simulation", 0) == 0) return "simulation";
  if (upper_source.rfind("value perturbation", 0) == 0) return "value_perturbation";
  if (upper_source.rfind("readout gap", 0) == 0) return "readout_gap";
  return "none";
}

ImplicationParams implication_params(const Case& c) {
  ImplicationParams p;
  p.epsilon = c.check_rational("epsilon", p.epsilon);
  p.max_length = c.check_count("max_length", p.max_length);
  return p;
}

ClaimResult check_implication(const Case& c, const ImplicationParams& params) {
  CaseModels cm = section4_models(c);
  ClaimResult result;
  result.id = kImplicationId;
  result.case_name = c.name;
  Theorem41Bounds bounds = theorem41_bounds(cm.models, params.epsilon, cm.precision_bits);
  DistanceCurve curve = distance_curve(*cm.models[0], *cm.models[1], params.max_length, cm.precision_bits);
  DistanceBracket bracket = distance_bracket(cm, curve);
  const Rational eps = params.epsilon, conclusion = params.conclusion_factor * params.epsilon;
  const Integer N = bounds.sim.N;
  result.evidence = {{"epsilon", to_string(eps)},
                     {"N", N.str()},
                     {"reached", curve.reached},
                     {"D_inf_lower", show(bracket.lower)},
                     {"D_inf_upper", bracket.upper ? to_string(*bracket.upper) : "unknown"},
                     {"upper_source", bracket.upper_source}};
  result.evidence.update(bracket.evidence);
  if (!curve.argmax.empty())
    result.evidence["witnesses"] = nlohmann::json::array({distance_witness(curve, curve.reached)});
  // The antecedent D(N) <= ε: exact when N is reached; D(N) >= D(reached);
  // D(N) <= D∞ <= upper.
  std::optional<bool> antecedent;
  Number known = N <= Integer(curve.reached) && N >= 1 ? curve.D[static_cast<std::size_t>(N) - 1] : bracket.lower;
  std::optional<int> known_vs_eps = compare(known, Number(eps));
  if (known_vs_eps && *known_vs_eps > 0) antecedent = false;
  else if (N <= Integer(curve.reached) && known_vs_eps) antecedent = true;
  else if (bracket.upper && *bracket.upper <= eps) antecedent = true;
  std::string bracket_text =
      fmt::format("D({}) = {} <= D_inf <= {} ({})", curve.reached, show(bracket.lower),
                  bracket.upper ? show_upper(*bracket.upper) : "unknown",
                  bracket.upper_source.empty() ? "no certified upper bound" : bracket.upper_source);
  Scope& scope = result.scope;
  scope.domain = fmt::format("every statistic of length <= {} (the distance curve D(n))", curve.reached);
  result.evidence["visited"] = curve.visited.to_json();
  scope.exhaustive = curve.statistics;
  scope.caps.push_back({fmt::format("lengths of the distance curve (asked {})", params.max_length), curve.reached,
                        curve.reached < params.max_length});
  scope.decided_by = bracket_kind(bracket.upper_source);
  if (conclusion > 0)
    scope.slack = fmt::format("{} (D({}) / ({} * eps))", to_decimal(upper_of(bracket.lower) / conclusion, 4),
                              curve.reached, to_string(params.conclusion_factor));
  if (antecedent && !*antecedent) {
    scope.vacuous = fmt::format("antecedent false: D(N_sim = {}) > eps", N.str());
    scope.decided_by = "the antecedent, on the distance curve";
    // The witness of D(min(N, reached)) > ε, which the kernel re-establishes: the curve's last one when it is the
    // same statistic, else one more at D(N)'s argmax.
    const std::size_t n = N < Integer(curve.reached) ? static_cast<std::size_t>(N) : curve.reached;
    auto& witnesses = result.evidence["witnesses"];
    nlohmann::json at_n = distance_witness(curve, n, eps);
    if (at_n["statistic"] == witnesses[0]["statistic"]) witnesses[0] = std::move(at_n);
    else witnesses.push_back(std::move(at_n));
    result.verdict = holding_verdict(scope);
    result.detail = fmt::format("antecedent false: D({}) >= {} > eps = {} (N = N_sim = {}); {}",
                                N <= Integer(curve.reached) ? N.str() : std::to_string(curve.reached), show(known),
                                to_string(eps), N.str(), bracket_text);
    return result;
  }
  std::optional<int> lower_vs = compare(bracket.lower, Number(conclusion));
  if (lower_vs && *lower_vs > 0) {
    result.verdict = Verdict::Refuted;
    result.detail = fmt::format("D_inf >= D({}) = {} > {} * eps = {}, witness {}; {}", curve.reached, show(bracket.lower),
                                to_string(params.conclusion_factor), to_string(conclusion),
                                describe(cm.models[0]->shape(), curve.argmax.back(), cm.models[0]->model()), bracket_text);
    return result;
  }
  if (antecedent && bracket.upper && *bracket.upper <= conclusion) {
    // Lengths beyond the curve are covered by the certified upper bound, so
    // a cap on the curve does not cut the conclusion's domain.
    scope.caps.back().binding = false;
    result.verdict = holding_verdict(scope);
    result.detail = fmt::format("D(N) <= eps = {} and D_inf <= {} * eps: {}", to_string(eps),
                                to_string(params.conclusion_factor), bracket_text);
    return result;
  }
  result.verdict = Verdict::Undecided;
  result.detail = fmt::format("cannot decide D(N = {}) <= eps or D_inf <= {} * eps within length {}: {}", N.str(),
                              to_string(params.conclusion_factor), curve.reached, bracket_text);
  return result;
}


// The claim and the mutations that must break it (claims/claim.hpp).
namespace {

constexpr const char* kModpPair = "pairs/modp_p2_perturbed_pair.json";

}  // namespace

ClaimDeclaration implication_declaration() {
  const auto check = [](const Case& c) { return check_implication(c, implication_params(c)); };
  return {{kImplicationId, "pairs: D(N_sim(eps)) <= eps implies D_inf <= 3 eps, with the bracket D(n) <= D_inf <= upper",
           "hardmax or finite:p", "docs/theory.md#distances-and-thresholds-toolkit", is_section4_pair, named(check),
           rerun(check)},
          {edited_params_mutation<ImplicationParams>(
              kImplicationId, {"conclusion 3 eps -> eps/20", "the theorem's conclusion D_inf <= 3 eps replaced by eps/20",
                               "D_inf >= D(", kModpPair},
              implication_params, check_implication,
              [](ImplicationParams& p) { p.conclusion_factor = Rational(1, 20); })}};
}

}  // namespace lgc
