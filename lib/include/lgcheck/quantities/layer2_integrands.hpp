#pragma once
// The second layer's attention integrands in the limit (THEORY.md §3,
// Lemma 5.3), their certified bounds G and L, and the statistic error of a
// subsampled z.
//
// For a two-layer softmax model, second-layer head g and the query's limit
// representation Φ_q = Φ(window_T, μ̂_T) of x:
//   p_{g,0}(w, μ̂) = e^{⟨Φ(w, μ̂), M_g Φ_q⟩},  p_{g,1+k}(w, μ̂) = p_{g,0}(w, μ̂)·(V_g Φ(w, μ̂))_k,
// the integrands whose averages over the keys are the head's denominator and
// numerator in the limit. Every coordinate of Φ (and of the actual first-layer
// output) lies in [−b_r, b_r] (the box of the query embedding plus the heads'
// value vectors); with q_g = M_g Φ_q and A_g = Σ_r b_r |q_{g,r}|:
//   G = max_g e^{A_g}·max(1, B_g),  B_g = max_k Σ_c |V_{g,kc}| b_c,
//   L = max_g e^{A_g}·Lip(Φ)·max(‖q_g‖₁, ‖q_g‖₁·B_g + max_k Σ_c |V_{g,kc}|),
// so G >= |p| and L >= the Lipschitz constant of p in μ̂ (ℓ₁ → |·|).
#include "lgcheck/semantics/softmax_layer1.hpp"

#include <vector>

namespace lgc {

struct IntegrandBounds {
  std::vector<Rational> box;  ///< b_r: |Φ_r| <= b_r (also for the actual outputs Y)
  Rational lip_phi;           ///< Lip(Φ) in μ̂, ℓ₁ → ℓ∞ (L5.lip)
  Rational G, L;
};

/// b_r for every coordinate of the first layer's output (and of Φ).
std::vector<Rational> first_layer_box(const SoftmaxFirstLayer& layer);

/// What the box b says about a second-layer head (M, V), for every Y, Y′, Φ
/// and u with coordinates |Y_r|, |Y′_r|, |Φ_r| <= b_r
/// (docs/theory.md, "The simulation-error bound" and "The complexity C(f)"):
struct SecondLayerHeadBox {
  Rational A;        ///< |⟨Y, M Y′⟩| <= A = min(Σ_{r,c} b_r|M_rc|b_c, ‖M‖₂·‖b‖₂²)
  Rational m;        ///< ‖M Y′‖₁ <= m = Σ_{r,c}|M_rc| b_c
  Rational m_query;  ///< |⟨Φ, M u⟩| <= m_query·‖u‖∞, m_query = Σ_{r,c} b_r|M_rc|
  Rational B;        ///< ‖V Y‖∞ <= B = max_k Σ_c |V_kc| b_c
  Rational v;        ///< ‖V‖∞ = max_k Σ_c |V_kc|
};
SecondLayerHeadBox second_layer_head_box(const Head& head, const std::vector<Rational>& box);

/// G and L of the integrands for every query in the box at once (q_g
/// bounded through M_g and b instead of M_g Φ_q): the constants C(f) uses.
/// `with_exponential` = false drops e^{A_g} (a mutation of C(f)).
IntegrandBounds a_priori_integrand_bounds(const SoftmaxFirstLayer& layer, bool with_exponential = true);

/// Lemma 5.3's limit on the statistic error of a subsample of length n:
/// c·(G + L)·(τ + 1)·n^{−rate} (rate 1/3 in the lemma), an enclosure.
Interval statistic_error_limit(const Rational& c, const Rational& G, const Rational& L, std::size_t tau,
                               std::uint64_t n, const Rational& rate = Rational(1, 3));

class Layer2Integrands {
 public:
  /// `query` is Φ_q (an enclosure).
  Layer2Integrands(const SoftmaxFirstLayer& layer, const Vector<Number>& query);
  /// Every p_{g,k} at (window, μ̂), concatenated over the heads.
  IVector at(const std::vector<std::size_t>& window, const std::vector<Rational>& mu) const;
  /// G and L of these integrands (certified upper bounds).
  IntegrandBounds bounds() const;

 private:
  const SoftmaxFirstLayer* layer_;
  std::vector<IVector> q_;  // M_g Φ_q per head
};

/// The limit representation of x's last position, Φ(window_T, μ̂_T).
Vector<Number> query_limit(const SoftmaxFirstLayer& layer, const Tokens& x);

/// The integrands of x (its query fixes them) and their averages over x,
/// computed once; error(z) = max over the integrands of |avg_x p − avg_z p|,
/// each average over the positions that have a bulk (i > τ + 1).
class StatisticAverages {
 public:
  StatisticAverages(const SoftmaxFirstLayer& layer, const Tokens& x);
  const IntegrandBounds& bounds() const { return bounds_; }
  const SoftmaxFirstLayer& layer() const { return *layer_; }
  const Layer2Integrands& integrands() const { return integrands_; }
  /// avg_x p_k for every integrand k.
  const IVector& averages() const { return averages_; }
  Number error(const Tokens& z) const;

 private:
  const SoftmaxFirstLayer* layer_;
  Layer2Integrands integrands_;
  IntegrandBounds bounds_;
  IVector averages_;
};

}  // namespace lgc
