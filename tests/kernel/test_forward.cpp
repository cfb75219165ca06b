// The kernel's forward pass against values computed by hand from theory.md §1.
#include "support.hpp"

#include <catch2/catch.hpp>

#include <algorithm>

using lgc::Rational;
using lgc::Semantics;
using nlohmann::json;
namespace k = lgc::kernel;

namespace {

/// A JSON array of rows of strings (an initializer list of 2 strings would be an object).
json rows(std::initializer_list<std::vector<std::string>> r) {
  json out = json::array();
  for (const auto& row : r) out.push_back(json(row));
  return out;
}

/// Alphabet {a, b}, width 2, Δ = 1, E_a = (1,0), E_b = (0,1). The head's logit
/// y_jᵀ M y_i with M = c·[[0,0],[1,1]] is c·[key is b] for either query;
/// V = [[0,0],[0,1]] copies "is b"; the readout returns coordinate 1.
json one_head_model(const std::string& c, std::size_t tau, const json& phi) {
  return json{{"format", "lgcheck-case/1"}, {"name", "hand"}, {"alphabet", {"a", "b"}}, {"width", 2}, {"period", 1},
              {"locality", tau}, {"semantics", "hardmax"},
              {"embedding", rows({{"1", "0"}, {"0", "1"}})}, {"positional", rows({{"0", "0"}})},
              {"layers", json::array({json{{"heads", json::array({json{{"qk", rows({{"0", "0"}, {c, c}})},
                                                                      {"value", rows({{"0", "0"}, {"0", "1"}})},
                                                                      {"phi", phi}}})}}})},
              {"readout", {{"weights", rows({{"0", "1"}})}, {"bias", json::array({"0"})}, {"activation", "identity"}}}};
}

Rational only(const k::Values& v) { return v.at(0).exact(); }

}  // namespace

TEST_CASE("hardmax forward pass, by hand", "[kernel][forward]") {
  auto m = kt::model_from(one_head_model("1", 0, json::array({"0"})));
  // "ab": logits (a: 0, b: 1) -> attends to j = 2; Y = (0,1) + V(0,1) = (0,2); f = 2.
  CHECK(only(k::evaluate(m, kt::tokens(m, "ab"), Semantics::hardmax())) == 2);
  // "ba": logits (1, 0) -> j = 1 (a b); Y = (1,0) + (0,1) = (1,1); f = 1.
  CHECK(only(k::evaluate(m, kt::tokens(m, "ba"), Semantics::hardmax())) == 1);
  // "aa": equal logits, uniform; V(1,0) = 0; f = 0.
  CHECK(only(k::evaluate(m, kt::tokens(m, "aa"), Semantics::hardmax())) == 0);
  // "bab": keys b at 1, 3 tie at 1 -> each 1/2; Y = (0,1) + (0,1) = (0,2).
  CHECK(only(k::evaluate(m, kt::tokens(m, "bab"), Semantics::hardmax())) == 2);
}

TEST_CASE("finite:p forward pass, by hand", "[kernel][forward]") {
  auto m = kt::model_from(one_head_model("1", 0, json::array({"0"})));
  auto ba = kt::tokens(m, "ba");
  // i = 2, a* = 1, the a-key has δ = 1: 2^1 >= 2^1 rounds to 0 at p = 1 (equality rounds): hardmax, f = 1.
  CHECK(only(k::evaluate(m, ba, Semantics::finite(1))) == 1);
  // p = 2: 2 < 4 survives with 2^{-1}; w = (1, 1/2)/(3/2) = (2/3, 1/3); Y = (1,0) + 2/3·(0,1); f = 2/3.
  CHECK(only(k::evaluate(m, ba, Semantics::finite(2))) == Rational(2, 3));
  // Gap 1/2 (M scaled by 1/2), p = 2: 2^1 >= 2^{2·2}? no, survives as 2^{-1/2} (an enclosure):
  // f = 1/(1 + 2^{-1/2}) = 2 - √2 ≈ 0.585786437626904951.
  auto half = kt::model_from(one_head_model("1/2", 0, json::array({"0"})));
  lgc::Number f = k::evaluate(half, ba, Semantics::finite(2)).at(0);
  REQUIRE(!f.is_exact());
  CHECK(f.enclosure().lower() > Rational(585786437, 1000000000));
  CHECK(f.enclosure().upper() < Rational(585786438, 1000000000));
  // p = 1: 2^1 >= 2^{1·2}? no: survives too. p = 2 at i = 4 ("aaba"): 4^1 >= 2^4? no; i = 16: 16 >= 16 rounds.
}

TEST_CASE("finite-weights:p forward pass, by hand", "[kernel][forward]") {
  auto m = kt::model_from(one_head_model("1", 0, json::array({"0"})));
  // "ba": u = (1, 1/2) over (b, a), Σu = 3/2, normalised (2/3, 1/3). p = 1: 1/3 <= 1/2 rounds, 2/3 survives, f = 1.
  CHECK(only(k::evaluate(m, kt::tokens(m, "ba"), Semantics::finite_weights(1))) == 1);
  // p = 2: 1/3 > 1/4 survives: w = (2/3, 1/3), f = 2/3.
  CHECK(only(k::evaluate(m, kt::tokens(m, "ba"), Semantics::finite_weights(2))) == Rational(2, 3));
  // "aabbaa" (i = 6): two b keys at u = 1, four a keys at u = 1/6; Σu = 8/3; an a key's weight is 1/16 exactly:
  // at p = 4 it rounds (equality rounds), f = 1 (hardmax); at p = 5 it survives, f = 2/(8/3) = 3/4.
  CHECK(only(k::evaluate(m, kt::tokens(m, "aabbaa"), Semantics::finite_weights(4))) == 1);
  CHECK(only(k::evaluate(m, kt::tokens(m, "aabbaa"), Semantics::finite_weights(5))) == Rational(3, 4));
  // finite:4 rounds the terms instead: 1/6 > 1/16 survives, f = 3/4 (the readings differ here).
  CHECK(only(k::evaluate(m, kt::tokens(m, "aabbaa"), Semantics::finite(4))) == Rational(3, 4));
  // "bb": both keys on top with weight 1/2 each; p = 1 rounds both, the head adds 0: f = E_b's 1 (hardmax: 2).
  CHECK(only(k::evaluate(m, kt::tokens(m, "bb"), Semantics::finite_weights(1))) == 1);
  CHECK(only(k::evaluate(m, kt::tokens(m, "bb"), Semantics::hardmax())) == 2);
}

TEST_CASE("rounding is decided exactly at the boundary", "[kernel][forward]") {
  using lgc::Integer;
  CHECK(k::rounds_to_zero(Integer(8), Rational(1), 3));    // 8^1 >= 2^3: equality rounds to 0
  CHECK(!k::rounds_to_zero(Integer(7), Rational(1), 3));   // 7 < 8
  CHECK(k::rounds_to_zero(Integer(3), Rational(2), 3));    // 9 >= 8
  CHECK(!k::rounds_to_zero(Integer(2), Rational(3, 2), 3));  // 2^3 = 8 < 2^{3·2} = 64
  CHECK(k::rounds_to_zero(Integer(4096), Rational(1, 2), 6));   // 4096 >= 2^{12}
  CHECK(!k::rounds_to_zero(Integer(4095), Rational(1, 2), 6));
  CHECK(!k::rounds_to_zero(Integer(1), Rational(5), 1));   // 1^δ = 1 never rounds
}

TEST_CASE("softmax forward pass, by hand", "[kernel][forward]") {
  auto m = kt::model_from(one_head_model("1", 0, json::array({"0"})));
  // "ba": logits (1, 0); w_1 = e/(e+1); Y_1 = 0 + w_1; f = e/(e+1) ≈ 0.731058578630004879.
  lgc::Number f = k::evaluate(m, kt::tokens(m, "ba"), Semantics::softmax()).at(0);
  CHECK(f.enclosure().lower() > Rational(731058578, 1000000000));
  CHECK(f.enclosure().upper() < Rational(731058579, 1000000000));
  // τ = 1, φ = (0, 1): the key at offset 1 gets 1 + ln(2)·1: w_1 = 2e/(2e+1) ≈ 0.844637596503.
  auto w = kt::model_from(one_head_model("1", 1, json::array({"0", "1"})));
  lgc::Number g = k::evaluate(w, kt::tokens(w, "ba"), Semantics::softmax()).at(0);
  CHECK(g.enclosure().lower() > Rational(844637596, 1000000000));
  CHECK(g.enclosure().upper() < Rational(844637597, 1000000000));
  // Position 1 attends to itself exactly: "b" gives Y = (0,1) + (0,1), f = 2 exactly.
  CHECK(only(k::evaluate(w, kt::tokens(w, "b"), Semantics::softmax())) == 2);
  // All logits equal and exact ("aa", φ = 0): uniform and exact, f = 0.
  CHECK(only(k::evaluate(m, kt::tokens(m, "aa"), Semantics::softmax())) == 0);
}

TEST_CASE("two layers with an MLP, by hand", "[kernel][forward]") {
  // Width 3. Layer 1: M = 0 (uniform), V copies coordinate 0 ("is a") into 2, so
  // y'_i = E_{x_i} + (0, 0, q_i) with q_i the fraction of a among x_1..x_i.
  // Layer 2: uniform, V copies coordinate 2 into 2; MLP adds (0, 0, 2·ReLU(Y_2 − 1)).
  // "ab": q_1 = 1, q_2 = 1/2; Y_2 = 1/2 + (1 + 1/2)/2 = 5/4; + 2·(1/4) = 7/4.
  json zero3 = {{"0", "0", "0"}, {"0", "0", "0"}, {"0", "0", "0"}};
  json m = {{"format", "lgcheck-case/1"}, {"name", "two"}, {"alphabet", {"a", "b"}}, {"width", 3}, {"period", 1},
            {"locality", 0}, {"semantics", "hardmax"},
            {"embedding", {{"1", "0", "0"}, {"0", "1", "0"}}}, {"positional", {{"0", "0", "0"}}},
            {"layers", {{{"heads", {{{"qk", zero3}, {"value", {{"0", "0", "0"}, {"0", "0", "0"}, {"1", "0", "0"}}}, {"phi", {"0"}}}}}},
                        {{"heads", {{{"qk", zero3}, {"value", {{"0", "0", "0"}, {"0", "0", "0"}, {"0", "0", "1"}}}, {"phi", {"0"}}}}},
                         {"mlp", {{"in", {{"0", "0", "1"}}}, {"in_bias", {"-1"}}, {"out", {{"0"}, {"0"}, {"2"}}}, {"out_bias", {"0", "0", "0"}}}}}}},
            {"readout", {{"weights", {{"0", "0", "1"}}}, {"bias", {"0"}}, {"activation", "identity"}}}};
  auto model = kt::model_from(m);
  CHECK(only(k::evaluate(model, kt::tokens(model, "ab"), Semantics::hardmax())) == Rational(7, 4));
  // "ba": q = (0, 1/2); Y_2 = 1/2 + 1/4 = 3/4 < 1, MLP adds 0.
  CHECK(only(k::evaluate(model, kt::tokens(model, "ba"), Semantics::hardmax())) == Rational(3, 4));
}

TEST_CASE("ModPTask computes the fraction of 1s at positions ≡ 0 (mod p), every string up to length 8",
          "[kernel][forward][bundled]") {
  for (int p : {2, 3, 5, 7}) {
    auto c = kt::bundled("cases/paper/modp/modp_p" + std::to_string(p) + "_hardmax.json");
    for (std::size_t T = 1; T <= 8; ++T)
      for (unsigned long bits = 0; bits < (1ul << T); ++bits) {
        k::Tokens x(T);
        for (std::size_t i = 0; i < T; ++i) x[i] = static_cast<int>((bits >> i) & 1);
        // theory.md §5: the fraction of 1-tokens among positions j <= T, j ≡ 0 (mod p); all positions if none.
        long ones = 0, total = 0;
        for (std::size_t j = 1; j <= T; ++j)
          if (j % p == 0) ones += x[j - 1], ++total;
        if (total == 0)
          for (std::size_t j = 1; j <= T; ++j) ones += x[j - 1], ++total;
        INFO("p = " << p << ", T = " << T << ", bits = " << bits);
        CHECK(only(k::evaluate(c.model(), x, Semantics::hardmax())) == Rational(ones, total));
      }
  }
  auto c3 = kt::bundled("cases/paper/modp/modp_p3_hardmax.json");
  CHECK(only(k::evaluate(c3.model(), kt::tokens(c3.model(), "1101101"), Semantics::hardmax())) == 0);
  CHECK(only(k::evaluate(c3.model(), kt::tokens(c3.model(), "0101111"), Semantics::hardmax())) == Rational(1, 2));
  CHECK(only(k::evaluate(c3.model(), kt::tokens(c3.model(), "0111111"), Semantics::hardmax())) == 1);
}

TEST_CASE("SimpleTask: sin(ω q) enclosed, the ReLU interpolation exact at a knot", "[kernel][forward][bundled]") {
  auto s = kt::bundled("cases/paper/simple/simple_w2_sin.json");
  auto x = kt::tokens(s.model(), "0110");  // q = 1/2
  lgc::Number f = k::evaluate(s.model(), x, Semantics::hardmax()).at(0);
  lgc::Interval expected = sin(lgc::Interval(Rational(1)));  // sin(2·1/2) = sin 1
  CHECK(f.enclosure().contains(expected.lower()));
  CHECK(f.enclosure().width() < Rational(1, 1000000));
  // simple_w1_relu at q = 1/2 (a knot, K = 4): v = sin(1/2) rounded down to 10^-6 = 479425/10^6.
  auto r = kt::bundled("cases/paper/simple/simple_w1_relu.json");
  CHECK(only(k::evaluate(r.model(), kt::tokens(r.model(), "01"), Semantics::hardmax())) == Rational(479425, 1000000));
}

TEST_CASE("two heads add their outputs to the residual stream", "[kernel][forward]") {
  // Head 1 as above (attends to the b keys); head 2 has M = 0 (uniform) and the same V.
  // "ab": head 1 -> V(0,1) = (0,1); head 2 -> (V(1,0) + V(0,1))/2 = (0,1/2);
  // Y = (0,1) + (0,1) + (0,1/2) = (0, 5/2): f = 5/2.
  json j = one_head_model("1", 0, json::array({"0"}));
  json second = j["layers"][0]["heads"][0];
  second["qk"] = rows({{"0", "0"}, {"0", "0"}});
  j["layers"][0]["heads"].push_back(second);
  auto m = kt::model_from(j);
  CHECK(only(k::evaluate(m, kt::tokens(m, "ab"), Semantics::hardmax())) == Rational(5, 2));
  CHECK(k::last_position_weights(m, kt::tokens(m, "ab"), Semantics::hardmax()).size() == 2);
}

TEST_CASE("far keys with one class are added once with their number, the sum unchanged", "[kernel][forward]") {
  // M = 0: uniform attention over all T keys, so f(x) = [x_T is b] + (number of b in x) / T.
  // T = 1000 with 337 b's spread out and τ = 2 (the last three keys are terms of their own).
  auto m = kt::model_from(one_head_model("0", 2, json::array({"0", "0", "0"})));
  std::string x;
  for (int i = 0; i < 1000; ++i) x += (i * 337) % 1000 < 337 ? 'b' : 'a';
  const std::size_t bs = static_cast<std::size_t>(std::count(x.begin(), x.end(), 'b'));
  REQUIRE(bs == 337);
  const Rational last_is_b = x.back() == 'b' ? 1 : 0;
  CHECK(only(k::evaluate(m, kt::tokens(m, x), Semantics::hardmax())) == last_is_b + Rational(337, 1000));
  const auto heads = k::last_position_weights(m, kt::tokens(m, x), Semantics::hardmax());
  REQUIRE(heads.size() == 1);
  CHECK(heads[0].size() == 2 + 3);  // one term per far class (a, b), one per key within τ
  std::uint64_t keys = 0;
  lgc::Number total(0);
  for (const auto& kw : heads[0]) {
    keys += kw.multiplicity;
    total += lgc::Number(Rational(lgc::Integer(kw.multiplicity))) * kw.weight;
    CHECK(kw.weight == lgc::Number(Rational(1, 1000)));
  }
  CHECK(keys == 1000);
  CHECK(total == lgc::Number(1));
  // A positional term at distance 1 (φ(1) = 1) lifts that key alone to the top: hardmax attends only to it.
  auto positional = kt::model_from(one_head_model("0", 2, json::array({"0", "1", "0"})));
  const Rational second_last_is_b = x[x.size() - 2] == 'b' ? 1 : 0;
  CHECK(only(k::evaluate(positional, kt::tokens(positional, x), Semantics::hardmax())) == last_is_b + second_last_is_b);
}
