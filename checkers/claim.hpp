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
};

/// Every registered claim, in a fixed order.
const std::vector<Claim>& claim_registry();

}  // namespace lgc
