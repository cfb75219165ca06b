#pragma once
// The logit margin γ(f) of a one-layer model (THEORY.md §2): the smallest
// positive gap between two attainable logits of one head at one query
// (token, residue), over all heads, tokens and residues. Exact in ℚ.
#include "lgcheck/model/model.hpp"

#include <optional>
#include <vector>

namespace lgc {

struct LogitMarginWitness {
  std::size_t head = 0;
  int query_token = 0;
  std::size_t query_residue = 0;
  Rational lower, upper;  ///< the two attainable logits at gap γ
};

struct LogitMargin {
  std::optional<Rational> gamma;  ///< nullopt means +∞ (no set has two values)
  std::optional<LogitMarginWitness> witness;
};

/// A_h(y, r): the attainable logits of head h (layer 0) for query token y at
/// residue r, sorted and without repeats.
std::vector<Rational> attainable_logits(const Model& model, std::size_t head, int query_token, std::size_t residue);

/// γ(f) over the first layer's heads, with a witness.
LogitMargin logit_margin(const Model& model);

/// The value-aware margin γ_V(f) >= γ(f) (docs/theory.md, "The margin
/// question"): the smallest gap ℓ* − ℓ between two attainable logits of one
/// head at one query such that the keys with logits in [ℓ, ℓ*] do not all
/// carry one value vector V_h(E_s + p_r); nullopt (+∞) when there is none.
/// finite:p equals hardmax at every position i >= ⌈2^{p/γ_V}⌉. The witness's
/// `lower` and `upper` are ℓ and ℓ*.
LogitMargin value_margin(const Model& model);

}  // namespace lgc
