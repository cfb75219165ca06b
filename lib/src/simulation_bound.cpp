#include "lgcheck/quantities/simulation_bound.hpp"

#include "lgcheck/quantities/first_layer_constants.hpp"

#include <algorithm>
#include <stdexcept>

namespace lgc {
namespace {

Rational row_sum_norm(const QMatrix& m) {
  Rational best = 0;
  for (std::size_t r = 0; r < m.rows(); ++r) {
    Rational s = 0;
    for (std::size_t c = 0; c < m.cols(); ++c) s += abs(m(r, c));
    best = std::max(best, s);
  }
  return best;
}

/// The bulk histogram μ̂ at the last position of x (exact).
std::vector<Rational> last_histogram(const SoftmaxFirstLayer& layer, const Tokens& x) {
  std::vector<Rational> mu;
  layer.for_each_position(x, [&](const SoftmaxFirstLayer::Point& p) {
    if (p.i != x.size()) return;
    const Integer bulk(p.bulk());
    for (auto n : p.counts) mu.emplace_back(Integer(n), bulk);
  });
  return mu;
}

/// Box constants of one second-layer head.
struct HeadBox {
  Rational A, m, m_query, B, v;
};

HeadBox head_box(const Head& head, const std::vector<Rational>& b) {
  HeadBox h;
  const QMatrix& M = head.qk;
  for (std::size_t r = 0; r < M.rows(); ++r)
    for (std::size_t c = 0; c < M.cols(); ++c) {
      const Rational a = abs(M(r, c));
      h.A += b[r] * a * b[c];  // |⟨Y, M Y'⟩| over the box
      h.m += a * b[c];         // ‖M Q‖₁ over the box
      h.m_query += b[r] * a;   // |⟨Φ, M u⟩| <= m_query ‖u‖∞
    }
  const QMatrix& V = head.value;
  for (std::size_t k = 0; k < V.rows(); ++k) {
    Rational s = 0, row = 0;
    for (std::size_t c = 0; c < V.cols(); ++c) {
      s += abs(V(k, c)) * b[c];
      row += abs(V(k, c));
    }
    h.B = std::max(h.B, s);
    h.v = std::max(h.v, row);
  }
  return h;
}

/// ε(L, Δ) = e^A max(1,B)·(1/L)[Σ_{j=j0}^{L}(e^{δ_j} − 1) + 2 j0 + 2(τ+1)] + e^A v K (1/L) Σ_{j=j0}^{L} j^{−r},
/// δ_j = m K j^{−r} + m_query Δ; certified, upper end.
Rational convergence_sum(const HeadBox& h, const ConvergenceConstant& k, std::size_t tau, std::uint64_t L,
                         const Rational& delta, const Interval& eA) {
  const unsigned bits = 128;
  Interval sum_exp = Interval::zero(bits), sum_pow = Interval::zero(bits);
  const Interval K(k.K, bits), shift = Interval(h.m_query * delta, bits);
  for (std::uint64_t j = k.from; j <= L; ++j) {
    Interval pw = power(Integer(j), -k.rate, bits);
    sum_pow += pw;
    sum_exp += exp(Interval(h.m, bits) * K * pw + shift) - Interval(Rational(1), bits);
  }
  Interval early(Rational(2 * static_cast<long>(k.from + tau + 1)), bits);
  Interval inv_L(Rational(1, 1) / Rational(Integer(L)), bits);
  Interval e = eA * Interval(std::max(Rational(1), h.B), bits) * inv_L * (sum_exp + early) +
               eA * Interval(h.v, bits) * K * inv_L * sum_pow;
  return e.upper();
}

}  // namespace

std::string simulation_bound_obstacle(const Model& model) {
  if (model.semantics.kind != Semantics::Kind::Softmax) return "the model is not softmax";
  if (model.layers.size() != 2) return "the bound is stated for two layers";
  if (model.period != 1) return "the bound is stated for period 1";
  for (const Head& head : model.layers[1].heads)
    for (const auto& phi : head.phi)
      if (phi != 0) return "a second-layer head has a positional term";
  return "";
}

SimulationBound simulation_error_bound(const SoftmaxFirstLayer& layer, const StatisticAverages& stats, const Tokens& x,
                                       const Tokens& z, bool with_exponential) {
  const Model& m = layer.model();
  if (std::string why = simulation_bound_obstacle(m); !why.empty())
    throw std::invalid_argument("simulation_error_bound: " + why);
  const ConvergenceConstant k = convergence_constant(m);
  if (x.size() < k.from || z.size() < k.from)
    throw std::invalid_argument("simulation_error_bound: x and z need length >= 2(tau + 1)");
  const unsigned bits = 128;
  SimulationBound s;
  const Rational lip_phi = limit_map_lipschitz(m).L;
  // The queries against Φ_q = Φ(window_T(x), μ̂_T(x)).
  std::vector<Rational> mx = last_histogram(layer, x), mz = last_histogram(layer, z);
  Rational drift = 0;
  for (std::size_t c = 0; c < mx.size(); ++c) drift += abs(mx[c] - mz[c]);
  s.query_x = (Interval(k.K, bits) * power(Integer(x.size()), -k.rate, bits)).upper();
  s.query_z = (Interval(k.K, bits) * power(Integer(z.size()), -k.rate, bits)).upper() + lip_phi * drift;
  s.statistic_error = upper_of(stats.error(z));
  // Lip of the second MLP and the readout (ℓ∞).
  const auto& mlp = m.layers[1].mlp;
  Rational lip_mlp = mlp ? 1 + row_sum_norm(mlp->out) * row_sum_norm(mlp->in) : Rational(1);
  Rational lip_readout = row_sum_norm(m.readout.weights) * (m.readout.sin_omega ? Rational(abs(*m.readout.sin_omega)) : Rational(1));
  s.lip_out = lip_mlp * lip_readout;
  const std::vector<Rational> box = stats.bounds().box;
  Rational heads = 0;
  for (const Head& head : m.layers[1].heads) {
    const HeadBox h = head_box(head, box);
    const Interval eA = with_exponential ? exp(Interval(h.A, bits)) : Interval(Rational(1), bits);
    Rational ex = convergence_sum(h, k, m.locality, x.size(), s.query_x, eA);
    Rational ez = convergence_sum(h, k, m.locality, z.size(), s.query_z, eA);
    s.eps_x = std::max(s.eps_x, ex);
    s.eps_z = std::max(s.eps_z, ez);
    Rational factor = eA.upper() * (1 + h.B);
    s.head_factor.push_back(factor);
    heads += factor * (ex + ez + s.statistic_error);
  }
  s.total = s.lip_out * (s.query_x + s.query_z + heads);
  return s;
}

}  // namespace lgc
