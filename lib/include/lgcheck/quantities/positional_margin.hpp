#pragma once
// The positional margin of a softmax model with ln i scaling (THEORY.md §3):
// per first-layer head, P_h = {φ_h(t)}_{t=0..τ} ∪ {1} (the 1 stands for the
// bulk, whose count grows like i); the regime is token-dominant when
// max φ < 1, balanced when max φ = 1, position-dominant when max φ > 1; the
// head's margin is γ_h = max P_h − (the largest element of P_h below it) and
// γ(f) = min_h γ_h. Exact in ℚ.
#include "lgcheck/model/model.hpp"

#include <optional>
#include <string>
#include <vector>

namespace lgc {

enum class Regime { TokenDominant, Balanced, PositionDominant };
std::string to_string(Regime r);

struct HeadRegime {
  std::size_t head = 0;
  std::vector<Rational> P;        ///< P_h, distinct, decreasing
  Regime regime = Regime::TokenDominant;
  std::optional<Rational> gamma;  ///< nullopt = +∞ (P_h has one element)
};

struct PositionalMargin {
  std::vector<HeadRegime> heads;  ///< the first layer's heads
  std::optional<Rational> gamma;  ///< min over heads; nullopt = +∞
};

/// The regimes and margin of the first layer. `with_bulk` = false drops the
/// element 1 from P_h: wrong on purpose, for the mutation suite.
PositionalMargin positional_margin(const Model& model, bool with_bulk = true);

}  // namespace lgc
