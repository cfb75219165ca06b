// Theorem 4.2 quantities, from docs/theory.md §2 "Theorem 4.2 (average case)".
#include "lgcheck/kernel/average.hpp"

#include "lgcheck/kernel/quantities.hpp"
#include "lgcheck/numeric/interval.hpp"

#include <stdexcept>

namespace lgc::kernel {

Rational rising_factorial(const Rational& a, std::size_t n) {
  Rational out = 1;
  for (std::size_t k = 0; k < n; ++k) out *= a + Rational(static_cast<unsigned long>(k));
  return out;
}

Rational string_probability(const std::vector<Rational>& alpha, const std::vector<int>& tokens) {
  Rational total = 0;
  for (const auto& a : alpha) {
    if (a < 0) throw std::invalid_argument("string_probability: a negative α");
    total += a;
  }
  if (total <= 0) throw std::invalid_argument("string_probability: α₀ must be positive");
  std::vector<std::size_t> counts(alpha.size(), 0);
  for (int s : tokens) {
    if (s < 0 || static_cast<std::size_t>(s) >= alpha.size())
      throw std::invalid_argument("string_probability: token outside the alphabet");
    ++counts[static_cast<std::size_t>(s)];
  }
  Rational p = 1;
  for (std::size_t s = 0; s < alpha.size(); ++s) p *= rising_factorial(alpha[s], counts[s]);
  return p / rising_factorial(total, tokens.size());
}

std::optional<Rational> smallest_positive(const std::vector<Rational>& alpha) {
  std::optional<Rational> amin;
  for (const auto& a : alpha)
    if (a > 0 && (!amin || a < *amin)) amin = a;
  return amin;
}

Integer n0_average(const std::vector<Rational>& alpha, const Rational& epsilon, const Rational& c, unsigned log_power) {
  if (epsilon <= 0 || c <= 0) throw std::invalid_argument("n0_average: ε and c must be positive");
  const auto amin = smallest_positive(alpha);
  if (!amin) throw std::invalid_argument("n0_average: no positive α");
  const Rational exponent = 2 + 2 / *amin;  // u/v
  const Integer u = numerator(exponent), v = denominator(exponent);
  if (u > 100000 || v > 1000) throw std::invalid_argument("n0_average: exponent too large");
  const unsigned long uu = u.convert_to<unsigned long>(), vv = v.convert_to<unsigned long>();
  const Rational inverse = 1 / epsilon;
  if (log_power == 0 || epsilon == 1) {
    // Least N with N^v >= c^v·(1/ε)^u, i.e. N^v >= ⌈that⌉: an integer v-th root, rounded up.
    return ceil_root(ceil(Rational(pow(c, static_cast<long>(vv)) * pow(inverse, static_cast<long>(uu)))), vv);
  }
  if (log_power > 1000) throw std::invalid_argument("n0_average: log power too large");
  for (unsigned bits = 128; bits <= 4096; bits *= 2) {
    Interval ln = log(Interval(inverse, bits));
    Interval value = Interval(c, bits) * exp(Interval(exponent, bits) * ln);
    Interval factor = Interval(Rational(1), bits) + ln;
    for (unsigned k = 0; k < log_power; ++k) value = value * factor;
    const Integer lo = floor(value.lower()), hi = floor(value.upper());
    if (lo == hi) return lo + 1;
  }
  throw std::invalid_argument("n0_average: the floor is undecided at 4096 bits");
}

}  // namespace lgc::kernel
