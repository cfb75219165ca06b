#include "lgcheck/enumerate/linear_witness.hpp"

#include <algorithm>
#include <numeric>
#include <stdexcept>
#include <utility>

namespace lgc {
namespace {

__extension__ typedef __int128 Wide;

/// The reduction's integers, and each range row's common denominator, stay below 2^20: with values below 2^50 and
/// counts below 2^30 every product of a solve then stays far inside 128 bits.
constexpr std::int64_t kReducedLimit = std::int64_t{1} << 20;

Wide floor_div(Wide a, Wide b) {  // b > 0
  const Wide q = a / b;
  return q * b > a ? q - 1 : q;
}
Wide ceil_div(Wide a, Wide b) { return -floor_div(-a, b); }  // b > 0

Wide wide_gcd(Wide a, Wide b) {
  if (a < 0) a = -a;
  if (b < 0) b = -b;
  while (b != 0) a = std::exchange(b, a % b);
  return a;
}

/// Divides a row of R and its row of M by the gcd of all their entries.
void reduce_by_gcd(std::vector<Wide>& r, std::vector<Wide>& m) {
  Wide g = 0;
  for (const Wide x : r) g = wide_gcd(g, x);
  for (const Wide x : m) g = wide_gcd(g, x);
  if (g <= 1) return;
  for (Wide& x : r) x /= g;
  for (Wide& x : m) x /= g;
}

std::int64_t narrow(Wide x) {
  if (x >= kReducedLimit || x <= -kReducedLimit)
    throw std::overflow_error("LinearWitness: the reduced rows' integers reach 2^20");
  return static_cast<std::int64_t>(x);
}

}  // namespace

struct LinearWitness::Problem {
  const std::vector<std::int64_t>& lo;
  const std::vector<std::int64_t>& hi;
  std::vector<Wide> target;  // per pivot row: M·values
  const std::vector<std::int64_t>& range_lo;
  const std::vector<std::int64_t>& range_hi;
  const std::function<void()>& step;
  std::vector<std::int64_t>& x;
};

LinearWitness::LinearWitness(std::vector<Row> equalities, std::vector<Row> ranges) : ranges_(std::move(ranges)) {
  variables_ = !equalities.empty() ? equalities.front().size() : !ranges_.empty() ? ranges_.front().size() : 0;
  const std::size_t rows = equalities.size();
  std::vector<std::vector<Wide>> r(rows), m(rows, std::vector<Wide>(rows, 0));
  for (std::size_t i = 0; i < rows; ++i) {
    r[i].assign(equalities[i].begin(), equalities[i].end());
    m[i][i] = 1;
  }
  std::size_t rank = 0, col = 0;
  for (; col < variables_ && rank < rows; ++col) {
    std::size_t at = rank;
    while (at < rows && r[at][col] == 0) ++at;
    if (at == rows) {
      free_.push_back(col);
      continue;
    }
    std::swap(r[at], r[rank]);
    std::swap(m[at], m[rank]);
    if (r[rank][col] < 0) {
      for (Wide& x : r[rank]) x = -x;
      for (Wide& x : m[rank]) x = -x;
    }
    for (std::size_t other = 0; other < rows; ++other) {
      if (other == rank || r[other][col] == 0) continue;
      const Wide a = r[rank][col], b = r[other][col];
      for (std::size_t k = 0; k < variables_; ++k) r[other][k] = a * r[other][k] - b * r[rank][k];
      for (std::size_t k = 0; k < rows; ++k) m[other][k] = a * m[other][k] - b * m[rank][k];
      reduce_by_gcd(r[other], m[other]);
    }
    reduce_by_gcd(r[rank], m[rank]);
    pivots_.push_back(col);
    ++rank;
  }
  for (; col < variables_; ++col) free_.push_back(col);  // past the last pivot row
  for (std::size_t i = 0; i < rows; ++i) {
    Row reduced, transform;
    for (const Wide x : r[i]) reduced.push_back(narrow(x));
    for (const Wide x : m[i]) transform.push_back(narrow(x));
    reduced_.push_back(std::move(reduced));
    transform_.push_back(std::move(transform));
  }
  for (const Row& range : ranges_) {  // each range row's denominator: the lcm of its pivots' coefficients
    Wide d = 1;
    for (std::size_t i = 0; i < pivots_.size(); ++i)
      if (range[pivots_[i]] != 0) d = d / wide_gcd(d, reduced_[i][pivots_[i]]) * reduced_[i][pivots_[i]];
    narrow(d);
  }
}

bool LinearWitness::solve(const std::vector<std::int64_t>& lo, const std::vector<std::int64_t>& hi,
                          const std::vector<std::int64_t>& values, const std::vector<std::int64_t>& range_lo,
                          const std::vector<std::int64_t>& range_hi, const std::function<void()>& step,
                          std::vector<std::int64_t>& x) const {
  x.assign(variables_, 0);
  Problem p{lo, hi, {}, range_lo, range_hi, step, x};
  for (std::size_t i = 0; i < transform_.size(); ++i) {
    Wide t = 0;
    for (std::size_t k = 0; k < values.size(); ++k) t += Wide{transform_[i][k]} * values[k];
    if (i >= pivots_.size() && t != 0) return false;  // a dependent equality the values contradict
    if (i < pivots_.size()) p.target.push_back(t);
  }
  return search(p, 0);
}

bool LinearWitness::search(Problem& p, std::size_t free_index) const {
  if (free_index + 1 >= free_.size()) return solve_last(p);
  const std::size_t v = free_[free_index];
  for (std::int64_t value = p.lo[v]; value <= p.hi[v]; ++value) {
    p.step();
    p.x[v] = value;
    if (search(p, free_index + 1)) return true;
  }
  return false;
}

/// The last free variable (if any) with the others fixed: each pivot is (s_i − e_i·x)/d_i, so its bounds, and each
/// range row (times the lcm of its pivots' d_i), bound x to an interval; divisibility of every pivot repeats with
/// the lcm of the d_i / gcd(d_i, e_i), so one period of the interval holds a solution if any does.
bool LinearWitness::solve_last(Problem& p) const {
  const bool has_last = !free_.empty();
  const std::size_t last = has_last ? free_.back() : 0;
  Wide lo = has_last ? p.lo[last] : 0, hi = has_last ? p.hi[last] : 0;
  const auto keep = [&](Wide c, Wide a, Wide b) {  // c·x in [a, b]
    if (c == 0) {
      if (a > 0 || b < 0) lo = hi + 1;
      return;
    }
    if (c < 0) c = -c, a = -a, b = -b, std::swap(a, b);
    lo = std::max(lo, ceil_div(a, c));
    hi = std::min(hi, floor_div(b, c));
  };
  const std::size_t rows = pivots_.size();
  std::vector<Wide> s(rows), e(rows), d(rows);
  for (std::size_t i = 0; i < rows; ++i) {
    s[i] = p.target[i];
    for (std::size_t k = 0; k + 1 < free_.size(); ++k) s[i] -= Wide{reduced_[i][free_[k]]} * p.x[free_[k]];
    e[i] = has_last ? reduced_[i][last] : 0;
    d[i] = reduced_[i][pivots_[i]];
    const std::size_t v = pivots_[i];
    keep(e[i], s[i] - d[i] * p.hi[v], s[i] - d[i] * p.lo[v]);  // lo_v <= (s − e·x)/d <= hi_v
  }
  for (std::size_t r = 0; r < ranges_.size(); ++r) {
    const Row& c = ranges_[r];
    Wide den = 1;
    for (std::size_t i = 0; i < rows; ++i)
      if (c[pivots_[i]] != 0) den = den / wide_gcd(den, d[i]) * d[i];
    Wide alpha = 0, beta = has_last ? den * c[last] : 0;
    for (std::size_t k = 0; k + 1 < free_.size(); ++k) alpha += den * c[free_[k]] * p.x[free_[k]];
    for (std::size_t i = 0; i < rows; ++i) {
      if (c[pivots_[i]] == 0) continue;
      alpha += c[pivots_[i]] * (den / d[i]) * s[i];
      beta -= c[pivots_[i]] * (den / d[i]) * e[i];
    }
    keep(beta, den * p.range_lo[r] - alpha, den * p.range_hi[r] - alpha);
  }
  if (lo > hi) return false;
  Wide period = 1;
  for (std::size_t i = 0; i < rows; ++i) {
    const Wide m = d[i] / wide_gcd(d[i], e[i]);
    period = period / wide_gcd(period, m) * m;
  }
  for (Wide value = lo; value <= hi && value < lo + period; ++value) {
    p.step();
    bool whole = true;
    for (std::size_t i = 0; i < rows && whole; ++i) whole = (s[i] - e[i] * value) % d[i] == 0;
    if (!whole) continue;
    if (has_last) p.x[last] = static_cast<std::int64_t>(value);
    for (std::size_t i = 0; i < rows; ++i) p.x[pivots_[i]] = static_cast<std::int64_t>((s[i] - e[i] * value) / d[i]);
    return true;
  }
  return false;
}

}  // namespace lgc
