#include "lgcheck/semantics/forward.hpp"

#include "lgcheck/semantics/finite_precision.hpp"
#include "lgcheck/semantics/mlp.hpp"

#include <algorithm>
#include <map>

namespace lgc {
namespace {

using Stream = std::vector<Vector<Number>>;  // residual stream; entry i-1 is position i

Vector<Number> to_numbers(const QVector& v) { return Vector<Number>(v.begin(), v.end()); }

bool all_exact(const Vector<Number>& v) {
  return std::all_of(v.begin(), v.end(), [](const Number& n) { return n.is_exact(); });
}

/// The query positions 1..T.
std::vector<std::size_t> all_positions(std::size_t T) {
  std::vector<std::size_t> every(T);
  for (std::size_t i = 0; i < T; ++i) every[i] = i + 1;
  return every;
}

Stream initial_stream(const Model& model, const Tokens& x) {
  Stream s;
  s.reserve(x.size());
  for (std::size_t i = 1; i <= x.size(); ++i) s.push_back(to_numbers(initial_embedding(model, x[i - 1], i)));
  return s;
}

/// s(i)·φ(i−j): φ itself under hardmax and finite:p, ln(i)·φ under softmax.
Number positional_term(const Head& head, std::size_t i, std::size_t j, const Semantics& sem, unsigned bits) {
  std::size_t t = i - j;
  if (t >= head.phi.size() || head.phi[t] == 0) return Number(0);
  if (sem.kind != Semantics::Kind::Softmax) return Number(head.phi[t]);
  if (i == 1) return Number(0);
  return Number(Interval(head.phi[t], bits) * log(Interval(Rational(static_cast<long>(i)), bits)));
}

Vector<Number> head_logits(const Head& head, const Stream& y, std::size_t i, const Semantics& sem, unsigned bits) {
  Vector<Number> query = apply<Number>(head.qk, y[i - 1]);
  Vector<Number> logits(i);
  for (std::size_t j = 1; j <= i; ++j)
    logits[j - 1] = dot<Number>(y[j - 1], query) + positional_term(head, i, j, sem, bits);
  return logits;
}

Vector<Number> normalise(const Vector<Number>& u) {
  Number total(0);
  for (const auto& v : u) total += v;
  Vector<Number> w(u.size());
  for (std::size_t k = 0; k < u.size(); ++k) w[k] = u[k] / total;
  return w;
}

Rational max_exact(const Vector<Number>& logits) {
  Rational best = logits.front().exact();
  for (const auto& a : logits) best = std::max(best, a.exact());
  return best;
}

Vector<Number> attention_weights(const Vector<Number>& logits, std::size_t i, const Semantics& sem, unsigned bits) {
  switch (sem.kind) {
    case Semantics::Kind::Hardmax: return hardmax_weights(logits, bits);
    case Semantics::Kind::Finite: return finite_weights(logits, i, sem.bits, bits);
    case Semantics::Kind::FiniteWeights: return finite_normalised_weights(logits, i, sem.bits, bits);
    case Semantics::Kind::Softmax: return softmax_weights(logits, bits);
  }
  throw std::logic_error("unknown semantics");
}


/// The layer's output at each query position (1-based, increasing).
Stream layer_forward(const Layer& layer, const Stream& y, const Semantics& sem, unsigned bits,
                     const std::vector<std::size_t>& queries) {
  std::size_t last = queries.empty() ? 0 : queries.back();
  std::vector<Stream> values(layer.heads.size());
  for (std::size_t h = 0; h < layer.heads.size(); ++h)
    for (std::size_t j = 1; j <= last; ++j) values[h].push_back(apply<Number>(layer.heads[h].value, y[j - 1]));
  Stream out;
  out.reserve(queries.size());
  for (std::size_t i : queries) {
    Vector<Number> residual = y[i - 1];
    for (std::size_t h = 0; h < layer.heads.size(); ++h) {
      Vector<Number> w = attention_weights(head_logits(layer.heads[h], y, i, sem, bits), i, sem, bits);
      for (std::size_t j = 1; j <= i; ++j) {
        if (w[j - 1].is_exact() && w[j - 1].exact() == 0) continue;
        for (std::size_t k = 0; k < residual.size(); ++k) residual[k] += w[j - 1] * values[h][j - 1][k];
      }
    }
    out.push_back(layer.mlp ? apply_mlp(*layer.mlp, residual) : residual);
  }
  return out;
}

/// U·y + u: the readout's argument.
Vector<Number> readout_argument(const Readout& r, const Vector<Number>& y) {
  Vector<Number> out = apply<Number>(r.weights, y);
  for (std::size_t k = 0; k < out.size(); ++k) out[k] += Number(r.bias[k]);
  return out;
}

/// The readout's activation applied to its argument: sin(ω·) elementwise when set.
Output activate(const Readout& r, Vector<Number> argument, unsigned bits) {
  if (r.sin_omega)
    for (Number& a : argument) a = sin(Number(*r.sin_omega) * a, bits);
  return argument;
}

Output readout(const Readout& r, const Vector<Number>& y, unsigned bits) {
  return activate(r, readout_argument(r, y), bits);
}

Stream representation_at_precision(const Model& model, const Tokens& x, const Semantics& sem, unsigned bits,
                                   const std::vector<std::size_t>& queries) {
  const std::vector<std::size_t> every = all_positions(x.size());
  Stream y = initial_stream(model, x);
  for (std::size_t l = 0; l < model.layers.size(); ++l) {
    bool final_layer = l + 1 == model.layers.size();
    y = layer_forward(model.layers[l], y, sem, bits, final_layer ? queries : every);
  }
  return y;
}

std::vector<Output> evaluate_at_precision(const Model& model, const Tokens& x, const Semantics& sem, unsigned bits,
                                          const std::vector<std::size_t>& queries) {
  std::vector<Output> outputs;
  for (const auto& yi : representation_at_precision(model, x, sem, bits, queries))
    outputs.push_back(readout(model.readout, yi, bits));
  return outputs;
}

/// Runs `step(bits)`, doubling the precision on Undecided up to the budget.
template <class F>
auto with_precision_retries(const ForwardOptions& options, F step) {
  unsigned bits = options.precision_bits;
  while (true) {
    try {
      return step(bits);
    } catch (const Undecided& e) {
      if (!e.precision_helps() || bits * 2 > options.max_precision_bits) throw Undecided(e.what(), bits, false);
      bits *= 2;
    }
  }
}

void check_queries(const Tokens& x, const std::vector<std::size_t>& queries) {
  if (x.empty()) throw std::invalid_argument("evaluate: empty input");
  for (std::size_t k = 0; k < queries.size(); ++k) {
    if (queries[k] < 1 || queries[k] > x.size()) throw std::invalid_argument("evaluate: query position out of range");
    if (k > 0 && queries[k] <= queries[k - 1]) throw std::invalid_argument("evaluate: query positions must increase");
  }
}

}  // namespace

Vector<Number> hardmax_weights(const Vector<Number>& logits, unsigned bits) {
  if (!all_exact(logits)) throw Undecided("hardmax argmax over enclosed logits cannot be decided", bits, false);
  Rational best = max_exact(logits);
  long count = std::count_if(logits.begin(), logits.end(), [&](const Number& a) { return a.exact() == best; });
  Vector<Number> w(logits.size(), Number(0));
  for (std::size_t j = 0; j < logits.size(); ++j)
    if (logits[j].exact() == best) w[j] = Number(Rational(1, count));
  return w;
}

Vector<Number> finite_weights(const Vector<Number>& logits, std::size_t i, unsigned p, unsigned bits) {
  if (!all_exact(logits)) throw Undecided("finite:p rounding decision over enclosed logits cannot be decided", bits, false);
  Rational best = max_exact(logits);
  Integer position(static_cast<unsigned long>(i));
  std::map<Rational, Number> by_gap;  // one decision per distinct gap δ
  Vector<Number> u(logits.size());
  for (std::size_t j = 0; j < logits.size(); ++j) {
    Rational delta = best - logits[j].exact();
    if (delta == 0) {
      u[j] = Number(1);
      continue;
    }
    auto it = by_gap.find(delta);
    if (it == by_gap.end()) it = by_gap.emplace(delta, finite_weight(position, delta, p, bits)).first;
    u[j] = it->second;
  }
  return normalise(u);
}

Vector<Number> finite_normalised_weights(const Vector<Number>& logits, std::size_t i, unsigned p, unsigned bits) {
  if (!all_exact(logits))
    throw Undecided("finite-weights:p rounding decision over enclosed logits cannot be decided", bits, false);
  const Rational best = max_exact(logits);
  std::map<Rational, std::uint64_t> keys_of_gap;
  for (const auto& a : logits) ++keys_of_gap[best - a.exact()];
  const std::map<Rational, Number> kept = surviving_terms(keys_of_gap, Integer(static_cast<unsigned long>(i)), p, bits);
  Vector<Number> u(logits.size(), Number(0));
  if (kept.empty()) return u;  // every weight rounded: the head adds 0
  for (std::size_t j = 0; j < logits.size(); ++j)
    if (const auto it = kept.find(best - logits[j].exact()); it != kept.end()) u[j] = it->second;
  return normalise(u);
}

Vector<Number> softmax_weights(const Vector<Number>& logits, unsigned bits) {
  if (all_exact(logits)) {
    Rational first = logits.front().exact();
    if (std::all_of(logits.begin(), logits.end(), [&](const Number& a) { return a.exact() == first; }))
      return Vector<Number>(logits.size(), Number(Rational(1, static_cast<long>(logits.size()))));
  }
  // Shift by an exact rational near the maximum: exp stays well scaled.
  Rational shift = logits.front().enclosure(bits).lower();
  for (const auto& a : logits) shift = std::max(shift, a.enclosure(bits).lower());
  Vector<Number> e(logits.size());
  for (std::size_t j = 0; j < logits.size(); ++j) e[j] = Number(exp((logits[j] - Number(shift)).enclosure(bits)));
  return normalise(e);
}

std::vector<Output> evaluate_at(const Model& model, const Tokens& x, const ForwardOptions& options,
                                const std::vector<std::size_t>& queries) {
  check_queries(x, queries);
  return with_precision_retries(
      options, [&](unsigned bits) { return evaluate_at_precision(model, x, options.semantics, bits, queries); });
}

std::vector<Vector<Number>> representation_at(const Model& model, const Tokens& x, const ForwardOptions& options,
                                              const std::vector<std::size_t>& queries) {
  check_queries(x, queries);
  return with_precision_retries(
      options, [&](unsigned bits) { return representation_at_precision(model, x, options.semantics, bits, queries); });
}

Vector<Number> apply_mlp(const Mlp& mlp, const Vector<Number>& y) {
  Vector<Number> result = y, hidden, product;
  apply_mlp_in_place(MlpWeights<Rational>{mlp.in, mlp.in_bias, mlp.out, mlp.out_bias}, result, Number(0), hidden,
                     product);
  return result;
}

Output apply_readout(const Model& model, const Vector<Number>& y, unsigned bits) {
  return readout(model.readout, y, bits);
}

Number readout_distance(const Model& f, const Vector<Number>& yf, const Model& g, const Vector<Number>& yg,
                        unsigned bits) {
  Vector<Number> af = readout_argument(f.readout, yf), ag = readout_argument(g.readout, yg);
  if (f.readout.sin_omega == g.readout.sin_omega)  // one activation: an equal argument's outputs are equal
    for (std::size_t k = 0; k < std::min(af.size(), ag.size()); ++k)
      if (af[k] == ag[k]) af[k] = ag[k] = Number(0);  // activated to the exact 0 (sin of the exact 0 is exact)
  return max_abs_difference(activate(f.readout, std::move(af), bits), activate(g.readout, std::move(ag), bits));
}

Output evaluate(const Model& model, const Tokens& x, const ForwardOptions& options) {
  return evaluate_at(model, x, options, {x.size()}).front();
}

std::vector<Output> evaluate_all(const Model& model, const Tokens& x, const ForwardOptions& options) {
  return evaluate_at(model, x, options, all_positions(x.size()));
}

bool is_exact(const Output& y) { return all_exact(y); }

}  // namespace lgc
