#include "suite.hpp"

#include "lgcheck/quantities/logit_margin.hpp"

#include <fnmatch.h>

#include <algorithm>

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

std::vector<ClaimResult> check_case(const Case& c, const std::string& glob) {
  std::vector<ClaimResult> results;
  for (const auto& claim : claim_registry())
    if (matches(glob, claim.id) && claim.applies(c)) results.push_back(claim.run(c));
  std::vector<ClaimResult> expectations;
  compare_expected_verdicts(c, results, expectations);
  if (matches(glob, "expect:logit_margin")) compare_expected_margin(c, expectations);
  results.insert(results.end(), expectations.begin(), expectations.end());
  return results;
}

}  // namespace lgc
