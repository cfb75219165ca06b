#include "lgcheck/numeric/fast_interval.hpp"

#include <mpfr.h>

#include <array>

namespace lgc {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

FastInterval entire() { return {-kInf, kInf}; }

double mpfr_endpoint(mpfr_srcptr x, mpfr_rnd_t rounding) { return mpfr_get_d(x, rounding); }

/// 1/n! for n = 0..kTaylorDegree, enclosed (n! <= 17! is an exact double).
constexpr int kTaylorDegree = 16;
const std::array<FastInterval, kTaylorDegree + 1>& inverse_factorials() {
  static const auto table = [] {
    std::array<FastInterval, kTaylorDegree + 1> t;
    double factorial = 1;
    for (int n = 0; n <= kTaylorDegree; ++n) {
      if (n > 0) factorial *= n;
      t[n] = FastInterval::point(1) / FastInterval::point(factorial);
    }
    return t;
  }();
  return table;
}

/// e^r for |r| <= 0.36: Taylor to degree 16 by Horner, plus the remainder
/// |r|^17/17!·e^{|r|} <= 0.36^17/17!·e^{0.36} < 1e-21.
FastInterval exp_reduced(FastInterval r) {
  const auto& c = inverse_factorials();
  FastInterval p = c[kTaylorDegree];
  for (int n = kTaylorDegree - 1; n >= 0; --n) p = p * r + c[n];
  return p + FastInterval{-1e-21, 1e-21};
}

/// Cody and Waite's split ln 2 = kLn2High + λ: kLn2High has 33 significant
/// bits, so k·kLn2High is exact for |k| < 2^20; λ is enclosed from MPFI.
constexpr double kLn2High = 0x1.62e42feep-1;
FastInterval ln2_low() {
  static const FastInterval low =
      FastInterval::enclosing(log(Interval(Rational(2), 256)) - Interval(Rational(kLn2High), 256));
  return low;
}

/// x − a, as a point when the subtraction is exact (TwoSum's error term is
/// zero: an error-free transformation in round-to-nearest), else enclosed.
FastInterval difference(double x, double a) {
  const double s = x - a, v = s - x;
  const double error = (x - (s - v)) + (-a - v);
  return error == 0 ? FastInterval::point(s) : FastInterval::point(x) - FastInterval::point(a);
}

/// r = x − k·ln 2 for an integer k (|k| <= 1100), enclosed in a few ulps of r.
FastInterval reduced_argument(double x, double k) {
  return difference(x, k * kLn2High) - FastInterval::point(k) * ln2_low();
}

/// An enclosure of e^x for a double x.
FastInterval exp_point(double x) {
  if (std::isnan(x)) return {x, x};
  if (x > 709) return {8e307, kInf};      // e^709 > 8.2e307
  if (x < -740) return {0, 1e-321};        // e^-740 < 4.3e-322
  const double k = std::nearbyint(x / 0.6931471805599453);
  const FastInterval r = reduced_argument(x, k);
  if (!(r.lo >= -0.36 && r.hi <= 0.36)) return entire();
  const FastInterval e = exp_reduced(r);
  const int scale = static_cast<int>(k);
  double lo = std::ldexp(e.lo, scale), hi = std::ldexp(e.hi, scale);
  if (hi < std::numeric_limits<double>::min()) {  // subnormal: ldexp may have rounded
    lo = 0;
    hi = next_up(hi);
  } else if (lo < std::numeric_limits<double>::min()) {
    lo = 0;
  }
  return {lo, hi};
}

/// ln x for a double x > 0: x = m·2^e with m in [√½, √2), ln x = e·ln 2 +
/// 2·atanh(s), s = (m − 1)/(m + 1), |s| <= 0.1716; atanh(s) = Σ_{n<=11}
/// s^{2n+1}/(2n+1) + R, |R| <= |s|^25/(25(1 − s²)) < |s|·1e-19.
FastInterval log_point(double x) {
  if (std::isnan(x)) return {x, x};
  if (x <= 0) return {-kInf, -kInf};
  if (x == kInf) return {std::numeric_limits<double>::max(), kInf};
  int e = 0;
  double m = std::frexp(x, &e);  // x = m·2^e, m in [1/2, 1), exact
  if (m < 0.7071067811865476) {
    m *= 2;  // exact
    --e;
  }
  const FastInterval M = FastInterval::point(m), one = FastInterval::point(1);
  const FastInterval s = (M - one) / (M + one);
  const FastInterval s2 = s * s;
  constexpr int kTerms = 11;
  FastInterval p = FastInterval::point(1) / FastInterval::point(2 * kTerms + 1);
  for (int n = kTerms - 1; n >= 0; --n) p = p * s2 + FastInterval::point(1) / FastInterval::point(2 * n + 1);
  const double smax = std::max(std::abs(s.lo), std::abs(s.hi));
  const double slack = next_up(smax * 1e-19);
  const FastInterval atanh = s * p + FastInterval{-slack, slack};
  return FastInterval::point(static_cast<double>(e)) * ln2_enclosure() + FastInterval::point(2) * atanh;
}

}  // namespace

FastInterval ln2_enclosure() {
  // ln 2 = 0.693147180559945309417232...; the double below and the one above.
  return {0x1.62e42fefa39efp-1, 0x1.62e42fefa39f0p-1};
}

FastInterval FastInterval::enclosing(const Interval& x) {
  mpfr_t end;
  mpfr_init2(end, static_cast<mpfr_prec_t>(x.precision()));
  mpfi_get_left(end, x.raw());
  const double lo = mpfr_endpoint(end, MPFR_RNDD);
  mpfi_get_right(end, x.raw());
  const double hi = mpfr_endpoint(end, MPFR_RNDU);
  mpfr_clear(end);
  return {lo, hi};
}

FastInterval FastInterval::enclosing(const Rational& q) { return enclosing(Interval(q, 64)); }

Interval FastInterval::to_interval(unsigned precision_bits) const {
  if (!is_finite()) throw std::domain_error("FastInterval::to_interval: unbounded enclosure");
  return Interval::hull(Rational(lo), Rational(hi), std::max(precision_bits, 64u));
}

FastInterval operator/(FastInterval a, FastInterval b) {
  if (!(b.lo > 0 || b.hi < 0)) return entire();
  const double q1 = a.lo / b.lo, q2 = a.lo / b.hi, q3 = a.hi / b.lo, q4 = a.hi / b.hi;
  return {next_down(std::min(std::min(q1, q2), std::min(q3, q4))), next_up(std::max(std::max(q1, q2), std::max(q3, q4)))};
}

namespace {

/// π enclosed between two adjacent doubles (from MPFR, rounded down and up).
FastInterval pi_enclosure() {
  static const FastInterval pi = [] {
    mpfr_t p;
    mpfr_init2(p, 128);
    mpfr_const_pi(p, MPFR_RNDD);
    const double lo = mpfr_endpoint(p, MPFR_RNDD);
    mpfr_const_pi(p, MPFR_RNDU);
    const double hi = mpfr_endpoint(p, MPFR_RNDU);
    mpfr_clear(p);
    return FastInterval{lo, hi};
  }();
  return pi;
}

/// k·c for an integer-valued double k and an enclosure c: the two rounded products k·c.lo and k·c.hi, in reverse
/// order when k < 0, each moved one ulp outward (c's operator* with a point k, without its other two products).
FastInterval times_integer(double k, FastInterval c) {
  const double low = k * c.lo, high = k * c.hi;
  return k >= 0 ? FastInterval{next_down(low), next_up(high)} : FastInterval{next_down(high), next_up(low)};
}

/// π/2, enclosed by halving π's enclosure (exact).
FastInterval half_pi_enclosure() {
  const FastInterval pi = pi_enclosure();
  return {pi.lo / 2, pi.hi / 2};
}

/// m − m³/3! + m⁵/5! − … + m¹⁵/15! for a double |m| <= 1.6, in plain double (Horner in m², no fused multiply-add):
/// within kSinRounding of the exact polynomial at m. Higham's bound for Horner's rule, γ_14·Σ|c_i|y^i, with the
/// coefficients 1/(2i+1)! and y = m² each rounded once (u and γ_7 more) and the last product by m (u more), is at most
/// γ_23·sinh|m| < 6.1·10⁻¹⁵ (γ_23 = 23u/(1 − 23u), u = 2^−53, sinh 1.6 < 2.38; an underflow adds a few 2^−1074).
double sin_taylor(double m) {
  static const auto coefficient = [] {  // (−1)^i/(2i+1)!, i = 0..7, each correctly rounded (the factorials are exact)
    std::array<double, 8> c{};
    double factorial = 1;
    for (int i = 0; i < 8; ++i) {
      if (i > 0) factorial *= (2.0 * i) * (2.0 * i + 1);
      c[static_cast<std::size_t>(i)] = (i % 2 == 0 ? 1.0 : -1.0) / factorial;
    }
    return c;
  }();
  const double y = m * m;
  double q = coefficient[7];
  for (std::size_t i = 7; i-- > 0;) q = q * y + coefficient[i];
  return m * q;
}

/// The rounding of sin_taylor: 2^−46 > 1.4·10⁻¹⁴, above its bound 6.1·10⁻¹⁵.
constexpr double kSinRounding = 0x1p-46;
/// The widening of a sin enclosure beyond the polynomial: 10⁻¹¹, above the Taylor remainder |r|^17/17! <= 1.6^17/17!
/// < 8.3·10⁻¹² (the enclosure serves as a cheap bound: D(n)'s filter, not a value).
constexpr double kSinRemainder = 1e-11;

/// An enclosure of sin x for a double x with |x| <= 2^20: x = kπ + r, sin x = (−1)^k sin r, with r enclosed in
/// [r.lo, r.hi] and sin r within the radius of sin m, m a double in it (sin is 1-Lipschitz).
FastInterval sin_point(double x) {
  const FastInterval pi = pi_enclosure();
  const double k = std::nearbyint(x / pi.lo);  // an integer, |k| < 2^19: exact, and its parity that of an int64
  const FastInterval r = FastInterval::point(x) - times_integer(k, pi);
  if (!(r.lo >= -1.6 && r.hi <= 1.6)) return {-1, 1};
  const double m = r.lo + (r.hi - r.lo) / 2;
  const double radius = std::max(next_up(r.hi - m), next_up(m - r.lo));  // each difference rounded up
  const double s = sin_taylor(m);
  const double slack = next_up(radius + next_up(kSinRemainder + kSinRounding));
  const FastInterval enclosure{next_down(s - slack), next_up(s + slack)};
  return (static_cast<std::int64_t>(k) & 1) == 0 ? enclosure : FastInterval{-enclosure.hi, -enclosure.lo};
}

}  // namespace

FastInterval exp(FastInterval x) { return {exp_point(x.lo).lo, exp_point(x.hi).hi}; }

FastInterval sin(FastInterval x) {
  if (!(std::abs(x.lo) <= 0x1p20 && std::abs(x.hi) <= 0x1p20)) return {-1, 1};
  // |sin y − sin x.lo| <= y − x.lo for y in x.
  const FastInterval at = sin_point(x.lo), width = FastInterval::point(x.hi) - FastInterval::point(x.lo);
  return {std::max(-1.0, next_down(at.lo - width.hi)), std::min(1.0, next_up(at.hi + width.hi))};
}

FastInterval sin_range(FastInterval x) {
  if (!(std::abs(x.lo) <= 0x1p20 && std::abs(x.hi) <= 0x1p20 && x.hi - x.lo < 6)) return {-1, 1};
  const FastInterval at_lo = sin_point(x.lo), at_hi = sin_point(x.hi);
  double lo = std::min(at_lo.lo, at_hi.lo), hi = std::max(at_lo.hi, at_hi.hi);
  // sin is monotone between the points mπ/2, m odd, where it is 1 (m = 1 mod 4) or −1 (m = 3 mod 4); the m range
  // is widened by one each way beyond what rounding could move, and each point is tested by its enclosure.
  const FastInterval half_pi = half_pi_enclosure();
  // |x| <= 2^20: m within ±2^21, exact as an int64 and as a double.
  const auto first = static_cast<std::int64_t>(std::floor(x.lo / half_pi.hi)) - 1;
  const auto last = static_cast<std::int64_t>(std::ceil(x.hi / half_pi.lo)) + 1;
  for (std::int64_t m = first; m <= last; ++m) {
    if ((m & 1) == 0) continue;
    const FastInterval point = times_integer(static_cast<double>(m), half_pi);
    if (point.hi < x.lo || point.lo > x.hi) continue;
    if ((m & 3) == 1) hi = 1;  // m ≡ 1 (mod 4), also for negative m (two's complement)
    else lo = -1;
  }
  return {std::max(-1.0, lo), std::min(1.0, hi)};
}

FastInterval cos_range(FastInterval x) { return sin_range(x + half_pi_enclosure()); }

FastInterval log(FastInterval x) {
  if (!(x.lo > 0)) return entire();
  return {log_point(x.lo).lo, log_point(x.hi).hi};
}

}  // namespace lgc
