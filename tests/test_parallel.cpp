// Shards and threads: the split is deterministic, the shards cover every
// statistic exactly once, and the exhaustive distance curve (with its
// argmax) is the same for any thread count.
#include "lgcheck/enumerate/budget.hpp"
#include "lgcheck/enumerate/parallel.hpp"
#include "lgcheck/quantities/distance.hpp"
#include "lgcheck/enumerate/strings.hpp"
#include "lgcheck/enumerate/statistic.hpp"

#include "support.hpp"

#include <nlohmann/json.hpp>

#include <unistd.h>

#include <filesystem>
#include <latch>
#include <fstream>
#include <random>
#include <chrono>
#include <set>
#include <thread>

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

TEST_CASE("run_in_order hands each index to one thread and takes the results in order", "[parallel]") {
  for (unsigned threads : {1u, 2u, 4u}) {
    INFO(threads << " threads");
    const std::size_t n = 200;
    std::vector<std::size_t> done(n, 0), order, starts;
    // Later indices finish first (less work), so the results arrive out of order on several threads.
    lgc::run_in_order(
        n, threads,
        [&](std::size_t i) {
          volatile std::size_t spin = 0;
          for (std::size_t k = 0; k < (n - i) * 2000; ++k) spin = spin + k;
          done[i] = i * i;
        },
        [&](std::size_t i) {
          CHECK(done[i] == i * i);  // its work has finished
          order.push_back(i);
        },
        [&](std::size_t i, std::size_t emitted) {
          CHECK(emitted <= i);  // the items emitted so far precede the one taken
          starts.push_back(i);
        });
    std::vector<std::size_t> all(n);
    for (std::size_t i = 0; i < n; ++i) all[i] = i;
    CHECK(order == all);
    CHECK(starts == all);  // taken in order, each once
  }
  // Failing indices, as on one thread: every index before the least failing one is emitted, none after it, and
  // the least one's exception is rethrown (index 3 fails after index 7 has, in time).
  for (unsigned threads : {1u, 2u, 4u}) {
    INFO(threads << " threads");
    std::vector<std::size_t> emitted;
    CHECK_THROWS_WITH(lgc::run_in_order(
                          50, threads,
                          [](std::size_t i) {
                            if (i == 3) {
                              std::this_thread::sleep_for(std::chrono::milliseconds(50));
                              throw std::runtime_error("index 3 failed");
                            }
                            if (i == 7) throw std::runtime_error("index 7 failed");
                          },
                          [&](std::size_t i) { emitted.push_back(i); }),
                      "index 3 failed");
    CHECK(emitted == std::vector<std::size_t>{0, 1, 2});
    // A callback that throws stops the emission there.
    emitted.clear();
    CHECK_THROWS_WITH(lgc::run_in_order(
                          20, threads, [](std::size_t) {},
                          [&](std::size_t i) {
                            if (i == 5) throw std::runtime_error("emitting 5 failed");
                            emitted.push_back(i);
                          }),
                      "emitting 5 failed");
    CHECK(emitted == std::vector<std::size_t>{0, 1, 2, 3, 4});
  }
  // The items' enumerations share the threads: 4 threads over 2 items side by side give each 2; alone, all 4.
  lgc::set_enumeration_threads(4);
  std::vector<unsigned> shares(2);
  lgc::run_in_order(2, 4, [&](std::size_t i) { shares[i] = lgc::enumeration_threads(); }, [](std::size_t) {});
  CHECK(shares == std::vector<unsigned>{2, 2});
  lgc::run_in_order(2, 4, [&](std::size_t i) {
    const lgc::AllEnumerationThreads all;
    shares[i] = lgc::enumeration_threads();
  }, [](std::size_t) {});
  CHECK(shares == std::vector<unsigned>{4, 4});
  CHECK(lgc::enumeration_threads() == 4);
  lgc::set_enumeration_threads(0);
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

TEST_CASE("check --shard i/n parts merge into the result of one run", "[parallel][cli]") {
#ifdef LGCHECK_SANITIZED
  // Under the sanitizers four witness pairs (each claim is a process run four
  // times; margin_witness_gamma1_4_p2 alone took 70 s a run there); the Release
  // suite runs every witness pair and the pairs directory.
  std::string cases;
  for (const char* name : {"farey_hat_n4", "farey_hat_n8", "margin_witness_gamma1_2_p2", "margin_witness_gamma1_3_p2"})
    cases += lgc::test::case_path(std::string("witnesses/") + name + ".json").string() + " ";
#else
  const std::string cases = lgc::test::case_path("witnesses").string() + " " + lgc::test::case_path("pairs").string();
#endif
  const auto dir = std::filesystem::temp_directory_path() / ("lgcheck_shards_" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  auto whole = lgc::test::run_lgcheck("check " + cases + " --claims 'T4.1.*' --json");
  REQUIRE(whole.exit_code == 0);
  std::string parts;
  for (int i = 0; i < 3; ++i) {
    auto part = lgc::test::run_lgcheck("check " + cases + " --claims 'T4.1.*' --json --shard " + std::to_string(i) + "/3");
    REQUIRE(part.exit_code == 0);
    const auto file = dir / ("part" + std::to_string(i) + ".json");
    std::ofstream(file) << part.out;
    parts = (dir / ("part" + std::to_string(i) + ".json")).string() + " " + parts;  // any order
  }
  auto merged = lgc::test::run_lgcheck("merge " + parts + " --json");
  CHECK(merged.exit_code == 0);
  CHECK(merged.out == whole.out);
  // A missing shard, or parts of different runs, are refused.
  auto missing = lgc::test::run_lgcheck("merge " + (dir / "part0.json").string(), true);
  CHECK(missing.exit_code == 2);
  CHECK(missing.out.find("shard 1/3 is missing") != std::string::npos);
  CHECK(lgc::test::run_lgcheck("check " + cases + " --shard 2/2").exit_code == 2);
  std::filesystem::remove_all(dir);
}

TEST_CASE("check --shard splits one case's claims and the merge restores its expectations", "[parallel][cli]") {
  // Two cases with expected verdicts and a logit-margin expectation: the
  // claims of each case are spread over both shards, and only the merge
  // (which has all of a case's claims) compares the expectations.
  const std::string cases = lgc::test::case_path("section4/modp_p3_finite6_margin1_2.json").string() + " " +
                            lgc::test::case_path("average/farey_hat_n4_uniform.json").string();
  const auto dir = std::filesystem::temp_directory_path() / ("lgcheck_units_" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  auto whole = lgc::test::run_lgcheck("check " + cases + " --json");
  REQUIRE(whole.exit_code == 0);
  REQUIRE(whole.out.find("\"logit_margin\"") != std::string::npos);
  std::string files;
  std::vector<std::set<std::size_t>> cases_of_shard;
  for (int i = 0; i < 2; ++i) {
    auto part = lgc::test::run_lgcheck("check " + cases + " --json --shard " + std::to_string(i) + "/2");
    REQUIRE(part.exit_code == 0);
    const auto j = nlohmann::json::parse(part.out);
    std::set<std::size_t> seen;
    for (const auto& r : j["results"]) seen.insert(r["case_index"].get<std::size_t>());
    cases_of_shard.push_back(seen);
    const auto file = dir / ("part" + std::to_string(i) + ".json");
    std::ofstream(file) << part.out;
    files += " " + file.string();
  }
  CHECK(cases_of_shard[0].count(0) == 1);  // case 0's claims are in both shards
  CHECK(cases_of_shard[1].count(0) == 1);
  auto merged = lgc::test::run_lgcheck("merge" + files + " --json");
  CHECK(merged.exit_code == 0);
  CHECK(merged.out == whole.out);
  // A part of a run with another claim filter does not merge.
  auto other = lgc::test::run_lgcheck("check " + cases + " --claims 'L4.*' --json --shard 1/2");
  std::ofstream(dir / "other.json") << other.out;
  auto mixed = lgc::test::run_lgcheck("merge " + (dir / "part0.json").string() + " " + (dir / "other.json").string(), true);
  CHECK(mixed.exit_code == 2);
  CHECK(mixed.out.find("different runs") != std::string::npos);
  std::filesystem::remove_all(dir);
}

TEST_CASE("A budget stops an enumeration with UNDECIDED and the budget printed", "[budget][cli]") {
  CHECK(*lgc::parse_budget("1000").items == 1000);
  CHECK(*lgc::parse_budget("30s").seconds == 30);
  CHECK(*lgc::parse_budget("1.5m").seconds == 90);
  CHECK(*lgc::parse_budget("2h").seconds == 7200);
  for (const char* bad : {"", "0", "-5", "5x", "s", "0s", "1e3"}) {
    INFO(bad);
    CHECK_THROWS_AS(lgc::parse_budget(bad), std::invalid_argument);
  }
  const std::string witness = lgc::test::case_path("witnesses/farey_hat_n32.json").string();
  auto r = lgc::test::run_lgcheck("check " + witness + " --claims T4.1.witness --budget 1000 --json");
  CHECK(r.exit_code == 3);
  auto j = nlohmann::json::parse(r.out);
  REQUIRE(j["claims"].size() >= 1);
  CHECK(j["claims"][0]["verdict"] == "UNDECIDED");
  CHECK(j["claims"][0]["detail"].get<std::string>().find("budget of 1000 enumerated items") != std::string::npos);
  CHECK(j["claims"][0]["evidence"]["budget"] == "1000 enumerated items");
  // The case expects PROVED: running out of budget leaves that expectation undecided, not failed.
  CHECK(j["summary"]["expectations"]["undecided"] == 1);
  CHECK(j["summary"]["expectations"]["not_met"] == 0);
  // Enough budget: the verdict is the unbudgeted one.
  auto enough = lgc::test::run_lgcheck("check " + witness + " --claims T4.1.witness --budget 100000000");
  CHECK(enough.exit_code == 0);
  auto threshold = lgc::test::run_lgcheck("threshold " + witness + " --epsilon 1/10 --max-length 60 --budget 500", true);
  CHECK(threshold.exit_code == 3);
  CHECK(threshold.out.find("budget of 500 enumerated items") != std::string::npos);
}

namespace {

/// Restores the unlimited budget however the test ends.
struct UnlimitedAfter {
  ~UnlimitedAfter() { lgc::set_enumeration_budget(lgc::Budget{}); }
};

}  // namespace

TEST_CASE("A count budget stops one thread at exactly its limit, and a new scope forgets the counts before it",
          "[budget]") {
  UnlimitedAfter restore;
  // Items are added to the shared count in batches; near a count limit one by one, so the limit is exact: below one
  // batch, above it, and beyond the window in which counting is one by one (2^17 items).
  for (const std::uint64_t limit : {std::uint64_t{50}, std::uint64_t{1000}, std::uint64_t{1} << 18}) {
    INFO(limit);
    lgc::set_enumeration_budget(lgc::Budget{limit, std::nullopt});
    lgc::BudgetScope scope;
    for (std::uint64_t i = 0; i < limit; ++i) REQUIRE_NOTHROW(lgc::charge_enumeration());
    CHECK_THROWS_AS(lgc::charge_enumeration(), lgc::BudgetExceeded);
  }
  // A limit far away: 200 items wait in this thread's batch when the next scope starts; they are not its work.
  const std::uint64_t limit = std::uint64_t{1} << 18;
  lgc::set_enumeration_budget(lgc::Budget{limit, std::nullopt});
  {
    lgc::BudgetScope first;
    for (int i = 0; i < 200; ++i) lgc::charge_enumeration();
  }
  {
    lgc::BudgetScope second;
    REQUIRE_NOTHROW(lgc::charge_enumeration(limit - 100));
    for (int i = 0; i < 100; ++i) REQUIRE_NOTHROW(lgc::charge_enumeration());
    CHECK_THROWS_AS(lgc::charge_enumeration(), lgc::BudgetExceeded);
  }
}

TEST_CASE("A worker's last uncounted items still stop the run at a count budget", "[budget][parallel]") {
  // Worker 0 counts 200 items in its batch (the limit far away), worker 1 then brings the count to 150 below the
  // limit, and worker 0 ends without charging again: its 200 items pass the limit, which run_shards must report
  // (the worker settles its items before it ends), as one thread charging them all would.
  UnlimitedAfter restore;
  const std::uint64_t limit = std::uint64_t{1} << 18;
  lgc::set_enumeration_budget(lgc::Budget{limit, std::nullopt});
  lgc::BudgetScope scope;
  std::latch counted(1), raised(1);
  CHECK_THROWS_AS(lgc::run_shards(2,
                                  [&](const lgc::Shard& shard) {
                                    if (shard.index == 0) {
                                      for (int i = 0; i < 200; ++i) lgc::charge_enumeration();
                                      counted.count_down();
                                      raised.wait();
                                    } else {
                                      counted.wait();
                                      lgc::charge_enumeration(limit - 150);
                                      raised.count_down();
                                    }
                                  }),
                  lgc::BudgetExceeded);
}
