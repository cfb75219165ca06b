// Shards and threads: the split is deterministic, the shards cover every
// statistic exactly once, and the exhaustive distance curve (with its
// argmax) is the same for any thread count.
#include "lgcheck/enumerate/parallel.hpp"
#include "lgcheck/quantities/distance.hpp"
#include "lgcheck/enumerate/strings.hpp"
#include "lgcheck/semantics/statistic.hpp"

#include "support.hpp"

#include <random>
#include <set>

TEST_CASE("parse_shard reads i/n and refuses the rest", "[parallel]") {
  const lgc::Shard s = lgc::parse_shard("1/3");
  CHECK(s.index == 1);
  CHECK(s.count == 3);
  CHECK(s.owns(4));
  CHECK_FALSE(s.owns(5));
  for (const char* bad : {"3/3", "1", "a/2", "1/0", "-1/2", "1/2x", ""}) {
    INFO(bad);
    CHECK_THROWS_AS(lgc::parse_shard(bad), std::invalid_argument);
  }
}

TEST_CASE("The shards of a statistic enumeration partition it", "[parallel]") {
  const lgc::Shape shape{2, 2, 1};
  for (std::uint64_t T : {1u, 3u, 9u}) {
    std::vector<std::string> all, merged;
    lgc::for_each_statistic(shape, T, [&](const lgc::Statistic& s) {
      all.push_back(lgc::statistic_to_json(s).dump());
      return true;
    });
    for (std::uint64_t i = 0; i < 3; ++i)
      lgc::for_each_statistic(
          shape, T,
          [&](const lgc::Statistic& s) {
            merged.push_back(lgc::statistic_to_json(s).dump());
            return true;
          },
          lgc::Shard{i, 3});
    CHECK(all.size() == lgc::statistic_count(shape, T));
    CHECK(std::multiset<std::string>(all.begin(), all.end()) == std::multiset<std::string>(merged.begin(), merged.end()));
  }
}

TEST_CASE("The distance curve and its argmax do not depend on the thread count", "[parallel]") {
  std::mt19937_64 rng(11);
  for (int trial = 0; trial < 6; ++trial) {
    const std::size_t S = 2 + trial % 2, D = 1 + trial % 3, tau = trial % 2;
    const lgc::Model f = lgc::test::random_one_layer_model(rng, S, D, tau, 1 + trial % 2, trial % 3 == 0);
    lgc::Model g = f;
    g.layers[0].heads[0].value(0, 0) += lgc::Rational(1, 7);
    const lgc::OneLayerEvaluator ef(f), eg(g);
    const lgc::DistanceCurve one = lgc::distance_curve(ef, eg, 9, 0, 2000000, 1);
    for (unsigned threads : {2u, 3u}) {
      const lgc::DistanceCurve many = lgc::distance_curve(ef, eg, 9, 0, 2000000, threads);
      INFO("trial " << trial << " threads " << threads);
      REQUIRE(many.D.size() == one.D.size());
      CHECK(many.statistics == one.statistics);
      for (std::size_t n = 0; n < one.D.size(); ++n) {
        CHECK(upper_of(many.D[n]) == upper_of(one.D[n]));
        CHECK(lower_of(many.D[n]) == lower_of(one.D[n]));
        CHECK(lgc::statistic_to_json(many.argmax[n]) == lgc::statistic_to_json(one.argmax[n]));
      }
    }
  }
}

TEST_CASE("lgcheck check gives the same verdicts and details for any --threads", "[parallel][cli]") {
  const std::string cases = lgc::test::case_path("witnesses/farey_hat_n8.json").string() + " " +
                            lgc::test::case_path("pairs/modp_p3_perturbed_pair.json").string();
  auto one = lgc::test::run_lgcheck("check " + cases + " --threads 1 --json");
  auto two = lgc::test::run_lgcheck("check " + cases + " --threads 2 --json");
  CHECK(one.exit_code == 0);
  CHECK(one.out == two.out);
  CHECK(lgc::test::run_lgcheck("check " + cases + " --threads 0").exit_code == 2);
}

TEST_CASE("The prefix-tree walk keeps the statistic of every prefix", "[parallel][statistic]") {
  for (const lgc::Shape shape : {lgc::Shape{3, 2, 1}, lgc::Shape{2, 3, 0}, lgc::Shape{2, 1, 2}}) {
    std::vector<lgc::Tokens> strings;
    for (std::size_t n = 1; n <= 6; ++n)
      lgc::for_each_string(shape.alphabet_size, n, [&](const lgc::Tokens& x) {
        strings.push_back(x);
        return true;
      });
    std::vector<std::string> walked, direct;
    const std::uint64_t nodes = lgc::for_each_prefix_statistic(shape, 6, [&](const lgc::Statistic& s) {
      walked.push_back(lgc::statistic_to_json(s).dump());
      return true;
    });
    for (const auto& x : strings) direct.push_back(lgc::statistic_to_json(lgc::statistic_of(shape, x)).dump());
    CHECK(nodes == strings.size());
    CHECK(std::multiset<std::string>(walked.begin(), walked.end()) == std::multiset<std::string>(direct.begin(), direct.end()));
  }
  // Pruning: refusing every node of length 2 visits lengths 1 and 2 only.
  const std::uint64_t pruned =
      lgc::for_each_prefix_statistic(lgc::Shape{3, 1, 0}, 5, [](const lgc::Statistic& s) { return s.length < 2; });
  CHECK(pruned == 3 + 9);
}
