// γ, the threshold, L and the Theorem 4.1 lengths, with values derived by hand.
#include "lgcheck/kernel/quantities.hpp"
#include "support.hpp"

#include <catch2/catch.hpp>

using lgc::Integer;
using lgc::Rational;
namespace k = lgc::kernel;

TEST_CASE("hardmax threshold is exact at the boundaries", "[kernel][threshold]") {
  CHECK(k::hardmax_threshold(3, Rational(1)) == 8);      // 8^1 = 2^3 (equality counts), 7 < 8
  CHECK(k::hardmax_threshold(8, Rational(1)) == 256);
  CHECK(k::hardmax_threshold(3, Rational(2)) == 3);      // 3^2 = 9 >= 8, 2^2 = 4 < 8
  CHECK(k::hardmax_threshold(6, Rational(1, 2)) == 4096);  // i^{1/2} >= 2^6 iff i >= 2^12
  CHECK(k::hardmax_threshold(6, Rational(3, 2)) == 16);  // i^3 >= 2^12 = 4096: 16^3 = 4096, 15^3 = 3375
  CHECK(k::hardmax_threshold(3, std::nullopt) == 1);     // γ = +∞
  CHECK(k::hardmax_threshold(1, Rational(5)) == 2);      // 1^5 < 2 <= 2^5
  // ⌈c·2^{p/γ}⌉ = least i with (i/c)^γ >= 2^p: c = 5/8, p = 3, γ = 1: ⌈5⌉ = 5; c = 3/7: ⌈24/7⌉ = 4.
  CHECK(k::scaled_threshold(Rational(5, 8), Rational(1), 3) == 5);
  CHECK(k::scaled_threshold(Rational(3, 7), Rational(1), 3) == 4);
  CHECK_THROWS(k::hardmax_threshold(65536, Rational(1, 100000)));  // 2^{6.5·10^9}: refused
}

TEST_CASE("γ, L and the lengths of ModPTask p = 3 (hardmax)", "[kernel][quantities][bundled]") {
  auto c = kt::bundled("cases/paper/modp/modp_p3_hardmax.json");
  // The only nonzero M entry is M[2][3] = 1: key "residue 0" × query "constant 1",
  // so every attainable logit is [key residue 0] ∈ {0, 1}: γ = 1.
  CHECK(k::logit_margin(c.model()) == Rational(1));
  // ‖U‖ = 1, no MLP; V maps "token 1" to the output slot: V_h = 1; L = 1.
  CHECK(k::norm_constant(c.model()) == Rational(1));
  // ε = 1/10, L = 1: Q = ⌈(5·6 + 7·2 + 0 + 6)·10 + 1/2⌉ = 501; anchored (residue 0 is
  // all top logit): N_sim = 3·(2·501·1 + 2 + 2) + 0 = 3018 (theory.md).
  CHECK(k::simulation_resolution(c.models, Rational(1, 10)) == 501);
  CHECK(k::n_sim(c.models, Rational(1, 10)) == Integer(3018));
  // N_paper, c = 1: L²Δ⁷S⁶τ̂²/ε² = 1·2187·64·1·100 = 13996800; hardmax: the 2^{p/γ} term is 1.
  CHECK(k::n_paper(c.models, Rational(1, 10), Rational(1)) == Integer(13996800));
  // Unloosened: (S³ + τ̂)² = 81 in place of 64: 2187·81·100 = 17714700.
  CHECK(k::n_paper(c.models, Rational(1, 10), Rational(1), true) == Integer(17714700));
}

TEST_CASE("the finite:6 ModPTask with logit gap 1/2: threshold 4096 pads N_sim", "[kernel][quantities][bundled]") {
  auto c = kt::bundled("cases/section4/modp_p3_finite6_margin1_2.json");
  CHECK(k::logit_margin(c.model()) == Rational(1, 2));  // M[2][3] = 1/2
  CHECK(k::hardmax_threshold(6, Rational(1, 2)) == 4096);
  // L = 1, Q = 501, anchored: 3018 < 2·4096 + Δ(S + 1) = 8192 + 9 = 8201.
  CHECK(k::n_sim(c.models, Rational(1, 10)) == Integer(8201));
  // N_paper = max(⌈2^{12}⌉, 13996800) = 13996800.
  CHECK(k::n_paper(c.models, Rational(1, 10), Rational(1)) == Integer(13996800));
}

TEST_CASE("SimpleTask: γ = +∞, L from the MLP or ω", "[kernel][quantities][bundled]") {
  auto relu = kt::bundled("cases/paper/simple/simple_w1_relu.json");
  CHECK(!k::logit_margin(relu.model()));  // M = 0: every logit 0
  // ‖U‖ = 1, ‖B‖ = (247403 + 15381 + 29809 + 42381)/250000 = 334974/250000, ‖A‖ = 1, V_h = 1:
  // L = 1 + 334974/250000 = 292487/125000.
  CHECK(k::norm_constant(relu.model()) == Rational(292487, 125000));
  auto sinw8 = kt::bundled("cases/paper/simple/simple_w8_sin.json");
  CHECK(k::norm_constant(sinw8.model()) == Rational(8));  // ‖U‖·|ω|·V_h = 1·8·1
}

TEST_CASE("γ on a hand model with window keys", "[kernel][quantities]") {
  // One token, width 1, E = (1), Δ = 1, τ = 1, M = (1), φ = (0, 1/3):
  // A = {bulk 1, window 1 + 1/3, self 1 + 0} = {1, 4/3}: γ = 1/3.
  nlohmann::json j = nlohmann::json::parse(R"({"format":"lgcheck-case/1","name":"w","alphabet":["a"],"width":1,
    "period":1,"locality":1,"semantics":"hardmax","embedding":[["1"]],"positional":[["0"]],
    "layers":[{"heads":[{"qk":[["1"]],"value":[["2"]],"phi":["0","1/3"]}]}],
    "readout":{"weights":[["-3"]],"bias":["0"],"activation":"identity"}})");
  auto m = kt::model_from(j);
  CHECK(k::logit_margin(m) == Rational(1, 3));
  CHECK(k::norm_constant(m) == Rational(6));  // ‖U‖ = 3, V_h = |2·1| = 2
}

TEST_CASE("a head weighing one value adds no pattern: the two-pattern pair is anchored", "[kernel][quantities][bundled]") {
  auto c = kt::bundled("cases/pairs/modp_p2_two_pattern_pair.json");
  // δ = (1/10)/(101/100) = 10/101: Q = ⌈(5·4 + 7·2 + 0 + 6)·101/10 + 1/2⌉ = 405. f attends to residue 0 (keys of
  // tokens 0 and 1: two values); the copy attends to the 1-tokens, all of one value, so it adds no pattern and
  // f alone is anchored: N_sim = 2·(2·405·1 + 2 + 2) + 0 = 1628.
  CHECK(k::simulation_resolution(c.models, Rational(1, 10)) == 405);
  CHECK(k::n_sim(c.models, Rational(1, 10)) == Integer(1628));
  // The copy's value also reading "residue 0" (input coordinate 2) with weight −1/100 (L stays 101/100): its
  // 1-tokens carry two values, H = 2 patterns, E = min(2, 4) = 2: N_sim = Δ·S·(Q(τ+1))²·2SQ + Δ + τ
  // = 2·2·405²·4·405 + 2 = 1062882002.
  c.models[1].layers[0].heads[0].value(4, 2) = Rational(-1, 100);
  CHECK(k::n_sim(c.models, Rational(1, 10)) == Integer(1062882002));
}
