#pragma once
// Lemma 5.3's statistic error split along the lemma's proof, a-posteriori
// [toolkit] (docs/theory.md, "The drift form"). For z = x_I with kept
// positions i_1 < … < i_n, j ranging over z's positions with a bulk
// (j > τ + 1, n_b of them) and every integrand p_k of x (layer2_integrands.hpp):
//
//   E_k = |avg_z p_k − avg_x p_k| <= S_k + 2G·β + L·D,
//
//   S_k = |(1/n_b) Σ_j p_k(x at i_j) − avg_x p_k|   the sampling term (x's own
//         values at the kept positions),
//   β   = (number of j whose window differs from x's window at i_j) / n_b,
//   D   = (1/n_b) Σ_{j, same window} ‖μ̂_j(z) − μ̂_{i_j}(x)‖₁   the histogram drift,
//
// since a kept position with the same window changes p by at most L times
// the change of its histogram (L the integrands' Lipschitz constant in μ̂)
// and any other by at most 2G (|p| <= G). The L term is multiplied by the
// measured drift instead of being charged at the lemma's flat rate.
#include "lgcheck/quantities/layer2_integrands.hpp"

#include <cstdint>
#include <vector>

namespace lgc {

struct DriftForm {
  Number error;             ///< E = max_k E_k (the same as StatisticAverages::error(z))
  std::uint64_t positions;  ///< n_b
  std::uint64_t broken;     ///< positions whose window differs from x's
  Interval drift;           ///< D (each term exact, the sum an enclosure)
  Interval bound;           ///< S_k + 2G·β + L·D at the integrand k that comes closest
  Interval closest_error;   ///< E_k at that k (the pair a verdict's detail compares)
  Rational ratio;           ///< max_k upper(E_k − S_k) / lower(2G·β + L·D): the slack of the G and L terms
  /// The premises, position by position: max over k and the same-window
  /// positions of |p_k(z at j) − p_k(x at i_j)| / (L·‖μ̂_j(z) − μ̂_{i_j}(x)‖₁),
  /// and over the other positions of |p_k(z at j) − p_k(x at i_j)| / (2G)
  /// (upper ends; a ratio above 1 certainly is a broken premise).
  Rational lipschitz_ratio, range_ratio;
  bool premises_fail;       ///< some position's change certainly exceeds its premise
  /// Same-window positions whose premise L·‖Δμ̂‖₁ is below 2G, the a-priori
  /// range: the premises that could fail whatever the integrands are.
  std::uint64_t informative;
  bool holds;               ///< E_k <= S_k + 2G·β + L·D certainly, for every k
  bool fails;               ///< some E_k > S_k + 2G·β + L·D certainly
};

/// The drift form of z = x restricted to `kept` (1-based, increasing, as
/// markov_subsample returns them), with the integrand bounds G and L given
/// explicitly (a mutation passes a wrong one).
DriftForm drift_form(const StatisticAverages& stats, const Tokens& x, const std::vector<std::uint64_t>& kept,
                     const Rational& G, const Rational& L);

}  // namespace lgc
