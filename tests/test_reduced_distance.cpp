// The reduced curve (theory.md "The reduced curve"): the same D(n) as the
// enumeration of every statistic, on random hardmax pairs built to have tied
// logits, single-valued heads and absorbing classes, and on the bundled
// two-pattern pair.
#include "support.hpp"

#include "lgcheck/quantities/distance.hpp"
#include "lgcheck/semantics/one_layer.hpp"

#include <catch2/catch.hpp>

#include <random>

using lgc::Rational;

namespace {

/// Logits in {0, 1} (many ties, so top sets of several classes and classes
/// below every top), values that often read only the token's first
/// embedding coordinate (so classes that share it share their value).
lgc::Model tied_model(std::mt19937_64& rng, std::size_t S, std::size_t D, std::size_t tau, bool mlp) {
  lgc::Model m = lgc::test::random_one_layer_model(rng, S, D, tau, 1 + rng() % 2, mlp);
  m.semantics = lgc::Semantics::hardmax();
  auto bit = [&] { return Rational(static_cast<long>(rng() % 2)); };
  for (std::size_t s = 0; s < S; ++s)
    for (std::size_t k = 0; k < m.width; ++k) m.embedding(s, k) = bit();
  for (std::size_t r = 0; r < D; ++r)
    for (std::size_t k = 0; k < m.width; ++k) m.positional(r, k) = rng() % 3 == 0 ? bit() : Rational(0);
  for (auto& head : m.layers[0].heads) {
    for (std::size_t i = 0; i < m.width; ++i)
      for (std::size_t j = 0; j < m.width; ++j) head.qk(i, j) = rng() % 2 == 0 ? bit() : Rational(0);
    for (auto& phi : head.phi) phi = rng() % 3 == 0 ? bit() : Rational(0);
    if (rng() % 2 == 0)  // the value reads the first coordinate only
      for (std::size_t i = 0; i < m.width; ++i)
        for (std::size_t j = 1; j < m.width; ++j) head.value(i, j) = 0;
  }
  return m;
}

/// g: f with one difference the inputs see (a value entry, another bilinear
/// form, or a readout bias), drawn at random.
lgc::Model perturbed(const lgc::Model& f, std::mt19937_64& rng) {
  lgc::Model g = f;
  switch (rng() % 3) {
    case 0: g.layers[0].heads[0].value(0, 0) += Rational(1, 3); break;
    case 1: g.layers[0].heads[0].qk(rng() % g.width, rng() % g.width) += 1; break;
    default: g.readout.bias[0] += Rational(1, 7); g.layers[0].heads.back().value(1, 0) -= Rational(1, 2); break;
  }
  return g;
}

void require_same_curve(const lgc::DistanceCurve& reduced, const lgc::DistanceCurve& full,
                        const lgc::OneLayerEvaluator& f, const lgc::OneLayerEvaluator& g) {
  REQUIRE(reduced.reached == full.reached);
  REQUIRE(reduced.D.size() == full.D.size());
  REQUIRE(reduced.statistics <= full.statistics);
  for (std::size_t n = 0; n < full.D.size(); ++n) {
    REQUIRE(lgc::lower_of(reduced.D[n]) == lgc::lower_of(full.D[n]));
    REQUIRE(lgc::upper_of(reduced.D[n]) == lgc::upper_of(full.D[n]));
    // The argmax is a statistic of length <= n + 1 at which |f − g| is D(n + 1).
    const lgc::Statistic& at = reduced.argmax[n];
    REQUIRE(at.length <= n + 1);
    lgc::validate_statistic(f.shape(), at);
    REQUIRE(lgc::upper_of(lgc::max_abs_difference(f.evaluate(at), g.evaluate(at))) == lgc::upper_of(full.D[n]));
  }
}

}  // namespace

TEST_CASE("reduced_distance_curve gives distance_curve's D(n) on random hardmax pairs with tied logits") {
  std::mt19937_64 rng(41);
  std::size_t positive = 0, skipping = 0;
  for (int trial = 0; trial < 48; ++trial) {
    const std::size_t S = 2 + rng() % 2, D = 1 + rng() % 2, tau = rng() % 2;
    lgc::Model f = tied_model(rng, S, D, tau, trial % 3 == 0);
    if (trial % 8 == 5) f.readout.sin_omega = Rational(3, 2);  // certified enclosures, not exact values
    const lgc::Model g = perturbed(f, rng);
    const lgc::OneLayerEvaluator ef(f), eg(g);
    const std::uint64_t n = S == 3 && D == 2 ? 9 : 12;
    const lgc::DistanceCurve full = lgc::distance_curve(ef, eg, n, 0, UINT64_MAX, 1);
    for (unsigned threads : {1u, 2u}) {
      const lgc::DistanceCurve reduced = lgc::reduced_distance_curve(ef, eg, n, UINT64_MAX, threads);
      require_same_curve(reduced, full, ef, eg);
      std::uint64_t counted = 0;
      for (std::uint64_t k = 1; k <= n; ++k) counted += lgc::reduced_statistic_count(ef, eg, k);
      REQUIRE(counted == reduced.statistics);
      if (threads == 1 && reduced.statistics < full.statistics) ++skipping;
    }
    if (lgc::upper_of(full.D.back()) > 0) ++positive;
  }
  // Not vacuous: most pairs differ somewhere, and on most the reduction skips statistics.
  REQUIRE(positive >= 30);
  REQUIRE(skipping >= 30);
}

TEST_CASE("reduced_distance_curve: the two-pattern ModPTask pair, and lengths beyond the enumeration") {
  const lgc::Case c = lgc::test::bundled("pairs/modp_p2_two_pattern_pair.json");
  const lgc::OneLayerEvaluator f(c.models[0]), g(c.models[1]);
  const lgc::DistanceCurve full = lgc::distance_curve(f, g, 24, 0, UINT64_MAX, 2);
  const lgc::DistanceCurve reduced = lgc::reduced_distance_curve(f, g, 24, UINT64_MAX, 2);
  require_same_curve(reduced, full, f, g);
  // At length 2000 every statistic would be 2·1000·1000-odd; the reduced ones grow linearly.
  const std::uint64_t all = lgc::statistic_count(f.shape(), 2000), kept = lgc::reduced_statistic_count(f, g, 2000);
  REQUIRE(all > 2000000);
  REQUIRE(kept < 20000);
  // A per-length cap stops the curve where a length keeps more than it.
  const lgc::DistanceCurve capped = lgc::reduced_distance_curve(f, g, 200, 300, 1);
  REQUIRE(capped.reached < 200);
  REQUIRE(lgc::reduced_statistic_count(f, g, capped.reached + 1) > 300);
}

TEST_CASE("reduced_distance_curve refuses pairs of different shapes") {
  std::mt19937_64 rng(42);
  const lgc::Model f = tied_model(rng, 2, 1, 0, false), g = tied_model(rng, 2, 2, 0, false);
  const lgc::OneLayerEvaluator ef(f), eg(g);
  REQUIRE_THROWS_AS(lgc::reduced_distance_curve(ef, eg, 4), std::invalid_argument);
}
