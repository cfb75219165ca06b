#pragma once
// A cheap certified enclosure: an interval [lo, hi] of doubles. Each
// operation computes its endpoints in the default rounding (to nearest, which
// IEEE 754 makes correctly rounded for + − × ÷, within half an ulp of the
// exact value) and then moves each endpoint one ulp outward, so the exact
// result of the operation on any points of the operands lies inside. exp,
// log and sin are our own (argument reduction and a Taylor/atanh series with
// a bounded remainder; exp and log with every step in this arithmetic, sin's
// polynomial summed in plain double at one point and widened by an a-priori
// bound of its rounding), not the C library's, whose accuracy is not
// specified. Overflow gives an unbounded endpoint; the caller then falls back
// to MPFI (Interval). This file is compiled with -ffp-contract=off (no fused
// multiply-add changes the rounding).
#include "lgcheck/numeric/interval.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <limits>

#ifdef __FAST_MATH__
#error "FastInterval needs IEEE 754 arithmetic: no -ffast-math (next_up relies on -0 + 0 being +0)"
#endif

namespace lgc {

/// The smallest double above x (x itself for +inf and NaN).
inline double next_up(double x) {
  if (!(x < std::numeric_limits<double>::infinity())) return x;
  // Without a branch on the sign (a mispredicted one where signs mix): −0 + 0 is +0, whose successor is the least
  // subnormal; a positive x's bits go up by one, a negative one's down.
  auto bits = std::bit_cast<std::uint64_t>(x + 0.0);
  bits += 1 - ((bits >> 63) << 1);
  return std::bit_cast<double>(bits);
}

/// The largest double below x.
inline double next_down(double x) { return -next_up(-x); }

struct FastInterval {
  double lo = 0, hi = 0;

  static FastInterval point(double x) { return {x, x}; }
  /// An enclosure of an MPFI interval (endpoints rounded outward).
  static FastInterval enclosing(const Interval& x);
  /// An enclosure of a rational.
  static FastInterval enclosing(const Rational& q);

  /// Both endpoints finite (no overflow happened).
  bool is_finite() const { return std::isfinite(lo) && std::isfinite(hi); }
  /// The same interval at the given MPFI precision (exact: doubles fit).
  Interval to_interval(unsigned precision_bits) const;

  friend FastInterval operator+(FastInterval a, FastInterval b) {
    return {next_down(a.lo + b.lo), next_up(a.hi + b.hi)};
  }
  friend FastInterval operator-(FastInterval a, FastInterval b) {
    return {next_down(a.lo - b.hi), next_up(a.hi - b.lo)};
  }
  friend FastInterval operator*(FastInterval a, FastInterval b) {
    const double p1 = a.lo * b.lo, p2 = a.lo * b.hi, p3 = a.hi * b.lo, p4 = a.hi * b.hi;
    return {next_down(std::min(std::min(p1, p2), std::min(p3, p4))),
            next_up(std::max(std::max(p1, p2), std::max(p3, p4)))};
  }
  /// Unbounded when b contains 0.
  friend FastInterval operator/(FastInterval a, FastInterval b);
  FastInterval& operator+=(FastInterval b) { return *this = *this + b; }
  FastInterval& operator*=(FastInterval b) { return *this = *this * b; }
};

/// e^x, certified (see the header comment); [0, tiny] far below, unbounded above ~709.
FastInterval exp(FastInterval x);
/// ln x for x > 0 (unbounded when x reaches 0).
FastInterval log(FastInterval x);
/// sin x, certified (argument reduction by an enclosure of π and a Taylor series with a bounded remainder of 1e-11:
/// a cheap bound, wider than the other operations); [−1, 1] when |x| exceeds 2^20 or is not finite.
FastInterval sin(FastInterval x);
/// The range of sin over x: the hull of its enclosures at the two ends, widened to ±1 where a point (2j + 1)π/2,
/// tested by its enclosure, may lie in x (sin is monotone between them); [−1, 1] beyond 2^20 or from a width of 6.
/// Tight to second order where sin is flat, which sin (above), sin(x.lo) ± width(x), is not.
FastInterval sin_range(FastInterval x);
/// The range of cos over x: sin_range(x + π/2) (π/2 enclosed by halving π's enclosure, which is exact).
FastInterval cos_range(FastInterval x);
/// The point [0, 0]: the enclosure of an exact 0 (enclosing a nonzero
/// rational never gives it), so a product with it may be skipped.
inline bool is_exact_zero(const FastInterval& x) { return x.lo == 0 && x.hi == 0; }
/// max(0, x).
inline FastInterval relu(FastInterval x) { return {std::max(0.0, x.lo), std::max(0.0, x.hi)}; }

/// The enclosure of ln 2 the reductions use (two adjacent doubles).
FastInterval ln2_enclosure();

}  // namespace lgc
