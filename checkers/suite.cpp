#include "suite.hpp"

#include "cli_output.hpp"
#include "lgcheck/enumerate/budget.hpp"
#include "lgcheck/quantities/logit_margin.hpp"

#include <fnmatch.h>

#include <algorithm>
#include <optional>
#include <stdexcept>

namespace lgc {
namespace {

bool matches(const std::string& glob, const std::string& id) { return fnmatch(glob.c_str(), id.c_str(), 0) == 0; }

ClaimResult expectation_row(const Case& c, const std::string& what, bool ok, const std::string& detail) {
  ClaimResult r;
  r.id = "expect:" + what;
  r.case_name = c.name;
  r.verdict = ok ? Verdict::Proved : Verdict::Refuted;
  r.detail = detail;
  return r;
}

void compare_expected_verdicts(const Case& c, const std::vector<ClaimResult>& ran, std::vector<ClaimResult>& out) {
  if (!c.expect.contains("verdicts")) return;
  for (const auto& [id, expected] : c.expect["verdicts"].items()) {
    auto it = std::find_if(ran.begin(), ran.end(), [&](const ClaimResult& r) { return r.id == id; });
    if (it == ran.end()) continue;  // filtered out by --claims, or not applicable: nothing to compare
    std::string got = to_string(it->verdict);
    out.push_back(expectation_row(c, id, got == expected.get<std::string>(),
                                  "expected " + expected.get<std::string>() + ", got " + got));
  }
}

void compare_expected_margin(const Case& c, std::vector<ClaimResult>& out) {
  if (!c.expect.contains("logit_margin") || c.is_pair || c.model().semantics.kind == Semantics::Kind::Softmax) return;
  std::string expected = c.expect["logit_margin"].get<std::string>();
  LogitMargin m = logit_margin(c.model());
  std::string got = m.gamma ? to_string(*m.gamma) : "inf";
  bool ok = expected == "inf" ? !m.gamma : (m.gamma && *m.gamma == parse_rational(expected));
  out.push_back(expectation_row(c, "logit_margin", ok, "expected " + expected + ", computed " + got));
}

}  // namespace

std::vector<std::filesystem::path> collect_case_files(const std::vector<std::string>& paths) {
  std::vector<std::filesystem::path> files;
  for (const auto& p : paths) {
    std::filesystem::path path(p);
    if (std::filesystem::is_directory(path)) {
      std::vector<std::filesystem::path> found;
      for (const auto& entry : std::filesystem::recursive_directory_iterator(path))
        if (entry.is_regular_file() && entry.path().extension() == ".json") found.push_back(entry.path());
      std::sort(found.begin(), found.end());
      files.insert(files.end(), found.begin(), found.end());
    } else if (std::filesystem::exists(path)) {
      files.push_back(path);
    } else {
      throw CaseError(p, "", "no such file or directory");
    }
  }
  return files;
}

namespace {

/// The claim on the case under a fresh enumeration budget: past the budget,
/// UNDECIDED with the budget printed.
ClaimResult run_within_budget(const Claim& claim, const Case& c) {
  BudgetScope scope;
  try {
    return claim.run(c);
  } catch (const BudgetExceeded& e) {
    ClaimResult r;
    r.id = claim.id;
    r.case_name = c.name;
    r.verdict = Verdict::Undecided;
    r.detail = std::string("stopped: ") + e.what() + " (raise --budget to decide)";
    r.evidence = {{"budget", describe(enumeration_budget())}};
    return r;
  }
}

}  // namespace

std::vector<ClaimResult> check_case(const Case& c, const std::string& glob) {
  std::vector<ClaimResult> results;
  for (const auto& claim : claim_registry())
    if (matches(glob, claim.id) && claim.applies(c)) results.push_back(run_within_budget(claim, c));
  std::vector<ClaimResult> expectations;
  compare_expected_verdicts(c, results, expectations);
  if (matches(glob, "expect:logit_margin")) compare_expected_margin(c, expectations);
  results.insert(results.end(), expectations.begin(), expectations.end());
  return results;
}

std::vector<CaseResults> check_cases(const std::vector<Case>& cases, const std::string& glob, const Shard& shard,
                                     const std::function<void(std::size_t)>& on_case,
                                     const std::function<void(const Case&, const ClaimResult&)>& on_result) {
  std::vector<CaseResults> out;
  for (std::size_t k = 0; k < cases.size(); ++k) {
    if (!shard.owns(k)) continue;
    if (on_case) on_case(k);
    CaseResults r{k, check_case(cases[k], glob)};
    if (on_result)
      for (const auto& result : r.results)
        if (result.id.rfind("expect:", 0) != 0) on_result(cases[k], result);
    out.push_back(std::move(r));
  }
  return out;
}

nlohmann::json shard_json(const std::vector<CaseResults>& results, const Shard& shard, const std::vector<Case>& cases) {
  nlohmann::json names = nlohmann::json::array(), parts = nlohmann::json::array();
  for (const Case& c : cases) names.push_back(c.name);
  for (const CaseResults& r : results) {
    nlohmann::json claims = nlohmann::json::array();
    for (const ClaimResult& c : r.results) claims.push_back(claim_result_json(c));
    parts.push_back({{"case_index", r.case_index}, {"claims", claims}});
  }
  return {{"format", "lgcheck-shard/1"},
          {"shard", std::to_string(shard.index) + "/" + std::to_string(shard.count)},
          {"cases", names},
          {"results", parts}};
}

std::vector<ClaimResult> merge_shards(const std::vector<nlohmann::json>& parts) {
  if (parts.empty()) throw std::invalid_argument("no shard to merge");
  const nlohmann::json& cases = parts.front().at("cases");
  std::uint64_t count = 0;
  std::vector<bool> seen_shard;
  std::vector<std::optional<std::vector<ClaimResult>>> by_case(cases.size());
  for (const nlohmann::json& part : parts) {
    if (part.value("format", "") != "lgcheck-shard/1")
      throw std::invalid_argument("not a shard of lgcheck check --shard (format lgcheck-shard/1)");
    if (part.at("cases") != cases) throw std::invalid_argument("the shards come from runs over different cases");
    const Shard shard = parse_shard(part.at("shard").get<std::string>());
    if (count == 0) count = shard.count, seen_shard.assign(count, false);
    if (shard.count != count) throw std::invalid_argument("the shards split the run differently (" +
                                                          part.at("shard").get<std::string>() + ")");
    if (seen_shard[shard.index]) throw std::invalid_argument("shard " + part.at("shard").get<std::string>() + " given twice");
    seen_shard[shard.index] = true;
    for (const auto& r : part.at("results")) {
      const std::size_t k = r.at("case_index").get<std::size_t>();
      if (k >= by_case.size() || !shard.owns(k) || by_case[k])
        throw std::invalid_argument("shard " + part.at("shard").get<std::string>() + " reports a case it does not own");
      std::vector<ClaimResult> claims;
      for (const auto& c : r.at("claims")) claims.push_back(claim_result_from_json(c));
      by_case[k] = std::move(claims);
    }
  }
  for (std::uint64_t i = 0; i < count; ++i)
    if (!seen_shard[i]) throw std::invalid_argument("shard " + std::to_string(i) + "/" + std::to_string(count) + " is missing");
  std::vector<ClaimResult> merged;
  for (auto& c : by_case)
    if (c) merged.insert(merged.end(), c->begin(), c->end());
  return merged;
}

}  // namespace lgc
