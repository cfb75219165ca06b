#pragma once
// Verdicts of checked claims (THEORY.md §4) and the exit code they imply.
#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace lgc {

enum class Verdict { Proved, Refuted, Undecided };

std::string to_string(Verdict v);

/// One claim checked on one case.
struct ClaimResult {
  std::string id;         ///< stable claim id, e.g. "S.consistency"
  std::string case_name;  ///< the case's name
  Verdict verdict = Verdict::Undecided;
  std::string detail;  ///< one line: what was checked, or the counterexample
  nlohmann::json evidence = nlohmann::json::object();  ///< witnesses, parameters
};

struct VerdictSummary {
  std::size_t proved = 0, refuted = 0, undecided = 0;
};

VerdictSummary summarise(const std::vector<ClaimResult>& results);

/// 0 all proved, 1 something refuted, 3 undecided and nothing refuted.
int exit_code(const VerdictSummary& summary);

}  // namespace lgc
