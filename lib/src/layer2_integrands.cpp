#include "lgcheck/quantities/layer2_integrands.hpp"

#include "lgcheck/quantities/first_layer_constants.hpp"
#include "lgcheck/quantities/norm_constant.hpp"

#include <algorithm>
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
    Rational A = 0, q1 = 0, B = 0, rows = 0;
    for (std::size_t r = 0; r < q_[g].size(); ++r) {
      Rational qr = abs(q_[g][r]).upper();
      A += b.box[r] * qr;
      q1 += qr;
    }
    for (std::size_t k = 0; k < V.rows(); ++k) {
      Rational s = 0, row = 0;
      for (std::size_t c = 0; c < V.cols(); ++c) {
        s += abs(V(k, c)) * b.box[c];
        row += abs(V(k, c));
      }
      B = std::max(B, s);
      rows = std::max(rows, row);
    }
    const Rational e = exp_upper(A);
    b.G = std::max(b.G, Rational(e * std::max(Rational(1), B)));
    b.L = std::max(b.L, Rational(e * b.lip_phi * std::max(q1, Rational(q1 * B + rows))));
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

}  // namespace lgc
