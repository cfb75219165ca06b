#pragma once
// An integer point of a box on which given integer linear forms take given
// values and others stay within given ranges: the witness of the value
// search over two parameters (theory.md "The value search", two parameters).
// The equalities are reduced once (Gauss–Jordan without fractions); per
// right-hand side, a depth-first search over the free variables but the last,
// whose admissible values then form an interval, scanned over one period of
// the pivots' divisibility.
#include <cstdint>
#include <functional>
#include <vector>

namespace lgc {

class LinearWitness {
 public:
  using Row = std::vector<std::int64_t>;

  /// `equalities` and `ranges`: rows of coefficients over the same variables. Throws std::overflow_error when the
  /// reduced rows' integers, or a range row's common denominator (the lcm of its pivots' coefficients), reach 2^20
  /// (the solves' products, with values below 2^50, then stay inside 128 bits).
  LinearWitness(std::vector<Row> equalities, std::vector<Row> ranges);

  /// A point x, lo <= x <= hi, with equalities·x = values and range_lo <= ranges·x <= range_hi, written into `x`;
  /// false when there is none. `step()` is called once per value tried (it may throw, to abandon the search).
  bool solve(const std::vector<std::int64_t>& lo, const std::vector<std::int64_t>& hi,
             const std::vector<std::int64_t>& values, const std::vector<std::int64_t>& range_lo,
             const std::vector<std::int64_t>& range_hi, const std::function<void()>& step,
             std::vector<std::int64_t>& x) const;

 private:
  struct Problem;
  bool search(Problem& p, std::size_t free_index) const;
  bool solve_last(Problem& p) const;

  std::size_t variables_ = 0;
  std::vector<Row> reduced_;    // per pivot row: R = M·A, its pivot coefficient > 0, 0 at every other pivot column
  std::vector<Row> transform_;  // M, per row of reduced_ (the rows past the pivots: 0 = M·values, consistency)
  std::vector<std::size_t> pivots_, free_;  // pivot column per pivot row; the columns without one
  std::vector<Row> ranges_;
};

}  // namespace lgc
