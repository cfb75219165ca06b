#pragma once
// Exact rationals of 64-bit numerator and denominator for the hot loops of
// the exhaustive checks: no allocation, every operation exact, and an
// overflow is reported (never wrapped) so that the caller redoes that
// computation in GMP (Rational). Values are kept canonical (denominator > 0,
// gcd 1), so a SmallRational converts to the very Rational GMP would give.
#include "lgcheck/numeric/rational.hpp"

#include <cstdint>
#include <numeric>
#include <optional>

namespace lgc {

// The 128-bit integers of GCC and Clang (every product of two 64-bit values fits).
__extension__ typedef __int128 Int128;
__extension__ typedef unsigned __int128 UInt128;

struct SmallRational {
  std::int64_t num = 0;
  std::int64_t den = 1;
  friend bool operator==(const SmallRational&, const SmallRational&) = default;
};

/// q when its numerator and denominator fit in 63 bits plus sign (both are
/// kept above INT64_MIN, so negation never overflows), else nullopt.
std::optional<SmallRational> to_small(const Rational& q);
Rational to_rational(const SmallRational& q);

/// The arithmetic, with a sticky overflow flag: after an overflow the results
/// are meaningless and `overflowed()` stays true until `reset()`.
class SmallArithmetic {
 public:
  bool overflowed() const { return overflow_; }
  void reset() { overflow_ = false; }

  SmallRational add(const SmallRational& a, const SmallRational& b);
  SmallRational sub(const SmallRational& a, const SmallRational& b) { return add(a, negate(b)); }
  SmallRational mul(const SmallRational& a, const SmallRational& b);
  /// n·a for a non-negative integer n.
  SmallRational scale(const SmallRational& a, std::uint64_t n);
  /// a / n for a positive integer n.
  SmallRational divide(const SmallRational& a, std::uint64_t n);
  static SmallRational negate(const SmallRational& a) { return {-a.num, a.den}; }
  static SmallRational abs(const SmallRational& a) { return {a.num < 0 ? -a.num : a.num, a.den}; }

 private:
  /// num/den from a 128-bit value, or an overflow.
  SmallRational fit(Int128 num, Int128 den);
  bool overflow_ = false;
};

namespace small_detail {

constexpr Int128 kLimit = INT64_MAX;  // |num| and den stay at most this

inline std::uint64_t magnitude(std::int64_t v) {
  return v < 0 ? static_cast<std::uint64_t>(-v) : static_cast<std::uint64_t>(v);
}

/// gcd(|a|, b) of a numerator and a denominator, as a signed divisor.
inline std::int64_t gcd_of(std::int64_t a, std::int64_t b) {
  return static_cast<std::int64_t>(std::gcd(magnitude(a), static_cast<std::uint64_t>(b)));
}

/// gcd(|t|, g) for a 128-bit t and a positive 64-bit g.
inline std::uint64_t gcd_with(Int128 t, std::uint64_t g) {
  if (g == 1) return 1;
  const UInt128 m = t < 0 ? static_cast<UInt128>(-t) : static_cast<UInt128>(t);
  const auto low = static_cast<std::uint64_t>(m);
  return std::gcd(m == low ? low % g : static_cast<std::uint64_t>(m % g), g);  // 64-bit division when it fits
}

}  // namespace small_detail

inline SmallRational SmallArithmetic::fit(Int128 num, Int128 den) {
  if (num > small_detail::kLimit || num < -small_detail::kLimit || den > small_detail::kLimit) {
    overflow_ = true;
    return {0, 1};
  }
  return {static_cast<std::int64_t>(num), static_cast<std::int64_t>(den)};
}

// Knuth's addition (TAOCP 4.5.1): with g = gcd(b, d), a/b + c/d has numerator
// t = a·(d/g) + c·(b/g), and gcd(t, (b/g)·d) = gcd(t, g) for canonical inputs.
inline SmallRational SmallArithmetic::add(const SmallRational& a, const SmallRational& b) {
  if (a.num == 0) return b;
  if (b.num == 0) return a;
  if (a.den == 1 && b.den == 1) return fit(static_cast<Int128>(a.num) + b.num, 1);
  const std::uint64_t g = std::gcd(static_cast<std::uint64_t>(a.den), static_cast<std::uint64_t>(b.den));
  const std::int64_t ad = a.den / static_cast<std::int64_t>(g), bd = b.den / static_cast<std::int64_t>(g);
  const Int128 t = static_cast<Int128>(a.num) * bd + static_cast<Int128>(b.num) * ad;
  if (t == 0) return {0, 1};
  const std::uint64_t g2 = small_detail::gcd_with(t, g);
  return fit(t / static_cast<Int128>(g2), static_cast<Int128>(ad) * (b.den / static_cast<std::int64_t>(g2)));
}

inline SmallRational SmallArithmetic::mul(const SmallRational& a, const SmallRational& b) {
  if (a.num == 0 || b.num == 0) return {0, 1};
  if (a.den == 1 && b.den == 1) return fit(static_cast<Int128>(a.num) * b.num, 1);
  const std::int64_t g1 = small_detail::gcd_of(a.num, b.den), g2 = small_detail::gcd_of(b.num, a.den);
  return fit(static_cast<Int128>(a.num / g1) * (b.num / g2), static_cast<Int128>(a.den / g2) * (b.den / g1));
}

inline SmallRational SmallArithmetic::scale(const SmallRational& a, std::uint64_t n) {
  if (a.num == 0 || n == 0) return {0, 1};
  const std::uint64_t g = std::gcd(n, static_cast<std::uint64_t>(a.den));
  return fit(static_cast<Int128>(a.num) * static_cast<Int128>(n / g), a.den / static_cast<std::int64_t>(g));
}

inline SmallRational SmallArithmetic::divide(const SmallRational& a, std::uint64_t n) {
  if (a.num == 0) return {0, 1};
  const std::uint64_t g = std::gcd(small_detail::magnitude(a.num), n);
  return fit(a.num / static_cast<std::int64_t>(g), static_cast<Int128>(a.den) * static_cast<Int128>(n / g));
}

/// Sign of a − b, exactly (128-bit cross products).
inline int compare(const SmallRational& a, const SmallRational& b) {
  const Int128 l = static_cast<Int128>(a.num) * b.den, r = static_cast<Int128>(b.num) * a.den;
  return l < r ? -1 : (l > r ? 1 : 0);
}

}  // namespace lgc
