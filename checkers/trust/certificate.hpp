#pragma once
// Certificates of checked claims (`lgcheck check --certificates DIR`) and
// their replay (`lgcheck replay CERT`): the canonical case, its digest, the
// parameters, the toolkit version and the witnesses; replay re-verifies every
// witness with the trusted evaluation only (no search), then re-runs the
// claim from the certificate's case and compares the verdict.
#include "lgcheck/model/case_file.hpp"
#include "lgcheck/report/verdict.hpp"

#include <filesystem>
#include <string>
#include <vector>

namespace lgc {

constexpr const char* kCertificateFormat = "lgcheck-certificate/1";

/// FNV-1a (64 bits) of the canonical case text, in hex: detects an altered
/// case; it is not a cryptographic signature.
std::string case_digest(const Case& c);

nlohmann::json make_certificate(const Case& c, const ClaimResult& result);
/// Writes DIR/<case>__<claim>.json (atomically); returns the path.
std::filesystem::path write_certificate(const std::filesystem::path& dir, const Case& c, const ClaimResult& result);

struct ReplayResult {
  bool accepted = false;
  std::vector<std::string> problems;  ///< what does not match, one line each
  std::size_t witnesses_checked = 0;
  std::size_t kernel_reestablished = 0;  ///< constants and witnesses the trusted kernel re-established
  /// A record the search's budget stopped: re-run under its item budget, or (a time budget) not reproducible.
  enum class BudgetStop { None, Reproduced, TimeNotReproduced } budget_stop = BudgetStop::None;
};

/// Thread-safe: replays may run on several threads (a budget-stopped record's, which sets the process-wide
/// enumeration budget, runs alone).
ReplayResult replay_certificate(const nlohmann::json& certificate);

}  // namespace lgc
