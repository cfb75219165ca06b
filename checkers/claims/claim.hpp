#pragma once
// The registry of checked claims: each with a stable id, a one-line
// statement, the semantics it applies to and the docs section proving it.
#include "lgcheck/model/case_file.hpp"
#include "lgcheck/report/verdict.hpp"

#include <functional>
#include <string>
#include <vector>

namespace lgc {

struct Claim {
  std::string id;
  std::string statement;
  std::string semantics;  ///< which semantics the claim is about
  std::string docs;       ///< where docs/ proves or derives it
  std::function<bool(const Case&)> applies;
  std::function<ClaimResult(const Case&)> run;
  /// The trusted re-check of a certificate: like run, but every result of
  /// untrusted search (the z of the construction, a witness found by search)
  /// is taken from the certificate's evidence instead of recomputed.
  std::function<ClaimResult(const Case&, const nlohmann::json& evidence)> replay;
};

/// Every registered claim, in a fixed order.
const std::vector<Claim>& claim_registry();

}  // namespace lgc
