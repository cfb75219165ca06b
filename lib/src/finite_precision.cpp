#include "lgcheck/semantics/finite_precision.hpp"

#include "lgcheck/numeric/interval.hpp"

#include <stdexcept>

namespace lgc {
namespace {

/// Exact i^u >= 2^e for machine-sized u, e.
bool exact_power_reaches(const Integer& i, const Integer& u, const Integer& e) {
  if (u > Integer(1) << 40 || e > Integer(1) << 40) throw std::overflow_error("power_reaches: exponent too large");
  Integer lhs = pow(i, static_cast<unsigned long>(u));
  Integer rhs = Integer(1) << static_cast<unsigned long>(e);
  return lhs >= rhs;
}

}  // namespace

bool power_reaches(const Integer& i, const Rational& q, unsigned p) {
  if (i < 1) throw std::domain_error("power_reaches: i must be >= 1");
  if (q <= 0) throw std::domain_error("power_reaches: exponent must be > 0");
  Integer u = boost::multiprecision::numerator(q), v = boost::multiprecision::denominator(q);
  Integer e = Integer(p) * v;
  if (i == 1) return e == 0;
  // Filter: compare u·log2(i) with p·v on enclosures, widening once.
  for (unsigned bits : {64u, 256u}) {
    Interval lhs = Interval(Rational(u), bits) * log(Interval(Rational(i), bits)) / log(Interval(Rational(2), bits));
    Interval rhs(Rational(e), bits);
    if (certainly_less(lhs, rhs)) return false;
    if (certainly_less(rhs, lhs)) return true;
  }
  return exact_power_reaches(i, u, e);
}

Integer hardmax_threshold(unsigned p, const Rational& gamma) {
  if (gamma <= 0) throw std::domain_error("hardmax_threshold: gamma must be > 0");
  // 2^{p/γ} enclosed, then the integer found by exact decisions around it.
  Interval estimate = exp(Interval(Rational(p) / gamma, 128) * log(Interval(Rational(2), 128)));
  Integer i = floor(estimate.lower());
  if (i < 1) i = 1;
  while (!power_reaches(i, gamma, p)) ++i;
  while (i > 1 && power_reaches(i - 1, gamma, p)) --i;
  return i;
}

}  // namespace lgc
