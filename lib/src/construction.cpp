#include "lgcheck/simulate/construction.hpp"

#include <algorithm>
#include <optional>
#include <stdexcept>

namespace lgc {
namespace {

struct HeadView {
  Rational max_logit;
  std::vector<std::size_t> classes;
  std::size_t window_slots = 0;
};

std::vector<HeadView> all_tops(const std::vector<const OneLayerEvaluator*>& models, const Statistic& x) {
  std::vector<HeadView> views;
  for (const auto* m : models)
    for (std::size_t h = 0; h < m->heads(); ++h) {
      HeadTop t = m->top(h, x);
      views.push_back({t.max_logit, t.classes, t.window_slots.size()});
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

std::vector<CountComponent> merge_intervals(std::vector<std::pair<Rational, Rational>> intervals) {
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
  return out;
}

/// φ(n): linear on components, min(κ_{j−1}·n, κ_j·lo_j) in the gap below J_j,
/// and 1 above every component (only singleton top sets reach there).
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

Simulation simulate(const std::vector<const OneLayerEvaluator*>& models, const Statistic& x, const Rational& delta,
                    const Integer& resolution_override) {
  const Shape& shape = models.front()->shape();
  const std::size_t S = shape.alphabet_size, D = shape.period, tau = shape.locality;
  Simulation sim;
  sim.delta = delta;
  sim.resolution = resolution_override > 0 ? resolution_override : simulation_resolution(shape, delta);
  sim.z = x;
  const std::uint64_t bulk = bulk_length(x.length, tau);
  if (bulk == 0) return sim;  // nothing to shorten
  const Rational Q(sim.resolution);

  std::vector<HeadView> tops = all_tops(models, x);
  std::vector<bool> in_top(shape.classes(), false);
  std::vector<std::pair<Rational, Rational>> intervals;
  for (const auto& t : tops) {
    for (std::size_t c : t.classes) in_top[c] = true;
    // A single class and no window slot: ω_h is a point mass whatever the
    // count, so no ratio needs keeping.
    if (t.classes.size() + t.window_slots <= 1) continue;
    std::uint64_t v = 0;
    for (std::size_t c : t.classes) v = std::max(v, x.counts[c]);
    Rational hi{Integer(v)};
    Rational lo = hi / Q;
    if (t.window_slots > 0 && lo <= Rational(Integer(tau + 1))) lo = 1;  // the window's unit weights matter
    intervals.push_back({lo, hi});
  }

  std::vector<std::uint64_t> totals(D);
  for (std::size_t r = 0; r < D; ++r) totals[r] = residue_count(bulk, D, r);
  std::vector<std::optional<std::size_t>> fillers(D);
  for (std::size_t r = 0; r < D; ++r) {
    fillers[r] = free_absorber(models, x, tops, r);
    if (!fillers[r] && totals[r] > 0) sim.balanced = true;
  }
  if (sim.balanced) {
    auto [lo_it, hi_it] = std::minmax_element(totals.begin(), totals.end());
    intervals.push_back({Rational(Integer(*lo_it)) / (Rational(Integer(S)) * Q), Rational(Integer(*hi_it))});
  }
  sim.components = merge_intervals(intervals);

  // Map every top-set count; the other classes start empty.
  Statistic& z = sim.z;
  std::vector<std::uint64_t> residue_sum(D, 0);
  for (std::size_t c = 0; c < shape.classes(); ++c) {
    z.counts[c] = 0;
    if (in_top[c] && x.counts[c] > 0) {
      Integer mapped = std::max(Integer(1), round_half_up(count_map(sim.components, Rational(Integer(x.counts[c])))));
      z.counts[c] = static_cast<std::uint64_t>(mapped);
    }
    residue_sum[c % D] += z.counts[c];
  }
  // The shortest bulk B' ≡ B (mod Δ) whose residues hold the mapped counts.
  const std::uint64_t b0 = bulk % D;
  std::uint64_t steps = 0;
  for (std::size_t r = 0; r < D; ++r) {
    std::uint64_t have = residue_count(b0, D, r);
    if (residue_sum[r] > have) steps = std::max(steps, residue_sum[r] - have);
  }
  const std::uint64_t new_bulk = b0 + steps * D;
  // Each residue's deficit goes to a free absorber, else to its largest class.
  for (std::size_t r = 0; r < D; ++r) {
    std::uint64_t deficit = residue_count(new_bulk, D, r) - residue_sum[r];
    if (deficit == 0) continue;
    std::size_t target = fillers[r] ? *fillers[r] : r;
    if (!fillers[r])
      for (std::size_t s = 0; s < S; ++s)
        if (x.counts[s * D + r] > x.counts[target]) target = s * D + r;
    z.counts[target] += deficit;
  }
  z.length = new_bulk + x.window.size();
  return sim;
}

Integer simulation_length_bound(const Shape& shape, std::size_t heads, const Rational& delta) {
  Integer Q = simulation_resolution(shape, delta);
  Integer S(shape.alphabet_size), D(shape.period), tau(shape.locality);
  Integer phi_max = pow(Integer(Q * (tau + 1)), static_cast<unsigned long>(heads)) * 2 * S * Q;
  return D * S * phi_max + D + tau;
}

Rational attention_distance(const std::vector<const OneLayerEvaluator*>& models, const Statistic& x,
                            const Statistic& z) {
  Rational worst = 0;
  for (const auto* m : models)
    for (std::size_t h = 0; h < m->heads(); ++h) worst = std::max(worst, l1_distance(m->attention(h, x), m->attention(h, z)));
  return worst;
}

}  // namespace lgc
