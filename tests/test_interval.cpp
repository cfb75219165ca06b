// Number conformance: every Interval operation encloses the value computed
// at four times the precision, and the exact rational result (when there is
// one). Seeded; the seed and inputs are printed on failure.
#include "lgcheck/numeric/interval.hpp"

#include "support.hpp"

#include <functional>

using lgc::Interval;
using lgc::Rational;

namespace {

constexpr unsigned kBits = 64;

using Unary = std::function<Interval(const Interval&)>;
using Binary = std::function<Interval(const Interval&, const Interval&)>;

/// The enclosure at `bits` contains the one at 4·bits (hence the true value).
void check_unary_conformance(const char* name, const Unary& op, const Rational& x) {
  INFO(name << "(" << lgc::to_string(x) << ")");
  Interval lo = op(Interval(x, kBits)), hi = op(Interval(x, 4 * kBits));
  CHECK(lo.contains(hi));
  CHECK(hi.width() <= lo.width());
}

void check_binary_conformance(const char* name, const Binary& op, const Rational& a, const Rational& b) {
  INFO(name << "(" << lgc::to_string(a) << ", " << lgc::to_string(b) << ")");
  Interval lo = op(Interval(a, kBits), Interval(b, kBits)), hi = op(Interval(a, 4 * kBits), Interval(b, 4 * kBits));
  CHECK(lo.contains(hi));
}

}  // namespace

TEST_CASE("Interval operations contain the value at four times the precision", "[numeric][interval][conformance]") {
  std::mt19937_64 rng(lgc::test::test_seed());
  INFO("seed " << lgc::test::test_seed());
  for (int rep = 0; rep < 200; ++rep) {
    INFO("repetition " << rep);
    Rational a = lgc::test::random_rational(rng), b = lgc::test::random_rational(rng);
    if (b == 0) b = 1;
    Rational positive = abs(a) + Rational(1, 1000);
    check_binary_conformance("+", [](const Interval& x, const Interval& y) { return x + y; }, a, b);
    check_binary_conformance("-", [](const Interval& x, const Interval& y) { return x - y; }, a, b);
    check_binary_conformance("*", [](const Interval& x, const Interval& y) { return x * y; }, a, b);
    check_binary_conformance("/", [](const Interval& x, const Interval& y) { return x / y; }, a, b);
    check_unary_conformance("exp", [](const Interval& x) { return exp(x); }, a / 100);
    check_unary_conformance("log", [](const Interval& x) { return log(x); }, positive);
    check_unary_conformance("sin", [](const Interval& x) { return sin(x); }, a);
    check_unary_conformance("sqrt", [](const Interval& x) { return sqrt(x); }, positive);
    check_unary_conformance("neg", [](const Interval& x) { return -x; }, a);
    check_unary_conformance("relu", [](const Interval& x) { return relu(x); }, a);
    lgc::Integer base(static_cast<long>(1 + rng() % 1000));
    Rational q = a / 97;
    INFO("power " << base << "^" << lgc::to_string(q));
    CHECK(lgc::power(base, q, kBits).contains(lgc::power(base, q, 4 * kBits)));
  }
}

TEST_CASE("Rational and Interval paths agree: the exact result lies in the enclosure", "[numeric][interval]") {
  std::mt19937_64 rng(lgc::test::test_seed() + 1);
  INFO("seed " << lgc::test::test_seed() + 1);
  for (int rep = 0; rep < 500; ++rep) {
    Rational a = lgc::test::random_rational(rng, 100000), b = lgc::test::random_rational(rng, 100000);
    if (b == 0) b = Rational(1, 3);
    INFO("a = " << lgc::to_string(a) << ", b = " << lgc::to_string(b));
    Interval x(a, kBits), y(b, kBits);
    CHECK(x.contains(a));
    CHECK((x + y).contains(Rational(a + b)));
    CHECK((x - y).contains(Rational(a - b)));
    CHECK((x * y).contains(Rational(a * b)));
    CHECK((x / y).contains(Rational(a / b)));
    CHECK(relu(x).contains(a > 0 ? a : Rational(0)));
    // An integer power is rational: i^k exactly inside the enclosure of exp(k ln i).
    lgc::Integer base(static_cast<long>(1 + rng() % 50));
    long k = static_cast<long>(rng() % 7) - 3;
    CHECK(lgc::power(base, Rational(k), kBits).contains(lgc::pow(Rational(base), k)));
  }
}

TEST_CASE("Interval endpoints and decimals round outward", "[numeric][interval]") {
  Interval third(Rational(1, 3), 64);
  CHECK(third.lower() < Rational(1, 3));
  CHECK(third.upper() > Rational(1, 3));
  CHECK(lgc::parse_rational(third.lower_decimal(10)) <= third.lower());
  CHECK(lgc::parse_rational(third.upper_decimal(10)) >= third.upper());
  Interval exact_half(Rational(1, 2), 64);
  CHECK(exact_half.is_point());
  CHECK(exact_half.lower() == Rational(1, 2));
}

TEST_CASE("Certified comparisons and signs decide only what is proved", "[numeric][interval]") {
  Interval a(Rational(1, 3), 64), b(Rational(1, 2), 64);
  CHECK(lgc::certainly_less(a, b));
  CHECK_FALSE(lgc::certainly_less(b, a));
  CHECK_FALSE(lgc::certainly_less(a, a));
  CHECK(lgc::certainly_different(a, b));
  CHECK_FALSE(lgc::certainly_different(a, a));
  CHECK(*(a - b).sign() == -1);
  CHECK_FALSE((a - a).sign().has_value());  // [1/3] - [1/3] straddles 0 at finite precision
  CHECK_THROWS_AS(a / (a - a), std::domain_error);
  CHECK_THROWS_AS(log(Interval(Rational(-1), 64)), std::domain_error);
}

TEST_CASE("decide_sign raises the precision until the sign is decided", "[numeric][interval]") {
  // exp(1/10^30) - 1 > 0 needs about 100 bits to see.
  Rational tiny(lgc::Integer(1), lgc::pow(lgc::Integer(10), 30));
  auto expression = [&](unsigned bits) { return exp(Interval(tiny, bits)) - Interval(Rational(1), bits); };
  CHECK_FALSE(expression(32).sign().has_value());
  lgc::SignDecision d = lgc::decide_sign(expression, 32, 1024);
  REQUIRE(d.sign.has_value());
  CHECK(*d.sign == 1);
  CHECK(d.bits > 64);
  CHECK(d.bits <= 256);
  // Within too small a budget the sign stays undecided.
  CHECK_FALSE(lgc::decide_sign(expression, 16, 64).sign.has_value());
}
