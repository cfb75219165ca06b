#include "lgcheck/kernel/distance_bounds.hpp"

#include "lgcheck/kernel/forward.hpp"
#include "lgcheck/numeric/interval.hpp"

#include <algorithm>
#include <queue>
#include <utility>
#include <vector>

namespace lgc::kernel {
namespace {

/// f and g see the same attention weights on every input: one layer each, the same semantics, alphabet, period,
/// locality, embedding and positional encoding, and per head the same bilinear form and φ.
bool same_attention(const Model& f, const Model& g) {
  if (f.layers.size() != 1 || g.layers.size() != 1 || !(f.semantics == g.semantics) || f.alphabet != g.alphabet ||
      f.period != g.period || f.locality != g.locality || f.embedding != g.embedding || f.positional != g.positional ||
      f.layers[0].heads.size() != g.layers[0].heads.size())
    return false;
  for (std::size_t h = 0; h < f.layers[0].heads.size(); ++h)
    if (f.layers[0].heads[h].qk != g.layers[0].heads[h].qk || f.layers[0].heads[h].phi != g.layers[0].heads[h].phi)
      return false;
  return true;
}

/// The work readout_gap_within may spend, in multiply-adds of box evaluations (about a second).
constexpr std::size_t kReadoutGapWork = 20000000;

/// A box of rational intervals [lo, hi], one per coordinate.
using Box = std::vector<std::pair<Rational, Rational>>;

/// M·v + b over the box v: each coordinate's exact range.
Box affine(const QMatrix& m, const Box& v, const QVector& b) {
  Box out(m.rows());
  for (std::size_t r = 0; r < m.rows(); ++r) {
    Rational lo = b[r], hi = b[r];
    for (std::size_t c = 0; c < m.cols(); ++c) {
      const Rational a = m(r, c) * v[c].first, z = m(r, c) * v[c].second;
      lo += std::min(a, z), hi += std::max(a, z);
    }
    out[r] = {lo, hi};
  }
  return out;
}

/// R(Y) = U·(Y + W_out relu(W_in Y + b_in) + b_out) + u over the box, then sin(ω·) (at 128 bits) when set.
Values readout_over(const Model& m, const Box& y) {
  Box z = y;
  if (const auto& mlp = m.layers[0].mlp) {
    Box hidden = affine(mlp->in, y, mlp->in_bias);
    for (auto& [lo, hi] : hidden) lo = std::max(lo, Rational(0)), hi = std::max(hi, Rational(0));
    const Box out = affine(mlp->out, hidden, mlp->out_bias);
    for (std::size_t k = 0; k < z.size(); ++k) z[k].first += out[k].first, z[k].second += out[k].second;
  }
  Values r;
  for (const auto& [lo, hi] : affine(m.readout.weights, z, m.readout.bias)) {
    Number v = lo == hi ? Number(lo) : Number(Interval::hull(lo, hi, 128));
    r.push_back(m.readout.sin_omega ? sin(Number(*m.readout.sin_omega) * v, 128) : v);
  }
  return r;
}

/// An upper and a lower bound of max_k |R_f − R_g| over the box: the upper one for any Y in it, the lower one at
/// some Y of it when the box is a point (else 0).
std::pair<Rational, Rational> gap_over(const Model& f, const Model& g, const Box& y) {
  const Values a = readout_over(f, y), b = readout_over(g, y);
  bool point = true;
  for (const auto& [lo, hi] : y) point = point && lo == hi;
  Rational upper = 0, lower = 0;
  for (std::size_t k = 0; k < a.size() && k < b.size(); ++k) {
    upper = std::max({upper, upper_of(a[k]) - lower_of(b[k]), upper_of(b[k]) - lower_of(a[k])});
    if (point) lower = std::max({lower, lower_of(a[k]) - upper_of(b[k]), lower_of(b[k]) - upper_of(a[k])});
  }
  return {upper, lower};
}

/// Y's box for the query class (s, r): y_q plus the heads' range (heads_value_range).
Box query_box(const Model& f, std::size_t s, std::size_t r, const Box& heads) {
  const QVector base = class_vector(f, s, r);
  Box box = heads;
  for (std::size_t k = 0; k < box.size(); ++k) box[k].first += base[k], box[k].second += base[k];
  return box;
}

/// The work of one box's evaluation, in multiply-adds: both MLPs and readouts over the width.
std::size_t box_work(const Model& f, const Model& g) {
  std::size_t work = 0;
  for (const Model* m : {&f, &g})
    work += m->width * (m->readout.weights.rows() + (m->layers[0].mlp ? 2 * m->layers[0].mlp->in.rows() : 0)) + 1;
  return work;
}

/// Best-first bisection of one query class's box (the box of the largest upper bound split at the middle of its
/// widest coordinate) until every box is within the bound: true; false when a point box, or the centre of the box of
/// the largest upper bound (tried every 256 splits and at the end), is certainly above it; else nullopt.
std::optional<bool> box_within(const Model& f, const Model& g, Box box, const Rational& bound, std::size_t boxes) {
  struct Item {
    Rational upper;
    Box box;
    bool operator<(const Item& o) const { return upper < o.upper; }
  };
  std::priority_queue<Item> queue;
  queue.push({gap_over(f, g, box).first, std::move(box)});
  auto centre_above = [&] {  // a point of the box of the largest upper bound is certainly above the bound
    Box centre = queue.top().box;
    for (auto& [lo, hi] : centre) lo = hi = (lo + hi) / 2;
    return gap_over(f, g, centre).second > bound;
  };
  for (std::size_t step = 0; step < boxes; ++step) {
    if (queue.top().upper <= bound) return true;
    if (step % 256 == 255 && centre_above()) return false;
    Item top = queue.top();
    queue.pop();
    std::size_t widest = 0;
    for (std::size_t k = 1; k < top.box.size(); ++k)
      if (top.box[k].second - top.box[k].first > top.box[widest].second - top.box[widest].first) widest = k;
    if (top.box[widest].first == top.box[widest].second)  // a point
      return gap_over(f, g, top.box).second > bound ? std::optional<bool>(false) : std::nullopt;
    const Rational mid = (top.box[widest].first + top.box[widest].second) / 2;
    Box left = top.box, right = std::move(top.box);
    left[widest].second = mid, right[widest].first = mid;
    for (Box* half : {&left, &right}) queue.push({gap_over(f, g, *half).first, std::move(*half)});
  }
  if (queue.top().upper <= bound) return true;
  return centre_above() ? std::optional<bool>(false) : std::nullopt;
}

}  // namespace

std::optional<Rational> value_perturbation(const Model& f, const Model& g) {
  if (!same_attention(f, g) || f.layers[0].mlp != g.layers[0].mlp || f.readout != g.readout) return std::nullopt;
  Rational sum = 0;
  for (std::size_t h = 0; h < f.layers[0].heads.size(); ++h) {
    Rational worst = 0;
    for (std::size_t s = 0; s < f.alphabet_size(); ++s)
      for (std::size_t r = 0; r < f.period; ++r) {
        const QVector e = class_vector(f, s, r);
        const QVector a = apply<Rational>(f.layers[0].heads[h].value, e);
        const QVector b = apply<Rational>(g.layers[0].heads[h].value, e);
        for (std::size_t k = 0; k < a.size(); ++k) worst = std::max(worst, magnitude(a[k] - b[k]));
      }
    sum += worst;
  }
  return readout_lipschitz(f) * sum;
}

bool same_attention_and_values(const Model& f, const Model& g) {
  if (!same_attention(f, g)) return false;
  for (std::size_t h = 0; h < f.layers[0].heads.size(); ++h)
    if (f.layers[0].heads[h].value != g.layers[0].heads[h].value) return false;
  return true;
}

std::optional<bool> readout_gap_within(const Model& f, const Model& g, const Rational& bound, std::size_t boxes) {
  if (!same_attention_and_values(f, g)) return std::nullopt;
  for (const Model* m : {&f, &g})  // a sin of arguments beyond 2^20 costs MPFI a precision of their size: not tried
    if (m->readout.sin_omega && magnitude(*m->readout.sin_omega) > Rational(1 << 20)) return std::nullopt;
  const std::size_t classes = f.alphabet_size() * f.period;
  boxes = std::min(boxes, kReadoutGapWork / box_work(f, g));  // a budget of work, not only of boxes
  if (boxes < classes) return std::nullopt;
  bool shown = true;
  const std::size_t per_class = boxes / classes;
  const auto [lo, hi] = heads_value_range(f);
  Box heads;
  for (std::size_t k = 0; k < lo.size(); ++k) heads.push_back({lo[k], hi[k]});
  for (std::size_t s = 0; s < f.alphabet_size(); ++s)
    for (std::size_t r = 0; r < f.period; ++r) {
      const std::optional<bool> within = box_within(f, g, query_box(f, s, r, heads), bound, per_class);
      if (within && !*within) return false;
      shown = shown && within.has_value();
    }
  return shown ? std::optional<bool>(true) : std::nullopt;
}

}  // namespace lgc::kernel
