#pragma once
// Two-layer softmax models built for Section 5's checks (THEORY.md §3).
#include "lgcheck/model/model.hpp"

namespace lgc {

/// A two-layer softmax model over {0, 1} (Δ = 1, τ = 1) whose first head
/// weighs the previous token by i^{φ₁} (φ = (0, φ₁)) and scores a key
/// holding 1 with the content logit `content`; it writes [key is 1] into
/// the output slot. φ₁ < 1, = 1, > 1 give the token-dominant, balanced and
/// position-dominant regimes. The second layer averages the output slot
/// uniformly; the readout returns it.
Model regime_model(const Rational& phi1, const Rational& content);

}  // namespace lgc
