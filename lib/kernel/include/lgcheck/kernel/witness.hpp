#pragma once
// Witnesses recorded in certificates, re-established with the kernel's own
// forward pass on one explicit string per statistic (docs/kernel.md).
#include "lgcheck/kernel/forward.hpp"
#include "lgcheck/model/case_file.hpp"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <memory>
#include <string>
#include <variant>
#include <vector>

namespace lgc::kernel {

class Construction;

/// Statistics longer than this are not expanded (their witnesses are not re-established, never rejected).
constexpr std::uint64_t kMaxExpandedLength = 1000000;
/// All witnesses of one certificate together expand at most this many positions.
constexpr std::uint64_t kExpansionBudget = 100000000;
/// Of the witnesses that budget does not reach, kLongSamples drawn by the kernel's seed are checked within
/// kLongSampleBudget more positions (docs/kernel.md "Witnesses beyond the budget").
constexpr std::size_t kLongSamples = 16;
constexpr std::uint64_t kLongSampleBudget = 20000000;
/// Longer recorded lengths are refused as absurd: 2^62, the longest statistic the search represents.
constexpr std::uint64_t kMaxStatisticLength = std::uint64_t{1} << 62;

/// σ(x) of theory.md §2 "Sufficient statistic": T, the window x_{T−τ..T} (min(T, τ+1) tokens) and the bulk counts
/// n_{s,r}, index s·Δ + r, of the positions j <= T − τ − 1 with x_j = s and j ≡ r (mod Δ).
struct Statistic {
  std::uint64_t length = 0;
  Tokens window;
  std::vector<std::uint64_t> counts;
};

/// m_r(B): the number of j in 1..B with j ≡ r (mod Δ).
std::uint64_t residue_count(std::uint64_t B, std::size_t r, std::size_t period);
/// Read {"length", "window", "counts"} and check it is the statistic of some string for this model; else why not.
std::variant<Statistic, std::string> read_statistic(const nlohmann::json& j, const Model& model);
/// One string with statistic σ: each residue's bulk positions, in order, take its classes' tokens grouped by token;
/// then the window.
Tokens expand(const Statistic& sigma, const Model& model);

/// max_k |a_k − b_k| as a certified [lo, hi]: lo > 0 when they certainly differ, [0, 0] when exactly equal.
struct Bracket { Rational lo, hi; };
Bracket difference_bracket(const Values& a, const Values& b);
/// The bracket of a rounding semantics (finite:p, finite-weights:p) against hardmax at x's last representation, and
/// of |f(x) − g(x)|∞ for a pair case.
Bracket rounding_gap(const Model& m, const Tokens& x, Semantics rounding, unsigned bits = 128);
Bracket pair_gap(const Case& c, const Tokens& x, unsigned bits = 128);
/// pair_gap, and whether it is exact (then lo = hi is the value): every output of both models an exact rational,
/// or the two readouts one activation (sin of one ω, or none) of equal arguments U y + u, the exact 0.
struct StringGap {
  Bracket d;
  bool exact;
};
StringGap string_gap(const Case& c, const Tokens& x, unsigned bits = 128);
/// The longest string expanded for m (multi-layer models cost T² per layer: expand less).
std::uint64_t expansion_limit(const Model& m);

enum class WitnessStatus { Reestablished, Rejected, NotReestablished };
struct WitnessResult {
  WitnessStatus status = WitnessStatus::Rejected;
  std::string why;           ///< for a rejection or a witness left unchecked
  bool over_budget = false;  ///< left unchecked because the certificate's budget of positions was spent
  bool violated = false;     ///< rejected because the property certainly fails (not merely undecided)
  bool constructed = false;  ///< a simulation witness whose z is the kernel's construction of x
  Rational distance = 0;     ///< when constructed: the error lemma's max_h ‖ω_h(x) − ω_h(z)‖₁
};

/// What the witnesses are checked against: all recomputed by the kernel.
struct WitnessContext {
  const Case* c = nullptr;
  std::vector<std::optional<Rational>> L;  ///< L(f) per model (the kernel's own)
  std::vector<Integer> threshold;          ///< ⌈2^{p/γ}⌉ per model (1 without rounding)
  std::vector<unsigned> p;                 ///< the rounding bits per model (semantics or check)
  std::vector<Semantics> rounding;         ///< the rounding semantics per model compared with hardmax
  std::optional<Rational> epsilon;         ///< for simulation witnesses
  std::optional<Integer> n_sim;            ///< N_sim(ε)
  std::optional<Rational> delta;           ///< δ = simulation_delta(ε), the error lemma's bound
  Integer resolution = 1, padding = 1;     ///< the construction's Q and padding length t
  mutable std::shared_ptr<const Construction> construction;  ///< built from them at the first simulation witness
  unsigned bits = 128;
  mutable std::uint64_t positions_left = kExpansionBudget;  ///< charged by every expansion
};

/// L4.L at one pair (same window and residue): |f(x) − f(z)|∞ <= L·max_h ‖ω_h(x) − ω_h(z)‖₁, ω_h summed
/// per bulk class and window slot, under semantics s (theory.md §2 "Norm constant L"; the claim's is hardmax, which
/// the norm_pair witnesses and the kernel's drawn pairs use).
WitnessResult norm_inequality(const Model& m, const Rational& L, const Tokens& x, const Tokens& z, Semantics s,
                              unsigned bits = 128);
/// The case's simulation construction (Q = ctx.resolution, t = ctx.padding), tabulated at the first use.
const Construction& construction_of(const WitnessContext& ctx);
/// T4.1.sim at x and z, z the construction's z of x: the error lemma's max_h ‖ω_h(x) − ω_h(z)‖₁ <= δ, |z| <= N_sim
/// and |f(x) − f(z)|∞ <= ε (x and z expanded, charged to ctx.positions_left: beyond it, not re-established with
/// over_budget set). ctx needs ε, N_sim and δ.
WitnessResult constructed_simulation(const WitnessContext& ctx, const Statistic& x, const Statistic& z);
/// Re-establish one witness (finite_differs, string_differs, simulation, norm_pair, pair_distance). Never throws.
/// A simulation or norm_pair witness with "expect": "violates" is re-established when its property certainly fails
/// (a counterexample), rejected when the property holds, and left not re-established when neither is certain.
WitnessResult check_witness(const nlohmann::json& w, const WitnessContext& ctx);

}  // namespace lgc::kernel
