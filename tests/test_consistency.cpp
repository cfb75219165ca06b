// Claim S.consistency: PROVED on bundled models, REFUTED when the claimed
// threshold is broken.
#include "claims/section4/consistency.hpp"
#include "lgcheck/semantics/finite_precision.hpp"

#include "support.hpp"

using lgc::Integer;
using lgc::Rational;
using lgc::Verdict;

TEST_CASE("S.consistency holds on ModPTask with the paper's threshold", "[claim][consistency]") {
  lgc::Case c = lgc::test::bundled("paper/modp/modp_p3_hardmax.json");
  lgc::ConsistencyParams params = lgc::consistency_params(c);
  lgc::ClaimResult r = lgc::check_consistency(c.model(), params);
  INFO(r.detail);
  CHECK(r.verdict == Verdict::Sampled);  // every string of length 12, and random ones beyond
  CHECK(r.scope.samples == params.random_inputs);
  params.random_inputs = 0;
  CHECK(lgc::check_consistency(c.model(), params).verdict == Verdict::Proved);  // the exhaustive part alone
  CHECK(r.evidence["threshold"] == "8");
  CHECK(r.evidence["positions"].get<std::uint64_t>() > 1000);
}

TEST_CASE("S.consistency with a halved threshold is REFUTED", "[claim][consistency][mutation]") {
  for (const char* file : {"paper/modp/modp_p3_hardmax.json", "paper/modp/modp_p5_finite8.json"}) {
    INFO(file);
    lgc::Case c = lgc::test::bundled(file);
    lgc::ConsistencyParams params = lgc::consistency_params(c);
    params.threshold = [](unsigned p, const Rational& g) { return lgc::hardmax_threshold(p, g) / 2; };
    lgc::ClaimResult r = lgc::check_consistency(c.model(), params);
    INFO(r.detail);
    CHECK(r.verdict == Verdict::Refuted);
    CHECK(r.evidence.contains("input"));
  }
}

TEST_CASE("S.consistency with the threshold one below is REFUTED on an exhaustive search", "[claim][consistency][mutation]") {
  // p = 3, gamma = 1: the threshold is 8 exactly (8^{-1} = 2^{-3} rounds to 0);
  // claiming 7 must fail, since 1/7 > 1/8 survives.
  lgc::Case c = lgc::test::bundled("paper/modp/modp_p3_hardmax.json");
  lgc::ConsistencyParams params = lgc::consistency_params(c);
  params.random_inputs = 0;
  params.threshold = [](unsigned p, const Rational& g) { return lgc::hardmax_threshold(p, g) - 1; };
  lgc::ClaimResult r = lgc::check_consistency(c.model(), params);
  INFO(r.detail);
  CHECK(r.verdict == Verdict::Refuted);
  CHECK(r.evidence["position"] == 7);
}

TEST_CASE("S.consistency is UNDECIDED when no query position is within reach", "[claim][consistency]") {
  lgc::Case c = lgc::test::bundled("paper/modp/modp_p3_hardmax.json");
  lgc::ConsistencyParams params = lgc::consistency_params(c);
  params.p = 40;  // threshold 2^40
  lgc::ClaimResult r = lgc::check_consistency(c.model(), params);
  CHECK(r.verdict == Verdict::Undecided);
}

TEST_CASE("S.consistency is UNDECIDED when enclosures cannot separate equal values", "[claim][consistency]") {
  // Gap 1/2 (weights i^{-1/2}, irrational) and every key carrying the same
  // value 1: finite:p and hardmax agree mathematically, but the finite:p
  // enclosure of 1 never excludes it, at any precision.
  lgc::Model m = lgc::test::bundled("paper/modp/modp_p3_hardmax.json").model();
  m.layers[0].heads[0].qk(2, 3) = Rational(1, 2);
  m.layers[0].heads[0].value(4, 1) = 0;
  m.layers[0].heads[0].value(4, 3) = 1;
  lgc::ConsistencyParams params;
  params.p = 8;
  params.max_length = 5;
  params.random_inputs = 0;
  params.threshold = [](unsigned, const Rational&) { return Integer(1); };
  lgc::ClaimResult r = lgc::check_consistency(m, params);
  INFO(r.detail);
  CHECK(r.verdict == Verdict::Undecided);
  CHECK(r.detail.find("4096 bits") != std::string::npos);
}
