#include "double_reference.hpp"

#include <algorithm>
#include <cmath>
#include <optional>

namespace lgc::bench {
namespace {

using Vec = std::vector<double>;
using Mat = std::vector<Vec>;

Mat to_double(const QMatrix& m) {
  Mat out(m.rows(), Vec(m.cols()));
  for (std::size_t r = 0; r < m.rows(); ++r)
    for (std::size_t c = 0; c < m.cols(); ++c) out[r][c] = m(r, c).convert_to<double>();
  return out;
}

Vec to_double(const QVector& v) {
  Vec out(v.size());
  for (std::size_t k = 0; k < v.size(); ++k) out[k] = v[k].convert_to<double>();
  return out;
}

Vec mat_vec(const Mat& m, const Vec& v) {
  Vec out(m.size(), 0.0);
  for (std::size_t r = 0; r < m.size(); ++r)
    for (std::size_t c = 0; c < v.size(); ++c) out[r] += m[r][c] * v[c];
  return out;
}

double dot(const Vec& a, const Vec& b) {
  double s = 0;
  for (std::size_t k = 0; k < a.size(); ++k) s += a[k] * b[k];
  return s;
}

struct DoubleMlp {
  Mat in, out;
  Vec in_bias, out_bias;
  Vec operator()(const Vec& y) const {
    Vec hidden = mat_vec(in, y);
    for (std::size_t k = 0; k < hidden.size(); ++k) hidden[k] = std::max(0.0, hidden[k] + in_bias[k]);
    const Vec o = mat_vec(out, hidden);
    Vec r(y.size());
    for (std::size_t k = 0; k < y.size(); ++k) r[k] = y[k] + o[k] + out_bias[k];
    return r;
  }
};

std::optional<DoubleMlp> mlp_of(const Layer& layer) {
  if (!layer.mlp) return std::nullopt;
  return DoubleMlp{to_double(layer.mlp->in), to_double(layer.mlp->out), to_double(layer.mlp->in_bias),
                   to_double(layer.mlp->out_bias)};
}

/// Per class c = s·Δ + r: the initial embedding E_s + p_r.
Mat class_embeddings(const Model& m) {
  Mat e;
  for (std::size_t s = 0; s < m.alphabet_size(); ++s)
    for (std::size_t r = 0; r < m.period; ++r) e.push_back(to_double(initial_embedding(m, static_cast<int>(s), r)));
  return e;
}

std::size_t class_of(const Model& m, int token, std::size_t position) {
  return static_cast<std::size_t>(token) * m.period + position % m.period;
}

}  // namespace

DoubleHardmax::DoubleHardmax(const Model& model) : model_(&model), emb_(class_embeddings(model)) {
  const std::size_t K = emb_.size();
  for (const Head& head : model.layers[0].heads) {
    const Mat M = to_double(head.qk), V = to_double(head.value);
    HeadTables h;
    h.logits.assign(K, Vec(K));
    for (std::size_t q = 0; q < K; ++q) {
      const Vec query = mat_vec(M, emb_[q]);
      for (std::size_t c = 0; c < K; ++c) h.logits[q][c] = dot(emb_[c], query);
    }
    for (std::size_t c = 0; c < K; ++c) h.values.push_back(mat_vec(V, emb_[c]));
    for (const auto& phi : head.phi) h.phi.push_back(phi.convert_to<double>());
    heads_.push_back(std::move(h));
  }
}

std::vector<double> DoubleHardmax::representation(const Statistic& sigma) const {
  const Model& model = *model_;
  const std::size_t T = sigma.length, K = emb_.size();
  const std::size_t q = class_of(model, sigma.window.back(), T);
  Vec residual = emb_[q];
  for (const HeadTables& h : heads_) {
    double top = -1e300;
    for (std::size_t c = 0; c < K; ++c)
      if (sigma.counts[c]) top = std::max(top, h.logits[q][c]);
    for (std::size_t t = 0; t < sigma.window.size(); ++t) {
      const std::size_t c = class_of(model, sigma.window[sigma.window.size() - 1 - t], T - t);
      top = std::max(top, h.logits[q][c] + (t < h.phi.size() ? h.phi[t] : 0.0));
    }
    Vec sum(residual.size(), 0.0);
    double total = 0;
    auto add = [&](double weight, std::size_t c) {
      for (std::size_t k = 0; k < sum.size(); ++k) sum[k] += weight * h.values[c][k];
      total += weight;
    };
    for (std::size_t c = 0; c < K; ++c)
      if (sigma.counts[c] && h.logits[q][c] >= top - 1e-12) add(static_cast<double>(sigma.counts[c]), c);
    for (std::size_t t = 0; t < sigma.window.size(); ++t) {
      const std::size_t c = class_of(model, sigma.window[sigma.window.size() - 1 - t], T - t);
      if (h.logits[q][c] + (t < h.phi.size() ? h.phi[t] : 0.0) >= top - 1e-12) add(1.0, c);
    }
    for (std::size_t k = 0; k < sum.size(); ++k) residual[k] += sum[k] / total;
  }
  if (auto mlp = mlp_of(model.layers[0])) residual = (*mlp)(residual);
  return residual;
}

std::vector<double> double_softmax_two_layer(const Model& model, const Tokens& x) {
  const Mat emb = class_embeddings(model);
  const std::size_t T = x.size(), K = emb.size(), tau = model.locality;
  const Layer& first = model.layers[0];
  // Content logits ℓ_h(q, c) and value vectors v_h(c), per head.
  std::vector<Mat> logits;
  std::vector<Mat> values;
  for (const Head& head : first.heads) {
    const Mat M = to_double(head.qk), V = to_double(head.value);
    Mat l(K, Vec(K));
    for (std::size_t q = 0; q < K; ++q) {
      const Vec query = mat_vec(M, emb[q]);
      for (std::size_t c = 0; c < K; ++c) l[q][c] = dot(emb[c], query);
    }
    Mat v;
    for (std::size_t c = 0; c < K; ++c) v.push_back(mat_vec(V, emb[c]));
    logits.push_back(l);
    values.push_back(v);
  }
  const auto mlp1 = mlp_of(first);
  std::vector<double> counts(K, 0.0);
  Mat Y(T);
  for (std::size_t i = 1; i <= T; ++i) {
    if (i > tau + 1) counts[class_of(model, x[i - tau - 2], i - tau - 1)] += 1;  // position i − τ − 1 joins the bulk
    const std::size_t q = class_of(model, x[i - 1], i);
    Vec y = emb[q];
    const double log_i = std::log(static_cast<double>(i));
    for (std::size_t h = 0; h < first.heads.size(); ++h) {
      const Head& head = first.heads[h];
      double top = -1e300;
      for (std::size_t c = 0; c < K; ++c)
        if (counts[c] > 0) top = std::max(top, logits[h][q][c]);
      std::vector<std::pair<double, std::size_t>> window;
      for (std::size_t t = 0; t <= tau && t < i; ++t) {
        const std::size_t c = class_of(model, x[i - 1 - t], i - t);
        const double phi = t < head.phi.size() ? head.phi[t].convert_to<double>() : 0.0;
        window.push_back({logits[h][q][c] + (i == 1 ? 0.0 : log_i * phi), c});
        top = std::max(top, window.back().first);
      }
      Vec sum(y.size(), 0.0);
      double total = 0;
      for (std::size_t c = 0; c < K; ++c) {
        if (counts[c] == 0) continue;
        const double w = counts[c] * std::exp(logits[h][q][c] - top);
        for (std::size_t k = 0; k < sum.size(); ++k) sum[k] += w * values[h][c][k];
        total += w;
      }
      for (const auto& [a, c] : window) {
        const double w = std::exp(a - top);
        for (std::size_t k = 0; k < sum.size(); ++k) sum[k] += w * values[h][c][k];
        total += w;
      }
      for (std::size_t k = 0; k < y.size(); ++k) y[k] += sum[k] / total;
    }
    Y[i - 1] = mlp1 ? (*mlp1)(y) : y;
  }
  const Layer& second = model.layers[1];
  Vec out = Y[T - 1];
  const double log_T = std::log(static_cast<double>(T));
  for (const Head& head : second.heads) {
    const Mat M = to_double(head.qk), V = to_double(head.value);
    const Vec query = mat_vec(M, Y[T - 1]);
    Vec scores(T);
    double top = -1e300;
    for (std::size_t j = 1; j <= T; ++j) {
      const std::size_t t = T - j;
      const double phi = t < head.phi.size() ? head.phi[t].convert_to<double>() : 0.0;
      scores[j - 1] = dot(Y[j - 1], query) + (T == 1 ? 0.0 : log_T * phi);
      top = std::max(top, scores[j - 1]);
    }
    Vec sum(out.size(), 0.0);
    double total = 0;
    for (std::size_t j = 1; j <= T; ++j) {
      const double w = std::exp(scores[j - 1] - top);
      const Vec v = mat_vec(V, Y[j - 1]);
      for (std::size_t k = 0; k < sum.size(); ++k) sum[k] += w * v[k];
      total += w;
    }
    for (std::size_t k = 0; k < out.size(); ++k) out[k] += sum[k] / total;
  }
  if (auto mlp2 = mlp_of(second)) out = (*mlp2)(out);
  Vec result = mat_vec(to_double(model.readout.weights), out);
  for (std::size_t k = 0; k < result.size(); ++k) {
    result[k] += model.readout.bias[k].convert_to<double>();
    if (model.readout.sin_omega) result[k] = std::sin(model.readout.sin_omega->convert_to<double>() * result[k]);
  }
  return result;
}

}  // namespace lgc::bench
