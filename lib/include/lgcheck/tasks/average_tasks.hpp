#pragma once
// Pairs built for Theorem 4.2 (THEORY.md §2, average case).
#include "lgcheck/model/model.hpp"

#include <vector>

namespace lgc {

/// The presence pair over S symbols "0".."S−1": f = 0 and
/// g(x) = η·[x contains a marked symbol]. One layer, Δ = 1, τ = 0, width 3
/// (marked, output, constant); the head's logit is [key marked], so hardmax
/// attends to the marked positions when there are any and writes 1 into the
/// output slot, else averages zeros. f and g share everything but the
/// readout. Under a Dirichlet prior with a small α on the marked symbols
/// E|f − g| = η·P(a marked symbol occurs) grows like 1 − O(T^{−α}), slowly
/// when α is small: the pair that shows why N₀ depends on α_min. Under a
/// distribution that switches from unmarked to marked symbols it is the
/// regularity counterexample.
struct PresencePair {
  Model f, g;
};
PresencePair presence_pair(std::size_t alphabet_size, const std::vector<bool>& marked, const Rational& eta);

}  // namespace lgc
