#pragma once
// The registry of checked claims: every claim's declaration
// (claims/declarations.hpp), collected in a fixed order.
#include "claims/claim.hpp"

#include <vector>

namespace lgc {

/// Every claim's declaration, in the registry's order.
const std::vector<ClaimDeclaration>& claim_declarations();

/// Every registered claim, in a fixed order.
const std::vector<Claim>& claim_registry();

}  // namespace lgc
