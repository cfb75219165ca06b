#pragma once
// Two-layer softmax models built for Section 5's checks (THEORY.md §3).
#include "lgcheck/model/model.hpp"

#include <cstdint>
#include <string>

namespace lgc {

/// A two-layer softmax model over {0, 1} (Δ = 1, τ = 1) whose first head
/// weighs the previous token by i^{φ₁} (φ = (0, φ₁)) and scores a key
/// holding 1 with the content logit `content`; it writes [key is 1] into
/// the output slot. φ₁ < 1, = 1, > 1 give the token-dominant, balanced and
/// position-dominant regimes. The second layer averages the output slot
/// uniformly; the readout returns it.
Model regime_model(const Rational& phi1, const Rational& content);

/// A pair of two-layer softmax models over {0, 1} (by default Δ = 1, τ = 0) for the
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
/// dominant above).
struct AttentionFirstLayer {
  std::size_t locality = 0;
  Rational score = 0;
  Rational phi = 0;
};
/// The shape of attention_pair beyond the default (period 1, second-layer
/// φ = 0, one head per layer, no MLP): `second_phi` puts the second layer's positional term
/// φ(t) = second_phi on the key at offset t = `second_phi_offset` <= τ from the query (the
/// query's own key by default; below 1 the second layer is token-dominant, 1 balanced,
/// above 1 position-dominant);
/// `period` Δ with positional encodings p_r = (0, r·s, 0, r·s), s the
/// residue shift: a key at residue r reads as r·s more of a 1 (its
/// second-layer score and value, and the first layer's copy, change with r),
/// and the query's residue adds r·s to the output slot. `two_heads` adds a
/// second head to each layer: layer 1 scores a 0-key by the first layer's
/// score and writes copy·[key is 0]; layer 2 scores keys ∓a (+a for a 0) and
/// reads half of [key is 1]. `mlp_gain` G > 0 adds a second-layer MLP
/// y₃ += G·ReLU(y₃) on the output slot (Lip_out = 1 + G).
struct AttentionPairShape {
  Rational second_phi = 0;
  std::size_t period = 1;
  Rational residue_shift = 0;
  bool two_heads = false;
  Rational mlp_gain = 0;
  std::size_t second_phi_offset = 0;
  Rational second_value = 1;   ///< what the second layer's (first) head reads of a 1; g reads (1 + η) times it
  bool phi_head_last = false;  ///< with two heads: that head placed after the other in the second layer
};
SoftmaxPair attention_pair(const Rational& a, const Rational& copy, const Rational& eta,
                           const AttentionFirstLayer& first_layer = {}, const AttentionPairShape& shape = {});

/// The positional-margin witness family (docs/theory.md, "A witness family
/// for the positional margin"): a pair of two-layer softmax models over
/// {0, 1} (Δ = 1, τ = 0, no query-key term). Layer 1 has two heads reading
/// "the key is a 1": head 1 puts φ(0) = 1 + γ on the query itself, weight
/// T^{1+γ} against 1 for each other key (positional margin γ), giving h₁;
/// head 2 is uniform, giving h₂ = the fraction of 1-tokens. Layer 2's head
/// has value 0. f returns h₂; g returns h₂ + ReLU(h₁ − h₂ − (1 − ρ)), the
/// ReLU its layer-2 MLP. Positional margin γ (0 < γ <= 1). With
/// d(T) = T^{1+γ}/(T^{1+γ} + T − 1) − 1/T, the largest h₁ − h₂ at length T:
/// f = g on every input shorter than N = min{T : d(T) > 1 − ρ}, whence
/// (1/ρ − 1)^{1/γ} < N, and g − f = d(M) − (1 − ρ) >= η on 0^{M−1}1.
struct PositionWitness {
  Model f, g;
  std::string name;    ///< position_witness_gamma<γ>_rho<ρ> ('/' written '_'): the models' names less "_f", "_g"
  Integer length;      ///< N, the first length where they differ
  Integer gap_length;  ///< M, the first length where g − f >= η (on 0^{M−1}1)
};
/// Throws std::invalid_argument unless 0 < γ <= 1, 0 < ρ < 1 and 0 < η < ρ,
/// when M would exceed `max_length`, or when a comparison of d(T) with 1 − ρ
/// or 1 − ρ + η stays undecided at 4096 bits (an exact tie).
PositionWitness position_witness(const Rational& gamma, const Rational& rho, const Rational& eta,
                                 std::uint64_t max_length = 2000000);

}  // namespace lgc
