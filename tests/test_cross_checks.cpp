// Independent cross-checks on random models (seeded; the seed is printed):
// finite:p against hardmax above the threshold, the exact rational path
// against the interval path, and softmax enclosures against four times the
// precision.
#include "lgcheck/enumerate/strings.hpp"
#include "lgcheck/quantities/logit_margin.hpp"
#include "lgcheck/semantics/finite_precision.hpp"
#include "lgcheck/semantics/forward.hpp"

#include "support.hpp"

using lgc::Number;
using lgc::Rational;

namespace {

lgc::QMatrix random_matrix(std::mt19937_64& rng, std::size_t rows, std::size_t cols, long max) {
  lgc::QMatrix m(rows, cols);
  for (std::size_t r = 0; r < rows; ++r)
    for (std::size_t c = 0; c < cols; ++c) m(r, c) = rng() % 3 == 0 ? Rational(0) : lgc::test::random_rational(rng, max);
  return m;
}

/// A random model: S = 2, width 3, the given layers, period and locality.
lgc::Model random_model(std::mt19937_64& rng, std::size_t layers, std::size_t period, std::size_t tau, bool mlp, bool sine) {
  lgc::Model m;
  m.name = "random";
  m.alphabet = {"a", "b"};
  m.width = 3;
  m.period = period;
  m.locality = tau;
  m.embedding = random_matrix(rng, 2, 3, 2);
  m.positional = random_matrix(rng, period, 3, 2);
  for (std::size_t l = 0; l < layers; ++l) {
    lgc::Layer layer;
    lgc::Head head{random_matrix(rng, 3, 3, 2), random_matrix(rng, 3, 3, 2), {}};
    for (std::size_t t = 0; t <= tau; ++t) head.phi.push_back(lgc::test::random_rational(rng, 3));
    layer.heads.push_back(head);
    if (mlp) layer.mlp = lgc::Mlp{random_matrix(rng, 2, 3, 2), {Rational(1, 3), Rational(-1, 2)}, random_matrix(rng, 3, 2, 2),
                                  {Rational(0), Rational(1), Rational(0)}};
    m.layers.push_back(layer);
  }
  m.readout = {random_matrix(rng, 1, 3, 2), {Rational(1, 7)}, sine ? std::optional<Rational>(Rational(3, 2)) : std::nullopt};
  return m;
}

}  // namespace

TEST_CASE("Cross-check: finite:p equals hardmax above the threshold on random models", "[cross-check]") {
  std::mt19937_64 rng(lgc::test::test_seed() + 31);
  INFO("seed " << lgc::test::test_seed() + 31);
  int checked = 0;
  for (int rep = 0; rep < 12; ++rep) {
    lgc::Model m = random_model(rng, 1, 2, 1, rep % 2 == 0, false);
    lgc::LogitMargin lm = lgc::logit_margin(m);
    const unsigned p = 2;
    lgc::Integer t = lm.gamma ? lgc::hardmax_threshold(p, *lm.gamma) : lgc::Integer(1);
    if (t > 40) continue;  // keep the strings short
    auto threshold = static_cast<std::size_t>(t);
    for (int k = 0; k < 5; ++k) {
      lgc::Tokens x = lgc::random_string(2, threshold + 8, rng);
      std::vector<std::size_t> queries;
      for (std::size_t i = threshold; i <= x.size(); ++i) queries.push_back(i);
      auto hard = lgc::evaluate_at(m, x, lgc::ForwardOptions{lgc::Semantics::hardmax()}, queries);
      auto fin = lgc::evaluate_at(m, x, lgc::ForwardOptions{lgc::Semantics::finite(p)}, queries);
      INFO("rep " << rep << " x = " << lgc::format_input(m, x) << " threshold " << threshold);
      for (std::size_t q = 0; q < queries.size(); ++q) CHECK(hard[q][0] == fin[q][0]);
      ++checked;
    }
  }
  CHECK(checked > 10);
}

TEST_CASE("Cross-check: the MLP and readout on exact inputs lie in their interval evaluation", "[cross-check]") {
  std::mt19937_64 rng(lgc::test::test_seed() + 32);
  INFO("seed " << lgc::test::test_seed() + 32);
  for (int rep = 0; rep < 50; ++rep) {
    lgc::Model m = random_model(rng, 1, 1, 0, true, rep % 2 == 1);
    lgc::Vector<Number> exact, enclosed;
    for (int k = 0; k < 3; ++k) {
      Rational v = lgc::test::random_rational(rng, 50);
      exact.push_back(Number(v));
      enclosed.push_back(Number(lgc::Interval(v, 64)));
    }
    lgc::Output a = lgc::apply_readout(m, lgc::apply_mlp(*m.layers[0].mlp, exact), 256);
    lgc::Output b = lgc::apply_readout(m, lgc::apply_mlp(*m.layers[0].mlp, enclosed), 64);
    INFO("rep " << rep);
    CHECK(b[0].enclosure().contains(a[0].enclosure(256)));
  }
}

TEST_CASE("Cross-check: softmax enclosures contain a recomputation at four times the precision", "[cross-check]") {
  std::mt19937_64 rng(lgc::test::test_seed() + 33);
  INFO("seed " << lgc::test::test_seed() + 33);
  for (int rep = 0; rep < 6; ++rep) {
    lgc::Model m = random_model(rng, 2, 2, 1, rep % 2 == 0, rep % 3 == 0);
    lgc::Tokens x = lgc::random_string(2, 12, rng);
    auto low = lgc::evaluate(m, x, lgc::ForwardOptions{lgc::Semantics::softmax(), 64});
    auto high = lgc::evaluate(m, x, lgc::ForwardOptions{lgc::Semantics::softmax(), 256});
    INFO("rep " << rep << " x = " << lgc::format_input(m, x));
    CHECK(low[0].enclosure().contains(high[0].enclosure()));
  }
}
