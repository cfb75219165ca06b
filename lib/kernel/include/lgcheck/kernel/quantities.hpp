#pragma once
// The Section 4 constants, from docs/theory.md §2: the logit margin γ, the hardmax threshold, the norm constant L and
// the Theorem 4.1 length bounds. All exact: rationals and integers, every rounding decided on integers.
#include "lgcheck/model/model.hpp"
#include "lgcheck/numeric/rational.hpp"

#include <optional>
#include <utility>
#include <vector>

namespace lgc::kernel {

/// A margin; std::nullopt stands for +∞ (no attainable set has two values).
using Margin = std::optional<Rational>;
/// The smaller of two margins.
Margin smaller_margin(const Margin& a, const Margin& b);

/// |q|; E_s + p_r; the least y >= 0 with y^n >= N (N >= 0); the number of bits of z > 0.
Rational magnitude(const Rational& q);
QVector class_vector(const Model& model, std::size_t token, std::size_t residue);
Integer ceil_root(const Integer& N, unsigned long n);
std::size_t bit_length(const Integer& z);

/// γ(f): the smallest positive difference inside one attainable set A_h(y, r) (theory.md §2 "Logit margin");
/// for a pair, the smaller margin.
Margin logit_margin(const Model& model);
Margin logit_margin(const std::vector<Model>& models);

/// The least integer i >= 1 with (i/c)^γ >= 2^p, c > 0 (so ⌈c·2^{p/γ}⌉), decided on integers: for γ = u/v,
/// (i·b)^u >= a^u·2^{p v} with c = a/b. γ = +∞ gives ⌈c⌉. Throws std::invalid_argument on absurd sizes.
Integer scaled_threshold(const Rational& c, const Margin& gamma, unsigned p);
/// The hardmax threshold ⌈2^{p/γ}⌉: the least i >= 1 with i^γ >= 2^p.
Integer hardmax_threshold(unsigned p, const Margin& gamma);
/// The rounding precision p the models use (largest finite:p or finite-weights:p), nullopt when no model rounds.
std::optional<unsigned> rounding_bits(const std::vector<Model>& models);

/// ‖M‖ with max-row-sum (ℓ∞ operator) norm.
Rational row_sum_norm(const QMatrix& m);
/// Lip(R) = ‖U‖·(1 + ‖B‖·‖A‖)·|ω| (the MLP of the one layer; |ω| with a sin readout).
Rational readout_lipschitz(const Model& model);
/// All classes (s, r) as vectors E_s + p_r.
std::vector<QVector> classes(const Model& m);
/// lo_r += min_c v_c,r and hi_r += max_c v_c,r over the vectors v_c (one coordinate range per r).
void add_range(const std::vector<QVector>& vs, std::vector<Rational>& lo, std::vector<Rational>& hi);
/// Σ_h [min_c, max_c] of (V_h y_c)_r over the first layer's heads and the classes c, coordinate by coordinate, as
/// (lo, hi): the range of what the heads add to a query's embedding, each head a convex combination of its value
/// vectors.
std::pair<std::vector<Rational>, std::vector<Rational>> heads_value_range(const Model& model);
/// V_h = max over classes (s, r) of ‖V_h (E_s + p_r)‖∞.
Rational value_norm(const Model& model, std::size_t head);
/// L(f) = Lip(R)·Σ_h V_h for a one-layer model, nullopt otherwise; for a pair, the larger constant.
std::optional<Rational> norm_constant(const Model& model);
std::optional<Rational> norm_constant(const std::vector<Model>& models);

/// Theorem 4.1, the paper's form: ⌈c·max{2^{p/γ}, L²Δ⁷S⁶τ̂²/ε²}⌉, τ̂ = τ + 1,
/// the 2^{p/γ} term 1 without rounding; `sum_form` uses (S³ + τ̂)².
std::optional<Integer> n_paper(const std::vector<Model>& models, const Rational& epsilon, const Rational& c,
                               bool sum_form = false);

/// δ = min(2, ε/L), 2 when L = 0 (theory.md "Theorem 4.1 bounds": an attention distance is at most 2).
Rational simulation_delta(const std::vector<Model>& models, const Rational& epsilon);
/// Q = ⌈(5K + 7S + 2τ + 6)/δ + 1/2⌉, K = SΔ.
Integer simulation_resolution(const std::vector<Model>& models, const Rational& epsilon);
/// N_sim(ε): the construction's length bound, with the finite:p padding.
std::optional<Integer> n_sim(const std::vector<Model>& models, const Rational& epsilon);

}  // namespace lgc::kernel
