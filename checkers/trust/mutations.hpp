#pragma once
// The mutation suite: for every registered claim, deliberate breaks of its
// constants that the checker must REFUTE on a bundled case. A claim without a
// caught mutation proves nothing (tests/test_mutations.cpp fails).
#include "lgcheck/report/verdict.hpp"

#include <filesystem>
#include <functional>
#include <string>
#include <vector>

namespace lgc {

struct Mutation {
  std::string claim;        ///< the claim id it breaks
  std::string name;         ///< short, stable
  std::string description;  ///< what was broken
  std::string case_file;    ///< relative to the cases directory
  std::function<ClaimResult(const std::filesystem::path& cases_dir)> run;
  /// What the REFUTED detail must show: the inequality the mutation breaks,
  /// so that a refutation for another reason (a side check) does not count.
  std::string counterexample = {};
};

/// True when `r` refutes mutation `m` for the stated reason.
bool refutes_for_the_stated_reason(const Mutation& m, const ClaimResult& r);

const std::vector<Mutation>& mutation_registry();

/// The markdown table of docs/reliability.md: claim, mutation, case, verdict.
std::string mutation_table(const std::filesystem::path& cases_dir);

}  // namespace lgc
