// Section 5 constants, from docs/theory.md §3.
#include "lgcheck/kernel/section5.hpp"

#include "lgcheck/numeric/interval.hpp"
#include "lgcheck/numeric/operator_norm.hpp"

#include <algorithm>
#include <random>

namespace lgc::kernel {
namespace {

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
    if (P.size() >= 2) best = smaller_margin(best, Rational(P[P.size() - 1] - P[P.size() - 2]));
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
    std::vector<Rational> all;  // ℓmax,h − ℓmin,h over every query and key class
    for (const auto& row : content_logits(model, model.layers[0].heads[h]))
      all.insert(all.end(), row.begin(), row.end());
    const auto [lo, hi] = std::minmax_element(all.begin(), all.end());
    sum += Number(8 * value_norm(model, h) * tau2) * exp(Number(Rational(*hi - *lo)), bits);
  }
  return Number(first_mlp_lipschitz(model)) * sum;
}

Number limit_lipschitz(const Model& model, unsigned bits) {
  Number sum(0);
  for (std::size_t h = 0; h < model.layers.at(0).heads.size(); ++h) {
    const Head& head = model.layers[0].heads[h];
    if (*std::max_element(head.phi.begin(), head.phi.end()) > 1) continue;  // position-dominant: Lip_h = 0
    Rational spread = 0;  // max over queries of (max_c ℓ − min_c ℓ)
    for (const auto& row : content_logits(model, head)) {
      const auto [lo, hi] = std::minmax_element(row.begin(), row.end());
      spread = std::max(spread, Rational(*hi - *lo));
    }
    sum += Number(2 * value_norm(model, h)) * exp(Number(spread), bits);
  }
  return Number(first_mlp_lipschitz(model)) * sum;
}

namespace {

/// The class s·Δ + r of position j (1-based) of w: its token and j mod Δ.
std::size_t class_at(const Model& m, const Tokens& w, std::uint64_t j) {
  return static_cast<std::size_t>(w.at(j - 1)) * m.period + j % m.period;
}

/// The bulk class counts n of the positions j <= |w| − τ − 1 of w.
std::vector<Rational> bulk_counts(const Model& m, const Tokens& w) {
  std::vector<Rational> n(m.alphabet_size() * m.period, Rational(0));
  for (std::uint64_t j = 1; j + m.locality < w.size(); ++j) n[class_at(m, w, j)] += 1;
  return n;
}

/// q_g = M_g Φ_q: the second-layer head's query vector at the limit query Φ_q.
Values limit_query(const Head& g, const Values& phi_q) {
  Values q(g.qk.rows(), Number(0));
  for (std::size_t r = 0; r < g.qk.rows(); ++r)
    for (std::size_t c = 0; c < g.qk.cols(); ++c) q[r] += Number(g.qk(r, c)) * phi_q.at(c);
  return q;
}

}  // namespace

LimitMap::LimitMap(const Model& m, unsigned bits) : model_(m), classes_(classes(m)) {
  for (const Head& h : m.layers.at(0).heads) {
    auto& weights = weight_.emplace_back();
    for (const QVector& yq : classes_) {
      const QVector mq = apply<Rational>(h.qk, yq);
      std::vector<Rational> logit;
      for (const QVector& yc : classes_) logit.push_back(dot<Rational>(yc, mq));
      const Rational top = *std::max_element(logit.begin(), logit.end());  // e^{ℓ − top}: the same ratios
      auto& row = weights.emplace_back();
      for (const Rational& l : logit) row.push_back(exp(Number(Rational(l - top)), bits));
    }
    auto& values = value_.emplace_back();
    for (const QVector& yc : classes_) {
      const QVector v = apply<Rational>(h.value, yc);
      values.emplace_back(v.begin(), v.end());
    }
  }
}

Values LimitMap::at(const std::vector<std::size_t>& window, const std::vector<Rational>& bulk,
                    const Rational& slot_factor) const {
  const QVector& yq = classes_.at(window.at(0));
  Values out(yq.begin(), yq.end());
  for (std::size_t h = 0; h < weight_.size(); ++h) {
    const Head& head = model_.layers[0].heads[h];
    Rational P = 1;
    for (std::size_t t = 0; t < window.size(); ++t) P = std::max(P, head.phi.at(t));
    std::vector<std::pair<Rational, std::size_t>> kept;  // (the factor before e^ℓ, the class) of each kept term
    if (P == 1)
      for (std::size_t c = 0; c < classes_.size(); ++c)
        if (bulk.at(c) > 0) kept.emplace_back(bulk[c], c);
    for (std::size_t t = 0; t < window.size(); ++t)
      if (head.phi[t] == P) kept.emplace_back(slot_factor, window[t]);
    if (kept.empty()) throw std::invalid_argument("limit map: no term (an empty bulk and no slot at phi = 1)");
    Values num(model_.width, Number(0));
    Number den(0);
    for (const auto& [factor, c] : kept) {
      const Number w = Number(factor) * weight_[h][window[0]][c];
      for (std::size_t r = 0; r < model_.width; ++r) num[r] += w * value_[h][c][r];
      den += w;
    }
    for (std::size_t r = 0; r < model_.width; ++r) out[r] += num[r] / den;
  }
  return model_.layers[0].mlp ? apply_mlp(*model_.layers[0].mlp, out) : out;
}

void LimitMap::along(const Tokens& x, const std::function<void(std::uint64_t, const Values&)>& visit) const {
  const std::size_t tau = model_.locality;
  std::vector<Rational> counts(classes_.size(), Rational(0));
  std::vector<std::size_t> window(tau + 1);
  for (std::uint64_t i = tau + 2; i <= x.size(); ++i) {
    counts[class_at(model_, x, i - tau - 1)] += 1;  // the bulk gains position i − τ − 1
    for (std::size_t t = 0; t <= tau; ++t) window[t] = class_at(model_, x, i - t);
    visit(i, at(window, counts, Rational(Integer(i - tau - 1))));
  }
}

Values LimitMap::at_end(const Tokens& x) const {
  const std::size_t tau = model_.locality;
  if (x.size() <= tau + 1) throw std::invalid_argument("limit map: no bulk (length <= tau + 1)");
  std::vector<std::size_t> window(tau + 1);
  for (std::size_t t = 0; t <= tau; ++t) window[t] = class_at(model_, x, x.size() - t);
  return at(window, bulk_counts(model_, x), Rational(Integer(x.size() - tau - 1)));
}

Values limit_map(const Model& m, const std::vector<std::size_t>& window, const std::vector<Rational>& mu,
                 unsigned bits) {
  return LimitMap(m, bits).at(window, mu);
}

namespace {

/// q_g = M_g Φ_q for every second-layer head g.
std::vector<Values> limit_queries(const Model& m, const Values& phi_q) {
  std::vector<Values> q;
  for (const Head& g : m.layers.at(1).heads) q.push_back(limit_query(g, phi_q));
  return q;
}

/// The integrands at one first-layer output y: per head g, p_{g,0} = e^{⟨y, q_g⟩} and p_{g,1+k} = p_{g,0}·(V_g y)_k.
std::vector<Number> integrands_at(const Model& m, const std::vector<Values>& q, const Values& y, unsigned bits) {
  std::vector<Number> p(q.size() * (1 + m.width), Number(0));
  for (std::size_t g = 0; g < q.size(); ++g) {
    Number score(0);
    for (std::size_t r = 0; r < m.width; ++r) score += y[r] * q[g][r];
    const Number p0 = exp(score, bits);
    const Head& head = m.layers[1].heads[g];
    p[g * (1 + m.width)] = p0;
    for (std::size_t k = 0; k < head.value.rows(); ++k) {
      Number vy(0);
      for (std::size_t c = 0; c < m.width; ++c) vy += Number(head.value(k, c)) * y[c];
      p[g * (1 + m.width) + 1 + k] = p0 * vy;
    }
  }
  return p;
}

/// The window classes and bulk counts of w at increasing positions i (the bulk: positions 1..i − τ − 1).
struct BulkWalk {
  const Model& m;
  const Tokens& w;
  std::vector<Rational> counts;
  std::uint64_t at;  ///< the position whose bulk `counts` holds
  BulkWalk(const Model& model, const Tokens& word)
      : m(model), w(word), counts(model.alphabet_size() * model.period, Rational(0)), at(model.locality + 1) {}
  std::vector<std::size_t> advance(std::uint64_t i) {
    for (; at < i; ++at) counts[class_at(m, w, at - m.locality)] += 1;
    std::vector<std::size_t> window(m.locality + 1);
    for (std::size_t t = 0; t <= m.locality; ++t) window[t] = class_at(m, w, i - t);
    return window;
  }
};

}  // namespace

std::vector<Number> integrand_averages(const LimitMap& phi, const Values& phi_q, const Tokens& w, unsigned bits) {
  const Model& m = phi.model();
  const std::vector<Values> q = limit_queries(m, phi_q);
  std::vector<Number> sum(q.size() * (1 + m.width), Number(0));
  std::uint64_t positions = 0;
  phi.along(w, [&](std::uint64_t, const Values& y) {
    const std::vector<Number> p = integrands_at(m, q, y, bits);
    for (std::size_t k = 0; k < p.size(); ++k) sum[k] += p[k];
    ++positions;
  });
  if (positions == 0) throw std::invalid_argument("integrand averages: no position with a bulk");
  for (Number& s : sum) s = s / Number(Rational(Integer(positions)));
  return sum;
}

DriftForm drift_form(const LimitMap& phi, const Values& phi_q, const std::vector<Number>& averages_x, const Tokens& x,
                     const std::vector<std::uint64_t>& kept, const Number& G, const Number& L, unsigned bits) {
  const Model& m = phi.model();
  const std::size_t tau = m.locality;
  const std::vector<Values> q = limit_queries(m, phi_q);
  Tokens z;
  for (const std::uint64_t i : kept) z.push_back(x.at(i - 1));
  if (z.size() <= tau + 1) throw std::invalid_argument("drift form: z has no position with a bulk");
  BulkWalk at_x(m, x), at_z(m, z);
  std::vector<Number> sum_x(averages_x.size(), Number(0)), sum_z = sum_x;
  DriftForm out;
  Rational drift_sum = 0;
  const Number range = Number(2) * G;  // the a-priori range of an integrand's change
  for (std::uint64_t j = tau + 2; j <= z.size(); ++j) {
    const std::uint64_t i = kept[j - 1];
    const auto window_x = at_x.advance(i), window_z = at_z.advance(j);
    const Rational Bx(Integer(i - tau - 1)), Bz(Integer(j - tau - 1));
    const auto px = integrands_at(m, q, phi.at(window_x, at_x.counts, Bx), bits);
    const auto pz = integrands_at(m, q, phi.at(window_z, at_z.counts, Bz), bits);
    const bool same = window_x == window_z;
    Rational d = 0;
    for (std::size_t c = 0; same && c < at_x.counts.size(); ++c) d += abs(at_z.counts[c] / Bz - at_x.counts[c] / Bx);
    drift_sum += d;
    out.broken += !same;
    const Number scale = same ? L * Number(d) : range;
    out.informative += same && upper_of(scale) < lower_of(range);
    for (std::size_t k = 0; k < px.size() && k < sum_x.size(); ++k) sum_x[k] += px[k], sum_z[k] += pz[k];
    if (same && d == 0) continue;  // the same window and histogram: Φ, hence every integrand, is the same
    Rational& ratio = same ? out.lipschitz_ratio : out.range_ratio;
    for (std::size_t k = 0; k < px.size() && k < sum_x.size(); ++k) {
      const Number change = abs(pz[k] - px[k]);
      if (lower_of(scale) > 0) ratio = std::max(ratio, Rational(upper_of(change) / lower_of(scale)));
      out.premise_broken = out.premise_broken || lower_of(change) > upper_of(scale);
      out.open += upper_of(change) > lower_of(scale) && lower_of(change) <= upper_of(scale);
    }
  }
  out.positions = z.size() - tau - 1;
  const Number nb(Rational(Integer(out.positions)));
  out.drift = drift_sum / Rational(Integer(out.positions));
  const Number terms = range * Number(Rational(Integer(out.broken)) / Rational(Integer(out.positions))) +
                       L * Number(out.drift);
  std::vector<Number> rhs, gap;  // per k: S_k + terms, and E_k − it
  for (std::size_t k = 0; k < sum_x.size(); ++k) {
    const Number e = abs(sum_z[k] / nb - averages_x[k]);
    rhs.push_back(abs(sum_x[k] / nb - averages_x[k]) + terms);
    gap.push_back(e - rhs.back());
    out.inequality_broken = out.inequality_broken || lower_of(e) > upper_of(rhs.back());
    out.inequality_certain = out.inequality_certain && upper_of(e) <= lower_of(rhs.back());
  }
  if (gap.empty()) return out;
  Rational closest = lower_of(gap[0]);  // no k's gap is certainly above every other's lower end
  for (const Number& g : gap) closest = std::max(closest, lower_of(g));
  for (std::size_t k = 0; k < gap.size(); ++k)
    if (upper_of(gap[k]) >= closest) out.bounds.push_back(rhs[k]);
  return out;
}

Number statistic_error(const std::vector<Number>& ax, const std::vector<Number>& az, unsigned bits) {
  Number worst(0);
  for (std::size_t k = 0; k < ax.size() && k < az.size(); ++k) worst = certified_max(worst, abs(ax[k] - az[k]), bits);
  return worst;
}

Integer kgram_min_length(std::uint64_t k, const Rational& rho, const Rational& epsilon) {
  return Integer(k) + ceil(Rational(Rational(5 * k) / (2 * rho * epsilon)));
}

/// The positions t in [k+1, T] whose k preceding tokens equal x's last k (1-based: x_{t−k..t−1} = x_{T−k+1..T}).
std::vector<std::size_t> kgram_matches(const std::vector<int>& x, std::size_t k) {
  std::vector<std::size_t> out;
  for (std::size_t t = k + 1; t <= x.size(); ++t)
    if (std::equal(x.end() - static_cast<long>(k), x.end(), x.begin() + static_cast<long>(t - 1 - k))) out.push_back(t);
  return out;
}

Rational match_fraction(const std::vector<int>& x, std::size_t k) {
  return x.size() > k ? Rational(kgram_matches(x, k).size(), x.size() - k) : Rational(0);
}

std::vector<Rational> kgram_target(const std::vector<int>& x, std::size_t k, std::size_t S) {
  const std::vector<std::size_t> F = x.size() > k ? kgram_matches(x, k) : std::vector<std::size_t>{};
  std::vector<Rational> out(S, F.empty() ? Rational(1, S) : Rational(0));
  for (std::size_t t : F) out[static_cast<std::size_t>(x[t - 1])] += Rational(1, F.size());
  return out;
}

Rational layer2_margin(const Head& g) {
  std::vector<Rational> P(g.phi.begin(), g.phi.end());  // φ_g ∪ {1}, 1 standing for the bulk
  P.push_back(1);
  std::sort(P.begin(), P.end());
  P.erase(std::unique(P.begin(), P.end()), P.end());
  return P.size() < 2 ? Rational(1) : std::min(Rational(1), Rational(P.back() - P[P.size() - 2]));
}

Rational second_layer_margin(const Model& m) {
  Rational least = 1;
  for (std::size_t l = 1; l < m.layers.size(); ++l)
    for (const Head& g : m.layers[l].heads) least = std::min(least, layer2_margin(g));
  return least;
}

Rational complexity_rate(const Model& m) {
  const Margin gamma = positional_margin(m);
  return std::min({gamma ? *gamma : Rational(1, 3), Rational(1, 3), second_layer_margin(m)});
}

// --- Lemma 5.3 and Theorem 5.2: theory.md §3 "The subsampler", "The simulation-error bound", "The complexity C(f)"
namespace {

/// max (or min) of two certified numbers: exact when both are, else the hull of the ends.
Number extreme(const Number& a, const Number& b, bool larger, unsigned bits) {
  if (a.is_exact() && b.is_exact()) return larger ? std::max(a.exact(), b.exact()) : std::min(a.exact(), b.exact());
  auto pick = [&](const Rational& x, const Rational& y) { return larger ? std::max(x, y) : std::min(x, y); };
  return Number(Interval::hull(pick(lower_of(a), lower_of(b)), pick(upper_of(a), upper_of(b)), bits));
}

Layer2Head layer2_head(const Head& g, const std::vector<Rational>& b, unsigned bits) {
  Layer2Head out;
  Rational box = 0, norm2 = 0;
  for (std::size_t r = 0; r < b.size(); ++r) {
    norm2 += b[r] * b[r];
    for (std::size_t c = 0; c < b.size(); ++c) {
      const Rational a = magnitude(g.qk(r, c));
      box += b[r] * a * b[c], out.m += a * b[c], out.m2 += b[r] * a;
    }
  }
  for (std::size_t k = 0; k < g.value.rows(); ++k) {
    Rational row = 0;
    for (std::size_t c = 0; c < b.size(); ++c) row += magnitude(g.value(k, c)) * b[c];
    out.B = std::max(out.B, row);
  }
  out.v = row_sum_norm(g.value);
  out.phi.assign(g.phi.begin(), g.phi.end());
  for (const Rational& phi : g.phi) out.light += phi < 0 ? 1 : 0;
  out.top = std::max(Rational(1), *std::max_element(g.phi.begin(), g.phi.end()));  // Φ = max(φ_g ∪ {1})
  out.margin = layer2_margin(g);
  for (std::size_t t = 0; t < g.phi.size(); ++t)
    if (g.phi[t] == out.top) out.top_offsets.push_back(t);
  out.A = extreme(box, spectral_norm(g.qk, bits).value * Number(norm2), false, bits);
  out.grow = exp(out.A, bits);
  return out;
}

}  // namespace

Number certified_max(const Number& a, const Number& b, unsigned bits) { return extreme(a, b, true, bits); }
std::optional<std::string> statistic_obstacle(const std::vector<Model>& models) {
  for (const Model& m : models)
    for (std::size_t l = 1; l < m.layers.size(); ++l)
      for (std::size_t h = 0; h < m.layers[l].heads.size(); ++h)
        for (std::size_t i = 0; i < m.width * m.width; ++i)
          if (m.layers[l].heads[h].value(i / m.width, i % m.width) != 0)
            return m.name + ": layer " + std::to_string(l + 1) + " head " + std::to_string(h + 1) +
                   " has a non-zero value, so the output at T depends on more than T's statistic";
  return std::nullopt;
}

std::optional<std::string> layer2_obstacle(const Model& m) {
  if (m.layers.size() != 2 || m.semantics.kind != Semantics::Kind::Softmax) return "not a two-layer softmax model";
  return std::nullopt;
}

std::uint64_t uniform_draw(std::uint64_t lo, std::uint64_t hi, std::mt19937_64& engine) {
  const std::uint64_t s = hi - lo + 1, top = ~std::uint64_t{0};
  if (s == 0) return engine();
  std::uint64_t r = engine();
  while (r >= top - top % s) r = engine();
  return lo + r % s;
}

namespace {

/// The chain over positions 1..T (Δ = 1).
std::vector<std::uint64_t> chain_positions(std::uint64_t T, std::uint64_t n, std::uint64_t tau, std::uint64_t seed) {
  std::vector<std::uint64_t> kept;
  if (n == T) {
    for (std::uint64_t j = 1; j <= T; ++j) kept.push_back(j);
    return kept;
  }
  std::mt19937_64 engine(seed);
  std::uint64_t l = 1;  // the least ℓ with ℓ³ >= n
  while (l * l * l < n) ++l;
  const std::uint64_t always = T > tau + 1 ? T - tau : 1;
  bool keep = uniform_draw(0, T - 1, engine) < n;
  for (std::uint64_t j = 1; j <= T; ++j) {
    if (keep || j >= always) kept.push_back(j);
    keep = keep ? uniform_draw(0, l - 1, engine) != 0 : uniform_draw(0, (T - n) * l - 1, engine) < n;
  }
  return kept;
}

}  // namespace

std::vector<std::uint64_t> subsampler_positions(std::uint64_t T, std::uint64_t n, std::uint64_t tau, std::uint64_t seed,
                                                std::uint64_t period) {
  if (period <= 1) return chain_positions(T, n, tau, seed);
  const std::uint64_t lead = T % period, C = T / period;
  std::vector<std::uint64_t> kept;
  for (std::uint64_t j = 1; j <= lead; ++j) kept.push_back(j);
  if (C == 0) return kept;
  const std::uint64_t chunks = std::min(C, std::max<std::uint64_t>(1, n > lead ? (n - lead) / period : 0));
  for (std::uint64_t c : chain_positions(C, chunks, (tau + period) / period - 1, seed))
    for (std::uint64_t j = lead + (c - 1) * period + 1; j <= lead + c * period; ++j) kept.push_back(j);
  return kept;
}

namespace {

/// u(0, S − 1) at each of T positions.
Tokens uniform_string(std::size_t S, std::uint64_t T, std::mt19937_64& engine) {
  Tokens x(T);
  for (int& t : x) t = static_cast<int>(uniform_draw(0, S - 1, engine));
  return x;
}

/// a = u(0, S − 1), b = (a + 1) mod S; at t = 0..T−1: u(0, S − 1) when u(0, 9) = 0, else a (t even) or b (t odd).
Tokens noisy_periodic_string(std::size_t S, std::uint64_t T, std::mt19937_64& engine) {
  const int a = static_cast<int>(uniform_draw(0, S - 1, engine)), b = (a + 1) % static_cast<int>(S);
  Tokens x(T);
  for (std::uint64_t t = 0; t < T; ++t) {
    const bool noise = uniform_draw(0, 9, engine) == 0;
    x[t] = noise ? static_cast<int>(uniform_draw(0, S - 1, engine)) : (t % 2 == 0 ? a : b);
  }
  return x;
}

/// One family's x: uniform; 0s with a 1 at u(0, T − ⌊T/10⌋ − 1) (single) or at the end (last); rate:1/K: 1 where
/// u(0, K − 1) = 0, else 0.
Tokens family_string(const InputFamily& f, std::size_t S, std::uint64_t T, std::mt19937_64& engine) {
  if (f.kind == InputFamily::Kind::Uniform) return uniform_string(S, T, engine);
  Tokens x(T, 0);
  if (f.kind == InputFamily::Kind::Last) x.back() = 1;
  if (f.kind == InputFamily::Kind::Single) x[uniform_draw(0, T - T / 10 - 1, engine)] = 1;
  if (f.kind == InputFamily::Kind::Rate)
    for (int& t : x) t = uniform_draw(0, f.inverse_rate - 1, engine) == 0 ? 1 : 0;
  return x;
}

}  // namespace

std::vector<Tokens> subsample_inputs(std::size_t alphabet, std::uint64_t max_length, std::uint64_t seed) {
  std::mt19937_64 engine(seed);
  const std::uint64_t T1 = std::min<std::uint64_t>(10000, max_length);
  std::vector<Tokens> out{uniform_string(alphabet, T1, engine)};
  out.push_back(noisy_periodic_string(alphabet, T1, engine));
  out.push_back(noisy_periodic_string(alphabet, max_length >= 100000 ? 100000 : T1, engine));
  return out;
}

std::vector<Tokens> simulation_inputs(const std::vector<InputFamily>& families, std::size_t alphabet, std::uint64_t T,
                                      std::uint64_t seed) {
  std::mt19937_64 engine(seed);
  std::vector<Tokens> out;
  for (const InputFamily& f : families) out.push_back(family_string(f, alphabet, T, engine));
  return out;
}

std::uint64_t kept_tail(const Model& m) {
  std::uint64_t last = 0;
  for (const Head& g : m.layers.at(1).heads) {
    const Rational top = std::max(Rational(1), *std::max_element(g.phi.begin(), g.phi.end()));
    for (std::size_t t = 0; t < g.phi.size(); ++t)
      if (g.phi[t] == top) last = std::max<std::uint64_t>(last, t);
  }
  return m.locality + 1 + last;
}

namespace {

/// ‖v‖∞.
Rational largest_magnitude(const QVector& v) {
  Rational out = 0;
  for (const Rational& x : v) out = std::max(out, magnitude(x));
  return out;
}

}  // namespace

std::vector<Rational> first_layer_box(const Model& m) {
  const std::vector<QVector> ys = classes(m);
  auto [lo, hi] = heads_value_range(m);  // each head: a convex combination of its value vectors
  add_range(ys, lo, hi);                  // the query's embedding
  std::vector<Rational> b(m.width);
  for (std::size_t r = 0; r < m.width; ++r) b[r] = std::max(magnitude(lo[r]), magnitude(hi[r]));
  if (const auto& mlp = m.layers.at(0).mlp) {  // |MLP(y)|∞ <= β + ‖W_out‖∞(‖W_in‖∞β + ‖b_in‖∞) + ‖b_out‖∞
    const Rational beta = *std::max_element(b.begin(), b.end());
    const Rational hidden = row_sum_norm(mlp->in) * beta + largest_magnitude(mlp->in_bias);
    const Rational grown = beta + row_sum_norm(mlp->out) * hidden + largest_magnitude(mlp->out_bias);
    std::fill(b.begin(), b.end(), grown);
  }
  return b;
}

std::uint64_t convergence_length(const Case& c) {
  std::uint64_t n = c.check_count("max_length", 12);
  const Integer S(static_cast<unsigned long>(c.model().alphabet_size()));
  if (S > 1) n = std::min<std::uint64_t>(n, 13);  // 2^13 > 4096: a longer n is shortened past 13 anyway
  while (n > 1 && pow(S, static_cast<unsigned long>(n)) > 4096) --n;
  return n;
}

std::optional<Rational> output_range(const Model& m) {
  if (m.layers.size() != 2) return std::nullopt;
  const std::vector<Rational> b = first_layer_box(m);
  std::vector<Rational> y = b;  // |second layer's output_k| <= b_k + Σ_g Σ_c |V_g,kc| b_c
  for (const Head& g : m.layers[1].heads)
    for (std::size_t k = 0; k < y.size(); ++k)
      for (std::size_t c = 0; c < b.size(); ++c) y[k] += magnitude(g.value(k, c)) * b[c];
  if (const auto& mlp = m.layers[1].mlp) {  // + Σ_u |W_out,ku|·(|b_in,u| + Σ_c |W_in,uc| y_c) + |b_out,k|
    std::vector<Rational> grown = y;
    for (std::size_t u = 0; u < mlp->in.rows(); ++u) {
      Rational unit = magnitude(mlp->in_bias[u]);  // a ReLU unit is at most its pre-activation's magnitude
      for (std::size_t c = 0; c < y.size(); ++c) unit += magnitude(mlp->in(u, c)) * y[c];
      for (std::size_t k = 0; k < grown.size(); ++k) grown[k] += magnitude(mlp->out(k, u)) * unit;
    }
    for (std::size_t k = 0; k < grown.size(); ++k) grown[k] += magnitude(mlp->out_bias[k]);
    y = std::move(grown);
  }
  Rational range = 0;
  for (std::size_t j = 0; j < m.readout.weights.rows(); ++j) {
    Rational moved = 0;  // 2 Σ_k |W_jk| y_k
    for (std::size_t k = 0; k < y.size(); ++k) moved += 2 * magnitude(m.readout.weights(j, k)) * y[k];
    if (m.readout.sin_omega) moved = std::min(Rational(2), Rational(magnitude(*m.readout.sin_omega) * moved));
    range = std::max(range, moved);
  }
  return range;
}

IntegrandBounds integrand_bounds(const Model& m, const Values& phi_q, unsigned bits) {
  const std::vector<Rational> b = first_layer_box(m);
  const Number lip = limit_lipschitz(m, bits);
  IntegrandBounds out{Number(0), Number(0)};
  for (const Head& g : m.layers.at(1).heads) {
    Number A(0), q1(0);
    const Values q = limit_query(g, phi_q);
    for (std::size_t r = 0; r < b.size(); ++r) {
      A += Number(b[r]) * abs(q.at(r));
      q1 += abs(q[r]);
    }
    const Layer2Head h = layer2_head(g, b, bits);
    const Number grow = exp(A, bits);
    out.G = certified_max(out.G, grow * Number(std::max(Rational(1), h.B)), bits);
    out.L = certified_max(out.L, grow * lip * certified_max(q1, q1 * Number(h.B) + Number(h.v), bits), bits);
  }
  return out;
}

namespace {

/// μ̂ at the last position of w: the bulk class counts over j <= |w| − τ − 1, divided by their number.
std::vector<Rational> end_histogram(const Model& m, const Tokens& w) {
  std::vector<Rational> mu = bulk_counts(m, w);
  for (Rational& n : mu) n /= Rational(Integer(w.size() - m.locality - 1));
  return mu;
}

/// ε(L, Δ) = e^A max(1, B)(1/L)[Σ_{j=j₀}^{L}(1 − e^{−δ_j}) + 2j₀ + (τ+1) + W_L] + e^A v K (1/L) Σ_{j=j₀}^{L} j^{−r},
/// δ_j = m K j^{−r} + m′Δ, W_L = Σ_t L^{φ(t)}.
Number convergence_term(const Layer2Head& h, const Number& K, const Rational& r, std::uint64_t L, const Number& delta,
                        std::size_t tau, unsigned bits) {
  const std::uint64_t j0 = 2 * (tau + 1);
  Number lost(0), powers(0), window(0);
  for (std::size_t t = 0; t < h.phi.size(); ++t)  // the top keys (Φ = 1) are compared key by key, not here
    if (std::find(h.top_offsets.begin(), h.top_offsets.end(), t) == h.top_offsets.end())
      window += h.phi[t] == 0 ? Number(1) : Number(power(Integer(L), h.phi[t], bits));
  for (std::uint64_t j = j0; j <= L; ++j) {
    const Number pj(power(Integer(static_cast<unsigned long>(j)), Rational(-r), bits));
    lost += Number(1) - exp(Number(0) - (Number(h.m) * K * pj + Number(h.m2) * delta), bits);
    powers += pj;
  }
  const Number inverse_L(Rational(1, static_cast<unsigned long>(L)));
  return h.grow * Number(std::max(Rational(1), h.B)) * inverse_L *
             (lost + Number(Rational(static_cast<unsigned long>(2 * j0 + tau + 1))) + window) +
         h.grow * Number(h.v) * K * inverse_L * powers;
}

/// Φ > 1, over L^Φ: ε°(L) = e^A max(1, B)[(L − τ − 1)L^{−Φ} + Σ_{φ(t) < Φ} L^{φ(t)−Φ}] (the bulk and lower keys).
Number vanishing_term(const Layer2Head& h, std::uint64_t L, std::size_t tau, unsigned bits) {
  const Integer length(static_cast<unsigned long>(L));
  Number share = Number(Rational(Integer(length - tau - 1))) * Number(power(length, Rational(-h.top), bits));
  for (const Rational& phi : h.phi)
    if (phi != h.top) share += Number(power(length, Rational(phi - h.top), bits));
  return h.grow * Number(std::max(Rational(1), h.B)) * share;
}

/// ε_g(L, Δ) when Φ = 1, ε°(L) when Φ > 1.
Number head_term(const Layer2Head& h, const Number& K, const Rational& r, std::uint64_t L, const Number& delta,
                 std::size_t tau, unsigned bits) {
  return h.top == 1 ? convergence_term(h, K, r, L, delta, tau, bits) : vanishing_term(h, L, tau, bits);
}

/// w without its last t tokens.
Tokens cut(const Tokens& w, std::size_t t) { return Tokens(w.begin(), w.end() - static_cast<long>(t)); }

}  // namespace

SimulationErrorBounder::SimulationErrorBounder(const Model& m, const Tokens& x, unsigned bits)
    : model_(&m), bits_(bits), x_length_(x.size()), histogram_x_(end_histogram(m, x)), x_(x) {
  const Margin gamma = positional_margin(m);
  rate_ = gamma ? std::min(*gamma, Rational(1)) : Rational(1);
  K_ = convergence_constant(m, bits), lip_ = limit_lipschitz(m, bits);
  dx_ = K_ * Number(power(Integer(static_cast<unsigned long>(x.size())), Rational(-rate_), bits));
  const std::vector<Rational> b = first_layer_box(m);
  for (const Head& g : m.layers.at(1).heads) {
    const Layer2Head& h = heads_.emplace_back(layer2_head(g, b, bits));
    eps_x_.push_back(head_term(h, K_, rate_, x.size(), dx_, m.locality, bits));
  }
}

SimulationErrorBound SimulationErrorBounder::bound(const Tokens& z, const Number& error) const {
  const Model& m = *model_;
  SimulationErrorBound out;
  const std::vector<Rational> mz = end_histogram(m, z);
  for (std::size_t c = 0; c < mz.size(); ++c) out.drift += magnitude(histogram_x_[c] - mz[c]);
  const Number decay(power(Integer(static_cast<unsigned long>(z.size())), Rational(-rate_), bits_));
  const Number dz = K_ * decay + lip_ * Number(out.drift);
  Number heads(0);
  for (std::size_t g = 0; g < heads_.size(); ++g) {
    const Layer2Head& h = heads_[g];
    const Number eps_z = head_term(h, K_, rate_, z.size(), dz, m.locality, bits_);
    // Ā_x >= e^{−A}(T − k_g)/T: the k_g keys with φ < 0 may weigh less than e^{−A}.
    const Rational share(static_cast<unsigned long>(x_length_), static_cast<unsigned long>(x_length_ - h.light));
    // π_g: each top key of x against z's, ΔY_t = K(T−t)^{−r} + K(n−t)^{−r} + Lip(Φ)‖μ̂_{n−t}(z) − μ̂_{T−t}(x)‖₁.
    Number pairing(0);
    for (const std::uint64_t t : h.top_offsets) {
      Rational moved = 0;
      const std::vector<Rational> hx = end_histogram(m, cut(x_, t)), hz = end_histogram(m, cut(z, t));
      for (std::size_t c = 0; c < hx.size(); ++c) moved += magnitude(hx[c] - hz[c]);
      const Number dY =
          K_ * (Number(power(Integer(static_cast<unsigned long>(x_length_ - t)), Rational(-rate_), bits_)) +
                Number(power(Integer(static_cast<unsigned long>(z.size() - t)), Rational(-rate_), bits_))) +
          lip_ * Number(moved);
      const Number shift = Number(h.m) * dY + Number(h.m2) * (dx_ + dz);
      pairing += h.grow * (Number(std::max(Rational(1), h.B)) * (Number(1) - exp(Number(0) - shift, bits_)) +
                           Number(h.v) * dY);
    }
    const Number compared = h.top == 1 ? error : Number(0);  // Φ > 1: the bulk is charged in ε°, not compared
    heads += h.grow * Number(share * (1 + h.B)) * (eps_x_[g] + eps_z + compared + pairing);
  }
  out.total = Number(readout_lipschitz(m)) * (dx_ + dz + heads);
  return out;
}

Section5Bounds section5_bounds(const Model& m, const Rational& c, unsigned bits) {
  Section5Bounds out;
  out.rate = complexity_rate(m);
  const std::vector<Rational> b = first_layer_box(m);
  std::vector<Layer2Head> heads;
  for (const Head& g : m.layers.at(1).heads) heads.push_back(layer2_head(g, b, bits));
  auto margin2 = [](const Layer2Head& h) {  // 1 − max φ_g when Φ = 1 and no key is on top (uncapped), else γ₂,g
    return h.top == 1 && h.top_offsets.empty() ? Rational(1 - *std::max_element(h.phi.begin(), h.phi.end()))
                                               : h.margin;
  };
  out.start = kept_tail(m) + m.locality + 1;  // j₀ + the largest top offset
  const Number K = convergence_constant(m, bits), lip = limit_lipschitz(m, bits);
  const Rational tau1(static_cast<unsigned long>(m.locality + 1)), sigma = 1 / (1 - out.rate);
  const Rational H(static_cast<unsigned long>(m.alphabet_size() * m.period));  // the SΔ classes
  const Number D = K + Number(c * H * tau1) * lip;
  const Integer j0(2 * (m.locality + 1));
  for (const Layer2Head& h : heads) {
    out.G = extreme(out.G, h.grow * Number(std::max(Rational(1), h.B)), true, bits);
    out.L = extreme(out.L, h.grow * lip * Number(std::max(h.m, Rational(h.m * h.B + h.v))), true, bits);
  }
  Number sum = 0;
  // early: (2j₀ + τ + 1 + W_L)/L <= [5(τ+1) j₀^{r′−1} + (τ+1) j₀^{r′−γ₂,g}] n^{−r′}
  const Number unit(power(j0, out.rate - 1, bits));  // j₀^{r′−1}: 1/n <= unit·n^{−r′}
  for (const Layer2Head& h : heads) {
    const Number spread(std::max(Rational(1), h.B));
    Number eps_hat(0);
    if (h.top > 1) {  // ε°(L) <= e^A max(1,B)(1 + #{t : φ(t) < Φ}) j₀^{r′−γ₂,g} n^{−r′}
      const Rational lower(static_cast<unsigned long>(h.phi.size() - h.top_offsets.size()));
      eps_hat = h.grow * spread * Number(1 + lower) * Number(power(j0, out.rate - h.margin, bits));
    } else {
      // (2j₀ + τ + 1)/L and W⁻_L/L, W⁻ over the keys below 1 (every key below 1 when none is on top)
      Number early = Number(5 * tau1) * unit;
      std::optional<Rational> below;
      for (const Rational& phi : h.phi)
        if (phi != 1 && (!below || phi > *below)) below = phi;
      if (h.top_offsets.empty()) early += Number(tau1) * Number(power(j0, out.rate - margin2(h), bits));
      else if (below) early += Number(tau1) * Number(power(j0, out.rate - (1 - *below), bits));
      const Number part = Number(h.m * sigma) * K + Number(h.m2) * D + early;
      eps_hat = h.grow * (spread * part + Number(h.v * sigma) * K);
    }
    // π̂_g = Σ_{t∈W⁺} e^A[max(1,B)(m Ŷ_t + m′(K + D)) + v Ŷ_t], Ŷ_t = 3K + Lip(Φ)(8t j₀^{r′−1} + cH(τ+1)).
    Number pairing(0);
    for (const std::uint64_t t : h.top_offsets) {
      const Rational shifts(static_cast<unsigned long>(8 * t));  // 4t/n for x and for z
      const Number dY = Number(3) * K + lip * (Number(shifts) * unit + Number(c * H * tau1));
      pairing += h.grow * (spread * (Number(h.m) * dY + Number(h.m2) * (K + D)) + Number(h.v) * dY);
    }
    const Number compared = h.top == 1 ? Number(c * tau1) * (out.G + out.L) : Number(0);
    const Rational share(Integer(j0), Integer(j0 - h.light));  // T >= j₀: Ā_x >= e^{−A}(j₀ − k_g)/j₀
    sum += h.grow * Number(share * (1 + h.B)) * (Number(2) * eps_hat + pairing + compared);
  }
  out.C = Number(readout_lipschitz(m)) * (K + D + sum);
  return out;
}

}  // namespace lgc::kernel
