#include "lgcheck/numeric/small_rational.hpp"

#include <climits>

namespace lgc {
namespace {

bool fits_small(const mpz_t z) { return mpz_fits_slong_p(z) && mpz_cmp_si(z, LONG_MIN) != 0; }

}  // namespace

std::optional<SmallRational> to_small(const Rational& q) {
  const auto* data = q.backend().data();
  if (!fits_small(mpq_numref(data)) || !fits_small(mpq_denref(data))) return std::nullopt;
  return SmallRational{mpz_get_si(mpq_numref(data)), mpz_get_si(mpq_denref(data))};
}

Rational to_rational(const SmallRational& q) {
  Rational r;
  // Already canonical: GMP's own canonical form of num/den.
  mpq_set_si(r.backend().data(), q.num, static_cast<unsigned long>(q.den));
  return r;
}

}  // namespace lgc
