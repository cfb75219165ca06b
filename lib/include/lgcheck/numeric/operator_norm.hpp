#pragma once
// Certified spectral norms ‖M‖₂ = sqrt(λ_max(MᵀM)) without floating point:
// the characteristic polynomial of MᵀM is computed exactly
// (Faddeev–LeVerrier over ℚ), made square-free, and its largest root is
// isolated by bisection with Sturm sequences to the requested width. When
// that root is rational (diagonal and rank-one M, for instance) it is found
// exactly — the simplest rational in the isolating interval is tried as a
// root — and ‖M‖₂ is exact whenever the root is a rational square.
#include "lgcheck/numeric/interval.hpp"
#include "lgcheck/numeric/matrix.hpp"
#include "lgcheck/numeric/number.hpp"
#include "lgcheck/numeric/rational.hpp"

#include <vector>

namespace lgc {

/// Coefficients c₀ + c₁x + … + c_n xⁿ of det(xI − A) for square A.
std::vector<Rational> characteristic_polynomial(const Matrix<Rational>& A);

struct SpectralNorm {
  Rational squared_lower, squared_upper;  ///< λ_max(MᵀM) ∈ [lower, upper] (equal when exact)
  bool squared_exact = false;
  Number value;                           ///< ‖M‖₂: exact, or a certified enclosure
};

/// ‖M‖₂ with λ_max isolated to relative width 2^{−bits}.
SpectralNorm spectral_norm(const Matrix<Rational>& M, unsigned bits = 128);

}  // namespace lgc
