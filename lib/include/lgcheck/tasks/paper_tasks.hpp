#pragma once
// Builders of the concrete models the paper studies, bundled in cases/ and
// used by the tables: ModPTask, SimpleTask (sin readout or ReLU-MLP
// approximation) and a hand-built two-layer induction head.
#include "lgcheck/model/model.hpp"

namespace lgc {

/// ModPTask: alphabet {0,1}, period Δ = p, locality 0; hardmax attends to the
/// positions j ≡ 0 (mod p) and returns the fraction of 1-tokens there.
Model modp_task(std::size_t p, const Semantics& semantics);

enum class SimpleReadout { Sin, ReluMlp };

/// SimpleTask: alphabet {0,1}, Δ = 1, τ = 0, M = 0 (uniform attention), so
/// the head returns q = the fraction of 1-tokens; the output is sin(ω·q)
/// (Sin), or its piecewise-linear interpolation at the rational knots k/(4ω')
/// (ω' = ⌈ω⌉) with values sin(ω·knot) rounded to multiples of 10^{-6}
/// (ReluMlp, a one-hidden-layer ReLU MLP, exact rationals throughout).
Model simple_task(const Rational& omega, SimpleReadout readout);

/// An induction head (two layers, softmax, k = 1) over {a, b}: layer 1 copies
/// the previous token (φ(1) = lambda > 1, position-dominant), layer 2 matches
/// the copied token of each key against the query token with strength beta
/// and averages the one-hot of the matching keys' tokens.
Model induction_head(const Rational& lambda, const Rational& beta);

}  // namespace lgc
