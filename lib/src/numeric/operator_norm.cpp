#include "lgcheck/numeric/operator_norm.hpp"

#include <optional>
#include <stdexcept>

namespace lgc {
namespace {

using Poly = std::vector<Rational>;  // low degree first

void trim(Poly& p) {
  while (!p.empty() && p.back() == 0) p.pop_back();
}

Poly derivative(const Poly& p) {
  Poly d;
  for (std::size_t k = 1; k < p.size(); ++k) d.push_back(p[k] * static_cast<long>(k));
  trim(d);
  return d;
}

/// Remainder of a by b (b non-zero).
Poly remainder(Poly a, const Poly& b) {
  trim(a);
  while (a.size() >= b.size() && !a.empty()) {
    Rational factor = a.back() / b.back();
    std::size_t shift = a.size() - b.size();
    for (std::size_t k = 0; k < b.size(); ++k) a[shift + k] -= factor * b[k];
    a.pop_back();
    trim(a);
  }
  return a;
}

/// Quotient of a by b, exact division expected.
Poly quotient(Poly a, const Poly& b) {
  trim(a);
  if (a.size() < b.size()) return {};
  Poly q(a.size() - b.size() + 1, Rational(0));
  while (a.size() >= b.size() && !a.empty()) {
    Rational factor = a.back() / b.back();
    std::size_t shift = a.size() - b.size();
    q[shift] = factor;
    for (std::size_t k = 0; k < b.size(); ++k) a[shift + k] -= factor * b[k];
    a.pop_back();
    trim(a);
  }
  return q;
}

Poly gcd(Poly a, Poly b) {
  trim(a);
  trim(b);
  while (!b.empty()) {
    Poly r = remainder(a, b);
    a = std::move(b);
    b = std::move(r);
  }
  return a;
}

Rational evaluate(const Poly& p, const Rational& x) {
  Rational v = 0;
  for (std::size_t k = p.size(); k-- > 0;) v = v * x + p[k];
  return v;
}

std::vector<Poly> sturm_sequence(const Poly& p) {
  std::vector<Poly> s{p, derivative(p)};
  while (!s.back().empty()) {
    Poly r = remainder(s[s.size() - 2], s.back());
    for (auto& c : r) c = -c;
    if (r.empty()) break;
    s.push_back(std::move(r));
  }
  if (s.back().empty()) s.pop_back();
  return s;
}

int sign_changes(const std::vector<Poly>& s, const Rational& x) {
  int changes = 0, last = 0;
  for (const auto& p : s) {
    Rational v = evaluate(p, x);
    int sign = v > 0 ? 1 : (v < 0 ? -1 : 0);
    if (sign == 0) continue;
    if (last != 0 && sign != last) ++changes;
    last = sign;
  }
  return changes;
}

/// The simplest rational in [lo, hi] (0 <= lo <= hi), by continued fractions.
Rational simplest_between(const Rational& lo, const Rational& hi) {
  Integer fl = floor(lo);
  if (Rational(fl) == lo) return lo;
  if (Rational(fl + 1) <= hi) return Rational(fl + 1);
  return Rational(fl) + 1 / simplest_between(1 / (hi - Rational(fl)), 1 / (lo - Rational(fl)));
}

/// sqrt(q) exactly when q is the square of a rational.
std::optional<Rational> rational_sqrt(const Rational& q) {
  Integer n = numerator(q), d = denominator(q);
  if (mpz_perfect_square_p(n.backend().data()) == 0 || mpz_perfect_square_p(d.backend().data()) == 0)
    return std::nullopt;
  return Rational(sqrt(n), sqrt(d));
}

}  // namespace

std::vector<Rational> characteristic_polynomial(const Matrix<Rational>& A) {
  const std::size_t n = A.rows();
  if (A.cols() != n) throw std::invalid_argument("characteristic_polynomial: the matrix is not square");
  // Faddeev–LeVerrier: M_0 = 0, c_n = 1; M_k = A M_{k−1} + c_{n−k+1} I, c_{n−k} = −tr(A M_k)/k.
  Poly c(n + 1, Rational(0));
  c[n] = 1;
  Matrix<Rational> Mk(n, n, Rational(0));
  for (std::size_t k = 1; k <= n; ++k) {
    Matrix<Rational> next = multiply(A, Mk);
    for (std::size_t i = 0; i < n; ++i) next(i, i) += c[n - k + 1];
    Mk = std::move(next);
    Matrix<Rational> AM = multiply(A, Mk);
    Rational trace = 0;
    for (std::size_t i = 0; i < n; ++i) trace += AM(i, i);
    c[n - k] = -trace / static_cast<long>(k);
  }
  return c;
}

SpectralNorm spectral_norm(const Matrix<Rational>& M, unsigned bits) {
  Matrix<Rational> A = multiply(transpose(M), M);
  SpectralNorm s;
  Rational trace = 0;
  for (std::size_t i = 0; i < A.rows(); ++i) trace += A(i, i);
  if (trace == 0) {  // M = 0
    s.squared_exact = true;
    s.value = Number(0);
    return s;
  }
  Poly p = characteristic_polynomial(A);
  Poly square_free = quotient(p, gcd(p, derivative(p)));
  std::vector<Poly> sturm = sturm_sequence(square_free);
  // Every root is real and in [0, trace]; isolate the largest.
  Rational lo = 0, hi = trace;
  const int above_hi = sign_changes(sturm, hi);
  const Rational width = Rational(1, 1) / pow(Integer(2), bits);
  std::optional<Rational> root;
  if (evaluate(square_free, hi) == 0) root = hi;
  while (!root && hi - lo > width * hi) {
    Rational mid = (lo + hi) / 2;
    if (evaluate(square_free, mid) == 0 && sign_changes(sturm, mid) == above_hi) {
      root = mid;  // the largest root itself
      break;
    }
    if (sign_changes(sturm, mid) - above_hi >= 1)
      lo = mid;  // a root in (mid, hi]
    else
      hi = mid;
    // A rational root is found as soon as the interval is narrow enough.
    Rational candidate = simplest_between(lo, hi);
    if (candidate > lo && evaluate(square_free, candidate) == 0 && sign_changes(sturm, candidate) == above_hi)
      root = candidate;
  }
  if (root) {
    s.squared_lower = s.squared_upper = *root;
    s.squared_exact = true;
    if (auto r = rational_sqrt(*root)) {
      s.value = Number(*r);
      return s;
    }
    s.value = Number(sqrt(Interval(*root, bits + 16)));
    return s;
  }
  s.squared_lower = lo;
  s.squared_upper = hi;
  s.value = Number(sqrt(Interval::hull(lo, hi, bits + 16)));
  return s;
}

}  // namespace lgc
