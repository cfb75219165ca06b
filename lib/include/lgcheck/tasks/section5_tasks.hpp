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

/// A pair of two-layer softmax models over {0, 1} (Δ = 1, τ = 0) for the
/// simulation-error bound: layer 1 averages uniformly and writes
/// `copy`·[key is 1] into the output slot; layer 2 scores a key ±a (+a for
/// a 1) and reads [key is 1] into the output slot, so f ≈ π e^{2a}/(π e^{2a}
/// + 1 − π) with π the fraction of 1s. g is f with the second value map
/// scaled by 1 + eta. Small a and copy give a non-vacuous bound; a = 3,
/// copy = 0 puts the output's sensitivity at e^{2a} when 1s are rare.
struct SoftmaxPair {
  Model f, g;
};
/// The first layer of attention_pair beyond the default (τ = 0, uniform):
/// locality τ, a content score `score`·[key is 1] and the positional term
/// φ(t) = `phi` on the window slots t = 1..τ (φ(0) = 0), which sets the
/// first layer's regime (token-dominant below 1, balanced at 1, position-
/// dominant above). The second layer keeps φ = 0.
struct AttentionFirstLayer {
  std::size_t locality = 0;
  Rational score = 0;
  Rational phi = 0;
};
SoftmaxPair attention_pair(const Rational& a, const Rational& copy, const Rational& eta,
                           const AttentionFirstLayer& first_layer = {});

}  // namespace lgc
