// D(n) for a hardmax pair by branch and bound over the counts of each group
// (theory.md "The bounded curve"): a box of counts whose certified bound on
// |f − g|∞ cannot change the maximum so far is skipped, the others are split
// until few statistics remain, which are evaluated as by the other curves.
#include "lgcheck/quantities/distance.hpp"

#include "distance_fold.hpp"
#include "reduced_groups.hpp"

#include "lgcheck/enumerate/budget.hpp"
#include "lgcheck/enumerate/linear_witness.hpp"

#include <gmp.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <cmath>
#include <limits>
#include <map>
#include <memory>
#include <numeric>
#include <stdexcept>

namespace lgc {
namespace {

using detail::Group;

/// The statistics a box may hold at most to be evaluated one by one.
constexpr std::uint64_t kLeafStatistics = 16;
/// A window slot's term in a head's average: weight 1, no count.
constexpr std::size_t kWindowSlot = std::numeric_limits<std::size_t>::max();
/// Counts are doubles in the bounds: lengths below 2^50 keep every weight exact.
constexpr std::uint64_t kLongestLength = std::uint64_t{1} << 50;

/// plan_bound without a cutoff: the whole bound.
constexpr double kNoCutoff = std::numeric_limits<double>::infinity();
/// Thrown when one length's boxes and statistics exceed the per-length cap.
struct LengthCapped {};
/// Thrown when a value search gives up (the intervals of T on which the bound may exceed the floor are more than
/// kOpenIntervals apart, or N reaches kValueLength): the group is searched by boxes. (However many pieces of the
/// bisection stay open, each is charged to the search's cost cap, against which it is abandoned.)
struct ValuesAbandoned {};
constexpr std::size_t kOpenIntervals = 64;
/// The same for the rectangles of (T_0, T_1) of the search over two parameters (not merged), and for the pieces its
/// bisection bounds (where more are needed the bound stays near the floor over a band of (T_0, T_1), whose candidates
/// cost more than the box search: on a tied sin pair a cap of 10^8 pieces took 3.6 s to length 600, 1 024 1.2 s).
constexpr std::size_t kOpenRectangles = 256;
constexpr std::size_t kRectanglePieces = 1024;
/// Thrown when a group's search has cost as much as evaluating each of the group's fresh statistics would (the group
/// is then walked): a box's bound costs about kBoxCost evaluations (measured on the Farey-hat pairs, whose MLP takes
/// the general bound).
struct SearchAbandoned {};
constexpr std::uint64_t kBoxCost = 8;
/// two_way weighs the value search's steps other than evaluations (pieces, candidates, witness steps) at
/// 1/kValueStepShare of their charge to the cap: a point or a rectangle of two numbers bounds faster than a box of
/// counts. (Measured on tied sin pairs to 2 000: at their full charge one went by boxes, 14 million of them, 18 s
/// against 11 s; without them others went by values at twice the time of boxes; at 1/4, within the noise of the
/// better of the two on each.)
constexpr std::uint64_t kValueStepShare = 4;

/// The largest double at most q (q >= 0).
double double_below(const Rational& q) {
  double d = mpq_get_d(q.backend().data());  // truncates: at most q for q >= 0
  while (Rational(d) > q) d = std::nextafter(d, -std::numeric_limits<double>::infinity());
  return d;
}

/// One term of a weighted average at one output coordinate: its value (exact
/// and enclosed) and the count that weighs it (a box variable, or kWindowSlot).
struct Term {
  Rational exact;
  FastInterval value;
  std::size_t var;
};

/// The terms of an average, per coordinate, each list in decreasing exact value.
using Average = std::vector<std::vector<Term>>;

/// n values on the stack when n ≤ N, else on the heap (a hot path's scratch space, uninitialised).
template <class T, std::size_t N>
class SmallBuffer {
 public:
  explicit SmallBuffer(std::size_t n) : heap_(n > N ? n : 0), data_(n > N ? heap_.data() : stack_.data()) {}
  SmallBuffer(const SmallBuffer&) = delete;
  SmallBuffer& operator=(const SmallBuffer&) = delete;
  T& operator[](std::size_t i) { return data_[i]; }

 private:
  std::array<T, N> stack_;
  std::vector<T> heap_;
  T* data_;
};

/// The box: per variable (the group's weighed classes, residue by residue) a
/// range of counts, with per residue a range of their sum.
struct Box {
  std::vector<std::uint64_t> lo, hi;
};

std::uint64_t weight(const Term& t, bool high, const Box& box) {
  if (t.var == kWindowSlot) return 1;
  return high ? box.hi[t.var] : box.lo[t.var];
}

/// Σ w_i x_i / Σ w_i over the box, w_i in [lo_i, hi_i] (a window slot's weight
/// is 1), the terms in decreasing value: its maximum weighs some first terms
/// (the largest values) high and the rest low, its minimum the reverse, so the
/// n + 1 splits of each kind attain both. take(maximise, Σ w x, Σ w) per split.
/// (Without `extremes`, the mutation BoxBoundTerms::weight_extremes = false: one split, every weight low.)
template <class Num, class ValueOf, class Take>
void each_split(const std::vector<Term>& terms, const Box& box, bool extremes, ValueOf value_of, Take take) {
  for (const bool maximise : {true, false})
    for (std::size_t j = 0; j <= (extremes ? terms.size() : 0); ++j) {
      Num num{};
      std::uint64_t den = 0;
      for (std::size_t i = 0; i < terms.size(); ++i) {
        const std::uint64_t w = weight(terms[i], extremes && (i < j) == maximise, box);
        num += value_of(terms[i], w);
        den += w;
      }
      take(maximise, num, den);
    }
}

/// An enclosure of the average's range over the box: the splits of each_split, each maximising split's average
/// rounded up and each minimising one's down (counts below 2^50 are exact doubles, and positive: w·x ≤ w·x.hi). In
/// O(k): the sums of the first j terms (weighed high for the maximum, low for the minimum) kept as j grows, those of
/// the others (low, high) taken from suffix sums, every sum rounded outward.
FastInterval average_range(const std::vector<Term>& terms, const Box& box, bool extremes) {
  const std::size_t k = terms.size();
  if (!extremes) {  // the mutation: one split, every weight low
    double up = 0, down = 0;
    std::uint64_t den = 0;
    for (const Term& t : terms) {
      const std::uint64_t w = weight(t, false, box);
      up = next_up(up + next_up(static_cast<double>(w) * t.value.hi));
      down = next_down(down + next_down(static_cast<double>(w) * t.value.lo));
      den += w;
    }
    return {next_down(down / static_cast<double>(den)), next_up(up / static_cast<double>(den))};
  }
  // From term i on: Σ of the low weights' products rounded up (the maximum's rest), of the high weights' rounded
  // down (the minimum's rest), and the weights' sums.
  constexpr std::size_t kStackTerms = 32;
  SmallBuffer<double, kStackTerms> rest_up(k + 1), rest_down(k + 1);
  SmallBuffer<std::uint64_t, kStackTerms> rest_low(k + 1), rest_high(k + 1);
  rest_up[k] = rest_down[k] = 0;
  rest_low[k] = rest_high[k] = 0;
  for (std::size_t i = k; i-- > 0;) {
    const std::uint64_t low = weight(terms[i], false, box), high = weight(terms[i], true, box);
    rest_up[i] = next_up(rest_up[i + 1] + next_up(static_cast<double>(low) * terms[i].value.hi));
    rest_down[i] = next_down(rest_down[i + 1] + next_down(static_cast<double>(high) * terms[i].value.lo));
    rest_low[i] = rest_low[i + 1] + low;
    rest_high[i] = rest_high[i + 1] + high;
  }
  FastInterval range{std::numeric_limits<double>::infinity(), -std::numeric_limits<double>::infinity()};
  double up = 0, down = 0;  // the first j terms: weighed high (maximum), low (minimum)
  std::uint64_t den_up = 0, den_down = 0;
  for (std::size_t j = 0;; ++j) {
    range.hi = std::max(range.hi, next_up(next_up(up + rest_up[j]) / static_cast<double>(den_up + rest_low[j])));
    range.lo = std::min(range.lo, next_down(next_down(down + rest_down[j]) / static_cast<double>(den_down + rest_high[j])));
    if (j == k) return range;
    const std::uint64_t low = weight(terms[j], false, box), high = weight(terms[j], true, box);
    up = next_up(up + next_up(static_cast<double>(high) * terms[j].value.hi));
    down = next_down(down + next_down(static_cast<double>(low) * terms[j].value.lo));
    den_up += high;
    den_down += low;
  }
}

/// The average's range over the box, exactly.
std::pair<Rational, Rational> exact_average_range(const std::vector<Term>& terms, const Box& box, bool extremes) {
  std::optional<Rational> lo, hi;
  each_split<Rational>(
      terms, box, extremes, [](const Term& t, std::uint64_t w) { return t.exact * Rational(Integer(w)); },
      [&](bool maximise, const Rational& num, std::uint64_t den) {
        const Rational a = num / Rational(Integer(den));
        if (maximise && (!hi || a > *hi)) hi = a;
        if (!maximise && (!lo || a < *lo)) lo = a;
      });
  return {*lo, *hi};
}

/// The terms of one average per coordinate: `values[i]` the value vector of item i, weighed by `vars[i]`.
Average sorted_terms(const std::vector<QVector>& values, const std::vector<std::size_t>& vars) {
  Average coords(values.empty() ? 0 : values.front().size());
  for (std::size_t k = 0; k < coords.size(); ++k) {
    for (std::size_t i = 0; i < values.size(); ++i)
      coords[k].push_back({values[i][k], FastInterval::enclosing(values[i][k]), vars[i]});
    std::stable_sort(coords[k].begin(), coords[k].end(),
                     [](const Term& a, const Term& b) { return a.exact > b.exact; });
  }
  return coords;
}

/// One model's residual stream after the attention over a box of counts (the general bound, for an MLP, or readouts
/// neither both identity nor both sin of one frequency): the part no count moves (the query embedding and the heads
/// that weigh one value), and the heads' averages.
struct ModelPlan {
  const OneLayerEvaluator* model = nullptr;
  std::vector<FastInterval> base;
  std::vector<Average> averages;
};

/// For two models without an MLP, an affine function of the heads' averages: f − g itself (identity readouts), or
/// the readouts' pre-activations u − v and u + v (SinPlan). A constant plus averages of values ±R·V·(E_s + p_r), a
/// head of f and a head of g with the same top set merged into one average of R_f V_f ∓ R_g V_g (the same
/// weights), so that what they share cancels in the difference before the box's ranges are taken.
struct LinearPlan {
  std::vector<Rational> constant;
  std::vector<FastInterval> constant_enclosure;  // per coordinate, enclosed once (through MPFI: not per box)
  std::vector<Average> averages;
  std::vector<bool> vanishes;  // per coordinate: the constant and every average's values 0 (the function is 0)
};

/// sin readouts of one frequency ω and no MLP: f_k − g_k = sin ω u_k − sin ω v_k = 2 cos(ω(u_k + v_k)/2)
/// sin(ω(u_k − v_k)/2), the pre-activations' difference and sum each one affine function of averages (LinearPlan),
/// so that a shared head cancels in the difference as without the sin.
struct SinPlan {
  LinearPlan difference, sum;
  FastInterval half_omega;
  /// Per average of `sum`: the average of `difference` with the same terms (sign 1: a head of f that g does not
  /// share) or their negations (sign −1: one of g), whose range over a box it takes, or negates, instead of scanning
  /// again (`shared_averages`); sign 0 where there is none (a head of both, R_f V_f ± R_g V_g).
  struct Shared {
    std::size_t index = 0;
    int sign = 0;
  };
  std::vector<Shared> sum_from_difference;
};

/// Whether an average's terms are those of `of` (sign 1), or their negations (sign −1), at every coordinate.
bool same_terms(const Average& average, const Average& of, int sign) {
  if (average.size() != of.size()) return false;
  for (std::size_t k = 0; k < average.size(); ++k) {
    if (average[k].size() != of[k].size()) return false;
    std::vector<std::pair<std::size_t, Rational>> mine, theirs;
    for (const Term& t : average[k]) mine.emplace_back(t.var, t.exact);
    for (const Term& t : of[k]) theirs.emplace_back(t.var, sign * t.exact);
    std::sort(mine.begin(), mine.end());
    std::sort(theirs.begin(), theirs.end());
    if (mine != theirs) return false;
  }
  return true;
}

/// The average of `difference` with the terms of `average` or their negations, if any (sign 0: none).
SinPlan::Shared shared_with(const Average& average, const LinearPlan& difference) {
  for (std::size_t i = 0; i < difference.averages.size(); ++i)
    for (const int sign : {1, -1})
      if (same_terms(average, difference.averages[i], sign)) return {i, sign};
  return {};
}

/// SinPlan::sum_from_difference: each average of `sum` matched with one of `difference` (shared_with).
std::vector<SinPlan::Shared> shared_averages(const LinearPlan& difference, const LinearPlan& sum) {
  std::vector<SinPlan::Shared> shared;
  for (const Average& average : sum.averages) shared.push_back(shared_with(average, difference));
  return shared;
}

/// Added to a SinPlan's bound: a skipped statistic's 128-bit enclosure then lies below the floor whenever the bound
/// does (theory.md "The bounded curve"); the FastInterval sin of the general bound widens by as much.
constexpr double kSinMargin = 1e-11;

/// The items of one average at one output coordinate: the weighed variables' values (by variable) and the window
/// slots' (weight 1 each) sum and number.
struct Items {
  std::map<std::size_t, Rational> counted;
  Rational window_sum;
  std::uint64_t window_count = 0;
};

Items items_of(const std::vector<Term>& terms) {
  Items items;
  for (const Term& t : terms) {
    if (t.var != kWindowSlot) {
      items.counted.emplace(t.var, t.exact);
      continue;
    }
    items.window_sum += t.exact;
    ++items.window_count;
  }
  return items;
}

/// The average's value when no weights can move it (every counted value equal, and the window slots' mean equal to
/// it), else nullopt.
std::optional<Rational> constant_value(const Items& items) {
  std::optional<Rational> x;
  for (const auto& entry : items.counted) {
    if (x && *x != entry.second) return std::nullopt;
    x = entry.second;
  }
  if (items.window_count != 0) {
    const Rational mean = items.window_sum / Rational(Integer(items.window_count));
    if (x && *x != mean) return std::nullopt;
    x = mean;
  }
  return x;
}

/// (α, β) with each of `items`' values α + β t, t the same item's value in `ref` (the window slots through their
/// sums: Σ x = w0·α + β·Σ t), or nullopt; `ref` is not constant.
std::optional<std::pair<Rational, Rational>> affine_in(const Items& ref, const Items& items) {
  if (ref.counted.size() != items.counted.size() || ref.window_count != items.window_count) return std::nullopt;
  std::vector<std::pair<Rational, Rational>> points;  // (t, x)
  for (const auto& [v, t] : ref.counted) {
    const auto it = items.counted.find(v);
    if (it == items.counted.end()) return std::nullopt;
    points.emplace_back(t, it->second);
  }
  const Rational w0(Integer(ref.window_count));
  if (ref.window_count != 0) points.emplace_back(ref.window_sum / w0, items.window_sum / w0);
  const auto other = std::find_if(points.begin(), points.end(), [&](const auto& p) { return p.first != points[0].first; });
  if (other == points.end()) return std::nullopt;
  const Rational beta = (other->second - points[0].second) / (other->first - points[0].first);
  const Rational alpha = points[0].second - beta * points[0].first;
  for (const auto& [t, x] : points)
    if (x != alpha + beta * t) return std::nullopt;
  return std::make_pair(alpha, beta);
}

/// The solution (α, β_0, ..., β_{k−1}) of x = α + Σ_j β_j t_j over every item (the window slots through their sums:
/// Σ x = w0·α + Σ_j β_j Σ t_j), `refs` the lists t_j; nullopt when there is none or more than one (the lists t_j
/// with the constant list not independent). Exact Gaussian elimination.
std::optional<std::vector<Rational>> affine_fit(const std::vector<Items>& refs, const Items& items) {
  std::vector<std::vector<Rational>> rows;  // per item: 1, t_0, ..., t_{k−1} | x (the window: w0, Σ t_j | Σ x)
  for (const auto& [v, x] : items.counted) {
    std::vector<Rational> row{Rational(1)};
    for (const Items& ref : refs) {
      const auto it = ref.counted.find(v);
      if (it == ref.counted.end() || ref.counted.size() != items.counted.size()) return std::nullopt;
      row.push_back(it->second);
    }
    row.push_back(x);
    rows.push_back(std::move(row));
  }
  if (items.window_count != 0) {
    std::vector<Rational> row{Rational(Integer(items.window_count))};
    for (const Items& ref : refs) {
      if (ref.window_count != items.window_count) return std::nullopt;
      row.push_back(ref.window_sum);
    }
    row.push_back(items.window_sum);
    rows.push_back(std::move(row));
  }
  const std::size_t unknowns = refs.size() + 1;
  std::size_t rank = 0;
  for (std::size_t col = 0; col < unknowns; ++col) {
    std::size_t at = rank;
    while (at < rows.size() && rows[at][col] == 0) ++at;
    if (at == rows.size()) return std::nullopt;  // not one solution
    std::swap(rows[at], rows[rank]);
    for (std::size_t r = 0; r < rows.size(); ++r) {
      if (r == rank || rows[r][col] == 0) continue;
      const Rational factor = rows[r][col] / rows[rank][col];
      for (std::size_t k = col; k <= unknowns; ++k) rows[r][k] -= factor * rows[rank][k];
    }
    ++rank;
  }
  for (std::size_t r = rank; r < rows.size(); ++r)
    if (rows[r][unknowns] != 0) return std::nullopt;  // inconsistent
  std::vector<Rational> solution;
  for (std::size_t r = 0; r < unknowns; ++r) solution.push_back(rows[r][unknowns] / rows[r][r]);
  return solution;
}

/// A list t of an average's items in integers: L the least common denominator, a_v = L·t_v per weighed variable (in
/// increasing variable), A_W = L·Σ t over the w0 window slots, T's range (the least and largest of the t_v and the
/// window slots' mean) and the gcd of the a_v − a_0; nullopt when an integer reaches 2^20.
struct ScaledList {
  std::vector<std::size_t> vars;
  std::vector<std::int64_t> a;
  std::int64_t window_numerator = 0, scale = 1, stride = 0;
  std::uint64_t window_weight = 0;
  FastInterval range;
};

/// One coordinate of one LinearPlan as C + β·T (exact, and enclosed).
struct Line {
  Rational constant, slope;
  FastInterval c, s;
};

/// One coordinate of one LinearPlan as C + β_0·T_0 + β_1·T_1 (exact, and enclosed).
struct PlaneLine {
  Rational constant;
  std::array<Rational, 2> slope;
  FastInterval c;
  std::array<FastInterval, 2> s;
};

/// A group whose |f − g|∞ is a function of one scalar (theory.md "The bounded curve", the value search): no MLP, every
/// average but one constant, and that one's values, at every coordinate of each LinearPlan, α + β·t for one list t of
/// its items. With a_v = L·t_v over its weighed variables v and A_W = L·Σ t over its w0 window slots (integers),
/// T = P / (L·N), P = Σ c_v a_v + A_W and N = Σ c_v + w0, and each coordinate of each plan is C + β·T exactly: the
/// readouts' arguments (sin) or f − g (identity), hence |f − g|∞, are the same at statistics of one T.
struct OneAverage {
  std::vector<std::size_t> vars;  // the average's weighed variables
  std::vector<std::size_t> index;  // per box variable: its place in vars, or kNotInAverage
  std::vector<std::int64_t> a;    // a_v
  std::int64_t window_numerator = 0;
  std::uint64_t window_weight = 0;
  std::int64_t scale = 1;  // L
  FastInterval range;      // T lies in it (the least and largest of the t_v and the window slots' mean)
  std::vector<std::vector<Line>> lines;  // per plan (the LinearPlan, or the SinPlan's difference and sum), coordinate
  std::int64_t stride = 0;  // the gcd of the a_v − a_0 (0: one a, P fixed by N)
};
constexpr std::size_t kNotInAverage = std::numeric_limits<std::size_t>::max();
/// The value search's integers stay below 2^20 (L, a_v, A_W) and its lengths below 2^30: P and L·N below 2^53.
constexpr std::int64_t kValueInteger = std::int64_t{1} << 20;
constexpr std::uint64_t kValueLength = std::uint64_t{1} << 30;

std::optional<ScaledList> scaled_list(const Items& ref) {
  ScaledList list;
  Integer scale = denominator(ref.window_sum);
  for (const auto& entry : ref.counted) scale = lcm(scale, Integer(denominator(entry.second)));
  const auto small = [](const Integer& z) { return abs(z) < kValueInteger; };
  const Integer window = numerator(ref.window_sum) * (scale / denominator(ref.window_sum));
  if (!small(scale) || !small(window)) return std::nullopt;
  list.scale = scale.convert_to<std::int64_t>();
  list.window_numerator = window.convert_to<std::int64_t>();
  list.window_weight = ref.window_count;
  Rational lo, hi;
  bool first = true;
  const auto extend = [&](const Rational& t) {
    if (first || t < lo) lo = t;
    if (first || t > hi) hi = t;
    first = false;
  };
  for (const auto& [v, t] : ref.counted) {
    const Rational scaled = t * Rational(scale);
    if (!small(numerator(scaled))) return std::nullopt;
    list.vars.push_back(v);
    list.a.push_back(numerator(scaled).convert_to<std::int64_t>());
    extend(t);
  }
  if (ref.window_count != 0) extend(ref.window_sum / Rational(Integer(ref.window_count)));
  list.range = {FastInterval::enclosing(lo).lo, FastInterval::enclosing(hi).hi};
  for (const std::int64_t a : list.a) list.stride = std::gcd(list.stride, a - list.a[0]);
  return list;
}

/// A group whose |f − g|∞ is a function of two scalars (theory.md "The value search", two parameters): no MLP, and
/// over every coordinate of each plan either two averages move, the values of each affine in one list of its items,
/// or one moves, its values affine in two lists; every other average constant. Parameter i is T_i = P_i/(L_i·N_w)
/// as in OneAverage, w its average's weight (one per moving average), and each coordinate of each plan is
/// C + β_0·T_0 + β_1·T_1 exactly.
struct TwoValues {
  struct Weight {
    std::vector<std::size_t> index;  // per box variable: its place in the average's variables, or kNotInAverage
    std::uint64_t window_weight = 0;
  };
  struct Parameter {
    std::size_t weight = 0;
    ScaledList list;
    /// When P is fixed by the weights' counts: λ_w per weight with a_v = Σ_w λ_w·[v in w] at every witness variable
    /// v, so that P = A_W + Σ_w λ_w·(N_w − w0_w) (a list whose a_v are all equal is one; `fixed_by_weights`).
    std::optional<std::vector<std::int64_t>> by_weights;
  };
  std::vector<Weight> weights;  // one or two
  std::array<Parameter, 2> parameters;
  std::vector<std::vector<PlaneLine>> lines;  // per plan, coordinate
  /// The witness's variables (the weights' variables, in increasing order) and its rows: each weight's Σ c_v and
  /// each parameter's Σ a_v c_v (equalities), each residue's Σ c_v over them (ranges; `range_residues` says which).
  std::vector<std::size_t> vars;
  std::vector<std::size_t> range_residues;
  std::optional<LinearWitness> witness;
  /// Per j, the witness with parameter j's sum a range instead of an equality (its row first among the ranges), for
  /// rectangles collapsed along j; nullopt where the reduction does not keep its integers small.
  std::array<std::optional<LinearWitness>, 2> ranged;
  std::vector<std::array<bool, 2>> moves_with;  // per coordinate: whether some plan's slope of T_i is nonzero there
};

/// An open rectangle of the search over two parameters, and the parameter it is collapsed along (kNotCollapsed: none).
struct OpenRectangle {
  std::array<FastInterval, 2> t;
  std::size_t free;
};
constexpr std::size_t kNotCollapsed = 2;

/// T = P/(L·N) of a candidate, `ln` = L·N (P and L·N exact as doubles): enclosed, and exactly.
FastInterval enclosed_ratio(std::int64_t p, double ln) {
  return FastInterval::point(static_cast<double>(p)) / FastInterval::point(ln);
}
Rational exact_ratio(std::int64_t p, double ln) {
  return Rational(Integer(p)) / Rational(Integer(static_cast<std::int64_t>(ln)));
}

/// ⌊x·n⌋ exactly, for a double x and an integer n exact as a double (|x·n| < 2^62): the product's enclosure decides
/// unless an integer lies in it, then exact rationals.
std::int64_t floor_product(double x, double n) {
  const FastInterval p = FastInterval::point(x) * FastInterval::point(n);
  if (std::floor(p.lo) == std::floor(p.hi)) return static_cast<std::int64_t>(std::floor(p.lo));
  const Rational q = Rational(x) * Rational(Integer(static_cast<std::int64_t>(n)));
  const Integer num = numerator(q), den = denominator(q);  // den > 0
  Integer rest = num % den;
  if (rest < 0) rest += den;
  return Integer((num - rest) / den).convert_to<std::int64_t>();
}
/// ⌈x·n⌉ exactly (as floor_product).
std::int64_t ceil_product(double x, double n) { return -floor_product(-x, n); }

/// Whether a way of searching a group is worth trying at length T: after one abandoned at a length, the next 2^k
/// lengths skip it (k abandoned in a row, at most 8), since neighbouring lengths cost alike.
class Backoff {
 public:
  bool at(std::uint64_t T) const { return T >= skip_until_; }
  void record(std::uint64_t T, bool abandoned) {
    in_a_row_ = abandoned ? std::min(in_a_row_ + 1, 8u) : 0;
    skip_until_ = abandoned ? T + (std::uint64_t{1} << in_a_row_) : 0;
  }

 private:
  std::uint64_t skip_until_ = 0;
  unsigned in_a_row_ = 0;
};

/// The bounds of one group, built once (the heads' top sets and values are the
/// group's, whatever the length): the box variables (the weighed classes,
/// residue by residue) and a certified upper bound of |f − g|∞ over a box.
class GroupBound {
 public:
  GroupBound(const OneLayerEvaluator& f, const OneLayerEvaluator& g, const Group& group, const BoxBoundTerms& terms)
      : group_(group), terms_(terms) {
    const Shape& shape = f.shape();
    var_of_.assign(shape.classes(), kWindowSlot);
    for (std::size_t r = 0; r < shape.period; ++r) {
      begin_.push_back(classes_.size());
      for (std::size_t c : group.weighed[r]) var_of_[c] = classes_.size(), classes_.push_back(c);
    }
    begin_.push_back(classes_.size());
    const auto& omega_f = f.model().readout.sin_omega;
    const auto& omega_g = g.model().readout.sin_omega;
    if (f.model().layers[0].mlp || g.model().layers[0].mlp) {
      plans_ = {plan(f), plan(g)};
    } else if (!omega_f && !omega_g) {
      linear_ = linear_plan(f, g, -1);
    } else if (omega_f && omega_g && *omega_f == *omega_g) {
      sin_ = SinPlan{linear_plan(f, g, -1), linear_plan(f, g, 1),
                     FastInterval::enclosing(*omega_f) * FastInterval::point(0.5), {}};
      sin_->sum_from_difference = terms_.shared_averages ? shared_averages(sin_->difference, sin_->sum)
                                                         : std::vector<SinPlan::Shared>(sin_->sum.averages.size());
    } else {
      plans_ = {plan(f), plan(g)};
    }
    one_ = find_one_average();
    two_ = find_two_values();
    one_valued_ = find_one_valued();
  }

  /// Variable v's class; residue r's variables are begin(r)..begin(r + 1) − 1.
  std::size_t class_of(std::size_t v) const { return classes_[v]; }
  std::size_t begin(std::size_t r) const { return begin_[r]; }
  bool has_exact_bound() const { return linear_.has_value(); }
  /// Whether f − g (identity readouts) or the pre-activations' difference u − v (sin readouts of one ω) is 0 at
  /// every coordinate and every statistic of the group: each |f − g|∞ is then the exact 0 (readout_distance).
  bool identically_zero() const {
    const LinearPlan* p = linear_ ? &*linear_ : sin_ ? &sin_->difference : nullptr;
    return p && std::all_of(p->vanishes.begin(), p->vanishes.end(), [](bool v) { return v; });
  }

  const BoxBoundTerms& terms() const { return terms_; }
  /// Whether |f − g|∞ is one Number at every statistic of the group, whatever the length (find_one_valued).
  bool one_valued() const { return one_valued_; }
  /// Whether a one-valued group's value was taken at an earlier length (it is then in the running maximum).
  bool value_taken() const { return value_taken_; }
  void take_value() { value_taken_ = true; }
  /// Whether the group's search is worth trying at length T (Backoff).
  bool search_at(std::uint64_t T) const { return boxes_.at(T); }
  void searched(std::uint64_t T, bool abandoned) { boxes_.record(T, abandoned); }
  /// Whether the value search applies to the group and is worth trying at length T, where the group has `fresh`
  /// fresh statistics: after one gave up or was abandoned, once `fresh` has doubled (its cost grows more slowly than
  /// the fresh statistics, against which it is abandoned).
  bool values_at(std::uint64_t T, std::uint64_t fresh) const {
    return (one_ || two_) && terms_.value_search && !identically_zero() && T < kValueLength && fresh >= values_retry_;
  }
  void values_searched(std::uint64_t fresh, bool abandoned) {
    values_retry_ = abandoned ? 2 * fresh : 0;
  }
  /// How a search goes at one length: by boxes of counts or by values, its cost cap, and whether it is a probe.
  struct Way {
    bool by_boxes = false;
    std::uint64_t cap = 0;
    bool probe = false;
  };
  /// For a TwoValues group, where the value search may cost more than boxes of counts: whether this length's search
  /// goes by boxes — the cheaper of the two as last measured, the other tried (a probe) each time the group's fresh
  /// statistics have doubled since the last such try (neighbouring lengths cost alike) — with the cap `fresh`, or for
  /// a probe twice the cheaper way's last cost (in the cap's units: a value search's steps other than evaluations
  /// count kValueStepShare times less in the cost), so that a probe costs at most about twice what the length costs
  /// the other way (uncapped, a probe by boxes on a tied sin pair bounded 176 512 boxes in each of four groups at
  /// length 784, past the per-length cap that ends the curve). Called where values_at holds.
  Way two_way(std::uint64_t fresh) {
    if (!two_ || two_cost_ == 0) return {false, fresh, false};
    const bool boxes_cheaper = box_cost_ != 0 && box_cost_ < two_cost_;
    if (fresh < probe_at_) return {boxes_cheaper, fresh, false};
    probe_at_ = 2 * fresh;
    const std::uint64_t cheaper = boxes_cheaper ? kValueStepShare * box_cost_ : two_cost_;
    return {!boxes_cheaper, std::min(fresh, 2 * cheaper), true};
  }
  /// A search's cost at this length, for two_way: the statistics it evaluated, kBoxCost a box bounded and
  /// 1/kValueStepShare of the value search's other steps; when the box search was abandoned, its cap and the walk.
  void record_cost(bool by_values, std::uint64_t cost) {
    if (two_) (by_values ? two_cost_ : box_cost_) = std::max<std::uint64_t>(cost, 1);
  }

  /// A certified upper bound of |f − g|∞ over the box (+inf when an enclosure is unbounded). With a SinPlan and a
  /// `cutoff`, computed only as far as it decides whether it lies below the cutoff (plan_bound): the same decision.
  double bound(const Box& box, double cutoff = kNoCutoff) {
    if (!linear_ && !sin_) return general_bound(box);
    if (linear_) return plan_bound([&](std::size_t, std::size_t k) { return affine_range(*linear_, k, box); });
    std::size_t at = coordinates();  // the coordinate whose two ranges `ranges` holds
    std::array<FastInterval, 2> ranges;
    return plan_bound([&](std::size_t plan, std::size_t k) {
      if (at != k) {
        ranges = sin_ranges(k, box);
        at = k;
      }
      return ranges[plan];
    }, cutoff);
  }

  /// The group's |f − g|∞ as a function of one scalar T (nullptr when it is not one).
  const OneAverage* one_average() const { return one_ ? &*one_ : nullptr; }
  /// A certified upper bound of |f − g|∞ over the statistics whose T lies in `t` (one_average() only; `cutoff` as in
  /// bound).
  double bound_at(const FastInterval& t, double cutoff = kNoCutoff) const {
    return plan_bound([&](std::size_t plan, std::size_t k) {
      const Line& line = one_->lines[plan][k];
      return line.c + line.s * t;
    }, cutoff);
  }
  /// The largest |f − g|∞ over T in [lo, hi], exactly (one_average() of a LinearPlan only: each coordinate is
  /// affine in T, its largest absolute value at an end).
  Rational exact_bound_at(const Rational& lo, const Rational& hi) const {
    Rational u = 0;
    for (std::size_t k = 0; k < one_->lines[0].size(); ++k) {
      const Line& line = one_->lines[0][k];
      for (const Rational* t : {&lo, &hi}) u = std::max(u, Rational(abs(line.constant + line.slope * *t)));
    }
    return u;
  }

  /// The group's |f − g|∞ as a function of two scalars (nullptr when it is not).
  const TwoValues* two_values() const { return two_ ? &*two_ : nullptr; }
  /// Each coordinate's range over the rectangle t, per plan (bound_at's).
  auto plane_range(const std::array<FastInterval, 2>& t) const {
    return [this, &t](std::size_t plan, std::size_t k) {
      const PlaneLine& line = two_->lines[plan][k];
      if (!terms_.second_parameter_term) return line.c + line.s[0] * t[0];  // the mutation
      return line.c + line.s[0] * t[0] + line.s[1] * t[1];
    };
  }
  /// A certified upper bound of |f − g|∞ over the statistics whose (T_0, T_1) lies in the rectangle t (two_values();
  /// `cutoff` as in bound).
  double bound_at(const std::array<FastInterval, 2>& t, double cutoff = kNoCutoff) const {
    return plan_bound(plane_range(t), cutoff);
  }
  /// Per parameter, whether some output coordinate whose own bound over the rectangle t `prunes` does not put below
  /// the floor moves with it (a nonzero slope in some plan): a rectangle where only one parameter moves such
  /// coordinates is searched over that one (theory.md, two parameters, "collapsed rectangles"). With a SinPlan and a
  /// `cutoff` (prunes(u) being u < cutoff), each coordinate's bound as plan_bound takes it: the same decisions.
  template <class Prunes>
  std::array<bool, 2> moving_parameters(const std::array<FastInterval, 2>& t, Prunes prunes, double cutoff) const {
    std::array<bool, 2> moves{false, false};
    const auto range = plane_range(t);
    const bool cut = sin_ && terms_.sin_bound_cutoff && cutoff != kNoCutoff;
    for (std::size_t k = 0; k < coordinates(); ++k) {
      if (vanishes(k)) continue;
      const double u = cut ? sin_coordinate_below(range, k, 0.0, cutoff) : coordinate_range(range, k);
      if (prunes(sin_ ? next_up(u + kSinMargin) : u)) continue;
      for (std::size_t i = 0; i < 2; ++i) moves[i] = moves[i] || two_->moves_with[k][i];
    }
    return moves;
  }
  /// The largest |f − g|∞ over the rectangle [lo_0, hi_0] × [lo_1, hi_1], exactly (two_values() of a LinearPlan only:
  /// each coordinate is affine, its largest absolute value at a corner).
  Rational exact_bound_at(const std::array<std::pair<Rational, Rational>, 2>& t) const {
    Rational u = 0;
    for (const PlaneLine& line : two_->lines[0])
      for (const Rational* t0 : {&t[0].first, &t[0].second})
        for (const Rational* t1 : {&t[1].first, &t[1].second})
          u = std::max(u, Rational(abs(line.constant + line.slope[0] * *t0 + line.slope[1] * *t1)));
    return u;
  }

  /// The same bound in exact arithmetic (LinearPlan only): taken when the enclosure's rounding alone may keep
  /// the bound above the floor, as where f − g is constant on the box and equal to it.
  Rational exact_bound(const Box& box) const {
    Rational u = 0;
    for (std::size_t k = 0; k < linear_->constant.size(); ++k) {
      Rational lo = linear_->constant[k], hi = lo;
      for (const Average& average : linear_->averages) {
        const auto [a, b] = exact_average_range(average[k], box, terms_.weight_extremes);
        lo += a;
        hi += b;
      }
      u = std::max({u, hi, Rational(-lo)});
    }
    return u;
  }

 private:
  /// One affine function of averages over the box, at output coordinate k: its constant plus each average's range.
  FastInterval affine_range(const LinearPlan& p, std::size_t k, const Box& box) const {
    FastInterval d = p.constant_enclosure[k];
    for (const Average& average : p.averages) d += average_range(average[k], box, terms_.weight_extremes);
    return d;
  }

  /// A SinPlan's u − v and u + v at output coordinate k over the box: affine_range of each, an average of the sum
  /// that is one of the difference's, or its negation, taking that one's range (SinPlan::sum_from_difference).
  std::array<FastInterval, 2> sin_ranges(std::size_t k, const Box& box) const {
    const std::size_t count = sin_->difference.averages.size();
    SmallBuffer<FastInterval, 8> of_difference(count);
    std::array<FastInterval, 2> d{sin_->difference.constant_enclosure[k], sin_->sum.constant_enclosure[k]};
    for (std::size_t i = 0; i < count; ++i) {
      of_difference[i] = average_range(sin_->difference.averages[i][k], box, terms_.weight_extremes);
      d[0] += of_difference[i];
    }
    for (std::size_t j = 0; j < sin_->sum.averages.size(); ++j) {
      const SinPlan::Shared shared = sin_->sum_from_difference[j];
      if (shared.sign == 0) {
        d[1] += average_range(sin_->sum.averages[j][k], box, terms_.weight_extremes);
        continue;
      }
      const FastInterval r = of_difference[shared.index];
      d[1] += shared.sign > 0 || !terms_.shared_negation ? r : FastInterval{-r.hi, -r.lo};
    }
    return d;
  }

  /// The bound of a LinearPlan or SinPlan from each coordinate's range: `range(0, k)` of f − g or of u − v, `range(1,
  /// k)` of u + v (+inf when an enclosure is unbounded). A SinPlan's, with a `cutoff`, is computed only as far as it
  /// decides whether the bound lies below the cutoff, which it does as the whole bound would (theory.md "The bounded
  /// curve"): the coordinates stop once one puts it at or above the cutoff (the rest can only raise it), and a
  /// coordinate whose sin factor alone keeps it below the cutoff takes 2·max|sin| (at least its 2·|cos|·|sin|, as
  /// rounded) without the cos factor. The value returned may then be larger than the whole bound, on the same side
  /// of the cutoff; only that side is used of a SinPlan's bound (prunes).
  template <class Range>
  double plan_bound(Range range, double cutoff = kNoCutoff) const {
    double u = 0;
    const bool cut = sin_ && terms_.sin_bound_cutoff && cutoff != kNoCutoff;
    for (std::size_t k = 0; k < coordinates(); ++k) {
      if (vanishes(k)) continue;  // u_k = v_k everywhere: f_k − g_k = 0
      u = std::max(u, cut ? sin_coordinate_below(range, k, u, cutoff) : coordinate_range(range, k));
      if (cut && !(next_up(u + kSinMargin) < cutoff)) break;  // decided: not below the cutoff
    }
    if (sin_) u = next_up(u + kSinMargin);
    return std::isfinite(u) ? u : std::numeric_limits<double>::infinity();
  }
  /// A SinPlan's coordinate k as plan_bound takes it under a cutoff (`u` the bound of the coordinates before): the
  /// sin factor's range first; when next_up(factor)·max|sin|, rounded up, keeps the bound below the cutoff (cos's
  /// range lies in [−1, 1], so the factor times it in [−next_up(factor), next_up(factor)], and each rounded product of
  /// the two ranges is at most that product rounded), that value; else coordinate_range's.
  template <class Range>
  double sin_coordinate_below(Range range, std::size_t k, double u, double cutoff) const {
    const double factor = terms_.sin_identity_factor ? 2 : 1;
    const FastInterval sin_factor = sin_range(sin_->half_omega * range(0, k));
    const double loose = next_up(next_up(factor) * std::max(-sin_factor.lo, sin_factor.hi));
    if (next_up(std::max(u, loose) + kSinMargin) < cutoff) return std::max(0.0, loose);
    const FastInterval d = FastInterval::point(factor) * cos_range(sin_->half_omega * range(1, k)) * sin_factor;
    return std::max({0.0, d.hi, -d.lo});
  }
  /// Output coordinate k's largest |f_k − g_k| by `range` (plan_bound's, before a sin plan's margin).
  template <class Range>
  double coordinate_range(Range range, std::size_t k) const {
    const FastInterval d = linear_ ? range(0, k)
                                   : FastInterval::point(terms_.sin_identity_factor ? 2 : 1) *
                                         cos_range(sin_->half_omega * range(1, k)) *
                                         sin_range(sin_->half_omega * range(0, k));
    return std::max({0.0, d.hi, -d.lo});
  }
  std::size_t coordinates() const { return linear_ ? linear_->constant.size() : sin_->difference.constant.size(); }
  bool vanishes(std::size_t k) const { return linear_ ? linear_->vanishes[k] : sin_->difference.vanishes[k]; }

  /// Whether the value searches leave output coordinate k out (find_one_average, find_two_values): f − g (identity
  /// readouts) or u − v (sin readouts of one ω) vanishes there, so each statistic's distance there is the exact 0
  /// (readout_distance) whatever the averages' values, and the bounds skip it (plan_bound). BoxBoundTerms::
  /// value_coordinates: `every` leaves none out; the mutation `not_constant` also leaves out a coordinate whose u − v
  /// is a nonzero constant.
  bool left_out(std::size_t k) const {
    using Coordinates = BoxBoundTerms::ValueCoordinates;
    const LinearPlan& first = linear_ ? *linear_ : sin_->difference;
    if (terms_.value_coordinates == Coordinates::every) return false;
    if (first.vanishes[k]) return true;
    if (terms_.value_coordinates != Coordinates::not_constant || !sin_) return false;
    return std::all_of(first.averages.begin(), first.averages.end(),
                       [&](const Average& average) { return constant_value(items_of(average[k])).has_value(); });
  }

  /// The LinearPlans: f − g, or u − v and u + v.
  std::vector<const LinearPlan*> linear_plans() const {
    if (linear_) return {&*linear_};
    if (sin_) return {&sin_->difference, &sin_->sum};
    return {};
  }

  /// The group's OneAverage, when |f − g|∞ is a function of one average's value: every other average constant at
  /// every coordinate of each plan that is not left out (`left_out`: with sin readouts u and v, hence the readouts'
  /// arguments there, are then functions of T; with identity readouts f − g is), the moving one affine in one list of
  /// values, its numbers small.
  std::optional<OneAverage> find_one_average() const {
    const std::vector<const LinearPlan*> plans = linear_plans();
    if (plans.empty()) return std::nullopt;
    std::optional<std::size_t> moving;
    Items ref;
    for (std::size_t j = 0; j < plans[0]->averages.size(); ++j)
      for (const LinearPlan* p : plans)
        for (std::size_t k = 0; k < p->averages[j].size(); ++k) {
          if (left_out(k)) continue;
          Items items = items_of(p->averages[j][k]);
          if (constant_value(items)) continue;
          if (moving && *moving != j) return std::nullopt;  // a second average moves
          if (!moving) moving = j, ref = std::move(items);
        }
    if (!moving) return std::nullopt;
    const std::optional<ScaledList> list = scaled_list(ref);
    if (!list) return std::nullopt;
    OneAverage one;
    one.index.assign(classes_.size(), kNotInAverage);
    for (std::size_t i = 0; i < list->vars.size(); ++i) one.index[list->vars[i]] = i;
    one.vars = list->vars;
    one.a = list->a;
    one.window_numerator = list->window_numerator;
    one.window_weight = list->window_weight;
    one.scale = list->scale;
    one.range = list->range;
    one.stride = list->stride;
    for (const LinearPlan* p : plans) {
      std::vector<Line>& lines = one.lines.emplace_back();
      for (std::size_t k = 0; k < p->constant.size(); ++k) {
        if (left_out(k)) {
          lines.push_back({Rational(0), Rational(0), FastInterval::point(0), FastInterval::point(0)});
          continue;
        }
        Rational constant = p->constant[k];
        for (std::size_t j = 0; j < p->averages.size(); ++j)
          if (j != *moving) constant += *constant_value(items_of(p->averages[j][k]));
        const auto fit = affine_in(ref, items_of(p->averages[*moving][k]));
        if (!fit) return std::nullopt;
        constant += fit->first;
        lines.push_back({constant, fit->second, FastInterval::enclosing(constant), FastInterval::enclosing(fit->second)});
      }
    }
    return one;
  }

  /// Per average, the lists of its items spanning its values at every coordinate of each plan that is not left out
  /// (affinely: a list is added when affine_fit in the earlier ones fails; none when the average is constant there);
  /// nullopt past two.
  std::optional<std::vector<std::vector<Items>>> average_bases(const std::vector<const LinearPlan*>& plans) const {
    std::vector<std::vector<Items>> bases(plans[0]->averages.size());
    for (std::size_t j = 0; j < bases.size(); ++j)
      for (const LinearPlan* p : plans)
        for (std::size_t k = 0; k < p->averages[j].size(); ++k) {
          if (left_out(k)) continue;
          Items items = items_of(p->averages[j][k]);
          if (bases[j].empty() ? constant_value(items).has_value() : affine_fit(bases[j], items).has_value()) continue;
          if (bases[j].size() == 2) return std::nullopt;
          bases[j].push_back(std::move(items));
        }
    return bases;
  }

  /// The group's TwoValues, when |f − g|∞ is a function of two parameters and not of one (find_one_average).
  std::optional<TwoValues> find_two_values() const {
    const std::vector<const LinearPlan*> plans = linear_plans();
    if (plans.empty() || one_ || !terms_.two_parameter_search) return std::nullopt;
    const auto bases = average_bases(plans);
    if (!bases) return std::nullopt;
    TwoValues two;
    std::vector<std::size_t> weight_of(bases->size(), kNotInAverage), first_parameter(bases->size(), 0);
    std::size_t parameters = 0;
    for (std::size_t j = 0; j < bases->size(); ++j) {
      if ((*bases)[j].empty()) continue;
      if (parameters + (*bases)[j].size() > 2) return std::nullopt;
      weight_of[j] = two.weights.size();
      first_parameter[j] = parameters;
      TwoValues::Weight& weight = two.weights.emplace_back();
      weight.index.assign(classes_.size(), kNotInAverage);
      for (const Items& list : (*bases)[j]) {
        std::optional<ScaledList> scaled = scaled_list(list);
        if (!scaled) return std::nullopt;
        two.parameters[parameters++] = {weight_of[j], std::move(*scaled), std::nullopt};
      }
      const ScaledList& first = two.parameters[first_parameter[j]].list;
      for (std::size_t i = 0; i < first.vars.size(); ++i) weight.index[first.vars[i]] = i;
      weight.window_weight = first.window_weight;
    }
    if (parameters != 2) return std::nullopt;
    if (two.weights.size() == 2 && two.weights[0].index == two.weights[1].index &&
        two.weights[0].window_weight == two.weights[1].window_weight) {  // two heads of one top set: one N
      two.weights.pop_back();
      two.parameters[1].weight = 0;
    }
    for (const LinearPlan* p : plans) {
      std::vector<PlaneLine>& lines = two.lines.emplace_back();
      for (std::size_t k = 0; k < p->constant.size(); ++k) {
        PlaneLine line{left_out(k) ? Rational(0) : p->constant[k], {Rational(0), Rational(0)}, {}, {}};
        if (left_out(k)) {
          line.c = line.s[0] = line.s[1] = FastInterval::point(0);
          lines.push_back(std::move(line));
          continue;
        }
        for (std::size_t j = 0; j < bases->size(); ++j) {
          const Items items = items_of(p->averages[j][k]);
          if (weight_of[j] == kNotInAverage) {
            line.constant += *constant_value(items);
            continue;
          }
          const auto fit = affine_fit((*bases)[j], items);
          if (!fit) return std::nullopt;
          line.constant += (*fit)[0];
          for (std::size_t b = 1; b < fit->size(); ++b) line.slope[first_parameter[j] + b - 1] = (*fit)[b];
        }
        line.c = FastInterval::enclosing(line.constant);
        for (std::size_t i = 0; i < 2; ++i) line.s[i] = FastInterval::enclosing(line.slope[i]);
        lines.push_back(std::move(line));
      }
    }
    return with_witness(std::move(two));
  }

  /// `two` with its witness (TwoValues::witness), or nullopt when the rows' reduction does not keep its integers small
  /// (LinearWitness throws).
  std::optional<TwoValues> with_witness(TwoValues two) const {
    for (std::size_t v = 0; v < classes_.size(); ++v)
      if (std::any_of(two.weights.begin(), two.weights.end(), [&](const auto& w) { return w.index[v] != kNotInAverage; }))
        two.vars.push_back(v);
    std::vector<LinearWitness::Row> equalities, ranges;
    for (const TwoValues::Weight& weight : two.weights) {
      auto& row = equalities.emplace_back();
      for (const std::size_t v : two.vars) row.push_back(weight.index[v] != kNotInAverage ? 1 : 0);
    }
    for (const TwoValues::Parameter& parameter : two.parameters) {
      const TwoValues::Weight& weight = two.weights[parameter.weight];
      auto& row = equalities.emplace_back();
      for (const std::size_t v : two.vars)
        row.push_back(weight.index[v] != kNotInAverage ? parameter.list.a[weight.index[v]] : 0);
    }
    for (std::size_t r = 0; r + 1 < begin_.size(); ++r) {
      LinearWitness::Row row;
      for (const std::size_t v : two.vars) row.push_back(begin_[r] <= v && v < begin_[r + 1] ? 1 : 0);
      if (std::all_of(row.begin(), row.end(), [](std::int64_t c) { return c == 0; })) continue;
      ranges.push_back(std::move(row));
      two.range_residues.push_back(r);
    }
    for (std::size_t j = 0; j < 2 && terms_.collapsed_rectangles; ++j) {  // parameter j's row a range, first
      std::vector<LinearWitness::Row> kept = equalities, moved = ranges;
      moved.insert(moved.begin(), kept[two.weights.size() + j]);
      kept.erase(kept.begin() + static_cast<std::ptrdiff_t>(two.weights.size() + j));
      try {
        two.ranged[j].emplace(std::move(kept), std::move(moved));
      } catch (const std::overflow_error&) {
      }
    }
    try {
      two.witness.emplace(std::move(equalities), std::move(ranges));
    } catch (const std::overflow_error&) {
      return std::nullopt;
    }
    for (std::size_t k = 0; k < two.lines[0].size(); ++k) {
      std::array<bool, 2>& moves = two.moves_with.emplace_back();
      for (const auto& lines : two.lines)
        for (std::size_t i = 0; i < 2; ++i) moves[i] = moves[i] || lines[k].slope[i] != 0;
    }
    if (terms_.fixed_parameters)
      for (TwoValues::Parameter& parameter : two.parameters)
        parameter.by_weights = fixed_by_weights(two, parameter, terms_.fixed_parameters_checked);
    return two;
  }

  /// λ_w per weight with a_v = Σ_w λ_w·[v weighed by w] at every witness variable v (a_v = 0 outside the parameter's
  /// weight), when there are such: P − A_W = Σ_w λ_w·(N_w − w0_w) at every statistic. With one or two weights, λ_w is
  /// a_v at a variable of w alone, else (w's variables all shared) a_v less the other's λ; then checked at each v
  /// (unless `checked` is false: the mutation BoxBoundTerms::fixed_parameters_checked).
  static std::optional<std::vector<std::int64_t>> fixed_by_weights(const TwoValues& two,
                                                                   const TwoValues::Parameter& parameter, bool checked) {
    const auto in = [&](std::size_t w, std::size_t v) { return two.weights[w].index[v] != kNotInAverage; };
    const auto a = [&](std::size_t v) {
      const std::size_t i = two.weights[parameter.weight].index[v];
      return i == kNotInAverage ? std::int64_t{0} : parameter.list.a[i];
    };
    const std::size_t weights = two.weights.size();
    std::vector<std::optional<std::int64_t>> lambda(weights);
    for (const std::size_t v : two.vars)
      for (std::size_t w = 0; w < weights; ++w)
        if (in(w, v) && (weights == 1 || !in(1 - w, v))) lambda[w] = a(v);
    for (const std::size_t v : two.vars)
      for (std::size_t w = 0; w < weights; ++w)
        if (!lambda[w] && in(w, v)) lambda[w] = a(v) - lambda[1 - w].value_or(0);
    std::vector<std::int64_t> result;
    for (const auto& l : lambda) result.push_back(l.value_or(0));
    if (!checked) return result;  // the mutation
    for (const std::size_t v : two.vars) {
      std::int64_t sum = 0;
      for (std::size_t w = 0; w < weights; ++w)
        if (in(w, v)) sum += result[w];
      if (sum != a(v)) return std::nullopt;
    }
    return result;
  }

  /// Whether |f − g|∞ is one Number at every statistic of the group, whatever the length (theory.md "The bounded
  /// curve", one-valued groups): without an MLP, at each output coordinate either f − g (identity readouts) or u − v
  /// (sin readouts of one ω) vanishes — readout_distance's exact 0 there — or every average of f − g, or of both u − v
  /// and u + v, is constant, so that the readouts' arguments there are the same rationals at every statistic.
  bool find_one_valued() const {
    const LinearPlan* first = linear_ ? &*linear_ : sin_ ? &sin_->difference : nullptr;
    if (!first || !terms_.one_valued_groups) return false;
    std::vector<const LinearPlan*> plans{first};
    if (sin_ && terms_.one_valued_sum) plans.push_back(&sin_->sum);
    for (std::size_t k = 0; k < first->constant.size(); ++k) {
      if (first->vanishes[k]) continue;
      for (const LinearPlan* p : plans)
        for (const Average& average : p->averages)
          if (!constant_value(items_of(average[k]))) return false;
    }
    return true;
  }
  /// With an MLP (or one sin readout, or sin readouts of two frequencies): each model's output enclosed over the box,
  /// then f − g.
  double general_bound(const Box& box) {
    for (std::size_t i = 0; i < 2; ++i) {
      const ModelPlan& p = plans_[i];
      residual_ = p.base;
      for (const Average& average : p.averages)
        for (std::size_t k = 0; k < average.size(); ++k)
          residual_[k] += average_range(average[k], box, terms_.weight_extremes);
      if (!p.model->enclose_after_attention(residual_, out_[i])) return std::numeric_limits<double>::infinity();
    }
    double u = 0;  // the outputs have one size (bounded_curve_applies)
    for (std::size_t k = 0; k < out_[0].size(); ++k) {
      const FastInterval d = out_[0][k] - out_[1][k];
      u = std::max({u, d.hi, -d.lo});
    }
    return u;
  }

  /// One head's items at this group: the value vectors V_h(E_s + p_r) of its top classes and window slots, and the
  /// variable that weighs each.
  struct HeadItems {
    HeadTop top;
    std::vector<QVector> values;
    std::vector<std::size_t> vars;
  };
  HeadItems head_items(const OneLayerEvaluator& m, std::size_t h) const {
    const Statistic& rep = group_.representative;
    HeadItems items{m.top(h, rep), {}, {}};
    for (std::size_t c : items.top.classes)
      items.values.push_back(m.class_value(h, c)), items.vars.push_back(var_of_[c]);
    for (std::size_t t : items.top.window_slots)
      items.values.push_back(m.class_value(h, m.window_class(rep, t))), items.vars.push_back(kWindowSlot);
    return items;
  }

  /// The residual after the attention with the heads that weigh one value added: the query embedding plus theirs;
  /// the other heads' items in `averaged`.
  QVector fixed_residual(const OneLayerEvaluator& m, std::vector<HeadItems>& averaged) const {
    const Statistic& rep = group_.representative;
    QVector base = m.class_embedding(m.window_class(rep, 0));
    for (std::size_t h = 0; h < m.heads(); ++h) {
      HeadItems items = head_items(m, h);
      if (const QVector* v = m.single_value(h, rep, items.top)) {
        for (std::size_t k = 0; k < base.size(); ++k) base[k] += (*v)[k];
        continue;
      }
      averaged.push_back(std::move(items));
    }
    return base;
  }

  ModelPlan plan(const OneLayerEvaluator& m) const {
    ModelPlan p;
    p.model = &m;
    std::vector<HeadItems> averaged;
    for (const Rational& b : fixed_residual(m, averaged)) p.base.push_back(FastInterval::enclosing(b));
    for (const HeadItems& items : averaged) p.averages.push_back(sorted_terms(items.values, items.vars));
    return p;
  }

  /// The readouts' pre-activations of f and g without an MLP, combined as u_f + sign·u_g (sign ±1: f − g itself
  /// for identity readouts), as a constant plus averages (LinearPlan).
  LinearPlan linear_plan(const OneLayerEvaluator& f, const OneLayerEvaluator& g, int sign) const {
    LinearPlan p;
    std::vector<HeadItems> of_f, of_g;
    const auto readout = [](const OneLayerEvaluator& m, const QVector& y) {
      QVector out = apply<Rational>(m.model().readout.weights, y);
      for (std::size_t k = 0; k < out.size(); ++k) out[k] += m.model().readout.bias[k];
      return out;
    };
    const auto read_values = [](const OneLayerEvaluator& m, std::vector<QVector> values) {
      for (QVector& v : values) v = apply<Rational>(m.model().readout.weights, v);
      return values;
    };
    const QVector yf = readout(f, fixed_residual(f, of_f)), yg = readout(g, fixed_residual(g, of_g));
    for (std::size_t k = 0; k < yf.size(); ++k) {
      p.constant.push_back(yf[k] + sign * yg[k]);
      p.constant_enclosure.push_back(FastInterval::enclosing(p.constant.back()));
    }
    std::vector<bool> paired(of_g.size(), false);
    for (const HeadItems& a : of_f) {
      std::vector<QVector> values = read_values(f, a.values);
      for (std::size_t j = 0; j < of_g.size(); ++j) {
        const HeadItems& b = of_g[j];
        if (paired[j] || a.top.classes != b.top.classes || a.top.window_slots != b.top.window_slots) continue;
        paired[j] = true;  // the same weights: one average of R_f V_f ± R_g V_g
        const std::vector<QVector> combined = read_values(g, b.values);
        for (std::size_t i = 0; i < values.size(); ++i)
          for (std::size_t k = 0; k < values[i].size(); ++k) values[i][k] += sign * combined[i][k];
        break;
      }
      p.averages.push_back(sorted_terms(values, a.vars));
    }
    for (std::size_t j = 0; j < of_g.size(); ++j) {
      if (paired[j]) continue;
      std::vector<QVector> values = read_values(g, of_g[j].values);
      for (QVector& v : values)
        for (Rational& x : v) x *= sign;
      p.averages.push_back(sorted_terms(values, of_g[j].vars));
    }
    for (std::size_t k = 0; k < p.constant.size(); ++k) {
      bool zero = p.constant[k] == 0;
      for (const Average& average : p.averages)
        for (const Term& t : average[k]) zero = zero && t.exact == 0;
      p.vanishes.push_back(zero);
    }
    return p;
  }

  const Group& group_;
  BoxBoundTerms terms_;
  std::vector<std::size_t> classes_, begin_, var_of_;  // variable → class; residue → first variable; class → variable
  std::vector<ModelPlan> plans_;      // otherwise (an MLP, ...): each model's output bounded, then f − g
  std::optional<LinearPlan> linear_;  // identity readouts, no MLP: f − g as one affine function of averages
  std::optional<SinPlan> sin_;        // sin readouts of one frequency, no MLP
  std::optional<OneAverage> one_;     // |f − g|∞ a function of one average's value
  std::optional<TwoValues> two_;      // |f − g|∞ a function of two parameters
  bool one_valued_ = false;           // |f − g|∞ one Number at every statistic
  std::vector<FastInterval> residual_, out_[2];
  Backoff boxes_;
  std::uint64_t values_retry_ = 0;
  std::uint64_t two_cost_ = 0, box_cost_ = 0, probe_at_ = 0;  // two_way
  bool value_taken_ = false;
};

/// Branch and bound over the fresh reduced statistics of one group at one
/// length (the same statistics GroupWalk visits in reduced_distance.cpp):
/// evaluates, into `fold`, every statistic of a box that the bound does not
/// put at or below the floor (the maximum over the shorter lengths, raised by
/// what the group finds).
class GroupSearch {
 public:
  /// `floor`: the lower end of D(n − 1) (its value when `exact`).
  GroupSearch(const Shape& shape, const Group& group, GroupBound& bound, std::uint64_t T, detail::DistanceFold& fold,
              std::uint64_t first_ordinal, const std::optional<Rational>& floor, bool exact)
      : shape_(shape), group_(group), bound_(bound), fold_(fold), ordinal_(first_ordinal), exact_(exact) {
    const std::uint64_t bulk = bulk_length(T, shape_.locality);
    for (std::size_t r = 0; r < shape_.period; ++r) m_.push_back(residue_count(bulk, shape_.period, r));
    sigma_.length = T;
    sigma_.window = group.window;
    sigma_.counts.assign(shape_.classes(), 0);
    if (floor) raise_floor(*floor);
  }

  /// Searches every fresh statistic: per residue the weighed counts are >= 1
  /// and sum to m_r without absorbers, else to s_r in [u_r, m_r − a_r]; when
  /// every residue has absorbers some residue is tight (s_r = m_r − a_r), the
  /// first tight one r* splitting the search. By boxes of counts, or with
  /// `by_values` by the values of the group's one average (throws
  /// ValuesAbandoned when that gives up).
  /// What is left of the cost cap (after run).
  std::uint64_t work_left() const { return work_left_; }

  void run(std::uint64_t& boxes, std::uint64_t& pruned, std::uint64_t work_cap, bool by_values = false) {
    boxes_ = &boxes;
    pruned_ = &pruned;
    work_left_ = work_cap;
    by_values_ = by_values;
    bool all_absorbing = true;
    for (std::size_t r = 0; r < shape_.period; ++r) all_absorbing = all_absorbing && !group_.absorbers[r].empty();
    if (!all_absorbing) return search_with(std::nullopt);
    for (std::size_t first_tight = 0; first_tight < shape_.period; ++first_tight) search_with(first_tight);
  }

 private:
  void raise_floor(const Rational& q) {
    if (floor_ && *floor_ >= q) return;
    floor_ = q;
    floor_below_ = double_below(q);
  }

  /// The root box: with `first_tight`, every residue before it not tight (s_r < m_r − a_r), that one tight and the
  /// rest free; without, every residue free.
  void search_with(std::optional<std::size_t> first_tight) {
    sum_lo_.assign(shape_.period, 0);
    sum_hi_.assign(shape_.period, 0);
    Box box;
    for (std::size_t r = 0; r < shape_.period; ++r) {
      const std::uint64_t u = group_.weighed[r].size(), a = group_.absorbers[r].size();
      if (a == 0) {
        sum_lo_[r] = sum_hi_[r] = m_[r];
      } else {
        const std::uint64_t top = m_[r] - a;  // the sum that leaves each absorber 1 (>= u: the group fits)
        sum_lo_[r] = u;
        sum_hi_[r] = u == 0 ? 0 : top;
        const bool tight_possible = u != 0 || top == 0, slack_possible = u != 0 ? top > u : top != 0;
        if (first_tight && r < *first_tight) {
          if (!slack_possible) return;
          if (u != 0) sum_hi_[r] = top - 1;
        } else if (first_tight && r == *first_tight) {
          if (!tight_possible) return;
          sum_lo_[r] = sum_hi_[r];
        }
      }
      for (std::size_t v = bound_.begin(r); v < bound_.begin(r + 1); ++v) {
        box.lo.push_back(1);
        box.hi.push_back(m_[r]);
      }
    }
    if (by_values_) return bound_.one_average() ? search_values(box) : search_two_values(box);
    search(box);
  }

  /// Narrows each count to what the sums allow; false when the box holds no statistic.
  bool tighten(Box& box) const {
    for (bool changed = true; changed;) {
      changed = false;
      for (std::size_t r = 0; r < shape_.period; ++r) {
        std::uint64_t low = 0, high = 0;
        for (std::size_t v = bound_.begin(r); v < bound_.begin(r + 1); ++v) low += box.lo[v], high += box.hi[v];
        if (low > sum_hi_[r] || high < sum_lo_[r]) return false;
        for (std::size_t v = bound_.begin(r); v < bound_.begin(r + 1); ++v) {
          const std::uint64_t others_high = high - box.hi[v], others_low = low - box.lo[v];
          const std::uint64_t lo = std::max(box.lo[v], sum_lo_[r] > others_high ? sum_lo_[r] - others_high : 0);
          const std::uint64_t hi = std::min(box.hi[v], sum_hi_[r] - others_low);
          if (lo > hi) return false;
          if (lo != box.lo[v] || hi != box.hi[v]) changed = true;
          box.lo[v] = lo;
          box.hi[v] = hi;
        }
      }
    }
    return true;
  }

  void search(Box& box) {
    if (!tighten(box)) return;
    std::uint64_t points = 1;
    std::size_t widest = 0;
    for (std::size_t v = 0; v < box.lo.size(); ++v) {
      const std::uint64_t n = box.hi[v] - box.lo[v] + 1;
      points = detail::saturating_mul(points, n);
      if (n > box.hi[widest] - box.lo[widest] + 1) widest = v;
    }
    if (points <= kLeafStatistics) {
      evaluate_all(box, 0);
      if (const auto best = fold_.best_lower()) raise_floor(*best);  // once per leaf: a GMP number
      return;
    }
    ++*boxes_;
    spend(kBoxCost);
    if (below_floor(box)) {
      ++*pruned_;
      return;
    }
    const std::uint64_t mid = box.lo[widest] + (box.hi[widest] - box.lo[widest]) / 2;
    Box upper = box;
    box.hi[widest] = mid;
    upper.lo[widest] = mid + 1;
    search(box);
    search(upper);
  }

  /// Whether no statistic of the box can change the maximum, by the bounds: with exact distances, none is above the
  /// floor; with enclosures (a sin readout), every one is certainly below the floor, the lower end of the maximum
  /// so far (theory.md "The bounded curve": neither end of the maximum nor the argmax then moves).
  bool below_floor(const Box& box) {
    if (!floor_) return false;
    if (bound_.identically_zero()) return true;  // each distance the exact 0, at most the floor: nothing moves
    const double u = bound_.bound(box, cutoff());
    if (prunes(u)) return true;
    return bound_.has_exact_bound() && near_floor(u) && bound_.exact_bound(box) <= *floor_;
  }

  /// Whether a bound `u` puts every statistic it covers at or below the floor (exact distances), or certainly below
  /// it (enclosures): the test below_floor applies to a box.
  bool prunes(double u) const { return exact_ ? u <= floor_below_ : u < floor_below_; }
  /// The cutoff a SinPlan's bound is computed against (plan_bound): with enclosures, prunes(u) is u < the floor's
  /// double; with exact distances (or before a floor) none.
  double cutoff() const { return floor_ && !exact_ ? floor_below_ : kNoCutoff; }
  /// Whether `u` is so near the floor that rounding alone may keep it above (far above any rounding of the bound):
  /// then a LinearPlan's bound is taken exactly.
  bool near_floor(double u) const { return u <= floor_below_ + 1e-9 * (1 + floor_below_); }
  /// The same for the statistics of some values of T (or of (T_0, T_1)) whose bound is `u`, with the exact test of a
  /// LinearPlan where rounding alone may keep the bound above the floor (`exact()`: the exact bound there).
  template <class Exact>
  bool prunes_values(double u, Exact exact) const {
    if (prunes(u)) return true;
    return exact_ && bound_.has_exact_bound() && near_floor(u) && exact() <= *floor_;
  }

  /// The value search (theory.md "The bounded curve"): |f − g|∞ is a function of T = P/(L·N) alone (OneAverage).
  /// The intervals of T on which the bound may exceed the floor are found by bisection; for each N the box allows,
  /// each integer P with P/(L·N) in one of them whose own bound does not put it below the floor is a candidate; for
  /// each candidate one statistic of the box with that (N, P), if any, is evaluated. Every other statistic has the
  /// value of an evaluated one (the same T) or lies below the floor.
  void search_values(Box& root) {
    if (!tighten(root)) return;
    const OneAverage& one = *bound_.one_average();
    const std::uint64_t w0 = terms_window_weight(one);
    value_ranges(root, one);
    const auto [n_lo, n_hi] = average_weight_range(root, one.index);
    if (n_lo > n_hi) return;
    if (n_hi + w0 >= kValueLength || n_hi + w0 == 0) throw ValuesAbandoned{};  // L·N < 2^50, |P| < 2^50; N > 0
    const double width = bisection_width(one.scale, one.stride, n_hi - n_lo + 1, n_hi + w0, 16);
    const std::vector<FastInterval> open = open_intervals(one.range, width);
    for (std::uint64_t counted = n_lo; counted <= n_hi; ++counted) {
      const double ln = static_cast<double>(one.scale) * static_cast<double>(counted + w0);  // L·N, exact
      // Σ n_c a_c = a_0·Σ n_c + Σ n_c (a_c − a_0): P ≡ a_0·(N − w0) + A_W modulo the a's differences' gcd.
      const std::int64_t residue = one.a[0] * static_cast<std::int64_t>(counted) + one.window_numerator;
      for (const FastInterval& t : open) {
        spend(1);
        each_p(t, ln, residue, one.stride, [&](std::int64_t p) { candidate(root, one, counted, p, ln); });
      }
    }
  }

  /// Each integer P with P/(L·N) in t (`ln` = L·N) and P ≡ residue modulo `stride` (P = residue when it is 0).
  template <class Take>
  void each_p(const FastInterval& t, double ln, std::int64_t residue, std::int64_t stride, Take take) const {
    const double p_lo = std::ceil((FastInterval::point(t.lo) * FastInterval::point(ln)).lo);
    const double p_hi = std::floor((FastInterval::point(t.hi) * FastInterval::point(ln)).hi);
    const double cut = bound_.terms().value_interval_ends ? 0 : 1;  // the mutation: both ends left out
    const auto first = static_cast<std::int64_t>(p_lo + cut), last = static_cast<std::int64_t>(p_hi - cut);
    if (stride == 0) {  // one a: P = a_0·(N − w0) + A_W
      if (first <= residue && residue <= last) take(residue);
      return;
    }
    const std::int64_t start = first + (((residue - first) % stride) + stride) % stride;
    for (std::int64_t p = start; p <= last; p += stride) take(p);
  }

  /// The value search over two parameters (theory.md "The value search", two parameters): as search_values, over
  /// rectangles of (T_0, T_1) and candidates (N's, P_0, P_1), each witness found by the TwoValues' LinearWitness.
  void search_two_values(Box& root) {
    if (!tighten(root)) return;
    const TwoValues& two = *bound_.two_values();
    std::array<std::uint64_t, 2> n_lo{0, 0}, n_hi{0, 0}, w0{0, 0};
    for (std::size_t w = 0; w < two.weights.size(); ++w) {
      w0[w] = bound_.terms().value_window_weight ? two.weights[w].window_weight : 0;
      std::tie(n_lo[w], n_hi[w]) = average_weight_range(root, two.weights[w].index);
      if (n_lo[w] > n_hi[w]) return;
      if (n_hi[w] + w0[w] >= kValueLength || n_hi[w] + w0[w] == 0) throw ValuesAbandoned{};
    }
    const bool shared = two.weights.size() == 1;
    if (two.parameters[0].by_weights && two.parameters[1].by_weights) {
      witness_bounds(root, two);
      return search_fixed(root, two, n_lo, shared ? std::array<std::uint64_t, 2>{n_hi[0], 0} : n_hi, w0);
    }
    std::array<FastInterval, 2> range;
    std::array<double, 2> spacing;  // of the candidates' T_i at the largest N
    for (std::size_t i = 0; i < 2; ++i) {
      const TwoValues::Parameter& parameter = two.parameters[i];
      const std::size_t w = parameter.weight;
      range[i] = parameter.list.range;
      spacing[i] = static_cast<double>(std::max<std::int64_t>(parameter.list.stride, 1)) /
                   (static_cast<double>(parameter.list.scale) * static_cast<double>(n_hi[w] + w0[w]));
    }
    double pairs = static_cast<double>(n_hi[0] - n_lo[0] + 1);
    if (!shared) pairs *= static_cast<double>(n_hi[1] - n_lo[1] + 1);
    const std::array<bool, 2> fixed{two.parameters[0].by_weights.has_value(), two.parameters[1].by_weights.has_value()};
    const std::array<bool, 2> collapsible{!fixed[0] && two.ranged[0].has_value(), !fixed[1] && two.ranged[1].has_value()};
    const std::vector<OpenRectangle> open = open_rectangles(range, spacing, fixed, collapsible, pairs);
    if (open.empty()) return;  // every statistic below the floor
    witness_bounds(root, two);
    // Where the averages differ and parameter 0 is not fixed by the N's, it moves with N_0 alone: its values of P_0
    // in each rectangle are listed once per N_0, and a rectangle with none is passed over at every N_1 (the same
    // candidates, in the same order, at the same cost to the search's cap as when each is looked at).
    const bool first_alone = !shared && !fixed[0] && two.parameters[0].weight == 0;
    std::vector<std::vector<std::int64_t>> first_values(open.size());  // per rectangle, when first_alone
    const auto lists_first = [&](const OpenRectangle& r) { return r.free == kNotCollapsed || r.free == 1; };
    std::array<std::uint64_t, 2> counted{};
    for (counted[0] = n_lo[0]; counted[0] <= n_hi[0]; ++counted[0]) {
      if (first_alone) {
        const ParameterAt at = parameter_at(two, 0, counted, w0);
        for (std::size_t k = 0; k < open.size(); ++k) {
          first_values[k].clear();
          if (lists_first(open[k]))
            each_p(open[k].t[0], at.ln, at.residue, at.stride, [&](std::int64_t p) { first_values[k].push_back(p); });
        }
      }
      for (counted[1] = shared ? 0 : n_lo[1]; counted[1] <= (shared ? 0 : n_hi[1]); ++counted[1]) {
        spend(1);
        const std::array<ParameterAt, 2> at{parameter_at(two, 0, counted, w0), parameter_at(two, 1, counted, w0)};
        const std::array<double, 2> ln{at[0].ln, at[1].ln};
        std::uint64_t passed = 0;  // rectangles passed over since the last one looked at: one unit of the cap each
        for (std::size_t k = 0; k < open.size(); ++k) {
          const OpenRectangle& r = open[k];
          if (first_alone && lists_first(r) && first_values[k].empty()) {
            ++passed;
            continue;
          }
          spend_each(passed + 1);
          passed = 0;
          const std::array<FastInterval, 2>& t = r.t;
          if (r.free != kNotCollapsed) {
            const std::size_t i = 1 - r.free;
            const auto take = [&](std::int64_t p) { collapsed_candidate(root, two, counted, i, p, ln, t[r.free]); };
            if (first_alone && i == 0)
              for (const std::int64_t p : first_values[k]) take(p);
            else
              each_p(t[i], ln[i], at[i].residue, at[i].stride, take);
            continue;
          }
          const auto take_first = [&](std::int64_t p0) {
            each_p(t[1], ln[1], at[1].residue, at[1].stride,
                   [&](std::int64_t p1) { plane_candidate(root, two, counted, {p0, p1}, ln); });
          };
          if (first_alone)
            for (const std::int64_t p0 : first_values[k]) take_first(p0);
          else
            each_p(t[0], ln[0], at[0].residue, at[0].stride, take_first);
        }
        spend_each(passed);
      }
    }
  }

  /// Parameter i at given counted weights Σ c_v of the averages (`counted`, w0 their window slots): L_i·N_i (exact),
  /// and the congruence of P_i (P_i ≡ residue modulo stride), or its one value (stride 0) when it is fixed by the N's.
  struct ParameterAt {
    double ln = 0;
    std::int64_t residue = 0, stride = 0;
  };
  static ParameterAt parameter_at(const TwoValues& two, std::size_t i, const std::array<std::uint64_t, 2>& counted,
                                  const std::array<std::uint64_t, 2>& w0) {
    const TwoValues::Parameter& parameter = two.parameters[i];
    const ScaledList& list = parameter.list;
    const std::size_t w = parameter.weight;
    ParameterAt at{static_cast<double>(list.scale) * static_cast<double>(counted[w] + w0[w]),
                   list.a[0] * static_cast<std::int64_t>(counted[w]) + list.window_numerator, list.stride};
    if (parameter.by_weights) {  // P = A_W + Σ_w λ_w·(N_w − w0_w)
      at.residue = list.window_numerator;
      for (std::size_t u = 0; u < two.weights.size(); ++u)
        at.residue += (*parameter.by_weights)[u] * static_cast<std::int64_t>(counted[u]);
      at.stride = 0;
    }
    return at;
  }

  /// Both parameters fixed by the N's: each value of the N's is one candidate point (T_0, T_1). A box of the N's values
  /// (from `lo` to `hi`) is skipped when the bound over the rectangle its corners span puts it below the floor — each
  /// T_i = (A_W + Σ_w λ_w·n_w)/(L_i·(n_{w_i} + w0)) moves monotonically with each n_w when the others are fixed, so
  /// over the box it lies between its least and largest value at the corners — else halved along its wider side
  /// while it holds more than two values; the values of the rest are the candidates.
  void search_fixed(const Box& root, const TwoValues& two, const std::array<std::uint64_t, 2>& lo,
                    const std::array<std::uint64_t, 2>& hi, const std::array<std::uint64_t, 2>& w0) {
    using Values = std::array<std::array<std::uint64_t, 2>, 2>;  // lo, hi
    std::vector<Values> stack{{lo, hi}};
    while (!stack.empty()) {
      const Values box = stack.back();
      stack.pop_back();
      const std::array<std::uint64_t, 2> sides{box[1][0] - box[0][0] + 1, box[1][1] - box[0][1] + 1};
      if (sides[0] * sides[1] > 2) {
        spend(1);
        if (fixed_box_below_floor(two, box, w0)) continue;
        const std::size_t d = sides[0] >= sides[1] ? 0 : 1;
        const std::uint64_t mid = box[0][d] + (box[1][d] - box[0][d]) / 2;
        Values lower = box, upper = box;
        lower[1][d] = mid;
        upper[0][d] = mid + 1;
        stack.push_back(upper);
        stack.push_back(lower);
        continue;
      }
      std::array<std::uint64_t, 2> counted{};
      for (counted[0] = box[0][0]; counted[0] <= box[1][0]; ++counted[0])
        for (counted[1] = box[0][1]; counted[1] <= box[1][1]; ++counted[1]) {
          spend(1);
          const std::array<ParameterAt, 2> at{parameter_at(two, 0, counted, w0), parameter_at(two, 1, counted, w0)};
          plane_candidate(root, two, counted, {at[0].residue, at[1].residue}, {at[0].ln, at[1].ln});
        }
    }
  }

  /// Whether the bound over the rectangle spanned by the corners of a box of the N's values puts it below the floor.
  bool fixed_box_below_floor(const TwoValues& two, const std::array<std::array<std::uint64_t, 2>, 2>& box,
                             const std::array<std::uint64_t, 2>& w0) const {
    std::array<std::array<ParameterAt, 2>, 4> at;  // per corner, per parameter
    std::size_t corner = 0;
    for (const std::uint64_t n0 : {box[0][0], box[1][0]})
      for (const std::uint64_t n1 : {box[0][1], box[1][1]})
        at[corner++] = {parameter_at(two, 0, {n0, n1}, w0), parameter_at(two, 1, {n0, n1}, w0)};
    std::array<FastInterval, 2> t;
    const std::size_t corners = bound_.terms().fixed_box_corners ? at.size() : 1;  // the mutation: the least N's only
    for (std::size_t i = 0; i < 2; ++i)
      for (std::size_t c = 0; c < corners; ++c) {
        const FastInterval v = enclosed_ratio(at[c][i].residue, at[c][i].ln);
        t[i] = c == 0 ? v : FastInterval{std::min(t[i].lo, v.lo), std::max(t[i].hi, v.hi)};
      }
    return prunes_values(bound_.bound_at(t, cutoff()), [&] {
      std::array<std::pair<Rational, Rational>, 2> exact;
      for (std::size_t i = 0; i < 2; ++i)
        for (std::size_t c = 0; c < corners; ++c) {
          const Rational q = exact_ratio(at[c][i].residue, at[c][i].ln);
          exact[i] = c == 0 ? std::make_pair(q, q) : std::make_pair(std::min(exact[i].first, q), std::max(exact[i].second, q));
        }
      return bound_.exact_bound_at(exact);
    });
  }

  /// The rectangles of (T_0, T_1) within `range` on which the bound does not put |f − g|∞ below the floor: halved
  /// (along the parameter with more candidates' steps across it, `spacing` apart) while they hold more than kBoxCost
  /// candidates — `pairs` values of the N's times the steps across each side, plus one, for each parameter not
  /// `fixed` by the N's (one candidate each) — and the halved side spans more than a sixteenth of a step and a double
  /// can halve it. A rectangle on which only parameter i moves coordinates the bound does not put below the floor is
  /// collapsed along the other, j, where `collapsible` (not fixed, its ranged witness at hand): neither halved along j
  /// nor counting j's steps among its candidates, which are then the values of P_i (collapsed_candidate).
  std::vector<OpenRectangle> open_rectangles(const std::array<FastInterval, 2>& range,
                                             const std::array<double, 2>& spacing, const std::array<bool, 2>& fixed,
                                             const std::array<bool, 2>& collapsible, double pairs) {
    std::vector<std::array<FastInterval, 2>> stack{range};
    std::vector<OpenRectangle> open;
    for (std::size_t pieces = 0; !stack.empty(); ++pieces) {
      if (pieces == kRectanglePieces) throw ValuesAbandoned{};
      const std::array<FastInterval, 2> t = stack.back();
      stack.pop_back();
      spend(kBoxCost);
      if (prunes_values(bound_.bound_at(t, cutoff()), [&] {
            return bound_.exact_bound_at({std::make_pair(Rational(t[0].lo), Rational(t[0].hi)),
                                          std::make_pair(Rational(t[1].lo), Rational(t[1].hi))});
          }))
        continue;
      std::size_t free = kNotCollapsed;
      if (collapsible[0] || collapsible[1]) {
        const std::array<bool, 2> moves = bound_.moving_parameters(t, [&](double u) { return prunes(u); }, cutoff());
        if (moves[0] != moves[1] && collapsible[moves[0] ? 1 : 0]) free = moves[0] ? 1 : 0;
        if (!bound_.terms().collapse_checked) free = collapsible[1] ? 1 : 0;  // the mutation: along either, always
      }
      std::array<double, 2> steps{(t[0].hi - t[0].lo) / spacing[0], (t[1].hi - t[1].lo) / spacing[1]};
      if (free != kNotCollapsed) steps[free] = 0;
      const std::size_t i = steps[0] >= steps[1] ? 0 : 1;
      const double mid = t[i].lo + (t[i].hi - t[i].lo) / 2;
      const double candidates = pairs * (fixed[0] ? 1 : steps[0] + 1) * (fixed[1] ? 1 : steps[1] + 1);
      if (candidates > static_cast<double>(kBoxCost) && steps[i] > 1.0 / 16 && mid > t[i].lo && mid < t[i].hi) {
        std::array<FastInterval, 2> lower = t, upper = t;
        lower[i].hi = mid;
        upper[i].lo = mid;
        stack.push_back(upper);
        stack.push_back(lower);
        continue;
      }
      if (open.size() == kOpenRectangles) throw ValuesAbandoned{};
      open.push_back({t, free});
    }
    return open;
  }

  /// The witness's bounds over the root box: each variable's range, each residue's sum over the witness's variables
  /// (what the residue's sums allow less the other variables' least and largest counts).
  void witness_bounds(const Box& box, const TwoValues& two) {
    witness_lo_.clear(), witness_hi_.clear(), range_lo_.clear(), range_hi_.clear();
    for (const std::size_t v : two.vars) {
      witness_lo_.push_back(static_cast<std::int64_t>(box.lo[v]));
      witness_hi_.push_back(static_cast<std::int64_t>(box.hi[v]));
    }
    for (const std::size_t r : two.range_residues) {
      std::int64_t others_lo = 0, others_hi = 0;
      for (std::size_t v = bound_.begin(r); v < bound_.begin(r + 1); ++v) {
        if (std::binary_search(two.vars.begin(), two.vars.end(), v)) continue;
        others_lo += static_cast<std::int64_t>(box.lo[v]);
        others_hi += static_cast<std::int64_t>(box.hi[v]);
      }
      range_lo_.push_back(static_cast<std::int64_t>(sum_lo_[r]) - others_hi);
      range_hi_.push_back(static_cast<std::int64_t>(sum_hi_[r]) - others_lo);
    }
  }

  /// One (N's, P_0, P_1): skipped when its own bound puts it below the floor, else one statistic of the box with
  /// those sums, if there is one, is evaluated.
  void plane_candidate(const Box& box, const TwoValues& two, const std::array<std::uint64_t, 2>& counted,
                       const std::array<std::int64_t, 2>& p, const std::array<double, 2>& ln) {
    spend(1);
    std::array<FastInterval, 2> t;
    for (std::size_t i = 0; i < 2; ++i) t[i] = enclosed_ratio(p[i], ln[i]);
    if (prunes_values(bound_.bound_at(t, cutoff()), [&] {
          std::array<std::pair<Rational, Rational>, 2> exact;
          for (std::size_t i = 0; i < 2; ++i) {
            const Rational q = exact_ratio(p[i], ln[i]);
            exact[i] = {q, q};
          }
          return bound_.exact_bound_at(exact);
        }))
      return;
    values_.clear();
    for (std::size_t w = 0; w < two.weights.size(); ++w) values_.push_back(static_cast<std::int64_t>(counted[w]));
    for (std::size_t i = 0; i < 2; ++i) values_.push_back(p[i] - two.parameters[i].list.window_numerator);
    if (!two.witness->solve(witness_lo_, witness_hi_, values_, range_lo_, range_hi_, [&] { spend(1); }, point_))
      return;
    evaluate_witness(box, two);
  }

  /// One (N's, P_i) of a rectangle collapsed along j = 1 − i, T_j in `tj`: skipped when its bound (T_i at its point,
  /// T_j over tj) puts it below the floor, else one statistic of the box with those sums and T_j in tj, if any, is
  /// evaluated (the witness `ranged[j]`, P_j between ⌈tj.lo·L_j·N_j⌉ and ⌊tj.hi·L_j·N_j⌋). Each statistic of the
  /// rectangle with those sums has the evaluated one's Number, or one that changes nothing: the coordinates moving
  /// with T_j are certainly below the floor on the rectangle, the others the same at both.
  void collapsed_candidate(const Box& box, const TwoValues& two, const std::array<std::uint64_t, 2>& counted,
                           std::size_t i, std::int64_t p, const std::array<double, 2>& ln, const FastInterval& tj) {
    spend(1);
    const std::size_t j = 1 - i;
    std::array<FastInterval, 2> t;
    t[i] = enclosed_ratio(p, ln[i]);
    t[j] = tj;
    if (prunes_values(bound_.bound_at(t, cutoff()), [&] {
          std::array<std::pair<Rational, Rational>, 2> exact;
          const Rational q = exact_ratio(p, ln[i]);
          exact[i] = {q, q};
          exact[j] = {Rational(tj.lo), Rational(tj.hi)};
          return bound_.exact_bound_at(exact);
        }))
      return;
    const std::int64_t window = two.parameters[j].list.window_numerator;
    const std::int64_t p_lo = ceil_product(tj.lo, ln[j]) - window, p_hi = floor_product(tj.hi, ln[j]) - window;
    if (p_lo > p_hi) return;
    values_.clear();
    for (std::size_t w = 0; w < two.weights.size(); ++w) values_.push_back(static_cast<std::int64_t>(counted[w]));
    values_.push_back(p - two.parameters[i].list.window_numerator);
    ranged_lo_ = range_lo_, ranged_hi_ = range_hi_;
    ranged_lo_.insert(ranged_lo_.begin(), p_lo);
    ranged_hi_.insert(ranged_hi_.begin(), p_hi);
    if (!two.ranged[j]->solve(witness_lo_, witness_hi_, values_, ranged_lo_, ranged_hi_, [&] { spend(1); }, point_))
      return;
    evaluate_witness(box, two);
  }

  /// The witness point_ (over the TwoValues' variables) completed (complete) and evaluated, if the box allows it.
  void evaluate_witness(const Box& box, const TwoValues& two) {
    count_of_.assign(bound_.begin(shape_.period), -1);
    for (std::size_t k = 0; k < two.vars.size(); ++k) count_of_[two.vars[k]] = point_[k];
    if (!complete(box, count_of_)) return;
    evaluate_point();
    if (const auto best = fold_.best_lower()) raise_floor(*best);
  }

  /// How narrow the bisection's pieces get: a sixteenth of the grid step 1/(L·N_max) of T, or the mean spacing of the
  /// candidates' T over the `values_of_n` values of N — g/(L·N) for one N, the gcd g stepping P — when that is wider
  /// (few N, a large g). Any width is sound (each candidate in an open interval is bounded at its own T); this one
  /// keeps the pieces from outnumbering the candidates where the bound stays near the floor over a range of T.
  static double bisection_width(std::int64_t scale, std::int64_t stride, std::uint64_t values_of_n, std::uint64_t n_max,
                                double fraction) {
    const double ln_max = static_cast<double>(scale) * static_cast<double>(n_max);
    const double spacing =
        static_cast<double>(std::max<std::int64_t>(stride, 1)) / (ln_max * static_cast<double>(values_of_n));
    return std::max(1.0 / (fraction * ln_max), spacing);
  }

  /// N − w0 (the average's counted weight) as the mutation value_window_weight = false leaves it.
  std::uint64_t terms_window_weight(const OneAverage& one) const {
    return bound_.terms().value_window_weight ? one.window_weight : 0;
  }

  /// The least and largest Σ c_v over an average's variables in the box (`index`: per box variable, kNotInAverage when
  /// not the average's), with each residue's sum.
  std::pair<std::uint64_t, std::uint64_t> average_weight_range(const Box& box, const std::vector<std::size_t>& index) const {
    std::uint64_t lo = 0, hi = 0;
    for (std::size_t r = 0; r < shape_.period; ++r) {
      std::uint64_t in_lo = 0, in_hi = 0, out_lo = 0, out_hi = 0;
      for (std::size_t v = bound_.begin(r); v < bound_.begin(r + 1); ++v) {
        const bool in = index[v] != kNotInAverage;
        (in ? in_lo : out_lo) += box.lo[v];
        (in ? in_hi : out_hi) += box.hi[v];
      }
      lo += std::max(in_lo, sum_lo_[r] > out_hi ? sum_lo_[r] - out_hi : 0);
      hi += std::min(in_hi, sum_hi_[r] >= out_lo ? sum_hi_[r] - out_lo : 0);
    }
    return {lo, hi};
  }

  /// Per average variable (in OneAverage order) from the i-th on: the least and largest Σ c_v the box allows, and
  /// the variables in increasing a_v (the witness search's pruning).
  void value_ranges(const Box& box, const OneAverage& one) {
    const std::size_t k = one.vars.size();
    rest_n_lo_.assign(k + 1, 0), rest_n_hi_.assign(k + 1, 0), by_value_.assign(k, {});
    for (std::size_t i = k; i-- > 0;) {
      rest_n_lo_[i] = rest_n_lo_[i + 1] + static_cast<std::int64_t>(box.lo[one.vars[i]]);
      rest_n_hi_[i] = rest_n_hi_[i + 1] + static_cast<std::int64_t>(box.hi[one.vars[i]]);
      for (std::size_t j = i; j < k; ++j) by_value_[i].push_back(j);
      std::sort(by_value_[i].begin(), by_value_[i].end(), [&](std::size_t x, std::size_t y) { return one.a[x] < one.a[y]; });
    }
    chosen_.assign(k, 0);
  }

  /// The intervals of T within `range`, each at most `width` wide unless a double cannot halve it, on which the bound
  /// does not put |f − g|∞ below the floor: in increasing order, touching ones merged.
  std::vector<FastInterval> open_intervals(const FastInterval& range, double width) {
    std::vector<FastInterval> stack{range}, open;
    while (!stack.empty()) {
      const FastInterval t = stack.back();
      stack.pop_back();
      spend(kBoxCost);
      if (prunes_values(bound_.bound_at(t, cutoff()), [&] { return bound_.exact_bound_at(Rational(t.lo), Rational(t.hi)); }))
        continue;
      const double mid = t.lo + (t.hi - t.lo) / 2;
      if (t.hi - t.lo > width && mid > t.lo && mid < t.hi) {
        stack.push_back({mid, t.hi});
        stack.push_back({t.lo, mid});
        continue;
      }
      if (!open.empty() && open.back().hi >= t.lo) {
        open.back().hi = t.hi;
        continue;
      }
      if (open.size() == kOpenIntervals) throw ValuesAbandoned{};
      open.push_back(t);
    }
    return open;
  }

  /// One (N, P): skipped when its own bound puts it below the floor, else one statistic of the box with Σ c_v = N − w0
  /// and Σ a_v c_v = P − A_W over the average's variables is evaluated, if there is one.
  void candidate(const Box& box, const OneAverage& one, std::uint64_t counted, std::int64_t p, double ln) {
    spend(1);
    const FastInterval t = enclosed_ratio(p, ln);
    if (prunes_values(bound_.bound_at(t, cutoff()), [&] {
          const Rational exact = exact_ratio(p, ln);
          return bound_.exact_bound_at(exact, exact);
        }))
      return;
    if (!assign(box, one, 0, static_cast<std::int64_t>(counted), p - one.window_numerator)) return;
    evaluate_point();
    if (const auto best = fold_.best_lower()) raise_floor(*best);
  }

  /// Counts c_v of the average's variables i, i+1, ... with Σ c_v = n and Σ a_v c_v = p, within the box and with
  /// every residue's sum completed by the other variables (complete): then written into sigma_ and true.
  bool assign(const Box& box, const OneAverage& one, std::size_t i, std::int64_t n, std::int64_t p) {
    const std::size_t k = one.vars.size();
    if (n < rest_n_lo_[i] || n > rest_n_hi_[i]) return false;
    if (const auto [least, largest] = weighted_sum_range(box, one, i, n); p < least || p > largest) return false;
    const auto lo = static_cast<std::int64_t>(box.lo[one.vars[i]]), hi = static_cast<std::int64_t>(box.hi[one.vars[i]]);
    if (i + 1 == k) {
      if (one.a[i] * n != p) return false;
      chosen_[i] = n;
      count_of_.assign(one.index.size(), -1);
      for (std::size_t j = 0; j < k; ++j) count_of_[one.vars[j]] = chosen_[j];
      return complete(box, count_of_);
    }
    if (i + 2 == k && one.a[i] != one.a[i + 1]) {  // c_i + c_{i+1} = n, a_i c_i + a_{i+1} c_{i+1} = p: one solution
      const std::int64_t num = p - one.a[i + 1] * n, den = one.a[i] - one.a[i + 1];
      if (num % den != 0) return false;
      const std::int64_t c = num / den;
      if (c < lo || c > hi) return false;
      chosen_[i] = c;
      return assign(box, one, i + 1, n - c, p - one.a[i] * c);
    }
    for (std::int64_t c = std::max(lo, n - rest_n_hi_[i + 1]); c <= std::min(hi, n - rest_n_lo_[i + 1]); ++c) {
      spend(1);
      chosen_[i] = c;
      if (assign(box, one, i + 1, n - c, p - one.a[i] * c)) return true;
    }
    return false;
  }

  /// The least and largest Σ a_v c_v over the average's variables i, i+1, ... with Σ c_v = n in the box: each at its
  /// least count, the rest of n given to the smallest a_v first (or the largest). Both ends are attained (one sum
  /// and ranges: the extreme points are integral), so a p outside has no witness.
  std::pair<std::int64_t, std::int64_t> weighted_sum_range(const Box& box, const OneAverage& one, std::size_t i,
                                                           std::int64_t n) const {
    std::int64_t least = 0, largest = 0, left_low = n - rest_n_lo_[i], left_high = left_low;
    for (std::size_t j = i; j < one.vars.size(); ++j) least += one.a[j] * static_cast<std::int64_t>(box.lo[one.vars[j]]);
    largest = least;
    const std::vector<std::size_t>& order = by_value_[i];  // i.. in increasing a_v
    for (std::size_t x = 0; x < order.size(); ++x) {
      const std::size_t low = order[x], high = order[order.size() - 1 - x];
      const auto room = [&](std::size_t j) {
        return static_cast<std::int64_t>(box.hi[one.vars[j]] - box.lo[one.vars[j]]);
      };
      const std::int64_t to_low = std::min(left_low, room(low)), to_high = std::min(left_high, room(high));
      least += one.a[low] * to_low;
      largest += one.a[high] * to_high;
      left_low -= to_low;
      left_high -= to_high;
    }
    return {least, largest};
  }

  /// The other variables' counts completing each residue's sum with the chosen ones (`count_of`: per box variable its
  /// chosen count, or −1; the others each at its least count, the rest of the least sum spread from the first up),
  /// all written into sigma_; false when a residue cannot be.
  bool complete(const Box& box, const std::vector<std::int64_t>& count_of) {
    for (std::size_t r = 0; r < shape_.period; ++r) {
      std::uint64_t chosen = 0, others_lo = 0, others_hi = 0;
      for (std::size_t v = bound_.begin(r); v < bound_.begin(r + 1); ++v) {
        if (count_of[v] >= 0) {
          chosen += static_cast<std::uint64_t>(count_of[v]);
          continue;
        }
        others_lo += box.lo[v];
        others_hi += box.hi[v];
      }
      if (chosen + others_lo > sum_hi_[r] || chosen + others_hi < sum_lo_[r]) return false;
    }
    for (std::size_t r = 0; r < shape_.period; ++r) {
      std::uint64_t sum = 0;
      for (std::size_t v = bound_.begin(r); v < bound_.begin(r + 1); ++v) {
        const std::uint64_t c = count_of[v] >= 0 ? static_cast<std::uint64_t>(count_of[v]) : box.lo[v];
        sigma_.counts[bound_.class_of(v)] = c;
        sum += c;
      }
      for (std::size_t v = bound_.begin(r); v < bound_.begin(r + 1) && sum < sum_lo_[r]; ++v) {
        if (count_of[v] >= 0) continue;
        const std::uint64_t add = std::min(box.hi[v] - box.lo[v], sum_lo_[r] - sum);
        sigma_.counts[bound_.class_of(v)] += add;
        sum += add;
      }
    }
    return true;
  }

  /// Evaluates every statistic of the box (its counts from variable v on), in lexicographic order.
  void evaluate_all(const Box& box, std::size_t v) {
    if (v == box.lo.size()) return evaluate_point();
    for (std::uint64_t n = box.lo[v]; n <= box.hi[v]; ++n) {
      sigma_.counts[bound_.class_of(v)] = n;
      evaluate_all(box, v + 1);
    }
  }

  void evaluate_point() {
    for (std::size_t r = 0; r < shape_.period; ++r) {
      std::uint64_t s = 0;
      for (std::size_t v = bound_.begin(r); v < bound_.begin(r + 1); ++v) s += sigma_.counts[bound_.class_of(v)];
      if (s < sum_lo_[r] || s > sum_hi_[r]) return;
      const auto& absorbers = group_.absorbers[r];
      if (absorbers.empty()) continue;
      for (std::size_t c : absorbers) sigma_.counts[c] = 1;
      sigma_.counts[absorbers.front()] = m_[r] - s - (absorbers.size() - 1);
    }
    spend(1);
    fold_.fold(sigma_, ordinal_++);
  }

  /// A box bounded or a statistic evaluated: one item charged to --budget, `cost` evaluations to the search's cap.
  void spend(std::uint64_t cost) {
    charge_enumeration();
    if (work_left_ < cost) throw SearchAbandoned{};
    work_left_ -= cost;
  }

  /// `items` spends of one unit each, in one step (the same count and cap as spend(1) as many times: those would
  /// charge up to the one that finds the cap spent).
  void spend_each(std::uint64_t items) {
    if (items == 0) return;
    charge_enumeration(work_left_ < items ? work_left_ + 1 : items);
    if (work_left_ < items) throw SearchAbandoned{};
    work_left_ -= items;
  }

  const Shape& shape_;
  const Group& group_;
  GroupBound& bound_;
  detail::DistanceFold& fold_;
  std::uint64_t ordinal_;
  bool exact_;  // rational readouts: every distance exact
  std::vector<std::uint64_t> m_, sum_lo_, sum_hi_;
  Statistic sigma_;
  std::optional<Rational> floor_;
  double floor_below_ = 0;
  std::uint64_t *boxes_ = nullptr, *pruned_ = nullptr;
  std::uint64_t work_left_ = 0;
  bool by_values_ = false;
  // The witness search's: per i, the least and largest Σ c_v over the average's variables i, i+1, ..., those
  // variables in increasing a_v, and the counts chosen.
  std::vector<std::int64_t> rest_n_lo_, rest_n_hi_, chosen_;
  std::vector<std::vector<std::size_t>> by_value_;
  std::vector<std::int64_t> count_of_;  // per box variable: the witness's count, or −1 (complete)
  // The search over two parameters': the witness's variable bounds and residue ranges over the root box, its
  // right-hand side and its point.
  std::vector<std::int64_t> witness_lo_, witness_hi_, range_lo_, range_hi_, values_, point_;
  std::vector<std::int64_t> ranged_lo_, ranged_hi_;  // a collapsed candidate's ranges: P_j's, then range_lo_/hi_
};

}  // namespace

bool bounded_curve_applies(const OneLayerEvaluator& f, const OneLayerEvaluator& g) {
  return f.has_fast_enclosure() && g.has_fast_enclosure() &&
         f.model().readout.weights.rows() == g.model().readout.weights.rows();
}

DistanceCurve bounded_distance_curve(const OneLayerEvaluator& f, const OneLayerEvaluator& g, std::uint64_t max_length,
                                     std::uint64_t budget, unsigned threads, std::string* stopped,
                                     const std::function<void(std::uint64_t, std::uint64_t)>& on_length,
                                     const BoxBoundTerms& terms) {
  detail::require_same_shape(f, g, "bounded_distance_curve");
  if (!bounded_curve_applies(f, g))
    throw std::invalid_argument(
        "bounded_distance_curve: a model has numbers beyond 64 bits, or the readouts differ in size (no box bound)");
  if (max_length >= kLongestLength) throw std::invalid_argument("bounded_distance_curve: lengths of 2^50 and more");
  DistanceCurve curve;
  const Shape& shape = f.shape();
  if (threads == 0) threads = enumeration_threads();
  detail::Groups groups(f, g);
  std::map<const Group*, std::unique_ptr<GroupBound>> bounds;
  std::optional<Number> running;
  Statistic running_at;
  for (std::uint64_t n = 1; n <= max_length; ++n) {
    if (on_length) on_length(n, max_length);
    const bool full = detail::enumerated_in_full(shape, n);
    const std::uint64_t every = full ? statistic_count(shape, n) : 0;
    if (every > budget) break;
    const std::vector<const Group*> kept = full ? std::vector<const Group*>{} : groups.at(n);
    const std::size_t items = kept.size();
    const unsigned used = static_cast<unsigned>(
        full ? std::min<std::uint64_t>(threads, std::max<std::uint64_t>(every / 64, 1))
             : std::min<std::uint64_t>(threads, std::max<std::size_t>(items, 1)));
    // A length's parts: the shards of a full enumeration, else one per group (so that neither the evaluated
    // statistics nor the ordinals depend on the thread count: each group's search starts from D(n − 1)).
    for (const Group* group : kept)  // built once per group, before the threads share them out
      if (!bounds.count(group)) bounds.emplace(group, std::make_unique<GroupBound>(f, g, *group, terms));
    std::vector<detail::ShardMax> parts(full ? used : items);
    std::atomic<std::uint64_t> work{0}, boxes{0}, pruned{0}, walked{0}, by_value{0}, one_valued{0};
    std::optional<Rational> floor;
    if (running) floor = lower_of(*running);
    const bool exact = f.rational_readout() && g.rational_readout();
    auto shard_part = [&](const Shard& shard) {
      if (full) return void(parts[shard.index] = detail::shard_max(f, g, n, 0, shard, running));
      for (std::size_t i = 0; i < items; ++i) {
        if (!shard.owns(i)) continue;
        std::uint64_t group_boxes = 0, group_pruned = 0;
        GroupBound& bound = *bounds.at(kept[i]);
        std::optional<detail::ShardMax> part;
        if (bound.one_valued()) {  // its first statistic once, at the first length with one; then nothing
          if (bound.value_taken()) {
            ++one_valued;
            parts[i] = detail::ShardMax{};
            continue;
          }
          detail::DistanceFold fold(f, g, 0, running);
          if (const auto first = detail::GroupWalk(shape, *kept[i], n).first()) {
            charge_enumeration();
            fold.fold(*first, std::uint64_t{i} << 40);
            bound.take_value();
          }
          parts[i] = fold.finish();
          if ((work += parts[i].visited) > budget) throw LengthCapped{};
          continue;
        }
        const std::uint64_t fresh = detail::GroupWalk(shape, *kept[i], n).count();
        // By the values of its one average, else by boxes of counts, else walked; an abandoned search's statistics
        // are discarded.
        std::uint64_t spent = 0;  // the last search's cost against its cap, when it decided
        const auto search = [&](bool by_values, std::uint64_t cap) -> std::optional<detail::ShardMax> {
          try {
            detail::DistanceFold fold(f, g, 0, running);
            GroupSearch group_search(shape, *kept[i], bound, n, fold, std::uint64_t{i} << 40, floor, exact);
            group_search.run(group_boxes, group_pruned, cap, by_values);
            spent = cap - group_search.work_left();
            return fold.finish();
          } catch (const ValuesAbandoned&) {
          } catch (const SearchAbandoned&) {
          }
          return std::nullopt;
        };
        const auto by_values = [&](std::uint64_t cap, bool probe) {
          part = search(true, cap);
          if (part) ++by_value;
          if (part || probe) bound.record_cost(true, part ? part->visited + (spent - std::min(spent, part->visited)) / kValueStepShare : cap);
          if (part || !probe) bound.values_searched(fresh, !part);
        };
        if (floor && fresh > kLeafStatistics && bound.values_at(n, fresh)) {
          const GroupBound::Way way = bound.two_way(fresh);
          if (!way.by_boxes) {
            by_values(way.cap, way.probe);  // a probe given up: by boxes below, the cheaper way
          } else if (way.probe) {
            if (bound.search_at(n)) {
              const std::uint64_t boxes_before = group_boxes;
              part = search(false, way.cap);
              bound.record_cost(false, part ? part->visited + kBoxCost * (group_boxes - boxes_before) : way.cap);
            }
            if (!part) by_values(fresh, false);  // the probe given up (or boxes backed off): by values, the cheaper way
          }
        }
        if (!part && bound.search_at(n)) {
          const std::uint64_t boxes_before = group_boxes;
          part = search(false, fresh);
          bound.searched(n, !part);
          bound.record_cost(false, part ? part->visited + kBoxCost * (group_boxes - boxes_before) : 2 * fresh);
        }
        if (!part) {  // the group's fresh statistics, each evaluated
          detail::DistanceFold fold(f, g, 0, running);
          std::uint64_t ordinal = std::uint64_t{i} << 40;
          detail::GroupWalk(shape, *kept[i], n).walk([&](const Statistic& s) {
            charge_enumeration();
            fold.fold(s, ordinal++);
          });
          part = fold.finish();
          ++walked;
        }
        parts[i] = std::move(*part);
        boxes += group_boxes;
        pruned += group_pruned;
        if ((work += group_boxes + parts[i].visited) > budget) throw LengthCapped{};
      }
    };
    try {
      run_shards(used, [&](const Shard& shard) { shard_part(shard); });
    } catch (const LengthCapped&) {
      break;  // lengths 1..n-1 are complete
    } catch (const BudgetExceeded& e) {
      if (!stopped) throw;
      *stopped = e.what();
      break;
    }
    curve.boxes_bounded += boxes;
    curve.boxes_pruned += pruned;
    curve.groups_walked += walked;
    curve.value_searches += by_value;
    curve.one_valued_skips += one_valued;
    detail::append_length(curve, parts, n, running, running_at);
  }
  return curve;
}

}  // namespace lgc
