#include "trust/registry.hpp"

#include "claims/declarations.hpp"

namespace lgc {

const std::vector<ClaimDeclaration>& claim_declarations() {
  static const std::vector<ClaimDeclaration> declarations = {
      consistency_declaration(), threshold_declaration(),   norm_declaration(),        simulation_declaration(),
      implication_declaration(), witness_declaration(),     average_declaration(),     regularity_declaration(),
      convergence_declaration(), lipschitz_declaration(),   kgram_declaration(),       subsample_declaration(),
      simulation52_declaration(), witness52_declaration(),
  };
  return declarations;
}

const std::vector<Claim>& claim_registry() {
  static const std::vector<Claim> claims = [] {
    std::vector<Claim> all;
    for (const ClaimDeclaration& d : claim_declarations()) all.push_back(d.claim);
    return all;
  }();
  return claims;
}

}  // namespace lgc
