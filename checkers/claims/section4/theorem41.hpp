#pragma once
#include <optional>
// Section 4 claims (one layer, finite precision, ℓ∞):
//   T4.1.threshold  finite:p = hardmax at every T >= 2^{p/γ}, with a
//                   certified below-threshold witness where they differ;
//   L4.L            |f(x) − f(z)|∞ <= L(f)·max_h ‖ω_h(x) − ω_h(z)‖₁;
//   T4.1.sim        the construction's z: error <= ε and |z| <= N_sim.
// Each params struct carries the mutation hooks the tests use to break the
// claim on purpose.
#include "claims/case_models.hpp"
#include "claims/claim.hpp"
#include "lgcheck/quantities/norm_constant.hpp"
#include "lgcheck/quantities/distance.hpp"
#include "lgcheck/report/verdict.hpp"

#include <cstdint>
#include <functional>
#include <map>
#include <string>

namespace lgc {

inline constexpr const char* kThresholdId = "T4.1.threshold";
inline constexpr const char* kNormId = "L4.L";
inline constexpr const char* kSimulationId = "T4.1.sim";

struct ThresholdParams {
  unsigned p = 3;
  std::uint64_t exhaustive_span = 8;           ///< lengths t .. t+span, exhaustively over statistics
  std::uint64_t statistic_budget = 200000;     ///< skip a length with more statistics than this
  std::size_t random_inputs = 200;             ///< random statistics at lengths >= t
  std::size_t witness_tries = 4000;            ///< random statistics tried at T = t − 1
  /// check.threshold_sharp: the case asserts that t is the first length where
  /// finite:p = hardmax (its margin is realised at T = t − 1), so no difference
  /// at t − 1 is a refutation; otherwise it is reported, t being sufficient.
  bool require_sharp = false;
  std::uint64_t seed = 1;
  /// The rule claimed for the threshold (mutations: 2^p/γ, halved, ...).
  std::function<Integer(unsigned, const Rational&)> threshold;
  /// finite-weights:p (the case's semantics): the normalised weights round,
  /// and the claim is agreement on the window t <= T <= 2^p − 1 only.
  bool normalised_weights = false;
  /// The window's claimed last length (mutations); 2^p − 1 when unset.
  std::function<Integer(unsigned)> window_end;
};
ThresholdParams threshold_params(const Case& c);
/// Statistics count positions in 64 bits; lengths are kept below 2^62 so
/// sums and doublings cannot wrap. A threshold beyond it cannot be checked:
/// the claim is UNDECIDED with this result (nullopt when t fits).
constexpr std::uint64_t kLongestStatistic = 1ull << 62;
std::optional<ClaimResult> threshold_beyond_statistics(const std::string& claim_id, const Case& c, const Integer& t);

ClaimResult check_threshold(const Case& c, const ThresholdParams& params);

struct NormParams {
  std::uint64_t max_length = 10;   ///< all pairs of statistics up to this length
  std::size_t max_pairs = 20000;
  std::size_t random_pairs = 500;  ///< long random x against its simulation and a random z
  std::uint64_t seed = 1;
  NormOptions norm;                ///< mutation: drop the MLP term
};
NormParams norm_params(const Case& c);
ClaimResult check_norm(const Case& c, const NormParams& params);

/// L4.L at one pair of statistics: |f(x) − f(z)|∞ against L·max_h ‖ω_h(x) − ω_h(z)‖₁ (docs/theory.md, "Norm
/// constant L"), as the claim measures it and as replay re-checks a recorded norm_pair witness.
struct NormPairMeasure {
  Number error;               ///< |f(x) − f(z)|∞; the exact 0 when the representations before the readout agree
  Rational distance;          ///< max_h ‖ω_h(x) − ω_h(z)‖₁
  std::optional<int> order;   ///< error against L·distance; nullopt when undecided
};
NormPairMeasure measure_norm_pair(const OneLayerEvaluator& m, const Rational& L, const Statistic& x,
                                  const Statistic& z);

struct SimulationParams {
  Rational epsilon{1, 10};
  std::uint64_t max_length = 12;       ///< every statistic up to this length (within the budget)
  std::uint64_t statistic_budget = 200000;
  std::size_t random_inputs = 1000;    ///< random long inputs
  bool hard_inputs = true;             ///< the error lemma's constructed inputs (samples beyond the domain)
  std::uint64_t max_random_length = 1000000;
  std::uint64_t seed = 1;
  Rational length_bound_scale{1};      ///< mutation: N_sim halved
  bool drop_padding = false;           ///< mutation: N_sim without the 2^{p/γ} padding term
  Integer resolution_override = 0;     ///< mutation: a smaller Q in the construction
  Rational resolution_scale{1};        ///< mutation: Q multiplied by this in the construction (N_sim kept)
  bool no_intervals = false;           ///< mutation: the construction keeps no head's ratios (as if one value)
  std::uint64_t max_exhaustive_inputs = 20000;  ///< stop adding exhaustive lengths beyond this many inputs
  /// Replay: the z of every x (keyed by statistic_to_json(x).dump()) instead
  /// of running the construction.
  const std::map<std::string, Statistic>* recorded = nullptr;
};
SimulationParams simulation_params(const Case& c);
ClaimResult check_simulation(const Case& c, const SimulationParams& params);

/// Trusted re-checks from a certificate's evidence (no search): the recorded
/// z of every input for T4.1.sim, the recorded pairs for L4.L, the recorded
/// witness for T4.1.threshold. Witnesses are verified by the certificate code.
ClaimResult replay_simulation(const Case& c, const nlohmann::json& evidence);

}  // namespace lgc

namespace lgc {

inline constexpr const char* kImplicationId = "T4.1.lg";
inline constexpr const char* kWitnessId = "T4.1.witness";

/// The bracket D(n) <= D∞ <= min(upper bounds) of a pair.
struct DistanceBracket {
  Number lower;                      ///< D(reached)
  std::uint64_t reached = 0;
  std::optional<Rational> upper;     ///< the best certified upper bound
  std::string upper_source;          ///< which bound gave it
  nlohmann::json evidence = nlohmann::json::object();
};
DistanceBracket distance_bracket(const CaseModels& cm, const DistanceCurve& curve);

struct ImplicationParams {
  Rational epsilon{1, 10};
  std::uint64_t max_length = 40;
  Rational conclusion_factor{3};  ///< mutation: a smaller factor than the theorem's 3
};
ImplicationParams implication_params(const Case& c);
ClaimResult check_implication(const Case& c, const ImplicationParams& params);

struct WitnessParams {
  std::uint64_t n = 0;          ///< agreement claimed on all lengths <= n (from the case)
  std::uint64_t differ_by = 0;  ///< a difference claimed at a length <= this (default 2n)
  Rational eta{0};              ///< the difference claimed
};
WitnessParams witness_params(const Case& c);
/// The two breaks of a witness family member (gamma as text, its case file):
/// agreement claimed one length further (its first differing length N), and
/// the difference claimed twice as large; for T4.1.witness and T5.2.witness.
std::vector<Mutation> witness_member_mutations(const char* claim, ClaimResult (*check)(const Case&, const WitnessParams&),
                                               const std::string& family, const std::string& gamma, const char* file);
ClaimResult check_witness(const Case& c, const WitnessParams& params);

}  // namespace lgc
