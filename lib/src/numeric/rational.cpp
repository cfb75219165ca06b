#include "lgcheck/numeric/rational.hpp"

#include <cctype>

namespace lgc {
namespace {

constexpr long kMaxDecimalExponent = 100000;

bool all_digits(std::string_view s) {
  if (s.empty()) return false;
  for (char c : s)
    if (!std::isdigit(static_cast<unsigned char>(c))) return false;
  return true;
}

/// The integer spelled by decimal digits. Leading zeros are dropped first:
/// Boost reads "0125" as octal.
Integer decimal_digits(std::string_view digits) {
  std::size_t first = digits.find_first_not_of('0');
  if (first == std::string_view::npos) return Integer(0);
  return Integer(std::string(digits.substr(first)));
}

[[noreturn]] void refuse(std::string_view text, const std::string& why) {
  throw ParseError("not an exact number \"" + std::string(text) + "\": " + why);
}

/// Split off a leading sign; returns true when negative.
bool take_sign(std::string_view& s) {
  if (!s.empty() && (s.front() == '-' || s.front() == '+')) {
    bool negative = s.front() == '-';
    s.remove_prefix(1);
    return negative;
  }
  return false;
}

Rational parse_decimal(std::string_view whole, std::string_view body) {
  std::string_view mantissa = body;
  long exponent = 0;
  if (auto e = body.find_first_of("eE"); e != std::string_view::npos) {
    mantissa = body.substr(0, e);
    std::string_view exp_text = body.substr(e + 1);
    bool exp_negative = take_sign(exp_text);
    if (!all_digits(exp_text)) refuse(whole, "exponent must be digits");
    if (exp_text.size() > 6) refuse(whole, "exponent too large");
    exponent = std::stol(std::string(exp_text));
    if (exponent > kMaxDecimalExponent) refuse(whole, "exponent too large");
    if (exp_negative) exponent = -exponent;
  }
  std::string_view int_part = mantissa, frac_part;
  if (auto dot = mantissa.find('.'); dot != std::string_view::npos) {
    int_part = mantissa.substr(0, dot);
    frac_part = mantissa.substr(dot + 1);
    if (frac_part.empty() || !all_digits(frac_part))
      refuse(whole, "expected digits after the decimal point");
    if (!int_part.empty() && !all_digits(int_part)) refuse(whole, "expected digits before the decimal point");
  } else if (!all_digits(int_part)) {
    refuse(whole, "expected an integer, a fraction a/b or a decimal");
  }
  std::string digits = std::string(int_part) + std::string(frac_part);
  if (digits.empty()) refuse(whole, "no digits");
  Integer mant = decimal_digits(digits);
  exponent -= static_cast<long>(frac_part.size());
  Integer ten_power = pow(Integer(10), static_cast<unsigned long>(exponent < 0 ? -exponent : exponent));
  return exponent >= 0 ? Rational(mant * ten_power) : Rational(mant, ten_power);
}

}  // namespace

Integer parse_integer(std::string_view text) {
  std::string_view s = text;
  bool negative = take_sign(s);
  if (!all_digits(s)) throw ParseError("not an integer \"" + std::string(text) + "\"");
  Integer z = decimal_digits(s);
  return negative ? Integer(-z) : z;
}

Rational parse_rational(std::string_view text) {
  std::string_view s = text;
  if (s.empty()) refuse(text, "empty string");
  bool negative = take_sign(s);
  Rational value;
  if (auto slash = s.find('/'); slash != std::string_view::npos) {
    std::string_view num = s.substr(0, slash), den = s.substr(slash + 1);
    if (!all_digits(num) || !all_digits(den))
      refuse(text, "a fraction is written a/b with unsigned integers a and b");
    Integer d = decimal_digits(den);
    if (d == 0) refuse(text, "zero denominator");
    value = Rational(decimal_digits(num), d);
  } else {
    value = parse_decimal(text, s);
  }
  return negative ? Rational(-value) : value;
}

std::string to_string(const Integer& z) { return z.str(); }

std::string to_string(const Rational& q) {
  Integer num = boost::multiprecision::numerator(q), den = boost::multiprecision::denominator(q);
  if (den == 1) return num.str();
  return num.str() + "/" + den.str();
}

Integer floor(const Rational& q) {
  Integer num = boost::multiprecision::numerator(q), den = boost::multiprecision::denominator(q);
  Integer quot = num / den;  // truncates toward zero
  if (num < 0 && quot * den != num) quot -= 1;
  return quot;
}

Integer ceil(const Rational& q) {
  Rational neg = -q;
  return -floor(neg);
}

Integer ceil_power(const Rational& base, const Rational& exponent) {
  if (base < 0) throw std::invalid_argument("ceil_power: the base must be >= 0");
  if (exponent <= 0) throw std::invalid_argument("ceil_power: the exponent must be > 0");
  const Integer u = numerator(exponent), v = denominator(exponent);
  if (u > 100000 || v > 100000)
    throw std::overflow_error("ceil_power: the exponent " + to_string(exponent) + " is too large to round exactly");
  // N^v is an integer, so N^v >= base^u exactly when N^v >= ceil(base^u).
  const Integer target = ceil(pow(base, u.convert_to<long>()));
  Integer root;
  mpz_root(root.backend().data(), target.backend().data(), v.convert_to<unsigned long>());  // floor
  if (pow(root, v.convert_to<unsigned long>()) < target) ++root;
  return root;
}

Integer pow(const Integer& base, unsigned long exponent) {
  Integer result;
  mpz_pow_ui(result.backend().data(), base.backend().data(), exponent);
  return result;
}

Rational pow(const Rational& base, long exponent) {
  unsigned long e = static_cast<unsigned long>(exponent < 0 ? -exponent : exponent);
  Rational r(pow(boost::multiprecision::numerator(base), e), pow(boost::multiprecision::denominator(base), e));
  if (exponent < 0) {
    if (r == 0) throw std::domain_error("pow: zero to a negative power");
    r = 1 / r;
  }
  return r;
}

bool is_integer(const Rational& q) { return boost::multiprecision::denominator(q) == 1; }

}  // namespace lgc
