#include "lgcheck/report/verdict.hpp"

namespace lgc {

std::string to_string(Verdict v) {
  switch (v) {
    case Verdict::Proved: return "PROVED";
    case Verdict::Refuted: return "REFUTED";
    case Verdict::Undecided: return "UNDECIDED";
  }
  return "?";
}

VerdictSummary summarise(const std::vector<ClaimResult>& results) {
  VerdictSummary s;
  for (const auto& r : results) {
    if (r.verdict == Verdict::Proved) ++s.proved;
    if (r.verdict == Verdict::Refuted) ++s.refuted;
    if (r.verdict == Verdict::Undecided) ++s.undecided;
  }
  return s;
}

int exit_code(const VerdictSummary& summary) {
  if (summary.refuted > 0) return 1;
  if (summary.undecided > 0) return 3;
  return 0;
}

}  // namespace lgc
