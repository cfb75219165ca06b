#pragma once
// Lemma 5.3's subsampler (THEORY.md §3, toolkit form): a two-state Markov
// chain over the positions 1..T, state 1 = keep. P(1→0) = 1/ℓ and
// P(0→1) = q/((1−q)ℓ) with keep rate q = n/T and block length ℓ = ⌈n^{1/3}⌉,
// so kept positions come in blocks of mean length ℓ and the kept fraction is
// q; the chain starts in its stationary law and the last τ+1 positions are
// always kept (the query's window survives). Every draw is an exact integer
// comparison; the seed determines z.
#include "lgcheck/model/input.hpp"

#include <cstdint>
#include <vector>

namespace lgc {

/// ⌈n^{1/3}⌉ (at least 1).
std::uint64_t block_length(std::uint64_t n);

/// The kept positions (1-based, increasing) for target length n <= T.
std::vector<std::uint64_t> markov_subsample(std::uint64_t T, std::uint64_t n, std::size_t locality, std::uint64_t seed);

/// z = x restricted to the kept positions.
Tokens restrict_to(const Tokens& x, const std::vector<std::uint64_t>& kept);

}  // namespace lgc
