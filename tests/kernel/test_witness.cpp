// Statistics, their expansion into strings, and witness checks by hand.
#include "lgcheck/kernel/certificate.hpp"
#include "lgcheck/kernel/quantities.hpp"
#include "lgcheck/kernel/section5.hpp"
#include "lgcheck/kernel/witness.hpp"
#include "support.hpp"

#include <catch2/catch.hpp>

using lgc::Rational;
using nlohmann::json;
namespace k = lgc::kernel;

TEST_CASE("a statistic expands into a string that has it", "[kernel][witness]") {
  auto c = kt::bundled("cases/paper/modp/modp_p3_hardmax.json");  // S = 2, Δ = 3, τ = 0
  // T = 7, B = 6: positions 1..6 have residues 1 2 0 1 2 0, so m_0 = m_1 = m_2 = 2.
  // counts (index s·3 + r) = [1,0,1, 1,2,1]: residue 0 gets one 0 then one 1 (j = 3, 6),
  // residue 1 two 1s (j = 1, 4), residue 2 one 0 then one 1 (j = 2, 5); the window is x_7 = 1.
  json j = {{"length", 7}, {"window", json::array({1})}, {"counts", json::array({1, 0, 1, 1, 2, 1})}};
  auto s = k::read_statistic(j, c.model());
  REQUIRE(std::holds_alternative<k::Statistic>(s));
  CHECK(k::expand(std::get<k::Statistic>(s), c.model()) == kt::tokens(c.model(), "1001111"));
  // Residue totals must match the length.
  j["counts"] = json::array({1, 0, 1, 1, 2, 2});
  CHECK(std::get<std::string>(k::read_statistic(j, c.model())) == "counts: residue 2 holds 3 positions, the length gives 2");
  CHECK(k::residue_count(6, 0, 3) == 2);
  CHECK(k::residue_count(7, 1, 3) == 3);  // 1, 4, 7
  CHECK(k::residue_count(0, 1, 3) == 0);
}

TEST_CASE("finite_differs witnesses: re-established, or rejected when moved", "[kernel][witness]") {
  json cert = kt::read_json("tests/kernel/data/modp_p3_finite6_margin1_2__T4.1.threshold.json");
  json& w = cert["evidence"]["witnesses"][0];
  // All 1s at T = 4095 (B = 4094: m_0 = 1364, m_1 = m_2 = 1365): every value is 1, no difference.
  json moved = cert;
  moved["evidence"]["witnesses"][0]["statistic"]["counts"] = json::array({0, 0, 0, 1364, 1365, 1365});
  // (and the detail, which names the finding's statistic as rendered from the witness, no longer reads it)
  const auto moved_problems = k::check_certificate(moved).problems;
  REQUIRE(moved_problems.size() == 2);
  CHECK(moved_problems[0] == "evidence.witnesses[0]: finite:6 and hardmax do not certainly differ at this statistic");
  CHECK(moved_problems[1].starts_with("detail: recorded"));
  // The recorded p must be the case's.
  w["p"] = 7;
  CHECK(k::check_certificate(cert).problems == std::vector<std::string>{"evidence.witnesses[0]: p: recorded 7, the case gives 6"});
}

TEST_CASE("string_differs witnesses: re-established, and a recorded p is read whole", "[kernel][witness]") {
  json cert = kt::read_json("tests/kernel/data/modp_p3_finite6_margin1_2__T4.1.threshold.json");
  // ModPTask p = 3 at logit gap 1/2 under finite:6: at i = 10 the keys off residue 0 weigh 10^{-1/2} > 2^{-6}
  // and survive, so with 1s at positions 3, 6, 9 and 0s elsewhere finite:6 gives 3/(3 + 7·10^{-1/2}) and hardmax 1.
  json w = {{"kind", "string_differs"}, {"input", "0010010010"}, {"position", 10}, {"p", 6}};
  cert["evidence"]["witnesses"].push_back(w);
  const std::size_t at = cert["evidence"]["witnesses"].size() - 1;
  const std::string path = "evidence.witnesses[" + std::to_string(at) + "]";
  CHECK(k::check_certificate(cert).problems.empty());
  // All 0s: every value is 0 under both semantics.
  cert["evidence"]["witnesses"][at]["input"] = "0000000000";
  CHECK(k::check_certificate(cert).problems ==
        std::vector<std::string>{path + ": finite:p and hardmax do not certainly differ at this input and position"});
  // A recorded p of 2^33 + 6 is not the case's 6 (it is not truncated to 32 bits).
  cert["evidence"]["witnesses"][at]["input"] = "0010010010";
  cert["evidence"]["witnesses"][at]["p"] = (std::uint64_t(1) << 33) + 6;
  const auto problems = k::check_certificate(cert).problems;
  REQUIRE(problems.size() == 1);
  CHECK(problems[0].rfind(path + ": p: ", 0) == 0);
}

TEST_CASE("Section 5 constants, by hand", "[kernel][section5]") {
  // regime_position: φ = (0, 3/2): P = {0, 3/2, 1}, γ = 3/2 − 1 = 1/2 (theory.md §3).
  CHECK(k::positional_margin(kt::bundled("cases/section5/regime_position.json").model()) == Rational(1, 2));
  // induction head: φ = (0, 2): P = {0, 2, 1}, γ = 1.
  auto ind = kt::bundled("cases/paper/induction/induction_head_k1.json").model();
  CHECK(k::positional_margin(ind) == Rational(1));
  // kgram k = 1: M = 0 (spread 0, e^0 = 1 exact), V_h = 1, τ = 1: K = 8·1·(1+2)·1 = 24;
  // the one head is position-dominant (λ > 1): Lip = 0. T₀ = 1 + ⌈5/(2·½·½)⌉ = 11.
  auto kg = kt::bundled("cases/section5/kgram_k1_s2.json").model();
  CHECK(k::convergence_constant(kg).exact() == 24);
  CHECK(k::limit_lipschitz(kg).exact() == 0);
  CHECK(k::kgram_min_length(1, Rational(1, 2), Rational(1, 2)) == 11);
}

namespace {
/// Model g of a random finite:4 pair (one layer, two heads, τ = 1), under `semantics`.
lgc::Case two_head_model(const std::string& semantics) {
  json doc = json::parse(R"({"format": "lgcheck-case/1", "name": "random_two_heads", "alphabet": ["0", "1"],
    "embedding": [["0", "-1/4", "-3/4"], ["-1/2", "0", "-1/4"]], "positional": [["0", "0", "0"]],
    "layers": [{"heads": [
      {"phi": ["0", "0"], "qk": [["3/4", "0", "1/2"], ["0", "0", "3/4"], ["0", "-3/4", "0"]],
       "value": [["0", "0", "-63/80"], ["0", "63/80", "21/80"], ["0", "-63/80", "21/40"]]},
      {"phi": ["0", "0"], "qk": [["0", "-1/2", "-1/2"], ["0", "-3/4", "-1/2"], ["3/4", "1/2", "0"]],
       "value": [["-1/4", "0", "-1/2"], ["0", "1/2", "-1/4"], ["0", "0", "-1/2"]]}]}],
    "locality": 1, "period": 1, "width": 3,
    "readout": {"activation": "identity", "bias": ["0"], "weights": [["1/4", "3/4", "1/4"]]}})");
  doc["semantics"] = semantics;
  return lgc::parse_case(doc, "inline");
}
}  // namespace

TEST_CASE("norm_pair witnesses are checked under hardmax, the claim's semantics, whatever the case's",
          "[kernel][witness]") {
  // Model g of a random finite:4 pair (two heads, τ = 1). The L4.L search measures the lemma under hardmax; among its
  // long random pairs is x against its simulation, which leaves this x as it is: x = z, so Δω = 0 and the bound is 0.
  const lgc::Case c = two_head_model("finite:4");
  const json x = {{"length", 186}, {"window", json::array({1, 0})}, {"counts", json::array({0, 184})}};
  const json w = {{"kind", "norm_pair"}, {"model", 0}, {"L", "309/256"}, {"x", x}, {"z", x}, {"expect", "holds"}};
  k::WitnessContext ctx;
  ctx.c = &c;
  ctx.L = {Rational(309, 256)};
  CHECK(k::check_witness(w, ctx).status == k::WitnessStatus::Reestablished);
  // Under the case's own finite:4 the surviving weights i^{−δ} are enclosures, so the two outputs are enclosures whose
  // difference is not certainly 0: the kernel rejected the search's valid certificate while it read that semantics.
  const k::Statistic s = std::get<k::Statistic>(k::read_statistic(x, c.model()));
  const k::Tokens t = k::expand(s, c.model());
  CHECK(k::norm_inequality(c.model(), Rational(309, 256), t, t, c.model().semantics).status ==
        k::WitnessStatus::Rejected);
}

TEST_CASE("a witness recorded as a violation is re-established only when its property certainly fails",
          "[kernel][witness]") {
  // The two-head model under hardmax: x = 0^18 11 and z = 1^18 11, outputs 9/640 and -51/640.
  const lgc::Case c = two_head_model("hardmax");
  const json x = {{"length", 20}, {"window", json::array({1, 1})}, {"counts", json::array({18, 0})}};
  const json z = {{"length", 20}, {"window", json::array({1, 1})}, {"counts", json::array({0, 18})}};
  json w = {{"kind", "norm_pair"}, {"model", 0}, {"x", x}, {"z", z}, {"expect", "holds"}};
  k::WitnessContext ctx;
  ctx.c = &c;
  ctx.L = {k::norm_constant(c.model())};
  REQUIRE(ctx.L[0]);
  CHECK(k::check_witness(w, ctx).status == k::WitnessStatus::Reestablished);  // the lemma holds with the true L
  w["expect"] = "violates";
  const k::WitnessResult holds = k::check_witness(w, ctx);
  CHECK(holds.status == k::WitnessStatus::Rejected);
  CHECK(holds.why == "expect \"violates\", but the property holds");
  ctx.L = {*ctx.L[0] / 1000};  // an L a thousand times too small: the pair certainly violates the lemma
  const k::WitnessResult broken = k::check_witness(w, ctx);
  INFO(broken.why);
  CHECK(broken.status == k::WitnessStatus::Reestablished);
  w["expect"] = "holds";
  const k::WitnessResult rejected = k::check_witness(w, ctx);
  CHECK(rejected.status == k::WitnessStatus::Rejected);
  CHECK(rejected.violated);
  // Only the kinds that record violations may say so.
  json other = {{"kind", "pair_distance"}, {"statistic", x}, {"at_least", "0"}, {"expect", "violates"}};
  CHECK(k::check_witness(other, ctx).status == k::WitnessStatus::Rejected);
}

TEST_CASE("string_gap: the exact 0 where the readouts apply one activation to equal arguments", "[kernel][witness]") {
  // Two models with sin(3/2 ·) readouts whose heads differ only in a logit no argmax feels: f(x) = g(x) exactly at
  // every x, which two sin enclosures subtracted would show only as [0, w].
  lgc::Case c = kt::bundled("tests/data/agreeing_sin_pair.json");
  for (const std::string text : {"a", "dcba", "abcabcdd", "bbbbbbbbbbbbbbbbbbba"}) {
    const k::Tokens x = kt::tokens(c.models[0], text);
    const k::StringGap gap = k::string_gap(c, x);
    INFO(text);
    CHECK(gap.exact);
    CHECK(gap.d.lo == 0);
    CHECK(gap.d.hi == 0);
    CHECK(k::difference_bracket(k::evaluate(c.models[0], x, c.models[0].semantics),
                                k::evaluate(c.models[1], x, c.models[1].semantics)).hi > 0);
  }
  // g's readout at another frequency: the same arguments no longer give the same outputs.
  c.models[1].readout.sin_omega = Rational(3, 4);
  const k::StringGap apart = k::string_gap(c, kt::tokens(c.models[0], "abcabcdd"));
  CHECK_FALSE(apart.exact);
  CHECK(apart.d.lo > 0);
}

TEST_CASE("string_gap: a coordinate of equal arguments gives the exact 0, whatever the others", "[kernel][witness]") {
  // The agreeing pair with g's first readout bias moved by 10^-5: the arguments differ by 10^-5 at coordinate 0 and
  // agree at coordinate 1. At 8 bits a sin enclosure is wide: coordinate 1's outputs subtracted give [0, w], which
  // on some strings reaches above coordinate 0's difference; the rule gives coordinate 0's bracket alone.
  lgc::Case c = kt::bundled("tests/data/agreeing_sin_pair.json");
  c.models[1].readout.bias[0] += Rational(1, 100000);
  lgc::Case first = c;  // coordinate 0 alone
  for (lgc::Model& m : first.models) {
    lgc::QMatrix row(1, m.width);
    for (std::size_t j = 0; j < m.width; ++j) row(0, j) = m.readout.weights(0, j);
    m.readout.weights = row;
    m.readout.bias = lgc::QVector(1, m.readout.bias[0]);
  }
  std::size_t rule_mattered = 0;
  for (const std::string text : {"a", "b", "c", "d", "dcba", "abcabcdd", "bbbbbbbbbbbbbbbbbbba", "ddddc", "ccab"}) {
    INFO(text);
    const k::Tokens x = kt::tokens(c.models[0], text);
    for (const unsigned bits : {8u, 128u}) {
      const k::StringGap gap = k::string_gap(c, x, bits), alone = k::string_gap(first, x, bits);
      CHECK_FALSE(gap.exact);
      CHECK(gap.d.lo == alone.d.lo);
      CHECK(gap.d.hi == alone.d.hi);
      const k::Bracket subtracted =
          k::difference_bracket(k::evaluate(c.models[0], x, c.models[0].semantics, bits),
                                k::evaluate(c.models[1], x, c.models[1].semantics, bits));
      if (subtracted.hi > gap.d.hi) ++rule_mattered;
    }
  }
  CHECK(rule_mattered > 0);
}
