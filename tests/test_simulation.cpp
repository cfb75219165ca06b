// The simulation construction: same window and query residue, attention
// within δ on every head, |z| <= N_sim, exhaustively on small statistics and
// on long random ones, including the rare-top-set trap.
#include "lgcheck/bounds/theorem41.hpp"
#include "lgcheck/enumerate/strings.hpp"
#include "lgcheck/quantities/norm_constant.hpp"
#include "lgcheck/kernel/quantities.hpp"
#include "lgcheck/model/case_file.hpp"
#include "lgcheck/simulate/construction.hpp"
#include "lgcheck/simulate/simulation_error.hpp"
#include "lgcheck/tasks/paper_tasks.hpp"

#include "support.hpp"

using lgc::Rational;
using lgc::Statistic;

namespace {

void check_simulation(const std::vector<const lgc::OneLayerEvaluator*>& models, const Statistic& x,
                      const Rational& delta, const lgc::Integer& bound) {
  lgc::Simulation sim = lgc::simulate(models, x, delta);
  const lgc::Shape& shape = models.front()->shape();
  lgc::validate_statistic(shape, sim.z);
  INFO("x: " << lgc::describe(shape, x, models.front()->model()) << "\nz: "
             << lgc::describe(shape, sim.z, models.front()->model()));
  CHECK(sim.z.window == x.window);
  CHECK(sim.z.length % shape.period == x.length % shape.period);
  CHECK(sim.z.length <= x.length);
  CHECK(lgc::Integer(sim.z.length) <= bound);
  CHECK(lgc::attention_distance(models, x, sim.z) <= delta);
}

}  // namespace

TEST_CASE("Simulation keeps attention within delta on every statistic (ModPTask)", "[simulate]") {
  lgc::Model m = lgc::modp_task(3, lgc::Semantics::hardmax());
  lgc::OneLayerEvaluator eval(m);
  std::vector<const lgc::OneLayerEvaluator*> models{&eval};
  for (Rational delta : {Rational(1, 2), Rational(1, 10)}) {
    lgc::Integer bound = lgc::simulation_length_bound(models, delta).N;
    for (std::uint64_t T = 1; T <= 24; ++T)
      lgc::for_each_statistic(eval.shape(), T, [&](const Statistic& x) {
        check_simulation(models, x, delta, bound);
        return true;
      });
  }
}

TEST_CASE("Simulation on long random inputs and the rare-top-set trap", "[simulate]") {
  std::mt19937_64 rng(lgc::test::test_seed() + 11);
  INFO("seed " << lgc::test::test_seed() + 11);
  lgc::Model f = lgc::modp_task(5, lgc::Semantics::hardmax());
  lgc::Model g = f;
  g.layers[0].heads[0].qk(0, 3) = Rational(1, 2);  // g also prefers token-0 keys
  lgc::OneLayerEvaluator ef(f), eg(g);
  std::vector<const lgc::OneLayerEvaluator*> models{&ef, &eg};
  Rational delta(1, 20);
  lgc::Integer bound = lgc::simulation_length_bound(models, delta).N;
  for (int rep = 0; rep < 300; ++rep) {
    std::uint64_t T = lgc::uniform_integer(1, 1000000, rng);
    check_simulation(models, lgc::random_statistic(ef.shape(), T, rng), delta, bound);
  }
  // The trap: a top set {c0, c2} with counts 1 and 3 among 10^9 other
  // positions. h attends to the 1-tokens (logit [token is 1]), f to residue 0;
  // h's value reads residue 0, so c0 and c2 carry different values (h weighs
  // more than one value) and their ratio must be kept.
  lgc::Model h = f;
  h.layers[0].heads[0].qk(2, 3) = 0;
  h.layers[0].heads[0].qk(1, 3) = 1;
  h.layers[0].heads[0].value(4, 2) = 1;  // the output also reads "residue 0"
  lgc::OneLayerEvaluator eh(h);
  std::vector<const lgc::OneLayerEvaluator*> pair{&ef, &eh};
  lgc::Shape shape = ef.shape();
  Statistic x;
  x.length = 1000000000;
  x.window = {0};
  x.counts.assign(shape.classes(), 0);
  std::uint64_t bulk = lgc::bulk_length(x.length, 0);
  for (std::size_t r = 0; r < shape.period; ++r) x.counts[0 * shape.period + r] = lgc::residue_count(bulk, 5, r);
  x.counts[0 * shape.period + 0] -= 1;
  x.counts[1 * shape.period + 0] = 1;
  x.counts[0 * shape.period + 2] -= 3;
  x.counts[1 * shape.period + 2] = 3;
  REQUIRE_FALSE(eh.single_valued(0, x, eh.top(0, x)));
  check_simulation(pair, x, delta, lgc::simulation_length_bound(pair, delta).N);
  lgc::Simulation sim = lgc::simulate(pair, x, delta);
  CHECK(sim.z.counts[1 * shape.period + 0] == 1);
  CHECK(sim.z.counts[1 * shape.period + 2] == 3);
  CHECK(sim.z.length < 100000);  // f keeps its residue-0 class large against the query's own unit weight
}

namespace {

/// The chain family (docs/theory.md, "How short can z be"): tokens 0..K, Δ = 1, τ = 0, the query token 0;
/// for i = 1..K−1 a head attending to {i, i+1} (logit 1, the rest 0) whose output is the share of i, and for
/// i = 1..K a head attending to i alone whose output is 1 when i is present, else 0. Readout: every head's output.
lgc::Model chain_model(std::size_t K) {
  const std::size_t S = K + 1, H = 2 * K - 1, d = S + H;
  lgc::Model m;
  m.name = "chain";
  for (std::size_t s = 0; s < S; ++s) m.alphabet.push_back(std::to_string(s));
  m.width = d;
  m.semantics = lgc::Semantics::hardmax();
  m.embedding = lgc::QMatrix(S, d);
  for (std::size_t s = 0; s < S; ++s) m.embedding(s, s) = 1;
  m.positional = lgc::QMatrix(1, d);
  lgc::Layer layer;
  auto head = [&](std::vector<std::size_t> attended, std::size_t counted) {
    lgc::Head h{lgc::QMatrix(d, d), lgc::QMatrix(d, d), {Rational(0)}};
    for (std::size_t s : attended) h.qk(s, 0) = 1;  // key s against the query token 0
    h.value(S + layer.heads.size(), counted) = 1;
    layer.heads.push_back(h);
  };
  for (std::size_t i = 1; i < K; ++i) head({i, i + 1}, i);
  for (std::size_t i = 1; i <= K; ++i) head({i}, i);
  m.layers = {layer};
  m.readout = {lgc::QMatrix(H, d), lgc::QVector(H, Rational(0)), std::nullopt};
  for (std::size_t h = 0; h < H; ++h) m.readout.weights(h, S + h) = 1;
  return m;
}

/// x: the query token 0 after n_i = R^{K−i} copies of token i.
Statistic chain_input(const lgc::Shape& shape, std::size_t K, std::uint64_t R) {
  Statistic x;
  x.window = {0};
  x.counts.assign(shape.classes(), 0);
  std::uint64_t n = 1;
  for (std::size_t i = K; i >= 1; --i, n *= R) x.counts[i] = n;
  x.length = 1;
  for (auto c : x.counts) x.length += c;
  return x;
}

}  // namespace

TEST_CASE("The chain family: every z within eps of x is at least ((1 - 2 eps)/(2 eps))^(K-1) long, and N_sim's "
          "exponent min(H, S Delta) holds", "[simulate][chain]") {
  const std::size_t K = 3;
  const lgc::Model m = chain_model(K);
  REQUIRE_NOTHROW(lgc::parse_model(lgc::model_to_json(m), "chain", ""));  // a valid model
  const lgc::OneLayerEvaluator eval(m);
  const std::vector<const lgc::OneLayerEvaluator*> models{&eval};
  const Rational eps(1, 10);
  const Statistic x = chain_input(eval.shape(), K, 10);  // counts 100, 10, 1: shares 10/11
  REQUIRE(x.length == 112);
  // The shortest z, by exhaustive search: m_3 = 1, m_2 >= 4.24 m_3, m_1 >= 4.24 m_2, so 22 + 5 + 1 + the query.
  const auto z = lgc::shortest_simulation(models, x, eps, 0, 40);
  REQUIRE(z);
  CHECK(z->length == 29);
  // The proved lower bound (R + 1 >= 1/eps): |z| >= ((1 - 2 eps)/(2 eps))^(K-1) = 16, and the exponent K would
  // claim 64, more than the shortest z: the exponent K - 1 is what this family forces.
  const Rational ratio = (1 - 2 * eps) / (2 * eps);
  CHECK(Rational(z->length) >= lgc::pow(ratio, static_cast<long>(K - 1)));
  CHECK(Rational(z->length) < lgc::pow(ratio, static_cast<long>(K)));
  // N_sim: H = 5 patterns, S Delta = 4 classes, so the exponent is 4; the construction's z fits it, on this x
  // and on a chain x with ratio 10^6 between neighbours, and keeps attention within delta = eps / L.
  const lgc::Rational L = lgc::norm_constant(m).L;
  CHECK(L == 5);
  const lgc::LengthBound bound = lgc::simulation_length_bound(models, eps / L);
  CHECK(bound.patterns == 5);
  CHECK(bound.formula.find("E = min(H, S*D) = 4") != std::string::npos);
  for (std::uint64_t R : {10u, 1000000u}) check_simulation(models, chain_input(eval.shape(), K, R), eps / L, bound.N);
  // The replay kernel's N_sim, written apart from the search's, gives the same number.
  CHECK(lgc::kernel::n_sim({m}, eps) == bound.N);
}

TEST_CASE("A head weighing one value gets no interval and adds no pattern: the two-pattern pair is anchored",
          "[simulate]") {
  // f = ModPTask p = 2 attends to residue 0 (tokens of two values); the copy g attends to the 1-tokens, all of one
  // value (theory.md "The simulation construction", "One value").
  const lgc::Case c = lgc::test::bundled("pairs/modp_p2_two_pattern_pair.json");
  lgc::OneLayerEvaluator ef(c.models[0]), eg(c.models[1]);
  std::vector<const lgc::OneLayerEvaluator*> pair{&ef, &eg};
  CHECK_FALSE(lgc::weighs_one_value(ef, 0));
  CHECK(lgc::weighs_one_value(eg, 0));
  CHECK(lgc::attention_patterns(pair) == 1);
  // ε = 1/10, L = 101/100: δ = 10/101, Q = ⌈40·101/10 + 1/2⌉ = 405; anchored: N_sim = 2·(2·405 + 2 + 2) = 1628.
  const Rational delta(10, 101);
  const lgc::LengthBound bound = lgc::simulation_length_bound(pair, delta);
  CHECK(bound.anchored);
  CHECK(bound.N == 1628);
  CHECK(bound.epsilon_exponent == 1);
  CHECK(lgc::kernel::n_sim(c.models, Rational(1, 10)) == bound.N);
  std::mt19937_64 rng(lgc::test::test_seed() + 17);
  INFO("seed " << lgc::test::test_seed() + 17);
  std::uint64_t longest = 0;
  auto check = [&](const Statistic& x) {
    check_simulation(pair, x, delta, bound.N);
    const Statistic z = lgc::simulate(pair, x, delta).z;
    CHECK(eg.representation(x) == eg.representation(z));  // g's one head: its output, exactly
    longest = std::max(longest, z.length);
  };
  for (std::uint64_t T = 1; T <= 12; ++T)
    lgc::for_each_statistic(ef.shape(), T, [&](const Statistic& x) {
      check(x);
      return true;
    });
  for (int rep = 0; rep < 200; ++rep) check(lgc::random_statistic(ef.shape(), lgc::uniform_integer(1, 1000000, rng), rng));
  CHECK(lgc::Integer(longest) > bound.N / 2);  // the bound nearly binds: halving it fails
  // The copy reading "residue 0" in its value (weight −1/100: L stays 101/100): its 1-tokens carry two values,
  // two patterns count, E = 2: N_sim = Δ·S·(Q(τ+1))²·2SQ + Δ + τ = 16·405³ + 2.
  lgc::Model g2 = c.models[1];
  g2.layers[0].heads[0].value(4, 2) = Rational(-1, 100);
  lgc::OneLayerEvaluator eg2(g2);
  std::vector<const lgc::OneLayerEvaluator*> pair2{&ef, &eg2};
  CHECK_FALSE(lgc::weighs_one_value(eg2, 0));
  CHECK(lgc::attention_patterns(pair2) == 2);
  CHECK(lgc::simulation_length_bound(pair2, delta).N == 1062882002);
  CHECK(lgc::kernel::n_sim({c.models[0], g2}, Rational(1, 10)) == 1062882002);
  // The bundled pair under the general bound: the copy attends to the positions j != 0 mod 2 (tokens of two values).
  const lgc::Case other = lgc::test::bundled("pairs/modp_p2_other_residues_pair.json");
  lgc::OneLayerEvaluator eo(other.models[1]);
  std::vector<const lgc::OneLayerEvaluator*> pair3{&ef, &eo};
  CHECK_FALSE(lgc::weighs_one_value(eo, 0));
  CHECK(lgc::is_anchored(eo, 0));
  CHECK(lgc::attention_patterns(pair3) == 2);
  const lgc::LengthBound general = lgc::simulation_length_bound(pair3, delta);
  CHECK(general.N == 1062882002);
  CHECK(general.epsilon_exponent == 3);  // Q^E·Q with E = 2
}

TEST_CASE("The attention distance leaves out a head only when it weighs the same one value at x and z", "[simulate]") {
  const lgc::Case c = lgc::test::bundled("pairs/modp_p2_two_pattern_pair.json");
  lgc::OneLayerEvaluator ef(c.models[0]), eg(c.models[1]);
  const lgc::Shape& shape = eg.shape();
  // Length 6, window "0", counts n_{s,r} at s·Δ + r; z has its 1-tokens at residue 1 only.
  Statistic x{6, {0}, {1, 2, 1, 1}}, z{6, {0}, {2, 1, 0, 2}};
  lgc::validate_statistic(shape, x);
  lgc::validate_statistic(shape, z);
  // g weighs the 1-tokens' one value at both, with other weights: left out.
  CHECK(lgc::attention_distance({&eg}, x, z) == 0);
  CHECK(eg.representation(x) == eg.representation(z));
  // Without any 1-token in z, g's top set is the 0-tokens: another one value, so its weights count (disjoint: 2).
  Statistic none{6, {0}, {2, 3, 0, 0}};
  lgc::validate_statistic(shape, none);
  CHECK(lgc::attention_distance({&eg}, x, none) == 2);
  // f weighs two values at x (tokens 0 and 1 at residue 0): always counted.
  CHECK(lgc::attention_distance({&ef}, x, z) > 0);
}

namespace {

/// Tokens 0, 1 (Δ = 1, τ = 1), width 4 (token 0, token 1, a constant, an output slot). `attends_to_ones`: the head's
/// logit is [key token is 1], its value [key token is 1], and φ = (0, phi1); else the head attends uniformly (logit 0).
lgc::Model window_tie_model(bool attends_to_ones, const Rational& phi1) {
  lgc::Model m;
  m.name = "window_tie";
  m.alphabet = {"0", "1"};
  m.width = 4;
  m.locality = 1;
  m.semantics = lgc::Semantics::hardmax();
  m.embedding = lgc::QMatrix(2, 4);
  m.embedding(0, 0) = m.embedding(1, 1) = m.embedding(0, 2) = m.embedding(1, 2) = 1;
  m.positional = lgc::QMatrix(1, 4);
  lgc::Head h{lgc::QMatrix(4, 4), lgc::QMatrix(4, 4), {Rational(0), phi1}};
  if (attends_to_ones) h.qk(1, 2) = 1;
  h.value(3, 1) = 1;
  m.layers = {lgc::Layer{{h}, std::nullopt}};
  m.readout = {lgc::QMatrix(1, 4), lgc::QVector(1, Rational(0)), std::nullopt};
  m.readout.weights(0, 3) = 1;
  return m;
}

}  // namespace

TEST_CASE("A window slot whose phi ties it with a bulk key of another value makes a head weigh two values (search "
          "and kernel)", "[simulate]") {
  // φ(1) = 0: the logit-1 keys are the 1s (bulk or window), the logit-0 keys the 0s: one value per logit.
  // φ(1) = 1: a 0 in window slot 1 gets logit 0 + 1 = 1, tied with a bulk 1 of another value.
  const lgc::Model uniform = window_tie_model(false, 0), one_value = window_tie_model(true, 0),
                   tied = window_tie_model(true, 1);
  lgc::OneLayerEvaluator eu(uniform), eo(one_value), et(tied);
  CHECK_FALSE(lgc::weighs_one_value(eu, 0));
  CHECK(lgc::weighs_one_value(eo, 0));
  CHECK_FALSE(lgc::weighs_one_value(et, 0));
  CHECK_FALSE(lgc::is_anchored(et, 0));
  // With the uniform head (anchored, another pattern): the one-value copy adds nothing (anchored N_sim), the tied one
  // a second pattern (the general N_sim); the kernel, written apart, counts the same.
  const Rational eps(1, 10), delta = eps;  // L = 1 for all three
  for (const lgc::Model* g : {&one_value, &tied}) {
    const lgc::OneLayerEvaluator eg(*g);
    const lgc::LengthBound b = lgc::simulation_length_bound({&eu, &eg}, delta);
    CHECK(b.anchored == (g == &one_value));
    CHECK(b.patterns == (g == &one_value ? 1u : 2u));
    CHECK(lgc::kernel::n_sim({uniform, *g}, eps) == b.N);
  }
}

TEST_CASE("delta is capped at 2 in the search and in the kernel (L = 0, and epsilon > 2L)", "[simulate]") {
  lgc::Model small = lgc::modp_task(2, lgc::Semantics::hardmax());
  small.readout.weights(0, 4) = Rational(1, 100);  // L = 1/100: eps/L = 10 > 2
  lgc::Model zero = small;
  zero.readout.weights(0, 4) = 0;  // L = 0
  for (const lgc::Model* m : {&small, &zero}) {
    const lgc::OneLayerEvaluator e(*m);
    const Rational L = lgc::norm_constant(*m).L;
    CHECK(lgc::simulation_delta(Rational(1, 10), L) == 2);
    CHECK(lgc::kernel::simulation_delta({*m}, Rational(1, 10)) == 2);
    CHECK(lgc::kernel::n_sim({*m}, Rational(1, 10)) == lgc::simulation_length_bound({&e}, Rational(2)).N);
  }
}
