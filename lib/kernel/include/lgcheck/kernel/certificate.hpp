#pragma once
// The kernel's certificate check: recompute from the certificate's own case every constant its evidence records that
// the kernel knows, and re-establish its witnesses with the kernel's forward pass (docs/kernel.md).
#include "lgcheck/kernel/detail.hpp"

#include <nlohmann/json.hpp>

#include <cstddef>
#include <string>
#include <vector>

namespace lgc::kernel {

struct CertificateReport {
  std::vector<std::string> problems;           ///< "evidence.L: recorded 1000000, recomputed 1"
  std::vector<std::string> reestablished;      ///< recomputed and agreeing ("evidence.L", "witness 0 (norm_pair)")
  std::vector<std::string> not_reestablished;  ///< what the kernel left unchecked, with why
  std::size_t witnesses_checked = 0;           ///< witnesses re-established or rejected
  DetailFacts detail_facts;                    ///< the detail's numbers the check derived (check_detail's facts)
  bool accepted() const { return problems.empty(); }
};

/// Check one `lgcheck-certificate/1` document. Never throws: a missing or
/// mistyped field, an absurd size or a refused case is a problem.
CertificateReport check_certificate(const nlohmann::json& certificate);

}  // namespace lgc::kernel
