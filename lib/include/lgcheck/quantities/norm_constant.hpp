#pragma once
// The norm constant L(f) of a one-layer model [toolkit definition of the
// paper's "composite of parameter norms", THEORY.md §2]: with ℓ∞ vector norms
// and max-row-sum matrix norms, all exact in ℚ,
//   Lip(R) = ‖U‖·(1 + ‖B‖·‖A‖)  (times |ω| with a sin readout),
//   V_h    = max over classes (s, r) of ‖V_h·(E_s + p_r)‖,
//   L(f)   = Lip(R)·Σ_h V_h.
#include "lgcheck/model/model.hpp"

#include <vector>

namespace lgc {

Rational linf_norm(const QVector& v);
/// max_i Σ_j |m_ij|, the operator norm ℓ∞ → ℓ∞.
Rational max_row_sum_norm(const QMatrix& m);

struct NormConstant {
  Rational readout_lipschitz;       ///< Lip(R)
  std::vector<Rational> value_norms;  ///< V_h per head of the first layer
  Rational L;
};

struct NormOptions {
  bool include_mlp_term = true;   ///< the (1 + ‖B‖‖A‖) factor (a mutation drops it)
  bool include_sin_factor = true; ///< the |ω| factor of a sin readout
};

/// Lip(R): the ℓ∞ Lipschitz constant of y ↦ readout(MLP(y)).
Rational readout_lipschitz(const Model& model, const NormOptions& options = {});
/// V_h for head h of the first layer.
Rational value_norm(const Model& model, std::size_t head);
NormConstant norm_constant(const Model& model, const NormOptions& options = {});

}  // namespace lgc
