#pragma once
// Theorem 4.2's length requirement (THEORY.md §2, average case):
//   N₀ = ⌈c · ε^{−(2 + 2/α_min)} · (1 + ln(1/ε))^k⌉
// with the hidden constant c and the log power k named parameters (the
// paper states N₀ = Õ(ε^{−2−2/α_min}); defaults c = 1, k = 0). The rounding
// up is exact: by integer powers when the value is a rational power, else
// from a certified enclosure refined until its floor is decided (the value
// is then transcendental, never an integer).
#include "lgcheck/average/dirichlet.hpp"
#include "lgcheck/numeric/interval.hpp"

namespace lgc {

struct Theorem42Bounds {
  Rational epsilon, c;
  unsigned log_power = 0;  ///< k
  Rational alpha_min;      ///< the smallest positive α_s
  Rational exponent;       ///< 2 + 2/α_min
  Interval value;          ///< enclosure of c·ε^{−exponent}·(1 + ln(1/ε))^k
  Integer N0;              ///< its ceiling
};

/// The bound for accuracy ε and the prior's α_min (a mutation passes α_max
/// instead to show that the checker catches the wrong exponent).
Theorem42Bounds theorem42_bounds(const Rational& epsilon, const Rational& alpha_min, const Rational& c = 1,
                                 unsigned log_power = 0);

}  // namespace lgc
