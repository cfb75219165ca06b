// The mutation suite: every registered claim has at least one mutation, and
// every mutation is REFUTED; docs/reliability.md shows the same table.
#include "claim.hpp"
#include "mutations.hpp"

#include "support.hpp"

#include <fstream>
#include <set>
#include <sstream>

TEST_CASE("Every registered claim has a mutation", "[mutation]") {
  std::set<std::string> covered;
  for (const auto& m : lgc::mutation_registry()) covered.insert(m.claim);
  for (const auto& claim : lgc::claim_registry()) {
    INFO("claim " << claim.id << " has no mutation in checkers/mutations.cpp");
    CHECK(covered.count(claim.id) == 1);
  }
}

TEST_CASE("Every mutation is REFUTED", "[mutation]") {
  for (const auto& m : lgc::mutation_registry()) {
    lgc::ClaimResult r = m.run(lgc::test::source_dir() / "cases");
    INFO(m.claim << " / " << m.name << ": " << lgc::to_string(r.verdict) << ": " << r.detail);
    CHECK(r.verdict == lgc::Verdict::Refuted);
  }
}

TEST_CASE("docs/reliability.md holds the current mutation table", "[mutation][docs]") {
  std::ifstream file(lgc::test::source_dir() / "docs" / "reliability.md");
  std::stringstream text;
  text << file.rdbuf();
  INFO("regenerate the table with `build/lgcheck mutations`");
  CHECK(text.str().find(lgc::mutation_table(lgc::test::source_dir() / "cases")) != std::string::npos);
}
