#include "lgcheck/simulate/construction.hpp"

#include "lgcheck/quantities/logit_margin.hpp"

#include <algorithm>
#include <optional>
#include <stdexcept>

namespace lgc {
namespace {

struct HeadView {
  Rational max_logit;
  std::vector<std::size_t> classes;
  std::size_t window_slots = 0;
  bool single_valued = false;  ///< one value over the whole argmax set
};

std::vector<HeadView> all_tops(const std::vector<const OneLayerEvaluator*>& models, const Statistic& x) {
  std::vector<HeadView> views;
  for (const auto* m : models)
    for (std::size_t h = 0; h < m->heads(); ++h) {
      HeadTop t = m->top(h, x);
      views.push_back({t.max_logit, t.classes, t.window_slots.size(), m->single_valued(h, x, t)});
    }
  return views;
}

/// A class (s, r) that can absorb any number of extra positions without
/// changing any ω_h: for every head, either its logit is below the head's
/// maximum (it never enters the argmax set), or it is the head's whole argmax
/// set (a point mass, whatever its count).
std::optional<std::size_t> free_absorber(const std::vector<const OneLayerEvaluator*>& models, const Statistic& x,
                                       const std::vector<HeadView>& tops, std::size_t residue) {
  const Shape& shape = models.front()->shape();
  const int y = x.window.back();
  const std::size_t rq = static_cast<std::size_t>(x.length % shape.period);
  for (std::size_t s = 0; s < shape.alphabet_size; ++s) {
    std::size_t c = s * shape.period + residue;
    bool below = true;
    std::size_t k = 0;
    for (const auto* m : models)
      for (std::size_t h = 0; h < m->heads(); ++h, ++k) {
        const HeadView& t = tops[k];
        bool point_mass = t.window_slots == 0 && t.classes.size() == 1 && t.classes[0] == c;
        bool never_top = m->class_logit(h, y, rq, c) < t.max_logit;
        below = below && (point_mass || never_top);
      }
    if (below) return c;
  }
  return std::nullopt;
}

/// Components of the count map; `expansion` λ >= 1 multiplies every κ
/// (capped at 1): less compression, same guarantees, longer z.
std::vector<CountComponent> merge_intervals(std::vector<std::pair<Rational, Rational>> intervals,
                                            const Rational& expansion) {
  std::sort(intervals.begin(), intervals.end());
  std::vector<CountComponent> out;
  for (const auto& [lo, hi] : intervals) {
    if (!out.empty() && lo <= out.back().hi) out.back().hi = std::max(out.back().hi, hi);
    else out.push_back({lo, hi, Rational(1)});
  }
  // κ_j = min(κ_{j−1}, max(1, κ_{j−1}·hi_{j−1}) / lo_j), κ_0 = 1, hi_0 = 0.
  Rational kappa_prev = 1, image_prev = 0;
  for (auto& comp : out) {
    Rational target = std::max(Rational(1), image_prev);
    comp.kappa = comp.lo > 0 ? std::min(kappa_prev, Rational(target / comp.lo)) : kappa_prev;
    kappa_prev = comp.kappa;
    image_prev = comp.kappa * comp.hi;
  }
  for (auto& comp : out) comp.kappa = std::min(Rational(1), Rational(comp.kappa * expansion));
  return out;
}

/// φ(n): linear on components, min(κ_{j−1}·n, κ_j·lo_j) in the gap below J_j,
/// and 1 above every component (only classes of top sets that no interval
/// covers reach there: single classes, or heads weighing one value at x).
Rational count_map(const std::vector<CountComponent>& comps, const Rational& n) {
  Rational kappa_prev = 1;
  for (const auto& comp : comps) {
    if (n <= comp.hi) {
      if (n >= comp.lo) return comp.kappa * n;
      return std::min(Rational(kappa_prev * n), Rational(comp.kappa * comp.lo));
    }
    kappa_prev = comp.kappa;
  }
  return 1;
}

Integer round_half_up(const Rational& q) { return floor(Rational(q + Rational(1, 2))); }

}  // namespace

Integer simulation_resolution(const Shape& shape, const Rational& delta) {
  if (delta <= 0) throw std::domain_error("simulation_resolution: delta must be > 0");
  Rational numerator = 5 * shape.classes() + 7 * shape.alphabet_size + 2 * shape.locality + 6;
  return ceil(Rational(numerator / delta + Rational(1, 2)));
}

namespace {

/// Everything the construction derives from x once, before choosing λ.
struct Plan {
  std::vector<bool> in_top;
  std::vector<std::pair<Rational, Rational>> intervals;
  std::vector<std::optional<std::size_t>> absorbers;
  bool balanced = false;
};

Plan make_plan(const std::vector<const OneLayerEvaluator*>& models, const Statistic& x, const Rational& Q,
               bool no_intervals) {
  const Shape& shape = models.front()->shape();
  const std::size_t S = shape.alphabet_size, D = shape.period, tau = shape.locality;
  const std::uint64_t bulk = bulk_length(x.length, tau);
  Plan plan;
  std::vector<HeadView> tops = all_tops(models, x);
  plan.in_top.assign(shape.classes(), false);
  for (const auto& t : tops) {
    for (std::size_t c : t.classes) plan.in_top[c] = true;
    // One value over the argmax set (a single class and no window slot, or
    // classes and slots of equal value vectors): the head's output is that
    // value whatever the counts, so no ratio needs keeping.
    if (t.single_valued || no_intervals) continue;
    std::uint64_t v = 0;
    for (std::size_t c : t.classes) v = std::max(v, x.counts[c]);
    Rational hi{Integer(v)};
    Rational lo = hi / Q;
    if (t.window_slots > 0 && lo <= Rational(Integer(tau + 1))) lo = 1;  // the window's unit weights matter
    plan.intervals.push_back({lo, hi});
  }
  std::vector<std::uint64_t> totals(D);
  for (std::size_t r = 0; r < D; ++r) totals[r] = residue_count(bulk, D, r);
  plan.absorbers.resize(D);
  for (std::size_t r = 0; r < D; ++r) {
    plan.absorbers[r] = free_absorber(models, x, tops, r);
    if (!plan.absorbers[r] && totals[r] > 0) plan.balanced = true;
  }
  if (plan.balanced) {
    auto [lo_it, hi_it] = std::minmax_element(totals.begin(), totals.end());
    plan.intervals.push_back({Rational(Integer(*lo_it)) / (Rational(Integer(S)) * Q), Rational(Integer(*hi_it))});
  }
  return plan;
}

/// z for a given plan and expansion λ; the bulk is at least `min_bulk`.
Statistic build(const Shape& shape, const Statistic& x, const Plan& plan, const std::vector<CountComponent>& comps,
                std::uint64_t min_bulk) {
  const std::size_t S = shape.alphabet_size, D = shape.period;
  const std::uint64_t bulk = bulk_length(x.length, shape.locality);
  Statistic z = x;
  std::vector<std::uint64_t> residue_sum(D, 0);
  for (std::size_t c = 0; c < shape.classes(); ++c) {
    z.counts[c] = 0;
    if (plan.in_top[c] && x.counts[c] > 0) {
      Integer mapped = std::max(Integer(1), round_half_up(count_map(comps, Rational(Integer(x.counts[c])))));
      z.counts[c] = static_cast<std::uint64_t>(mapped);
    }
    residue_sum[c % D] += z.counts[c];
  }
  // The shortest bulk B' ≡ B (mod Δ), at least min_bulk, whose residues hold
  // the mapped counts.
  const std::uint64_t b0 = bulk % D;
  std::uint64_t steps = min_bulk > b0 ? (min_bulk - b0 + D - 1) / D : 0;
  for (std::size_t r = 0; r < D; ++r) {
    std::uint64_t have = residue_count(b0, D, r);
    if (residue_sum[r] > have) steps = std::max(steps, residue_sum[r] - have);
  }
  const std::uint64_t new_bulk = b0 + steps * D;
  // Each residue's deficit goes to a free absorber, else to its largest class.
  for (std::size_t r = 0; r < D; ++r) {
    std::uint64_t deficit = residue_count(new_bulk, D, r) - residue_sum[r];
    if (deficit == 0) continue;
    std::size_t target = plan.absorbers[r] ? *plan.absorbers[r] : r;
    if (!plan.absorbers[r])
      for (std::size_t s = 0; s < S; ++s)
        if (x.counts[s * D + r] > x.counts[target]) target = s * D + r;
    z.counts[target] += deficit;
  }
  z.length = new_bulk + x.window.size();
  return z;
}

}  // namespace

Simulation simulate(const std::vector<const OneLayerEvaluator*>& models, const Statistic& x, const Rational& delta,
                    const SimulationOptions& options) {
  const Shape& shape = models.front()->shape();
  Simulation sim;
  sim.delta = delta;
  sim.resolution =
      options.resolution_override > 0 ? options.resolution_override : simulation_resolution(shape, delta);
  sim.z = x;
  if (bulk_length(x.length, shape.locality) == 0) return sim;  // nothing to shorten
  Plan plan = make_plan(models, x, Rational(sim.resolution), options.no_intervals);
  sim.balanced = plan.balanced;
  Rational expansion = 1;
  sim.components = merge_intervals(plan.intervals, expansion);
  sim.z = build(shape, x, plan, sim.components, 0);
  if (sim.z.length >= options.min_length || x.length < options.min_length) return sim;
  // Padding to the finite:p threshold: free absorbers take it at no cost;
  // otherwise expand the count map (λ = 2, 4, ...) until z is long enough.
  const std::uint64_t window = x.window.size();
  if (!plan.balanced) {
    sim.z = build(shape, x, plan, sim.components, options.min_length - window);
    return sim;
  }
  while (sim.z.length < options.min_length) {
    expansion *= 2;
    sim.components = merge_intervals(plan.intervals, expansion);
    sim.z = build(shape, x, plan, sim.components, 0);
  }
  return sim;
}

bool is_anchored(const OneLayerEvaluator& model, std::size_t head) {
  const Shape& shape = model.shape();
  for (std::size_t y = 0; y < shape.alphabet_size; ++y)
    for (std::size_t rq = 0; rq < shape.period; ++rq) {
      Rational best = model.class_logit(head, static_cast<int>(y), rq, 0);
      for (std::size_t c = 0; c < shape.classes(); ++c) best = std::max(best, model.class_logit(head, static_cast<int>(y), rq, c));
      bool some_residue_full = false;
      for (std::size_t r = 0; r < shape.period && !some_residue_full; ++r) {
        bool full = true;
        for (std::size_t s = 0; s < shape.alphabet_size; ++s)
          full = full && model.class_logit(head, static_cast<int>(y), rq, s * shape.period + r) == best;
        some_residue_full = full;
      }
      if (!some_residue_full) return false;
    }
  return true;
}

bool weighs_one_value(const OneLayerEvaluator& model, std::size_t head) {
  const Shape& shape = model.shape();
  for (std::size_t y = 0; y < shape.alphabet_size; ++y)
    for (std::size_t rq = 0; rq < shape.period; ++rq) {
      // Sorted by logit: keys of one logit are adjacent, so equal neighbours suffice.
      const std::vector<ValuedKey> keys = valued_keys(model.model(), head, static_cast<int>(y), rq);
      for (std::size_t k = 1; k < keys.size(); ++k)
        if (keys[k].logit == keys[k - 1].logit && keys[k].value != keys[k - 1].value) return false;
    }
  return true;
}

std::size_t attention_patterns(const std::vector<const OneLayerEvaluator*>& models) {
  struct Pattern {
    std::vector<Rational> logits;
    QVector phi;
  };
  std::vector<Pattern> seen;
  for (const auto* m : models) {
    const Shape& shape = m->shape();
    for (std::size_t h = 0; h < m->heads(); ++h) {
      if (weighs_one_value(*m, h)) continue;  // gives the construction no interval on any input
      Pattern p{{}, m->model().layers[0].heads[h].phi};
      for (std::size_t y = 0; y < shape.alphabet_size; ++y)
        for (std::size_t rq = 0; rq < shape.period; ++rq)
          for (std::size_t c = 0; c < shape.classes(); ++c) p.logits.push_back(m->class_logit(h, static_cast<int>(y), rq, c));
      bool known = std::any_of(seen.begin(), seen.end(),
                               [&](const Pattern& q) { return q.logits == p.logits && q.phi == p.phi; });
      if (!known) seen.push_back(p);
    }
  }
  return seen.size();
}

LengthBound simulation_length_bound(const std::vector<const OneLayerEvaluator*>& models, const Rational& delta,
                                    const Integer& threshold) {
  const Shape& shape = models.front()->shape();
  LengthBound b;
  b.resolution = simulation_resolution(shape, delta);
  b.patterns = attention_patterns(models);
  b.anchored = b.patterns <= 1;
  for (const auto* m : models)
    for (std::size_t h = 0; h < m->heads(); ++h)
      b.anchored = b.anchored && (weighs_one_value(*m, h) || is_anchored(*m, h));
  const Integer Q = b.resolution, S(shape.alphabet_size), D(shape.period), tau(shape.locality);
  if (b.anchored) {
    b.N = D * (S * Q * (tau + 1) + S + 2) + tau;
    b.formula = "anchored: D*(S*Q*(tau+1) + S + 2) + tau";
  } else {
    // One factor Q(τ+1) per distinct head interval: at most one per pattern and one per bulk class count.
    const std::size_t exponent = std::min(b.patterns, shape.classes());
    Integer phi_max = pow(Integer(Q * (tau + 1)), static_cast<unsigned long>(exponent)) * 2 * S * Q;
    b.N = D * S * phi_max + D + tau;
    b.epsilon_exponent = exponent + 1;
    b.formula = "general: D*S*(Q*(tau+1))^E*2*S*Q + D + tau, E = min(H, S*D) = " + std::to_string(exponent) + " (H = " +
                std::to_string(b.patterns) + " patterns of heads weighing more than one value)";
  }
  if (threshold > 1) {
    Integer padded = 2 * threshold + D * (S + 1);
    if (padded > b.N) {
      b.N = padded;
      b.formula += "; finite:p padding 2*t + D*(S+1) dominates";
    }
  }
  return b;
}

namespace {

/// Whether head h weighs one value at x and the same one value at z: its
/// output is then that vector at both, whatever the weights.
bool same_single_value(const OneLayerEvaluator& m, std::size_t h, const Statistic& x, const Statistic& z) {
  const QVector* at_x = m.single_value(h, x, m.top(h, x));
  const QVector* at_z = at_x ? m.single_value(h, z, m.top(h, z)) : nullptr;
  return at_z && *at_x == *at_z;
}

}  // namespace

Rational attention_distance(const std::vector<const OneLayerEvaluator*>& models, const Statistic& x,
                            const Statistic& z) {
  Rational worst = 0;
  for (const auto* m : models)
    for (std::size_t h = 0; h < m->heads(); ++h)
      if (!same_single_value(*m, h, x, z)) worst = std::max(worst, l1_distance(m->attention(h, x), m->attention(h, z)));
  return worst;
}

}  // namespace lgc
