#include "lgcheck/numeric/matrix.hpp"
#include "lgcheck/numeric/number.hpp"
#include "lgcheck/report/readable.hpp"

#include "support.hpp"

#include <gmp.h>

using lgc::Interval;
using lgc::Number;
using lgc::Rational;

TEST_CASE("Number stays exact on rational arithmetic", "[numeric][number]") {
  Number a(Rational(1, 3)), b(Rational(1, 6));
  Number c = a + b * Number(2) - Number(Rational(1, 2)) / Number(3);
  REQUIRE(c.is_exact());
  CHECK(c.exact() == Rational(1, 2));
  CHECK(relu(Number(Rational(-2))).exact() == 0);
  CHECK(sin(Number(0), 64).is_exact());
  CHECK(exp(Number(0), 64).exact() == 1);
}

TEST_CASE("Number turns into an enclosure when a transcendental enters", "[numeric][number]") {
  Number s = sin(Number(Rational(1)), 128);
  CHECK_FALSE(s.is_exact());
  Number t = s * Number(Rational(2)) + Number(Rational(1));
  CHECK_FALSE(t.is_exact());
  CHECK(t.precision() == 128);
  // An exact 0 annihilates the enclosure and stays exact.
  CHECK((s * Number(0)).is_exact());
  CHECK(*lgc::compare(s, Number(Rational(84, 100))) == 1);
  CHECK(*lgc::compare(s, Number(Rational(85, 100))) == -1);
  CHECK_FALSE(lgc::compare(s, s).has_value());
  CHECK_THROWS_AS(s.exact(), std::logic_error);
  // ReLU of an enclosure: the exact 0 when it is certainly <= 0 (0 itself included), an enclosure otherwise.
  const Number negative = s - Number(1);  // sin 1 − 1 < 0
  REQUIRE(relu(negative).is_exact());
  CHECK(relu(negative).exact() == 0);
  CHECK(relu(Number(Interval::hull(Rational(-1), Rational(0), 64))).is_exact());
  const Number straddling(Interval::hull(Rational(-1), Rational(1, 8), 64));
  CHECK_FALSE(relu(straddling).is_exact());
  CHECK(lgc::upper_of(relu(straddling)) == Rational(1, 8));
  CHECK(lgc::lower_of(relu(straddling)) == 0);
  CHECK_FALSE(relu(s).is_exact());
}

TEST_CASE("Matrices: products, transposes and applications are exact", "[numeric][matrix]") {
  lgc::Matrix<Rational> m(2, 3, Rational(0));
  m(0, 0) = 1;
  m(0, 2) = Rational(1, 2);
  m(1, 1) = -3;
  lgc::Vector<Rational> v{Rational(2), Rational(1, 3), Rational(4)};
  auto mv = lgc::apply<Rational>(m, v);
  CHECK(mv == lgc::Vector<Rational>{Rational(4), Rational(-1)});
  auto mtm = lgc::multiply(lgc::transpose(m), m);
  CHECK(mtm.rows() == 3);
  CHECK(mtm(2, 2) == Rational(1, 4));
  CHECK(mtm(0, 2) == Rational(1, 2));
  CHECK(lgc::dot<Rational>(v, v) == Rational(4 + 16) + Rational(1, 9));
  CHECK_THROWS_AS(lgc::apply<Rational>(m, mv), std::invalid_argument);
}

TEST_CASE("Matrices over intervals enclose the exact rational product", "[numeric][matrix]") {
  std::mt19937_64 rng(lgc::test::test_seed() + 7);
  INFO("seed " << lgc::test::test_seed() + 7);
  lgc::Matrix<Rational> a(3, 4), b(4, 2);
  for (std::size_t r = 0; r < 3; ++r)
    for (std::size_t c = 0; c < 4; ++c) a(r, c) = lgc::test::random_rational(rng);
  for (std::size_t r = 0; r < 4; ++r)
    for (std::size_t c = 0; c < 2; ++c) b(r, c) = lgc::test::random_rational(rng);
  auto to_interval = [](const Rational& q) { return Interval(q, 64); };
  lgc::Matrix<Interval> ai = a.map<Interval>(to_interval), bi = b.map<Interval>(to_interval);
  lgc::Matrix<Interval> pi = lgc::multiply(ai, bi);
  lgc::Matrix<Rational> p = lgc::multiply(a, b);
  for (std::size_t r = 0; r < 3; ++r)
    for (std::size_t c = 0; c < 2; ++c) CHECK(pi(r, c).contains(p(r, c)));
  lgc::Vector<Interval> v{Interval(Rational(1, 3), 64), Interval(Rational(-2), 64), Interval(Rational(5, 7), 64),
                          Interval(Rational(0), 64)};
  auto av = lgc::apply<Interval>(ai, v);
  auto exact = lgc::apply<Rational>(a, lgc::Vector<Rational>{Rational(1, 3), Rational(-2), Rational(5, 7), Rational(0)});
  for (std::size_t r = 0; r < 3; ++r) CHECK(av[r].contains(exact[r]));
}

TEST_CASE("readable prints an integer in full up to 20 digits, else 5 significant digits and its exact digit count",
          "[numeric][readable]") {
  CHECK(lgc::readable(lgc::Integer(12345)) == "12345");
  CHECK(lgc::readable(lgc::Integer("-99999999999999999999")) == "-99999999999999999999");
  // 10^k has k + 1 digits and 10^k - 1 has k, on both sides of the 4096-bit switch to the counting without conversion.
  for (unsigned long k : {25ul, 1200ul, 1300ul, 5000ul, 40000ul}) {
    lgc::Integer power;
    mpz_ui_pow_ui(power.backend().data(), 10, k);
    INFO("10^" << k);
    CHECK(lgc::readable(power) == "1e+" + std::to_string(k) + " (" + std::to_string(k + 1) + " digits)");
    CHECK(lgc::readable(lgc::Integer(power - 1)) == "1e+" + std::to_string(k) + " (" + std::to_string(k) + " digits)");
    CHECK(lgc::readable(lgc::Integer(-power)) == "-1e+" + std::to_string(k) + " (" + std::to_string(k + 1) + " digits)");
    CHECK(lgc::readable(lgc::Integer(3 * power + 1)) == "3e+" + std::to_string(k) + " (" + std::to_string(k + 1) + " digits)");
  }
}
