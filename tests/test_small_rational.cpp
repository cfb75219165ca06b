// SmallRational (64-bit exact rationals with overflow detection) against GMP,
// and the one-layer hardmax evaluation and distance curve that use it against
// the same computations in GMP only (ExactArithmetic::gmp_only).
#include "lgcheck/numeric/small_rational.hpp"
#include "lgcheck/quantities/distance.hpp"
#include "support.hpp"

#include <climits>

using lgc::Rational;
using lgc::SmallArithmetic;
using lgc::SmallRational;

namespace {

/// A random canonical SmallRational whose numerator and denominator have up
/// to `bits` bits (1..63).
SmallRational random_small(std::mt19937_64& rng, unsigned bits) {
  const std::uint64_t mask = bits >= 63 ? static_cast<std::uint64_t>(INT64_MAX) : (std::uint64_t{1} << bits) - 1;
  const auto num = static_cast<std::int64_t>(rng() & mask), den = static_cast<std::int64_t>((rng() & mask) | 1);
  const Rational q(lgc::Integer(rng() % 2 ? -num : num), lgc::Integer(den));
  return *lgc::to_small(q);
}

/// The outcome of one SmallArithmetic operation against the GMP value: equal
/// when it did not overflow, and an overflow exactly when the GMP value does
/// not fit.
void require_matches(const SmallArithmetic& arith, const SmallRational& got, const Rational& want) {
  const std::optional<SmallRational> fits = lgc::to_small(want);
  REQUIRE(arith.overflowed() == !fits.has_value());
  if (fits) {
    REQUIRE(got == *fits);
    REQUIRE(lgc::to_rational(got) == want);
  }
}

}  // namespace

TEST_CASE("SmallRational arithmetic equals GMP's, and overflows exactly when the result does not fit") {
  std::mt19937_64 rng(11);
  std::size_t overflows = 0, exact = 0;
  for (int trial = 0; trial < 20000; ++trial) {
    const unsigned bits = 1 + static_cast<unsigned>(rng() % 63);
    const SmallRational a = random_small(rng, bits), b = random_small(rng, 1 + static_cast<unsigned>(rng() % 63));
    const Rational qa = lgc::to_rational(a), qb = lgc::to_rational(b);
    const std::uint64_t n = rng() >> (rng() % 64);
    SmallArithmetic add, sub, mul, scale, divide;
    require_matches(add, add.add(a, b), qa + qb);
    require_matches(sub, sub.sub(a, b), qa - qb);
    require_matches(mul, mul.mul(a, b), qa * qb);
    require_matches(scale, scale.scale(a, n), qa * Rational(lgc::Integer(n)));
    if (n > 0) require_matches(divide, divide.divide(a, n), qa / Rational(lgc::Integer(n)));
    REQUIRE(lgc::compare(a, b) == (qa < qb ? -1 : (qa > qb ? 1 : 0)));
    (add.overflowed() ? overflows : exact) += 1;
  }
  // Both outcomes occur: the operands span every size up to 63 bits.
  REQUIRE(overflows > 1000);
  REQUIRE(exact > 1000);
}

TEST_CASE("SmallRational conversions: INT64_MIN and wider numbers do not fit, canonical values round-trip") {
  REQUIRE_FALSE(lgc::to_small(Rational(lgc::Integer(INT64_MIN))));
  REQUIRE_FALSE(lgc::to_small(Rational(lgc::Integer(1), lgc::pow(lgc::Integer(2), 63))));
  REQUIRE(lgc::to_small(Rational(lgc::Integer(INT64_MAX), lgc::Integer(2))) == SmallRational{INT64_MAX, 2});
  REQUIRE(lgc::to_small(Rational(-6, 4)) == SmallRational{-3, 2});
  REQUIRE(lgc::to_rational(SmallRational{-3, 2}) == Rational(-3, 2));
  SmallArithmetic a;
  a.add(SmallRational{INT64_MAX, 1}, SmallRational{1, 1});
  REQUIRE(a.overflowed());
  a.reset();
  REQUIRE(a.add(SmallRational{1, 3}, SmallRational{-1, 3}) == SmallRational{0, 1});
  REQUIRE_FALSE(a.overflowed());
}

namespace {

/// A random one-layer hardmax model; with `wide_bits` > 0, every value entry
/// is multiplied by a random fraction of numerator and denominator of that
/// many bits, so that the sums of the hardmax average leave 64 bits on some
/// statistics.
lgc::Model random_hardmax_model(std::mt19937_64& rng, std::size_t S, std::size_t D, std::size_t tau, bool mlp,
                                unsigned wide_bits) {
  lgc::Model m = lgc::test::random_one_layer_model(rng, S, D, tau, 1 + rng() % 2, mlp);
  m.semantics = lgc::Semantics::hardmax();
  if (wide_bits == 0) return m;
  auto factor = [&] { return lgc::Integer(1 + rng() % (std::uint64_t{1} << wide_bits)); };
  for (auto& head : m.layers[0].heads)
    for (std::size_t r = 0; r < head.value.rows(); ++r)
      for (std::size_t c = 0; c < head.value.cols(); ++c) {
        const lgc::Integer num = factor(), den = factor();  // in this order on every compiler
        head.value(r, c) *= Rational(num, den);
      }
  return m;
}

}  // namespace

TEST_CASE("One-layer hardmax in 64-bit rationals gives GMP's exact representation and output") {
  std::mt19937_64 rng(12);
  std::size_t small = 0, fallback = 0;
  for (int trial = 0; trial < 60; ++trial) {
    const std::size_t S = 2 + rng() % 3, D = 1 + rng() % 3, tau = rng() % 3;
    const lgc::Model m = random_hardmax_model(rng, S, D, tau, rng() % 2 == 0, trial % 4 == 3 ? 25 : 0);
    const lgc::OneLayerEvaluator fast(m), reference(m, lgc::ExactArithmetic::gmp_only);
    REQUIRE_FALSE(reference.has_small_path());
    for (int k = 0; k < 40; ++k) {
      const lgc::Statistic s = lgc::random_statistic(fast.shape(), 1 + rng() % 5000, rng);
      REQUIRE(fast.representation(s) == reference.representation(s));
      std::vector<SmallRational> out;
      if (fast.evaluate_small(s, out)) {
        ++small;
        const lgc::Output want = reference.evaluate(s);
        REQUIRE(out.size() == want.size());
        for (std::size_t i = 0; i < out.size(); ++i) REQUIRE(lgc::to_rational(out[i]) == want[i].exact());
      } else {
        ++fallback;
      }
    }
  }
  REQUIRE(small > 1000);
  REQUIRE(fallback > 20);  // the GMP fallback is exercised, not only the fast path
}

namespace {

/// Every key ties (qk = 0), and the value's first component is 1/d_s with
/// d_a = 2^33 + 1, d_b = 2^33 + 3: a statistic of one class stays within
/// 64 bits, one that averages both has the denominator d_a·d_b·T > 2^66.
lgc::Model mixing_model() {
  std::mt19937_64 rng(1);
  lgc::Model m = lgc::test::random_one_layer_model(rng, 2, 1, 0, 1, false);
  m.semantics = lgc::Semantics::hardmax();
  const lgc::Integer big = lgc::pow(lgc::Integer(2), 33);
  m.embedding = lgc::QMatrix(2, 3);
  m.embedding(0, 0) = Rational(lgc::Integer(1), big + 1);
  m.embedding(1, 1) = Rational(lgc::Integer(1), big + 3);
  m.positional = lgc::QMatrix(1, 3);
  lgc::Head& head = m.layers[0].heads[0];
  head.qk = lgc::QMatrix(3, 3);
  head.value = lgc::QMatrix(3, 3);
  head.value(0, 0) = head.value(0, 1) = 1;
  head.phi = {0};
  m.readout = {lgc::QMatrix(1, 3), {0}, std::nullopt};
  m.readout.weights(0, 0) = 1;
  return m;
}

}  // namespace

TEST_CASE("distance_curve with 64-bit rationals gives the GMP curve, argmax, counts and visit digest") {
  std::mt19937_64 rng(13);
  std::size_t mixed = 0;  // curves where some statistics fit 64 bits and others fall back to GMP
  for (int trial = 0; trial < 12; ++trial) {
    const std::size_t S = 2 + rng() % 2, D = 1 + rng() % 2, tau = rng() % 2;
    const lgc::Model f =
        trial == 0 ? mixing_model() : random_hardmax_model(rng, S, D, tau, trial % 3 == 0, trial % 2 == 1 ? 27 : 0);
    lgc::Model g = f;
    g.readout.bias[0] += Rational(1, 1000);
    g.layers[0].heads[0].value(0, 0) += Rational(1, 3);  // a second difference, depending on the input
    const lgc::OneLayerEvaluator ff(f), fg(g);
    const lgc::OneLayerEvaluator rf(f, lgc::ExactArithmetic::gmp_only), rg(g, lgc::ExactArithmetic::gmp_only);
    std::size_t fits = 0, falls_back = 0;
    std::vector<SmallRational> out;
    for (std::uint64_t n = 1; n <= 9; ++n)
      lgc::for_each_statistic(ff.shape(), n, [&](const lgc::Statistic& s) {
        (ff.evaluate_small(s, out) && fg.evaluate_small(s, out) ? fits : falls_back) += 1;
        return true;
      });
    if (fits > 0 && falls_back > 0) ++mixed;
    for (unsigned threads : {1u, 2u}) {
      const lgc::DistanceCurve a = lgc::distance_curve(ff, fg, 9, 0, 2000000, threads);
      const lgc::DistanceCurve b = lgc::distance_curve(rf, rg, 9, 0, 2000000, threads);
      REQUIRE(a.reached == b.reached);
      REQUIRE(a.statistics == b.statistics);
      REQUIRE(a.visited.to_json() == b.visited.to_json());
      REQUIRE(a.argmax == b.argmax);
      REQUIRE(a.D.size() == b.D.size());
      for (std::size_t n = 0; n < a.D.size(); ++n) REQUIRE(a.D[n].exact() == b.D[n].exact());
    }
  }
  REQUIRE(mixed >= 2);  // mixing_model and at least one random model
}

TEST_CASE("D(n) of sin readouts: skipping what the FastInterval bound puts below the maximum changes nothing") {
  // Sin-readout pairs (with and without an MLP): the 64-bit evaluators skip the full-precision evaluation of a
  // statistic whose certified double bound lies below the running maximum's lower end; the GMP-only evaluators
  // evaluate every statistic. The curves, argmax, counts and digests must be the same, by both curve algorithms.
  std::mt19937_64 rng(15);
  std::uint64_t skipped = 0;
  for (int trial = 0; trial < 8; ++trial) {
    lgc::Model f = random_hardmax_model(rng, 2 + rng() % 2, 1 + rng() % 2, rng() % 2, trial % 2 == 0, 0);
    f.readout.sin_omega = Rational(1 + trial, 2);
    lgc::Model g = f;
    g.readout.bias[0] += Rational(1, 1000);
    g.layers[0].heads[0].value(0, 0) += Rational(1, 3);
    if (trial % 3 == 0) g.readout.sin_omega.reset();  // a sin model against a rational one
    const lgc::OneLayerEvaluator ff(f), fg(g);
    const lgc::OneLayerEvaluator rf(f, lgc::ExactArithmetic::gmp_only), rg(g, lgc::ExactArithmetic::gmp_only);
    INFO("trial " << trial);
    for (bool reduced : {false, true}) {
      const lgc::DistanceCurve a = reduced ? lgc::reduced_distance_curve(ff, fg, 12, 2000000, 2)
                                           : lgc::distance_curve(ff, fg, 12, 0, 2000000, 2);
      const lgc::DistanceCurve b = reduced ? lgc::reduced_distance_curve(rf, rg, 12, 2000000, 2)
                                           : lgc::distance_curve(rf, rg, 12, 0, 2000000, 2);
      CHECK(b.below_maximum == 0);
      skipped += a.below_maximum;
      REQUIRE(a.reached == b.reached);
      REQUIRE(a.statistics == b.statistics);
      REQUIRE(a.visited.to_json() == b.visited.to_json());
      REQUIRE(a.argmax == b.argmax);
      REQUIRE(a.D.size() == b.D.size());
      for (std::size_t n = 0; n < a.D.size(); ++n) {
        REQUIRE(a.D[n].is_exact() == b.D[n].is_exact());
        REQUIRE(lower_of(a.D[n]) == lower_of(b.D[n]));
        REQUIRE(upper_of(a.D[n]) == upper_of(b.D[n]));
      }
    }
  }
  CHECK(skipped > 1000);  // the filter was exercised
}

TEST_CASE("distance_curve refuses outputs of different sizes on the 64-bit path as in GMP") {
  std::mt19937_64 rng(14);
  const lgc::Model f = random_hardmax_model(rng, 2, 1, 0, false, 0);
  lgc::Model g = f;
  g.readout.weights = lgc::QMatrix(3, g.width);  // three outputs against f's two
  g.readout.bias = {0, 0, 0};
  const lgc::OneLayerEvaluator ef(f), eg(g), rf(f, lgc::ExactArithmetic::gmp_only), rg(g, lgc::ExactArithmetic::gmp_only);
  REQUIRE(ef.has_small_path());
  REQUIRE_THROWS_AS(lgc::distance_curve(ef, eg, 3, 0, 2000000, 1), std::invalid_argument);
  REQUIRE_THROWS_AS(lgc::distance_curve(rf, rg, 3, 0, 2000000, 1), std::invalid_argument);
}
