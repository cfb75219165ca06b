#pragma once
// Running the registered claims over case files, with the cases' own
// expectations compared.
#include "claim.hpp"
#include "lgcheck/enumerate/parallel.hpp"

#include <nlohmann/json.hpp>

#include <filesystem>
#include <string>
#include <vector>

namespace lgc {

/// The .json files named, and those below the directories named (sorted).
/// Throws CaseError for a path that does not exist.
std::vector<std::filesystem::path> collect_case_files(const std::vector<std::string>& paths);

/// Every registered claim whose id matches `glob` (shell pattern) and that
/// applies to the case, then the case's "expect" block: an expected verdict
/// that differs, or an expected claim that did not run, is a REFUTED row
/// with id "expect:<claim>"; a logit_margin expectation is compared too.
std::vector<ClaimResult> check_case(const Case& c, const std::string& glob);

/// One case's results and the case's position among all the cases of the run.
struct CaseResults {
  std::size_t case_index = 0;
  std::vector<ClaimResult> results;
};

/// check_case on the cases a shard owns (case index ≡ i mod n), in order;
/// `on_case(index)` is called before each (progress), and each result
/// (expectation rows excepted) is passed to `on_result` (certificates).
std::vector<CaseResults> check_cases(const std::vector<Case>& cases, const std::string& glob, const Shard& shard,
                                     const std::function<void(std::size_t)>& on_case = {},
                                     const std::function<void(const Case&, const ClaimResult&)>& on_result = {});

/// A shard's part of a run, for `lgcheck merge` and the MPI driver:
/// {"format": "lgcheck-shard/1", "shard": "i/n", "cases": [every case name,
/// in order], "results": [{"case_index": k, "claims": [...]}]}.
nlohmann::json shard_json(const std::vector<CaseResults>& results, const Shard& shard, const std::vector<Case>& cases);

/// The shards' results merged in case order: exactly the results of one
/// process running every case. Throws std::invalid_argument when the parts
/// do not belong together (other cases, a shard missing or given twice).
std::vector<ClaimResult> merge_shards(const std::vector<nlohmann::json>& parts);

}  // namespace lgc
