#include "lgcheck/quantities/simulation_bound.hpp"

#include "lgcheck/quantities/norm_constant.hpp"
#include "lgcheck/semantics/one_layer.hpp"

#include <algorithm>
#include <stdexcept>

namespace lgc {
namespace {

/// The bulk histogram μ̂ at the last position of x (exact).
std::vector<Rational> last_histogram(const SoftmaxFirstLayer& layer, const Tokens& x) {
  std::vector<Rational> mu;
  layer.for_each_position(x, [&](const SoftmaxFirstLayer::Point& p) {
    if (p.i == x.size()) mu = p.histogram();
  });
  return mu;
}

Rational query_error(const ConvergenceConstant& k, std::uint64_t length) {
  return (Interval(k.K, 128) * power(Integer(length), -k.rate, 128)).upper();
}

}  // namespace

std::string simulation_bound_obstacle(const Model& model) {
  if (model.semantics.kind != Semantics::Kind::Softmax) return "the model is not softmax";
  if (model.layers.size() != 2) return "the bound is stated for two layers";
  for (const Head& head : model.layers[1].heads)
    for (const auto& phi : head.phi) {
      if (phi > 1)
        return "a second-layer head is position-dominant (phi > 1): outside Theorem 5.2 as recorded, whose exponent "
               "max(1/gamma, 3) reads the first layer only, while a second-layer head with 1 < phi < 4/3 forces "
               "eps^(-1/(phi - 1)) (docs/theory.md, \"Second-layer positional terms of 1 and more\")";
      if (phi == 1)
        return "a second-layer head is balanced (phi = 1): its window keys keep a share of the attention in the "
               "limit, and their first-layer outputs depend on tokens before x's last tau + 1, which z does not keep "
               "(not covered by the toolkit's bound)";
    }
  return "";
}

std::size_t negative_window_terms(const Head& head) {
  return static_cast<std::size_t>(std::count_if(head.phi.begin(), head.phi.end(), [](const Rational& phi) {
    return phi < 0;
  }));
}

Rational second_layer_margin(const Model& model) {
  Rational margin = 1;
  for (const Head& head : model.layers.at(1).heads)
    for (const auto& phi : head.phi) margin = std::min(margin, Rational(1 - phi));
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
  for (const Rational& phi : h.phi) early += phi == 0 ? Interval(Rational(1), bits) : power(Integer(L), phi, bits);
  Interval inv_L(Rational(1, 1) / Rational(Integer(L)), bits);
  Interval e = h.eA * Interval(std::max(Rational(1), h.box.B), bits) * inv_L * (sum_exp + early) +
               h.eA * Interval(h.box.v, bits) * K * inv_L * sum_pow;
  return e.upper();
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
  histogram_x_ = last_histogram(layer, x);
  x_length_ = x.size();
  same_residue_ = terms.same_residue;
  query_x_ = query_error(k_, x.size());
  for (const auto& head : m.layers[1].heads) {
    Head h;
    h.box = second_layer_head_box(head, stats_.bounds().box);
    h.eA = terms.exponential ? exp(Interval(h.box.A, 128)) : Interval(Rational(1), 128);
    if (terms.window_weight) h.phi.assign(head.phi.begin(), head.phi.end());
    else h.phi.assign(head.phi.size(), Rational(0));  // the mutation: each window key weighed 1
    h.light_keys = negative_window_terms(head);
    h.eps_x = convergence_sum(h, x.size(), query_x_);
    heads_.push_back(std::move(h));
  }
}

SimulationBound SimulationErrorBound::bound(const Tokens& z) const {
  if (z.size() < k_.from) throw std::invalid_argument("simulation_error_bound: z needs length >= 2(tau + 1)");
  if (same_residue_ && x_length_ % layer_->model().period != z.size() % layer_->model().period)
    throw std::invalid_argument("simulation_error_bound: |z| must equal |x| mod the period (the query's window keeps "
                                "its residues)");
  SimulationBound s;
  s.lip_out = lip_out_;
  s.query_x = query_x_;
  s.histogram_drift = l1_distance(histogram_x_, last_histogram(*layer_, z));
  s.query_z = query_error(k_, z.size()) + lip_phi_ * s.histogram_drift;
  s.statistic_error = upper_of(stats_.error(z));
  Rational heads = 0;
  for (const Head& h : heads_) {
    const Rational ez = convergence_sum(h, z.size(), s.query_z);
    s.eps_x = std::max(s.eps_x, h.eps_x);
    s.eps_z = std::max(s.eps_z, ez);
    // With k window keys lighter than e^{-A} (φ < 0), Ā_x >= e^{-A}(T - k)/T: the factor grows by T/(T - k).
    Rational factor = h.eA.upper() * (1 + h.box.B);
    if (h.light_keys > 0) factor *= Rational(Integer(x_length_)) / Rational(Integer(x_length_ - h.light_keys));
    s.head_factor.push_back(factor);
    heads += factor * (h.eps_x + ez + s.statistic_error);
  }
  s.total = s.lip_out * (s.query_x + s.query_z + heads);
  return s;
}

}  // namespace lgc
