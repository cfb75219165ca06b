// The verdict vocabulary: the rule that picks PROVED, SAMPLED or VACUOUS
// from a scope, the summary that counts expectations apart, and each path
// forced on a bundled case (false antecedent, Lip = 0, a bound above the
// range, a binding cap, a missing expected claim).
#include "output/cli_output.hpp"
#include "claims/section4/consistency.hpp"
#include "lgcheck/semantics/finite_precision.hpp"
#include "claims/section5/section5.hpp"
#include "trust/suite.hpp"
#include "claims/section4/theorem41.hpp"

#include "support.hpp"

namespace {

using lgc::ClaimResult;
using lgc::Scope;
using lgc::Verdict;

ClaimResult row_of(const std::vector<ClaimResult>& rows, const std::string& id) {
  for (const auto& r : rows)
    if (r.id == id) return r;
  FAIL("no row " << id);
  return {};
}

ClaimResult claim_on(const std::string& file, const std::string& id) {
  return row_of(lgc::check_case(lgc::test::bundled(file), id), id);
}

}  // namespace

TEST_CASE("holding_verdict: VACUOUS before SAMPLED before PROVED", "[verdict]") {
  Scope s;
  s.domain = "every string of length 3";
  s.exhaustive = 8;
  CHECK(lgc::holding_verdict(s) == Verdict::Proved);
  s.caps.push_back({"strings", 8, false});
  CHECK(lgc::holding_verdict(s) == Verdict::Proved);  // a cap not reached cuts nothing
  s.caps.back().binding = true;
  CHECK(lgc::holding_verdict(s) == Verdict::Sampled);
  s.caps.back().binding = false;
  s.samples = 1;
  CHECK(lgc::holding_verdict(s) == Verdict::Sampled);
  s.vacuous = "antecedent false";
  CHECK(lgc::holding_verdict(s) == Verdict::Vacuous);
}

TEST_CASE("Scope JSON round-trips and refuses a malformed scope", "[verdict]") {
  Scope s;
  s.domain = "pairs";
  s.exhaustive = 12;
  s.samples = 3;
  s.seed = 7;
  s.caps = {{"pairs per model", 20000, true}};
  s.decided_by = "simulation";
  s.slack = "0.5";
  CHECK(lgc::scope_from_json(lgc::scope_json(s)) == s);
  nlohmann::json bad = lgc::scope_json(s);
  bad["exhaustive"] = "many";
  CHECK_THROWS_WITH(lgc::scope_from_json(bad), Catch::Contains("scope.exhaustive"));
  bad = lgc::scope_json(s);
  bad.erase("caps");
  CHECK_THROWS_WITH(lgc::scope_from_json(bad), Catch::Contains("scope.caps"));
}

TEST_CASE("The summary counts each verdict and the expectations apart", "[verdict]") {
  std::vector<ClaimResult> rows(7);
  rows[0].verdict = Verdict::Proved;
  rows[1].verdict = Verdict::Sampled;
  rows[2].verdict = Verdict::Vacuous;
  rows[3].verdict = Verdict::Undecided;
  rows[4] = {"expect:L4.L", "c", Verdict::Proved, "expected PROVED, got PROVED", {}, {}};
  rows[5] = {"expect:logit_margin", "c", Verdict::Proved, "", {}, {}};
  rows[6] = {"expect:T4.1.sim", "c", Verdict::Refuted, "", {}, {}};
  const lgc::VerdictSummary s = lgc::summarise(rows);
  CHECK(s.claims() == 4);
  CHECK(s.proved == 1);
  CHECK(s.sampled == 1);
  CHECK(s.vacuous == 1);
  CHECK(s.undecided == 1);
  CHECK(s.expectations_met == 2);
  CHECK(s.expectations_failed == 1);
  CHECK(lgc::exit_code(s) == 1);  // an expectation not met is a failure
  rows.back().verdict = Verdict::Undecided;  // an expectation the claim could not decide
  CHECK(lgc::summarise(rows).expectations_undecided == 1);
  CHECK(lgc::exit_code(lgc::summarise(rows)) == 3);
  rows.pop_back();
  CHECK(lgc::exit_code(lgc::summarise(rows)) == 3);
  rows.erase(rows.begin() + 3);
  CHECK(lgc::exit_code(lgc::summarise(rows)) == 0);  // SAMPLED and VACUOUS are not failures
  const nlohmann::json j = lgc::results_json(rows);
  CHECK(j["summary"]["claims"] == 3);
  CHECK(j["summary"]["expectations"]["met"] == 2);
  CHECK(j["claims"].size() == 3);
  CHECK(j["expectations"].size() == 2);
  for (const auto& claim : j["claims"]) CHECK(claim.contains("scope"));
}

TEST_CASE("An expected claim that did not run is an expectation not met", "[verdict][expect]") {
  lgc::Case c = lgc::test::bundled("paper/modp/modp_p3_hardmax.json");
  c.expect["verdicts"]["T5.2.sim"] = "PROVED";  // a Section 5 claim: never applies to this case
  const ClaimResult r = row_of(lgc::check_case(c, "*"), "expect:T5.2.sim");
  CHECK(r.verdict == Verdict::Refuted);
  CHECK_THAT(r.detail, Catch::Contains("did not run"));
  // Filtered out by --claims: nothing to compare, no row.
  for (const auto& row : lgc::check_case(c, "S.*")) CHECK(row.id != "expect:T5.2.sim");
}

TEST_CASE("VACUOUS: gamma = inf on SimpleTask (nothing is ever rounded)", "[verdict][vacuous]") {
  for (const char* id : {"S.consistency", "T4.1.threshold"}) {
    const ClaimResult r = claim_on("paper/simple/simple_w2_relu.json", id);
    INFO(id << ": " << r.detail);
    CHECK(r.verdict == Verdict::Vacuous);
    CHECK_THAT(r.scope.vacuous, Catch::Contains("gamma = inf"));
  }
}

TEST_CASE("VACUOUS: T4.1.lg whose antecedent is false", "[verdict][vacuous]") {
  const ClaimResult r = claim_on("witnesses/farey_hat_n4.json", "T4.1.lg");
  INFO(r.detail);
  CHECK(r.verdict == Verdict::Vacuous);
  CHECK_THAT(r.scope.vacuous, Catch::Contains("antecedent false"));
  // The perturbed ModPTask pair meets its antecedent: decided by a named bound.
  const ClaimResult held = claim_on("pairs/modp_p2_perturbed_pair.json", "T4.1.lg");
  CHECK(held.verdict == Verdict::Proved);
  CHECK(held.scope.decided_by == "value_perturbation");
}

TEST_CASE("L5.3.subsample: a rate bound above the range leaves the drift form to decide", "[verdict][vacuous]") {
  // regime_token's second layer has M = 0: every rate bound c(G+L)(tau+1)n^-1/3
  // is at least 2G, the statistic error's a-priori range, but the drift
  // form's Lipschitz premises L |mu_j(z) - mu_i_j(x)|_1 are below it.
  const ClaimResult r = claim_on("section5/regime_token.json", "L5.3.subsample");
  INFO(r.detail);
  CHECK(r.verdict == Verdict::Sampled);
  CHECK_THAT(r.detail, Catch::Contains("that part could not fail"));
  // With L so large that every premise is at least 2G too, nothing could fail.
  const lgc::Case c = lgc::test::bundled("section5/regime_token.json");
  lgc::SubsampleParams p = lgc::subsample_params(c);
  p.drift_L_scale = lgc::Rational(1000000);
  const ClaimResult vacuous = lgc::check_subsample(c, p);
  INFO(vacuous.detail);
  CHECK(vacuous.verdict == Verdict::Vacuous);
  CHECK_THAT(vacuous.scope.vacuous, Catch::Contains("2G"));
  // The induction head's rate bound is below the range: a real check.
  CHECK(claim_on("paper/induction/induction_head_k1.json", "L5.3.subsample").verdict == Verdict::Sampled);
}

TEST_CASE("L5.lip with Lip = 0 evaluates its pairs and requires Phi equal", "[verdict]") {
  const ClaimResult r = claim_on("section5/regime_position.json", "L5.lip");
  INFO(r.detail);
  REQUIRE(r.evidence["Lip"] == "0");
  CHECK(r.scope.exhaustive > 0);
  CHECK(r.verdict != Verdict::Vacuous);
  CHECK(r.verdict != Verdict::Refuted);
}

TEST_CASE("SAMPLED: L4.L's pair cap binds on modp_p7 and every group is still represented", "[verdict][sampled]") {
  const ClaimResult r = claim_on("paper/modp/modp_p7_hardmax.json", "L4.L");
  INFO(r.detail);
  CHECK(r.verdict == Verdict::Sampled);
  REQUIRE(!r.scope.caps.empty());
  CHECK(r.scope.caps.front().binding);
  // "... in G of G groups": every group with a pair has one checked.
  const auto at = r.detail.find(" groups");
  REQUIRE(at != std::string::npos);
  const std::string head = r.detail.substr(0, at);
  const auto of = head.rfind(" of ");
  const auto in = head.rfind("in ", of);
  CHECK(head.substr(in + 3, of - in - 3) == head.substr(of + 4));
}

TEST_CASE("T4.1.threshold: a threshold 4x too large is REFUTED by the tightness witness", "[verdict][mutation]") {
  lgc::Case c = lgc::test::bundled("paper/modp/modp_p2_hardmax.json");
  lgc::ThresholdParams p = lgc::threshold_params(c);
  p.threshold = [](unsigned bits, const lgc::Rational& g) { return 4 * lgc::hardmax_threshold(bits, g); };
  const ClaimResult r = lgc::check_threshold(c, p);
  INFO(r.detail);
  CHECK(r.verdict == Verdict::Refuted);
  CHECK_THAT(r.detail, Catch::Contains("is not the first length"));
}

TEST_CASE("A case no selected claim applies to still has its expectations compared", "[verdict][expect]") {
  lgc::Case c = lgc::test::bundled("paper/modp/modp_p3_hardmax.json");
  c.expect["verdicts"]["T5.2.sim"] = "SAMPLED";
  // Only T5.2.* is selected and it does not apply: the case has no unit of work.
  const auto parts = lgc::check_cases({c}, "T5.2.*", lgc::Shard{});
  REQUIRE(parts.size() == 1);
  REQUIRE(parts[0].results.size() == 1);
  CHECK(parts[0].results[0].id == "expect:T5.2.sim");
  CHECK(parts[0].results[0].verdict == Verdict::Refuted);
}

TEST_CASE("Teeth: T4.1.lg is decided by the simulation bracket on a pair whose antecedent holds", "[verdict][teeth]") {
  const ClaimResult r = claim_on("pairs/modp_p1_value_readout_pair.json", "T4.1.lg");
  INFO(r.detail);
  CHECK(r.verdict == Verdict::Proved);
  CHECK(r.scope.decided_by == "simulation");
  CHECK(r.scope.vacuous.empty());
  CHECK(r.evidence["upper_source"].get<std::string>().rfind("simulation", 0) == 0);
}

TEST_CASE("Teeth: T4.2.avg checks every T in [N0, 8 N0] within its term budget, else says so", "[verdict][teeth]") {
  const ClaimResult every = claim_on("average/presence_binding.json", "T4.2.avg");
  INFO(every.detail);
  CHECK(every.verdict == Verdict::Sampled);  // the theorem's T beyond 8 N0 are not computed
  CHECK(every.evidence["conclusion_lengths"] == "every");
  CHECK(every.scope.domain.find("every T in [16, 128]") != std::string::npos);
  CHECK(every.scope.exhaustive == 16 + 113);
  // It nearly binds: the instance needs C >= 0.70 of the C = 1 it is checked with.
  CHECK(lgc::parse_rational(every.evidence["C_needed"].get<std::string>()) >= lgc::Rational(7, 10));

  const ClaimResult doubled = claim_on("average/farey_hat_n4_uniform.json", "T4.2.avg");
  INFO(doubled.detail);
  CHECK(doubled.evidence["conclusion_lengths"] == "doubling");
  bool budget_cap = false;
  for (const auto& cap : doubled.scope.caps)
    budget_cap = budget_cap || (cap.binding && cap.what.find("conclusion_term_budget") != std::string::npos);
  CHECK(budget_cap);
}

TEST_CASE("Teeth: the constructed hard k-gram inputs reach a third of eps for k = 2 and 3", "[verdict][teeth]") {
  for (const char* file : {"section5/kgram_k2_s3.json", "section5/kgram_k3_s4.json"}) {
    const ClaimResult r = claim_on(file, "D5.4.kgram");
    INFO(file << ": " << r.detail);
    CHECK(r.verdict == Verdict::Sampled);
    CHECK(r.scope.exhaustive == 3);  // the three hard inputs at T0, T0 + 1, T0 + 2
    CHECK(lgc::parse_rational(r.evidence["worst_error"].get<std::string>()) >= lgc::Rational(3, 20));  // eps = 1/2
  }
}

TEST_CASE("VACUOUS: T5.2.sim whose every bound is above the outputs' a-priori range", "[verdict][vacuous]") {
  const ClaimResult sharp = claim_on("section5/attention_pair_sharp.json", "T5.2.sim");
  INFO(sharp.detail);
  CHECK(sharp.verdict == Verdict::Vacuous);
  CHECK(sharp.scope.vacuous.find("a-priori range") != std::string::npos);
  CHECK(lgc::parse_rational(sharp.evidence["smallest_bound"].get<std::string>()) >=
        lgc::parse_rational(sharp.evidence["output_range"].get<std::string>()));
  // With small norms the bound drops below the range: the check can fail.
  const ClaimResult flat = claim_on("section5/attention_pair_flat.json", "T5.2.sim");
  INFO(flat.detail);
  CHECK(flat.verdict == Verdict::Sampled);
  CHECK(lgc::parse_rational(flat.evidence["smallest_bound"].get<std::string>()) <
        lgc::parse_rational(flat.evidence["output_range"].get<std::string>()));
  // A second-layer MLP is bounded too: the position witness's g (R = 15/2) keeps the pair from VACUOUS at a least
  // bound of 4.9, where f's range 2 alone would have made it VACUOUS.
  const ClaimResult witness = claim_on("witnesses/position_witness_gamma1_3_rho1_4.json", "T5.2.sim");
  INFO(witness.detail);
  CHECK(witness.verdict == Verdict::Sampled);
  CHECK(witness.evidence["output_range"] == "7.5");
}
