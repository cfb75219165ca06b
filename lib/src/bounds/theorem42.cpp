#include "lgcheck/bounds/theorem42.hpp"

#include <stdexcept>

namespace lgc {
namespace {

Interval enclose_value(const Theorem42Bounds& b, unsigned bits) {
  Interval inverse(1 / b.epsilon, bits);
  Interval v = Interval(b.c, bits) * exp(Interval(b.exponent, bits) * log(inverse));
  Interval factor = Interval(Rational(1), bits) + log(inverse);
  for (unsigned j = 0; j < b.log_power; ++j) v *= factor;
  return v;
}

/// c·ε^{−u/v} rounded up exactly: the least N with N^v >= c^v·ε^{−u}.
Integer rational_power_ceiling(const Theorem42Bounds& b) {
  const long u = numerator(b.exponent).convert_to<long>();
  const long v = denominator(b.exponent).convert_to<long>();
  return ceil_power(pow(b.c, v) * pow(1 / b.epsilon, u), Rational(1, v));
}

}  // namespace

Theorem42Bounds theorem42_bounds(const Rational& epsilon, const Rational& alpha_min, const Rational& c,
                                 unsigned log_power) {
  if (epsilon <= 0 || epsilon > 1) throw std::invalid_argument("Theorem 4.2 bound: epsilon must be in (0, 1]");
  if (alpha_min <= 0) throw std::invalid_argument("Theorem 4.2 bound: alpha_min must be > 0");
  if (c <= 0) throw std::invalid_argument("Theorem 4.2 bound: the constant c must be > 0");
  Theorem42Bounds b;
  b.epsilon = epsilon;
  b.c = c;
  b.log_power = log_power;
  b.alpha_min = alpha_min;
  b.exponent = 2 + 2 / alpha_min;
  if (numerator(b.exponent) > 100000 || denominator(b.exponent) > 1000)
    throw std::overflow_error("Theorem 4.2 bound: the exponent 2 + 2/alpha_min = " + to_string(b.exponent) +
                              " is too large to round exactly");
  b.value = enclose_value(b, 128);
  if (log_power == 0 || epsilon == 1) {
    b.N0 = rational_power_ceiling(b);
    return b;
  }
  for (unsigned bits = 128; bits <= 16384; bits *= 2) {
    b.value = enclose_value(b, bits);
    Integer lo = floor(b.value.lower()), hi = floor(b.value.upper());
    if (lo == hi) {
      b.N0 = lo + 1;
      return b;
    }
  }
  throw std::runtime_error("Theorem 4.2 bound: the ceiling was not decided at 16384 bits");
}

}  // namespace lgc
