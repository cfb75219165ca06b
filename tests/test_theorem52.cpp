// Theorem 5.2: C(f) against its closed form on a hand-analysed pair, the
// a-priori bound C(f)·n^{−min(γ,1/3)} above the a-posteriori simulation-error
// bound for every c-good z (what the derivation in docs/theory.md proves),
// N_variant_A/B rounded exactly, and `lgcheck bound --theorem 5.2`.
#include "lgcheck/bounds/theorem52.hpp"
#include "lgcheck/enumerate/strings.hpp"
#include "lgcheck/quantities/complexity.hpp"
#include "lgcheck/quantities/simulation_bound.hpp"
#include "lgcheck/simulate/subsample.hpp"
#include "lgcheck/tasks/section5_tasks.hpp"
#include "section5.hpp"

#include "support.hpp"

#include <nlohmann/json.hpp>

#include <fstream>
#include <random>

using lgc::Integer;
using lgc::Interval;
using lgc::Rational;

TEST_CASE("ceil_power rounds rational powers up exactly", "[numeric][theorem52]") {
  CHECK(lgc::ceil_power(8, Rational(1, 3)) == 2);
  CHECK(lgc::ceil_power(9, Rational(1, 2)) == 3);
  CHECK(lgc::ceil_power(10, Rational(1, 2)) == 4);
  CHECK(lgc::ceil_power(2, 3) == 8);
  CHECK(lgc::ceil_power(Rational(27, 8), Rational(2, 3)) == 3);  // (27/8)^(2/3) = 9/4
  CHECK(lgc::ceil_power(Rational(1, 2), 1) == 1);
  CHECK(lgc::ceil_power(0, 5) == 0);
  // 10^30 + 1 under a square root: 10^15 + 1, not 10^15.
  CHECK(lgc::ceil_power(Rational(lgc::pow(Integer(10), 30) + 1), Rational(1, 2)) == lgc::pow(Integer(10), 15) + 1);
  CHECK_THROWS_AS(lgc::ceil_power(-1, 2), std::invalid_argument);
  CHECK_THROWS_AS(lgc::ceil_power(2, 0), std::invalid_argument);
}

TEST_CASE("C(f) of the sharp attention model equals its closed form", "[theorem52]") {
  // a = 3, copy = 0: the first layer writes nothing (K = Lip(Phi) = 0), the
  // box is (1, 1, 1, 0), A = 2a = 6, B = 1, Lip_out = 1, tau = 0, gamma = 1:
  // eps_hat = e^6·6·2^(-2/3), G = e^6, L = 0 and
  // C = e^6·2·(2 eps_hat + G) = 2 e^12 (12·2^(-2/3) + 1).
  const lgc::Model f = lgc::attention_pair(3, 0, Rational(1, 20)).f;
  const lgc::ComplexityConstant k = lgc::complexity_constant(f);
  CHECK(k.K == 0);
  CHECK(k.lip_phi == 0);
  CHECK(k.rate == Rational(1, 3));
  CHECK(k.from == 2);
  const Interval closed = Interval(Rational(2)) * exp(Interval(Rational(12))) *
                          (Interval(Rational(12)) * lgc::power(Integer(2), Rational(-2, 3), 128) + Interval(Rational(1)));
  INFO(k.C.to_string(12) << " against " << closed.to_string(12));
  CHECK_FALSE(lgc::certainly_different(k.C, closed));
  CHECK(k.C.width() < Rational(1, 1000000));
  // Without the exponential factor: 2·(12·2^(-2/3) + 1), about 17.1.
  const lgc::ComplexityConstant flat = lgc::complexity_constant(f, 1, false);
  CHECK(flat.C.upper() < 18);
  CHECK(flat.C.lower() > 17);
  // c scales the premise's terms: a larger c, a larger C(f).
  CHECK(lgc::complexity_constant(f, 2).C.lower() > k.C.upper());
  CHECK_THROWS_AS(lgc::complexity_constant(f, 0), std::invalid_argument);
  CHECK_THROWS_AS(lgc::complexity_constant(lgc::test::bundled("paper/modp/modp_p3_hardmax.json").model()),
                  std::invalid_argument);
}

TEST_CASE("The a-priori bound C(f) n^-r' is above the simulation-error bound on every c-good z", "[theorem52]") {
  std::mt19937_64 rng(7);
  for (const char* file : {"section5/attention_pair_smooth.json", "section5/regime_position.json",
                           "section5/kgram_k1_s2.json"}) {
    const lgc::Case c = lgc::test::bundled(file);
    const lgc::Model& m = c.model();
    const lgc::SoftmaxFirstLayer layer(m);
    const lgc::ComplexityConstant k = lgc::complexity_constant(m);
    std::size_t good = 0;
    for (std::uint64_t T : {2000u, 5000u}) {
      const lgc::Tokens x = lgc::random_string(m.alphabet_size(), T, rng);
      const lgc::SimulationErrorBound bounder(layer, x);
      for (std::uint64_t n : {50u, 500u}) {
        const lgc::Tokens z = lgc::restrict_to(x, lgc::markov_subsample(T, n, m.locality, 1));
        const lgc::SimulationBound b = bounder.bound(z);
        if (b.statistic_error > k.statistic_limit(z.size()).lower() || b.histogram_drift > k.drift_limit(z.size()).lower())
          continue;
        ++good;
        INFO(file << " T = " << T << " |z| = " << z.size());
        CHECK(b.total <= k.bound(z.size()).upper());
      }
    }
    INFO(file);
    CHECK(good > 0);
  }
}

TEST_CASE("N_variant_A and N_variant_B are the least integers above their values", "[theorem52]") {
  lgc::ComplexityConstant f, g;
  f.C = Interval(Rational(3));
  f.gamma = Rational(1, 5);  // exponent max(5, 3) = 5
  g.C = Interval(Rational(7, 2));
  g.gamma = 1;
  const lgc::Theorem52Bounds b = lgc::theorem52_bounds({f, g}, Rational(1, 2));
  CHECK(b.C == Rational(7, 2));
  CHECK(*b.gamma == Rational(1, 5));
  CHECK(b.exponent == 5);
  CHECK(b.N_variant_A == 16807);  // 7^5
  CHECK(b.N_variant_B == 112);    // 7/2·2^5
  g.gamma = Rational(3, 4);  // exponent 3, at eps = 1/10: (35)^3 and 7/2·10^3
  const lgc::Theorem52Bounds c = lgc::theorem52_bounds({g}, Rational(1, 10));
  CHECK(c.exponent == 3);
  CHECK(c.N_variant_A == 42875);  // 35^3
  CHECK(c.N_variant_B == 3500);
  g.gamma = Rational(2, 7);  // exponent 7/2: 35^(7/2) = 253651.92..., 7/2·10^(7/2) = 11067.97...
  const lgc::Theorem52Bounds d = lgc::theorem52_bounds({g}, Rational(1, 10));
  CHECK(d.N_variant_A == 253652);
  CHECK(d.N_variant_B == 11068);
  g.gamma.reset();  // gamma = +inf: exponent 3
  CHECK(lgc::theorem52_bounds({g}, Rational(1, 10)).exponent == 3);
  CHECK_THROWS_AS(lgc::theorem52_bounds({}, Rational(1, 10)), std::invalid_argument);
}

TEST_CASE("lgcheck bound --theorem 5.2 prints C, gamma and N_variant_A/B", "[theorem52][cli]") {
  auto r = lgc::test::run_lgcheck("bound " + lgc::test::case_path("section5/attention_pair_sharp.json").string() +
                                  " --theorem 5.2 --epsilon 1/10 --json");
  REQUIRE(r.exit_code == 0);
  auto b = nlohmann::json::parse(r.out);
  CHECK(b["theorem"] == "5.2");
  CHECK(b["epsilon"] == "1/10");
  CHECK(b["gamma"] == "1");
  CHECK(b["exponent"] == "3");
  CHECK(b["models"].size() == 2);
  const Rational C = lgc::parse_rational(b["C"].get<std::string>());
  CHECK(lgc::parse_integer(b["N_variant_A"].get<std::string>()) == lgc::ceil_power(10 * C, 3));
  CHECK(lgc::parse_integer(b["N_variant_B"].get<std::string>()) == lgc::ceil(1000 * C));
  auto text = lgc::test::run_lgcheck("bound " + lgc::test::case_path("section5/attention_pair_sharp.json").string() +
                                     " --theorem 5.2 --epsilon 1/10");
  CHECK(text.exit_code == 0);
  CHECK(text.out.find("N_variant_A") != std::string::npos);
  // Not a two-layer softmax model: refused with the reason.
  auto refused = lgc::test::run_lgcheck("bound " + lgc::test::case_path("paper/modp/modp_p3_hardmax.json").string() +
                                        " --theorem 5.2 --epsilon 1/10", true);
  CHECK(refused.exit_code == 2);
  CHECK(refused.out.find("not softmax") != std::string::npos);
}

TEST_CASE("T5.2.sim checks C(f) on c-good z and reports N_variant_A/B, C(f) without e^A is REFUTED", "[theorem52][claim]") {
  lgc::Case rare = lgc::test::bundled("section5/attention_pair_rare.json");
  lgc::Simulation52Params p = lgc::simulation52_params(rare);
  REQUIRE(p.inputs.size() == 1);
  CHECK(p.inputs[0].kind == lgc::InputFamily::Kind::Single);
  lgc::ClaimResult r = lgc::check_simulation52(rare, p);
  INFO(r.detail);
  // Every bound (1.4e10 and above) exceeds the outputs' a-priori range: nothing could fail.
  CHECK(r.verdict == lgc::Verdict::Vacuous);
  CHECK(r.evidence.contains("N_variant_A"));
  CHECK(r.evidence.contains("N_variant_B"));
  CHECK(r.detail.find("within C(f) n^-min(gamma,1/3) on the 6 with a c-good z") != std::string::npos);
  p.complexity_with_exponential = false;
  lgc::ClaimResult broken = lgc::check_simulation52(rare, p);
  INFO(broken.detail);
  CHECK(broken.verdict == lgc::Verdict::Refuted);
  CHECK(broken.detail.find("C(f)") != std::string::npos);
}

TEST_CASE("simulation_inputs names input families, and a bad one is refused at load", "[theorem52][case]") {
  CHECK(lgc::parse_input_family("uniform")->kind == lgc::InputFamily::Kind::Uniform);
  CHECK(lgc::parse_input_family("single")->kind == lgc::InputFamily::Kind::Single);
  CHECK(lgc::parse_input_family("rate:1/400")->inverse_rate == 400);
  for (const char* bad : {"rate:1/1", "rate:1/", "rate:2/5", "rate:1/x", "Uniform"}) {
    INFO(bad);
    CHECK_FALSE(lgc::parse_input_family(bad));
  }
  std::ifstream in(lgc::test::case_path("section5/attention_pair_rare.json"));
  nlohmann::json j = nlohmann::json::parse(in);
  j["check"]["simulation_inputs"] = {"single", "rate:1/1"};
  try {
    lgc::parse_case(j, "rare.json");
    FAIL("a bad input family was accepted");
  } catch (const lgc::CaseError& e) {
    CHECK(e.json_path() == "check.simulation_inputs[1]");
  }
  // A family twice would record two x under one name, which no certificate check could tell apart: refused.
  j["check"]["simulation_inputs"] = {"single", "rate:1/20", "single"};
  try {
    lgc::parse_case(j, "rare.json");
    FAIL("a repeated input family was accepted");
  } catch (const lgc::CaseError& e) {
    CHECK(e.json_path() == "check.simulation_inputs[2]");
    CHECK(std::string(e.what()).find("\"single\" is listed twice (at 0)") != std::string::npos);
  }
}
