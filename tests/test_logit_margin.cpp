#include "claims/agreement.hpp"
#include "lgcheck/enumerate/statistic.hpp"
#include "lgcheck/enumerate/strings.hpp"
#include "lgcheck/quantities/logit_margin.hpp"
#include "lgcheck/semantics/finite_precision.hpp"
#include "lgcheck/semantics/one_layer.hpp"
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

TEST_CASE("Value-aware margin: ModPTask's equals gamma, the counter-family's is 1 - gamma, a one-value head's is inf",
          "[margin]") {
  for (const Rational& margin : {Rational(1), Rational(1, 2)}) {
    const lgc::Model m = lgc::modp_task(2, lgc::Semantics::finite(4), margin);
    CHECK(*lgc::value_margin(m).gamma == *lgc::logit_margin(m).gamma);
  }
  // Logits 1, 1 − γ, 0 on the keys 1, 2, 0; 1 and 2 carry one value: the gap 1 − γ to the key 0 is the least that
  // matters.
  const lgc::Model counter = lgc::margin_counter(Rational(1, 8), lgc::Semantics::finite(4));
  CHECK(*lgc::logit_margin(counter).gamma == Rational(1, 8));
  const lgc::LogitMargin v = lgc::value_margin(counter);
  REQUIRE(v.gamma);
  CHECK(*v.gamma == Rational(7, 8));
  CHECK(v.witness->lower == 0);
  CHECK(v.witness->upper == Rational(7, 8));
  // Every key of one value: no gap matters.
  lgc::Model flat = counter;
  flat.layers[0].heads[0].value(4, 0) = 1;
  CHECK_FALSE(lgc::value_margin(flat).gamma.has_value());
  CHECK(lgc::logit_margin(flat).gamma.has_value());
  // A top level of two values (keys 1 and 2 at logit 1, outputs 1 and 0) matters against the next level down even
  // when that level (key 0 at logit 1/2) carries one of them.
  lgc::Model mixed_top = lgc::margin_counter(Rational(1, 2), lgc::Semantics::finite(4));
  auto& head = mixed_top.layers[0].heads[0];
  head.qk(2, 3) = 1;
  head.qk(0, 3) = Rational(1, 2);
  head.value(4, 2) = 0;
  head.value(4, 0) = 1;
  CHECK(*lgc::value_margin(mixed_top).gamma == Rational(1, 2));
  CHECK_THROWS_AS(lgc::margin_counter(Rational(3, 4), lgc::Semantics::finite(4)), std::invalid_argument);
}

namespace {

/// Over the statistics of length T, the last representations under finite:p and hardmax: how many certainly
/// differ, and how many the enclosures cannot separate (a surviving weight i^{−δ} with δ not an integer is an
/// enclosure, so an equal output is not certified equal).
struct Disagreements {
  std::size_t different = 0, unknown = 0;
};

Disagreements disagreements(const lgc::OneLayerEvaluator& m, unsigned p, std::uint64_t T) {
  Disagreements d;
  lgc::for_each_statistic(m.shape(), T, [&](const lgc::Statistic& s) {
    const lgc::QVector exact = m.representation(s);
    const lgc::Agreement a =
        lgc::agreement(lgc::Vector<lgc::Number>(exact.begin(), exact.end()), m.representation_finite(s, p));
    d.different += a == lgc::Agreement::Different;
    d.unknown += a == lgc::Agreement::Unknown;
    return true;
  });
  return d;
}

}  // namespace

TEST_CASE("finite:p equals hardmax from ceil(2^(p/gamma_V)) on (random tied models), and the counter-family's first "
          "such length is exactly that", "[margin]") {
  std::mt19937_64 rng(lgc::test::test_seed() + 3);
  INFO("seed " << lgc::test::test_seed() + 3);
  std::size_t sharper = 0;
  for (int rep = 0; rep < 150; ++rep) {
    lgc::Model m = lgc::test::random_one_layer_model(rng, 3, 1 + rng() % 2, rng() % 2, 1 + rng() % 2, rep % 2 == 0);
    auto bit = [&] { return Rational(static_cast<long>(rng() % 2)); };
    for (std::size_t s = 0; s < 3; ++s)
      for (std::size_t k = 0; k < m.width; ++k) m.embedding(s, k) = bit();
    // Integer logits (so exact finite:p weights), with positional rows and φ that move window and residue keys.
    auto unit = [&] { return Rational(static_cast<long>(rng() % 3) - 1); };
    for (std::size_t r = 0; r < m.period; ++r)
      for (std::size_t k = 0; k < m.width; ++k) m.positional(r, k) = unit();
    for (auto& head : m.layers[0].heads) {
      for (auto& phi : head.phi) phi = unit();
      for (std::size_t i = 0; i < m.width; ++i)
        for (std::size_t j = 0; j < m.width; ++j) head.qk(i, j) = Rational(static_cast<long>(rng() % 3) - 1);
      if (rng() % 2 == 0)  // values read the first coordinate only: keys sharing it share their value
        for (std::size_t i = 0; i < m.width; ++i)
          for (std::size_t j = 1; j < m.width; ++j) head.value(i, j) = 0;
    }
    const unsigned p = 1 + static_cast<unsigned>(rng() % 3);
    m.semantics = lgc::Semantics::finite(p);
    const lgc::LogitMargin gamma = lgc::logit_margin(m), gamma_v = lgc::value_margin(m);
    if (!gamma.gamma) continue;
    REQUIRE((!gamma_v.gamma || *gamma_v.gamma >= *gamma.gamma));
    const std::uint64_t t = gamma_v.gamma ? lgc::hardmax_threshold(p, *gamma_v.gamma).convert_to<std::uint64_t>() : 1;
    if (t > 24) continue;
    if (!gamma_v.gamma || *gamma_v.gamma > *gamma.gamma) ++sharper;
    const lgc::OneLayerEvaluator e(m);
    for (std::uint64_t T = std::max<std::uint64_t>(t, 1); T <= t + 2; ++T) {
      INFO("rep " << rep << ", T " << T << ", t_V " << t);
      const Disagreements d = disagreements(e, p, T);  // integer logit gaps: every weight exact
      REQUIRE(d.different == 0);
      REQUIRE(d.unknown == 0);
    }
  }
  CHECK(sharper >= 5);  // not vacuous: on these the value-aware threshold is below ceil(2^(p/gamma))
  // The counter-family: at ceil(2^(p/(1 − γ))) − 1 the key 0 survives beside a top key 2, so the first length from
  // which finite:p equals hardmax is exactly ceil(2^(p/(1 − γ))), far below ceil(2^(p/γ)).
  for (unsigned p : {2u, 3u})
    for (const Rational& g : {Rational(1, 4), Rational(1, 8)}) {
      const lgc::Model m = lgc::margin_counter(g, lgc::Semantics::finite(p));
      const lgc::OneLayerEvaluator e(m);
      const std::uint64_t t = lgc::hardmax_threshold(p, 1 - g).convert_to<std::uint64_t>();
      INFO("p " << p << ", gamma " << g << ", t_V " << t);
      CHECK(disagreements(e, p, t - 1).different > 0);
      // From t on the key 0 is rounded away and the survivors 1, 2 carry one value: equal, though the weights
      // i^{−γ} are enclosures, so no statistic is certainly different (none is certified equal either).
      for (std::uint64_t T = t; T <= t + 2; ++T) CHECK(disagreements(e, p, T).different == 0);
      CHECK(lgc::hardmax_threshold(p, g) > 8 * lgc::Integer(t));
    }
}

TEST_CASE("The margin witness family: margin exactly gamma, f = g below ceil(2^(p/gamma)), eta apart there",
          "[margin][witness]") {
  const Rational eta(1, 4);
  struct Member {
    Rational gamma;
    unsigned p;
    std::uint64_t N;
  };
  for (const Member& member : {Member{Rational(1, 2), 2, 16}, Member{Rational(1, 3), 2, 64}, Member{Rational(1), 3, 8},
                               Member{Rational(3, 4), 3, 16}, Member{Rational(2, 5), 1, 6}}) {
    INFO("gamma " << member.gamma << ", p " << member.p);
    const lgc::MarginWitness w = lgc::margin_witness(member.gamma, member.p, eta);
    REQUIRE(w.length == member.N);  // ceil(2^(p/gamma)), by hand (2^2.5 = 5.66 for the last)
    for (const lgc::Model* m : {&w.f, &w.g}) {
      CHECK(lgc::logit_margin(*m).gamma == member.gamma);
      CHECK(lgc::value_margin(*m).gamma == member.gamma);  // the query's key and the others carry both values
    }
    const lgc::OneLayerEvaluator f(w.f), g(w.g);
    // Below N every statistic gives f = g exactly, and h1 − h2 stays below the proof's (T−1)²/(T(2T−1)) < 1/2
    // (attained exactly at gamma = 1, where every weight is the rational 1/T).
    Rational widest = 0;
    for (std::uint64_t T = 1; T < member.N; ++T)
      lgc::for_each_statistic(f.shape(), T, [&](const lgc::Statistic& s) {
        const lgc::Vector<lgc::Number> y = f.representation_finite(s, member.p);
        const lgc::Number h = y[2] - y[3];
        const Rational bound(static_cast<long>((T - 1) * (T - 1)), static_cast<long>(T * (2 * T - 1)));
        REQUIRE(lgc::upper_of(h) <= bound);
        widest = std::max(widest, lgc::lower_of(h));
        const auto fx = f.evaluate_finite(s, member.p), gx = g.evaluate_finite(s, member.p);
        REQUIRE(fx[0].is_exact());
        REQUIRE(gx[0].is_exact());
        REQUIRE(fx[0].exact() == gx[0].exact());
        return true;
      });
    CHECK(widest > 0);  // the bound is met by positive values, not only by the ReLU's 0
    // At N the zeros' weights N^(−gamma) <= 2^(−p) round to 0: on 0^(N−1) 1 the marked head reads 1, g − f = eta.
    lgc::Tokens x(member.N, 0);
    x.back() = 1;
    const lgc::Statistic at = lgc::statistic_of(f.shape(), x);
    const lgc::Vector<lgc::Number> y = f.representation_finite(at, member.p);
    REQUIRE(y[2].is_exact());
    CHECK(y[2].exact() == 1);
    const auto diff = g.evaluate_finite(at, member.p)[0] - f.evaluate_finite(at, member.p)[0];
    REQUIRE(diff.is_exact());
    CHECK(diff.exact() == eta);
    // One position earlier the zeros survive: the marked head reads less than 1.
    x.pop_back();
    x.back() = 1;
    CHECK(lgc::upper_of(f.representation_finite(lgc::statistic_of(f.shape(), x), member.p)[2]) < 1);
  }
  CHECK_THROWS_AS(lgc::margin_witness(Rational(3, 2), 4, eta), std::invalid_argument);  // gamma > 1
  CHECK_THROWS_AS(lgc::margin_witness(Rational(1), 1, eta), std::invalid_argument);     // N = 2 < 3
  CHECK_THROWS_AS(lgc::margin_witness(Rational(1, 2), 2, Rational(0)), std::invalid_argument);
}
