#pragma once
// Theorem 4.2 (average case, THEORY.md §2) claims:
//   T4.2.avg          with N₀ = ⌈c·ε^{−2−2/α_min}(1 + ln 1/ε)^k⌉: if
//                     E_t = ‖f − g‖_{t,α} <= ε for every t <= N₀, then
//                     E_T <= C·ε^{1/2} at T = N₀, 2N₀, 4N₀, ...;
//   C4.2.regularity   without regularity no N₀ works: under an input
//                     distribution on Σ_short up to length K and on its
//                     complement after, E_t = 0 for t <= K and η after.
// Each params struct carries the mutation hooks the tests use to break the
// claim on purpose.
#include "lgcheck/average/expectation.hpp"
#include "lgcheck/model/case_file.hpp"
#include "lgcheck/report/verdict.hpp"

#include <cstdint>
#include <optional>

namespace lgc {

inline constexpr const char* kAverageId = "T4.2.avg";
inline constexpr const char* kRegularityId = "C4.2.regularity";

/// The case's Dirichlet prior (check.dirichlet_alpha), nullopt without one.
std::optional<DirichletPrior> case_prior(const Case& c);
/// Pairs of one-layer models, both under hardmax.
bool is_hardmax_pair(const Case& c);
/// Pairs of one-layer hardmax models with a Dirichlet prior and no switch.
bool is_average_case(const Case& c);
/// Pairs of one-layer hardmax models with a prior, a switch length and Σ_short.
bool is_regularity_case(const Case& c);

/// The regularity counterexample's distribution at length T: the prior
/// restricted to Σ_short when T <= K, to its complement after.
struct SwitchingDistribution {
  DirichletPrior prior;
  std::vector<bool> short_alphabet;
  std::uint64_t switch_length = 0;
  DirichletPrior at(std::uint64_t length) const;
};
SwitchingDistribution case_switching_distribution(const Case& c);

struct AverageParams {
  Rational epsilon{1, 4};
  Rational c{1};                       ///< N₀'s hidden constant
  unsigned log_power = 0;              ///< N₀'s log power k
  Rational conclusion_constant{1};     ///< C in E_T <= C·ε^{1/2}
  unsigned doublings = 3;              ///< the conclusion's lengths reach N₀·2^doublings
  std::uint64_t budget = 20000;        ///< the largest length computed
  /// every T in [N₀, N₀·2^doublings] when about this many terms suffice, else T = N₀·2^j
  std::uint64_t term_budget = 1000000;
  std::uint64_t brute_force_length = 8;  ///< cross-check against every string up to here
  bool bound_with_alpha_max = false;   ///< mutation: N₀ from α_max instead of α_min
  bool multiplicities = true;          ///< mutation: expectations without multiplicities
};
AverageParams average_params(const Case& c);
ClaimResult check_average(const Case& c, const AverageParams& params);

struct RegularityParams {
  Rational eta{1};
  std::uint64_t tail = 64;             ///< lengths K+1 .. K+tail are checked after the switch
  std::uint64_t budget = 20000;        ///< the largest length computed
  std::optional<std::uint64_t> claimed_switch;  ///< mutation: claim a different switch length
};
RegularityParams regularity_params(const Case& c);
ClaimResult check_regularity(const Case& c, const RegularityParams& params);

}  // namespace lgc
