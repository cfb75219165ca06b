#pragma once
// Exact numbers: Integer and Rational on GMP through Boost.Multiprecision,
// and the exact parser for the literal forms of the case format.
#include <boost/multiprecision/gmp.hpp>

#include <stdexcept>
#include <string>
#include <string_view>

namespace lgc {

using Integer = boost::multiprecision::mpz_int;
using Rational = boost::multiprecision::mpq_rational;

/// Thrown when a string is not an exact rational literal.
class ParseError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/// Parse "-7/4", "3", "0.125", "1e-3", "-2.5E+2" into the exact rational they
/// spell. Throws ParseError naming what is wrong. Exponents beyond +-100000 are
/// refused (they would spell numbers of unbounded size).
Rational parse_rational(std::string_view text);

/// Parse a decimal integer (optional sign, digits only).
Integer parse_integer(std::string_view text);

/// "7", "-3/8": numerator, and "/denominator" when it is not 1 (reduced form).
std::string to_string(const Rational& q);
std::string to_string(const Integer& z);

/// Smallest integer >= q and largest integer <= q.
Integer ceil(const Rational& q);
Integer floor(const Rational& q);

/// base^exponent for a non-negative machine exponent.
Integer pow(const Integer& base, unsigned long exponent);
Rational pow(const Rational& base, long exponent);

/// The least integer N with N >= base^exponent, exactly: for exponent u/v
/// (u, v > 0) it is the least N with N^v >= base^u, an integer v-th root.
/// Requires base >= 0 and exponent > 0; throws std::invalid_argument when
/// u > 100000 or v > 1000 (the powers would be unreasonably large).
Integer ceil_power(const Rational& base, const Rational& exponent);

/// True when q is an integer.
bool is_integer(const Rational& q);

}  // namespace lgc
