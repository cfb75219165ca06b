#pragma once
// Running the registered claims over case files, with the cases' own
// expectations compared.
#include "trust/registry.hpp"
#include "lgcheck/enumerate/budget.hpp"
#include "lgcheck/enumerate/parallel.hpp"

#include <nlohmann/json.hpp>

#include <filesystem>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace lgc {

/// The .json files named, and those below the directories named (sorted).
/// Throws CaseError for a path that does not exist.
std::vector<std::filesystem::path> collect_case_files(const std::vector<std::string>& paths);

/// Whether a claim id (or "expect:logit_margin") is selected by the
/// --claims shell pattern `glob`.
bool matches(const std::string& glob, const std::string& id);

/// The UNDECIDED row of a claim whose run met a number beyond exact computation
/// (std::overflow_error): "stopped: <what> (beyond exact computation)". The
/// run and the replay give the same row.
ClaimResult beyond_exact_computation(const Claim& claim, const Case& c, const std::overflow_error& e);

/// How a budget's stop ends its detail.
constexpr const char* kRaiseBudget = " (raise --budget to decide)";

/// The UNDECIDED row of a claim whose run spent the enumeration budget:
/// "stopped: <what> (raise --budget to decide)", evidence {"budget": <the budget>}.
ClaimResult budget_stopped(const Claim& claim, const Case& c, const std::exception& e);

/// The claim's own run (not its replay) under `budget` (restored after): what `check --budget` gives, the
/// budget's stop included.
ClaimResult run_under_budget(const Claim& claim, const Case& c, const Budget& budget);

/// Every registered claim whose id matches `glob` (shell pattern) and that
/// applies to the case, then the case's "expect" block: an expected verdict
/// that differs, or an expected claim that did not run, is a REFUTED row
/// with id "expect:<claim>"; a logit_margin expectation is compared too.
std::vector<ClaimResult> check_case(const Case& c, const std::string& glob);

/// The unit of work a shard owns: one claim on one case (`claim` indexes
/// claim_registry()), or the case's logit-margin expectation (no claim).
struct WorkUnit {
  std::size_t case_index = 0;
  std::optional<std::size_t> claim;
};
/// Every unit of a run, case by case in order, the claims of a case in
/// registry order (those matching `glob` that apply), its margin expectation last.
std::vector<WorkUnit> work_units(const std::vector<Case>& cases, const std::string& glob);

/// One case's results, the case's position among all the cases of the run,
/// and (in a shard) the run's unit number of each result.
struct CaseResults {
  std::size_t case_index = 0;
  std::vector<ClaimResult> results;
  std::vector<std::size_t> units;
};

/// The units a shard owns (unit number ≡ i mod n: one case's claims spread
/// over the shards), in order; without a budget on enumeration_threads()
/// threads side by side, under one (process-wide, counted per claim) one
/// after the other; the results are the same either way.
/// `on_unit(done, total, case index)` is called as each unit starts, `done`
/// of the shard's `total` units being taken in order (progress), and each
/// claim's result is passed to `on_result` in unit order (certificates).
/// With the whole run (shard 0/1) each case's rows also get the compared
/// expectations (check_case's order); a shard's part has only its units'
/// rows, and merge_shards adds the expectations.
std::vector<CaseResults> check_cases(const std::vector<Case>& cases, const std::string& glob, const Shard& shard,
                                     const std::function<void(std::size_t, std::size_t, std::size_t)>& on_unit = {},
                                     const std::function<void(const Case&, const ClaimResult&)>& on_result = {});

/// A shard's part of a run, for `lgcheck merge` and the MPI driver:
/// {"format": "lgcheck-shard/2", "shard": "i/n", "claims": glob, "cases":
/// [every case name, in order], "expect": [each case's expected verdicts],
/// "units": the run's unit count, "results": [{"unit": u, "case_index": k,
/// "claim": {...}}]}.
nlohmann::json shard_json(const std::vector<CaseResults>& results, const Shard& shard, const std::vector<Case>& cases,
                          const std::string& glob);

/// The shards' results merged in case order: exactly the results of one
/// process running every case. Throws std::invalid_argument when the parts
/// do not belong together (other cases, a shard missing or given twice).
std::vector<ClaimResult> merge_shards(const std::vector<nlohmann::json>& parts);

}  // namespace lgc
