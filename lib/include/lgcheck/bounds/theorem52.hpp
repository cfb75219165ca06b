#pragma once
// Theorem 5.2's length requirement in the two forms the sources give
// (THEORY.md §3), with C = max(C(f), C(g)) (upper ends of the certified
// enclosures) and γ = min(γ(f), γ(g)):
//   variant A: N = ⌈(C/ε)^{max(1/γ, 3)}⌉,   variant B: N = ⌈C·ε^{−max(1/γ, 3)}⌉.
// Variant A is what the toolkit's C(f) proves: C·n^{−min(γ,1/3)} <= ε for
// n >= N_A. Both ceilings are exact (integer roots, `ceil_power`).
#include "lgcheck/quantities/complexity.hpp"

namespace lgc {

struct Theorem52Bounds {
  Rational epsilon;
  Rational C;                     ///< max of the C(f) upper ends
  std::optional<Rational> gamma;  ///< min of the margins (nullopt = +∞)
  Rational exponent;              ///< 1/r′ = max(1/γ, 3, 1/γ₂) (γ₂ the second-layer margin, 1 without φ there)
  Integer N_variant_A;  ///< ⌈(C/ε)^exponent⌉ + lcm(Δ) − 1 (a c-good z needs |z| ≡ |x| mod Δ)
  Integer N_variant_B;  ///< ⌈C·ε^{−exponent}⌉ (the paper's other form, reported)
};

/// The bounds for the models' constants (one for a model, two for a pair).
Theorem52Bounds theorem52_bounds(const std::vector<ComplexityConstant>& constants, const Rational& epsilon);

}  // namespace lgc
