#pragma once
// Theorem 5.2's length requirement in the two forms the sources give
// (docs/theory.md, "Theorem 5.2's length bounds"), with C = max(C(f), C(g))
// (upper ends of the certified enclosures), e = 1/r′ = max(1/γ, 3, 1/γ₂) and
// Δ the lcm of the models' periods:
//   variant A: N = max(⌈(C/ε)^e⌉, n₀) + Δ − 1,   variant B: N = ⌈C·ε^{−e}⌉,
// n₀ the larger of the models' starts (C(f) holds for n >= n₀).
// Variant A is what the toolkit's C(f) proves: C·n^{−r′} <= ε for
// n >= ⌈(C/ε)^e⌉, and a c-good z needs |z| ≡ |x| (mod Δ). Both ceilings are
// exact (integer roots, `ceil_power`; std::overflow_error beyond its range).
#include "lgcheck/quantities/complexity.hpp"

namespace lgc {

struct Theorem52Bounds {
  Rational epsilon;
  Rational C;                     ///< max of the C(f) upper ends
  std::optional<Rational> gamma;  ///< min of the margins (nullopt = +∞)
  Rational exponent;              ///< 1/r′ = max(1/γ, 3, 1/γ₂) (γ₂ the second-layer margin, 1 without φ there)
  Integer N_variant_A;  ///< max(⌈(C/ε)^exponent⌉, n₀) + lcm(Δ) − 1 (a c-good z needs |z| ≡ |x| mod Δ)
  Integer N_variant_B;  ///< ⌈C·ε^{−exponent}⌉ (the paper's other form, reported)
  std::size_t period = 1;  ///< Δ, the lcm of the models' periods
  Rational second_layer_margin = 1;  ///< γ₂, the smaller of the models' (1: no second-layer positional term)
};

/// The bounds for the models' constants (one for a model, two for a pair).
Theorem52Bounds theorem52_bounds(const std::vector<ComplexityConstant>& constants, const Rational& epsilon);

}  // namespace lgc
