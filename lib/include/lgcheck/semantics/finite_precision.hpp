#pragma once
// The exact decisions of the finite:p semantics: a weight i^{-δ} rounds to 0
// exactly when i^δ >= 2^p, decided as a big-integer comparison
// i^u >= 2^{p·v} for δ = u/v (an interval filter first, exact fallback).
#include "lgcheck/numeric/number.hpp"
#include "lgcheck/numeric/rational.hpp"

#include <cstdint>
#include <map>

namespace lgc {

/// i^q >= 2^p, decided exactly, for an integer i >= 1 and rational q > 0.
bool power_reaches(const Integer& i, const Rational& q, unsigned p);
/// b^q >= 2^p for a rational b > 0 and rational q > 0, decided exactly.
bool rational_power_reaches(const Rational& b, const Rational& q, unsigned p);

/// The largest integer scaled_threshold works with: 2^27 bits (16 MiB, about 4·10^7 digits).
inline constexpr unsigned long kMaxThresholdBits = 1ul << 27;
/// The least integer i >= 1 with i >= c·2^{p/γ} (c > 0, γ > 0): ⌈c·2^{p/γ}⌉, by
/// exact integer arithmetic: one integer u-th root (γ = u/v) and one exactness
/// test, no logarithm. Throws std::overflow_error when a^u·2^{p·v} (c = a/b)
/// would exceed kMaxThresholdBits bits.
Integer scaled_threshold(const Rational& c, unsigned p, const Rational& gamma);

/// The finite:p weight of a key whose logit is `gap` below the maximum at
/// query position i: 1 at gap 0, 0 when i^{−gap} <= 2^{−p}, else i^{−gap}
/// (exact when gap is an integer, a certified enclosure otherwise).
Number finite_weight(const Integer& i, const Rational& gap, unsigned p, unsigned bits);

/// The un-rounded term i^{−gap} (gap >= 0): exact when gap is an integer, a
/// certified enclosure otherwise.
Number unrounded_term(const Integer& i, const Rational& gap, unsigned bits);

/// finite-weights:p: does the normalised weight term / total round to 0, i.e.
/// 2^p·term <= total (term, total > 0)? Exact when both are exact; otherwise
/// decided on enclosures at `bits`, throwing Undecided when they overlap.
bool weight_rounds_to_zero(const Number& term, const Number& total, unsigned p, unsigned bits);

/// finite-weights:p at query position i, from the keys' gaps δ to the largest logit (each with its number of keys):
/// the un-rounded term u = i^{−δ} of every gap whose keys keep their weight, 2^p·u > Σ_keys u
/// (weight_rounds_to_zero). Empty when every weight rounds.
std::map<Rational, Number> surviving_terms(const std::map<Rational, std::uint64_t>& keys_of_gap, const Integer& i,
                                           unsigned p, unsigned bits);

/// Does the weight i^{-δ} (δ > 0) round to 0 under finite:p (i^{-δ} <= 2^{-p})?
inline bool rounds_to_zero(const Integer& i, const Rational& delta, unsigned p) { return power_reaches(i, delta, p); }

/// The hardmax threshold: the least integer i >= 1 with i >= 2^{p/γ}, i.e.
/// i^γ >= 2^p. γ given as a positive rational; see hardmax_threshold_infinite.
Integer hardmax_threshold(unsigned p, const Rational& gamma);

}  // namespace lgc
