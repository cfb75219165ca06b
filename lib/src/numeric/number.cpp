#include "lgcheck/numeric/number.hpp"

#include <stdexcept>

namespace lgc {
namespace {

unsigned precision_for(const Number& a, const Number& b) {
  unsigned bits = std::max(a.precision(), b.precision());
  return bits == 0 ? kDefaultPrecisionBits : bits;
}

}  // namespace

const Rational& Number::exact() const {
  if (const auto* q = std::get_if<Rational>(&value_)) return *q;
  throw std::logic_error("Number::exact() on an enclosure");
}

Interval Number::enclosure(unsigned bits) const {
  if (const auto* q = std::get_if<Rational>(&value_)) return Interval(*q, bits);
  return std::get<Interval>(value_);
}

unsigned Number::precision() const {
  if (const auto* x = std::get_if<Interval>(&value_)) return x->precision();
  return 0;
}

std::optional<int> Number::sign() const {
  if (const auto* q = std::get_if<Rational>(&value_)) return q->sign();
  return std::get<Interval>(value_).sign();
}

Number Number::operator-() const {
  if (is_exact()) return Number(Rational(-exact()));
  return Number(-std::get<Interval>(value_));
}

Number operator+(const Number& a, const Number& b) {
  if (a.is_exact() && b.is_exact()) return Number(Rational(a.exact() + b.exact()));
  unsigned bits = precision_for(a, b);
  return Number(a.enclosure(bits) + b.enclosure(bits));
}

Number operator-(const Number& a, const Number& b) {
  if (a.is_exact() && b.is_exact()) return Number(Rational(a.exact() - b.exact()));
  unsigned bits = precision_for(a, b);
  return Number(a.enclosure(bits) - b.enclosure(bits));
}

Number operator*(const Number& a, const Number& b) {
  if (a.is_exact() && b.is_exact()) return Number(Rational(a.exact() * b.exact()));
  // An exact zero annihilates any enclosure: keep it exact.
  if ((a.is_exact() && a.exact() == 0) || (b.is_exact() && b.exact() == 0)) return Number(0);
  unsigned bits = precision_for(a, b);
  return Number(a.enclosure(bits) * b.enclosure(bits));
}

Number operator/(const Number& a, const Number& b) {
  if (a.is_exact() && b.is_exact()) {
    if (b.exact() == 0) throw std::domain_error("division by zero");
    return Number(Rational(a.exact() / b.exact()));
  }
  if (a.is_exact() && a.exact() == 0) return Number(0);
  unsigned bits = precision_for(a, b);
  return Number(a.enclosure(bits) / b.enclosure(bits));
}

bool operator==(const Number& a, const Number& b) {
  return a.is_exact() && b.is_exact() && a.exact() == b.exact();
}

Number relu(const Number& x) {
  if (x.is_exact()) return x.exact() > 0 ? x : Number(0);
  // An enclosure that is certainly <= 0 gives the exact 0 (ReLU is 0 on the
  // whole enclosure), so it stays exact through later products and sums.
  if (mpfi_is_nonpos(x.enclosure().raw())) return Number(0);
  return Number(relu(x.enclosure()));
}

Number sin(const Number& x, unsigned bits) {
  if (x.is_exact() && x.exact() == 0) return Number(0);
  return Number(sin(x.enclosure(bits)));
}

Number exp(const Number& x, unsigned bits) {
  if (x.is_exact() && x.exact() == 0) return Number(1);
  return Number(exp(x.enclosure(bits)));
}

Rational upper_of(const Number& x) { return x.is_exact() ? x.exact() : x.enclosure().upper(); }
Rational lower_of(const Number& x) { return x.is_exact() ? x.exact() : x.enclosure().lower(); }

Number abs(const Number& x) {
  if (x.is_exact()) return Number(Rational(abs(x.exact())));
  return Number(abs(x.enclosure()));
}

Number max_abs_difference(const std::vector<Number>& a, const std::vector<Number>& b) {
  if (a.size() != b.size()) throw std::invalid_argument("max_abs_difference: sizes differ");
  Number best(0);
  for (std::size_t k = 0; k < a.size(); ++k) {
    Number d = abs(a[k] - b[k]);
    if (upper_of(d) > upper_of(best)) best = d;
  }
  return best;
}

std::optional<int> compare(const Number& a, const Number& b) {
  if (a.is_exact() && b.is_exact()) return a.exact() < b.exact() ? -1 : (a.exact() > b.exact() ? 1 : 0);
  return (a - b).sign();
}

}  // namespace lgc
