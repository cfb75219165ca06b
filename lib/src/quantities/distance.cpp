#include "lgcheck/quantities/distance.hpp"

#include "distance_fold.hpp"

#include "lgcheck/enumerate/budget.hpp"
#include "lgcheck/quantities/norm_constant.hpp"

#include <algorithm>
#include <optional>
#include <queue>

namespace lgc {

Number certified_max(const Number& a, const Number& b) {
  if (a.is_exact() && b.is_exact()) return a.exact() >= b.exact() ? a : b;
  unsigned bits = std::max({a.precision(), b.precision(), kDefaultPrecisionBits});
  return Number(Interval::hull(std::max(lower_of(a), lower_of(b)), std::max(upper_of(a), upper_of(b)), bits));
}

bool small_max_abs_difference(const std::vector<SmallRational>& a, const std::vector<SmallRational>& b,
                              SmallRational& out) {
  if (a.size() != b.size()) return false;  // the GMP path refuses it (max_abs_difference throws)
  SmallArithmetic arith;
  out = SmallRational{};
  for (std::size_t k = 0; k < a.size(); ++k) {
    const SmallRational d = SmallArithmetic::abs(arith.sub(a[k], b[k]));
    if (compare(d, out) > 0) out = d;
  }
  return !arith.overflowed();
}

namespace detail {

void SmallMax::consider(const SmallRational& d, std::uint64_t ordinal, const Statistic& s) {
  if (any && compare(d, best) <= 0) return;
  any = true;
  best = d;
  best_ordinal = ordinal;
  at = s;
}

void SmallMax::settle(ShardMax& m) {
  if (active && any) {
    m.best_upper = to_rational(best);
    m.value = Number(m.best_upper);
    m.best_ordinal = best_ordinal;
    m.at = std::move(at);
  }
  active = false;
}

namespace {

/// Folds one distance into the shard's maximum (certified; exact when d is).
void consider(ShardMax& m, const Number& d, std::uint64_t ordinal, const Statistic& s) {
  if (!m.value || upper_of(d) > m.best_upper) {
    m.best_upper = upper_of(d);
    m.best_ordinal = ordinal;
    m.at = s;
  }
  m.value = m.value ? certified_max(*m.value, d) : d;
}

}  // namespace

DistanceFold::DistanceFold(const OneLayerEvaluator& f, const OneLayerEvaluator& g, unsigned p,
                           const std::optional<Number>& before)
    : f_(f), g_(g), p_(p) {
  // Hardmax with rational readouts: distances in SmallRational while they
  // fit (the same exact values, the same argmax and ties), GMP after.
  fast_.active = p == 0 && f.has_small_path() && g.has_small_path();
  if (before) raise_floor(*before);
}

void DistanceFold::raise_floor(const Number& m) {
  if (p_ != 0 || m.is_exact()) return;  // an exact maximum would turn into an enclosure: never skip beside it
  floor_ = std::max(floor_, FastInterval::enclosing(lower_of(m)).lo);
}

bool DistanceFold::below_floor(const Statistic& s) {
  if (!(floor_ > 0) || !f_.enclose_fast(s, fa_) || !g_.enclose_fast(s, fb_) || fa_.size() != fb_.size()) return false;
  for (std::size_t k = 0; k < fa_.size(); ++k)  // |f_k − g_k| <= max(f.hi − g.lo, g.hi − f.lo)
    if (!((fa_[k] - fb_[k]).hi < floor_ && (fb_[k] - fa_[k]).hi < floor_)) return false;
  return true;
}

void DistanceFold::fold(const Statistic& s, std::uint64_t ordinal) {
  ++max_.visited;
  max_.digest.add(s);
  SmallRational d;
  if (fast_.active && f_.evaluate_small(s, a_) && g_.evaluate_small(s, b_) && small_max_abs_difference(a_, b_, d)) {
    fast_.consider(d, ordinal, s);
    return;
  }
  fast_.settle(max_);
  if (below_floor(s)) {
    ++max_.below;
    return;
  }
  consider(max_, output_distance(f_, s, g_, s, p_), ordinal, s);
  raise_floor(*max_.value);
}

std::optional<Rational> DistanceFold::best_lower() const {
  if (fast_.active && fast_.any) return to_rational(fast_.best);
  if (max_.value) return lower_of(*max_.value);
  return std::nullopt;
}

ShardMax DistanceFold::finish() {
  fast_.settle(max_);
  return std::move(max_);
}

void append_length(DistanceCurve& curve, const std::vector<ShardMax>& parts, std::uint64_t n,
                   std::optional<Number>& running, Statistic& running_at) {
  const ShardMax* best = nullptr;
  for (const ShardMax& part : parts) {
    curve.statistics += part.visited;
    curve.below_maximum += part.below;
    curve.visited.add(part.digest);
    if (!part.value) continue;
    if (!best || part.best_upper > best->best_upper ||
        (part.best_upper == best->best_upper && part.best_ordinal < best->best_ordinal))
      best = &part;
  }
  for (const ShardMax& part : parts)
    if (part.value) running = running ? certified_max(*running, *part.value) : *part.value;
  if (best && (curve.D.empty() || best->best_upper > upper_of(curve.D.back()))) running_at = best->at;
  curve.D.push_back(*running);
  curve.argmax.push_back(running_at);
  curve.reached = n;
}

ShardMax shard_max(const OneLayerEvaluator& f, const OneLayerEvaluator& g, std::uint64_t n, unsigned p,
                   const Shard& shard, const std::optional<Number>& before) {
  DistanceFold fold(f, g, p, before);
  std::uint64_t k = 0;  // the shard's k-th statistic has ordinal k·count + index
  for_each_statistic(
      f.shape(), n,
      [&](const Statistic& s) {
        fold.fold(s, k++ * shard.count + shard.index);
        return true;
      },
      shard);
  return fold.finish();
}

}  // namespace detail

DistanceCurve distance_curve(const OneLayerEvaluator& f, const OneLayerEvaluator& g, std::uint64_t max_length,
                             unsigned p, std::uint64_t budget, unsigned threads, std::string* stopped,
                             const std::function<void(std::uint64_t, std::uint64_t)>& on_length) {
  DistanceCurve curve;
  const Shape shape = f.shape();
  if (threads == 0) threads = enumeration_threads();
  std::optional<Number> running;
  Statistic running_at;
  for (std::uint64_t n = 1; n <= max_length; ++n) {
    if (on_length) on_length(n, max_length);
    const std::uint64_t count = statistic_count(shape, n);
    if (count > budget) break;
    const unsigned used = static_cast<unsigned>(std::min<std::uint64_t>(threads, std::max<std::uint64_t>(count / 64, 1)));
    std::vector<detail::ShardMax> parts(used);
    try {
      run_shards(used, [&](const Shard& shard) { parts[shard.index] = detail::shard_max(f, g, n, p, shard, running); });
    } catch (const BudgetExceeded& e) {
      if (!stopped) throw;
      *stopped = e.what();
      break;  // lengths 1..n-1 are complete
    }
    detail::append_length(curve, parts, n, running, running_at);
  }
  return curve;
}

std::optional<std::uint64_t> measured_threshold(const DistanceCurve& curve, const Rational& epsilon,
                                                std::uint64_t* undecided_at) {
  if (undecided_at) *undecided_at = 0;
  for (std::size_t k = 0; k < curve.D.size(); ++k) {
    std::optional<int> order = compare(curve.D[k], Number(epsilon));
    if (!order) {
      if (undecided_at) *undecided_at = k + 1;
      return std::nullopt;
    }
    if (*order > 0) return k + 1;
  }
  return std::nullopt;
}

bool shares_attention(const Model& f, const Model& g) {
  if (f.embedding != g.embedding || f.positional != g.positional || f.layers.size() != g.layers.size()) return false;
  const auto &hf = f.layers[0].heads, &hg = g.layers[0].heads;
  if (hf.size() != hg.size()) return false;
  for (std::size_t h = 0; h < hf.size(); ++h)
    if (hf[h].qk != hg[h].qk || hf[h].phi != hg[h].phi) return false;
  return true;
}

std::optional<Rational> value_perturbation_bound(const Model& f, const Model& g) {
  if (!shares_attention(f, g) || f.layers[0].mlp != g.layers[0].mlp || f.readout != g.readout) return std::nullopt;
  Rational sum = 0;
  for (std::size_t h = 0; h < f.layers[0].heads.size(); ++h) {
    Rational worst = 0;
    for (std::size_t s = 0; s < f.alphabet_size(); ++s)
      for (std::size_t r = 0; r < f.period; ++r) {
        QVector e = initial_embedding(f, static_cast<int>(s), r);
        QVector vf = apply<Rational>(f.layers[0].heads[h].value, e), vg = apply<Rational>(g.layers[0].heads[h].value, e);
        for (std::size_t k = 0; k < vf.size(); ++k) vf[k] -= vg[k];
        worst = std::max(worst, linf_norm(vf));
      }
    sum += worst;
  }
  return readout_lipschitz(f) * sum;
}

namespace {

using Box = std::vector<std::pair<Rational, Rational>>;

Vector<Number> box_numbers(const Box& box) {
  Vector<Number> v;
  for (const auto& [lo, hi] : box) v.push_back(lo == hi ? Number(lo) : Number(Interval::hull(lo, hi, kDefaultPrecisionBits)));
  return v;
}

/// Upper bound of max_k |R_f(Y) − R_g(Y)| over the box.
Rational gap_upper(const Model& f, const Model& g, const Box& box) {
  Vector<Number> y = box_numbers(box);
  Vector<Number> yf = f.layers[0].mlp ? apply_mlp(*f.layers[0].mlp, y) : y;
  Vector<Number> yg = g.layers[0].mlp ? apply_mlp(*g.layers[0].mlp, y) : y;
  return upper_of(max_abs_difference(apply_readout(f, yf, kDefaultPrecisionBits), apply_readout(g, yg, kDefaultPrecisionBits)));
}

}  // namespace

std::optional<Rational> readout_gap_bound(const OneLayerEvaluator& fe, const OneLayerEvaluator& ge, std::size_t boxes) {
  const Model &f = fe.model(), &g = ge.model();
  if (!shares_attention(f, g)) return std::nullopt;
  for (std::size_t h = 0; h < f.layers[0].heads.size(); ++h)
    if (f.layers[0].heads[h].value != g.layers[0].heads[h].value) return std::nullopt;
  const Shape shape = fe.shape();
  const std::size_t d = f.width;
  // Y = E_y + p_r + Σ_h (a convex combination of V_h·(E_s + p_r')): one box per query class.
  Rational overall = 0;
  for (std::size_t q = 0; q < shape.classes(); ++q) {
    Box box(d);
    const QVector& base = fe.class_embedding(q);
    for (std::size_t k = 0; k < d; ++k) box[k] = {base[k], base[k]};
    for (std::size_t h = 0; h < f.layers[0].heads.size(); ++h) {
      std::vector<QVector> values;
      for (std::size_t c = 0; c < shape.classes(); ++c)
        values.push_back(apply<Rational>(f.layers[0].heads[h].value, fe.class_embedding(c)));
      for (std::size_t k = 0; k < d; ++k) {
        Rational lo = values[0][k], hi = values[0][k];
        for (const auto& v : values) {
          lo = std::min(lo, v[k]);
          hi = std::max(hi, v[k]);
        }
        box[k].first += lo;
        box[k].second += hi;
      }
    }
    // Best-first bisection: split the box with the largest upper bound along
    // its widest coordinate.
    using Item = std::pair<Rational, Box>;
    auto cmp = [](const Item& a, const Item& b) { return a.first < b.first; };
    std::priority_queue<Item, std::vector<Item>, decltype(cmp)> queue(cmp);
    queue.push({gap_upper(f, g, box), box});
    for (std::size_t step = 0; step < boxes / shape.classes() + 1; ++step) {
      Item top = queue.top();
      std::size_t widest = 0;
      for (std::size_t k = 1; k < d; ++k)
        if (top.second[k].second - top.second[k].first > top.second[widest].second - top.second[widest].first) widest = k;
      if (top.second[widest].second == top.second[widest].first) break;  // a point: exact enough
      queue.pop();
      Box left = top.second, right = top.second;
      Rational mid = (top.second[widest].first + top.second[widest].second) / 2;
      left[widest].second = mid;
      right[widest].first = mid;
      queue.push({gap_upper(f, g, left), left});
      queue.push({gap_upper(f, g, right), right});
    }
    overall = std::max(overall, queue.top().first);
  }
  return overall;
}

}  // namespace lgc
