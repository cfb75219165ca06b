#pragma once
// Rendering numbers and results for the command line: JSON per docs/cli.md
// (exact numbers as strings, certified reals as {"lo","hi"}) and text tables.
#include "lgcheck/numeric/number.hpp"
#include "lgcheck/report/readable.hpp"
#include "lgcheck/report/verdict.hpp"

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace lgc {

/// "7", "-3/8", or {"lo": "...", "hi": "..."} rounded outward.
nlohmann::json number_json(const Number& x);
/// {"lo": "...", "hi": "..."}: the endpoints with 25 digits, rounded outward.
nlohmann::json interval_json(const Interval& x);

/// {"claims": [claim rows, each with its scope], "expectations": [{case, what,
/// met, detail}], "summary": {claims, PROVED, SAMPLED, VACUOUS, REFUTED,
/// UNDECIDED, expectations: {met, not_met}}}.
nlohmann::json results_json(const std::vector<ClaimResult>& results);
nlohmann::json summary_json(const VerdictSummary& summary);
/// The scope in one line: vacuous reason, exhaustive part, samples, caps, deciding bound, slack.
std::string scope_text(const Scope& scope);
/// One result as in results_json, and back.
nlohmann::json claim_result_json(const ClaimResult& r);
ClaimResult claim_result_from_json(const nlohmann::json& j);
/// The text table's column widths: they fit every claim id and case name
/// given, so rows can be printed as they come (check streams them).
struct TableLayout {
  std::size_t id_w = 8, case_w = 4, verdict_w = 9;
  std::size_t indent() const { return id_w + case_w + verdict_w + 6; }
};
TableLayout table_layout(const std::vector<std::string>& ids, const std::vector<std::string>& case_names);
/// The header: column names and a rule.
std::string table_header(const TableLayout& layout);
/// One claim row and its scope line ("" for an expectation row).
std::string claim_row(const TableLayout& layout, const ClaimResult& r);
/// After the claim rows: the expectations of the cases, then the counts.
std::string table_footer(const TableLayout& layout, const std::vector<ClaimResult>& results);
/// A table: claim, case, verdict, detail; then the expectations and the counts.
std::string results_table(const std::vector<ClaimResult>& results);

}  // namespace lgc
