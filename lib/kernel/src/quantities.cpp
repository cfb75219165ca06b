// Section 4 constants, from docs/theory.md §2.
#include "lgcheck/kernel/quantities.hpp"

#include <gmp.h>

#include <algorithm>
#include <stdexcept>

namespace lgc::kernel {

Margin smaller_margin(const Margin& a, const Margin& b) { return a && (!b || *a < *b) ? a : b; }

Rational magnitude(const Rational& q) { return q < 0 ? Rational(-q) : q; }

QVector class_vector(const Model& model, std::size_t token, std::size_t residue) {
  return add(model.embedding.row(token), model.positional.row(residue % model.period));
}

/// From GMP's floor root.
Integer ceil_root(const Integer& N, unsigned long n) {
  Integer r;
  mpz_root(r.backend().data(), N.backend().data(), n);
  if (pow(r, n) < N) r += 1;
  return r;
}

std::size_t bit_length(const Integer& z) { return mpz_sizeinbase(z.backend().data(), 2); }

namespace {

/// A key the query (y, r) of first-layer head h can see: its logit and its class (token, residue).
struct Key {
  Rational logit;
  std::size_t token, residue;
};

/// Every key of theory.md §2, "Logit margin": bulk keys of any residue, window keys at offset t = 1..τ (residue
/// r − t) with any token, the query itself.
std::vector<Key> keys(const Model& model, std::size_t head, std::size_t y, std::size_t residue) {
  const Head& h = model.layers.at(0).heads.at(head);
  const std::size_t S = model.alphabet_size(), D = model.period;
  const QVector query = class_vector(model, y, residue), mq = apply<Rational>(h.qk, query);  // logit: keyᵀ M query
  std::vector<Key> out;
  for (std::size_t s = 0; s < S; ++s)
    for (std::size_t r = 0; r < D; ++r) out.push_back({dot<Rational>(class_vector(model, s, r), mq), s, r});
  for (std::size_t t = 1; t <= model.locality; ++t)
    for (std::size_t s = 0; s < S; ++s) {
      const std::size_t r = (residue + D - t % D) % D;
      out.push_back({dot<Rational>(class_vector(model, s, r), mq) + h.phi[t], s, r});
    }
  out.push_back({dot<Rational>(query, mq) + h.phi[0], y, residue});
  return out;
}

/// The attainable logits A_h(y, r).
std::vector<Rational> attainable_logits(const Model& model, std::size_t head, std::size_t y, std::size_t residue) {
  std::vector<Rational> out;
  for (const Key& k : keys(model, head, y, residue)) out.push_back(k.logit);
  return out;
}

/// Whether head h weighs one value on every input (theory.md "The simulation construction"): at every query, keys
/// of equal logit carry equal value vectors V_h(E_s + p_r).
bool weighs_one_value(const Model& model, std::size_t head) {
  const QMatrix& v = model.layers.at(0).heads.at(head).value;
  for (std::size_t y = 0; y < model.alphabet_size(); ++y)
    for (std::size_t r = 0; r < model.period; ++r) {
      const std::vector<Key> all = keys(model, head, y, r);
      for (const Key& a : all)
        for (const Key& b : all)
          if (a.logit == b.logit && apply<Rational>(v, class_vector(model, a.token, a.residue)) !=
                                        apply<Rational>(v, class_vector(model, b.token, b.residue)))
            return false;
    }
  return true;
}


/// Over the heads that do not weigh one value: whether every one is anchored and all share one attention pattern
/// (theory.md "Lemma (length)"), and the number H of distinct patterns.
struct AttentionPatterns {
  bool all_anchored = true;
  std::size_t distinct = 0;
};

AttentionPatterns attention_patterns(const std::vector<Model>& models) {
  // A pattern: the table of bulk-class logits over all queries (y, r) and classes (s, r'), and φ.
  std::vector<std::vector<Rational>> patterns;
  AttentionPatterns out;
  for (const Model& m : models) {
    if (m.layers.empty()) continue;
    const std::size_t S = m.alphabet_size(), D = m.period;
    for (std::size_t head = 0; head < m.layers[0].heads.size(); ++head) {
      if (weighs_one_value(m, head)) continue;
      const Head& h = m.layers[0].heads[head];
      std::vector<Rational> table(h.phi.begin(), h.phi.end());
      for (std::size_t y = 0; y < S; ++y)
        for (std::size_t r = 0; r < D; ++r) {
          const QVector q = apply<Rational>(h.qk, class_vector(m, y, r));
          std::vector<Rational> row;  // row[r' * S + s]
          for (std::size_t rk = 0; rk < D; ++rk)
            for (std::size_t s = 0; s < S; ++s) row.push_back(dot<Rational>(class_vector(m, s, rk), q));
          const Rational top = *std::max_element(row.begin(), row.end());
          bool anchored = false;  // some residue has all its classes at the top logit
          for (std::size_t rk = 0; rk < D && !anchored; ++rk)
            anchored = std::all_of(row.begin() + rk * S, row.begin() + (rk + 1) * S,
                                   [&](const Rational& x) { return x == top; });
          out.all_anchored = out.all_anchored && anchored;
          table.insert(table.end(), row.begin(), row.end());
        }
      if (std::find(patterns.begin(), patterns.end(), table) == patterns.end()) patterns.push_back(table);
    }
  }
  out.distinct = patterns.size();
  return out;
}

}  // namespace

Margin logit_margin(const Model& model) {
  Margin best;
  if (model.layers.empty()) return best;
  for (std::size_t h = 0; h < model.layers[0].heads.size(); ++h)
    for (std::size_t y = 0; y < model.alphabet_size(); ++y)
      for (std::size_t r = 0; r < model.period; ++r) {
        std::vector<Rational> a = attainable_logits(model, h, y, r);
        std::sort(a.begin(), a.end());
        for (std::size_t k = 1; k < a.size(); ++k)
          if (a[k] != a[k - 1]) best = smaller_margin(best, Rational(a[k] - a[k - 1]));
      }
  return best;
}

Margin logit_margin(const std::vector<Model>& models) {
  Margin best;
  for (const auto& m : models) best = smaller_margin(best, logit_margin(m));
  return best;
}

Integer scaled_threshold(const Rational& c, const Margin& gamma, unsigned p) {
  if (c <= 0) throw std::invalid_argument("scaled_threshold: c must be positive");
  if (!gamma) return std::max(Integer(1), ceil(c));  // 2^{p/∞} = 1
  if (*gamma <= 0) throw std::invalid_argument("scaled_threshold: the margin must be positive");
  const Integer u = numerator(*gamma), v = denominator(*gamma), a = numerator(c), b = denominator(c);
  // Sizes: a^u·2^{pv} has about u·bits(a) + p·v bits; refuse beyond 2^26 bits.
  if (u > 1000000 || Integer(p) * v + u * Integer(bit_length(a)) > Integer(1) << 26)
    throw std::invalid_argument("scaled_threshold: 2^{p/γ} beyond 2^26 bits");
  const unsigned long uu = u.convert_to<unsigned long>();
  const Integer N = pow(a, uu) * pow(Integer(2), (Integer(p) * v).convert_to<unsigned long>());
  const Integer R = ceil_root(N, uu);  // least y with y^u >= N; need i·b >= R
  return std::max(Integer(1), Integer((R + b - 1) / b));
}

Integer hardmax_threshold(unsigned p, const Margin& gamma) { return scaled_threshold(Rational(1), gamma, p); }

Rational row_sum_norm(const QMatrix& m) {
  Rational best = 0;
  for (std::size_t r = 0; r < m.rows(); ++r) {
    Rational sum = 0;
    for (std::size_t c = 0; c < m.cols(); ++c) sum += magnitude(m(r, c));
    best = std::max(best, sum);
  }
  return best;
}

Rational readout_lipschitz(const Model& model) {
  Rational lip = row_sum_norm(model.readout.weights);
  if (!model.layers.empty() && model.layers.back().mlp) {
    const Mlp& mlp = *model.layers.back().mlp;
    lip *= 1 + row_sum_norm(mlp.out) * row_sum_norm(mlp.in);
  }
  if (model.readout.sin_omega) lip *= magnitude(*model.readout.sin_omega);
  return lip;
}

std::vector<QVector> classes(const Model& m) {
  std::vector<QVector> out;
  for (std::size_t s = 0; s < m.alphabet_size(); ++s)
    for (std::size_t r = 0; r < m.period; ++r) out.push_back(class_vector(m, s, r));
  return out;
}

void add_range(const std::vector<QVector>& vs, std::vector<Rational>& lo, std::vector<Rational>& hi) {
  for (std::size_t r = 0; r < lo.size(); ++r) {
    Rational least = vs.front()[r], most = least;
    for (const QVector& v : vs) {
      least = std::min(least, v[r]);
      most = std::max(most, v[r]);
    }
    lo[r] += least;
    hi[r] += most;
  }
}

std::pair<std::vector<Rational>, std::vector<Rational>> heads_value_range(const Model& model) {
  std::vector<Rational> lo(model.width, 0), hi(model.width, 0);
  const std::vector<QVector> ys = classes(model);
  for (const Head& h : model.layers.at(0).heads) {
    std::vector<QVector> values;
    for (const QVector& y : ys) values.push_back(apply<Rational>(h.value, y));
    add_range(values, lo, hi);
  }
  return {lo, hi};
}

Rational value_norm(const Model& model, std::size_t head) {
  const Head& h = model.layers.at(0).heads.at(head);
  Rational best = 0;
  for (std::size_t s = 0; s < model.alphabet_size(); ++s)
    for (std::size_t r = 0; r < model.period; ++r)
      for (const Rational& x : apply<Rational>(h.value, class_vector(model, s, r))) best = std::max(best, magnitude(x));
  return best;
}

std::optional<Rational> norm_constant(const Model& model) {
  if (model.layers.size() != 1) return std::nullopt;
  Rational sum = 0;
  for (std::size_t h = 0; h < model.layers[0].heads.size(); ++h) sum += value_norm(model, h);
  return readout_lipschitz(model) * sum;
}

std::optional<Rational> norm_constant(const std::vector<Model>& models) {
  std::optional<Rational> best;
  for (const auto& m : models) {
    auto L = norm_constant(m);
    if (!L) return std::nullopt;
    if (!best || *L > *best) best = L;
  }
  return best;
}

std::optional<Integer> n_paper(const std::vector<Model>& models, const Rational& epsilon, const Rational& c,
                               bool sum_form) {
  auto L = norm_constant(models);
  if (!L || epsilon <= 0 || c <= 0) return std::nullopt;
  const Model& f = models.front();
  const Rational S(static_cast<unsigned long>(f.alphabet_size())), D(static_cast<unsigned long>(f.period));
  const Rational tau_hat(static_cast<unsigned long>(f.locality + 1));
  const Rational shape = sum_form ? (S * S * S + tau_hat) * (S * S * S + tau_hat) : pow(S, 6) * tau_hat * tau_hat;
  const Rational term = (*L) * (*L) * pow(D, 7) * shape / (epsilon * epsilon);
  const auto p = rounding_bits(models);
  const Integer rounding = p ? scaled_threshold(c, logit_margin(models), *p) : ceil(c);  // ⌈c·2^{p/γ}⌉ or ⌈c·1⌉
  return std::max(rounding, ceil(Rational(c * term)));
}

Rational simulation_delta(const std::vector<Model>& models, const Rational& epsilon) {
  const Rational L = norm_constant(models).value_or(Rational(0));
  return L == 0 || epsilon > 2 * L ? Rational(2) : Rational(epsilon / L);  // a distance ‖ω − ω′‖₁ is at most 2
}

Integer simulation_resolution(const std::vector<Model>& models, const Rational& epsilon) {
  const Model& f = models.front();
  const long S = static_cast<long>(f.alphabet_size()), K = S * static_cast<long>(f.period);
  const long tau = static_cast<long>(f.locality);
  return ceil(Rational(Rational(5 * K + 7 * S + 2 * tau + 6) / simulation_delta(models, epsilon) + Rational(1, 2)));
}

std::optional<Integer> n_sim(const std::vector<Model>& models, const Rational& epsilon) {
  if (!norm_constant(models) || epsilon <= 0) return std::nullopt;
  const Model& f = models.front();
  const Integer S(f.alphabet_size()), D(f.period), tau(f.locality);
  const Integer Q = simulation_resolution(models, epsilon);
  const AttentionPatterns a = attention_patterns(models);
  Integer bound;
  if (a.all_anchored && a.distinct <= 1) {
    bound = D * (S * Q * (tau + 1) + S + 2) + tau;
  } else {
    // One factor Q(τ+1) per distinct head interval: at most one per pattern and one per bulk class (S·Δ).
    const std::size_t e = std::min(a.distinct, f.alphabet_size() * f.period);
    if (e > 64) throw std::invalid_argument("n_sim: an exponent above 64");
    bound = D * S * pow(Integer(Q * (tau + 1)), static_cast<unsigned long>(e)) * 2 * S * Q + D + tau;
  }
  if (auto p = rounding_bits(models)) {  // padding: z at least the threshold long
    const Integer t = hardmax_threshold(*p, logit_margin(models));
    bound = std::max(bound, Integer(2 * t + D * (S + 1)));
  }
  return bound;
}

std::optional<unsigned> rounding_bits(const std::vector<Model>& models) {
  std::optional<unsigned> p;
  for (const auto& m : models)
    if (m.semantics.rounds() && (!p || m.semantics.bits > *p)) p = m.semantics.bits;
  return p;
}

}  // namespace lgc::kernel
