#include "lgcheck/semantics/finite_precision.hpp"

#include "lgcheck/numeric/interval.hpp"

#include <algorithm>
#include <stdexcept>

namespace lgc {
bool power_reaches(const Integer& i, const Rational& q, unsigned p) {
  if (i < 1) throw std::domain_error("power_reaches: i must be >= 1");
  return rational_power_reaches(Rational(i), q, p);
}

bool rational_power_reaches(const Rational& b, const Rational& q, unsigned p) {
  if (b <= 0 || q <= 0) throw std::domain_error("rational_power_reaches: base and exponent must be > 0");
  Integer num = boost::multiprecision::numerator(b), den = boost::multiprecision::denominator(b);
  Integer u = boost::multiprecision::numerator(q), v = boost::multiprecision::denominator(q);
  Integer e = Integer(p) * v;
  // (num/den)^u >= 2^e  <=>  u·(log2 num − log2 den) >= e, filtered on enclosures.
  for (unsigned bits : {64u, 256u}) {
    Interval log2 = log(Interval(Rational(2), bits));
    Interval lhs = Interval(Rational(u), bits) * (log(Interval(Rational(num), bits)) - log(Interval(Rational(den), bits))) / log2;
    Interval rhs(Rational(e), bits);
    if (certainly_less(lhs, rhs)) return false;
    if (certainly_less(rhs, lhs)) return true;
  }
  if (u > Integer(1) << 40 || e > Integer(1) << 40) throw std::overflow_error("rational_power_reaches: exponent too large");
  auto uu = static_cast<unsigned long>(u);
  return pow(num, uu) >= pow(den, uu) * (Integer(1) << static_cast<unsigned long>(e));
}

Number finite_weight(const Integer& i, const Rational& gap, unsigned p, unsigned bits) {
  if (gap == 0) return Number(1);
  if (rounds_to_zero(i, gap, p)) return Number(0);
  if (is_integer(gap)) return Number(Rational(Integer(1), pow(i, static_cast<unsigned long>(gap))));
  return Number(power(i, -gap, bits));
}

namespace {

/// The bit length of c's integer part (0 when c < 1).
unsigned msb_bits(const Rational& c) {
  Integer whole = floor(c);
  return whole < 1 ? 0u : static_cast<unsigned>(boost::multiprecision::msb(whole)) + 1;
}

}  // namespace

Integer scaled_threshold(const Rational& c, unsigned p, const Rational& gamma) {
  if (c <= 0 || gamma <= 0) throw std::domain_error("scaled_threshold: c and gamma must be > 0");
  // c·2^{p/γ} has about log2(c) + p/γ integer bits: enclose it with that many
  // bits more than 128, so the search below moves by a step or two, not by
  // 2^{p/γ − 128} (p = 200, γ = 1 took hours).
  const Rational magnitude = Rational(p) / gamma + Rational(msb_bits(c));
  const unsigned bits = 128 + static_cast<unsigned>(std::min<Integer>(ceil(magnitude), Integer(1) << 24));
  Interval estimate = Interval(c, bits) * exp(Interval(Rational(p) / gamma, bits) * log(Interval(Rational(2), bits)));
  Integer i = floor(estimate.lower());
  if (i < 1) i = 1;
  // i >= c·2^{p/γ}  <=>  (i/c)^γ >= 2^p
  auto reaches = [&](const Integer& k) { return rational_power_reaches(Rational(k) / c, gamma, p); };
  while (!reaches(i)) ++i;
  while (i > 1 && reaches(i - 1)) --i;
  return i;
}

Integer hardmax_threshold(unsigned p, const Rational& gamma) { return scaled_threshold(1, p, gamma); }

}  // namespace lgc
