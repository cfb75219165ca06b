#pragma once
// Running the registered claims over case files, with the cases' own
// expectations compared.
#include "claim.hpp"

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

}  // namespace lgc
