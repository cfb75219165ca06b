#pragma once
// Section 5 claims (two layers, softmax with ln i scaling, THEORY.md §3):
//   L5.conv  |Y_i − Φ(window_i, μ̂_i)|∞ <= K·i^{−min(γ,1)} for i >= 2(τ+1),
//            on every input up to a length and on long random inputs;
//   L5.lip   ‖Φ(w, μ̂) − Φ(w, μ̂')‖∞ <= Lip·‖μ̂ − μ̂'‖₁ on sampled pairs,
//            including the near-vertex pairs where the bound is nearly met;
//   D5.4.kgram      the k-gram construction within ε of f* (length >= T₀);
//   L5.3.subsample  the Markov subsampler meets Lemma 5.3's rate;
//   T5.2.sim        the subsampled z within the simulation-error bound and
//                   within C(f)·n^{−min(γ,1/3)} when it is c-good.
// Each params struct carries the mutation hooks the tests use to break the
// claim on purpose.
#include "lgcheck/model/case_file.hpp"
#include "lgcheck/model/input.hpp"
#include "lgcheck/quantities/simulation_bound.hpp"
#include "lgcheck/report/verdict.hpp"
#include "lgcheck/semantics/forward.hpp"
#include "lgcheck/semantics/softmax_layer1.hpp"

#include <cstdint>
#include <functional>
#include <random>
#include <vector>

namespace lgc {

inline constexpr const char* kConvergenceId = "L5.conv";
inline constexpr const char* kLipschitzId = "L5.lip";

/// A model case whose semantics is softmax.
bool is_softmax_model(const Case& c);

struct ConvergenceParams {
  std::uint64_t max_length = 12;       ///< every string up to this length (shortened until S^n <= 4096)
  std::size_t random_inputs = 2;       ///< long random inputs, lengths 10^3, 10^4, 10^5, 10^5, ...
  std::uint64_t max_random_length = 100000;
  std::uint64_t seed = 1;
  bool with_bulk = true;               ///< mutation: γ without the element 1 of P_h
  Rational bound_scale{1};             ///< mutation: the bound (K) multiplied by this
};
ConvergenceParams convergence_params(const Case& c);
ClaimResult check_convergence(const Case& c, const ConvergenceParams& params);

struct LipschitzParams {
  std::size_t random_pairs = 500;
  std::uint64_t seed = 1;
  bool with_exponential = true;        ///< mutation: Lip without e^{Δℓ}
  bool claim_zero = false;             ///< mutation: Lip claimed 0 (Phi independent of the histogram)
};
LipschitzParams lipschitz_params(const Case& c);
ClaimResult check_lipschitz(const Case& c, const LipschitzParams& params);

}  // namespace lgc

namespace lgc {

inline constexpr const char* kKgramId = "D5.4.kgram";

/// A softmax model case naming a k-gram task (check.kgram_k).
bool is_kgram_case(const Case& c);

struct KgramParams {
  std::size_t k = 1;
  Rational epsilon{1, 2}, rho{1, 2};
  std::uint64_t max_length = 18;            ///< every input of length T₀..max_length within the budget
  std::uint64_t exhaustive_budget = 1u << 15;  ///< strings, summed over the exhaustive lengths
  std::size_t random_inputs = 40;           ///< lengths T₀, T₀+1, ... and 10^3, 10^4
  std::size_t hard_lengths = 3;             ///< the constructed hard inputs at T₀ .. T₀ + hard_lengths − 1
  std::uint64_t max_random_length = 10000;
  std::uint64_t seed = 1;
  bool from_min_length = true;              ///< mutation: check every length from k+1 (ignoring T₀)
};
KgramParams kgram_params(const Case& c);
ClaimResult check_kgram(const Case& c, const KgramParams& params);

}  // namespace lgc

namespace lgc {

inline constexpr const char* kSubsampleId = "L5.3.subsample";

/// Two alternating symbols with 10% noise: x has few windows, and a block
/// boundary of z joins two blocks at a random phase, creating windows x
/// rarely has — a bias of order (boundaries / n) ≍ n^{−1/3}, the adversarial
/// case for Lemma 5.3's rate.
Tokens noisy_periodic_input(std::size_t S, std::uint64_t T, std::mt19937_64& rng);

/// An error of the subsampled z against n, measured: for each target n
/// (below |x|), the mean over seeds 1..`seeds` of error(z), and the
/// least-squares slope of mean ln error against mean ln |z|. Computed in
/// double: a measurement to report beside a proven rate, never a verdict.
struct ErrorCurve {
  struct Point {
    std::uint64_t n;
    double length, error, log_length, log_error;
  };
  std::vector<Point> points;
  double slope = 0;  ///< meaningful when points.size() >= 2
};
ErrorCurve subsample_error_curve(const Tokens& x, const std::vector<std::uint64_t>& targets, std::uint64_t seeds,
                                 const Model& m, const std::function<double(const Tokens&)>& error);

/// A softmax model case with two layers.
bool is_two_layer_softmax(const Case& c);

struct SubsampleParams {
  Rational constant{1};            ///< c in E <= c·(G + L)(τ+1)·n^{−rate}
  Rational rate{1, 3};             ///< mutation: 1/2
  Rational drift_L_scale{1};       ///< L in the drift form multiplied by this (mutation: 0, the drift term dropped)
  Rational drift_G_scale{1};       ///< G in the drift form multiplied by this (mutation: 1/4)
  std::uint64_t seeds = 8;         ///< seeds tried per (x, n)
  std::uint64_t seed = 1;          ///< for the inputs x
  std::uint64_t max_length = 10000;   ///< the longest x (check.subsample_length; 10^5 adds n = 10^4)
};
SubsampleParams subsample_params(const Case& c);
ClaimResult check_subsample(const Case& c, const SubsampleParams& params);

}  // namespace lgc

namespace lgc {

inline constexpr const char* kSimulation52Id = "T5.2.sim";

/// A long input of the family (T5.2.sim's x): uniform over the alphabet, 1s
/// at rate 1/K among 0s, a single 1 among 0s (at a uniform position before the
/// last tenth, so that the subsampler may drop it), or 0s with a 1 at the last
/// position (the query: every z keeps it, and the bulk is the same in x and z).
Tokens family_input(const InputFamily& family, std::size_t S, std::uint64_t T, std::mt19937_64& rng);

/// Pairs of two-layer softmax models the simulation-error bound covers.
bool is_simulation52_case(const Case& c);

struct Simulation52Params {
  Rational epsilon{1, 10};
  std::uint64_t length = 10000;      ///< |x| (check.simulation_length)
  std::uint64_t seed = 1;            ///< for the inputs x
  std::uint64_t seeds = 8;           ///< subsampler seeds tried until z is c-good
  Rational subsample_constant{1};    ///< c of C(f) and of the c-good premise (check.subsample_constant)
  /// check.simulation_inputs; default uniform, rate:1/20, rate:1/400 (uniform only when S > 2)
  std::vector<InputFamily> inputs;
  /// mutations of the a-posteriori bound: without e^{A_g}, second-layer window keys counted once (W_L = τ + 1),
  /// z from the position-wise chain (any |z| mod Δ) taken as if its query window had x's residues, or Lip_out
  /// without the second MLP's factor
  SimulationBoundTerms bound_terms;
  bool complexity_with_exponential = true;  ///< mutation: C(f) without e^{A_g}
};
Simulation52Params simulation52_params(const Case& c);
ClaimResult check_simulation52(const Case& c, const Simulation52Params& params);

}  // namespace lgc

namespace lgc {

inline constexpr const char* kWitness52Id = "T5.2.witness";

/// Pairs of softmax models of one or two layers whose case names a witness (check.witness_n).
bool is_witness52_case(const Case& c);
/// Why the output of `m` at the last position may depend on more than that position's statistic (a head after
/// the first layer with a non-zero value); empty when it cannot.
std::string statistic_obstacle(const Model& m);
/// The largest |f − g| T5.2.witness accepts as agreement: 2^-64.
Rational witness52_tolerance();
/// The output at the last position of a model whose heads after the first layer have value 0 (they add 0): the
/// later MLPs and the readout applied to the first layer's output at T, a function of T's statistic.
Output witness52_output(const SoftmaxFirstLayer& first, const Tokens& x);

struct WitnessParams;
/// T5.2.witness (docs/theory.md, "A witness family for the positional margin"): |f − g| <= 2^-64 at every
/// statistic of length <= n, certified; |f − g| >= η at a statistic of length check.witness_length.
ClaimResult check_witness52(const Case& c, const WitnessParams& params);

}  // namespace lgc
