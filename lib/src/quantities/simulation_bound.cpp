#include "lgcheck/quantities/simulation_bound.hpp"

#include "lgcheck/quantities/norm_constant.hpp"
#include "lgcheck/semantics/one_layer.hpp"

#include <algorithm>
#include <stdexcept>

namespace lgc {
namespace {

/// The bulk histograms μ̂_{|x|−t} of x at the offsets t from its end (exact).
SimulationErrorBound::Histograms histograms_before_end(const SoftmaxFirstLayer& layer, const Tokens& x,
                                                     const std::vector<std::size_t>& offsets) {
  SimulationErrorBound::Histograms mu;
  layer.for_each_position(x, [&](const SoftmaxFirstLayer::Point& p) {
    for (std::size_t t : offsets)
      if (p.i + t == x.size()) mu[t] = p.histogram();
  });
  return mu;
}

/// Every top offset t of the model's second-layer heads, with 0 (the query's own histogram).
std::vector<std::size_t> histogram_offsets(const Model& m) {
  std::vector<std::size_t> offsets{0};
  for (const Head& head : m.layers[1].heads)
    for (std::size_t t : second_layer_profile(head).top_offsets) offsets.push_back(t);
  std::sort(offsets.begin(), offsets.end());
  offsets.erase(std::unique(offsets.begin(), offsets.end()), offsets.end());
  return offsets;
}

Rational query_error(const ConvergenceConstant& k, std::uint64_t length) {
  return (Interval(k.K, 128) * power(Integer(length), -k.rate, 128)).upper();
}

}  // namespace

std::string simulation_bound_obstacle(const Model& model) {
  if (model.semantics.kind != Semantics::Kind::Softmax) return "the model is not softmax";
  if (model.layers.size() != 2) return "the bound is stated for two layers";
  return "";
}

SecondLayerProfile second_layer_profile(const Head& head) {
  SecondLayerProfile p;
  p.top = std::max(Rational(1), *std::max_element(head.phi.begin(), head.phi.end()));
  std::optional<Rational> next;  // max(P ∖ {Φ}), P = φ(0..τ) ∪ {1}
  if (p.top > 1) next = Rational(1);
  for (std::size_t t = 0; t < head.phi.size(); ++t) {
    if (head.phi[t] == p.top) p.top_offsets.push_back(t);
    else if (!next || head.phi[t] > *next) next = head.phi[t];
    p.light_keys += head.phi[t] < 0 ? 1 : 0;
  }
  p.margin = next ? std::min(Rational(1), Rational(p.top - *next)) : Rational(1);
  return p;
}

std::size_t kept_tail(const Model& model) {
  std::size_t top = 0;
  for (const Head& head : model.layers.at(1).heads)
    for (std::size_t t : second_layer_profile(head).top_offsets) top = std::max(top, t);
  return model.locality + 1 + top;
}

Rational second_layer_margin(const Model& model) {
  Rational margin = 1;
  for (const Head& head : model.layers.at(1).heads) margin = std::min(margin, second_layer_profile(head).margin);
  return margin;
}

/// ε(L, Δ) = e^A max(1,B)·(1/L)[Σ_{j=j0}^{L}(1 − e^{−δ_j}) + 2 j0 + (τ+1) + W_L] + e^A v K (1/L) Σ_{j=j0}^{L} j^{−r},
/// δ_j = m K j^{−r} + m_query Δ, W_L = Σ_t L^{φ(t)} (τ + 1 when φ = 0); certified, upper end.
Rational SimulationErrorBound::convergence_sum(const Head& h, std::uint64_t L, const Rational& delta) const {
  const unsigned bits = 128;
  const std::size_t tau = layer_->model().locality;
  Interval sum_exp = Interval::zero(bits), sum_pow = Interval::zero(bits);
  const Interval K(k_.K, bits), shift = Interval(h.box.m_query * delta, bits);
  for (std::uint64_t j = k_.from; j <= L; ++j) {
    Interval pw = power(Integer(j), -k_.rate, bits);
    sum_pow += pw;
    sum_exp += Interval(Rational(1), bits) - exp(-(Interval(h.box.m, bits) * K * pw + shift));
  }
  Interval early(Rational(static_cast<long>(2 * k_.from + tau + 1)), bits);  // 2j₀ + (τ+1) + W_L
  const auto& top = h.profile.top_offsets;  // paired in π_g instead (Φ = 1): not in W_L
  for (std::size_t t = 0; t < h.phi.size(); ++t)
    if (std::find(top.begin(), top.end(), t) == top.end())
      early += h.phi[t] == 0 ? Interval(Rational(1), bits) : power(Integer(L), h.phi[t], bits);
  Interval inv_L(Rational(1, 1) / Rational(Integer(L)), bits);
  Interval e = h.eA * Interval(std::max(Rational(1), h.box.B), bits) * inv_L * (sum_exp + early) +
               h.eA * Interval(h.box.v, bits) * K * inv_L * sum_pow;
  return e.upper();
}

/// A head with Φ > 1, normalised by L^Φ: ε°(L) = e^A max(1,B)·[(L − τ − 1)L^{−Φ} + Σ_{t∉W⁺} L^{φ(t)−Φ}], what the bulk
/// and the lower window keys may weigh; certified, upper end.
Rational SimulationErrorBound::vanishing_share(const Head& h, std::uint64_t L) const {
  const unsigned bits = 128;
  const std::size_t tau = layer_->model().locality;
  const Rational top = h.profile.top;
  Interval share = Interval(Rational(Integer(L - tau - 1)), bits) * power(Integer(L), -top, bits);
  for (std::size_t t = 0; t < h.phi.size(); ++t)
    if (h.phi[t] != top) share += power(Integer(L), h.phi[t] - top, bits);
  return (h.eA * Interval(std::max(Rational(1), h.box.B), bits) * share).upper();
}

/// π_g = Σ_{t∈W⁺} e^A[max(1,B)(1 − e^{−δ′_t}) + v ΔY_t], the top window keys of x and z compared key by key:
/// ΔY_t = K(T−t)^{−r} + K(n−t)^{−r} + Lip(Φ)‖μ̂_{n−t}(z) − μ̂_{T−t}(x)‖₁ and δ′_t = m ΔY_t + m_query(Δ_x + Δ_z);
/// certified, upper end.
Rational SimulationErrorBound::top_pairing(const Head& h, const Tokens& z, const Histograms& histogram_z,
                                           const SimulationBound& s) const {
  const unsigned bits = 128;
  const auto& top = h.profile.top_offsets;
  if (top.empty() || !terms_.top_pairing) return 0;
  const Interval K(k_.K, bits), one(Rational(1), bits);
  Interval pi = Interval::zero(bits);
  for (std::size_t t : top) {
    const Rational drift = l1_distance(histogram_x_at_.at(t), histogram_z.at(t));
    const Interval decay = power(Integer(x_length_ - t), -k_.rate, bits) + power(Integer(z.size() - t), -k_.rate, bits);
    const Interval dY = K * decay + Interval(lip_phi_ * drift, bits);
    const Interval delta = Interval(h.box.m, bits) * dY + Interval(h.box.m_query * (s.query_x + s.query_z), bits);
    pi += h.eA * (Interval(std::max(Rational(1), h.box.B), bits) * (one - exp(-delta)) + Interval(h.box.v, bits) * dY);
  }
  return pi.upper();
}

SimulationErrorBound::SimulationErrorBound(const SoftmaxFirstLayer& layer, const Tokens& x,
                                           const SimulationBoundTerms& terms)
    : layer_(&layer), stats_(layer, x), k_(convergence_constant(layer.model())) {
  const Model& m = layer.model();
  if (std::string why = simulation_bound_obstacle(m); !why.empty())
    throw std::invalid_argument("simulation_error_bound: " + why);
  if (x.size() < k_.from) throw std::invalid_argument("simulation_error_bound: x needs length >= 2(tau + 1)");
  lip_phi_ = limit_map_lipschitz(m).L;
  lip_out_ = readout_lipschitz(m, NormOptions{terms.mlp_term});  // the second MLP and the readout, ℓ∞
  offsets_ = histogram_offsets(m);
  histogram_x_at_ = histograms_before_end(layer, x, offsets_);
  x_length_ = x.size();
  const std::size_t tail = kept_tail(m);
  if (x.size() < k_.from + tail - m.locality - 1)
    throw std::invalid_argument("simulation_error_bound: x needs length >= 2(tau + 1) + the largest top offset");
  x_tail_.assign(x.end() - static_cast<long>(tail), x.end());
  terms_ = terms;
  same_residue_ = terms.same_residue;
  query_x_ = query_error(k_, x.size());
  for (const auto& head : m.layers[1].heads) {
    Head h;
    h.box = second_layer_head_box(head, stats_.bounds().box);
    h.eA = terms.exponential ? exp(Interval(h.box.A, 128)) : Interval(Rational(1), 128);
    if (terms.window_weight) h.phi.assign(head.phi.begin(), head.phi.end());
    else h.phi.assign(head.phi.size(), Rational(0));  // the mutation: each window key weighed 1
    h.profile = second_layer_profile(head);
    h.eps_x = head_share(h, x.size(), query_x_);
    heads_.push_back(std::move(h));
  }
}

Rational SimulationErrorBound::head_share(const Head& h, std::uint64_t L, const Rational& delta) const {
  if (h.profile.top == 1) return convergence_sum(h, L, delta);
  return terms_.vanishing_share ? vanishing_share(h, L) : Rational(0);
}

SimulationBound SimulationErrorBound::bound(const Tokens& z) const {
  const std::size_t tail = x_tail_.size();
  if (z.size() < k_.from + tail - layer_->model().locality - 1)
    throw std::invalid_argument("simulation_error_bound: z needs length >= 2(tau + 1) + the largest top offset");
  if (!std::equal(x_tail_.begin(), x_tail_.end(), z.end() - static_cast<long>(tail)))
    throw std::invalid_argument("simulation_error_bound: z must end with x's last " + std::to_string(tail) +
                                " tokens (the query's window and each top key's)");
  if (same_residue_ && x_length_ % layer_->model().period != z.size() % layer_->model().period)
    throw std::invalid_argument("simulation_error_bound: |z| must equal |x| mod the period (the query's window keeps "
                                "its residues)");
  SimulationBound s;
  s.lip_out = lip_out_;
  s.query_x = query_x_;
  const Histograms histogram_z = histograms_before_end(*layer_, z, offsets_);  // one walk over z for every offset
  s.histogram_drift = l1_distance(histogram_x_at_.at(0), histogram_z.at(0));
  s.query_z = query_error(k_, z.size()) + lip_phi_ * s.histogram_drift;
  s.statistic_error = upper_of(stats_.error(z));
  Rational heads = 0;
  for (const Head& h : heads_) {
    const Rational ez = head_share(h, z.size(), s.query_z);
    s.eps_x = std::max(s.eps_x, h.eps_x);
    s.eps_z = std::max(s.eps_z, ez);
    // With k window keys lighter than e^{-A} (φ < 0), Ā_x >= e^{-A}(T - k)/T: the factor grows by T/(T - k).
    Rational factor = h.eA.upper() * (1 + h.box.B);
    const std::size_t light = h.profile.light_keys;
    if (light > 0) factor *= Rational(Integer(x_length_)) / Rational(Integer(x_length_ - light));
    s.head_factor.push_back(factor);
    // Φ = 1: the bulk is compared through the statistic averages (E); Φ > 1: its share is charged in ε°.
    const Rational compared = h.profile.top == 1 ? s.statistic_error : Rational(0);
    if (terms_.every_head || &h == &heads_.front())
      heads += factor * (h.eps_x + ez + compared + top_pairing(h, z, histogram_z, s));
  }
  s.total = s.lip_out * (s.query_x + s.query_z + heads);
  return s;
}

}  // namespace lgc
