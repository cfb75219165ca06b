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

/// A key query (y, r) of head h can see: its logit and its value vector
/// V_h(E_s + p_r).
struct ValuedKey {
  Rational logit;
  QVector value;
};

/// Every key query (y, r) of head h (layer 0) can see — bulk classes of any
/// residue, window slots t = 1..τ (residue r − t) with any token and φ(t), the
/// query itself with φ(0) — sorted by logit (stable: in that order on ties).
std::vector<ValuedKey> valued_keys(const Model& model, std::size_t head, int query_token, std::size_t residue);

/// A_h(y, r): the attainable logits of head h (layer 0) for query token y at
/// residue r, sorted and without repeats (the logits of valued_keys).
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
