#pragma once
// Theorem 4.2 (docs/theory.md §2 "Theorem 4.2 (average case)"): the
// Dirichlet-multinomial probability of one string and the length N₀.
#include "lgcheck/numeric/rational.hpp"

#include <optional>
#include <vector>

namespace lgc::kernel {

/// a^{(n)} = a(a+1)…(a+n−1), the rising factorial (1 for n = 0).
Rational rising_factorial(const Rational& a, std::size_t n);
/// P(x) = Π_s α_s^{(n_s)} / α₀^{(T)}, n_s the count of symbol s in x, α₀ = Σ α_s.
/// A symbol with α_s = 0 that occurs gives 0. Requires α_s >= 0, α₀ > 0.
Rational string_probability(const std::vector<Rational>& alpha, const std::vector<int>& tokens);

/// α_min, the smallest positive α_s (nullopt when there is none).
std::optional<Rational> smallest_positive(const std::vector<Rational>& alpha);

/// N₀ = ⌈c·ε^{−(2 + 2/α_min)}·(1 + ln(1/ε))^k⌉, α_min the smallest positive α_s. k = 0 (or ε = 1): exact, the least
/// N with (N/c)^v >= (1/ε)^u for the exponent u/v. k > 0: a certified enclosure refined until its floor is decided
/// (a transcendental value is never an integer). Throws std::invalid_argument on absurd sizes or when undecided at
/// 4096 bits.
Integer n0_average(const std::vector<Rational>& alpha, const Rational& epsilon, const Rational& c, unsigned log_power);

}  // namespace lgc::kernel
