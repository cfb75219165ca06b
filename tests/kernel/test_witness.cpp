// Statistics, their expansion into strings, and witness checks by hand.
#include "lgcheck/kernel/certificate.hpp"
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
  CHECK(k::check_certificate(moved).problems ==
        std::vector<std::string>{"evidence.witnesses[0]: finite:6 and hardmax do not certainly differ at this statistic"});
  // The recorded p must be the case's.
  w["p"] = 7;
  CHECK(k::check_certificate(cert).problems == std::vector<std::string>{"evidence.witnesses[0]: p: recorded 7, the case gives 6"});
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
