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
/// A table: claim, case, verdict, detail; then a summary line.
std::string results_table(const std::vector<ClaimResult>& results);

}  // namespace lgc
