// lgcheck benchmarks (Google Benchmark): each figure is a ratio of two
// benchmarks measured in the same run, printed after the runs with its
// target. Build and run with `make bench`; figures and how to read them are
// in docs/performance.md.
#include "double_reference.hpp"

#include "lgcheck/enumerate/parallel.hpp"
#include "lgcheck/enumerate/strings.hpp"
#include "lgcheck/kernel/construction.hpp"
#include "lgcheck/kernel/quantities.hpp"
#include "lgcheck/model/case_file.hpp"
#include "lgcheck/quantities/distance.hpp"
#include "lgcheck/semantics/finite_precision.hpp"
#include "lgcheck/semantics/forward.hpp"
#include "lgcheck/semantics/one_layer.hpp"
#include "lgcheck/semantics/softmax_linear.hpp"
#include "lgcheck/simulate/construction.hpp"
#include "lgcheck/tasks/average_tasks.hpp"
#include "lgcheck/tasks/paper_tasks.hpp"

#include <benchmark/benchmark.h>
#include <fmt/format.h>

#include <cmath>
#include <map>
#include <random>

namespace {

using namespace lgc;

/// ModPTask (Δ = 2) against its perturbed copy, with locality τ = 1 (a
/// positional bonus 1/2 on the previous token): S = 2, Δ = 2, τ = 1.
std::pair<Model, Model> modp_pair_tau1() {
  Model f = modp_task(2, Semantics::hardmax()), g = modp_perturbed(2, Semantics::hardmax(), Rational(1, 100));
  for (Model* m : {&f, &g}) {
    m->locality = 1;
    for (auto& head : m->layers[0].heads) head.phi = {0, Rational(1, 2)};
  }
  return {f, g};
}

constexpr std::uint64_t kExhaustiveLength = 20;

void BM_ExhaustiveByStatistics(benchmark::State& state) {
  auto [f, g] = modp_pair_tau1();
  const OneLayerEvaluator ef(f), eg(g);
  for (auto _ : state) {
    DistanceCurve c = distance_curve(ef, eg, kExhaustiveLength, 0, UINT64_MAX, 1);
    benchmark::DoNotOptimize(c.D.back());
  }
}

/// max_k |f_k − g_k| at σ as distance_curve takes it: in 64-bit rationals,
/// in GMP when a number does not fit.
Rational statistic_distance(const OneLayerEvaluator& f, const OneLayerEvaluator& g, const Statistic& s) {
  thread_local std::vector<SmallRational> a, b;
  SmallRational worst;
  if (f.evaluate_small(s, a) && g.evaluate_small(s, b) && small_max_abs_difference(a, b, worst))
    return to_rational(worst);
  return upper_of(max_abs_difference(f.evaluate(s), g.evaluate(s)));
}

void BM_ExhaustiveByStrings(benchmark::State& state) {
  auto [f, g] = modp_pair_tau1();
  const OneLayerEvaluator ef(f), eg(g);
  for (auto _ : state) {
    Rational worst = 0;
    for (std::uint64_t n = 1; n <= kExhaustiveLength; ++n)
      for_each_string(2, n, [&](const Tokens& x) {
        worst = std::max(worst, statistic_distance(ef, eg, statistic_of(ef.shape(), x)));
        return true;
      });
    benchmark::DoNotOptimize(worst);
  }
}

/// The two models of a bundled pair case (path relative to the source tree).
std::pair<Model, Model> bundled_pair(const char* path) {
  const Case c = load_case(std::string(LGCHECK_SOURCE_DIR) + "/" + path);
  return std::make_pair(c.models.at(0), c.models.at(1));
}

/// The Farey-hat n = 4 pair (cases/witnesses/farey_hat_n4.json): one layer, hardmax, an MLP.
const std::pair<Model, Model>& farey_pair() {
  static const std::pair<Model, Model> p = bundled_pair("cases/witnesses/farey_hat_n4.json");
  return p;
}

/// D(n) = max over every input of length <= n of |f(x) - g(x)|, the way `lgcheck threshold` computes it (at these
/// lengths, a few reduced statistics each, `--method auto` takes the reduced curve).
void BM_PeerThreshold(benchmark::State& state) {
  const OneLayerEvaluator ef(farey_pair().first), eg(farey_pair().second);
  const auto n = static_cast<std::uint64_t>(state.range(0));
  for (auto _ : state) benchmark::DoNotOptimize(reduced_distance_curve(ef, eg, n, UINT64_MAX, 1).D.back());
}

/// D(n) for every n <= `n` on the pair, 2 threads: state arg 0 = 0 over the fresh reduced statistics
/// (reduced_distance_curve), 1 by branch and bound over their counts (bounded_distance_curve).
void reduced_or_bounded(benchmark::State& state, const std::pair<Model, Model>& pair, std::uint64_t n) {
  const OneLayerEvaluator ef(pair.first), eg(pair.second);
  for (auto _ : state)
    benchmark::DoNotOptimize(state.range(0) == 0 ? reduced_distance_curve(ef, eg, n, UINT64_MAX, 2).D.back()
                                                 : bounded_distance_curve(ef, eg, n, UINT64_MAX, 2).D.back());
}

/// D(n) for every n <= N (arg 1: 1000 or 4000) on the Farey-hat pair, reduced or bounded (arg 0; the bounded curve is
/// what `lgcheck threshold` runs on a pair with rational readouts once a length keeps more than 2000 reduced
/// statistics). The curves are compared to 1000 before timing.
void BM_BoundedCurve(benchmark::State& state) {
  reduced_or_bounded(state, farey_pair(), static_cast<std::uint64_t>(state.range(1)));
}

/// A tied S = 4, Δ = 1, τ = 1 pair with sin readouts whose models share a head (tests/data/shared_head_sin_pair.json).
const std::pair<Model, Model>& shared_head_sin_pair() {
  static const std::pair<Model, Model> p = bundled_pair("tests/data/shared_head_sin_pair.json");
  return p;
}

/// D(n) for every n <= 250 on the tied sin pair, 2 threads: arg 0 the reduced curve, 1 the bounded one, whose bound
/// there is sin ωu − sin ωv = 2 cos(ω(u + v)/2) sin(ω(u − v)/2), the shared head cancelling in u − v. The curves
/// are compared to 100 before timing.
void BM_SharedHeadSinCurve(benchmark::State& state) { reduced_or_bounded(state, shared_head_sin_pair(), 250); }

/// D(n) for every n <= 1000 on the tied sin pair, 2 threads, by the bounded curve: arg 0 by boxes of counts alone,
/// 1 with the value search (where |f − g|∞ is a function of one average's value). The curves are compared first.
void BM_ValueSearch(benchmark::State& state) {
  const OneLayerEvaluator ef(shared_head_sin_pair().first), eg(shared_head_sin_pair().second);
  BoxBoundTerms terms;
  terms.value_search = state.range(0) == 1;
  for (auto _ : state)
    benchmark::DoNotOptimize(bounded_distance_curve(ef, eg, 1000, UINT64_MAX, 2, nullptr, {}, terms).D.back());
}

/// D(n) for every n <= 1000 on the Farey-hat pair (2 threads, as `lgcheck
/// threshold` runs it): arg 0 in 64-bit rationals with GMP on overflow (what
/// the toolkit runs), arg 1 in GMP only (the evaluation before the 64-bit path).
void BM_FareyCurve(benchmark::State& state) {
  const ExactArithmetic arithmetic = state.range(0) == 0 ? ExactArithmetic::small_first : ExactArithmetic::gmp_only;
  const OneLayerEvaluator ef(farey_pair().first, arithmetic), eg(farey_pair().second, arithmetic);
  for (auto _ : state) benchmark::DoNotOptimize(distance_curve(ef, eg, 1000, 0, UINT64_MAX, 2).D.back());
}

/// The SimpleTask sin/ReLU pair ω = 1 (cases/pairs/simple_w1_sin_vs_relu.json): a sin readout.
const std::pair<Model, Model>& sin_pair() {
  static const std::pair<Model, Model> p = bundled_pair("cases/pairs/simple_w1_sin_vs_relu.json");
  return p;
}

/// D(n) for every n <= 1000 on the sin pair (2 threads, as `lgcheck threshold`): arg 0 with the FastInterval filter
/// (a statistic whose certified double bound is below the maximum is not evaluated at 128 bits), arg 1 in GMP only
/// (every statistic evaluated with MPFI's sin, the computation before the filter).
void BM_SinCurve(benchmark::State& state) {
  const ExactArithmetic arithmetic = state.range(0) == 0 ? ExactArithmetic::small_first : ExactArithmetic::gmp_only;
  const OneLayerEvaluator ef(sin_pair().first, arithmetic), eg(sin_pair().second, arithmetic);
  for (auto _ : state) benchmark::DoNotOptimize(reduced_distance_curve(ef, eg, 1000, UINT64_MAX, 2).D.back());
}

/// The two-pattern ModPTask pair (cases/pairs/modp_p2_two_pattern_pair.json): S = 2, Δ = 2, τ = 0.
const std::pair<Model, Model>& two_pattern_pair() {
  static const std::pair<Model, Model> p = bundled_pair("cases/pairs/modp_p2_two_pattern_pair.json");
  return p;
}

/// D(n) for every n <= 1000 on the two-pattern pair, 2 threads: arg 0 over
/// every statistic of every length (distance_curve, 1.7·10^8 of them), arg 1
/// over the fresh reduced statistics (reduced_distance_curve, what `lgcheck
/// threshold` runs on a hardmax pair). The curves are compared before timing.
void BM_TwoPatternCurve(benchmark::State& state) {
  const OneLayerEvaluator ef(two_pattern_pair().first), eg(two_pattern_pair().second);
  for (auto _ : state)
    benchmark::DoNotOptimize(state.range(0) == 0 ? distance_curve(ef, eg, 1000, 0, UINT64_MAX, 2).D.back()
                                                 : reduced_distance_curve(ef, eg, 1000, UINT64_MAX, 2).D.back());
}

/// The same D(n) as a theorist writes it first: every string, the exact forward pass, exact fractions.
void BM_PeerAllStrings(benchmark::State& state) {
  const auto& [f, g] = farey_pair();
  const ForwardOptions options{Semantics::hardmax()};
  const auto n = static_cast<std::uint64_t>(state.range(0));
  for (auto _ : state) {
    Rational worst = 0;
    for (std::uint64_t length = 1; length <= n; ++length)
      for_each_string(f.alphabet_size(), length, [&](const Tokens& x) {
        worst = std::max(worst, upper_of(max_abs_difference(evaluate(f, x, options), evaluate(g, x, options))));
        return true;
      });
    benchmark::DoNotOptimize(worst);
  }
}

/// T4.1.sim's construction at ε = 1/10 on 1 000 random inputs of the two-pattern pair, lengths 10^3..10^9
/// (log-uniform, each residue's positions split at random among the tokens), drawn once from a fixed seed.
const std::vector<Statistic>& construction_inputs() {
  static const std::vector<Statistic> inputs = [] {
    const Model& f = two_pattern_pair().first;
    const std::size_t S = f.alphabet_size(), D = f.period;
    std::mt19937_64 rng(20261205);
    std::vector<Statistic> out;
    for (int i = 0; i < 1000; ++i) {
      Statistic x;
      x.length = static_cast<std::uint64_t>(std::pow(10.0, 3.0 + 6.0 * std::uniform_real_distribution<>(0, 1)(rng)));
      for (std::size_t t = 0; t <= f.locality; ++t) x.window.push_back(static_cast<int>(rng() % S));
      x.counts.assign(S * D, 0);
      const std::uint64_t B = x.length - f.locality - 1;
      for (std::size_t r = 0; r < D; ++r) {
        std::uint64_t left = kernel::residue_count(B, r, D);
        for (std::size_t s = 0; s + 1 < S; ++s) left -= x.counts[s * D + r] = rng() % (left + 1);
        x.counts[(S - 1) * D + r] = left;
      }
      out.push_back(std::move(x));
    }
    return out;
  }();
  return inputs;
}

const Rational kConstructionEpsilon(1, 10);

/// z by the search's `simulate` (what `lgcheck check` records).
Statistic search_construction(const Statistic& x) {
  static const OneLayerEvaluator ef(two_pattern_pair().first), eg(two_pattern_pair().second);
  static const std::vector<Model> models{two_pattern_pair().first, two_pattern_pair().second};
  static const Rational delta = kernel::simulation_delta(models, kConstructionEpsilon);
  return simulate({&ef, &eg}, x, delta).z;
}

/// z by the replay kernel's own construction (what `lgcheck replay` rebuilds at every witness).
Statistic kernel_construction(const Statistic& x) {
  static const std::vector<Model> models{two_pattern_pair().first, two_pattern_pair().second};
  static const kernel::Construction construction(models, kernel::simulation_resolution(models, kConstructionEpsilon),
                                                 kernel::padding_length(models));
  const kernel::Statistic z = construction.build({x.length, x.window, x.counts});
  return {z.length, z.window, z.counts};
}

/// Arg 0: the search's construction of every input; arg 1: the kernel's.
void BM_Construction(benchmark::State& state) {
  for (auto _ : state)
    for (const Statistic& x : construction_inputs())
      benchmark::DoNotOptimize(state.range(0) == 0 ? search_construction(x) : kernel_construction(x));
}

constexpr std::uint64_t kTreeLength = 12;

Model presence_model() { return presence_pair(3, {false, true, false}, Rational(1, 4)).f; }

void BM_PrefixTreeIncremental(benchmark::State& state) {
  const Model m = presence_model();
  const OneLayerEvaluator e(m);
  for (auto _ : state) {
    Rational best = 0;
    for_each_prefix_statistic(e.shape(), kTreeLength, [&](const Statistic& s) {
      best = std::max(best, upper_of(e.evaluate(s).front()));
      return true;
    });
    benchmark::DoNotOptimize(best);
  }
}

void BM_PrefixFromScratch(benchmark::State& state) {
  const Model m = presence_model();
  const ForwardOptions options{Semantics::hardmax()};
  for (auto _ : state) {
    Rational best = 0;
    for (std::uint64_t n = 1; n <= kTreeLength; ++n)
      for_each_string(3, n, [&](const Tokens& x) {
        best = std::max(best, upper_of(evaluate(m, x, options).front()));
        return true;
      });
    benchmark::DoNotOptimize(best);
  }
}

const Model& induction() {
  static const Model m = load_case(std::string(LGCHECK_SOURCE_DIR) + "/cases/paper/induction/induction_head_k1.json").model();
  return m;
}

const Tokens& long_input() {
  static const Tokens x = [] {
    std::mt19937_64 rng(3);
    return random_string(2, 100000, rng);
  }();
  return x;
}

void BM_TwoLayerCertified(benchmark::State& state) {
  const SoftmaxLinearEvaluator eval(induction());
  for (auto _ : state) benchmark::DoNotOptimize(eval.evaluate(long_input()));
}

void BM_TwoLayerDouble(benchmark::State& state) {
  for (auto _ : state) benchmark::DoNotOptimize(bench::double_softmax_two_layer(induction(), long_input()));
}

const std::vector<Statistic>& hardmax_inputs() {
  static const std::vector<Statistic> inputs = [] {
    std::mt19937_64 rng(5);
    std::vector<Statistic> v;
    const Shape shape = shape_of(modp_task(3, Semantics::hardmax()));
    for (int k = 0; k < 2048; ++k) v.push_back(random_statistic(shape, 1000, rng));
    return v;
  }();
  return inputs;
}

/// The exact representation as the exhaustive checks compute it: in 64-bit
/// rationals, in GMP when a number does not fit (none here: checked before
/// the timings).
void BM_HardmaxExact(benchmark::State& state) {
  const Model m = modp_task(3, Semantics::hardmax());
  const OneLayerEvaluator e(m);
  std::vector<SmallRational> y;
  for (auto _ : state)
    for (const Statistic& s : hardmax_inputs())
      if (!e.representation_small(s, y)) benchmark::DoNotOptimize(e.representation(s));
  benchmark::DoNotOptimize(y);
}

/// The same, returned as a vector of GMP rationals (representation()):
/// arg 0 through the 64-bit path, arg 1 in GMP only.
void BM_HardmaxExactGmp(benchmark::State& state) {
  const Model m = modp_task(3, Semantics::hardmax());
  const OneLayerEvaluator e(m, state.range(0) == 0 ? ExactArithmetic::small_first : ExactArithmetic::gmp_only);
  for (auto _ : state)
    for (const Statistic& s : hardmax_inputs()) benchmark::DoNotOptimize(e.representation(s));
}

void BM_HardmaxDouble(benchmark::State& state) {
  const Model m = modp_task(3, Semantics::hardmax());
  const bench::DoubleHardmax e(m);
  for (auto _ : state)
    for (const Statistic& s : hardmax_inputs()) benchmark::DoNotOptimize(e.representation(s));
}

void BM_StatisticsThreads(benchmark::State& state) {
  auto [f, g] = modp_pair_tau1();
  const OneLayerEvaluator ef(f), eg(g);
  const unsigned threads = static_cast<unsigned>(state.range(0));
  for (auto _ : state) benchmark::DoNotOptimize(distance_curve(ef, eg, 32, 8, UINT64_MAX, threads).D.back());
}

/// ⌈2^{p/γ}⌉ at p = 8 and γ = 7/(7N/8 + 1), so p/γ ≈ N = state.range(0) (a 7th root of an integer of 8N bits).
void BM_HardmaxThreshold(benchmark::State& state) {
  const Rational gamma(Integer(7), Integer(7 * state.range(0) / 8 + 1));
  for (auto _ : state) benchmark::DoNotOptimize(hardmax_threshold(8, gamma));
}

BENCHMARK(BM_ExhaustiveByStatistics)->Unit(benchmark::kMillisecond)->Iterations(3);
BENCHMARK(BM_ExhaustiveByStrings)->Unit(benchmark::kMillisecond)->Iterations(1);
BENCHMARK(BM_PrefixTreeIncremental)->Unit(benchmark::kMillisecond)->Iterations(1);
BENCHMARK(BM_PrefixFromScratch)->Unit(benchmark::kMillisecond)->Iterations(1);
BENCHMARK(BM_TwoLayerCertified)->Unit(benchmark::kMillisecond)->Iterations(1);
BENCHMARK(BM_TwoLayerDouble)->Unit(benchmark::kMillisecond)->Iterations(3);
BENCHMARK(BM_HardmaxExact)->Unit(benchmark::kMillisecond)->Iterations(3);
BENCHMARK(BM_HardmaxExactGmp)->Arg(0)->Arg(1)->Unit(benchmark::kMillisecond)->Iterations(3);
BENCHMARK(BM_HardmaxDouble)->Unit(benchmark::kMillisecond)->Iterations(3);
BENCHMARK(BM_StatisticsThreads)->Arg(1)->Arg(2)->Unit(benchmark::kMillisecond)->Iterations(3)->UseRealTime();
BENCHMARK(BM_FareyCurve)->Arg(0)->Arg(1)->Unit(benchmark::kMillisecond)->Iterations(1)->UseRealTime();
BENCHMARK(BM_TwoPatternCurve)->Arg(0)->Arg(1)->Unit(benchmark::kMillisecond)->Iterations(1)->UseRealTime();
BENCHMARK(BM_BoundedCurve)->Args({0, 1000})->Args({1, 1000})->Args({0, 4000})->Args({1, 4000})->Unit(benchmark::kMillisecond)->Iterations(1)->UseRealTime();
BENCHMARK(BM_SinCurve)->Arg(0)->Arg(1)->Unit(benchmark::kMillisecond)->Iterations(1)->UseRealTime();
BENCHMARK(BM_SharedHeadSinCurve)->Arg(0)->Arg(1)->Unit(benchmark::kMillisecond)->Iterations(1)->UseRealTime();
BENCHMARK(BM_ValueSearch)->Arg(0)->Arg(1)->Unit(benchmark::kMillisecond)->Iterations(1)->UseRealTime();
BENCHMARK(BM_PeerThreshold)->Arg(10)->Arg(12)->Arg(14)->Unit(benchmark::kMillisecond)->Iterations(3);
BENCHMARK(BM_PeerAllStrings)->Arg(10)->Arg(12)->Arg(14)->Unit(benchmark::kMillisecond)->Iterations(1);
BENCHMARK(BM_Construction)->Arg(0)->Arg(1)->Unit(benchmark::kMillisecond)->Iterations(3);
BENCHMARK(BM_HardmaxThreshold)->Arg(10000)->Arg(100000)->Unit(benchmark::kMillisecond)->Iterations(5);

/// Records each run's real time per iteration, and prints as usual.
class RatioReporter : public benchmark::ConsoleReporter {
 public:
  void ReportRuns(const std::vector<Run>& runs) override {
    for (const Run& r : runs) {
      seconds[r.benchmark_name()] = r.GetAdjustedRealTime();  // in the benchmark's unit: for ratios of like units
      wall[r.benchmark_name()] = r.real_accumulated_time / static_cast<double>(r.iterations);  // seconds
    }
    ConsoleReporter::ReportRuns(runs);
  }
  std::map<std::string, double> seconds, wall;
};

/// The double references compute the same functions: checked against the
/// exact and certified values before any timing (a ratio against a wrong
/// reference would mean nothing).
bool references_agree() {
  const Model m = modp_task(3, Semantics::hardmax());
  const OneLayerEvaluator exact(m, ExactArithmetic::gmp_only);
  const bench::DoubleHardmax reference(m);
  double worst = 0;
  for (const Statistic& s : hardmax_inputs()) {
    const QVector e = exact.representation(s);
    const std::vector<double> d = reference.representation(s);
    for (std::size_t k = 0; k < e.size(); ++k) worst = std::max(worst, std::abs(e[k].convert_to<double>() - d[k]));
  }
  const Output certified = SoftmaxLinearEvaluator(induction()).evaluate(long_input());
  const std::vector<double> d = bench::double_softmax_two_layer(induction(), long_input());
  for (std::size_t k = 0; k < d.size(); ++k)
    worst = std::max(worst, std::abs(certified[k].enclosure().upper().convert_to<double>() - d[k]));
  fmt::print("double references against exact/certified values: max |difference| = {:.3g}\n", worst);
  return worst < 1e-9;
}

/// Two exact curves with the same D(n) at every length.
bool same_exact_curve(const DistanceCurve& a, const DistanceCurve& b) {
  if (a.D.size() != b.D.size()) return false;
  for (std::size_t n = 0; n < a.D.size(); ++n)
    if (a.D[n].exact() != b.D[n].exact()) return false;
  return true;
}

/// The reduced curve is the enumerated one on the benchmark's pair (to 60:
/// the full comparison at 1000 would double the benchmark's time).
bool reduced_curve_agrees() {
  const OneLayerEvaluator ef(two_pattern_pair().first), eg(two_pattern_pair().second);
  return same_exact_curve(distance_curve(ef, eg, 60, 0, UINT64_MAX, 2),
                          reduced_distance_curve(ef, eg, 60, UINT64_MAX, 2));
}

/// The bounded curve is the reduced one on the Farey-hat pair (to 1000, BM_BoundedCurve's length), and skips boxes.
bool bounded_curve_agrees() {
  const OneLayerEvaluator ef(farey_pair().first), eg(farey_pair().second);
  const DistanceCurve bounded = bounded_distance_curve(ef, eg, 1000, UINT64_MAX, 2);
  return bounded.boxes_pruned > 0 && same_exact_curve(reduced_distance_curve(ef, eg, 1000, UINT64_MAX, 2), bounded);
}

/// The two curves' D(n) are the same enclosures and their argmax the same statistics.
bool same_enclosures(const DistanceCurve& a, const DistanceCurve& b) {
  if (a.D.size() != b.D.size() || a.argmax != b.argmax) return false;
  for (std::size_t n = 0; n < a.D.size(); ++n)
    if (lower_of(a.D[n]) != lower_of(b.D[n]) || upper_of(a.D[n]) != upper_of(b.D[n])) return false;
  return true;
}

/// The filtered sin curve is the full evaluation's (to 200), and the filter skips statistics.
bool sin_filter_agrees() {
  const OneLayerEvaluator ef(sin_pair().first), eg(sin_pair().second);
  const OneLayerEvaluator rf(sin_pair().first, ExactArithmetic::gmp_only), rg(sin_pair().second, ExactArithmetic::gmp_only);
  const DistanceCurve filtered = reduced_distance_curve(ef, eg, 200, UINT64_MAX, 2);
  return filtered.below_maximum > 0 && same_enclosures(filtered, reduced_distance_curve(rf, rg, 200, UINT64_MAX, 2));
}

/// The two curves' D(n) are the same enclosures, and each argmax of `a` a statistic of length <= n attaining D(n)
/// (the bounded curve's promise: among statistics of one value it evaluates one, not the reduced curve's first).
bool same_enclosures_attained(const OneLayerEvaluator& f, const OneLayerEvaluator& g, const DistanceCurve& a,
                              const DistanceCurve& b) {
  if (a.D.size() != b.D.size()) return false;
  for (std::size_t n = 0; n < a.D.size(); ++n) {
    if (lower_of(a.D[n]) != lower_of(b.D[n]) || upper_of(a.D[n]) != upper_of(b.D[n])) return false;
    if (a.argmax[n].length > n + 1 || upper_of(output_distance(f, a.argmax[n], g, a.argmax[n])) != upper_of(a.D[n]))
      return false;
  }
  return true;
}

/// On the tied sin pair the bounded curve is the reduced one (to 100), with the value search and without, and skips
/// boxes.
bool shared_head_sin_agrees() {
  const OneLayerEvaluator ef(shared_head_sin_pair().first), eg(shared_head_sin_pair().second);
  const DistanceCurve bounded = bounded_distance_curve(ef, eg, 100, UINT64_MAX, 2);
  BoxBoundTerms boxes_only;
  boxes_only.value_search = false;
  const DistanceCurve by_boxes = bounded_distance_curve(ef, eg, 100, UINT64_MAX, 2, nullptr, {}, boxes_only);
  const DistanceCurve reduced = reduced_distance_curve(ef, eg, 100, UINT64_MAX, 2);
  return bounded.boxes_pruned > 0 && bounded.value_searches > 0 && same_enclosures_attained(ef, eg, bounded, reduced) &&
         same_enclosures_attained(ef, eg, by_boxes, reduced);
}

/// The kernel builds the search's z on every construction input (the ratio compares two computations of one thing).
bool constructions_agree() {
  for (const Statistic& x : construction_inputs())
    if (search_construction(x) != kernel_construction(x)) return false;
  return true;
}

/// The 64-bit path gives GMP's exact values on every benchmark input, without
/// falling back to GMP (BM_HardmaxExact then times the 64-bit path alone).
bool small_path_agrees() {
  const Model m = modp_task(3, Semantics::hardmax());
  const OneLayerEvaluator fast(m), gmp(m, ExactArithmetic::gmp_only);
  std::vector<SmallRational> y;
  for (const Statistic& s : hardmax_inputs()) {
    const QVector want = gmp.representation(s);
    if (!fast.representation_small(s, y) || y.size() != want.size() || fast.representation(s) != want) return false;
    for (std::size_t k = 0; k < y.size(); ++k)
      if (to_rational(y[k]) != want[k]) return false;
  }
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  benchmark::Initialize(&argc, argv);
  if (!references_agree()) {
    fmt::print(stderr, "lgcheck_bench: a double reference disagrees with the exact values; no ratio printed\n");
    return 1;
  }
  if (!small_path_agrees()) {
    fmt::print(stderr, "lgcheck_bench: the 64-bit path differs from GMP or falls back on an input; no ratio printed\n");
    return 1;
  }
  if (!sin_filter_agrees()) {
    fmt::print(stderr, "lgcheck_bench: the filtered sin curve differs from the full evaluation; no ratio printed\n");
    return 1;
  }
  if (!reduced_curve_agrees()) {
    fmt::print(stderr, "lgcheck_bench: the reduced curve differs from the enumerated one; no ratio printed\n");
    return 1;
  }
  if (!bounded_curve_agrees()) {
    fmt::print(stderr, "lgcheck_bench: the bounded curve differs from the reduced one; no ratio printed\n");
    return 1;
  }
  if (!shared_head_sin_agrees()) {
    fmt::print(stderr, "lgcheck_bench: the bounded curve differs from the reduced one on the sin pair; no ratio printed\n");
    return 1;
  }
  if (!constructions_agree()) {
    fmt::print(stderr, "lgcheck_bench: the kernel's construction differs from the search's; no ratio printed\n");
    return 1;
  }
  RatioReporter reporter;
  benchmark::RunSpecifiedBenchmarks(&reporter);
  auto ratio = [&](const std::string& what, const std::string& slow, const std::string& fast, const std::string& target) {
    if (!reporter.seconds.count(slow) || !reporter.seconds.count(fast)) return;
    fmt::print("{:<72} {:>9.1f}x   target {}\n", what, reporter.seconds[slow] / reporter.seconds[fast], target);
  };
  fmt::print("\nratios (measured in this run)\n");
  ratio("exhaustive check, lengths <= 20 (S=2, D=2, tau=1): strings / statistics", "BM_ExhaustiveByStrings/iterations:1",
        "BM_ExhaustiveByStatistics/iterations:3", ">= 100x");
  ratio("all strings up to length 12 (S=3): from scratch / prefix tree", "BM_PrefixFromScratch/iterations:1",
        "BM_PrefixTreeIncremental/iterations:1", ">= 10x");
  ratio("two-layer softmax at T = 10^5: certified / double (slowdown)", "BM_TwoLayerCertified/iterations:1",
        "BM_TwoLayerDouble/iterations:3", "<= 30x");
  ratio("one-layer hardmax, 2048 statistics: exact (64-bit path) / double", "BM_HardmaxExact/iterations:3",
        "BM_HardmaxDouble/iterations:3", "<= 4x");
  ratio("  the same returned as GMP rationals / double", "BM_HardmaxExactGmp/0/iterations:3",
        "BM_HardmaxDouble/iterations:3", "report");
  ratio("  the same in GMP only / double", "BM_HardmaxExactGmp/1/iterations:3", "BM_HardmaxDouble/iterations:3",
        "report");
  ratio("D(n), n <= 1000, Farey-hat n=4 pair, 2 threads: GMP only / 64-bit path",
        "BM_FareyCurve/1/iterations:1/real_time", "BM_FareyCurve/0/iterations:1/real_time", "report");
  ratio("D(n), n <= 1000, two-pattern pair, 2 threads: every statistic / reduced",
        "BM_TwoPatternCurve/0/iterations:1/real_time", "BM_TwoPatternCurve/1/iterations:1/real_time", "report");
  for (const char* n : {"1000", "4000"})
    ratio(fmt::format("D(n), n <= {}, Farey-hat n=4 pair, 2 threads: reduced / bounded", n),
          fmt::format("BM_BoundedCurve/0/{}/iterations:1/real_time", n),
          fmt::format("BM_BoundedCurve/1/{}/iterations:1/real_time", n), "report");
  ratio("D(n), n <= 1000, SimpleTask sin pair, 2 threads: every statistic at 128 bits / FastInterval filter",
        "BM_SinCurve/1/iterations:1/real_time", "BM_SinCurve/0/iterations:1/real_time", "report");
  ratio("D(n), n <= 250, tied sin pair sharing a head, 2 threads: reduced / bounded",
        "BM_SharedHeadSinCurve/0/iterations:1/real_time", "BM_SharedHeadSinCurve/1/iterations:1/real_time", "report");
  ratio("D(n), n <= 1000, tied sin pair sharing a head, 2 threads: bounded by boxes / with the value search",
        "BM_ValueSearch/0/iterations:1/real_time", "BM_ValueSearch/1/iterations:1/real_time", "report");
  ratio("statistics enumeration, finite:8, lengths <= 32: 1 thread / 2 threads (speed-up)",
        "BM_StatisticsThreads/1/iterations:3/real_time", "BM_StatisticsThreads/2/iterations:3/real_time", ">= 1.7x");
  ratio("T4.1.sim's construction, 1000 inputs of lengths 10^3..10^9: replay kernel / search",
        "BM_Construction/1/iterations:3", "BM_Construction/0/iterations:3", "<= 4x");
  for (const char* n : {"10", "12", "14"})
    ratio(fmt::format("D(n) for every length <= {} (Farey-hat n=4 pair): all strings, exact / lgcheck threshold", n),
          fmt::format("BM_PeerAllStrings/{}/iterations:1", n), fmt::format("BM_PeerThreshold/{}/iterations:3", n),
          "report (peer)");
  auto timing = [&](const std::string& what, const std::string& name, const std::string& target) {
    if (reporter.wall.count(name)) fmt::print("{:<72} {:>7.2f} ms   target {}\n", what, 1e3 * reporter.wall[name], target);
  };
  fmt::print("\ntimings (measured in this run)\n");
  timing("ceil(2^(p/gamma)), p = 8, p/gamma ~ 10^4 (gamma = 7/8751)", "BM_HardmaxThreshold/10000/iterations:5", "< 100 ms");
  timing("ceil(2^(p/gamma)), p = 8, p/gamma ~ 10^5 (gamma = 7/87501)", "BM_HardmaxThreshold/100000/iterations:5", "< 100 ms");
  benchmark::Shutdown();
  return 0;
}
