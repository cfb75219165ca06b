// The kernel's forward pass, from docs/theory.md §1.
#include "lgcheck/kernel/forward.hpp"

#include "lgcheck/kernel/quantities.hpp"

#include <gmp.h>

#include <map>
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

/// Inputs of a layer: the vector y_j of each position j, stored once per id. On the first layer y_j = E_{x_j} +
/// p_{j mod Δ}, so the id is the class (x_j, j mod Δ); later layers give every position its own id.
struct LayerInput {
  std::vector<Values> by_id;   ///< the vector of each id
  std::vector<std::size_t> ids;  ///< the id of position j at index j − 1
  const Values& y(std::size_t j) const { return by_id[ids[j - 1]]; }
  std::size_t length() const { return ids.size(); }
  /// V·y of each id, per head of the layer, computed when first asked for (each query of the layer reuses it).
  mutable std::map<std::pair<std::size_t, std::size_t>, Values> values;
  const Values& value(const Head& head, std::size_t h, std::size_t j) const {
    auto [it, fresh] = values.try_emplace({h, ids[j - 1]});
    if (fresh) it->second = multiply(head.value, y(j));
    return it->second;
  }
};

/// The keys j = 1..i of query i as terms. Keys farther than τ carry no positional term, so those with one input id have
/// the same logit y_jᵀ M y_i and value V y_j: one term, counted (`multiplicity`); each key within τ is a term of its
/// own. Every sum over keys below adds each term's summand once, times its multiplicity.
struct Term {
  std::size_t key = 0;             ///< one key j of the term (its logit, value and position class)
  std::uint64_t multiplicity = 0;  ///< how many keys it stands for
};

/// The keys farther than τ from the query, one counted term per input id; advanced key by key as the query moves
/// right, so a layer's pass over every query counts each key once (not once per query).
struct FarKeys {
  std::vector<Term> by_id;
  std::size_t through = 0;  ///< keys 1..through are counted
  explicit FarKeys(const LayerInput& in) : by_id(in.by_id.size()) {}
  void advance(const LayerInput& in, std::size_t far_end) {
    for (; through < far_end; ++through) {
      Term& t = by_id[in.ids[through]];
      if (t.multiplicity++ == 0) t.key = through + 1;
    }
  }
};

/// The terms of query i: those of `far` (advanced to i − τ − 1, which must not be beyond it), then keys i − τ..i.
std::vector<Term> key_terms(const Model& model, const LayerInput& in, std::size_t i, FarKeys& far) {
  const std::size_t far_end = i > model.locality ? i - model.locality - 1 : 0;  // keys 1..far_end: i − j > τ
  if (far.through > far_end) throw std::logic_error("kernel: far keys counted beyond the query");
  far.advance(in, far_end);
  std::vector<Term> terms;
  for (const Term& t : far.by_id)
    if (t.multiplicity > 0) terms.push_back(t);
  for (std::size_t j = far_end + 1; j <= i; ++j) terms.push_back({j, 1});
  return terms;
}

std::vector<Term> key_terms(const Model& model, const LayerInput& in, std::size_t i) {
  FarKeys far(in);
  return key_terms(model, in, i, far);
}

Number times(std::uint64_t multiplicity, const Number& x) {
  return multiplicity == 1 ? x : Number(Rational(Integer(multiplicity))) * x;
}

/// Logits a_{i j} = y_j^T M y_i + s(i) phi(i - j), one per term (its key j).
Values head_logits(const Model& model, const Head& head, const LayerInput& in, std::size_t i,
                   const std::vector<Term>& terms, Semantics semantics, unsigned bits) {
  Values query = multiply(head.qk, in.y(i));
  Number scale(1);
  if (semantics.kind == Semantics::Kind::Softmax) scale = i == 1 ? Number(0) : Number(log(Interval(Rational(i), bits)));
  Values logits;
  for (const Term& term : terms) {
    Number a = dot(in.y(term.key), query);
    std::size_t t = i - term.key;
    if (t <= model.locality && head.phi[t] != 0) a += scale * Number(head.phi[t]);
    logits.push_back(std::move(a));
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

/// i^{1/v} for δ = u/v when it is an integer (i a perfect v-th power: i^{−δ} is then rational), else nullopt.
std::optional<Integer> exact_root(const Integer& i, const Rational& delta) {
  const Integer v = denominator(delta);
  if (v > Integer(1u << 20) || numerator(delta) > Integer(1u << 20)) return std::nullopt;
  Integer root;
  if (mpz_root(root.backend().data(), i.backend().data(), v.convert_to<unsigned long>()) == 0) return std::nullopt;
  return root;
}

/// finite-weights:p: does the normalised weight u / total round to 0, 2^p·u <= total? Exact on rationals, else
/// decided on the enclosures' endpoints (Undecided when they overlap).
bool normalised_weight_rounds(const Number& u, const Number& total, unsigned p, unsigned bits) {
  const Number scaled = u * Number(Rational(Integer(1) << p));
  if (scaled.is_exact() && total.is_exact()) return scaled.exact() <= total.exact();
  const Interval a = scaled.enclosure(bits), b = total.enclosure(bits);
  if (a.upper() <= b.lower()) return true;
  if (a.lower() > b.upper()) return false;
  throw Undecided("finite-weights:p: 2^p·u and the sum of the terms overlap");
}

/// Per-key weights w_j = u_j / Σ_keys u of each term at query i. hardmax: u = 1 on the argmax set, else 0; finite:p:
/// u_j = i^{a_ij - a*}, zero when <= 2^{-p}; finite-weights:p: u_j = i^{a_ij - a*}, zero when u_j / Σ_keys u <= 2^{-p}
/// (every weight zero when all round); softmax: u_j = exp(a_ij - c), c an exact rational near the largest logit.
Values key_weights(const Values& logits, const std::vector<Term>& terms, std::size_t i, Semantics semantics,
                   unsigned bits) {
  Values u(logits.size(), Number(0));
  if (semantics.kind == Semantics::Kind::Softmax) {
    Rational c = lower_of(logits[0]);
    for (const auto& a : logits) c = std::max(c, lower_of(a));
    for (std::size_t k = 0; k < logits.size(); ++k) u[k] = exp(logits[k] - Number(c), bits);
  } else {
    const Rational best = top_logit(logits);
    const Integer position(static_cast<unsigned long>(i));
    const bool rounds_terms = semantics.kind == Semantics::Kind::Finite;
    for (std::size_t k = 0; k < logits.size(); ++k) {
      const Rational delta = best - logits[k].exact();
      if (delta == 0)
        u[k] = Number(1);
      else if (semantics.kind == Semantics::Kind::Hardmax ||
               (rounds_terms && rounds_to_zero(position, delta, semantics.bits)))
        u[k] = Number(0);
      else if (is_integer(delta))  // 1 / i^delta, exact; i^delta < 2^p bounds its size
        u[k] = Number(Rational(Integer(1), pow(position, numerator(delta).convert_to<unsigned long>())));
      else if (const auto root = exact_root(position, delta); root && !rounds_terms)  // finite-weights:p decides on it
        u[k] = Number(Rational(Integer(1), pow(*root, numerator(delta).convert_to<unsigned long>())));
      else
        u[k] = Number(power(position, Rational(-delta), bits));
    }
  }
  Number total(0);
  for (std::size_t k = 0; k < u.size(); ++k) total += times(terms[k].multiplicity, u[k]);
  if (semantics.kind == Semantics::Kind::FiniteWeights) {
    bool kept = false;
    for (auto& x : u) {
      if (normalised_weight_rounds(x, total, semantics.bits, bits)) x = Number(0);
      else kept = true;
    }
    if (!kept) return u;  // every weight rounded: the head adds nothing
    total = Number(0);
    for (std::size_t k = 0; k < u.size(); ++k) total += times(terms[k].multiplicity, u[k]);
  }
  for (auto& w : u) w = w / total;
  return u;
}

/// Every head's per-key weight of each term at query i (index: head, then term).
std::vector<Values> weights_at(const Model& model, std::size_t layer, const LayerInput& in, std::size_t i,
                               const std::vector<Term>& terms, Semantics semantics, unsigned bits) {
  std::vector<Values> out;
  for (const Head& head : model.layers[layer].heads)
    out.push_back(key_weights(head_logits(model, head, in, i, terms, semantics, bits), terms, i, semantics, bits));
  return out;
}

/// One layer at query i: y_i + sum over heads of sum_j w_ij V y_j, then the MLP.
Values layer_at(const Model& model, std::size_t layer, const LayerInput& in, std::size_t i, FarKeys& far,
                Semantics semantics, unsigned bits) {
  const Layer& l = model.layers[layer];
  const std::vector<Term> terms = key_terms(model, in, i, far);
  std::vector<Values> weights = weights_at(model, layer, in, i, terms, semantics, bits);
  Values y = in.y(i);
  for (std::size_t h = 0; h < l.heads.size(); ++h)
    for (std::size_t k = 0; k < terms.size(); ++k)
      if (!(weights[h][k] == Number(0))) {
        const Number w = times(terms[k].multiplicity, weights[h][k]);
        const Values& v = in.value(l.heads[h], h, terms[k].key);
        for (std::size_t r = 0; r < y.size(); ++r) y[r] += w * v[r];
      }
  return l.mlp ? apply_mlp(*l.mlp, y) : y;
}

LayerInput initial_representations(const Model& model, const Tokens& tokens) {
  if (tokens.empty()) throw std::invalid_argument("kernel: empty input");
  LayerInput in;
  const std::size_t S = model.alphabet_size(), D = model.period;
  for (std::size_t id = 0; id < S * D; ++id)  // id s·Δ + r: E_s + p_r
    in.by_id.push_back(to_numbers(initial_embedding(model, static_cast<int>(id / D), id % D)));
  in.ids.reserve(tokens.size());
  for (std::size_t i = 1; i <= tokens.size(); ++i) {
    int s = tokens[i - 1];
    if (s < 0 || static_cast<std::size_t>(s) >= S)
      throw std::invalid_argument("kernel: token " + std::to_string(s) + " outside the alphabet");
    in.ids.push_back(static_cast<std::size_t>(s) * D + i % D);  // E_{x_i} + p_{i mod Δ}
  }
  return in;
}

}  // namespace

bool rounds_to_zero(const Integer& i, const Rational& delta, unsigned p) {
  if (i <= 1) return false;  // 1^{-delta} = 1 > 2^{-p}
  const Integer u = numerator(delta), pv = Integer(p) * denominator(delta);
  // With 2^b <= i < 2^{b+1}: u b >= p v proves i^u >= 2^{pv}; u (b+1) <= p v proves i^u < 2^{pv}.
  const Integer b(static_cast<unsigned long>(bit_length(i) - 1));  // ⌊log2 i⌋
  if (u * b >= pv) return true;
  if (u * (b + 1) <= pv) return false;
  // Here u < p v / b + ... is bounded by the band: compare the integers themselves.
  if (u > 100000000 || pv > 100000000) throw std::invalid_argument("rounds_to_zero: exponents beyond 10^8");
  return pow(i, u.convert_to<unsigned long>()) >= pow(Integer(2), pv.convert_to<unsigned long>());
}

std::vector<std::vector<KeyWeight>> last_position_weights(const Model& model, const Tokens& tokens,
                                                           Semantics semantics, unsigned bits) {
  LayerInput in = initial_representations(model, tokens);
  const std::size_t T = in.length();
  const std::vector<Term> terms = key_terms(model, in, T);
  std::vector<std::vector<KeyWeight>> out;
  for (const Values& w : weights_at(model, 0, in, T, terms, semantics, bits)) {
    std::vector<KeyWeight>& head = out.emplace_back();
    for (std::size_t k = 0; k < terms.size(); ++k) head.push_back({terms[k].key, terms[k].multiplicity, w[k]});
  }
  return out;
}

Values last_representation(const Model& model, const Tokens& tokens, Semantics semantics, unsigned bits) {
  LayerInput in = initial_representations(model, tokens);
  const std::size_t T = in.length();
  for (std::size_t layer = 0; layer < model.layers.size(); ++layer) {
    FarKeys far(in);  // queries 1..T in order: each key joins the far terms once
    if (layer + 1 == model.layers.size()) return layer_at(model, layer, in, T, far, semantics, bits);  // query T only
    LayerInput next;
    for (std::size_t i = 1; i <= T; ++i) {
      next.by_id.push_back(layer_at(model, layer, in, i, far, semantics, bits));
      next.ids.push_back(i - 1);
    }
    in = std::move(next);
  }
  return in.y(T);  // a model without layers
}

Values apply_mlp(const Mlp& mlp, const Values& y) {
  Values hidden = plus(multiply(mlp.in, y), to_numbers(mlp.in_bias));
  for (auto& h : hidden) h = relu(h);
  return plus(plus(y, multiply(mlp.out, hidden)), to_numbers(mlp.out_bias));
}

Values readout_argument(const Model& model, const Values& y) {
  return plus(multiply(model.readout.weights, y), to_numbers(model.readout.bias));
}

Values activate(const Model& model, Values argument, unsigned bits) {
  if (model.readout.sin_omega)
    for (auto& o : argument) o = sin(Number(*model.readout.sin_omega) * o, bits);
  return argument;
}

Values apply_readout(const Model& model, const Values& y, unsigned bits) {
  return activate(model, readout_argument(model, y), bits);
}

Values evaluate(const Model& model, const Tokens& tokens, Semantics semantics, unsigned bits) {
  return apply_readout(model, last_representation(model, tokens, semantics, bits), bits);
}

}  // namespace lgc::kernel
