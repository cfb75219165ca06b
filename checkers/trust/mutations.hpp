#pragma once
// The mutation suite: for every registered claim, deliberate breaks of its
// constants that the checker must REFUTE on a bundled case, declared beside
// the claim (claims/claim.hpp). A claim without a caught mutation proves
// nothing (tests/test_mutations.cpp fails).
#include "claims/claim.hpp"

#include <filesystem>
#include <string>
#include <vector>

namespace lgc {

/// True when `r` refutes mutation `m` for the stated reason.
bool refutes_for_the_stated_reason(const Mutation& m, const ClaimResult& r);

/// Every claim's mutations, claim by claim in the registry's order.
const std::vector<Mutation>& mutation_registry();

/// The markdown table of docs/reliability.md: claim, mutation, case, verdict.
std::string mutation_table(const std::filesystem::path& cases_dir);

}  // namespace lgc
