// The mutation suite: every registered claim has at least one mutation, and
// every mutation is REFUTED; docs/reliability.md shows the same table.
#include "trust/registry.hpp"
#include "trust/mutations.hpp"

#include "support.hpp"

#include <algorithm>
#include <cctype>
#include <fstream>
#include <set>
#include <sstream>

TEST_CASE("Every registered claim has a mutation", "[mutation]") {
  std::set<std::string> covered;
  for (const auto& m : lgc::mutation_registry()) covered.insert(m.claim);
  for (const auto& claim : lgc::claim_registry()) {
    INFO("claim " << claim.id << " has no mutation in its declaration (checkers/claims/)");
    CHECK(covered.count(claim.id) == 1);
  }
}

TEST_CASE("Every mutation is REFUTED, by a counterexample to the inequality it breaks", "[mutation]") {
  for (const auto& m : lgc::mutation_registry()) {
#ifdef LGCHECK_SANITIZED
    // Under the sanitizers the mutations on the two heaviest cases (a third of the suite's time there) are left to
    // the Release suite; the same claims' code runs on the lighter cases of their other mutations.
    if (m.case_file == "witnesses/margin_witness_gamma1_4_p2.json" || m.case_file == "section5/attention_pair_rare.json")
      continue;
#endif
    lgc::ClaimResult r = m.run(lgc::test::source_dir() / "cases");
    INFO(m.claim << " / " << m.name << ": " << lgc::to_string(r.verdict) << ": " << r.detail << " (must show \""
                 << m.counterexample << "\")");
    CHECK(r.verdict == lgc::Verdict::Refuted);
    CHECK(lgc::refutes_for_the_stated_reason(m, r));
  }
}

TEST_CASE("A refutation for another reason does not count", "[mutation]") {
  const lgc::Mutation& m = lgc::mutation_registry().front();
  lgc::ClaimResult r;
  r.verdict = lgc::Verdict::Refuted;
  r.detail = "a side check failed";
  CHECK_FALSE(lgc::refutes_for_the_stated_reason(m, r));
  r.detail = "... " + m.counterexample + " ...";
  CHECK(lgc::refutes_for_the_stated_reason(m, r));
  r.verdict = lgc::Verdict::Sampled;
  CHECK_FALSE(lgc::refutes_for_the_stated_reason(m, r));
}

TEST_CASE("docs/reliability.md holds the current mutation table", "[mutation][docs]") {
#ifdef LGCHECK_SANITIZED
  // The table reruns every mutation, as "Every mutation is REFUTED ..." does in
  // this build too; whether the committed copy is current is the Release suite's job.
  SUCCEED("compared by the Release suite");
  return;
#endif
  std::ifstream file(lgc::test::source_dir() / "docs" / "reliability.md");
  std::stringstream text;
  text << file.rdbuf();
  INFO("regenerate the table with `build/lgcheck mutations`");
  CHECK(text.str().find(lgc::mutation_table(lgc::test::source_dir() / "cases")) != std::string::npos);
}

namespace {

/// GitHub's heading anchor: lower case, spaces to '-', punctuation dropped.
std::string slug(const std::string& heading) {
  std::string out;
  for (unsigned char ch : heading) {
    if (std::isalnum(ch)) out += static_cast<char>(std::tolower(ch));
    else if (ch == ' ' || ch == '-') out += '-';
    else if (ch >= 0x80) out += static_cast<char>(ch);  // keep UTF-8 letters (γ, …)
  }
  return out;
}

}  // namespace

TEST_CASE("Every claim's docs anchor names a section of docs/theory.md", "[mutation][docs]") {
  std::ifstream file(lgc::test::source_dir() / "docs" / "theory.md");
  std::vector<std::string> anchors;
  for (std::string line; std::getline(file, line);)
    if (line.rfind("#", 0) == 0) anchors.push_back(slug(line.substr(line.find(' ') + 1)));
  for (const auto& claim : lgc::claim_registry()) {
    const std::string prefix = "docs/theory.md#";
    REQUIRE(claim.docs.rfind(prefix, 0) == 0);
    const std::string anchor = claim.docs.substr(prefix.size());
    INFO(claim.id << " points to #" << anchor);
    // The whole anchor, tag included ("[paper]" -> "-paper"), as GitHub renders it.
    CHECK(std::find(anchors.begin(), anchors.end(), anchor) != anchors.end());
  }
}
