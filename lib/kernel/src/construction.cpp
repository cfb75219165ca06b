// The simulation construction, from docs/theory.md §2 "The simulation construction" and "Finite precision: padding".
#include "lgcheck/kernel/construction.hpp"

#include "lgcheck/kernel/quantities.hpp"
#include "lgcheck/kernel/section5.hpp"

#include <algorithm>
#include <bit>
#include <stdexcept>

namespace lgc::kernel {
namespace {

std::uint64_t bulk_of(const Statistic& s, const Model& m) {
  return s.length > m.locality + 1 ? s.length - m.locality - 1 : 0;  // B = T − τ − 1
}

/// The class (token, residue) of window slot t, the key at position T − t.
std::size_t slot_class(const Model& m, const Statistic& s, std::size_t t) {
  return static_cast<std::size_t>(s.window[s.window.size() - 1 - t]) * m.period + (s.length - t) % m.period;
}

/// σ's query class: the last token y at residue ρ = T mod Δ.
std::size_t query_class(const Model& m, const Statistic& s) {
  return static_cast<std::size_t>(s.window.back()) * m.period + s.length % m.period;
}

/// A first-layer head's argmax set at σ: the bulk classes C_h (index s·Δ + r, count > 0) and the window slots t
/// (position T − t) whose logit is the largest of the present keys, that logit `top`.
struct ArgmaxSet {
  std::vector<std::size_t> classes;
  std::vector<std::size_t> slots;
  Rational top;
};

}  // namespace

/// A head's table: logit[q][c] = (E_s + p_r)ᵀ M_h (E_y + p_ρ) for the key class c = s·Δ + r and the query class
/// q = y·Δ + ρ; value[c] = the least class with the same V_h(E_s + p_r).
struct Construction::Head {
  const Model* m;
  std::size_t head;
  std::vector<std::vector<Rational>> logit;
  std::vector<std::size_t> value;

  Head(const Model& model, std::size_t h) : m(&model), head(h) {
    const std::size_t K = m->alphabet_size() * m->period;
    const auto& H = m->layers.at(0).heads.at(h);
    std::vector<QVector> keys, values;
    for (std::size_t c = 0; c < K; ++c) keys.push_back(class_vector(*m, c / m->period, c % m->period));
    for (std::size_t c = 0; c < K; ++c) {
      const QVector mq = apply<Rational>(H.qk, keys[c]);
      logit.emplace_back();
      for (std::size_t k = 0; k < K; ++k) logit.back().push_back(dot<Rational>(keys[k], mq));
      values.push_back(apply<Rational>(H.value, keys[c]));
      const auto first = std::find(values.begin(), values.end(), values.back());
      value.push_back(static_cast<std::size_t>(first - values.begin()));
    }
  }

  /// The logit of window slot t at σ (its class's, plus φ_t).
  Rational slot_logit(const Statistic& s, std::size_t t) const {
    return logit[query_class(*m, s)][slot_class(*m, s, t)] + m->layers[0].heads[head].phi[t];
  }

  ArgmaxSet argmax_set(const Statistic& s) const {
    const std::vector<Rational>& row = logit[query_class(*m, s)];
    std::vector<Rational> slots;
    for (std::size_t t = 0; t < s.window.size(); ++t) slots.push_back(slot_logit(s, t));
    const Rational* top = &slots.front();
    for (const Rational& l : slots) top = l > *top ? &l : top;
    for (std::size_t c = 0; c < row.size(); ++c)
      if (s.counts[c] > 0 && row[c] > *top) top = &row[c];
    ArgmaxSet a{{}, {}, *top};
    for (std::size_t c = 0; c < row.size(); ++c)
      if (s.counts[c] > 0 && row[c] == *top) a.classes.push_back(c);
    for (std::size_t t = 0; t < slots.size(); ++t)
      if (slots[t] == *top) a.slots.push_back(t);
    return a;
  }

  /// The value class every key of the set carries (the head weighs one value at σ), else nullopt.
  std::optional<std::size_t> one_value(const Statistic& s, const ArgmaxSet& a) const {
    std::vector<std::size_t> keys = a.classes;
    for (std::size_t t : a.slots) keys.push_back(slot_class(*m, s, t));
    for (std::size_t c : keys)
      if (value[c] != value[keys.front()]) return std::nullopt;
    return value[keys.front()];
  }

  /// ω_h: the hardmax weights summed per bulk class (index s·Δ + r) and per window slot t (index SΔ + t).
  std::vector<Rational> attention(const Statistic& s, const ArgmaxSet& a) const {
    const std::size_t K = logit.size();
    Integer total(a.slots.size());
    for (std::size_t c : a.classes) total += s.counts[c];
    std::vector<Rational> omega(K + m->locality + 1, Rational(0));
    for (std::size_t c : a.classes) omega[c] = Rational(Integer(s.counts[c]), total);
    for (std::size_t t : a.slots) omega[K + t] = Rational(Integer(1), total);
    return omega;
  }
};

namespace {

/// A head with its logits at x's query and argmax set at x.
struct HeadAt {
  const Construction::Head* h;
  const std::vector<Rational>* row;
  ArgmaxSet a;
  bool one;  ///< weighs one value at x
};

std::vector<HeadAt> heads_at(const std::vector<Construction::Head>& heads, const Statistic& x) {
  std::vector<HeadAt> out;
  for (const Construction::Head& h : heads) {
    ArgmaxSet a = h.argmax_set(x);
    const bool one = h.one_value(x, a).has_value();
    out.push_back({&h, &h.logit[query_class(*h.m, x)], std::move(a), one});
  }
  return out;
}

struct Span {
  Rational lo, hi;
};

/// Step 1: I_h = [V_h/Q, V_h], or [1, V_h] when the set holds window slots and V_h/Q <= τ + 1.
Span head_interval(const HeadAt& h, const Statistic& x, const Integer& Q) {
  std::uint64_t V = 0;
  for (std::size_t c : h.a.classes) V = std::max(V, x.counts[c]);
  Rational lo = Rational(Integer(V), Q);
  if (!h.a.slots.empty() && lo <= Rational(Integer(h.h->m->locality + 1))) lo = 1;
  return {lo, Rational(Integer(V))};
}

/// Step 2: each residue's free absorber, its class of least token index whose logit is below every head's maximum
/// or is the whole argmax set (no window slot) of the heads where it is not; nullopt when it has none.
std::vector<std::optional<std::size_t>> free_absorbers(const std::vector<HeadAt>& heads, const Model& f) {
  std::vector<std::optional<std::size_t>> out(f.period);
  for (std::size_t r = 0; r < f.period; ++r)
    for (std::size_t s = 0; s < f.alphabet_size() && !out[r]; ++s) {
      const std::size_t c = s * f.period + r;
      const bool free = std::all_of(heads.begin(), heads.end(), [&](const HeadAt& h) {
        const bool alone = h.a.slots.empty() && h.a.classes == std::vector<std::size_t>{c};
        return (*h.row)[c] < h.a.top || alone;
      });
      if (free) out[r] = c;
    }
  return out;
}

/// Step 3's components J_j with their factors κ_j.
struct Component {
  Rational lo, hi, kappa;
};

std::vector<Component> components(std::vector<Span> spans) {
  std::sort(spans.begin(), spans.end(),
            [](const Span& a, const Span& b) { return a.lo < b.lo || (a.lo == b.lo && a.hi < b.hi); });
  std::vector<Component> out;
  for (const Span& s : spans)
    if (!out.empty() && s.lo <= out.back().hi) out.back().hi = std::max(out.back().hi, s.hi);
    else out.push_back({s.lo, s.hi, 0});
  Rational kappa = 1, hi = 0;  // κ_0, hi_0
  for (Component& J : out) {
    if (J.lo != 0) kappa = std::min(kappa, Rational(std::max(Rational(1), Rational(kappa * hi)) / J.lo));
    J.kappa = kappa;
    hi = J.hi;
  }
  return out;
}

/// φ(n): κ_j·n on J_j, min(κ_{j−1}·n, κ_j·lo_j) in the gap below J_j, 1 above every component.
Rational phi(const std::vector<Component>& J, const Rational& n) {
  Rational below = 1;  // κ_{j−1}
  for (const Component& c : J) {
    if (n < c.lo) return std::min(Rational(below * n), Rational(c.kappa * c.lo));
    if (n <= c.hi) return c.kappa * n;
    below = c.kappa;
  }
  return 1;
}

/// Step 3's counts: n'_c = max(1, ⌊φ(n_c) + 1/2⌋) on the classes of every C_h, 0 elsewhere.
std::vector<std::uint64_t> count_map(const std::vector<HeadAt>& heads, const Statistic& x,
                                     const std::vector<Component>& J) {
  std::vector<std::uint64_t> out(x.counts.size(), 0);
  for (const HeadAt& h : heads)
    for (std::size_t c : h.a.classes) {
      const Integer n = floor(Rational(phi(J, Rational(Integer(x.counts[c]))) + Rational(1, 2)));
      out[c] = std::max<std::uint64_t>(1, n.convert_to<std::uint64_t>());
    }
  return out;
}

/// Step 4: B' the least value ≡ B (mod Δ), at least `least`, with m_r(B') >= Σ_s n'_{s,r}; each residue's deficit to
/// its free absorber, else to its class of largest count in x (least token among equal); x's window kept.
Statistic residue_step(const Model& f, const Statistic& x, std::vector<std::uint64_t> n,
                       const std::vector<std::optional<std::size_t>>& absorbers, std::uint64_t least) {
  const std::size_t D = f.period, S = f.alphabet_size();
  const std::uint64_t rho = bulk_of(x, f) % D;
  std::vector<std::uint64_t> need(D, 0);
  std::uint64_t q = least > rho ? (least - rho + D - 1) / D : 0;  // B' = qΔ + ρ; m_r(B') = q + [1 <= r <= ρ]
  for (std::size_t r = 0; r < D; ++r) {
    for (std::size_t s = 0; s < S; ++s) need[r] += n[s * D + r];
    const std::uint64_t extra = r != 0 && r <= rho ? 1 : 0;
    if (need[r] > extra) q = std::max(q, need[r] - extra);
  }
  const std::uint64_t B = q * D + rho;
  for (std::size_t r = 0; r < D; ++r) {
    std::size_t target = r;  // token 0's class
    for (std::size_t s = 1; s < S; ++s)
      if (x.counts[s * D + r] > x.counts[target]) target = s * D + r;
    n[absorbers[r].value_or(target)] += residue_count(B, r, D) - need[r];
  }
  return {B + f.locality + 1, x.window, std::move(n)};
}

}  // namespace

Integer padding_length(const std::vector<Model>& models) {
  const auto p = rounding_bits(models);
  return p ? hardmax_threshold(*p, logit_margin(models)) : Integer(1);
}

namespace {

/// T log-uniform in [t, top]: the binade k = u(b(t), b(top)), b(v) = ⌊log₂ v⌋, then u(max(t, 2^k), min(top,
/// 2^{k+1} − 1)); t itself, without a draw, when top <= t.
std::uint64_t log_uniform_length(std::uint64_t t, std::uint64_t top, std::mt19937_64& engine) {
  if (top <= t) return t;
  const auto binade = [](std::uint64_t v) { return std::uint64_t(std::bit_width(v) - 1); };
  const std::uint64_t low = std::uint64_t{1} << uniform_draw(binade(t), binade(top), engine);
  return uniform_draw(std::max(t, low), std::min(top, 2 * low - 1), engine);
}

/// Residue r's bulk counts, `left` = m_r(B) positions to place: token by token, u(0, 2) = 0 leaves (s, r) empty, 1
/// gives it min(left, u(1, 3)), 2 puts s on the sharing list (u(0, S − 1) when none is); the positions left are cut at
/// u(0, left) once per sharing token after the first, and the k-th sharing token adds the k-th gap.
void draw_residue(Statistic& x, std::size_t r, std::size_t S, std::size_t D, std::uint64_t left,
                  std::mt19937_64& engine) {
  std::vector<std::size_t> sharing;
  for (std::size_t s = 0; s < S; ++s) {
    const std::uint64_t kind = uniform_draw(0, 2, engine);
    if (kind == 2) sharing.push_back(s);
    if (kind != 1) continue;
    const std::uint64_t few = std::min(left, uniform_draw(1, 3, engine));  // drawn even when nothing is left
    x.counts[s * D + r] += few, left -= few;
  }
  if (sharing.empty()) sharing.push_back(uniform_draw(0, S - 1, engine));
  std::vector<std::uint64_t> cuts = {0, left};
  for (std::size_t k = 1; k < sharing.size(); ++k) cuts.push_back(uniform_draw(0, left, engine));
  std::sort(cuts.begin(), cuts.end());
  for (std::size_t k = 0; k < sharing.size(); ++k) x.counts[sharing[k] * D + r] += cuts[k + 1] - cuts[k];
}

/// One random input: its length, the bulk counts residue by residue (r = 0..Δ − 1), then its min(T, τ + 1) window
/// tokens, u(0, S − 1) each, in order.
Statistic random_statistic(const Model& f, std::uint64_t t, std::uint64_t top, std::mt19937_64& engine) {
  const std::size_t S = f.alphabet_size(), D = f.period;
  Statistic x;
  x.length = log_uniform_length(t, top, engine);
  x.counts.assign(S * D, 0);
  for (std::size_t r = 0; r < D; ++r) draw_residue(x, r, S, D, residue_count(bulk_of(x, f), r, D), engine);
  for (std::uint64_t k = 0; k < std::min<std::uint64_t>(x.length, f.locality + 1); ++k)
    x.window.push_back(static_cast<int>(uniform_draw(0, S - 1, engine)));
  return x;
}

}  // namespace

std::vector<Statistic> random_simulation_inputs(const Model& f, std::uint64_t t, std::uint64_t seed,
                                                std::size_t count) {
  if (t < 1 || t > kMaxStatisticLength / 4) throw std::invalid_argument("the padding start is not in 1..2^60");
  std::mt19937_64 engine(seed);
  const std::uint64_t top = std::max<std::uint64_t>(1000000, 4 * t);  // at most 2^62: every draw is a statistic
  std::vector<Statistic> out;
  for (std::size_t j = 0; j < count; ++j) out.push_back(random_statistic(f, t, top, engine));
  return out;
}

Construction::Construction(const std::vector<Model>& models, Integer Q, Integer t)
    : models_(&models), Q_(std::move(Q)), t_(std::move(t)) {
  for (const Model& m : models)
    for (std::size_t h = 0; h < m.layers.at(0).heads.size(); ++h) heads_.emplace_back(m, h);
}

Construction::~Construction() = default;

Statistic Construction::build(const Statistic& x) const {
  const Model& f = models_->front();
  const std::uint64_t B = bulk_of(x, f);
  if (B == 0) return x;
  const std::vector<HeadAt> heads = heads_at(heads_, x);
  std::vector<Span> spans;
  for (const HeadAt& h : heads)
    if (!h.one) spans.push_back(head_interval(h, x, Q_));
  const auto absorbers = free_absorbers(heads, f);
  bool balanced = false;
  std::uint64_t lo = B, hi = 0;  // M_lo, M_hi: the least and largest m_r(B)
  for (std::size_t r = 0; r < f.period; ++r) {
    const std::uint64_t m = residue_count(B, r, f.period);
    balanced = balanced || (m > 0 && !absorbers[r]);
    lo = std::min(lo, m), hi = std::max(hi, m);
  }
  if (balanced) spans.push_back({Rational(Integer(lo), Integer(f.alphabet_size()) * Q_), Rational(Integer(hi))});
  const std::vector<Component> J = components(spans);
  Statistic z = residue_step(f, x, count_map(heads, x, J), absorbers, 0);
  if (Integer(x.length) < t_ || Integer(z.length) >= t_) return z;  // nothing to pad
  const std::uint64_t least = t_.convert_to<std::uint64_t>() - f.locality - 1;  // t <= |x| here
  if (!balanced) return residue_step(f, x, count_map(heads, x, J), absorbers, least);
  for (Integer lambda = 2;; lambda *= 2) {  // ends: once every λκ_j >= 1, z = x
    std::vector<Component> scaled = J;
    for (Component& c : scaled) c.kappa = std::min(Rational(1), Rational(Rational(lambda) * c.kappa));
    z = residue_step(f, x, count_map(heads, x, scaled), absorbers, 0);
    if (Integer(z.length) >= t_) return z;
  }
}

Rational Construction::attention_distance(const Statistic& x, const Statistic& z) const {
  Rational most = 0;
  for (const Head& h : heads_) {
    const ArgmaxSet ax = h.argmax_set(x), az = h.argmax_set(z);
    const auto vx = h.one_value(x, ax), vz = h.one_value(z, az);
    if (vx && vz && *vx == *vz) continue;
    const std::vector<Rational> ox = h.attention(x, ax), oz = h.attention(z, az);
    Rational sum = 0;
    for (std::size_t k = 0; k < ox.size(); ++k) sum += magnitude(Rational(ox[k] - oz[k]));
    most = std::max(most, sum);
  }
  return most;
}

}  // namespace lgc::kernel
