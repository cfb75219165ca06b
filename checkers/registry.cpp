#include "claim.hpp"
#include "consistency.hpp"

namespace lgc {
namespace {

bool is_one_layer_model(const Case& c) {
  return !c.is_pair && c.model().layers.size() == 1 && c.model().semantics.kind != Semantics::Kind::Softmax;
}

}  // namespace

const std::vector<Claim>& claim_registry() {
  static const std::vector<Claim> claims = {
      {kConsistencyId,
       "one-layer models: finite:p equals hardmax at every query position i >= 2^{p/gamma}",
       "finite:p vs hardmax", "docs/theory.md#hardmax-threshold", is_one_layer_model,
       [](const Case& c) {
         ClaimResult r = check_consistency(c.model(), consistency_params(c));
         r.case_name = c.name;
         return r;
       }},
  };
  return claims;
}

}  // namespace lgc
