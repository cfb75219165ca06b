#pragma once
// The toolkit's simulation-error bound for two-layer softmax models
// (derived in docs/theory.md, "The simulation-error bound"): for x of length
// T and z = x_I of length n keeping x's last τ + 1 tokens,
//   |f(x) − f(z)|∞ <= Lip_out·[Δ_x + Δ_z + Σ_g e^{A_g}(1 + B_g)(ε(T, Δ_x) + ε(n, Δ_z) + E)],
// with Δ_x = K T^{−r}, Δ_z = K n^{−r} + Lip(Φ)‖μ̂_T(x) − μ̂_n(z)‖₁ (the
// queries against Φ_q), E the statistic error of z (Lemma 5.3's quantity),
// A_g, B_g the second-layer box bounds, ε(L, Δ) the first layer's
// convergence error summed over the keys, and Lip_out the Lipschitz constant
// of the second MLP and the readout. Stated for any period, with
// |z| ≡ |x| (mod period) so that z's query window has x's residues, and for
// second-layer heads whose positional terms are below 1 (token-dominant;
// φ = 0 is the plain case): a window key of offset t then weighs L^{φ(t)}e^{s}
// at the query L, which enters ε(L, Δ) through W_L = Σ_t L^{φ(t)}; the k_g
// window keys with φ < 0 may weigh less than e^{−A}, so Ā_x >= e^{−A}(T − k_g)/T
// and head g's factor e^{A}(1 + B) grows by T/(T − k_g).
#include "lgcheck/quantities/first_layer_constants.hpp"
#include "lgcheck/quantities/layer2_integrands.hpp"

#include <map>
#include <optional>
#include <string>

namespace lgc {

/// Why the bound does not apply to the model, or "" when it does.
std::string simulation_bound_obstacle(const Model& model);

/// A second-layer head's positional profile at its query (docs/theory.md, "Second-layer positional terms"): with
/// P = {φ(0..τ)} ∪ {1} (1 standing for the bulk), Φ = max P, the top offsets W⁺ = {t : φ(t) = Φ} (empty when only the
/// bulk reaches Φ = 1), the margin γ₂,g = min(1, Φ − max(P ∖ {Φ})) (1 when P = {Φ}) and k_g, the offsets with φ < 0.
struct SecondLayerProfile {
  Rational top;                          ///< Φ
  std::vector<std::size_t> top_offsets;  ///< W⁺, increasing
  Rational margin;                       ///< γ₂,g
  std::size_t light_keys = 0;            ///< k_g
};
SecondLayerProfile second_layer_profile(const Head& head);

/// τ + 1 + max W⁺ over the second-layer heads (τ + 1 when no head has a top window key): how many of x's last tokens
/// z must keep, so that each top key's window is x's.
std::size_t kept_tail(const Model& model);

/// γ₂ = min over the second-layer heads of γ₂,g (`second_layer_profile`): the second layer's positional margin,
/// in (0, 1]; 1 − max_t φ(t) capped at 1 when every φ is below 1.
Rational second_layer_margin(const Model& model);

struct SimulationBound {
  Rational total;               ///< the bound (upper end)
  Rational query_x, query_z;    ///< Δ_x, Δ_z
  Rational statistic_error;     ///< E (upper end)
  Rational histogram_drift;     ///< ‖μ̂_n(z) − μ̂_T(x)‖₁ (exact)
  Rational eps_x, eps_z;        ///< ε(T, Δ_x), ε(n, Δ_z) (the largest over the heads)
  Rational lip_out;
  std::vector<Rational> head_factor;  ///< e^{A_g}(1 + B_g)
};

/// The parts of the bound a mutation may drop (all kept by default).
struct SimulationBoundTerms {
  bool exponential = true;    ///< false: every e^{A_g} dropped
  bool window_weight = true;  ///< false: each second-layer window key counted once (W_L = τ + 1), as if φ were 0
  bool same_residue = true;   ///< false: z of any length accepted, as if its query window had x's residues
  bool mlp_term = true;       ///< false: Lip_out without the second MLP's factor 1 + ‖out‖‖in‖
  bool top_pairing = true;    ///< false: the top window keys' paired difference π_g charged nothing
  bool vanishing_share = true;  ///< false: a head with Φ > 1 charges nothing for its bulk and lower window keys
  bool every_head = true;       ///< false: the sum over the second layer's heads keeps the first head's term only
};

/// The bound for one x and any number of z: what depends on x alone (its
/// statistics, its query's distance to Φ_q, ε(T, Δ_x), the head boxes) is
/// computed once.
class SimulationErrorBound {
 public:
  using Histograms = std::map<std::size_t, std::vector<Rational>>;  ///< μ̂_{|w|−t} by offset t from w's end
  SimulationErrorBound(const SoftmaxFirstLayer& layer, const Tokens& x, const SimulationBoundTerms& terms = {});
  SimulationBound bound(const Tokens& z) const;

 private:
  struct Head {
    SecondLayerHeadBox box;        ///< A, m, m_query, B, v (docs/theory.md)
    Interval eA;                   ///< e^{A} (1 without the exponential)
    Rational eps_x;                ///< ε(T, Δ_x)
    std::vector<Rational> phi;     ///< the head's positional terms φ(0..τ) (all 0 under the window-weight mutation)
    SecondLayerProfile profile;    ///< Φ, W⁺, γ₂,g, k_g (from the model, under every mutation)
  };
  Rational convergence_sum(const Head& h, std::uint64_t L, const Rational& delta) const;
  Rational vanishing_share(const Head& h, std::uint64_t L) const;
  Rational head_share(const Head& h, std::uint64_t L, const Rational& delta) const;  ///< ε(L, Δ) or ε°(L)
  Rational top_pairing(const Head& h, const Tokens& z, const Histograms& histogram_z, const SimulationBound& s) const;

  const SoftmaxFirstLayer* layer_;
  StatisticAverages stats_;
  ConvergenceConstant k_;
  Rational lip_phi_, lip_out_, query_x_;
  std::uint64_t x_length_ = 0;  ///< |x|: z must have its residue
  Tokens x_tail_;               ///< x's last kept_tail tokens: z must end with them
  std::vector<std::size_t> offsets_;  ///< 0 and every top offset t
  Histograms histogram_x_at_;         ///< μ̂_{T−t}(x) for every t of offsets_
  SimulationBoundTerms terms_;
  bool same_residue_ = true;
  std::vector<Head> heads_;
};

}  // namespace lgc
