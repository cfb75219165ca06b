// The simulation construction: same window and query residue, attention
// within δ on every head, |z| <= N_sim, exhaustively on small statistics and
// on long random ones, including the rare-top-set trap.
#include "lgcheck/enumerate/strings.hpp"
#include "lgcheck/quantities/norm_constant.hpp"
#include "lgcheck/simulate/construction.hpp"
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
  // The trap: a top set {c1, c2} with counts 1 and 3 among 10^9 other
  // positions. h attends to the 1-tokens (logit [token is 1]), f to residue 0.
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
  x.counts[0 * shape.period + 1] -= 1;
  x.counts[1 * shape.period + 1] = 1;
  x.counts[0 * shape.period + 2] -= 3;
  x.counts[1 * shape.period + 2] = 3;
  check_simulation(pair, x, delta, lgc::simulation_length_bound(pair, delta).N);
  lgc::Simulation sim = lgc::simulate(pair, x, delta);
  CHECK(sim.z.counts[1 * shape.period + 1] == 1);
  CHECK(sim.z.counts[1 * shape.period + 2] == 3);
  CHECK(sim.z.length < 100000);  // f keeps its residue-0 class large against the query's own unit weight
}
