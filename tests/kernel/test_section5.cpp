// The Lemma 5.3 / Theorem 5.2 constants and the enumeration re-derivation, on a
// hand model and bundled cases (values derived in the comments; the decimals
// were cross-checked once with mpmath, not at test time).
#include "lgcheck/kernel/enumeration.hpp"
#include "lgcheck/kernel/section5.hpp"
#include "support.hpp"

#include <catch2/catch.hpp>

using lgc::Rational;
namespace k = lgc::kernel;

namespace {

/// True when the certified number x contains the decimal v (given to well within the enclosure's width).
bool encloses(const lgc::Number& x, const char* v, const char* slack = "1e-12") {
  const Rational q = lgc::parse_rational(v), s = lgc::parse_rational(slack);
  return lgc::lower_of(x) <= q + s && q - s <= lgc::upper_of(x);
}

/// S = 2, width 2, Δ = 1, τ = 0, E_a = (1, 0), E_b = (0, 1). Layer 1: M = [[1,0],[0,0]]
/// (logit 1 for key a at query a, else 0), V = [[0,0],[1/2,0]], φ = (0). Layer 2:
/// M = diag(1/2, 0), V = [[1,0],[0,0]], φ = (0). Readout (1, 0).
nlohmann::json hand_model() {
  return nlohmann::json::parse(R"({
    "format": "lgcheck-case/1", "name": "hand", "alphabet": ["a", "b"], "width": 2, "period": 1, "locality": 0,
    "semantics": "softmax", "embedding": [["1", "0"], ["0", "1"]], "positional": [["0", "0"]],
    "layers": [
      {"heads": [{"phi": ["0"], "qk": [["1", "0"], ["0", "0"]], "value": [["0", "0"], ["1/2", "0"]]}]},
      {"heads": [{"phi": ["0"], "qk": [["1/2", "0"], ["0", "0"]], "value": [["1", "0"], ["0", "0"]]}]}],
    "readout": {"weights": [["1", "0"]], "bias": ["0"]}})");
}

}  // namespace

TEST_CASE("Lemma 5.3 and Theorem 5.2 constants on a hand model", "[kernel][section5]") {
  const lgc::Model m = kt::model_from(hand_model());
  REQUIRE_FALSE(k::layer2_obstacle(m));
  // y_a = (1, 0), y_b = (0, 1), V y_a = (0, 1/2), V y_b = 0: lo = (0, 0), hi = (1, 1) + (0, 1/2).
  CHECK(k::first_layer_box(m) == std::vector<Rational>{1, Rational(3, 2)});
  // γ = 1 (P = {0, 1}), so r′ = 1/3. V_h = 1/2, spread 1: K = 8·(1/2)·2·e = 8e, Lip(Φ) = 2·(1/2)·e = e.
  // Layer 2: A = min(b₀·½·b₀, ‖M‖₂‖b‖₂²) = min(1/2, 13/8) = 1/2, B = 1, v = 1, m = m′ = 1/2.
  // G = e^{1/2}; L = e^{1/2}·e·max(1/2, 1/2 + 1) = (3/2)e^{3/2}.
  // D = 8e + 1·e·2·1 = 10e, σ = 3/2, ε̂ = e^{1/2}[(1/2·8e·3/2 + 1/2·10e + 6·2^{−2/3}) + 8e·3/2] = e^{1/2}(23e + 6·2^{−2/3}),
  // C = 8e + 10e + e^{1/2}·2·(2ε̂ + G + L) = 20e + 95e² + 24e·2^{−2/3}.
  const k::Section5Bounds b = k::section5_bounds(m, Rational(1));
  CHECK(b.rate == Rational(1, 3));
  CHECK(encloses(b.G, "1.648721270700128146848650787814"));
  CHECK(encloses(b.L, "6.722533605507097233903083190179"));
  CHECK(encloses(b.C, "797.4238119102599857625275300665"));
  CHECK(lgc::upper_of(b.C) - lgc::lower_of(b.C) < Rational(1, 1000000000000LL));
}

TEST_CASE("The first layer's box: the range of the query plus each head's convex combination, widened by an MLP",
          "[kernel][section5]") {
  nlohmann::json doc = hand_model();
  doc["layers"][0]["heads"][0]["value"] = nlohmann::json::parse(R"([["-1", "0"], ["0", "0"]])");
  // V y_a = (−1, 0), V y_b = 0: coordinate 0 lies in [0 − 1, 1 + 0], coordinate 1 in [0, 1]. Adding the largest
  // magnitudes instead (|y| up to 1, |V y| up to 1) would give b_0 = 2.
  CHECK(k::first_layer_box(kt::model_from(doc)) == std::vector<Rational>{1, 1});
  // An MLP with ‖W_in‖∞ = 2, ‖b_in‖∞ = 1/2, ‖W_out‖∞ = 2, ‖b_out‖∞ = 1/4 widens every coordinate to
  // β + 2(2β + 1/2) + 1/4 = 25/4 at β = 1.
  doc["layers"][0]["mlp"] = nlohmann::json::parse(
      R"({"in": [["1", "1"]], "in_bias": ["1/2"], "out": [["2"], ["0"]], "out_bias": ["0", "-1/4"]})");
  CHECK(k::first_layer_box(kt::model_from(doc)) == std::vector<Rational>{Rational(25, 4), Rational(25, 4)});
}

TEST_CASE("C(f) of attention_pair_sharp's f, the value theory.md derives by hand", "[kernel][section5][bundled]") {
  // K = Lip(Φ) = 0, A = 6, B = 1: C(f) = 2e^{12}(12·2^{−2/3} + 1).
  const auto c = kt::bundled("cases/section5/attention_pair_sharp.json");
  CHECK(encloses(k::section5_bounds(c.models[0], Rational(1)).C, "2786207.834998638006228244042", "1e-6"));
  CHECK(k::layer2_obstacle(kt::bundled("cases/paper/modp/modp_p3_hardmax.json").model()));  // one hardmax layer
}

TEST_CASE("C(f) with a second-layer positional term: rate min(gamma, 1/3, gamma2), the window weight in eps_hat",
          "[kernel][section5][bundled]") {
  // attention_pair_second_phi's f: K = Lip(Φ) = D = 0, A = 1/2, B = 1, τ = 0, j₀ = 2, φ₂(0) = 3/4 so γ₂ = 1/4 = r′:
  // ε̂ = e^{1/2}(5·2^{−3/4} + 2^{0}), G = e^{1/2}, L = 0, C(f) = e^{1/2}·2·(2ε̂ + G) = 2e(10·2^{−3/4} + 3).
  const auto c = kt::bundled("cases/section5/attention_pair_second_phi.json");
  CHECK_FALSE(k::layer2_obstacle(c.models[0]));
  const k::Section5Bounds b = k::section5_bounds(c.models[0], Rational(1));
  CHECK(b.rate == Rational(1, 4));
  CHECK(encloses(b.C, "48.63569188061529847425680804466384889599", "1e-12"));
  lgc::Model balanced = c.models[0];
  balanced.layers[1].heads[0].phi[0] = 1;  // balanced: the window key keeps a share of the attention
  CHECK_FALSE(k::layer2_obstacle(balanced));  // covered: the top key is paired between x and z
  // φ₂ < 0: covered; the light key multiplies the head's factor by j₀/(j₀ − 1) = 2, and γ₂,g = 5/4 > r′ = 1/3.
  lgc::Model light = c.models[0];
  light.layers[1].heads[0].phi[0] = Rational(-1, 4);
  CHECK_FALSE(k::layer2_obstacle(light));
  const k::Section5Bounds l = k::section5_bounds(light, Rational(1));
  CHECK(l.rate == Rational(1, 3));
  // C(f) = e^{1/2}·2·2·(2ε̂ + G), ε̂ = e^{1/2}(5·2^{−2/3} + 2^{1/3 − 5/4}), G = e^{1/2}.
  CHECK(encloses(l.C, "90.88921432756114914636202261411008863454", "1e-12"));
}

TEST_CASE("C(f) with a position-dominant second layer: the bulk's vanishing share, no statistic term",
          "[kernel][section5][bundled]") {
  // attention_pair_second_dominant's f: K = Lip(Φ) = D = 0, A = 1/2, B = 1, τ = 0, j₀ = 2, φ₂(0) = 3/2: Φ = 3/2,
  // γ₂ = 1/2, r′ = 1/3; ε̂ = e^{1/2}·(1 + 0)·2^{1/3 − 1/2}, π̂ = 0 (K = Lip = 0), no statistic term:
  // C(f) = e^{1/2}·2·(2ε̂) = 4e·2^{−1/6}.
  const auto c = kt::bundled("cases/section5/attention_pair_second_dominant.json");
  CHECK_FALSE(k::layer2_obstacle(c.models[0]));
  const k::Section5Bounds b = k::section5_bounds(c.models[0], Rational(1));
  CHECK(b.rate == Rational(1, 3));
  CHECK(b.start == 2);
  CHECK(encloses(b.C, "9.686855186073364390321686483121628602167", "1e-12"));
  CHECK(k::kept_tail(kt::bundled("cases/section5/attention_pair_second_previous.json").models[0]) == 3);
  CHECK(k::section5_bounds(kt::bundled("cases/section5/attention_pair_second_previous.json").models[0], 1).start == 5);
}

TEST_CASE("exhaustive domains: parsed and counted by the kernel", "[kernel][enumeration]") {
  const lgc::Model modp2 = kt::bundled("cases/paper/modp/modp_p2_hardmax.json").model();
  // S = 2, Δ = 2, τ = 0: 2·(m₀+1)(m₁+1) statistics of length T, m_r the bulk positions of residue r:
  // 2 + 4 + 8 + 12 + 18 + 24 + 32 + 40 + 50 + 60 + 72 + 84 = 406 for T = 1..12.
  auto d = k::parse_domain("every statistic of length 1..12");
  REQUIRE(d);
  CHECK(k::domain_count(*d, modp2) == 406);
  CHECK(k::statistic_count(modp2, 12) == 84);
  d = k::parse_domain("every statistic of each length T in [11, 12] with at most 80 statistics");
  REQUIRE(d);
  CHECK(k::domain_count(*d, modp2) == 72);  // length 12 (84 statistics) is skipped
  d = k::parse_domain("query positions 8..12 of every string of length 12");
  REQUIRE(d);
  CHECK(k::domain_count(*d, modp2) == 4096 * 5);
  CHECK(k::sample_strings(*d, modp2).size() == k::kSamples);
  CHECK(k::sample_strings(*d, modp2) == k::sample_strings(*d, modp2));  // the kernel's seed, fixed
  CHECK_FALSE(k::parse_domain("pairs of statistics of length <= 12 with the same window and residue"));
  CHECK_FALSE(k::parse_domain("every statistic of length 5..4"));
}

TEST_CASE("visit digests: one item's hash and a small domain's digest, by hand", "[kernel][enumeration]") {
  // Values computed outside the toolkit (Python): FNV-1a over the words' 8 little-endian bytes each, then
  // z = (z ^ z>>30)·0xbf58476d1ce4e5b9, z = (z ^ z>>27)·0x94d049bb133111eb, z ^ z>>31.
  k::Digest one;
  one.add({3, 1, 2, 0});  // T = 3, window (1), counts (2, 0): the string 0 0 1 with S = 2, τ = 0, Δ = 1
  CHECK(one.text() == "1 items, digest 2d2211750a3f4759");
  // S = 2, τ = 0, Δ = 1, lengths 1..2: windows 0, 1 times the bulks (0, 0); (1, 0), (0, 1): 6 statistics.
  lgc::Model m;
  m.alphabet = {"a", "b"};
  const auto d = k::parse_domain("every statistic of length 1..2");
  REQUIRE(d);
  const auto digest = k::domain_digest(*d, m);
  REQUIRE(digest);
  CHECK(digest->text() == "6 items, digest 49ef858abf6301de");
  // A domain of strings: every string of length N once, whatever the positions.
  const lgc::Model modp2 = kt::bundled("cases/paper/modp/modp_p2_hardmax.json").model();
  const auto strings = k::domain_digest(*k::parse_domain("query positions 8..12 of every string of length 12"), modp2);
  REQUIRE(strings);
  CHECK(strings->items == 4096);
  CHECK(k::domain_digest(*k::parse_domain("every statistic of length 1..12"), modp2)->items == 406);
}

TEST_CASE("visit digests: L4.L's pairs, by hand, and every k-th pair beyond the cap", "[kernel][enumeration]") {
  // S = 2, τ = 0, Δ = 1, lengths <= 3: per window w, the six statistics (T, counts) in order (1; 0, 0),
  // (2; 0, 1), (2; 1, 0), (3; 0, 2), (3; 1, 1), (3; 2, 0) and their 15 pairs; two windows, two models: 60 pairs,
  // each hashed from (model, T, w, counts of x, T, w, counts of z). The sum computed outside the toolkit (Python).
  lgc::Model m;
  m.alphabet = {"a", "b"};
  const auto digest = k::norm_pair_digest(m, 2, 3);
  REQUIRE(digest);
  CHECK(digest->text() == "60 items, digest 13e30d0ef1c84c2b");
  // ModPTask p = 2 (S = 2, τ = 0, Δ = 2) to length 12: 20 622 pairs, every second one compared (cap 20 000).
  const lgc::Model modp2 = kt::bundled("cases/paper/modp/modp_p2_hardmax.json").model();
  const k::PairCount c = k::norm_pair_count(modp2, 12);
  CHECK(c.total == 20622);
  CHECK(c.stride == 2);
  CHECK(k::norm_pair_digest(modp2, 1, 12)->items == 10312);
  CHECK(c.compared == 10312);
}

TEST_CASE("T5.2.sim's a-priori range of |f(x) - f(z)|, a second-layer MLP included", "[kernel][section5][bundled]") {
  // R = max_j 2 Σ_k |W_jk|(b_k + Σ_g Σ_c |V_g,kc| b_c) per model.
  // The pair's range is the larger of its models': 2.1 and 2.3, as the search records them (evidence.output_range).
  const auto sharp = kt::bundled("cases/section5/attention_pair_sharp.json");
  CHECK(k::output_range(sharp.models[0]) == Rational(2));
  CHECK(k::output_range(sharp.models[1]) == Rational(21, 10));
  const auto smooth = kt::bundled("cases/section5/attention_pair_smooth.json");
  CHECK(k::output_range(smooth.models[0]) == Rational(11, 5));
  CHECK(k::output_range(smooth.models[1]) == Rational(23, 10));
  // A second-layer MLP adds Σ_u |W_out,ku|(|b_in,u| + Σ_c |W_in,uc| y_c) + |b_out,k|: the position witness's g (one
  // ReLU unit y_2 − y_3 − 3/4 written to coordinate 4, read with coordinate 3) has R = 15/2, its f (no MLP) R = 2.
  const auto witness = kt::bundled("cases/witnesses/position_witness_gamma1_3_rho1_4.json");
  CHECK(k::output_range(witness.models[0]) == Rational(2));
  CHECK(k::output_range(witness.models[1]) == Rational(15, 2));
  CHECK_FALSE(k::output_range(kt::bundled("cases/paper/modp/modp_p3_hardmax.json").model()));  // one layer
}

