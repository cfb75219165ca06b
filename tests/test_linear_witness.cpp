// LinearWitness (the two-parameter value search's witness, theory.md "The
// value search"): on random small systems, a point exactly when brute force
// over the box finds one, and every point it returns satisfies each
// constraint.
#include "support.hpp"

#include "lgcheck/enumerate/linear_witness.hpp"

#include <catch2/catch.hpp>

#include <random>

namespace {

using Row = lgc::LinearWitness::Row;

std::int64_t dot(const Row& row, const std::vector<std::int64_t>& x) {
  std::int64_t s = 0;
  for (std::size_t k = 0; k < x.size(); ++k) s += row[k] * x[k];
  return s;
}

struct System {
  std::vector<Row> equalities, ranges;
  std::vector<std::int64_t> lo, hi, values, range_lo, range_hi;

  bool holds(const std::vector<std::int64_t>& x) const {
    for (std::size_t k = 0; k < x.size(); ++k)
      if (x[k] < lo[k] || x[k] > hi[k]) return false;
    for (std::size_t i = 0; i < equalities.size(); ++i)
      if (dot(equalities[i], x) != values[i]) return false;
    for (std::size_t i = 0; i < ranges.size(); ++i)
      if (dot(ranges[i], x) < range_lo[i] || dot(ranges[i], x) > range_hi[i]) return false;
    return true;
  }

  /// Whether some point of the box satisfies every constraint (every point tried).
  bool solvable() const {
    std::vector<std::int64_t> x = lo;
    while (true) {
      if (holds(x)) return true;
      std::size_t k = 0;
      while (k < x.size() && x[k] == hi[k]) x[k] = lo[k], ++k;
      if (k == x.size()) return false;
      ++x[k];
    }
  }
};

System random_system(std::mt19937_64& rng) {
  System s;
  const std::size_t variables = 2 + rng() % 4;
  for (std::size_t k = 0; k < variables; ++k) {
    s.lo.push_back(static_cast<std::int64_t>(rng() % 3));
    s.hi.push_back(s.lo.back() + static_cast<std::int64_t>(rng() % 6));
  }
  const auto row = [&](int spread) {
    Row r;
    for (std::size_t k = 0; k < variables; ++k)
      r.push_back(rng() % 3 == 0 ? 0 : static_cast<std::int64_t>(rng() % (2 * spread + 1)) - spread);
    return r;
  };
  // A point of the box, so that about half the systems are solvable: the equalities' values taken there (else
  // shifted), the ranges around it.
  std::vector<std::int64_t> point;
  for (std::size_t k = 0; k < variables; ++k)
    point.push_back(s.lo[k] + static_cast<std::int64_t>(rng() % static_cast<std::uint64_t>(s.hi[k] - s.lo[k] + 1)));
  const bool shifted = rng() % 2 == 0;
  for (std::size_t i = 0, e = 1 + rng() % std::min<std::size_t>(variables, 3); i < e; ++i) {
    s.equalities.push_back(row(4));
    if (i == 1 && rng() % 4 == 0) s.equalities.back() = s.equalities.front();  // a dependent row
    s.values.push_back(dot(s.equalities.back(), point) + (shifted ? static_cast<std::int64_t>(rng() % 3) - 1 : 0));
  }
  for (std::size_t i = 0, e = rng() % 3; i < e; ++i) {
    s.ranges.push_back(row(1));
    const std::int64_t at = dot(s.ranges.back(), point);
    s.range_lo.push_back(at - static_cast<std::int64_t>(rng() % 3));
    s.range_hi.push_back(at + static_cast<std::int64_t>(rng() % 3) - (shifted ? 2 : 0));
  }
  return s;
}

}  // namespace

TEST_CASE("LinearWitness finds a point of a box under equalities and ranges exactly when one exists",
          "[linear-witness]") {
  std::mt19937_64 rng(lgc::test::test_seed());
  std::size_t solvable = 0, unsolvable = 0, with_free = 0;
  for (int trial = 0; trial < 3000; ++trial) {
    const System s = random_system(rng);
    CAPTURE(trial, s.lo, s.hi, s.values, s.range_lo, s.range_hi);
    const lgc::LinearWitness witness(s.equalities, s.ranges);
    std::vector<std::int64_t> x;
    std::uint64_t steps = 0;
    const bool found = witness.solve(s.lo, s.hi, s.values, s.range_lo, s.range_hi, [&] { ++steps; }, x);
    const bool exists = s.solvable();
    REQUIRE(found == exists);
    if (found) REQUIRE(s.holds(x));
    (exists ? solvable : unsolvable) += 1;
    if (s.equalities.size() + 1 < s.lo.size()) ++with_free;
  }
  CAPTURE(solvable, unsolvable, with_free);
  REQUIRE(solvable >= 500);
  REQUIRE(unsolvable >= 500);
  REQUIRE(with_free >= 500);  // two free variables and more: the depth-first search before the last one
}

TEST_CASE("LinearWitness: the last free variable's divisibility repeats, scanned over one period only",
          "[linear-witness]") {
  // 3x − 5y = 1 with x, y in [0, 100]: x = (1 + 5y)/3, whole first at y = 1 (y scanned from 0).
  const lgc::LinearWitness witness({{3, -5}}, {});
  std::vector<std::int64_t> x;
  std::uint64_t steps = 0;
  REQUIRE(witness.solve({0, 0}, {100, 100}, {1}, {}, {}, [&] { ++steps; }, x));
  REQUIRE(x == std::vector<std::int64_t>{2, 1});
  // 6x − 4y = 1: no integer solution; x = (1 + 4y)/6 repeats its divisibility every 3 values of y, so the scan
  // stops after 3 of the 150 admissible ones.
  const lgc::LinearWitness even({{6, -4}}, {});
  steps = 0;
  REQUIRE(!even.solve({0, 0}, {100, 100}, {1}, {}, {}, [&] { ++steps; }, x));
  CAPTURE(steps);
  REQUIRE(steps <= 3);
}
