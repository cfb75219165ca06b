#include "lgcheck/bounds/theorem52.hpp"

#include <algorithm>
#include <numeric>
#include <stdexcept>

namespace lgc {

Theorem52Bounds theorem52_bounds(const std::vector<ComplexityConstant>& constants, const Rational& epsilon) {
  if (constants.empty()) throw std::invalid_argument("Theorem 5.2 bound: no model");
  if (epsilon <= 0) throw std::invalid_argument("Theorem 5.2 bound: epsilon must be > 0");
  Theorem52Bounds b;
  b.epsilon = epsilon;
  for (const ComplexityConstant& c : constants) {
    b.period = std::lcm(b.period, c.period);
    b.C = std::max(b.C, c.C.upper());
    if (c.gamma && (!b.gamma || *c.gamma < *b.gamma)) b.gamma = c.gamma;
    b.second_layer_margin = std::min(b.second_layer_margin, c.second_layer_margin);
  }
  // 1/r′ = max(1/γ, 3, 1/γ₂): max(1/γ, 3) when the second layer has no positional term (γ₂ = 1).
  b.exponent = std::max(b.gamma ? std::max(Rational(1 / *b.gamma), Rational(3)) : Rational(3), Rational(1 / b.second_layer_margin));
  // A c-good z of x needs |z| ≡ |x| (mod Δ): one exists among any Δ consecutive lengths from ⌈(C/ε)^exponent⌉ on.
  // C(f) holds from n₀ = j₀ + the largest top offset on: below it no c-good z is defined.
  std::uint64_t start = 1;
  for (const ComplexityConstant& c : constants) start = std::max(start, c.start);
  b.N_variant_A = std::max<Integer>(ceil_power(b.C / epsilon, b.exponent), Integer(start)) +
                  Integer(static_cast<unsigned long>(b.period - 1));
  // C·ε^{−u/v} = (C^v·ε^{−u})^{1/v}
  const long u = numerator(b.exponent).convert_to<long>(), v = denominator(b.exponent).convert_to<long>();
  b.N_variant_B = ceil_power(pow(b.C, v) * pow(1 / epsilon, u), Rational(1, v));
  return b;
}

}  // namespace lgc
