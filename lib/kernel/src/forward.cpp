// The kernel's forward pass, from docs/theory.md §1.
#include "lgcheck/kernel/forward.hpp"

#include "lgcheck/kernel/quantities.hpp"

#include <map>
#include <optional>
#include <stdexcept>
#include <string>

namespace lgc::kernel {
namespace {

Values to_numbers(const QVector& v) { return Values(v.begin(), v.end()); }

/// M·v for a rational matrix and a vector of Numbers.
Values multiply(const QMatrix& m, const Values& v) {
  if (m.cols() != v.size()) throw std::invalid_argument("kernel: dimension mismatch");
  Values out(m.rows(), Number(0));
  for (std::size_t r = 0; r < m.rows(); ++r)
    for (std::size_t c = 0; c < m.cols(); ++c)
      if (m(r, c) != 0) out[r] += Number(m(r, c)) * v[c];
  return out;
}

Number dot(const Values& a, const Values& b) {
  Number acc(0);
  for (std::size_t k = 0; k < a.size(); ++k) acc += a[k] * b[k];
  return acc;
}

Values plus(Values a, const Values& b) {
  for (std::size_t k = 0; k < a.size(); ++k) a[k] += b[k];
  return a;
}

/// Inputs of a layer: the vectors y_j, and for each j an id shared by equal vectors (on the first layer y_j depends
/// only on x_j and j mod Δ, so the id is that class; later layers give every position its own id). The ids only avoid
/// recomputing the same product: each value is still y_jᵀ M y_i.
struct LayerInput {
  std::vector<Values> ys;
  std::vector<std::size_t> ids;
  std::size_t id_count = 0;
};

/// Logits a_{i j} = y_j^T M y_i + s(i) phi(i - j) for keys j = 1..i (index j-1).
Values head_logits(const Model& model, const Head& head, const LayerInput& in, std::size_t i,
                   Semantics semantics, unsigned bits) {
  Values query = multiply(head.qk, in.ys[i - 1]);
  Number scale(1);
  if (semantics.kind == Semantics::Kind::Softmax) scale = (i == 1) ? Number(0) : Number(log(Interval(Rational(i), bits)));
  Values logits(i);
  std::vector<std::optional<Number>> content(in.id_count);  // y_jᵀ M y_i per id
  for (std::size_t j = 1; j <= i; ++j) {
    auto& c = content[in.ids[j - 1]];
    if (!c) c = dot(in.ys[j - 1], query);
    Number a = *c;
    std::size_t t = i - j;
    if (t <= model.locality && head.phi[t] != 0) a += scale * Number(head.phi[t]);
    logits[j - 1] = a;
  }
  return logits;
}

/// The largest logit, all of them exact (else Undecided: hardmax and finite:p round on exact logits).
Rational top_logit(const Values& logits) {
  const char* why = "a hardmax or finite:p logit is an enclosure; its rounding cannot be decided exactly";
  for (const auto& a : logits)
    if (!a.is_exact()) throw Undecided(why);
  Rational best = logits[0].exact();
  for (const auto& a : logits) best = std::max(best, a.exact());
  return best;
}

/// hardmax: uniform over the argmax set.
Values hardmax_weights(const Values& logits) {
  const Rational best = top_logit(logits);
  std::size_t count = 0;
  for (const auto& a : logits) count += (a.exact() == best);
  Values w(logits.size(), Number(0));
  for (std::size_t j = 0; j < logits.size(); ++j)
    if (logits[j].exact() == best) w[j] = Number(Rational(1, static_cast<long>(count)));
  return w;
}

/// finite:p: u_j = i^{a_ij - a*}, zero when <= 2^{-p}, normalised.
Values finite_weights(const Values& logits, std::size_t i, unsigned p, unsigned bits) {
  const Rational best = top_logit(logits);
  const Integer position(static_cast<unsigned long>(i));
  Values u(logits.size(), Number(0));
  Number total(0);
  std::map<Rational, Number> weight_of_gap;  // the same gap gives the same weight
  for (std::size_t j = 0; j < logits.size(); ++j) {
    const Rational delta = best - logits[j].exact();
    auto known = weight_of_gap.find(delta);
    if (known == weight_of_gap.end()) {
      Number w(0);
      if (delta == 0) {
        w = Number(1);
      } else if (!rounds_to_zero(position, delta, p)) {
        if (is_integer(delta))  // 1 / i^delta, exact; i^delta < 2^p bounds its size
          w = Number(Rational(Integer(1), pow(position, numerator(delta).convert_to<unsigned long>())));
        else
          w = Number(power(position, Rational(-delta), bits));
      }
      known = weight_of_gap.emplace(delta, w).first;
    }
    u[j] = known->second;
    total += u[j];
  }
  for (auto& w : u) w = w / total;
  return u;
}

/// softmax: exp(a_ij - c) / sum, c an exact rational near the largest logit.
Values softmax_weights(const Values& logits, unsigned bits) {
  Rational c = lower_of(logits[0]);
  for (const auto& a : logits) c = std::max(c, lower_of(a));
  Values e(logits.size());
  Number total(0);
  for (std::size_t j = 0; j < logits.size(); ++j) {
    e[j] = exp(logits[j] - Number(c), bits);
    total += e[j];
  }
  for (auto& w : e) w = w / total;
  return e;
}

/// Y + out·ReLU(in·Y + in_bias) + out_bias.
Values apply_mlp(const Mlp& mlp, const Values& y) {
  Values hidden = plus(multiply(mlp.in, y), to_numbers(mlp.in_bias));
  for (auto& h : hidden) h = relu(h);
  return plus(plus(y, multiply(mlp.out, hidden)), to_numbers(mlp.out_bias));
}

/// One layer at query i: y_i + sum over heads of sum_j w_ij V y_j, then the MLP.
std::vector<Values> weights_at(const Model& model, std::size_t layer, const LayerInput& in, std::size_t i,
                               Semantics semantics, unsigned bits) {
  std::vector<Values> out;
  for (const Head& head : model.layers[layer].heads) {
    Values logits = head_logits(model, head, in, i, semantics, bits);
    switch (semantics.kind) {
      case Semantics::Kind::Hardmax: out.push_back(hardmax_weights(logits)); break;
      case Semantics::Kind::Finite: out.push_back(finite_weights(logits, i, semantics.bits, bits)); break;
      case Semantics::Kind::Softmax: out.push_back(softmax_weights(logits, bits)); break;
    }
  }
  return out;
}

Values layer_at(const Model& model, std::size_t layer, const LayerInput& in, std::size_t i, Semantics semantics,
                unsigned bits) {
  const Layer& l = model.layers[layer];
  std::vector<Values> weights = weights_at(model, layer, in, i, semantics, bits);
  Values y = in.ys[i - 1];
  for (std::size_t h = 0; h < l.heads.size(); ++h) {
    std::vector<std::optional<Values>> value(in.id_count);  // V y_j per id
    for (std::size_t j = 1; j <= i; ++j)
      if (!(weights[h][j - 1] == Number(0))) {
        auto& v = value[in.ids[j - 1]];
        if (!v) v = multiply(l.heads[h].value, in.ys[j - 1]);
        for (std::size_t k = 0; k < y.size(); ++k) y[k] += weights[h][j - 1] * (*v)[k];
      }
  }
  return l.mlp ? apply_mlp(*l.mlp, y) : y;
}

LayerInput initial_representations(const Model& model, const Tokens& tokens) {
  if (tokens.empty()) throw std::invalid_argument("kernel: empty input");
  LayerInput in;
  in.ys.reserve(tokens.size());
  in.id_count = model.alphabet_size() * model.period;
  for (std::size_t i = 1; i <= tokens.size(); ++i) {
    int s = tokens[i - 1];
    if (s < 0 || static_cast<std::size_t>(s) >= model.alphabet_size())
      throw std::invalid_argument("kernel: token " + std::to_string(s) + " outside the alphabet");
    in.ys.push_back(to_numbers(initial_embedding(model, s, i)));  // E_{x_i} + p_{i mod Δ}
    in.ids.push_back(static_cast<std::size_t>(s) * model.period + i % model.period);
  }
  return in;
}

}  // namespace

bool rounds_to_zero(const Integer& i, const Rational& delta, unsigned p) {
  if (i <= 1) return false;  // 1^{-delta} = 1 > 2^{-p}
  const Integer u = numerator(delta), v = denominator(delta);
  const Integer pv = Integer(p) * v;
  // With 2^b <= i < 2^{b+1}: u b >= p v proves i^u >= 2^{pv}; u (b+1) <= p v proves i^u < 2^{pv}.
  const Integer b(static_cast<unsigned long>(bit_length(i) - 1));  // ⌊log2 i⌋
  if (u * b >= pv) return true;
  if (u * (b + 1) <= pv) return false;
  // Here u < p v / b + ... is bounded by the band: compare the integers themselves.
  if (u > 100000000 || pv > 100000000) throw std::invalid_argument("rounds_to_zero: exponents beyond 10^8");
  return pow(i, u.convert_to<unsigned long>()) >= pow(Integer(2), pv.convert_to<unsigned long>());
}

std::vector<Values> last_position_weights(const Model& model, const Tokens& tokens, Semantics semantics,
                                          unsigned bits) {
  LayerInput in = initial_representations(model, tokens);
  return weights_at(model, 0, in, in.ys.size(), semantics, bits);
}

Values last_representation(const Model& model, const Tokens& tokens, Semantics semantics, unsigned bits) {
  LayerInput in = initial_representations(model, tokens);
  const std::size_t T = in.ys.size();
  for (std::size_t layer = 0; layer < model.layers.size(); ++layer) {
    if (layer + 1 == model.layers.size()) return layer_at(model, layer, in, T, semantics, bits);  // only query T matters now
    LayerInput next;
    next.id_count = T;
    for (std::size_t i = 1; i <= T; ++i) {
      next.ys.push_back(layer_at(model, layer, in, i, semantics, bits));
      next.ids.push_back(i - 1);
    }
    in = std::move(next);
  }
  return in.ys[T - 1];  // a model without layers
}

Values apply_readout(const Model& model, const Values& y, unsigned bits) {
  Values out = plus(multiply(model.readout.weights, y), to_numbers(model.readout.bias));
  if (model.readout.sin_omega)
    for (auto& o : out) o = sin(Number(*model.readout.sin_omega) * o, bits);
  return out;
}

Values evaluate(const Model& model, const Tokens& tokens, Semantics semantics, unsigned bits) {
  return apply_readout(model, last_representation(model, tokens, semantics, bits), bits);
}

}  // namespace lgc::kernel
