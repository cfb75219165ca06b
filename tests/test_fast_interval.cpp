// The cheap enclosure (FastInterval) and the double-first two-layer
// evaluation: every result must contain the exact or high-precision value.
#include "lgcheck/enumerate/strings.hpp"
#include "lgcheck/numeric/fast_interval.hpp"
#include "lgcheck/numeric/fast_sparse_matrix.hpp"
#include "lgcheck/semantics/softmax_linear.hpp"
#include "lgcheck/semantics/softmax_linear_fast.hpp"

#include "support.hpp"

#include <catch2/catch.hpp>

#include <bit>
#include <cmath>
#include <random>
#include <string>
#include <utility>
#include <vector>

using lgc::FastInterval;
using lgc::Interval;
using lgc::Rational;

namespace {

bool encloses(const FastInterval& outer, const Interval& inner) {
  return outer.to_interval(128).contains(inner);
}

/// Relative width (hi − lo) / max(|lo|, |hi|, tiny), for the narrowness checks.
double relative_width(const FastInterval& x) {
  return (x.hi - x.lo) / std::max({std::abs(x.lo), std::abs(x.hi), 1e-300});
}

double random_double(std::mt19937_64& rng, double lo, double hi) {
  return std::uniform_real_distribution<double>(lo, hi)(rng);
}

}  // namespace

TEST_CASE("next_up and next_down step one double", "[fast-interval]") {
  CHECK(lgc::next_up(1.0) == 1.0 + 0x1p-52);
  CHECK(lgc::next_down(1.0) == 1.0 - 0x1p-53);
  CHECK(lgc::next_up(0.0) == std::numeric_limits<double>::denorm_min());
  CHECK(lgc::next_down(0.0) == -std::numeric_limits<double>::denorm_min());
  CHECK(lgc::next_up(-1.0) == -1.0 + 0x1p-53);
  CHECK(lgc::next_up(std::numeric_limits<double>::max()) == std::numeric_limits<double>::infinity());
  // The branch-free step: −0 steps like +0, the ends and NaN stay, and every double against std::nextafter.
  constexpr double inf = std::numeric_limits<double>::infinity();
  CHECK(lgc::next_up(-0.0) == std::numeric_limits<double>::denorm_min());
  CHECK(lgc::next_up(-std::numeric_limits<double>::denorm_min()) == 0.0);
  CHECK(lgc::next_up(inf) == inf);
  CHECK(lgc::next_up(-inf) == -std::numeric_limits<double>::max());
  CHECK(std::isnan(lgc::next_up(std::numeric_limits<double>::quiet_NaN())));
  std::mt19937_64 rng(7);
  for (int i = 0; i < 100000; ++i) {
    const double x = std::bit_cast<double>(rng());
    if (std::isnan(x)) continue;
    REQUIRE(lgc::next_up(x) == std::nextafter(x, inf));
    REQUIRE(lgc::next_down(x) == std::nextafter(x, -inf));
  }
}

TEST_CASE("ln 2's enclosure holds ln 2 and is two adjacent doubles", "[fast-interval]") {
  const FastInterval l = lgc::ln2_enclosure();
  CHECK(encloses(l, log(Interval(Rational(2), 256))));
  CHECK(lgc::next_up(l.lo) == l.hi);
}

TEST_CASE("FastInterval arithmetic contains the exact rational result", "[fast-interval]") {
  std::mt19937_64 rng(lgc::test::test_seed() + 91);
  INFO("seed " << lgc::test::test_seed() + 91);
  for (int rep = 0; rep < 2000; ++rep) {
    const double a = random_double(rng, -1e3, 1e3), b = random_double(rng, -1e3, 1e3) * std::ldexp(1.0, rep % 40 - 20);
    const FastInterval A = FastInterval::point(a), B = FastInterval::point(b);
    const Rational qa(a), qb(b);
    INFO(a << " " << b);
    CHECK(encloses(A + B, Interval(qa + qb, 256)));
    CHECK(encloses(A - B, Interval(qa - qb, 256)));
    CHECK(encloses(A * B, Interval(qa * qb, 256)));
    CHECK(encloses(A / B, Interval(qa / qb, 256)));
    CHECK(relative_width(A * B) < 1e-15);
  }
  // An interval product takes every sign combination into account.
  const FastInterval p = FastInterval{-2, 3} * FastInterval{-5, 4};
  CHECK(p.lo <= -15);
  CHECK(p.hi >= 12);
  CHECK(p.lo > -15.001);
  // Division by an interval holding 0 is unbounded, never a wrong finite answer.
  CHECK_FALSE((FastInterval::point(1) / FastInterval{-1, 1}).is_finite());
}

TEST_CASE("FastSparseMatrix's product contains the exact rational product", "[fast-interval]") {
  // Entries from {0, ±1, 1/2, -3/4, 1/3, 247403/31250}: zeros skipped, ±1 exact, dyadics two products, the others
  // four; inputs the enclosures of rationals (1/7, exact 0, ...), some exactly zero (skipped: the product is 0).
  const std::vector<Rational> entries = {Rational(0),     Rational(0),    Rational(1),
                                         Rational(-1),    Rational(1, 2), Rational(-3, 4),
                                         Rational(1, 3),  Rational(247403, 31250)};
  const std::vector<Rational> inputs = {Rational(0), Rational(1, 7), Rational(-5, 2), Rational(1, 1000003),
                                        Rational(3)};
  std::mt19937_64 rng(lgc::test::test_seed() + 92);
  INFO("seed " << lgc::test::test_seed() + 92);
  std::size_t points = 0;
  for (int rep = 0; rep < 300; ++rep) {
    const std::size_t rows = 1 + rep % 5, cols = 1 + (rep / 5) % 6;
    lgc::Matrix<Rational> m(rows, cols);
    std::vector<Rational> v(cols);
    std::vector<FastInterval> fv(cols), out;
    for (std::size_t c = 0; c < cols; ++c) {
      v[c] = inputs[rng() % inputs.size()];
      fv[c] = FastInterval::enclosing(v[c]);
      for (std::size_t r = 0; r < rows; ++r) m(r, c) = entries[rng() % entries.size()];
    }
    lgc::FastSparseMatrix(m).times(fv, out);
    REQUIRE(out.size() == rows);
    for (std::size_t r = 0; r < rows; ++r) {
      Rational exact = 0, magnitude = 0;
      for (std::size_t c = 0; c < cols; ++c) exact += m(r, c) * v[c], magnitude += abs(m(r, c) * v[c]);
      INFO("rep " << rep << " row " << r << ": " << exact << " in [" << out[r].lo << ", " << out[r].hi << "]");
      CHECK(Rational(out[r].lo) <= exact);
      CHECK(exact <= Rational(out[r].hi));
      CHECK(Rational(out[r].hi) - Rational(out[r].lo) <= magnitude / Rational(int64_t{1} << 45));  // a few ulps
      points += out[r].lo == out[r].hi;
    }
  }
  CHECK(points > 0);  // products by 0 and ±1 of exact inputs stay exact
  // A product rounded to a point would miss the exact value: 1/3 · 3 encloses 1 strictly.
  lgc::Matrix<Rational> third(1, 1);
  third(0, 0) = Rational(1, 3);
  std::vector<FastInterval> three = {FastInterval::point(3)}, out;
  lgc::FastSparseMatrix(third).times(three, out);
  CHECK(out[0].lo < 1);
  CHECK(out[0].hi > 1);
}

TEST_CASE("FastInterval exp and log contain the MPFI values at 256 bits", "[fast-interval]") {
  std::mt19937_64 rng(lgc::test::test_seed() + 92);
  INFO("seed " << lgc::test::test_seed() + 92);
  for (int rep = 0; rep < 3000; ++rep) {
    const double x = rep % 3 == 0 ? random_double(rng, -1, 1) : random_double(rng, -700, 700);
    INFO("x = " << x);
    const FastInterval e = exp(FastInterval::point(x));
    REQUIRE(e.is_finite());
    CHECK(encloses(e, exp(Interval(Rational(x), 256))));
    CHECK(relative_width(e) < 1e-14);
    const double y = std::ldexp(random_double(rng, 0.5, 1), static_cast<int>(rep % 400) - 200);
    const FastInterval l = log(FastInterval::point(y));
    CHECK(encloses(l, log(Interval(Rational(y), 256))));
    CHECK(l.hi - l.lo < 1e-13 * std::max(1.0, std::abs(l.lo)));
  }
  for (std::uint64_t i = 1; i <= 5000; i += 7) {
    INFO("i = " << i);
    CHECK(encloses(log(FastInterval::point(static_cast<double>(i))),
                   log(Interval(Rational(lgc::Integer(i)), 256))));
  }
  // The edges: overflow is unbounded (caller falls back), underflow is [0, tiny].
  CHECK_FALSE(exp(FastInterval::point(710)).is_finite());
  const FastInterval tiny = exp(FastInterval::point(-800));
  CHECK(tiny.lo == 0);
  CHECK(tiny.hi > 0);
  CHECK(tiny.hi < 1e-320);
  CHECK(encloses(exp(FastInterval::point(-740.5)), exp(Interval(Rational(-740.5), 256))));
  CHECK(encloses(exp(FastInterval::point(709)), exp(Interval(Rational(709), 256))));
  CHECK_FALSE(log(FastInterval{0, 1}).is_finite());
}

TEST_CASE("FastInterval sin contains the MPFI value at 256 bits", "[fast-interval]") {
  std::mt19937_64 rng(lgc::test::test_seed() + 94);
  INFO("seed " << lgc::test::test_seed() + 94);
  for (int rep = 0; rep < 3000; ++rep) {
    const double x = rep % 3 == 0 ? random_double(rng, -4, 4) : random_double(rng, -1e5, 1e5);
    const double w = rep % 2 == 0 ? 0 : std::abs(x) * 0x1p-40;  // a point, or a narrow interval
    INFO("x = " << x << ", width " << w);
    const FastInterval s = sin(FastInterval{x, x + w});
    CHECK(encloses(s, sin(Interval(Rational(x), 256))));
    CHECK(encloses(s, sin(Interval(Rational(x + w), 256))));
    CHECK(s.hi - s.lo < 2.001 * w + 1e-15 * std::abs(x) + 3e-11);  // the remainder 1e-11; k·π costs about k ulps
  }
  // Near multiples of π, where the reduction cancels, and beyond 2^20 (the whole [−1, 1]).
  for (double k : {1.0, 2.0, 3.0, 1000.0, 300000.0}) {
    const double x = k * 3.141592653589793;
    INFO("x = " << x);
    CHECK(encloses(sin(FastInterval::point(x)), sin(Interval(Rational(x), 256))));
  }
  const FastInterval far = sin(FastInterval::point(0x1p21));
  CHECK(far.lo == -1);
  CHECK(far.hi == 1);
}

TEST_CASE("FastInterval sin_range and cos_range contain the MPFI values and are tight at the extrema",
          "[fast-interval]") {
  std::mt19937_64 rng(lgc::test::test_seed() + 95);
  INFO("seed " << lgc::test::test_seed() + 95);
  const auto mpfi_cos = [](const Rational& x) {  // 1 − 2 sin²(x/2)
    const Interval s = sin(Interval(x / 2, 256));
    return Interval(Rational(1), 256) - Interval(Rational(2), 256) * s * s;
  };
  for (int rep = 0; rep < 3000; ++rep) {
    const double x = rep % 3 == 0 ? random_double(rng, -4, 4) : random_double(rng, -1e5, 1e5);
    const double w = rep % 2 == 0 ? 0 : random_double(rng, 0, 3);  // a point, or an interval of width up to 3
    INFO("x = " << x << ", width " << w);
    const FastInterval s = lgc::sin_range(FastInterval{x, x + w}), c = lgc::cos_range(FastInterval{x, x + w});
    // Every point of the interval (its ends and 8 inside), against MPFI's sin and 1 − 2 sin²(x/2).
    for (int i = 0; i <= 9; ++i) {
      const Rational t = Rational(x) + Rational(w) * Rational(i, 9);
      CHECK(encloses(s, sin(Interval(t, 256))));
      CHECK(encloses(c, mpfi_cos(t)));
    }
    // Tight: within 10⁻⁹ of the true range's ends (the ends' enclosures, the extrema exact).
    double true_lo = 2, true_hi = -2, cos_lo = 2, cos_hi = -2;
    for (int i = 0; i <= 4000; ++i) {
      const double t = x + w * i / 4000;
      true_lo = std::min(true_lo, std::sin(t)), true_hi = std::max(true_hi, std::sin(t));
      cos_lo = std::min(cos_lo, std::cos(t)), cos_hi = std::max(cos_hi, std::cos(t));
    }
    const double slack = 1e-9 + (w / 4000) * (w / 4000);  // the sampled range's own error near an extremum
    CHECK(s.lo > true_lo - slack);
    CHECK(s.hi < true_hi + slack);
    CHECK(c.lo > cos_lo - slack);
    CHECK(c.hi < cos_hi + slack);
  }
  // An extremum inside: the end exactly ±1; beyond 2^20 or wider than 6: [−1, 1].
  CHECK(lgc::sin_range(FastInterval{1.5, 1.6}).hi == 1);
  CHECK(lgc::sin_range(FastInterval{-1.6, -1.5}).lo == -1);
  CHECK(lgc::cos_range(FastInterval{-0.1, 0.1}).hi == 1);
  CHECK(lgc::cos_range(FastInterval{-0.1, 0.1}).lo > 0.99);
  CHECK(lgc::cos_range(FastInterval{3.1, 3.2}).lo == -1);
  CHECK(lgc::sin_range(FastInterval{0, 6}).lo == -1);
  CHECK(lgc::sin_range(FastInterval{0x1p21, 0x1p21}).hi == 1);
}

TEST_CASE("The double-first two-layer evaluation contains the 512-bit value on long inputs", "[fast-interval][section5]") {
  std::mt19937_64 rng(lgc::test::test_seed() + 93);
  INFO("seed " << lgc::test::test_seed() + 93);
  // Models without MLPs, with a second-layer MLP, and with an MLP in both
  // layers (the second layer's copied to the first).
  std::vector<std::pair<std::string, lgc::Model>> models;
  for (const char* path : {"paper/induction/induction_head_k1.json", "section5/attention_pair_rare.json",
                           "section5/attention_pair_two_heads_mlp.json"})
    for (const lgc::Model& m : lgc::test::bundled(path).models) models.emplace_back(path, m);
  lgc::Model both = models.back().second;
  REQUIRE(both.layers[1].mlp.has_value());
  both.layers[0].mlp = both.layers[1].mlp;
  models.emplace_back("first-layer MLP too", both);
  for (const auto& [path, m] : models) {
    const lgc::SoftmaxLinearEvaluator eval(m), precise(m, 512);
    const lgc::FastSoftmaxLinear cheap(lgc::SoftmaxFirstLayer(m, 128));
    for (std::size_t T : {1u, 2u, 7u, 2000u}) {
      const lgc::Tokens x = lgc::random_string(m.alphabet_size(), T, rng);
      INFO(path << " T = " << T);
      REQUIRE(cheap.representation(x).has_value());  // the cheap path is the one tested here
      const lgc::Output fast = eval.evaluate(x), reference = precise.precise_evaluate(x);
      for (std::size_t k = 0; k < fast.size(); ++k) {
        CHECK(fast[k].enclosure().contains(reference[k].enclosure()));
        CHECK(fast[k].enclosure().width() < Rational(1, 1000000000));
      }
    }
  }
}

TEST_CASE("An overflowing exponential sends the evaluation to MPFI", "[fast-interval][section5]") {
  lgc::Model m = lgc::test::bundled("paper/induction/induction_head_k1.json").model();
  for (auto& head : m.layers[1].heads) head.qk = head.qk.map<Rational>([](const Rational& q) { return q * 100000; });
  const lgc::SoftmaxLinearEvaluator eval(m);
  const lgc::FastSoftmaxLinear cheap(lgc::SoftmaxFirstLayer(m, 128));
  std::mt19937_64 rng(5);
  const lgc::Tokens x = lgc::random_string(m.alphabet_size(), 50, rng);
  REQUIRE_FALSE(cheap.representation(x).has_value());
  const lgc::Output a = eval.evaluate(x), b = eval.precise_evaluate(x);
  for (std::size_t k = 0; k < a.size(); ++k) CHECK(a[k].enclosure().lower() == b[k].enclosure().lower());
}
