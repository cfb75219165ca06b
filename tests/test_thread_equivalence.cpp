// Every threaded enumeration gives the same verdict, detail and evidence for
// 1, 2 and 3 threads, on claims that hold and on claims broken on purpose
// (where the first counterexample in enumeration order must be the one
// reported), and the ordered search itself finds the first stop.
#include "claims/section4/consistency.hpp"
#include "claims/section5/section5.hpp"
#include "output/tables.hpp"
#include "claims/section4/theorem41.hpp"
#include "claims/average/theorem42.hpp"

#include "lgcheck/enumerate/ordered_search.hpp"
#include "lgcheck/enumerate/parallel.hpp"
#include "lgcheck/enumerate/strings.hpp"
#include "lgcheck/semantics/finite_precision.hpp"
#include "lgcheck/simulate/simulation_error.hpp"
#include "lgcheck/tasks/kgram.hpp"

#include "support.hpp"

#include <atomic>

using lgc::Rational;

namespace {

/// Restores the thread count when the test ends.
struct ThreadsScope {
  ~ThreadsScope() { lgc::set_enumeration_threads(0); }
};

std::string dump(const lgc::ClaimResult& r) {
  return nlohmann::json{{"verdict", lgc::to_string(r.verdict)},
                        {"detail", r.detail},
                        {"scope", lgc::scope_json(r.scope)},
                        {"evidence", r.evidence}}
      .dump();
}

/// The claim's result with 1 thread, checked equal with 2 and 3 threads.
lgc::ClaimResult same_for_any_threads(const std::function<lgc::ClaimResult()>& check) {
  ThreadsScope scope;
  lgc::set_enumeration_threads(1);
  const lgc::ClaimResult one = check();
  for (unsigned threads : {2u, 3u}) {
    lgc::set_enumeration_threads(threads);
    INFO("threads " << threads);
    CHECK(dump(check()) == dump(one));
  }
  return one;
}

}  // namespace

TEST_CASE("first_where returns the first stop in order for any thread count", "[parallel]") {
  const lgc::Shape shape{2, 2, 1};
  const std::uint64_t T = 9, count = lgc::statistic_count(shape, T);
  for (std::uint64_t target : {std::uint64_t{0}, std::uint64_t{5}, count / 2, count - 1}) {
    for (unsigned threads : {1u, 2u, 3u}) {
      std::atomic<std::uint64_t> calls{0};
      // Stops at every ordinal >= target: the answer must be target itself.
      const auto first = lgc::first_statistic_where(shape, T, threads, [&](const lgc::Statistic&, std::uint64_t o) {
        ++calls;
        return o >= target;
      });
      INFO("target " << target << " threads " << threads);
      REQUIRE(first.has_value());
      CHECK(*first == target);
      CHECK(calls.load() >= target + 1);
    }
  }
  const auto none = lgc::first_string_where(3, 6, 2, [](const lgc::Tokens&, std::uint64_t) { return false; });
  CHECK_FALSE(none.has_value());
  const auto at = lgc::first_string_where(3, 6, 2, [](const lgc::Tokens& x, std::uint64_t) { return x[0] == 2 && x[5] == 1; });
  REQUIRE(at.has_value());
  CHECK(*at == 2 * 243 + 1);  // the string 200001 in base 3
}

TEST_CASE("S.consistency is the same for any thread count, held and broken", "[parallel][consistency]") {
  const lgc::Case c = lgc::test::bundled("paper/modp/modp_p3_hardmax.json");
  lgc::ConsistencyParams params = lgc::consistency_params(c);
  params.random_inputs = 20;
  CHECK(same_for_any_threads([&] { return lgc::check_consistency(c.model(), params); }).verdict ==
        lgc::Verdict::Sampled);
  params.threshold = [](unsigned p, const Rational& g) { return lgc::hardmax_threshold(p, g) - 1; };
  const lgc::ClaimResult broken = same_for_any_threads([&] { return lgc::check_consistency(c.model(), params); });
  CHECK(broken.verdict == lgc::Verdict::Refuted);
  CHECK(broken.evidence["position"] == 7);
}

TEST_CASE("T4.1.threshold is the same for any thread count, held and broken", "[parallel][section4]") {
  const lgc::Case margin = lgc::test::bundled("section4/modp_p3_finite6_margin1_2.json");
  lgc::ThresholdParams params = lgc::threshold_params(margin);
  params.random_inputs = 20;
  CHECK(same_for_any_threads([&] { return lgc::check_threshold(margin, params); }).verdict == lgc::Verdict::Sampled);
  params.threshold = [](unsigned p, const Rational& gamma) { return lgc::ceil(Rational(lgc::pow(lgc::Integer(2), p)) / gamma); };
  CHECK(same_for_any_threads([&] { return lgc::check_threshold(margin, params); }).verdict == lgc::Verdict::Refuted);
}

TEST_CASE("L4.L is the same for any thread count, held and broken", "[parallel][section4]") {
  const lgc::Case modp = lgc::test::bundled("paper/modp/modp_p3_hardmax.json");
  lgc::NormParams params = lgc::norm_params(modp);
  params.random_pairs = 10;
  CHECK(same_for_any_threads([&] { return lgc::check_norm(modp, params); }).verdict == lgc::Verdict::Sampled);
  const lgc::Case relu = lgc::test::bundled("paper/simple/simple_w8_relu.json");
  lgc::NormParams broken = lgc::norm_params(relu);
  broken.norm.include_mlp_term = false;
  CHECK(same_for_any_threads([&] { return lgc::check_norm(relu, broken); }).verdict == lgc::Verdict::Refuted);
}

TEST_CASE("T4.1.sim is the same for any thread count, held and broken", "[parallel][section4]") {
  const lgc::Case modp = lgc::test::bundled("paper/modp/modp_p3_hardmax.json");
  lgc::SimulationParams sim = lgc::simulation_params(modp);
  sim.random_inputs = 10;
  CHECK(same_for_any_threads([&] { return lgc::check_simulation(modp, sim); }).verdict == lgc::Verdict::Sampled);
  sim.resolution_override = 2;
  sim.random_inputs = 300;
  CHECK(same_for_any_threads([&] { return lgc::check_simulation(modp, sim); }).verdict == lgc::Verdict::Refuted);
}

TEST_CASE("T4.2.avg is the same for any thread count, held and broken", "[parallel][theorem42]") {
  const lgc::Case c = lgc::test::bundled("average/farey_hat_n4_uniform.json");
  lgc::AverageParams p = lgc::average_params(c);
  CHECK(same_for_any_threads([&] { return lgc::check_average(c, p); }).verdict == lgc::Verdict::Sampled);
  p.conclusion_constant = Rational(1, 10);
  CHECK(same_for_any_threads([&] { return lgc::check_average(c, p); }).verdict == lgc::Verdict::Refuted);
}

TEST_CASE("D5.4.kgram is the same for any thread count, held and broken", "[parallel][section5][kgram]") {
  lgc::Case c = lgc::test::bundled("section5/kgram_k1_s2.json");
  lgc::KgramParams params = lgc::kgram_params(c);
  params.random_inputs = 2;
  params.max_random_length = 100;
  CHECK(same_for_any_threads([&] { return lgc::check_kgram(c, params); }).verdict == lgc::Verdict::Sampled);
  params.from_min_length = false;  // the mutation: claimed from length k + 1, refuted on the exhaustive strings
  params.random_inputs = 0;
  const lgc::ClaimResult broken = same_for_any_threads([&] { return lgc::check_kgram(c, params); });
  CHECK(broken.verdict == lgc::Verdict::Refuted);
}

TEST_CASE("The threshold table and the shortest simulation are the same for any thread count", "[parallel][tables]") {
  ThreadsScope scope;
  lgc::set_enumeration_threads(1);
  const std::string one = lgc::table_threshold().exact.dump();
  const lgc::Model f = lgc::test::bundled("paper/modp/modp_p3_hardmax.json").model();
  const lgc::OneLayerEvaluator e(f);
  std::mt19937_64 rng(3);
  const lgc::Statistic x = lgc::random_statistic(e.shape(), 40, rng);
  const auto z1 = lgc::shortest_simulation({&e}, x, Rational(1, 10), 0, 40);
  REQUIRE(z1.has_value());
  lgc::set_enumeration_threads(2);
  CHECK(lgc::table_threshold().exact.dump() == one);
  const auto z2 = lgc::shortest_simulation({&e}, x, Rational(1, 10), 0, 40);
  REQUIRE(z2.has_value());
  CHECK(lgc::statistic_to_json(*z2) == lgc::statistic_to_json(*z1));
}
