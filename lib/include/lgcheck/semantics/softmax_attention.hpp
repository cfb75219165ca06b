#pragma once
// The softmax attention of a one- or two-layer model (THEORY.md §3), written
// once and generic over the enclosure type A: Interval (MPFI at a chosen
// precision, SoftmaxFirstLayer and SoftmaxLinearEvaluator) and FastInterval
// (doubles rounded outward, FastSoftmaxLinear). Both instantiations perform
// the same operations in the same order; only the arithmetic differs. What
// stays with each type: how a count, a zero and i^{φ} are enclosed. The MLPs
// are written once too, in mlp.hpp.
//
// First layer, head h at query i of class q, bulk class counts n_c and
// window slots t = 0..min(τ, i−1) of classes w_t:
//   num = Σ_c n_c e^{ℓ(q,c)} v_c + Σ_t i^{φ(t)} e^{ℓ(q,w_t)} v_{w_t},  den = the same without v,
// the factor i^{φ(t)} applied only when i > 1 and φ(t) ≠ 0; the layer adds
// num/den of every head to the query's embedding.
// Second layer at the last position T, head g with query M Y_T: key j
// weighs w_j = exp(Y_jᵀ M Y_T + φ_g(T − j) ln T) (the positional term only
// where φ_g(T − j) ≠ 0), and the layer adds Σ_j w_j V Y_j / Σ_j w_j to Y_T.
#include "lgcheck/model/model.hpp"

#include <cstddef>
#include <cstdint>
#include <vector>

namespace lgc::attention {

/// One first-layer head's tables, enclosed in A.
template <class A>
struct FirstHeadTables {
  std::vector<std::vector<A>> weights;  // [q][c] = e^{ℓ(q, c)}
  std::vector<std::vector<A>> values;   // [c] = V_h (E_s + p_r)
  std::vector<bool> has_phi;            // φ_h(t) ≠ 0, per window slot t
};

/// A nonzero entry of a second-layer matrix, enclosed.
template <class A>
struct Entry {
  std::size_t row, col;
  A value;
};

/// One second-layer head: the nonzero entries of M and V, and φ enclosed.
template <class A>
struct SecondHeadTables {
  std::vector<Entry<A>> qk, value;
  std::vector<A> phi;
  std::vector<bool> has_phi;  // φ(t) ≠ 0
};

/// A second-layer head's tables, each rational enclosed by `enclose`.
template <class A, class Enclose>
SecondHeadTables<A> second_head_tables(const Head& head, Enclose&& enclose) {
  SecondHeadTables<A> g;
  for (std::size_t r = 0; r < head.qk.rows(); ++r)
    for (std::size_t c = 0; c < head.qk.cols(); ++c) {
      if (head.qk(r, c) != 0) g.qk.push_back({r, c, enclose(head.qk(r, c))});
      if (head.value(r, c) != 0) g.value.push_back({r, c, enclose(head.value(r, c))});
    }
  for (const Rational& phi : head.phi) {
    g.phi.push_back(enclose(phi));
    g.has_phi.push_back(phi != 0);
  }
  return g;
}

/// sum += w·v, componentwise.
template <class A>
void add_scaled(std::vector<A>& sum, const A& w, const std::vector<A>& v) {
  for (std::size_t k = 0; k < sum.size(); ++k) sum[k] += w * v[k];
}

/// y += num / den, componentwise.
template <class A>
void add_quotient(std::vector<A>& y, const std::vector<A>& num, const A& den) {
  for (std::size_t k = 0; k < y.size(); ++k) y[k] += num[k] / den;
}

/// aᵀb, summed from `zero` in index order.
template <class A>
A dot(const std::vector<A>& a, const std::vector<A>& b, const A& zero) {
  A s = zero;
  for (std::size_t k = 0; k < a.size(); ++k) s += a[k] * b[k];
  return s;
}

/// m·y for a matrix given by its nonzero entries (`out` resized to `rows`).
template <class A>
void sparse_times(const std::vector<Entry<A>>& m, const std::vector<A>& y, const A& zero, std::size_t rows,
                  std::vector<A>& out) {
  out.assign(rows, zero);
  for (const Entry<A>& e : m) out[e.row] += e.value * y[e.col];
}

/// One first-layer head's numerator and denominator at query i (see the
/// header comment). `count(n)` encloses a bulk count, `factor(t)` encloses
/// i^{φ(t)}; num and den are overwritten.
template <class A, class Count, class Factor>
void first_head_sums(const FirstHeadTables<A>& head, std::size_t q, const std::vector<std::uint64_t>& counts,
                     const std::vector<std::size_t>& window, std::uint64_t i, const A& zero, Count&& count,
                     Factor&& factor, std::vector<A>& num, A& den) {
  num.assign(num.size(), zero);
  den = zero;
  for (std::size_t c = 0; c < counts.size(); ++c) {
    if (counts[c] == 0) continue;
    const A w = count(counts[c]) * head.weights[q][c];
    den += w;
    add_scaled(num, w, head.values[c]);
  }
  for (std::size_t t = 0; t < window.size(); ++t) {
    A w = head.weights[q][window[t]];
    if (i > 1 && head.has_phi[t]) w *= factor(t);
    den += w;
    add_scaled(num, w, head.values[window[t]]);
  }
}

/// One second-layer head's running sums Σ_j w_j V Y_j and Σ_j w_j.
template <class A>
struct SecondHeadSums {
  std::vector<A> query;  // M Y_T
  std::vector<A> num;
  A den;
};

/// The second layer's attention output Y_T + Σ_g num_g / den_g (before its
/// MLP). `visit_keys(add)` must call add(j, Y_j) for j = 1..T in order;
/// `log_T` encloses ln T.
template <class A, class VisitKeys>
std::vector<A> second_layer_attention(const std::vector<SecondHeadTables<A>>& heads, const std::vector<A>& last,
                                      std::uint64_t T, const A& log_T, const A& zero, VisitKeys&& visit_keys) {
  const std::size_t width = last.size();
  std::vector<SecondHeadSums<A>> sums(heads.size(), SecondHeadSums<A>{{}, std::vector<A>(width, zero), zero});
  for (std::size_t g = 0; g < heads.size(); ++g) sparse_times(heads[g].qk, last, zero, width, sums[g].query);
  std::vector<A> value;
  visit_keys([&](std::uint64_t j, const std::vector<A>& key) {
    for (std::size_t g = 0; g < heads.size(); ++g) {
      const SecondHeadTables<A>& head = heads[g];
      SecondHeadSums<A>& s = sums[g];
      A logit = dot(key, s.query, zero);
      const std::uint64_t t = T - j;
      if (t < head.phi.size() && head.has_phi[t]) logit += head.phi[t] * log_T;
      const A w = exp(logit);
      s.den += w;
      sparse_times(head.value, key, zero, width, value);
      add_scaled(s.num, w, value);
    }
  });
  std::vector<A> y = last;
  for (const SecondHeadSums<A>& s : sums) add_quotient(y, s.num, s.den);
  return y;
}

}  // namespace lgc::attention
