// Table teeth: per registered claim, on the bundled cases, where it is not
// vacuous, the case on which it comes closest to failing (its slack ratio),
// and the mutations that must break it (docs/reliability.md).
#include "output/tables.hpp"

#include "trust/registry.hpp"
#include "trust/mutations.hpp"
#include "output/progress.hpp"
#include "trust/suite.hpp"

#include "lgcheck/numeric/interval.hpp"

#include <fmt/format.h>

#include <map>
#include <sstream>

namespace lgc {
namespace {

/// The largest of the ratios a slack text starts its parts with ("0.5 (...)",
/// "0.06 (...); 0.99 (...)"), read exactly as decimals; nullopt when the
/// claim reports none.
std::optional<Rational> largest_slack_ratio(const std::optional<std::string>& slack) {
  if (!slack) return std::nullopt;
  std::optional<Rational> best;
  std::stringstream parts(*slack);
  std::string part;
  while (std::getline(parts, part, ';')) {
    std::stringstream words(part);
    std::string first;
    words >> first;
    try {
      Rational r = parse_rational(first);
      if (!best || r > *best) best = r;
    } catch (const std::exception&) {
      // a part without a leading ratio (e.g. "tight: ...") gives none
    }
  }
  return best;
}

/// Why a claim whose best ratio is below 1/2 has no nearer-binding case: the
/// measured factor and its reason are derived in docs/theory.md.
const std::map<std::string, std::string>& loose_reasons() {
  static const std::map<std::string, std::string> reasons = {
      {"S.consistency", "an equality (finite:p = hardmax above the threshold): no ratio; the threshold's tightness is "
                        "T4.1.threshold's witness"},
      {"T4.1.threshold", "an equality with a tightness witness at t - 1: no ratio"},
      {"C4.2.regularity", "exact equalities E_t = 0 before the switch and = eta after: no ratio"},
      {"T4.1.lg", "D(N) <= eps on a non-vacuous pair, so D(reached)/(3 eps) <= 1/3 whenever the curve stops at N "
                  "(docs/theory.md, Distances and thresholds)"},
      {"L5.lip", "on a near-vertex pair the ratio is at most |v_b - v_a|/(4V) <= 1/2, and 1/4 with one-hot values "
                 "(docs/theory.md, The first-layer limit map)"},
      {"T5.2.sim", "the bound chains the first layer's K and Lip(Phi) with the second layer's e^A (1 + B): worst-case "
                   "constants one pair does not meet together (docs/reliability.md, Teeth)"},
      {"D5.4.kgram", "T0 splits eps among three terms: on the hard inputs the error is about 2 eps/(5 + 2 eps), "
                     "a third of eps (docs/theory.md, The in-context k-gram construction)"},
  };
  return reasons;
}

struct ClaimTeeth {
  std::size_t cases = 0, not_vacuous = 0;
  std::optional<Rational> best;
  std::string best_case, best_verdict;
};

std::map<std::string, ClaimTeeth> teeth_of(const std::vector<ClaimResult>& results) {
  std::map<std::string, ClaimTeeth> teeth;
  for (const ClaimResult& r : results) {
    if (r.is_expectation()) continue;
    ClaimTeeth& t = teeth[r.id];
    ++t.cases;
    if (r.verdict != Verdict::Vacuous) ++t.not_vacuous;
    if (r.verdict == Verdict::Vacuous) continue;  // a vacuous row's ratio is not a near miss
    std::optional<Rational> ratio = largest_slack_ratio(r.scope.slack);
    if (ratio && (!t.best || *ratio > *t.best)) {
      t.best = ratio;
      t.best_case = r.case_name;
      t.best_verdict = to_string(r.verdict);
    }
  }
  return teeth;
}

std::string mutation_names(const std::string& claim) {
  std::string names;
  for (const Mutation& m : mutation_registry())
    if (m.claim == claim) names += (names.empty() ? "" : "; ") + m.name;
  return names.empty() ? "-" : names;
}

}  // namespace

Table table_teeth(const std::filesystem::path& cases_dir) {
  std::vector<Case> cases;
  for (const auto& file : collect_case_files({cases_dir.string()})) cases.push_back(load_case(file));
  std::vector<ClaimResult> results;
  auto on_unit = [&](std::size_t done, std::size_t total, std::size_t k) { report_progress(done, total, cases[k].name); };
  for (CaseResults& part : check_cases(cases, "*", Shard{}, on_unit))
    for (ClaimResult& r : part.results) results.push_back(std::move(r));
  const std::map<std::string, ClaimTeeth> teeth = teeth_of(results);

  Table t;
  t.name = "teeth";
  t.caption = "Teeth of every claim on the bundled cases: where it is not vacuous, the case where it comes closest to "
              "failing (its largest slack ratio, measured/bound), and the mutations that must break it";
  t.columns = {"claim", "cases", "not vacuous", "best ratio", "on case", "verdict there", "near-binding", "mutations"};
  const Rational half(1, 2);
  for (const Claim& claim : claim_registry()) {
    const auto it = teeth.find(claim.id);
    const ClaimTeeth none;
    const ClaimTeeth& c = it == teeth.end() ? none : it->second;
    const bool near = c.best && *c.best >= half;
    const auto reason = loose_reasons().find(claim.id);
    const std::string why = near ? "yes (ratio >= 1/2)"
                                 : (reason != loose_reasons().end() ? "no: " + reason->second : "no");
    const std::string ratio = c.best ? to_decimal(*c.best, 4) : "-";
    t.rows.push_back({claim.id, std::to_string(c.cases), std::to_string(c.not_vacuous), ratio,
                      c.best ? c.best_case : "-", c.best ? c.best_verdict : "-", why, mutation_names(claim.id)});
    t.exact.push_back({{"claim", claim.id},
                       {"cases", c.cases},
                       {"not_vacuous", c.not_vacuous},
                       {"best_ratio", c.best ? nlohmann::json(to_string(*c.best)) : nlohmann::json(nullptr)},
                       {"best_case", c.best ? nlohmann::json(c.best_case) : nlohmann::json(nullptr)},
                       {"near_binding", near},
                       {"mutations", mutation_names(claim.id)}});
  }
  t.notes = {"ratio: the leading number of each part of the row's scope.slack (measured / bound, the largest over the "
             "parts), read exactly; VACUOUS rows are not counted as near misses.",
             "mutations: the deliberate breaks of lgcheck mutations for the claim; each must be REFUTED for the stated "
             "reason (docs/reliability.md)."};
  return t;
}

}  // namespace lgc
