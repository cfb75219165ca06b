#pragma once
// Lemma 5.3's subsampler (THEORY.md §3, toolkit form): a two-state Markov
// chain over the positions 1..T, state 1 = keep. P(1→0) = 1/ℓ and
// P(0→1) = q/((1−q)ℓ) with keep rate q = n/T and block length ℓ = ⌈n^{1/3}⌉,
// so kept positions come in blocks of mean length ℓ and the kept fraction is
// q; the chain starts in its stationary law and the last τ+1 positions are
// always kept (the query's window survives). Every draw is an exact integer
// comparison; the seed determines z. With period Δ > 1 the chain runs over the
// ⌊T/Δ⌋ chunks of Δ positions that end at T (target ⌊(n − T mod Δ)/Δ⌋ chunks,
// at least 1; the last ⌈(τ+1)/Δ⌉ chunks always kept) and the first T mod Δ
// positions are always kept: every dropped run is a multiple of Δ long, so a
// kept position keeps its residue (i_j ≡ j mod Δ) and |z| ≡ T (mod Δ).
#include "lgcheck/model/input.hpp"

#include <cstdint>
#include <vector>

namespace lgc {

/// ⌈n^{1/3}⌉ (at least 1).
std::uint64_t block_length(std::uint64_t n);

/// The kept positions (1-based, increasing) for target length n <= T.
std::vector<std::uint64_t> markov_subsample(std::uint64_t T, std::uint64_t n, std::size_t locality, std::uint64_t seed,
                                            std::size_t period = 1);

/// z = x restricted to the kept positions.
Tokens restrict_to(const Tokens& x, const std::vector<std::uint64_t>& kept);

}  // namespace lgc
