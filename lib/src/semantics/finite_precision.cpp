#include "lgcheck/semantics/finite_precision.hpp"

#include "lgcheck/numeric/interval.hpp"
#include "lgcheck/semantics/forward.hpp"

#include <gmp.h>

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

Number unrounded_term(const Integer& i, const Rational& gap, unsigned bits) {
  if (gap == 0) return Number(1);
  if (is_integer(gap)) return Number(Rational(Integer(1), pow(i, static_cast<unsigned long>(gap))));
  // gap = u/v: i^{−u/v} is rational exactly when i is a perfect v-th power (then 1/root^u).
  const Integer u = boost::multiprecision::numerator(gap), v = boost::multiprecision::denominator(gap);
  if (v <= Integer(1u << 20) && u <= Integer(1u << 20)) {
    Integer root;
    if (mpz_root(root.backend().data(), i.backend().data(), v.convert_to<unsigned long>()) != 0)
      return Number(Rational(Integer(1), pow(root, u.convert_to<unsigned long>())));
  }
  return Number(power(i, -gap, bits));
}

bool weight_rounds_to_zero(const Number& term, const Number& total, unsigned p, unsigned bits) {
  const Number scaled = term * Number(Rational(Integer(1) << p));
  if (scaled.is_exact() && total.is_exact()) return scaled.exact() <= total.exact();
  const Interval a = scaled.enclosure(bits), b = total.enclosure(bits);
  if (a.upper() <= b.lower()) return true;
  if (a.lower() > b.upper()) return false;
  throw Undecided("finite-weights:" + std::to_string(p) + ": 2^p times a term and the sum of the terms overlap at " +
                  std::to_string(bits) + " bits",
                  bits);
}

std::map<Rational, Number> surviving_terms(const std::map<Rational, std::uint64_t>& keys_of_gap, const Integer& i,
                                           unsigned p, unsigned bits) {
  std::map<Rational, Number> term;
  Number total(0);
  for (const auto& [gap, keys] : keys_of_gap) {
    const Number u = unrounded_term(i, gap, bits);
    total += keys == 1 ? u : u * Number(Rational(Integer(keys)));
    term.emplace(gap, u);
  }
  for (auto it = term.begin(); it != term.end();)
    it = weight_rounds_to_zero(it->second, total, p, bits) ? term.erase(it) : std::next(it);
  return term;
}

Integer scaled_threshold(const Rational& c, unsigned p, const Rational& gamma) {
  if (c <= 0 || gamma <= 0) throw std::domain_error("scaled_threshold: c and gamma must be > 0");
  // With γ = u/v and c = a/b:  i >= c·2^{p/γ}  <=>  (b·i)^u >= a^u·2^{p·v}  (both sides > 0, t ↦ t^u increasing).
  // The least such y = b·i is the ceiling of the integer u-th root of R = a^u·2^{p·v}; then i = ⌈y/b⌉.
  const Integer u = boost::multiprecision::numerator(gamma), v = boost::multiprecision::denominator(gamma);
  const Integer a = boost::multiprecision::numerator(c), b = boost::multiprecision::denominator(c);
  const Integer bits = u * Integer(boost::multiprecision::msb(a) + 1) + Integer(p) * v;
  if (bits > kMaxThresholdBits)
    throw std::overflow_error("scaled_threshold: c·2^{p/gamma} with gamma = " + to_string(gamma) + " and p = " +
                              std::to_string(p) + " needs an integer of " + bits.str() + " bits (more than 2^27)");
  const unsigned long k = u.convert_to<unsigned long>();
  Integer R = pow(a, k);
  mpz_mul_2exp(R.backend().data(), R.backend().data(), (Integer(p) * v).convert_to<unsigned long>());
  Integer y;
  if (mpz_root(y.backend().data(), R.backend().data(), k) == 0) y += 1;  // 0: the floor root is not exact
  const Integer i = (y + b - 1) / b;
  return i < 1 ? Integer(1) : i;
}

Integer hardmax_threshold(unsigned p, const Rational& gamma) { return scaled_threshold(1, p, gamma); }

}  // namespace lgc
