// T5.2.sim: the subsampled z imitates x within the toolkit's explicit
// simulation-error bound and within C(f)·n^{−min(γ,1/3)}, for both models of
// a pair (docs/theory.md#the-simulation-error-bound, #the-complexity-cf).
#include "claims/agreement.hpp"
#include "claims/declarations.hpp"
#include "lgcheck/bounds/theorem52.hpp"
#include "lgcheck/enumerate/strings.hpp"
#include "lgcheck/quantities/layer2_integrands.hpp"
#include "lgcheck/quantities/simulation_bound.hpp"
#include "lgcheck/report/readable.hpp"
#include "lgcheck/semantics/softmax_layer1.hpp"
#include "lgcheck/semantics/softmax_linear.hpp"
#include "lgcheck/simulate/subsample.hpp"
#include "claims/section5/section5.hpp"

#include <fmt/format.h>

#include <map>
#include <random>

namespace lgc {

Tokens family_input(const InputFamily& family, std::size_t S, std::uint64_t T, std::mt19937_64& rng) {
  if (family.kind == InputFamily::Kind::Uniform) return random_string(S, T, rng);
  Tokens x(T, 0);
  if (family.kind == InputFamily::Kind::Last) {
    x.back() = 1;
    return x;
  }
  if (family.kind == InputFamily::Kind::Single) {
    x[uniform_integer(0, T - T / 10 - 1, rng)] = 1;
    return x;
  }
  for (auto& t : x) t = uniform_integer(0, family.inverse_rate - 1, rng) == 0 ? 1 : 0;
  return x;
}

namespace {

std::vector<InputFamily> default_families(std::size_t S) {
  std::vector<InputFamily> families{*parse_input_family("uniform")};
  if (S == 2) families.push_back(*parse_input_family("rate:1/20")), families.push_back(*parse_input_family("rate:1/400"));
  return families;
}

/// z (of length n >= n₀) is c-good for x: the premise of C(f) (Lemma 5.3's conclusion).
bool is_c_good(const SimulationBound& b, const ComplexityConstant& k, std::uint64_t n) {
  return b.statistic_error <= k.statistic_limit(n).lower() && b.histogram_drift <= k.drift_limit(n).lower();
}

struct Subsampled {
  Tokens z;
  SimulationBound bound;
  std::uint64_t seed = 1;
  bool c_good = false;
  bool too_short = false;  ///< |z| < n₀: the simulation-error bound does not cover z (nothing bounded)
};

/// Seeds 1, 2, … until z is c-good; the seed-1 z when none is; the first z shorter than n₀ = k.start, which the
/// simulation-error bound does not cover, ends the search (too_short).
Subsampled subsample_c_good(const Tokens& x, std::uint64_t n, const Model& m, const SimulationErrorBound& bounder,
                            const ComplexityConstant& k, std::uint64_t seeds, bool residue_preserving) {
  Subsampled first;
  for (std::uint64_t seed = 1; seed <= seeds; ++seed) {
    Subsampled s;
    // The chain keeps x's last kept_tail(m) tokens: the query's window and each top second-layer key's.
    s.z = restrict_to(x, markov_subsample(x.size(), n, kept_tail(m) - 1, seed, residue_preserving ? m.period : 1));
    s.seed = seed;
    if (s.z.size() < k.start) {
      s.too_short = true;
      return s;
    }
    s.bound = bounder.bound(s.z);
    s.c_good = is_c_good(s.bound, k, s.z.size());
    if (s.c_good) return s;
    if (seed == 1) first = std::move(s);
  }
  return first;
}

/// An a-priori bound on |f(x) − f(z)| over all inputs: the second layer adds
/// to each coordinate k of the first layer's output (|y_k| <= b_k, the box)
/// at most Σ_g Σ_c |V_g,kc| b_c, its MLP (residual, ReLU units at most their
/// pre-activations' magnitudes) at most Σ_u |W_out,ku|(|b_in,u| + Σ_c |W_in,uc| y_c)
/// + |b_out,k|, so the readout's argument moves by at most 2 Σ_k |W_jk| y_k; a
/// sin readout also moves by at most 2. nullopt for a model of another depth.
std::optional<Rational> output_range(const Model& m) {
  if (m.layers.size() != 2) return std::nullopt;
  const std::vector<Rational> box = first_layer_box(SoftmaxFirstLayer(m));
  std::vector<Rational> y = box;
  for (const Head& head : m.layers[1].heads)
    for (std::size_t k = 0; k < y.size(); ++k)
      for (std::size_t c = 0; c < box.size(); ++c) y[k] += abs(head.value(k, c)) * box[c];
  if (const auto& mlp = m.layers[1].mlp) {
    std::vector<Rational> grown = y;
    for (std::size_t u = 0; u < mlp->in.rows(); ++u) {
      Rational unit = abs(mlp->in_bias[u]);
      for (std::size_t c = 0; c < y.size(); ++c) unit += abs(mlp->in(u, c)) * y[c];
      for (std::size_t k = 0; k < grown.size(); ++k) grown[k] += abs(mlp->out(k, u)) * unit;
    }
    for (std::size_t k = 0; k < grown.size(); ++k) grown[k] += abs(mlp->out_bias[k]);
    y = std::move(grown);
  }
  Rational range = 0;
  for (std::size_t j = 0; j < m.readout.weights.rows(); ++j) {
    Rational moved = 0;
    for (std::size_t k = 0; k < y.size(); ++k) moved += 2 * abs(m.readout.weights(j, k)) * y[k];
    if (m.readout.sin_omega) moved = std::min(Rational(2), Rational(abs(*m.readout.sin_omega) * moved));
    range = std::max(range, moved);
  }
  return range;
}

}  // namespace

bool is_simulation52_case(const Case& c) {
  if (!c.is_pair) return false;
  for (const Model& m : c.models)
    if (!simulation_bound_obstacle(m).empty()) return false;
  return true;
}

Simulation52Params simulation52_params(const Case& c) {
  Simulation52Params p;
  p.epsilon = c.check_rational("epsilon", p.epsilon);
  p.length = c.check_count("simulation_length", p.length);
  p.seed = c.check_count("seed", p.seed);
  p.subsample_constant = c.check_rational("subsample_constant", p.subsample_constant);
  if (c.check.contains("simulation_inputs"))
    for (const auto& name : c.check["simulation_inputs"]) p.inputs.push_back(*parse_input_family(name.get<std::string>()));
  else
    p.inputs = default_families(c.model().alphabet_size());
  return p;
}

ClaimResult check_simulation52(const Case& c, const Simulation52Params& params) {
  ClaimResult r;
  r.id = kSimulation52Id;
  r.case_name = c.name;
  const std::size_t S = c.model().alphabet_size(), tau = c.model().locality;
  std::vector<SoftmaxFirstLayer> layers;
  std::vector<SoftmaxLinearEvaluator> evals;
  std::vector<ComplexityConstant> constants;
  for (const Model& m : c.models) {
    layers.emplace_back(m);
    evals.emplace_back(m);
    constants.push_back(complexity_constant(m, params.subsample_constant, params.complexity_with_exponential));
  }
  const Theorem52Bounds theorem = theorem52_bounds(constants, params.epsilon);
  r.evidence["C"] = to_string(theorem.C);  // on every path: the kernel recomputes them
  r.evidence["N_variant_A"] = theorem.N_variant_A.str();
  r.evidence["N_variant_B"] = theorem.N_variant_B.str();
  std::mt19937_64 rng(params.seed);
  std::vector<std::uint64_t> targets{100, 1000};
  if (params.length / 10 > 1000) targets.push_back(params.length / 10);
  nlohmann::json rows = nlohmann::json::array();
  Rational smallest_bound = -1, slack = 0;
  Rational smallest_a_priori = -1;  // lower ends of C(f)|z|^-rate over the c-good rows
  std::map<std::uint64_t, bool> all_within;  // n -> both models within eps on every x
  std::size_t checks = 0, a_priori_checks = 0;
  nlohmann::json inputs = nlohmann::json::array();  // each family's x, for the kernel to recompute the bounds
  for (const InputFamily& family : params.inputs) {
    Tokens x = family_input(family, S, params.length, rng);
    inputs.push_back({{"input", family.name}, {"x", format_input(c.model(), x)}});
    for (std::size_t k = 0; k < c.models.size(); ++k) {
      const SimulationErrorBound bounder(layers[k], x, params.bound_terms);
      const Output fx = evals[k].evaluate(x);
      for (std::uint64_t n : targets) {
        if (n < 2 * (tau + 1) || n >= x.size()) continue;
        const Subsampled s =
            subsample_c_good(x, n, c.models[k], bounder, constants[k], params.seeds, params.bound_terms.same_residue);
        if (s.too_short) {
          r.evidence["rows"] = rows;
          r.evidence["inputs"] = inputs;
          r.verdict = Verdict::Undecided;
          r.detail = fmt::format("model {} on x (|x| = {}, {}) at n = {}: the subsampler's z (seed {}) has length {}, "
                                 "below n0 = {}, where the simulation-error bound starts",
                                 k == 0 ? "f" : "g", x.size(), family.name, n, s.seed, s.z.size(), constants[k].start);
          return r;
        }
        const SimulationBound& b = s.bound;
        const Interval a_priori = constants[k].bound(s.z.size());
        Number error = max_abs_difference(fx, evals[k].evaluate(s.z));
        const bool cheap_within = upper_of(error) <= b.total && (!s.c_good || upper_of(error) <= a_priori.lower());
        if (!cheap_within)  // a failure is decided on the full-precision enclosures
          error = max_abs_difference(evals[k].precise_evaluate(x), evals[k].precise_evaluate(s.z));
        ++checks;
        if (s.c_good) ++a_priori_checks;
        if (smallest_bound < 0 || b.total < smallest_bound) smallest_bound = b.total;
        if (s.c_good && (smallest_a_priori < 0 || a_priori.lower() < smallest_a_priori)) smallest_a_priori = a_priori.lower();
        auto [it, fresh] = all_within.emplace(n, true);
        it->second = it->second && upper_of(error) <= params.epsilon;
        rows.push_back({{"model", k == 0 ? "f" : "g"}, {"input", family.name}, {"n", n}, {"length_z", s.z.size()},
                        {"z", format_input(c.model(), s.z)},
                        {"seed", s.seed}, {"c_good", s.c_good}, {"error", show(error, 6)},
                        {"bound", to_decimal(b.total, 6)}, {"a_priori_bound", s.c_good ? a_priori.upper_decimal(6) : "-"},
                        {"statistic_error", to_decimal(b.statistic_error, 6)},
                        {"histogram_drift", to_decimal(b.histogram_drift, 6)}});
        if (b.total > 0) slack = std::max(slack, Rational(upper_of(error) / b.total));
        const bool within_bound = upper_of(error) <= b.total;
        const bool within_a_priori = !s.c_good || upper_of(error) <= a_priori.lower();
        if (within_bound && within_a_priori) continue;
        r.evidence["rows"] = rows;
        r.evidence["inputs"] = inputs;
        const bool certain = within_bound ? lower_of(error) > a_priori.upper() : lower_of(error) > b.total;
        r.verdict = certain ? Verdict::Refuted : Verdict::Undecided;
        r.detail = fmt::format(
            "model {} on x (|x| = {}, {}), z from the subsampler (seed {}, |z| = {}): |f(x) - f(z)| = {} exceeds {}",
            k == 0 ? "f" : "g", x.size(), family.name, s.seed, s.z.size(), show(error, 8),
            within_bound ? fmt::format("C(f) |z|^-{} = {} (C(f) = {}, z c-good)", to_string(constants[k].rate),
                                       a_priori.upper_decimal(8), constants[k].C.upper_decimal(8))
                         : "the simulation-error bound " + to_decimal(b.total, 8));
        return r;
      }
    }
  }
  std::string reached = "none of the tested n";
  for (const auto& [n, ok] : all_within)
    if (ok) {
      reached = "n = " + std::to_string(n);
      break;
    }
  r.evidence["rows"] = rows;
  r.evidence["inputs"] = inputs;
  r.evidence["smallest_bound"] = to_decimal(smallest_bound, 6);
  r.evidence["eps_reached_at"] = reached;
  if (checks == 0) {
    r.verdict = Verdict::Undecided;
    r.detail = fmt::format("no (x, n) pair was checked: every target n is too short or not below |x| = {}", params.length);
    return r;
  }
  r.scope.samples = checks;
  r.scope.seed = params.seed;
  // Binding when some z was not c-good within the seeds: its a-priori check was skipped.
  r.scope.caps.push_back({"subsampler seeds tried for a c-good z", params.seeds, a_priori_checks < checks});
  r.scope.decided_by = "certified |f(x) - f(z)| against the simulation-error bound, and against C(f) |z|^-rate on c-good z";
  r.scope.slack = to_decimal(slack, 4) + " (largest |f(x) - f(z)| / simulation-error bound)";
  // Both bounds at least the outputs' a-priori range on every row: nothing checked could fail.
  // The largest of the models' ranges.
  std::optional<Rational> range = Rational(0);
  for (const Model& m : c.models) {
    const auto one = output_range(m);
    range = range && one ? std::optional<Rational>(std::max(*range, *one)) : std::nullopt;
  }
  if (range) {
    r.evidence["output_range"] = to_decimal(*range, 6);
    const Rational least = smallest_a_priori < 0 ? smallest_bound : std::min(smallest_bound, smallest_a_priori);
    if (least >= *range)
      r.scope.vacuous = fmt::format("every bound checked (the least {}) is at least the a-priori range {} of "
                                    "|f(x) - f(z)|", to_decimal(least, 4), to_decimal(*range, 4));
  }
  r.verdict = holding_verdict(r.scope);
  const bool second_phi = theorem.second_layer_margin != 1;
  r.detail = fmt::format(
      "|f(x) - f(z)| and |g(x) - g(z)| within the simulation-error bound on {} (x, n) checks (|x| = {}) and within "
      "C(f) n^-min({}) on the {} with a c-good z; smallest bound {}; both within eps = {} first at {} (measured) against "
      "N_variant_A = {} (conditional on a c-good z at every length{}), N_variant_B = {} (C = {})",
      checks, params.length, second_phi ? "gamma,1/3,gamma2" : "gamma,1/3", a_priori_checks,
      to_decimal(smallest_bound, 4), to_string(params.epsilon), reached, readable(theorem.N_variant_A),
      theorem.period == 1 ? "" : fmt::format(" with |x|'s residue mod {}", theorem.period),
      readable(theorem.N_variant_B), to_decimal(theorem.C, 4));
  return r;
}


// The claim and the mutations that must break it (claims/claim.hpp).
namespace {

constexpr const char* kRarePair = "section5/attention_pair_rare.json";
constexpr const char* kSharpPair = "section5/attention_pair_sharp.json";
constexpr const char* kSecondPhiPair = "section5/attention_pair_second_phi.json";
constexpr const char* kPeriod2Pair = "section5/attention_pair_period2.json";
constexpr const char* kTwoHeadsMlpPair = "section5/attention_pair_two_heads_mlp.json";
constexpr const char* kDominantPair = "section5/attention_pair_second_dominant.json";
constexpr const char* kSecondHeadPair = "section5/attention_pair_second_head.json";

constexpr ParamsMutation<Simulation52Params> simulation52_mutation{
    kSimulation52Id, simulation52_params, check_simulation52};

}  // namespace

ClaimDeclaration simulation52_declaration() {
  const auto check = [](const Case& c) { return check_simulation52(c, simulation52_params(c)); };
  const std::string shows = "exceeds the simulation-error bound";
  return {{kSimulation52Id,
           "two-layer softmax pairs: the subsampled z has |f(x) - f(z)| and |g(x) - g(z)| within the toolkit's "
           "explicit simulation-error bound",
           "softmax", "docs/theory.md#the-simulation-error-bound-toolkit", is_simulation52_case, named(check),
           rerun(check)},
          {simulation52_mutation({"bound without e^A", "the simulation-error bound without its exponential factors "
                                  "e^(A_g)", shows, kSharpPair},
                                 [](Simulation52Params& p) { p.bound_terms.exponential = false; }),
           simulation52_mutation({"C(f) without e^A", "C(f) without its exponential factors e^(A_g) (the bound C(f) "
                                  "n^-min(gamma,1/3) on c-good z)", "exceeds C(f)", kRarePair},
                                 [](Simulation52Params& p) { p.complexity_with_exponential = false; }),
           simulation52_mutation({"second-layer window keys weighed 1", "the simulation-error bound with each "
                                  "second-layer window key weighed 1 (W_L = tau + 1) although the query's own key "
                                  "weighs L^(3/4)", shows, kSecondPhiPair},
                                 [](Simulation52Params& p) { p.bound_terms.window_weight = false; }),
           simulation52_mutation({"z of any parity", "the simulation-error bound applied to z from the position-wise "
                                  "chain (|z| of either parity) on a period-2 pair, as if z's query window had x's "
                                  "residues", shows, kPeriod2Pair},
                                 [](Simulation52Params& p) { p.bound_terms.same_residue = false; }),
           simulation52_mutation({"Lip_out without the MLP", "the simulation-error bound with Lip_out = |U| (the second "
                                  "MLP's factor 1 + |out| |in| dropped) on a pair whose MLP multiplies the output slot "
                                  "by 20", shows, kTwoHeadsMlpPair},
                                 [](Simulation52Params& p) { p.bound_terms.mlp_term = false; }),
           simulation52_mutation({"position-dominant bulk charged nothing", "the simulation-error bound without the "
                                  "share L^(1 - Phi) of the bulk keys, as if the query's own key (phi = 3/2) took all "
                                  "the attention", shows, kDominantPair},
                                 [](Simulation52Params& p) { p.bound_terms.vanishing_share = false; }),
           simulation52_mutation({"second head charged nothing", "the simulation-error bound summing the first "
                                  "second-layer head's term only, on a pair whose second head (phi = 3/2, value 4) "
                                  "moves the output and whose first head barely does", shows, kSecondHeadPair},
                                 [](Simulation52Params& p) { p.bound_terms.every_head = false; })}};
}

}  // namespace lgc
