#pragma once
// The average-case distance of Theorem 4.2 (THEORY.md §2):
//   ‖f − g‖_{T,α} = E_{x ~ DirMult(T, α)} |f(x) − g(x)|∞
// for two one-layer models under hardmax, exactly (a rational when the
// readouts are rational, a certified enclosure otherwise).
//
// expected_distance sums over "top patterns" instead of statistics: under
// hardmax each head's output depends only on the top level set it attends
// to and the counts inside it, so classes above the level are absent, the
// level's classes are enumerated and every class below is a free filler
// whose counts are summed out in closed form by Dirichlet aggregation. The
// cost per length is the number of attainable top-level count vectors (T/Δ
// for ModPTask pairs, T for the Farey pairs) instead of the number of
// statistics (about T^{SΔ−1}).
#include "lgcheck/average/dirichlet.hpp"
#include "lgcheck/semantics/one_layer.hpp"

#include <functional>

namespace lgc {

struct ExpectationOptions {
  unsigned bits = kDefaultPrecisionBits;  ///< precision of enclosures (sin readouts)
  /// false drops the multinomial multiplicities of the statistics and
  /// renormalises the weights to sum to 1: wrong on purpose, so the mutation
  /// suite can show that the checker catches it by the theorem's inequality.
  bool multiplicities = true;
  /// Called every few thousand terms with the number summed so far.
  std::function<void(std::uint64_t terms)> progress;
};

struct Expectation {
  Number value;              ///< E|f − g|∞
  Rational mass;             ///< total probability of the terms summed (exactly 1 when correct)
  std::uint64_t terms = 0;   ///< terms of positive probability summed
};

/// E|f(x) − g(x)|∞ over x ~ DirMult(T, α) by top patterns (see above). f and
/// g must be one-layer evaluators of the same shape.
Expectation expected_distance(const OneLayerEvaluator& f, const OneLayerEvaluator& g, DirichletMoments& moments,
                              std::uint64_t length, const ExpectationOptions& options = {});

/// The same expectation by enumerating every statistic with its probability
/// (a slower, independent route; T small). Under a rounding `semantics`
/// (finite:p, finite-weights:p) each statistic is evaluated with it
/// (OneLayerEvaluator::evaluate_rounded): E_T under that semantics.
Number expected_distance_by_statistics(const OneLayerEvaluator& f, const OneLayerEvaluator& g,
                                       const DirichletPrior& prior, std::uint64_t length,
                                       unsigned bits = kDefaultPrecisionBits,
                                       const Semantics& semantics = Semantics::hardmax());

/// The same expectation by brute force: every string, its probability, and
/// the trusted forward pass of both models (hardmax). S^T strings.
Number expected_distance_by_strings(const Model& f, const Model& g, const DirichletPrior& prior, std::uint64_t length,
                                    unsigned bits = kDefaultPrecisionBits);

}  // namespace lgc
