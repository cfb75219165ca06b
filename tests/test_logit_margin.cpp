#include "lgcheck/enumerate/strings.hpp"
#include "lgcheck/quantities/logit_margin.hpp"
#include "lgcheck/tasks/paper_tasks.hpp"

#include "support.hpp"

#include <set>

using lgc::Rational;

TEST_CASE("Logit margin of ModPTask is 1 and of SimpleTask is infinite", "[margin]") {
  for (std::size_t p : {2u, 3u, 5u, 7u}) {
    lgc::LogitMargin m = lgc::logit_margin(lgc::modp_task(p, lgc::Semantics::hardmax()));
    REQUIRE(m.gamma.has_value());
    CHECK(*m.gamma == 1);
    CHECK(m.witness->upper - m.witness->lower == 1);
  }
  CHECK_FALSE(lgc::logit_margin(lgc::simple_task(Rational(2), lgc::SimpleReadout::Sin)).gamma.has_value());
}

TEST_CASE("Attainable logits equal the logits met on all strings (random models)", "[margin]") {
  std::mt19937_64 rng(lgc::test::test_seed());
  INFO("seed " << lgc::test::test_seed());
  for (int rep = 0; rep < 5; ++rep) {
    lgc::Model m = lgc::modp_task(3, lgc::Semantics::hardmax());
    m.locality = 2;
    auto& head = m.layers[0].heads[0];
    head.phi = {lgc::test::random_rational(rng, 5), lgc::test::random_rational(rng, 5), lgc::test::random_rational(rng, 5)};
    for (std::size_t r = 0; r < 5; ++r)
      for (std::size_t c = 0; c < 5; ++c) head.qk(r, c) = lgc::test::random_rational(rng, 3);
    // Collect, per (query token, residue), the logits of every key on every string of length <= 8.
    std::map<std::pair<int, std::size_t>, std::set<Rational>> seen;
    lgc::for_each_string(2, 8, [&](const lgc::Tokens& x) {
      for (std::size_t i = 1; i <= x.size(); ++i) {
        auto yi = lgc::initial_embedding(m, x[i - 1], i);
        auto q = lgc::apply<Rational>(head.qk, yi);
        for (std::size_t j = 1; j <= i; ++j) {
          Rational a = lgc::dot<Rational>(lgc::initial_embedding(m, x[j - 1], j), q);
          if (i - j <= m.locality) a += head.phi[i - j];
          seen[{x[i - 1], i % 3}].insert(a);
        }
      }
      return true;
    });
    for (int y = 0; y < 2; ++y)
      for (std::size_t r = 0; r < 3; ++r) {
        auto attainable = lgc::attainable_logits(m, 0, y, r);
        const auto& met = seen[{y, r}];
        INFO("rep " << rep << ", token " << y << ", residue " << r);
        CHECK(std::vector<Rational>(met.begin(), met.end()) == attainable);
      }
  }
}
