// Theorem 4.2: N₀ and the Dirichlet-multinomial weight, by hand.
#include "lgcheck/kernel/average.hpp"

#include <catch2/catch.hpp>

using lgc::Integer;
using lgc::Rational;
namespace k = lgc::kernel;

TEST_CASE("Dirichlet-multinomial weight of one string", "[kernel][average]") {
  // α = (1, 1): P(x) = n_0! n_1! / (T+1)!: "001" -> 2!·1!/4! = 1/12.
  CHECK(k::string_probability({Rational(1), Rational(1)}, {0, 0, 1}) == Rational(1, 12));
  // α = (2, 1/2), "10": (1/2)·2 / ((5/2)(7/2)) = 1/(35/4) = 4/35.
  CHECK(k::string_probability({Rational(2), Rational(1, 2)}, {1, 0}) == Rational(4, 35));
  // α_s = 0: symbol s is never drawn.
  CHECK(k::string_probability({Rational(0), Rational(3)}, {0}) == 0);
  CHECK(k::string_probability({Rational(0), Rational(3)}, {1, 1}) == 1);
  // The weights of all strings of length 3 sum to 1.
  Rational total = 0;
  for (int b = 0; b < 8; ++b) total += k::string_probability({Rational(2), Rational(1, 2)}, {b & 1, (b >> 1) & 1, (b >> 2) & 1});
  CHECK(total == 1);
}

TEST_CASE("N0 of Theorem 4.2", "[kernel][average]") {
  // presence_skewed: α = (2, 1/2), ε = 1/2, c = 5/8: exponent 2 + 2/(1/2) = 6, 5/8·2^6 = 40.
  CHECK(k::n0_average({Rational(2), Rational(1, 2)}, Rational(1, 2), Rational(5, 8), 0) == 40);
  // From α_max = 2 (the mutation) it would be 5/8·2^3 = 5.
  CHECK(k::n0_average({Rational(2)}, Rational(1, 2), Rational(5, 8), 0) == 5);
  // α = (1, 1), ε = 1/4, c = 1: 4^4 = 256. α = (3, 3): exponent 8/3, 4^{8/3} = 2^{16/3} ≈ 40.3 -> 41.
  CHECK(k::n0_average({Rational(1), Rational(1)}, Rational(1, 4), Rational(1), 0) == 256);
  CHECK(k::n0_average({Rational(3), Rational(3)}, Rational(1, 4), Rational(1), 0) == 41);
  // k = 1, ε = 1/4, α = (1, 1): 256·(1 + ln 4) = 256 + 354.89… = 610.89… -> 611.
  CHECK(k::n0_average({Rational(1), Rational(1)}, Rational(1, 4), Rational(1), 1) == 611);
}
