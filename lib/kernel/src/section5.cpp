// Section 5 constants, from docs/theory.md §3.
#include "lgcheck/kernel/section5.hpp"

#include <algorithm>

namespace lgc::kernel {
namespace {

/// All classes (s, r) as vectors E_s + p_r.
std::vector<QVector> classes(const Model& m) {
  std::vector<QVector> out;
  for (std::size_t s = 0; s < m.alphabet_size(); ++s)
    for (std::size_t r = 0; r < m.period; ++r) out.push_back(add(m.embedding.row(s), m.positional.row(r)));
  return out;
}

/// ℓ(q, c) = y_cᵀ M y_q for every query class q (rows) and key class c.
std::vector<std::vector<Rational>> content_logits(const Model& m, const Head& h) {
  const auto cs = classes(m);
  std::vector<std::vector<Rational>> out;
  for (const auto& q : cs) {
    const QVector mq = apply<Rational>(h.qk, q);
    std::vector<Rational> row;
    for (const auto& c : cs) row.push_back(dot<Rational>(c, mq));
    out.push_back(row);
  }
  return out;
}

}  // namespace

Margin positional_margin(const Model& model) {
  Margin best;
  if (model.layers.empty()) return best;
  for (const Head& h : model.layers[0].heads) {
    std::vector<Rational> P(h.phi.begin(), h.phi.end());
    P.push_back(1);
    std::sort(P.begin(), P.end());
    P.erase(std::unique(P.begin(), P.end()), P.end());
    if (P.size() < 2) continue;
    Rational gap = P[P.size() - 1] - P[P.size() - 2];
    if (!best || gap < *best) best = gap;
  }
  return best;
}

Rational first_mlp_lipschitz(const Model& model) {
  if (model.layers.empty() || !model.layers[0].mlp) return 1;
  return 1 + row_sum_norm(model.layers[0].mlp->out) * row_sum_norm(model.layers[0].mlp->in);
}

Number convergence_constant(const Model& model, unsigned bits) {
  Number sum(0);
  const Rational tau2(static_cast<unsigned long>(model.locality + 2));
  for (std::size_t h = 0; h < model.layers.at(0).heads.size(); ++h) {
    Rational lo, hi;
    bool first = true;
    for (const auto& row : content_logits(model, model.layers[0].heads[h]))
      for (const auto& l : row) {
        lo = first ? l : std::min(lo, l);
        hi = first ? l : std::max(hi, l);
        first = false;
      }
    sum += Number(8 * value_norm(model, h) * tau2) * exp(Number(Rational(hi - lo)), bits);
  }
  return Number(first_mlp_lipschitz(model)) * sum;
}

Number limit_lipschitz(const Model& model, unsigned bits) {
  Number sum(0);
  for (std::size_t h = 0; h < model.layers.at(0).heads.size(); ++h) {
    const Head& head = model.layers[0].heads[h];
    if (*std::max_element(head.phi.begin(), head.phi.end()) > 1) continue;  // position-dominant: Lip_h = 0
    Rational spread = 0;  // max over queries of (max_c ℓ − min_c ℓ)
    for (const auto& row : content_logits(model, head))
      spread = std::max(spread, Rational(*std::max_element(row.begin(), row.end()) - *std::min_element(row.begin(), row.end())));
    sum += Number(2 * value_norm(model, h)) * exp(Number(spread), bits);
  }
  return Number(first_mlp_lipschitz(model)) * sum;
}

Integer kgram_min_length(std::uint64_t k, const Rational& rho, const Rational& epsilon) {
  return Integer(k) + ceil(Rational(Rational(5 * k) / (2 * rho * epsilon)));
}

}  // namespace lgc::kernel
