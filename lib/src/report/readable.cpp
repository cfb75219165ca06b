#include "lgcheck/report/readable.hpp"

#include <fmt/format.h>
#include <gmp.h>

namespace lgc {
namespace {

constexpr std::size_t kIntegerDigits = 20;   // printed in full up to this many digits
constexpr std::size_t kFractionChars = 24;   // a fraction printed exactly up to this length

/// The number of decimal digits of |n|: from its decimal text when short; otherwise GMP's size in base 10
/// (exact or one too many) corrected by one exact comparison with a power of 10, without converting n.
std::size_t digit_count(const Integer& n) {
  const mpz_srcptr z = n.backend().data();
  if (mpz_sizeinbase(z, 2) <= 4096) return n.str().size() - (n < 0 ? 1 : 0);
  const std::size_t d = mpz_sizeinbase(z, 10);
  Integer power;
  mpz_ui_pow_ui(power.backend().data(), 10, d - 1);
  return mpz_cmpabs(z, power.backend().data()) >= 0 ? d : d - 1;
}

}  // namespace

std::string readable(const Integer& n) {
  const std::size_t digits = digit_count(n);
  if (digits <= kIntegerDigits) return n.str();
  return fmt::format("{} ({} digits)", to_decimal(Rational(n), 5), digits);
}

std::string readable(const Rational& q) {
  if (denominator(q) == 1) return readable(numerator(q));
  const std::string exact = to_string(q);
  if (exact.size() <= kFractionChars) return exact;
  const std::size_t digits = std::max(digit_count(numerator(q)), digit_count(denominator(q)));
  return fmt::format("~{} ({}-digit fraction)", to_decimal(q, 12), digits);
}

std::string readable(const Interval& x) {
  if (x.lower() == x.upper()) return readable(x.lower());
  return fmt::format("[{}, {}]", x.lower_decimal(6), x.upper_decimal(6));
}

std::string readable(const Number& x) { return x.is_exact() ? readable(x.exact()) : readable(x.enclosure()); }

std::string decimal(const Number& x, int significant) {
  if (x.is_exact()) return to_decimal(x.exact(), significant);
  const Interval e = x.enclosure();
  return to_decimal((e.lower() + e.upper()) / 2, significant);
}

}  // namespace lgc
