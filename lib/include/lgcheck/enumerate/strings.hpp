#pragma once
// Enumeration of all strings of a length, and seeded random strings.
#include "lgcheck/model/input.hpp"

#include <cstdint>
#include <functional>
#include <random>

namespace lgc {

/// Calls visit(x) for each of the S^n strings of length n, in lexicographic
/// order; stops early when visit returns false. Returns the number visited.
std::uint64_t for_each_string(std::size_t alphabet_size, std::size_t n, const std::function<bool(const Tokens&)>& visit);

/// S^n, or nullopt-like UINT64_MAX when it overflows 64 bits.
std::uint64_t string_count(std::size_t alphabet_size, std::size_t n);

/// A uniformly random string of length n (rejection sampling; the stream of
/// std::mt19937_64 is fixed by the standard, so a seed replays everywhere).
Tokens random_string(std::size_t alphabet_size, std::size_t n, std::mt19937_64& rng);

/// A uniform integer in [lo, hi], same reproducibility as random_string.
std::uint64_t uniform_integer(std::uint64_t lo, std::uint64_t hi, std::mt19937_64& rng);

/// An integer in [lo, hi] (lo >= 1) whose logarithm is uniform: short and
/// long lengths alike. Exact: a uniform exponent, then a uniform value in the
/// chosen binade.
std::uint64_t log_uniform_integer(std::uint64_t lo, std::uint64_t hi, std::mt19937_64& rng);

}  // namespace lgc
