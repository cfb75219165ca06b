// Certified spectral norms: exact on diagonal and rank-one matrices, and on
// random matrices the enclosure agrees with a certified Rayleigh quotient
// from a high-precision power iteration.
#include "lgcheck/numeric/operator_norm.hpp"

#include "support.hpp"

using lgc::Interval;
using lgc::QMatrix;
using lgc::Rational;

TEST_CASE("Characteristic polynomial of a small matrix", "[operator-norm]") {
  QMatrix A(2, 2);
  A(0, 0) = 2, A(0, 1) = 1, A(1, 0) = 1, A(1, 1) = 3;
  // x² − 5x + 5
  CHECK(lgc::characteristic_polynomial(A) == std::vector<Rational>{5, -5, 1});
}

TEST_CASE("Spectral norms are exact on diagonal and rank-one matrices", "[operator-norm]") {
  QMatrix D(3, 3, Rational(0));
  D(0, 0) = Rational(-3, 2), D(1, 1) = Rational(1, 3), D(2, 2) = Rational(5, 4);
  lgc::SpectralNorm d = lgc::spectral_norm(D);
  REQUIRE(d.value.is_exact());
  CHECK(d.value.exact() == Rational(3, 2));
  // rank one: u vᵀ has norm |u| |v| = 5 · 13 for u = (3, 4), v = (5, 12)
  QMatrix R(2, 2);
  R(0, 0) = 15, R(0, 1) = 36, R(1, 0) = 20, R(1, 1) = 48;
  lgc::SpectralNorm r = lgc::spectral_norm(R);
  REQUIRE(r.value.is_exact());
  CHECK(r.value.exact() == 65);
  // rank one with an irrational norm: (1, 1)(1, 2)ᵀ has norm sqrt(2)·sqrt(5) = sqrt(10)
  QMatrix I(2, 2);
  I(0, 0) = 1, I(0, 1) = 2, I(1, 0) = 1, I(1, 1) = 2;
  lgc::SpectralNorm i = lgc::spectral_norm(I);
  CHECK(i.squared_exact);
  CHECK(i.squared_lower == 10);
  CHECK_FALSE(certainly_different(i.value.enclosure(), sqrt(Interval(Rational(10), 256))));
  CHECK(lgc::spectral_norm(QMatrix(2, 3, Rational(0))).value.exact() == 0);
}

TEST_CASE("Spectral norm enclosures agree with a high-precision Rayleigh quotient", "[operator-norm]") {
  std::mt19937_64 rng(lgc::test::test_seed() + 61);
  INFO("seed " << lgc::test::test_seed() + 61);
  for (int rep = 0; rep < 8; ++rep) {
    std::size_t rows = 2 + rng() % 4, cols = 2 + rng() % 4;
    QMatrix M(rows, cols);
    for (std::size_t r = 0; r < rows; ++r)
      for (std::size_t c = 0; c < cols; ++c) M(r, c) = lgc::test::random_rational(rng, 9);
    lgc::SpectralNorm s = lgc::spectral_norm(M, 128);
    // Power iteration on A = MᵀM at 1024 bits; the Rayleigh quotient of any
    // vector is a certified lower bound of λ_max.
    QMatrix A = lgc::multiply(lgc::transpose(M), M);
    const unsigned bits = 1024;
    std::vector<Interval> v(cols, Interval(Rational(1), bits));
    for (std::size_t c = 0; c < cols; ++c) v[c] = Interval(Rational(1 + static_cast<long>(c), 7), bits);
    Interval rayleigh = Interval::zero(bits);
    for (int it = 0; it < 400; ++it) {
      std::vector<Interval> w(cols, Interval::zero(bits));
      for (std::size_t r = 0; r < cols; ++r)
        for (std::size_t c = 0; c < cols; ++c) w[r] += Interval(A(r, c), bits) * v[c];
      Interval num = Interval::zero(bits), den = Interval::zero(bits);
      for (std::size_t r = 0; r < cols; ++r) num += v[r] * w[r], den += v[r] * v[r];
      rayleigh = num / den;
      Interval norm = sqrt(den);
      for (std::size_t r = 0; r < cols; ++r) v[r] = w[r] / norm;
    }
    INFO("rep " << rep << ": lambda_max in [" << lgc::to_decimal(s.squared_lower, 30) << ", "
                << lgc::to_decimal(s.squared_upper, 30) << "], Rayleigh " << rayleigh.to_string(30));
    CHECK(rayleigh.lower() <= s.squared_upper);  // a certified lower bound never exceeds the enclosure
    CHECK(s.squared_upper - rayleigh.lower() < Rational(1, 1000000) * s.squared_upper);  // and converged to it
    CHECK(s.squared_upper - s.squared_lower <= s.squared_upper / lgc::pow(lgc::Integer(2), 128));
  }
}
