#pragma once
// Certified real enclosures: a closed interval [lo, hi] with MPFR endpoints,
// held in Boost's mpfi_float (MPFI underneath). Every operation rounds
// outward, so the true value of an expression always lies inside the result.
// Callers see only this wrapper: a faster ball library can replace MPFI here.
#include "lgcheck/numeric/rational.hpp"

#include <boost/multiprecision/mpfi.hpp>

#include <functional>
#include <optional>
#include <string>

namespace lgc {

/// Working precision, in bits of the endpoints' significands.
constexpr unsigned kDefaultPrecisionBits = 128;

class Interval {
 public:
  /// The point interval [0, 0] at the default precision.
  Interval();
  /// The point interval [0, 0] at the given precision.
  static Interval zero(unsigned precision_bits);
  /// The smallest interval of the given precision containing q.
  Interval(const Rational& q, unsigned precision_bits = kDefaultPrecisionBits);  // NOLINT: implicit by design
  /// The hull [lo, hi] (rounded outward). Requires lo <= hi.
  static Interval hull(const Rational& lo, const Rational& hi, unsigned precision_bits);

  unsigned precision() const;
  /// Exact endpoints. Throws std::domain_error on an unbounded or NaN interval.
  Rational lower() const;
  Rational upper() const;
  /// Exact width upper() - lower().
  Rational width() const;
  bool contains(const Rational& q) const;
  bool contains(const Interval& other) const;
  /// The interval is a single point (lower() == upper()).
  bool is_point() const;
  bool is_bounded() const;

  /// Certified sign: +1 / -1 when the whole interval lies strictly on that
  /// side of 0, 0 when it is [0,0], nullopt when it straddles 0.
  std::optional<int> sign() const;

  /// Decimal endpoints rounded outward, with `digits` significant digits.
  std::string lower_decimal(int digits = 20) const;
  std::string upper_decimal(int digits = 20) const;
  std::string to_string(int digits = 20) const;  // "[lo, hi]"

  Interval operator-() const;
  friend Interval operator+(const Interval& a, const Interval& b);
  friend Interval operator-(const Interval& a, const Interval& b);
  friend Interval operator*(const Interval& a, const Interval& b);
  /// Throws std::domain_error when b contains 0.
  friend Interval operator/(const Interval& a, const Interval& b);
  Interval& operator+=(const Interval& b) { return *this = *this + b; }
  Interval& operator-=(const Interval& b) { return *this = *this - b; }
  Interval& operator*=(const Interval& b) { return *this = *this * b; }

  friend Interval exp(const Interval& x);
  /// Natural logarithm; throws std::domain_error unless x > 0.
  friend Interval log(const Interval& x);
  friend Interval sin(const Interval& x);
  friend Interval sqrt(const Interval& x);
  /// max(0, x), elementwise on the enclosure.
  friend Interval relu(const Interval& x);
  /// |x|.
  friend Interval abs(const Interval& x);

  /// Raw access for code that calls MPFI directly.
  mpfi_srcptr raw() const;
  mpfi_ptr raw();

 private:
  boost::multiprecision::mpfi_float value_;
};

/// An upper bound of e^x (the upper end of a 128-bit enclosure).
Rational exp_upper(const Rational& x);

/// i^q for a positive integer i and rational q, as exp(q ln i).
Interval power(const Integer& i, const Rational& q, unsigned precision_bits);

/// The sign of a real given as an enclosure at any precision: evaluates
/// `enclose(bits)` at start_bits, doubling until the sign is decided or the
/// budget is passed. `bits` is the precision that decided (or the last tried).
struct SignDecision {
  std::optional<int> sign;
  unsigned bits = 0;
};
SignDecision decide_sign(const std::function<Interval(unsigned)>& enclose, unsigned start_bits, unsigned budget_bits);

/// q in decimal with `significant` digits, rounded to nearest (for display
/// only: never compared).
std::string to_decimal(const Rational& q, int significant = 4);

/// Certified comparisons: true only when the order is proved.
bool certainly_less(const Interval& a, const Interval& b);
/// The two enclosures share no point (so the values differ).
bool certainly_different(const Interval& a, const Interval& b);

}  // namespace lgc
