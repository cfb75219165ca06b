// The bundled paper-task cases are exactly what the generators build, so
// regenerating them (scripts/generate-cases.sh) changes nothing.
#include "lgcheck/tasks/average_tasks.hpp"
#include "lgcheck/tasks/paper_tasks.hpp"

#include "support.hpp"

using lgc::Rational;

TEST_CASE("Bundled ModPTask cases equal the generator's models", "[cases]") {
  for (std::size_t p : {2u, 3u, 5u, 7u}) {
    INFO("p = " << p);
    CHECK(lgc::test::bundled("paper/modp/modp_p" + std::to_string(p) + "_hardmax.json").model() ==
          lgc::modp_task(p, lgc::Semantics::hardmax()));
    CHECK(lgc::test::bundled("paper/modp/modp_p" + std::to_string(p) + "_finite8.json").model() ==
          lgc::modp_task(p, lgc::Semantics::finite(8)));
  }
}

TEST_CASE("Bundled SimpleTask cases equal the generator's models", "[cases]") {
  for (int w : {1, 2, 4, 8}) {
    INFO("omega = " << w);
    std::string stem = "paper/simple/simple_w" + std::to_string(w);
    CHECK(lgc::test::bundled(stem + "_sin.json").model() == lgc::simple_task(Rational(w), lgc::SimpleReadout::Sin));
    CHECK(lgc::test::bundled(stem + "_relu.json").model() == lgc::simple_task(Rational(w), lgc::SimpleReadout::ReluMlp));
  }
}

TEST_CASE("The bundled induction head is the hand-built one", "[cases]") {
  CHECK(lgc::test::bundled("paper/induction/induction_head_k1.json").model() ==
        lgc::induction_head(Rational(2), Rational(4)));
}

TEST_CASE("Bundled Theorem 4.2 pairs are the builders' pairs", "[cases]") {
  lgc::FareyHat w = lgc::farey_hat(4, 1);
  for (const char* file : {"average/farey_hat_n4_uniform.json", "average/farey_hat_n4_skewed.json"}) {
    lgc::Case c = lgc::test::bundled(file);
    CHECK(c.models[0] == w.f);
    CHECK(c.models[1] == w.g);
  }
  lgc::PresencePair p = lgc::presence_pair(2, {false, true}, 1);
  CHECK(lgc::test::bundled("average/presence_skewed.json").models[1] == p.g);
  CHECK(lgc::test::bundled("average/regularity_k64.json").models[1] == p.g);
  lgc::PresencePair q = lgc::presence_pair(3, {false, false, true}, Rational(1, 3));
  CHECK(lgc::test::bundled("average/regularity_k500_s3.json").models[1] == q.g);
}

TEST_CASE("Every bundled case loads and has a description", "[cases]") {
  std::size_t count = 0;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(lgc::test::source_dir() / "cases")) {
    if (entry.path().extension() != ".json") continue;
    INFO(entry.path());
    lgc::Case c = lgc::load_case(entry.path());
    CHECK_FALSE((c.is_pair ? c.description : c.model().description).empty());
    ++count;
  }
  CHECK(count >= 17);
}
