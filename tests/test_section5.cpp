// Section 5 (softmax, ln i scaling): positional margin and regimes, the
// first layer from prefix class counts against the forward pass, and the
// limit map on hand-computed cases, one per regime.
#include "lgcheck/enumerate/strings.hpp"
#include "lgcheck/quantities/first_layer_constants.hpp"
#include "lgcheck/quantities/histograms.hpp"
#include "lgcheck/quantities/layer2_integrands.hpp"
#include "lgcheck/quantities/simulation_bound.hpp"
#include "lgcheck/simulate/subsample.hpp"
#include "lgcheck/quantities/positional_margin.hpp"
#include "lgcheck/semantics/forward.hpp"
#include "lgcheck/semantics/one_layer.hpp"
#include "lgcheck/semantics/softmax_layer1.hpp"
#include "lgcheck/semantics/softmax_linear.hpp"
#include "lgcheck/tasks/kgram.hpp"
#include "lgcheck/tasks/section5_tasks.hpp"
#include "claims/section5/section5.hpp"

#include "lgcheck/kernel/section5.hpp"

#include "support.hpp"

#include <nlohmann/json.hpp>

using lgc::Interval;
using lgc::Rational;

TEST_CASE("Positional margin: regimes, P_h and gamma, with the bulk's element 1", "[section5]") {
  auto token = lgc::positional_margin(lgc::regime_model(Rational(1, 2), 2));
  REQUIRE(token.heads.size() == 1);
  CHECK(token.heads[0].regime == lgc::Regime::TokenDominant);
  CHECK(token.heads[0].P == std::vector<Rational>{1, Rational(1, 2), 0});
  CHECK(*token.gamma == Rational(1, 2));
  auto balanced = lgc::positional_margin(lgc::regime_model(1, 2));
  CHECK(balanced.heads[0].regime == lgc::Regime::Balanced);
  CHECK(*balanced.gamma == 1);
  auto position = lgc::positional_margin(lgc::regime_model(Rational(3, 2), 2));
  CHECK(position.heads[0].regime == lgc::Regime::PositionDominant);
  CHECK(*position.gamma == Rational(1, 2));
  // Without the bulk's 1 the margin would be 3/2: the mutation the suite catches.
  CHECK(*lgc::positional_margin(lgc::regime_model(Rational(3, 2), 2), false).gamma == Rational(3, 2));
  // All of P_h equal to 1: no second element, gamma = +inf.
  lgc::Model flat = lgc::regime_model(1, 2);
  flat.layers[0].heads[0].phi = {1, 1};
  CHECK_FALSE(lgc::positional_margin(flat).gamma.has_value());
  CHECK(lgc::convergence_constant(flat).rate == 1);
}

namespace {

lgc::Model random_two_layer(std::mt19937_64& rng, std::size_t S, std::size_t D, std::size_t tau, bool mlp) {
  lgc::Model m = lgc::test::random_one_layer_model(rng, S, D, tau, 2, mlp);
  lgc::Model second = lgc::test::random_one_layer_model(rng, S, D, tau, 1, false);
  m.layers.push_back(second.layers[0]);
  m.semantics = lgc::Semantics::softmax();
  return m;
}

bool contains(const lgc::Number& outer, const lgc::Number& inner) {
  return outer.enclosure().contains(inner.enclosure());
}

}  // namespace

TEST_CASE("First layer from class counts contains the forward pass at four times the precision", "[section5][cross-check]") {
  std::mt19937_64 rng(lgc::test::test_seed() + 51);
  INFO("seed " << lgc::test::test_seed() + 51);
  for (int rep = 0; rep < 6; ++rep) {
    lgc::Model m = random_two_layer(rng, 2 + rep % 2, 1 + rep % 3, rep % 3, rep % 2 == 0);
    lgc::Model first = m;
    first.layers.resize(1);
    lgc::SoftmaxFirstLayer layer(m, 128);
    lgc::Tokens x = lgc::random_string(m.alphabet_size(), 14, rng);
    std::vector<std::size_t> all;
    for (std::size_t i = 1; i <= x.size(); ++i) all.push_back(i);
    lgc::ForwardOptions precise{lgc::Semantics::softmax(), 512};
    auto reference = lgc::representation_at(first, x, precise, all);
    layer.for_each_position(x, [&](const lgc::SoftmaxFirstLayer::Point& p) {
      auto y = layer.layer_output(p);
      for (std::size_t k = 0; k < y.size(); ++k) {
        INFO("rep " << rep << " i=" << p.i << " k=" << k);
        CHECK(contains(y[k], reference[p.i - 1][k]));
        CHECK(y[k].enclosure().width() < Rational(1, 1000000));
      }
    });
    // The whole model: 128-bit enclosures contain the 512-bit ones.
    lgc::ForwardOptions coarse{lgc::Semantics::softmax(), 128};
    auto a = lgc::evaluate(m, x, coarse), b = lgc::evaluate(m, x, precise);
    for (std::size_t k = 0; k < a.size(); ++k) CHECK(contains(a[k], b[k]));
  }
}

TEST_CASE("The limit map in each regime equals its hand-computed value", "[section5]") {
  const Interval e2 = exp(Interval(Rational(2), 256));
  auto out_slot = [](const lgc::Vector<lgc::Number>& y) { return y[3].enclosure(); };
  // Classes: 0 = token 0, 1 = token 1 (Δ = 1). Window (query, previous token).
  const std::vector<std::size_t> window{0, 1};
  const std::vector<Rational> mu{Rational(1, 3), Rational(2, 3)};
  // token-dominant: the bulk only, weights μ_c e^{ℓ}: (2/3 e²)/(1/3 + 2/3 e²)
  lgc::SoftmaxFirstLayer token(lgc::regime_model(Rational(1, 2), 2), 256);
  Interval want_token = Interval(Rational(2, 3), 256) * e2 / (Interval(Rational(1, 3), 256) + Interval(Rational(2, 3), 256) * e2);
  CHECK_FALSE(certainly_different(out_slot(token.limit_layer(window, mu)), want_token));
  CHECK(out_slot(token.limit_layer(window, mu)).width() < Rational(1, 1000000000));
  CHECK(certainly_different(out_slot(token.limit_layer(window, mu)), Interval(Rational(2, 3), 256)));
  // balanced: the bulk and the slot φ = 1 (token 1, weight e²): (2/3 e² + e²)/(1/3 + 2/3 e² + e²)
  lgc::SoftmaxFirstLayer balanced(lgc::regime_model(1, 2), 256);
  Interval num = Interval(Rational(5, 3), 256) * e2;
  Interval want_balanced = num / (Interval(Rational(1, 3), 256) + num);
  CHECK_FALSE(certainly_different(out_slot(balanced.limit_layer(window, mu)), want_balanced));
  CHECK(out_slot(balanced.limit_layer(window, mu)).width() < Rational(1, 1000000000));
  CHECK(certainly_different(out_slot(balanced.limit_layer(window, mu)), want_token));
  // position-dominant: only the slot with φ = 3/2, the previous token (1)
  lgc::SoftmaxFirstLayer position(lgc::regime_model(Rational(3, 2), 2), 256);
  CHECK(out_slot(position.limit_layer(window, mu)).contains(Rational(1)));
  CHECK(out_slot(position.limit_layer({0, 0}, mu)).contains(Rational(0)));
  // and the layer's output approaches it: at i = 10^5 within K i^{-1/2}
  lgc::Tokens x(100000, 1);
  x[99998] = 1;
  x[99999] = 0;
  lgc::ConvergenceConstant k = lgc::convergence_constant(position.model());
  position.for_each_position(x, [&](const lgc::SoftmaxFirstLayer::Point& p) {
    if (p.i != x.size()) return;
    lgc::Number y = position.layer_output(p)[3];
    // the bulk (all 1) and the previous token (1) agree: Y -> 1 from below, and so does Phi
    CHECK(lgc::upper_of(y) <= 1);
    CHECK(lgc::lower_of(y) >= 1 - k.K * Rational(1, 316));
  });
}

TEST_CASE("The kernel's limit map: the hand values of each regime, and the search's limit map on bundled cases",
          "[section5][kernel][cross-check]") {
  namespace k = lgc::kernel;
  const Interval e2 = exp(Interval(Rational(2), 256));
  const std::vector<std::size_t> window{0, 1};
  const std::vector<Rational> mu{Rational(1, 3), Rational(2, 3)};
  auto slot = [&](const lgc::Model& m, const std::vector<std::size_t>& w) { return k::limit_map(m, w, mu, 256)[3]; };
  // The same hand values as above, by the kernel's own limit map.
  const lgc::Number token = slot(lgc::regime_model(Rational(1, 2), 2), window);
  const Interval want_token =
      Interval(Rational(2, 3), 256) * e2 / (Interval(Rational(1, 3), 256) + Interval(Rational(2, 3), 256) * e2);
  CHECK_FALSE(certainly_different(token.enclosure(), want_token));
  CHECK(token.enclosure().width() < Rational(1, 1000000000));
  const Interval num = Interval(Rational(5, 3), 256) * e2;
  const lgc::Number balanced = slot(lgc::regime_model(1, 2), window);
  CHECK_FALSE(certainly_different(balanced.enclosure(), num / (Interval(Rational(1, 3), 256) + num)));
  CHECK(certainly_different(balanced.enclosure(), want_token));
  CHECK(lgc::lower_of(slot(lgc::regime_model(Rational(3, 2), 2), window)) == 1);
  CHECK(lgc::upper_of(slot(lgc::regime_model(Rational(3, 2), 2), {0, 0})) == 0);
  // Random windows and histograms on every bundled two-layer case: the two enclosures meet.
  std::mt19937_64 rng(7);
  std::size_t compared = 0;
  for (const char* file : {"section5/regime_token.json", "section5/regime_balanced.json", "section5/regime_position.json",
                           "section5/attention_pair_window_balanced.json", "paper/induction/induction_head_k1.json"}) {
    const lgc::Case c = lgc::test::bundled(file);
    for (const lgc::Model& m : c.models) {
      lgc::SoftmaxFirstLayer layer(m);
      const std::size_t K = layer.shape().classes();
      for (int trial = 0; trial < 20; ++trial) {
        std::vector<std::size_t> w(m.locality + 1);
        for (auto& t : w) t = rng() % K;
        std::vector<Rational> h(K);
        lgc::Integer total = 0;
        std::vector<lgc::Integer> raw(K);
        for (auto& r : raw) total += (r = lgc::Integer(static_cast<unsigned long>(rng() % 5)));
        if (total == 0) raw[0] = total = 1;
        for (std::size_t cl = 0; cl < K; ++cl) h[cl] = Rational(raw[cl], total);
        const auto a = layer.limit_layer(w, h), b = k::limit_map(m, w, h);
        REQUIRE(a.size() == b.size());
        for (std::size_t r = 0; r < a.size(); ++r) {
          INFO(file << " window " << w[0] << " coordinate " << r);
          CHECK(lgc::lower_of(a[r]) <= lgc::upper_of(b[r]));
          CHECK(lgc::lower_of(b[r]) <= lgc::upper_of(a[r]));
          ++compared;
        }
      }
    }
  }
  CHECK(compared > 500);
}

TEST_CASE("The paper's histogram mu(x<=i) and the class histogram's token marginal are within 2(tau+1)/i, "
          "tight, and Phi moves by at most Lip times that", "[section5][histogram]") {
  std::mt19937_64 rng(lgc::test::test_seed());
  // Random strings: every position with a bulk, for Δ = 1, 2, 3 and τ = 0, 1, 2 (classes s·Δ + r).
  for (std::size_t D = 1; D <= 3; ++D)
    for (std::size_t tau = 0; tau <= 2; ++tau) {
      lgc::Model m = lgc::test::random_one_layer_model(rng, 3, D, tau, 1, false);
      const lgc::SoftmaxFirstLayer layer(m);
      lgc::Tokens x(40);
      for (int& t : x) t = static_cast<int>(rng() % 3);
      layer.for_each_position(x, [&](const lgc::SoftmaxFirstLayer::Point& p) {
        if (p.i <= tau + 1) return;
        const auto paper = lgc::token_histogram(x, p.i, 3), marginal = lgc::token_marginal(p.histogram(), 3, D);
        INFO("D = " << D << ", tau = " << tau << ", i = " << p.i);
        CHECK(lgc::l1_distance(paper, marginal) <= lgc::histogram_gap_bound(tau, p.i));
      });
    }
  // Tight: bulk all token 0, window all token 1 gives exactly 2(τ+1)/i.
  const lgc::Model token = lgc::regime_model(Rational(1, 2), 2);  // Δ = 1, τ = 1
  const lgc::SoftmaxFirstLayer layer(token, 256);
  lgc::Tokens x(50, 0);
  x[48] = x[49] = 1;
  const lgc::LipschitzConstant lip = lgc::limit_map_lipschitz(token);
  std::size_t reached = 0;
  layer.for_each_position(x, [&](const lgc::SoftmaxFirstLayer::Point& p) {
    if (p.i != x.size()) return;
    const auto paper = lgc::token_histogram(x, p.i, 2), mu = p.histogram();
    CHECK(lgc::l1_distance(paper, mu) == lgc::histogram_gap_bound(1, p.i));
    CHECK(lgc::l1_distance(paper, mu) == Rational(4, 50));
    // With Δ = 1 both are histograms of the same classes: Φ moves by at most Lip·2(τ+1)/i between them.
    const auto a = layer.limit_layer(p.window, mu), b = layer.limit_layer(p.window, paper);
    for (std::size_t k = 0; k < a.size(); ++k)
      CHECK(lgc::lower_of(a[k] - b[k]) >= -lip.L * lgc::histogram_gap_bound(1, p.i));
    for (std::size_t k = 0; k < a.size(); ++k)
      CHECK(lgc::upper_of(a[k] - b[k]) <= lip.L * lgc::histogram_gap_bound(1, p.i));
    ++reached;
  });
  CHECK(reached == 1);
}

TEST_CASE("L5.conv and L5.lip hold on the bundled two-layer cases (exhaustive strings plus samples)", "[section5][claim]") {
  for (const char* file : {"section5/regime_token.json", "section5/regime_balanced.json", "section5/regime_position.json",
                           "paper/induction/induction_head_k1.json"}) {
    lgc::Case c = lgc::test::bundled(file);
    REQUIRE(lgc::is_softmax_model(c));
    lgc::ConvergenceParams cp = lgc::convergence_params(c);
    cp.random_inputs = 2;  // 10^3 and 10^4 here; the suite run goes to 10^5
    lgc::ClaimResult conv = lgc::check_convergence(c, cp);
    INFO(file << ": " << conv.detail);
    CHECK(conv.verdict == lgc::Verdict::Sampled);
    CHECK(conv.scope.exhaustive > 0);
    lgc::ClaimResult lip = lgc::check_lipschitz(c, lgc::lipschitz_params(c));
    INFO(lip.detail);
    CHECK(lip.verdict == lgc::Verdict::Sampled);
    CHECK(lip.scope.exhaustive > 0);
  }
}

TEST_CASE("lgcheck margin on a softmax model prints the positional margin and regimes", "[section5][cli]") {
  auto r = lgc::test::run_lgcheck("margin " + lgc::test::case_path("section5/regime_position.json").string() + " --json");
  REQUIRE(r.exit_code == 0);
  auto j = nlohmann::json::parse(r.out);
  CHECK(j["positional_margin"] == "1/2");
  CHECK(j["heads"][0]["regime"] == "position-dominant");
  CHECK(j["heads"][0]["P"] == nlohmann::json::array({"3/2", "1", "0"}));
}

TEST_CASE("Linear-time softmax evaluation agrees with the forward pass", "[section5][cross-check]") {
  std::mt19937_64 rng(lgc::test::test_seed() + 53);
  INFO("seed " << lgc::test::test_seed() + 53);
  lgc::ForwardOptions precise{lgc::Semantics::softmax(), 512};
  for (int rep = 0; rep < 8; ++rep) {
    lgc::Model m = random_two_layer(rng, 2 + rep % 2, 1 + rep % 2, rep % 3, rep % 2 == 1);
    if (rep == 3) m.layers[1].mlp = lgc::Mlp{lgc::QMatrix(2, 3, Rational(1, 2)), {Rational(0), Rational(-1)},
                                             lgc::QMatrix(3, 2, Rational(1)), {Rational(0), Rational(0), Rational(0)}};
    if (rep == 5) m.layers.resize(1);
    for (std::size_t T : {1u, 2u, 5u, 13u}) {
      lgc::Tokens x = lgc::random_string(m.alphabet_size(), T, rng);
      lgc::Output fast = lgc::softmax_evaluate_linear(m, x, 128);
      lgc::Output reference = lgc::evaluate(m, x, precise);
      for (std::size_t k = 0; k < fast.size(); ++k) {
        INFO("rep " << rep << " T=" << T << " k=" << k);
        CHECK(contains(fast[k], reference[k]));
        CHECK(fast[k].enclosure().width() < Rational(1, 1000000));
      }
    }
  }
}

namespace {

/// f*(x) straight from the definition (independent of the library's code).
std::vector<Rational> kgram_by_definition(std::size_t S, std::size_t k, const lgc::Tokens& x) {
  const std::size_t T = x.size();
  std::vector<Rational> counts(S, Rational(0));
  long matches = 0;
  for (std::size_t t = k + 1; t <= T; ++t) {
    lgc::Tokens before(x.begin() + static_cast<long>(t - 1 - k), x.begin() + static_cast<long>(t - 1));
    lgc::Tokens last(x.end() - static_cast<long>(k), x.end());
    if (before == last) {
      counts[static_cast<std::size_t>(x[t - 1])] += 1;
      ++matches;
    }
  }
  for (auto& c : counts) c = matches ? c / matches : Rational(1, static_cast<long>(S));
  return counts;
}

}  // namespace

TEST_CASE("k-gram target equals its definition on every string up to length 8", "[section5][kgram]") {
  for (std::size_t S : {2u, 3u})
    for (std::size_t k : {1u, 2u, 3u})
      for (std::size_t T = 1; T <= (S == 2 ? 8u : 6u); ++T)
        lgc::for_each_string(S, T, [&](const lgc::Tokens& x) {
          INFO("S=" << S << " k=" << k << " x of length " << T);
          lgc::QVector f = lgc::kgram_target(S, k, x);
          CHECK(std::vector<Rational>(f.begin(), f.end()) == kgram_by_definition(S, k, x));
          return true;
        });
  CHECK(lgc::kgram_match_fraction(1, {0, 1, 0, 1, 1}) == Rational(1, 2));  // last token 1: t = 3 and t = 5 of 2..5
}

TEST_CASE("k-gram parameters follow the rule and the construction reaches eps", "[section5][kgram]") {
  lgc::KgramParameters p = lgc::kgram_parameters(Rational(1, 2), Rational(1, 2), 1);
  CHECK(p.beta == Rational(45, 8));    // 2 ln 16 = 5.545 rounded up to eighths
  CHECK(p.lambda == Rational(71, 8));  // ln(40 · 45/8 · 2)/ln 2 = 8.81
  CHECK(p.min_length == 11);           // 1 + 5/(2 · 1/4)
  lgc::Case c = lgc::test::bundled("section5/kgram_k1_s2.json");
  REQUIRE(lgc::is_kgram_case(c));
  CHECK(c.model() == lgc::kgram_model(2, 1, p.beta, p.lambda));
  lgc::KgramParams params = lgc::kgram_params(c);
  params.random_inputs = 6;
  params.max_random_length = 1000;
  lgc::ClaimResult r = lgc::check_kgram(c, params);
  INFO(r.detail);
  CHECK(r.verdict == lgc::Verdict::Sampled);
  // beta = 0: the second layer averages every token, far from f*.
  c.models[0] = lgc::kgram_model(2, 1, 0, p.lambda);
  CHECK(lgc::check_kgram(c, params).verdict == lgc::Verdict::Refuted);
}

TEST_CASE("The Markov subsampler keeps about n positions in blocks, and the window", "[section5][subsample]") {
  CHECK(lgc::block_length(1000) == 10);
  CHECK(lgc::block_length(1001) == 11);
  CHECK(lgc::block_length(1) == 1);
  const std::uint64_t T = 100000, n = 1000;
  auto kept = lgc::markov_subsample(T, n, 2, 7);
  CHECK(kept == lgc::markov_subsample(T, n, 2, 7));  // the seed determines z
  CHECK(kept.size() > n / 2);
  CHECK(kept.size() < 2 * n);
  CHECK(kept[kept.size() - 1] == T);
  CHECK(kept[kept.size() - 3] == T - 2);  // the last τ + 1 = 3 positions
  std::size_t blocks = 1;
  for (std::size_t j = 1; j < kept.size(); ++j) blocks += kept[j] != kept[j - 1] + 1;
  CHECK(blocks * 4 < kept.size());  // mean block length about n^{1/3} = 10
  CHECK(lgc::markov_subsample(50, 50, 1, 1).size() == 50);
  CHECK_THROWS_AS(lgc::markov_subsample(10, 11, 1, 1), std::invalid_argument);
}

TEST_CASE("With a period the subsampler keeps whole residue-aligned chunks: every kept position keeps its residue",
          "[section5][subsample]") {
  for (std::size_t period : {2u, 3u})
    for (std::uint64_t T : {10000u, 10001u, 10002u})
      for (std::size_t tau : {0u, 1u, 3u})
        for (std::uint64_t seed : {1u, 2u}) {
          const auto kept = lgc::markov_subsample(T, 1000, tau, seed, period);
          INFO("period " << period << ", T = " << T << ", tau = " << tau << ", seed " << seed);
          CHECK(kept.size() % period == T % period);
          CHECK(kept.size() > 300);
          CHECK(kept.size() < 3000);
          bool residues = true, increasing = true;
          for (std::size_t j = 0; j < kept.size(); ++j) {
            residues = residues && kept[j] % period == (j + 1) % period;  // i_j ≡ j (mod Δ)
            increasing = increasing && (j == 0 || kept[j] > kept[j - 1]);
          }
          CHECK(residues);
          CHECK(increasing);
          REQUIRE(kept.size() > tau);
          for (std::size_t t = 0; t <= tau; ++t) CHECK(kept[kept.size() - 1 - t] == T - t);  // the window
        }
  // Edge cases: a target below T mod Δ (the chain then aims at one chunk) keeps the lead 1, 2 (10001 mod 3 = 2) and
  // the last chunk, in whole chunks; n = T keeps everything.
  const auto short_target = lgc::markov_subsample(10001, 1, 0, 1, 3);
  REQUIRE(short_target.size() >= 5);
  CHECK(short_target[0] == 1);
  CHECK(short_target[1] == 2);
  CHECK(short_target.back() == 10001);
  CHECK(short_target[short_target.size() - 3] == 9999);
  CHECK(short_target.size() % 3 == 2);
  CHECK(short_target.size() < 100);
  CHECK(lgc::markov_subsample(1001, 1001, 2, 5, 2).size() == 1001);
  // Period 1 is the position-wise chain itself.
  CHECK(lgc::markov_subsample(5000, 300, 1, 4, 1) == lgc::markov_subsample(5000, 300, 1, 4));
  CHECK(lgc::markov_subsample(7, 2, 0, 1, 8) == std::vector<std::uint64_t>{1, 2, 3, 4, 5, 6, 7});  // T < period
  CHECK_THROWS_AS(lgc::markov_subsample(10, 5, 0, 1, 0), std::invalid_argument);
}

TEST_CASE("Layer-2 integrands: G and L bound them, and z = x has no statistic error", "[section5][subsample]") {
  for (const char* file : {"paper/induction/induction_head_k1.json", "section5/regime_token.json"}) {
    lgc::Case c = lgc::test::bundled(file);
    lgc::SoftmaxFirstLayer layer(c.model());
    std::mt19937_64 rng(lgc::test::test_seed() + 71);
    lgc::Tokens x = lgc::random_string(2, 500, rng);
    lgc::StatisticAverages stats(layer, x);
    CHECK(stats.error(x).enclosure().contains(Rational(0)));
    lgc::Layer2Integrands p(layer, lgc::query_limit(layer, x));
    const lgc::IntegrandBounds b = stats.bounds();
    const std::size_t K = layer.shape().classes();
    for (int rep = 0; rep < 50; ++rep) {
      std::vector<std::size_t> window(c.model().locality + 1);
      for (auto& w : window) w = rng() % K;
      std::vector<Rational> mu(K), nu(K);
      Rational total = 0, total2 = 0;
      for (std::size_t k = 0; k < K; ++k) mu[k] = 1 + rng() % 9, nu[k] = 1 + rng() % 9, total += mu[k], total2 += nu[k];
      Rational dist = 0;
      for (std::size_t k = 0; k < K; ++k) mu[k] /= total, nu[k] /= total2, dist += abs(mu[k] - nu[k]);
      lgc::IVector a = p.at(window, mu), d = p.at(window, nu);
      for (std::size_t k = 0; k < a.size(); ++k) {
        INFO(file << " integrand " << k);
        CHECK(abs(a[k]).upper() <= b.G);
        CHECK(abs(a[k] - d[k]).lower() <= b.L * dist);
      }
    }
  }
}

TEST_CASE("L5.3.subsample holds on the induction head, and seeds that miss a too fast rate leave it UNDECIDED, not REFUTED",
          "[section5][subsample][claim]") {
  lgc::Case c = lgc::test::bundled("paper/induction/induction_head_k1.json");
  REQUIRE(lgc::is_two_layer_softmax(c));
  lgc::SubsampleParams p = lgc::subsample_params(c);
  CHECK(p.constant == Rational(1, 4));
  p.max_length = 10000;
  lgc::ClaimResult r = lgc::check_subsample(c, p);
  INFO(r.detail);
  CHECK(r.verdict == lgc::Verdict::Sampled);
  // Lemma 5.3 is an existence statement: with the rate n^-1 no seed meets the bound, which does not refute it.
  p.rate = Rational(1);
  const lgc::ClaimResult missed = lgc::check_subsample(c, p);
  INFO(missed.detail);
  CHECK(missed.verdict == lgc::Verdict::Undecided);
  CHECK(missed.detail.find("no seed among 1..8") != std::string::npos);
  CHECK(missed.detail.find("seeds that miss do not refute it") != std::string::npos);
}

TEST_CASE("lgcheck simulate on a softmax model subsamples and measures the error", "[section5][cli]") {
  auto r = lgc::test::run_lgcheck("simulate " + lgc::test::case_path("paper/induction/induction_head_k1.json").string() +
                                  " --random 5000 --length 500 --epsilon 1/10 --json");
  REQUIRE(r.exit_code == 0);
  auto j = nlohmann::json::parse(r.out);
  CHECK(j["length_x"] == 5000);
  CHECK(j["within_epsilon"] == true);
  CHECK(j["statistic_bound_met"] == true);
  CHECK(j.contains("z"));
  CHECK(j["z"].get<std::string>().size() == j["length_z"].get<std::size_t>());
  auto bad = lgc::test::run_lgcheck("simulate " + lgc::test::case_path("paper/induction/induction_head_k1.json").string() +
                                    " --input ab --epsilon 1/10", true);
  CHECK(bad.exit_code == 2);
  CHECK(bad.out.find("longer than tau + 1") != std::string::npos);
}

TEST_CASE("The simulation-error bound holds on the bundled pairs and is non-vacuous on the smooth one", "[section5][claim]") {
  // The sharp pair holds too, but every bound there is above the outputs' range: VACUOUS.
  for (auto [file, verdict] : std::vector<std::pair<const char*, lgc::Verdict>>{
           {"section5/attention_pair_smooth.json", lgc::Verdict::Sampled},
           {"section5/attention_pair_sharp.json", lgc::Verdict::Vacuous}}) {
    lgc::Case c = lgc::test::bundled(file);
    REQUIRE(lgc::is_simulation52_case(c));
    lgc::Simulation52Params p = lgc::simulation52_params(c);
    p.length = 10000;
    lgc::ClaimResult r = lgc::check_simulation52(c, p);
    INFO(file << ": " << r.detail);
    CHECK(r.verdict == verdict);
  }
  lgc::Case smooth = lgc::test::bundled("section5/attention_pair_smooth.json");
  lgc::ClaimResult r = lgc::check_simulation52(smooth, lgc::simulation52_params(smooth));
  CHECK(lgc::parse_rational(r.evidence["smallest_bound"].get<std::string>()) < Rational(1, 4));  // outputs span [0, 1.1]
  CHECK(lgc::simulation_bound_obstacle(lgc::test::bundled("section5/regime_position.json").model()).empty());
  CHECK_FALSE(lgc::simulation_bound_obstacle(lgc::test::bundled("paper/modp/modp_p3_hardmax.json").model()).empty());
}
