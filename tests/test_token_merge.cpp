// Indistinguishable tokens (theory.md "Indistinguishable tokens"): merging
// the tokens whose embedding rows agree in both models gives the same D(n),
// with argmax statistics of the original alphabet; merging by one model's
// rows alone (the mutation) does not.
#include "curves.hpp"
#include "support.hpp"

#include "lgcheck/quantities/distance.hpp"
#include "lgcheck/quantities/token_merge.hpp"
#include "lgcheck/semantics/one_layer.hpp"

#include <catch2/catch.hpp>

namespace {

lgc::Case data_pair(const char* name) { return lgc::load_case(lgc::test::source_dir() / "tests" / "data" / name); }

/// The pair with period 2: a second positional row (1/2, 0, ..., 0) in both models.
lgc::Case with_period_two(lgc::Case c) {
  for (lgc::Model& m : c.models) {
    lgc::QMatrix p(2, m.width);
    for (std::size_t k = 0; k < m.width; ++k) p(0, k) = m.positional(0, k), p(1, k) = k == 0 ? lgc::Rational(1, 2) : 0;
    m.positional = p;
    m.period = 2;
  }
  return c;
}

/// The bounded curve of (f, g) with `merge`'s tokens merged, its argmax made the original pair's.
lgc::DistanceCurve merged_curve(const lgc::Model& f, const lgc::Model& g, const lgc::TokenMerge& merge, std::uint64_t n) {
  const lgc::Model mf = lgc::merged_model(f, merge), mg = lgc::merged_model(g, merge);
  const lgc::OneLayerEvaluator ef(mf), eg(mg);
  lgc::DistanceCurve curve = lgc::bounded_distance_curve(ef, eg, n, UINT64_MAX, 2);
  lgc::unmerge_curve(curve, merge, f.period);
  return curve;
}

/// The lengths at which two curves' D differ (either end): 0 when they are the same Number at every length.
std::size_t differing_lengths(const lgc::DistanceCurve& a, const lgc::DistanceCurve& b) {
  REQUIRE(a.D.size() == b.D.size());
  std::size_t differ = 0;
  for (std::size_t k = 0; k < a.D.size(); ++k)
    if (lgc::lower_of(a.D[k]) != lgc::lower_of(b.D[k]) || lgc::upper_of(a.D[k]) != lgc::upper_of(b.D[k])) ++differ;
  return differ;
}

constexpr std::uint64_t kLength =
#ifdef LGCHECK_SANITIZED
    16;
#else
    40;
#endif

}  // namespace

TEST_CASE("indistinguishable_tokens keeps the first token of each embedding row of both models", "[token-merge]") {
  const lgc::Case c = data_pair("two_average_sin_pair.json");  // tokens c and d: one row, (0, 0, 1), in f and g
  const lgc::TokenMerge merge = lgc::indistinguishable_tokens({&c.models[0], &c.models[1]});
  CHECK(merge.kept == std::vector<std::size_t>{0, 1, 2});
  CHECK(merge.stands_for == std::vector<std::size_t>{0, 1, 2, 2});
  CHECK(merge.merges());
  CHECK(lgc::merged_away(merge) == std::vector<std::pair<std::size_t, std::size_t>>{{3, 2}});
  CHECK_FALSE(lgc::every_token(4).merges());
  // Either model's row differing keeps both tokens (unless the first model's rows alone are compared).
  lgc::Model f = c.models[0], g = c.models[1];
  g.embedding(3, 0) = 1;
  CHECK_FALSE(lgc::indistinguishable_tokens({&c.models[0], &g}).merges());
  CHECK(lgc::indistinguishable_tokens({&c.models[0], &g}, true).merges());
  f.embedding(3, 1) = 1;
  CHECK_FALSE(lgc::indistinguishable_tokens({&f, &c.models[1]}).merges());
  lgc::Model narrow = g;
  narrow.alphabet.pop_back();
  CHECK_THROWS_AS(lgc::indistinguishable_tokens({&c.models[0], &narrow}), std::invalid_argument);


  const lgc::Case other = data_pair("constant_difference_sin_pair.json");
  const lgc::TokenMerge skip = lgc::indistinguishable_tokens({&other.models[0], &other.models[1]});
  REQUIRE(skip.kept == std::vector<std::size_t>{0, 1, 3});
  CHECK(skip.stands_for == std::vector<std::size_t>{0, 1, 0, 2});
  const lgc::Model m = lgc::merged_model(other.models[0], skip);
  CHECK(m.alphabet == std::vector<std::string>{"a", "b", "d"});
  REQUIRE(m.embedding.rows() == 3);
  for (std::size_t k = 0; k < m.width; ++k) CHECK(m.embedding(2, k) == other.models[0].embedding(3, k));
  // A statistic of the merged shape with Δ = 2: window tokens and counts n_{s,r} (at s·Δ + r) moved to the kept
  // tokens' original indices, the merged-away token's counts 0.
  const lgc::Statistic sigma{13, {2, 0}, {3, 2, 1, 0, 2, 3}};
  const lgc::Statistic back = lgc::unmerged_statistic(sigma, skip, 2);
  CHECK(back.length == 13);
  CHECK(back.window == lgc::Tokens{3, 0});
  CHECK(back.counts == std::vector<std::uint64_t>{3, 2, 1, 0, 0, 0, 2, 3});
}

TEST_CASE("the merged pair's curve is the pair's: the same D(n), an argmax of the original alphabet attaining it",
          "[token-merge][bounded]") {
  struct Pair {
    lgc::Case c;
    std::uint64_t n;
  };
  const Pair pairs[] = {{data_pair("two_average_sin_pair.json"), kLength},
                        {data_pair("one_average_rational_pair.json"), kLength},
                        {data_pair("constant_difference_sin_pair.json"), kLength},  // kept a, b, d
                        {with_period_two(data_pair("constant_difference_sin_pair.json")), kLength / 2}};
  for (const auto& [c, n] : pairs) {
    INFO(c.name << ", period " << c.models[0].period);
    const lgc::Model &f = c.models[0], &g = c.models[1];
    const lgc::OneLayerEvaluator ef(f), eg(g);
    const lgc::TokenMerge merge = lgc::indistinguishable_tokens({&f, &g});
    REQUIRE(merge.merges());
    const lgc::DistanceCurve whole = lgc::reduced_distance_curve(ef, eg, n, UINT64_MAX, 2);
    const lgc::DistanceCurve merged = merged_curve(f, g, merge, n);
    CHECK(differing_lengths(merged, whole) == 0);
    // Fewer statistics than the same method on the whole alphabet.
    CHECK(merged.statistics < lgc::bounded_distance_curve(ef, eg, n, UINT64_MAX, 2).statistics);
    for (std::size_t k = 0; k < merged.D.size(); ++k) {
      const lgc::Statistic& at = merged.argmax[k];
      lgc::validate_statistic(ef.shape(), at);
      REQUIRE(at.length <= k + 1);
      REQUIRE(lgc::upper_of(lgc::output_distance(ef, at, eg, at)) == lgc::upper_of(whole.D[k]));
    }
  }
}

TEST_CASE("merging by the first model's rows alone (the mutation) misses D where the second tells the tokens apart",
          "[token-merge][bounded][mutation]") {
  const lgc::Case c = data_pair("two_average_sin_pair.json");
  const lgc::Model& f = c.models[0];
  lgc::Model g = c.models[1];
  g.embedding(3, 0) = 1;  // d: (1, 0, 1) in g, (0, 0, 1) = c's row in f
  const lgc::OneLayerEvaluator ef(f), eg(g);
  const lgc::DistanceCurve whole = lgc::reduced_distance_curve(ef, eg, kLength, UINT64_MAX, 2);
  const lgc::TokenMerge both = lgc::indistinguishable_tokens({&f, &g});
  CHECK_FALSE(both.merges());
  const lgc::TokenMerge first_only = lgc::indistinguishable_tokens({&f, &g}, true);
  REQUIRE(first_only.merges());
  // Over the kept tokens' strings alone (a subset), the wrong merge only misses: never above, certainly below here.
  const std::size_t missed = lgc::test::lengths_missed(merged_curve(f, g, first_only, kLength), whole);
  INFO("lengths missed by the mutation: " << missed);
  CHECK(missed >= kLength / 2);
}
