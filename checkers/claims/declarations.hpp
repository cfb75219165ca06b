#pragma once
// Every claim's declaration (claims/claim.hpp), defined at the end of the
// claim's own file; trust/registry.cpp lists them in the registry's order.
#include "claims/claim.hpp"

namespace lgc {

ClaimDeclaration consistency_declaration();   // claims/section4/S.consistency.cpp
ClaimDeclaration threshold_declaration();     // claims/section4/T4.1.threshold.cpp
ClaimDeclaration norm_declaration();          // claims/section4/L4.L.cpp
ClaimDeclaration simulation_declaration();    // claims/section4/T4.1.sim.cpp
ClaimDeclaration implication_declaration();   // claims/section4/T4.1.lg.cpp
ClaimDeclaration witness_declaration();       // claims/section4/T4.1.witness.cpp
ClaimDeclaration average_declaration();       // claims/average/T4.2.avg.cpp
ClaimDeclaration regularity_declaration();    // claims/average/C4.2.regularity.cpp
ClaimDeclaration convergence_declaration();   // claims/section5/L5.conv.cpp
ClaimDeclaration lipschitz_declaration();     // claims/section5/L5.lip.cpp
ClaimDeclaration kgram_declaration();         // claims/section5/D5.4.kgram.cpp
ClaimDeclaration subsample_declaration();     // claims/section5/L5.3.subsample.cpp
ClaimDeclaration simulation52_declaration();  // claims/section5/T5.2.sim.cpp
ClaimDeclaration witness52_declaration();     // claims/section5/T5.2.witness.cpp

}  // namespace lgc
