#include "support.hpp"

using lgc::Integer;
using lgc::ParseError;
using lgc::Rational;
using lgc::parse_rational;

TEST_CASE("parse_rational reads each literal form exactly", "[numeric][parse]") {
  CHECK(parse_rational("3") == Rational(3));
  CHECK(parse_rational("-7/4") == Rational(-7, 4));
  CHECK(parse_rational("+7/4") == Rational(7, 4));
  CHECK(parse_rational("14/8") == Rational(7, 4));
  CHECK(parse_rational("0.125") == Rational(1, 8));
  CHECK(parse_rational("-0.1") == Rational(-1, 10));
  CHECK(parse_rational(".5") == Rational(1, 2));
  CHECK(parse_rational("1e-3") == Rational(1, 1000));
  CHECK(parse_rational("2.5E+2") == Rational(250));
  CHECK(parse_rational("-1.25e1") == Rational(-25, 2));
  CHECK(parse_rational("0") == Rational(0));
  // Leading zeros are decimal, never octal.
  CHECK(parse_rational("0125") == Rational(125));
  CHECK(parse_rational("010/08") == Rational(5, 4));
  CHECK(parse_rational("0.0125") == Rational(1, 80));
  CHECK(lgc::parse_integer("-007") == -7);
  // A decimal is the exact fraction it spells, not the nearest double.
  CHECK(parse_rational("0.1") + parse_rational("0.2") == parse_rational("0.3"));
  CHECK(parse_rational("123456789012345678901234567890") == Rational(Integer("123456789012345678901234567890")));
}

TEST_CASE("parse_rational refuses what is not an exact literal", "[numeric][parse]") {
  for (const char* bad : {"", "-", "1/0", "1/-2", "a", "1.", "1e", "1e+", "0x10", "1 /2", " 1", "1/2/3", "1.5/2",
                          "inf", "nan", "1e1000001", "--1"}) {
    INFO("literal: \"" << bad << "\"");
    CHECK_THROWS_AS(parse_rational(bad), ParseError);
  }
}

TEST_CASE("to_string prints reduced fractions and integers", "[numeric]") {
  CHECK(lgc::to_string(Rational(Integer(6), Integer(-8))) == "-3/4");
  CHECK(lgc::to_string(Rational(7)) == "7");
  CHECK(lgc::to_string(parse_rational(lgc::to_string(Rational(-355, 113)))) == "-355/113");
}

TEST_CASE("floor and ceil of rationals", "[numeric]") {
  CHECK(lgc::floor(Rational(7, 2)) == 3);
  CHECK(lgc::ceil(Rational(7, 2)) == 4);
  CHECK(lgc::floor(Rational(-7, 2)) == -4);
  CHECK(lgc::ceil(Rational(-7, 2)) == -3);
  CHECK(lgc::floor(Rational(4)) == 4);
  CHECK(lgc::ceil(Rational(-4)) == -4);
}
