#pragma once
// Beyond exact reach: a Monte Carlo estimate of ‖f − g‖_{T,α} with a
// Hoeffding confidence interval. Strings are drawn exactly from the
// Dirichlet-multinomial by the Pólya urn (integer arithmetic, no floating
// point), |f − g|∞ is evaluated exactly per sample, and the interval is
// mean ± B·sqrt(ln(2/δ)/(2n)) with B a certified bound on |f − g|∞. It is an
// estimate at confidence 1 − δ, never a verdict.
#include "lgcheck/average/dirichlet.hpp"
#include "lgcheck/semantics/one_layer.hpp"

#include <algorithm>
#include <random>

namespace lgc {

/// x_1..x_T from the Pólya urn of the prior: P(x_{t+1} = s | x_1..x_t) =
/// (α_s + n_s)/(α₀ + t), exactly (integer weights over a common denominator).
Tokens sample_dirichlet_string(const DirichletPrior& prior, std::uint64_t length, std::mt19937_64& rng);

struct MonteCarloEstimate {
  std::uint64_t samples = 0;
  Rational delta;                ///< the interval holds with probability >= 1 − δ
  Rational range;                ///< B: certified |f − g|∞ <= B
  Rational mean_lower, mean_upper;  ///< the sample mean (equal unless outputs are enclosures)
  Rational half_width;           ///< an upper bound of B·sqrt(ln(2/δ)/(2n))
  /// The interval, clipped to [0, B] where |f − g|∞ lives.
  Rational lower() const { return std::max(Rational(0), Rational(mean_lower - half_width)); }
  Rational upper() const { return std::min(range, Rational(mean_upper + half_width)); }
};

MonteCarloEstimate monte_carlo_distance(const OneLayerEvaluator& f, const OneLayerEvaluator& g,
                                        const DirichletPrior& prior, std::uint64_t length, std::uint64_t samples,
                                        std::uint64_t seed, const Rational& delta, const Rational& range,
                                        unsigned bits = kDefaultPrecisionBits);

}  // namespace lgc
