#include "lgcheck/numeric/interval.hpp"

#include <mpfr.h>

#include <algorithm>
#include <stdexcept>

namespace lgc {
namespace {

/// An mpfr_t with RAII.
class Mpfr {
 public:
  explicit Mpfr(mpfr_prec_t prec) { mpfr_init2(v_, prec); }
  ~Mpfr() { mpfr_clear(v_); }
  Mpfr(const Mpfr&) = delete;
  Mpfr& operator=(const Mpfr&) = delete;
  mpfr_ptr get() { return v_; }

 private:
  mpfr_t v_;
};

unsigned joint_precision(const Interval& a, const Interval& b) {
  return std::max(a.precision(), b.precision());
}

Rational endpoint_to_rational(mpfr_srcptr x) {
  if (!mpfr_number_p(x)) throw std::domain_error("interval endpoint is not a finite number");
  Rational q;
  mpfr_get_q(q.backend().data(), x);
  return q;
}

std::string endpoint_decimal(mpfr_srcptr x, int digits, bool lower) {
  char* text = nullptr;
  const char* format = lower ? "%.*RDg" : "%.*RUg";
  if (mpfr_asprintf(&text, format, digits, x) < 0) throw std::runtime_error("mpfr_asprintf failed");
  std::string result(text);
  mpfr_free_str(text);
  return result;
}

}  // namespace

Interval::Interval() : Interval(zero(kDefaultPrecisionBits)) {}

Interval Interval::zero(unsigned precision_bits) {
  Interval r(Rational(0), precision_bits);
  return r;
}

Interval::Interval(const Rational& q, unsigned precision_bits) {
  mpfi_set_prec(raw(), precision_bits);
  mpfi_set_q(raw(), q.backend().data());
}

Interval Interval::hull(const Rational& lo, const Rational& hi, unsigned precision_bits) {
  if (hi < lo) throw std::domain_error("Interval::hull: lo > hi");
  Interval r = Interval::zero(precision_bits);
  mpfi_interv_q(r.raw(), lo.backend().data(), hi.backend().data());
  return r;
}

mpfi_srcptr Interval::raw() const { return value_.backend().data(); }
mpfi_ptr Interval::raw() { return value_.backend().data(); }

unsigned Interval::precision() const { return static_cast<unsigned>(mpfi_get_prec(raw())); }

Rational Interval::lower() const {
  Mpfr x(mpfi_get_prec(raw()));
  mpfi_get_left(x.get(), raw());
  return endpoint_to_rational(x.get());
}

Rational Interval::upper() const {
  Mpfr x(mpfi_get_prec(raw()));
  mpfi_get_right(x.get(), raw());
  return endpoint_to_rational(x.get());
}

Rational Interval::width() const { return upper() - lower(); }

bool Interval::contains(const Rational& q) const {
  return mpfi_is_inside_q(q.backend().data(), raw()) > 0;
}

bool Interval::contains(const Interval& other) const { return mpfi_is_inside(other.raw(), raw()) > 0; }

bool Interval::is_point() const { return is_bounded() && lower() == upper(); }

bool Interval::is_bounded() const { return mpfi_bounded_p(raw()) != 0; }

std::optional<int> Interval::sign() const {
  if (mpfi_is_strictly_pos(raw())) return 1;
  if (mpfi_is_strictly_neg(raw())) return -1;
  if (mpfi_is_zero(raw())) return 0;
  return std::nullopt;
}

std::string Interval::lower_decimal(int digits) const {
  Mpfr x(mpfi_get_prec(raw()));
  mpfi_get_left(x.get(), raw());
  return endpoint_decimal(x.get(), digits, true);
}

std::string Interval::upper_decimal(int digits) const {
  Mpfr x(mpfi_get_prec(raw()));
  mpfi_get_right(x.get(), raw());
  return endpoint_decimal(x.get(), digits, false);
}

std::string Interval::to_string(int digits) const {
  return "[" + lower_decimal(digits) + ", " + upper_decimal(digits) + "]";
}

Interval Interval::operator-() const {
  Interval r = Interval::zero(precision());
  mpfi_neg(r.raw(), raw());
  return r;
}

Interval operator+(const Interval& a, const Interval& b) {
  Interval r = Interval::zero(joint_precision(a, b));
  mpfi_add(r.raw(), a.raw(), b.raw());
  return r;
}

Interval operator-(const Interval& a, const Interval& b) {
  Interval r = Interval::zero(joint_precision(a, b));
  mpfi_sub(r.raw(), a.raw(), b.raw());
  return r;
}

Interval operator*(const Interval& a, const Interval& b) {
  Interval r = Interval::zero(joint_precision(a, b));
  mpfi_mul(r.raw(), a.raw(), b.raw());
  return r;
}

Interval operator/(const Interval& a, const Interval& b) {
  if (mpfi_has_zero(b.raw())) throw std::domain_error("interval division by an enclosure of 0");
  Interval r = Interval::zero(joint_precision(a, b));
  mpfi_div(r.raw(), a.raw(), b.raw());
  return r;
}

Interval exp(const Interval& x) {
  Interval r = Interval::zero(x.precision());
  mpfi_exp(r.raw(), x.raw());
  return r;
}

Interval log(const Interval& x) {
  if (!mpfi_is_strictly_pos(x.raw())) throw std::domain_error("log of an enclosure that is not > 0");
  Interval r = Interval::zero(x.precision());
  mpfi_log(r.raw(), x.raw());
  return r;
}

Interval sin(const Interval& x) {
  Interval r = Interval::zero(x.precision());
  mpfi_sin(r.raw(), x.raw());
  return r;
}

Interval sqrt(const Interval& x) {
  if (mpfi_is_strictly_neg(x.raw())) throw std::domain_error("sqrt of a negative enclosure");
  Interval r = Interval::zero(x.precision());
  mpfi_sqrt(r.raw(), x.raw());
  return r;
}

Interval relu(const Interval& x) {
  if (mpfi_is_nonneg(x.raw())) return x;
  Interval zero = Interval::zero(x.precision());
  if (mpfi_is_nonpos(x.raw())) return zero;
  Interval r = Interval::zero(x.precision());
  Mpfr hi(x.precision());
  mpfi_get_right(hi.get(), x.raw());
  mpfi_interv_fr(r.raw(), &zero.raw()->left, hi.get());
  return r;
}

Interval abs(const Interval& x) {
  Interval r = Interval::zero(x.precision());
  mpfi_abs(r.raw(), x.raw());
  return r;
}

Rational exp_upper(const Rational& x) { return exp(Interval(x, 128)).upper(); }

Interval power(const Integer& i, const Rational& q, unsigned precision_bits) {
  if (i <= 0) throw std::domain_error("power: base must be a positive integer");
  Interval base(Rational(i), precision_bits);
  return exp(Interval(q, precision_bits) * log(base));
}

std::string to_decimal(const Rational& q, int significant) {
  Mpfr x(256);
  mpfr_set_q(x.get(), q.backend().data(), MPFR_RNDN);
  char* text = nullptr;
  if (mpfr_asprintf(&text, "%.*RNg", significant, x.get()) < 0) throw std::runtime_error("mpfr_asprintf failed");
  std::string result(text);
  mpfr_free_str(text);
  return result;
}

SignDecision decide_sign(const std::function<Interval(unsigned)>& enclose, unsigned start_bits, unsigned budget_bits) {
  SignDecision d;
  for (unsigned bits = start_bits; bits <= budget_bits; bits *= 2) {
    d.bits = bits;
    d.sign = enclose(bits).sign();  // 0 only for the point [0, 0]
    if (d.sign) return d;
  }
  return d;
}

bool certainly_less(const Interval& a, const Interval& b) { return mpfi_cmp(a.raw(), b.raw()) < 0; }

bool certainly_different(const Interval& a, const Interval& b) { return mpfi_cmp(a.raw(), b.raw()) != 0; }

}  // namespace lgc
