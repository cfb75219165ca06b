#pragma once
// Number: an exact rational while the computation stays rational, a certified
// enclosure once a transcendental function (or an enclosure operand) enters.
// Arithmetic on two exact operands is exact; otherwise the exact operand is
// enclosed at the other operand's precision.
#include "lgcheck/numeric/interval.hpp"
#include "lgcheck/numeric/rational.hpp"

#include <variant>

namespace lgc {

class Number {
 public:
  Number() : value_(Rational(0)) {}
  Number(const Rational& q) : value_(q) {}  // NOLINT: implicit by design
  Number(long v) : value_(Rational(v)) {}   // NOLINT
  Number(int v) : value_(Rational(v)) {}    // NOLINT
  explicit Number(const Interval& x) : value_(x) {}

  bool is_exact() const { return std::holds_alternative<Rational>(value_); }
  /// The exact value; throws std::logic_error when this is an enclosure.
  const Rational& exact() const;
  /// An enclosure: the stored one, or the exact value enclosed at `bits`.
  Interval enclosure(unsigned bits = kDefaultPrecisionBits) const;
  /// Precision of the enclosure, 0 when exact.
  unsigned precision() const;

  /// Certified sign; nullopt when an enclosure straddles 0.
  std::optional<int> sign() const;

  Number operator-() const;
  friend Number operator+(const Number& a, const Number& b);
  friend Number operator-(const Number& a, const Number& b);
  friend Number operator*(const Number& a, const Number& b);
  friend Number operator/(const Number& a, const Number& b);
  Number& operator+=(const Number& b) { return *this = *this + b; }
  Number& operator-=(const Number& b) { return *this = *this - b; }
  Number& operator*=(const Number& b) { return *this = *this * b; }

  /// Exact equality of two exact numbers; for enclosures use `compare`.
  friend bool operator==(const Number& a, const Number& b);

 private:
  std::variant<Rational, Interval> value_;
};

/// max(0, x), exact when x is, and the exact 0 when x is an enclosure certainly <= 0.
Number relu(const Number& x);
/// sin(x); exact only for x = 0.
Number sin(const Number& x, unsigned bits);
/// exp(x); exact only for x = 0.
Number exp(const Number& x, unsigned bits);

/// The upper and lower ends of a certified number (the value when exact).
Rational upper_of(const Number& x);
Rational lower_of(const Number& x);

/// |x|, exact when x is.
Number abs(const Number& x);

/// The largest |a_k − b_k| of two vectors of equal size: exact when every
/// entry is; otherwise the enclosure of the entry with the largest upper bound
/// (so its upper bound bounds every entry).
Number max_abs_difference(const std::vector<Number>& a, const std::vector<Number>& b);

/// Certified three-way comparison: -1, 0, +1, or nullopt when enclosures
/// overlap and cannot decide.
std::optional<int> compare(const Number& a, const Number& b);

}  // namespace lgc
