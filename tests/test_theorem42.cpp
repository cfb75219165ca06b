// Theorem 4.2: the N0 bound rounded exactly, the Monte Carlo estimate's
// interval, the claims on the bundled cases and the command line.
#include "lgcheck/average/monte_carlo.hpp"
#include "lgcheck/bounds/theorem42.hpp"
#include "lgcheck/tasks/paper_tasks.hpp"
#include "claims/average/theorem42.hpp"

#include "support.hpp"

#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>

#include <unistd.h>

using lgc::Integer;
using lgc::Rational;

TEST_CASE("N0 = ceil(c eps^(-2-2/alpha_min) (1 + ln 1/eps)^k) is rounded exactly", "[theorem42]") {
  CHECK(lgc::theorem42_bounds(Rational(1, 10), Rational(1, 2)).N0 == 1000000);  // exactly an integer
  CHECK(lgc::theorem42_bounds(Rational(1, 4), 1).N0 == 256);
  CHECK(lgc::theorem42_bounds(Rational(1, 8), Rational(3, 2)).N0 == 1024);      // 8^(10/3) = 2^10
  CHECK(lgc::theorem42_bounds(Rational(1, 3), 3).N0 == 19);                     // 3^(8/3) = 18.72...
  CHECK(lgc::theorem42_bounds(Rational(1, 2), Rational(1, 2), Rational(5, 8)).N0 == 40);
  // with the log factor (mpmath: 169.9875..., 2159.126...)
  CHECK(lgc::theorem42_bounds(Rational(1, 3), 1, 1, 1).N0 == 170);
  CHECK(lgc::theorem42_bounds(Rational(1, 5), Rational(5, 2), Rational(7, 2), 2).N0 == 2160);
  CHECK(lgc::theorem42_bounds(1, 1, Rational(3, 2), 3).N0 == 2);
  CHECK_THROWS_AS(lgc::theorem42_bounds(0, 1), std::invalid_argument);
  CHECK_THROWS_AS(lgc::theorem42_bounds(Rational(1, 2), 0), std::invalid_argument);
}

TEST_CASE("The Monte Carlo interval contains the exact expectation", "[theorem42][average]") {
  lgc::FareyHat w = lgc::farey_hat(4, 1);
  lgc::OneLayerEvaluator f(w.f), g(w.g);
  for (const auto& alpha : {lgc::QVector{Rational(1), Rational(1)}, lgc::QVector{Rational(2), Rational(1, 2)}}) {
    lgc::DirichletPrior prior{alpha};
    lgc::DirichletMoments moments(prior);
    for (std::uint64_t T : {5, 12, 40}) {
      Rational exact = lgc::expected_distance(f, g, moments, T).value.exact();
      lgc::MonteCarloEstimate e =
          lgc::monte_carlo_distance(f, g, prior, T, 4000, lgc::test::test_seed() + T, Rational(1, 1000), 1);
      INFO("alpha " << lgc::describe(prior) << " T=" << T << " exact " << lgc::to_decimal(exact) << " in ["
                    << lgc::to_decimal(e.lower()) << ", " << lgc::to_decimal(e.upper()) << "]");
      CHECK(e.lower() <= exact);
      CHECK(exact <= e.upper());
      CHECK(e.half_width < Rational(1, 20));  // the interval says something
    }
  }
}

TEST_CASE("The Polya urn draws only symbols of the prior's support", "[theorem42][average]") {
  std::mt19937_64 rng(lgc::test::test_seed());
  lgc::DirichletPrior prior{lgc::QVector{Rational(0), Rational(1, 3), Rational(0), Rational(2)}};
  lgc::Tokens x = lgc::sample_dirichlet_string(prior, 1000, rng);
  for (int s : x) CHECK((s == 1 || s == 3));
}

TEST_CASE("T4.2.avg holds on the bundled cases (SAMPLED lengths, VACUOUS premise) and C4.2.regularity is PROVED",
          "[theorem42][claim]") {
  for (auto [file, verdict] : std::vector<std::pair<const char*, lgc::Verdict>>{
           {"average/farey_hat_n4_uniform.json", lgc::Verdict::Sampled},
           {"average/farey_hat_n4_skewed.json", lgc::Verdict::Sampled},
           {"average/presence_skewed.json", lgc::Verdict::Vacuous}}) {
    lgc::Case c = lgc::test::bundled(file);
    REQUIRE(lgc::is_average_case(c));
    lgc::ClaimResult r = lgc::check_average(c, lgc::average_params(c));
    INFO(file << ": " << r.detail);
    CHECK(r.verdict == verdict);
  }
  lgc::Case uniform = lgc::test::bundled("average/farey_hat_n4_uniform.json");
  lgc::ClaimResult r = lgc::check_average(uniform, lgc::average_params(uniform));
  CHECK(r.evidence["premise"]["holds"] == true);  // real content, not vacuous
  CHECK(r.evidence["premise"]["max_E"] == "1/6");
  for (const char* file : {"average/regularity_k64.json", "average/regularity_k500_s3.json"}) {
    lgc::Case c = lgc::test::bundled(file);
    REQUIRE(lgc::is_regularity_case(c));
    REQUIRE_FALSE(lgc::is_average_case(c));
    lgc::ClaimResult reg = lgc::check_regularity(c, lgc::regularity_params(c));
    INFO(file << ": " << reg.detail);
    CHECK(reg.verdict == lgc::Verdict::Proved);
  }
}

TEST_CASE("C4.2.regularity with a sin readout: an enclosure of E_t that holds the claimed value is UNDECIDED, not "
          "REFUTED",
          "[theorem42][claim]") {
  // A random hardmax pair with sin readouts (an audit's case, kept as a kernel fixture). Both readouts are
  // sin(1/2 · (0·y + 2)): f = g = sin(1) at every input, the arguments equal, so E_t is the exact 0 (readout_distance)
  // and the claimed E_3 = eta is refuted exactly; before, E_1 was the enclosure [0, 2.9e-39] and the claim UNDECIDED.
  std::ifstream in(lgc::test::source_dir() / "tests/kernel/data/details/sin_enclosure__C4.2.regularity.json");
  const nlohmann::json cert = nlohmann::json::parse(in);
  lgc::Case c = lgc::parse_case(cert["case"], "inline");
  REQUIRE(lgc::is_regularity_case(c));
  lgc::RegularityParams p = lgc::regularity_params(c);
  lgc::ClaimResult r = lgc::check_regularity(c, p);
  INFO(r.detail);
  CHECK(r.verdict == lgc::Verdict::Refuted);
  CHECK(r.detail.find("E_3 = 0 under the long distribution, not 1/2 as claimed") == 0);
  // g rewritten as sin((ω/2)·(2U y + 2u)): the same function, but the arguments differ, so the rule does not apply
  // and E_1 = [0, w] may be the claimed 0.
  lgc::Readout& readout = c.models[1].readout;
  *readout.sin_omega /= 2;
  for (std::size_t k = 0; k < readout.weights.rows(); ++k) {
    readout.bias[k] *= 2;
    for (std::size_t j = 0; j < readout.weights.cols(); ++j) readout.weights(k, j) *= 2;
  }
  r = lgc::check_regularity(c, p);
  INFO(r.detail);
  CHECK(r.verdict == lgc::Verdict::Undecided);
  CHECK(r.detail.find("E_1 = [0, ") == 0);
  CHECK(r.detail.find("is not separated from 0, the claimed value") != std::string::npos);
  p.eta = 5;  // a claimed eta the enclosures after K certainly miss: REFUTED there, not UNDECIDED
  p.claimed_switch = 0;
  r = lgc::check_regularity(c, p);
  INFO(r.detail);
  CHECK(r.verdict == lgc::Verdict::Refuted);
}

TEST_CASE("T4.2.avg refutes a conclusion constant the instance does not meet", "[theorem42][claim]") {
  lgc::Case c = lgc::test::bundled("average/farey_hat_n4_uniform.json");
  lgc::AverageParams p = lgc::average_params(c);
  p.conclusion_constant = Rational(1, 10);  // the instance needs C >= 0.1665...
  lgc::ClaimResult r = lgc::check_average(c, p);
  INFO(r.detail);
  CHECK(r.verdict == lgc::Verdict::Refuted);
  p.conclusion_constant = Rational(1, 5);
  CHECK(lgc::check_average(c, p).verdict == lgc::Verdict::Sampled);  // the conclusion at T = N0 * 2^j only
}

TEST_CASE("T4.2.avg is UNDECIDED with the budget printed when N0 is out of reach", "[theorem42][claim]") {
  lgc::Case c = lgc::test::bundled("average/farey_hat_n4_uniform.json");
  lgc::AverageParams p = lgc::average_params(c);
  p.epsilon = Rational(1, 100);
  lgc::ClaimResult r = lgc::check_average(c, p);
  CHECK(r.verdict == lgc::Verdict::Undecided);
  CHECK(r.detail.find("budget 20000") != std::string::npos);
}

TEST_CASE("lgcheck bound --theorem 4.2 and lgcheck average print the keys of CLI.md", "[theorem42][cli]") {
  auto bound = lgc::test::run_lgcheck("bound " + lgc::test::case_path("average/farey_hat_n4_skewed.json").string() +
                                      " --theorem 4.2 --epsilon 1/10 --json");
  REQUIRE(bound.exit_code == 0);
  auto b = nlohmann::json::parse(bound.out);
  CHECK(b["theorem"] == "4.2");
  CHECK(b["epsilon"] == "1/10");
  CHECK(b["alpha_min"] == "1/2");
  CHECK(b["N0"] == "1000000");
  for (const char* key : {"alpha", "c", "log_power", "exponent", "alphabet_size", "period", "locality"})
    CHECK(b.contains(key));
  auto avg = lgc::test::run_lgcheck("average " + lgc::test::case_path("average/farey_hat_n4_uniform.json").string() +
                                    " --length 5 --json");
  REQUIRE(avg.exit_code == 0);
  auto a = nlohmann::json::parse(avg.out);
  CHECK(a["length"] == 5);
  CHECK(a["alpha"] == nlohmann::json::array({"1", "1"}));
  CHECK(a["expectation"] == "1/6");  // only q = 2/5 sees the hat, P = 1/6
  auto alpha = lgc::test::run_lgcheck("average " + lgc::test::case_path("average/farey_hat_n4_uniform.json").string() +
                                      " --length 5 --alpha 1,2,3", true);
  CHECK(alpha.exit_code == 2);
  CHECK(alpha.out.find("--alpha: expected 2 comma-separated entries") != std::string::npos);
  auto mc = lgc::test::run_lgcheck("average " + lgc::test::case_path("average/farey_hat_n4_uniform.json").string() +
                                   " --length 30 --method both --samples 500 --json");
  REQUIRE(mc.exit_code == 0);
  auto m = nlohmann::json::parse(mc.out);
  CHECK(m["estimate"]["kind"] == "Monte Carlo estimate (not a verdict)");
}

TEST_CASE("lgcheck gen regularity writes the counterexample for any switch length", "[theorem42][cli]") {
  auto out = lgc::test::run_lgcheck("gen regularity --switch 123456789 --vocab 4 --short 3 --eta 1/5");
  REQUIRE(out.exit_code == 0);
  lgc::Case c = lgc::parse_case(nlohmann::json::parse(out.out), "<gen>");
  REQUIRE(lgc::is_regularity_case(c));
  lgc::SwitchingDistribution d = lgc::case_switching_distribution(c);
  CHECK(d.switch_length == 123456789);
  CHECK(d.at(123456789).alpha == lgc::QVector{Rational(1), Rational(1), Rational(1), Rational(0)});
  CHECK(d.at(123456790).alpha == lgc::QVector{Rational(0), Rational(0), Rational(0), Rational(1)});
  // Small enough to check: the claim is PROVED with its own switch, REFUTED one step later.
  auto small = lgc::test::run_lgcheck("gen regularity --switch 20 --vocab 3 --short 1 --eta 1/5");
  lgc::Case s = lgc::parse_case(nlohmann::json::parse(small.out), "<gen>");
  lgc::RegularityParams p = lgc::regularity_params(s);
  CHECK(lgc::check_regularity(s, p).verdict == lgc::Verdict::Proved);
  p.claimed_switch = 19;
  CHECK(lgc::check_regularity(s, p).verdict == lgc::Verdict::Refuted);
}

TEST_CASE("T4.2.avg whose exponent 2 + 2/alpha_min cannot be rounded exactly ends UNDECIDED, and the run goes on",
          "[theorem42][cli]") {
  // alpha = (1003/1001, 2): the exponent 2 + 2·1001/1003 = 4008/1003 is beyond exact rounding (denominator > 1000).
  const auto file =
      std::filesystem::temp_directory_path() / ("lgcheck_t42_beyond_" + std::to_string(::getpid()) + ".json");
  {
    nlohmann::json c = nlohmann::json::parse(std::ifstream(lgc::test::case_path("average/absence_uniform.json")));
    c["check"]["dirichlet_alpha"] = {"1003/1001", "2"};
    c["name"] = "t42_beyond";
    c.erase("expect");
    std::ofstream(file) << c.dump();
  }
  auto r = lgc::test::run_lgcheck("check " + file.string() + " " +
                                  lgc::test::case_path("average/absence_uniform.json").string() +
                                  " --claims T4.2.avg --quiet");
  INFO(r.out);
  CHECK(r.exit_code == 3);
  CHECK(r.out.find("beyond exact computation") != std::string::npos);
  CHECK(r.out.find("2 claims: 0 PROVED, 1 SAMPLED, 0 VACUOUS, 0 REFUTED, 1 UNDECIDED") != std::string::npos);
  std::filesystem::remove(file);
}
