#include "lgcheck/quantities/layer2_integrands.hpp"

#include "lgcheck/quantities/first_layer_constants.hpp"
#include "lgcheck/quantities/norm_constant.hpp"
#include "lgcheck/numeric/operator_norm.hpp"

#include <algorithm>
#include <map>
#include <mutex>
#include <string>
#include <stdexcept>

namespace lgc {
std::vector<Rational> first_layer_box(const SoftmaxFirstLayer& layer) {
  const Model& model = layer.model();
  const std::size_t K = layer.shape().classes();
  std::vector<Rational> box(model.width, Rational(0));
  for (std::size_t k = 0; k < model.width; ++k) {
    Rational lo = 0, hi = 0;
    for (std::size_t q = 0; q < K; ++q) {
      const Rational e = initial_embedding(model, static_cast<int>(q / layer.shape().period), q % layer.shape().period)[k];
      lo = q == 0 ? e : std::min(lo, e);
      hi = q == 0 ? e : std::max(hi, e);
    }
    for (std::size_t h = 0; h < layer.heads(); ++h) {
      Rational vlo = layer.value(h, 0)[k], vhi = vlo;
      for (std::size_t c = 1; c < K; ++c) {
        vlo = std::min(vlo, layer.value(h, c)[k]);
        vhi = std::max(vhi, layer.value(h, c)[k]);
      }
      lo += vlo;
      hi += vhi;
    }
    box[k] = std::max(Rational(abs(lo)), Rational(abs(hi)));
  }
  if (const auto& mlp = model.layers[0].mlp) {  // the MLP's growth, uniformly
    Rational r = *std::max_element(box.begin(), box.end());
    r = r + max_row_sum_norm(mlp->out) * (max_row_sum_norm(mlp->in) * r + linf_norm(mlp->in_bias)) + linf_norm(mlp->out_bias);
    std::fill(box.begin(), box.end(), r);
  }
  return box;
}

namespace {

/// max_k Σ_c |V_kc| b_c.
Rational value_box(const QMatrix& V, const std::vector<Rational>& box) {
  Rational B = 0;
  for (std::size_t k = 0; k < V.rows(); ++k) {
    Rational s = 0;
    for (std::size_t c = 0; c < V.cols(); ++c) s += abs(V(k, c)) * box[c];
    B = std::max(B, s);
  }
  return B;
}

/// Fold one head's G and L into b: e·max(1, B) and e·Lip(Φ)·max(q₁, q₁B + v), e = e^A.
void add_head_bounds(IntegrandBounds& b, const Rational& e, const Rational& q1, const Rational& B, const Rational& v) {
  b.G = std::max(b.G, Rational(e * std::max(Rational(1), B)));
  b.L = std::max(b.L, Rational(e * b.lip_phi * std::max(q1, Rational(q1 * B + v))));
}

}  // namespace

namespace {

/// An upper bound of ‖M‖₂ (certified), computed once per matrix in the
/// process: the simulation bound asks for the same heads' norms on every
/// input x, and the Sturm-sequence bisection is the costly step.
Rational spectral_norm_upper(const QMatrix& M) {
  static std::mutex mutex;
  static std::map<std::string, Rational> known;
  std::string key = std::to_string(M.rows()) + "x" + std::to_string(M.cols());
  for (std::size_t r = 0; r < M.rows(); ++r)
    for (std::size_t c = 0; c < M.cols(); ++c) key += " " + M(r, c).str();
  {
    std::lock_guard<std::mutex> lock(mutex);
    if (auto it = known.find(key); it != known.end()) return it->second;
  }
  Rational norm = upper_of(spectral_norm(M).value);
  std::lock_guard<std::mutex> lock(mutex);
  return known.emplace(std::move(key), std::move(norm)).first->second;
}

}  // namespace

SecondLayerHeadBox second_layer_head_box(const Head& head, const std::vector<Rational>& box) {
  SecondLayerHeadBox h;
  const QMatrix& M = head.qk;
  Rational box_sum = 0, radius_squared = 0;
  for (std::size_t r = 0; r < M.rows(); ++r) {
    radius_squared += box[r] * box[r];
    for (std::size_t c = 0; c < M.cols(); ++c) {
      const Rational a = abs(M(r, c));
      box_sum += box[r] * a * box[c];
      h.m += a * box[c];
      h.m_query += box[r] * a;
    }
  }
  const Rational spectral = spectral_norm_upper(M) * radius_squared;
  h.A = std::min(box_sum, spectral);
  h.B = value_box(head.value, box);
  h.v = max_row_sum_norm(head.value);
  return h;
}

IntegrandBounds a_priori_integrand_bounds(const SoftmaxFirstLayer& layer, bool with_exponential) {
  const Model& m = layer.model();
  IntegrandBounds b;
  b.box = first_layer_box(layer);
  b.lip_phi = limit_map_lipschitz(m).L;
  for (const Head& head : m.layers.at(1).heads) {
    const SecondLayerHeadBox h = second_layer_head_box(head, b.box);
    add_head_bounds(b, with_exponential ? exp_upper(h.A) : Rational(1), h.m, h.B, h.v);
  }
  return b;
}

Layer2Integrands::Layer2Integrands(const SoftmaxFirstLayer& layer, const Vector<Number>& query) : layer_(&layer) {
  const Model& m = layer.model();
  const unsigned bits = layer.bits();
  for (const Head& head : m.layers.at(1).heads) {
    IVector q(m.width, Interval::zero(bits));
    for (std::size_t r = 0; r < m.width; ++r)
      for (std::size_t c = 0; c < m.width; ++c)
        if (head.qk(r, c) != 0) q[r] += Interval(head.qk(r, c), bits) * query[c].enclosure(bits);
    q_.push_back(std::move(q));
  }
}

IntegrandBounds Layer2Integrands::bounds() const {
  const Model& m = layer_->model();
  IntegrandBounds b;
  b.box = first_layer_box(*layer_);
  b.lip_phi = limit_map_lipschitz(m).L;
  for (std::size_t g = 0; g < q_.size(); ++g) {
    const QMatrix& V = m.layers[1].heads[g].value;
    Rational A = 0, q1 = 0;
    for (std::size_t r = 0; r < q_[g].size(); ++r) {
      Rational qr = abs(q_[g][r]).upper();
      A += b.box[r] * qr;
      q1 += qr;
    }
    add_head_bounds(b, exp_upper(A), q1, value_box(V, b.box), max_row_sum_norm(V));
  }
  return b;
}

IVector Layer2Integrands::at(const std::vector<std::size_t>& window, const std::vector<Rational>& mu) const {
  const Model& m = layer_->model();
  const unsigned bits = layer_->bits();
  Vector<Number> phi = layer_->limit_layer(window, mu);
  IVector y;
  for (const auto& v : phi) y.push_back(v.enclosure(bits));
  IVector out;
  for (std::size_t g = 0; g < q_.size(); ++g) {
    Interval a = Interval::zero(bits);
    for (std::size_t k = 0; k < y.size(); ++k) a += y[k] * q_[g][k];
    Interval e = exp(a);
    out.push_back(e);
    const QMatrix& V = m.layers[1].heads[g].value;
    for (std::size_t r = 0; r < V.rows(); ++r) {
      Interval s = Interval::zero(bits);
      for (std::size_t c = 0; c < V.cols(); ++c)
        if (V(r, c) != 0) s += Interval(V(r, c), bits) * y[c];
      out.push_back(e * s);
    }
  }
  return out;
}

namespace {

/// The averages of every integrand over the positions of x with a bulk.
IVector integrand_averages(const SoftmaxFirstLayer& layer, const Layer2Integrands& p, const Tokens& x) {
  IVector sum;
  std::uint64_t count = 0;
  layer.for_each_position(x, [&](const SoftmaxFirstLayer::Point& point) {
    if (point.bulk() == 0) return;
    IVector v = p.at(point.window, point.histogram());
    if (sum.empty()) sum = v;
    else
      for (std::size_t k = 0; k < v.size(); ++k) sum[k] += v[k];
    ++count;
  });
  if (count == 0) throw std::invalid_argument("statistic_error: no position with a bulk (length <= tau + 1)");
  for (auto& s : sum) s = s / Interval(Rational(Integer(count)), layer.bits());
  return sum;
}

}  // namespace

Vector<Number> query_limit(const SoftmaxFirstLayer& layer, const Tokens& x) {
  Vector<Number> q;
  layer.for_each_position(x, [&](const SoftmaxFirstLayer::Point& p) {
    if (p.i == x.size()) q = layer.limit_layer(p.window, p.histogram());
  });
  return q;
}

StatisticAverages::StatisticAverages(const SoftmaxFirstLayer& layer, const Tokens& x)
    : layer_(&layer), integrands_(layer, query_limit(layer, x)), bounds_(integrands_.bounds()),
      averages_(integrand_averages(layer, integrands_, x)) {}

Number StatisticAverages::error(const Tokens& z) const {
  IVector az = integrand_averages(*layer_, integrands_, z);
  Interval worst = Interval::zero(layer_->bits());
  Rational best_upper = -1;
  for (std::size_t k = 0; k < averages_.size(); ++k) {
    Interval d = abs(averages_[k] - az[k]);
    if (d.upper() > best_upper) best_upper = d.upper(), worst = d;
  }
  return Number(worst);
}

Interval statistic_error_limit(const Rational& c, const Rational& G, const Rational& L, std::size_t tau,
                               std::uint64_t n, const Rational& rate) {
  return Interval(c * (G + L) * static_cast<long>(tau + 1), kDefaultPrecisionBits) *
         power(Integer(n), -rate, kDefaultPrecisionBits);
}

}  // namespace lgc
