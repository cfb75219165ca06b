// T4.1.sim: the toolkit's construction keeps |f(x) − f(z)| <= ε (and the same
// for g) with |z| <= N_sim, on every statistic up to a length and on long
// random inputs.
#include "claims/section4/theorem41.hpp"
#include "claims/declarations.hpp"

#include "claims/agreement.hpp"

#include "lgcheck/bounds/theorem41.hpp"
#include "lgcheck/enumerate/ordered_search.hpp"
#include "lgcheck/enumerate/strings.hpp"
#include "lgcheck/enumerate/visit_digest.hpp"
#include "lgcheck/simulate/simulation_error.hpp"

#include <fmt/format.h>

namespace lgc {

namespace {

/// One hard input for the error lemma (docs/theory.md, "The simulation
/// construction"): window and query all token b, the bulk class (b, residue 0)
/// holding about V positions, every other class of a token other than a once,
/// token a the rest. Where a is a free absorber the construction scales V down
/// to about Q and keeps each singleton and window slot at 1, which costs about
/// 2/Q each in ‖ω_h(x) − ω_h(z)‖₁: the error the lemma's numerator pays for.
Statistic resolution_hard_input(const Shape& shape, std::size_t a, std::size_t b, std::uint64_t bulk) {
  const std::size_t S = shape.alphabet_size, period = shape.period;
  Statistic x;
  x.length = bulk + shape.locality + 1;
  x.window.assign(shape.locality + 1, static_cast<int>(b));
  x.counts.assign(shape.classes(), 0);
  for (std::size_t r = 0; r < period; ++r) {
    std::uint64_t left = residue_count(bulk, period, r);
    for (std::size_t s = 0; s < S; ++s)
      if (s != a && !(r == 0 && s == b)) x.counts[s * period + r] = 1, --left;
    x.counts[(r == 0 ? b : a) * period + r] += left;
  }
  return x;
}

/// The hard inputs: every ordered pair of tokens (a, b) (at most 8 of each)
/// and V = m·Q(τ+1) for m = 2, 16, at least `min_length` long.
std::vector<Statistic> resolution_hard_inputs(const Shape& shape, const Integer& Q, std::uint64_t min_length) {
  std::vector<Statistic> inputs;
  const std::size_t S = std::min<std::size_t>(shape.alphabet_size, 8);
  const Integer window(static_cast<unsigned long>(shape.locality + 1));
  for (unsigned long m : {2ul, 16ul}) {
    const Integer per_residue = Q * window * m + shape.alphabet_size;
    const Integer bulk = per_residue * static_cast<unsigned long>(shape.period);
    if (shape.alphabet_size < 2 || bulk > Integer(std::uint64_t{1} << 40)) continue;  // beyond any statistic we evaluate
    const std::uint64_t B = std::max<std::uint64_t>(bulk.convert_to<std::uint64_t>(),
                                                    min_length > shape.locality + 1 ? min_length - shape.locality - 1 : 0);
    for (std::size_t a = 0; a < S; ++a)
      for (std::size_t b = 0; b < S; ++b)
        if (a != b) inputs.push_back(resolution_hard_input(shape, a, b, B));
  }
  return inputs;
}

}  // namespace

SimulationParams simulation_params(const Case& c) {
  SimulationParams p;
  p.epsilon = c.check_rational("epsilon", p.epsilon);
  p.max_length = std::min<std::uint64_t>(c.check_count("max_length", p.max_length), 16);
  p.seed = c.check_count("seed", p.seed);
  return p;
}

ClaimResult check_simulation(const Case& c, const SimulationParams& params) {
  CaseModels cm = section4_models(c);
  const unsigned p = cm.precision_bits;
  Theorem41Bounds bounds = theorem41_bounds(cm.models, params.epsilon, p);
  // z is padded to the threshold: beyond 2^62 positions it cannot be built.
  if (auto beyond = threshold_beyond_statistics(kSimulationId, c, bounds.threshold)) return *beyond;
  Integer n_sim = bounds.sim.N;
  if (params.drop_padding) n_sim = simulation_length_bound(cm.models, bounds.delta, 1).N;
  Integer claimed = floor(Rational(Rational(n_sim) * params.length_bound_scale));
  const Shape shape = cm.models.front()->shape();
  SimulationOptions options;
  options.resolution_override = params.resolution_override;
  options.no_intervals = params.no_intervals;
  const Integer resolution = params.resolution_override > 0 ? params.resolution_override
                                                            : simulation_resolution(shape, bounds.delta);
  if (params.resolution_scale != 1)
    options.resolution_override = std::max(Integer(1), floor(Rational(Rational(resolution) * params.resolution_scale)));

  ClaimResult result;
  result.id = kSimulationId;
  result.case_name = c.name;
  std::uint64_t checked = 0, undecided = 0, longest = 0;
  Rational worst_distance = 0;
  std::optional<std::string> failure;
  nlohmann::json witnesses = nlohmann::json::array();  // every (x, z): a replay needs no construction
  auto record = [&](const Statistic& x, const Statistic& z, bool holds) {
    witnesses.push_back({{"kind", "simulation"}, {"x", statistic_to_json(x)}, {"z", statistic_to_json(z)},
                         {"expect", holds ? "holds" : "violates"}});
  };
  // One input: the construction (or the recorded z) and its error
  // (thread-safe: the models and the recorded map are only read).
  struct Item {
    Statistic x;
    SimulationOutcome out;
    std::optional<std::string> missing;  // replay: no recorded z for x
    bool fails(const Integer& bound) const {
      return missing || Integer(out.simulation.z.length) > bound || (out.within && !*out.within);
    }
  };
  auto measure = [&](const Statistic& x) {
    Item item{x, {}, std::nullopt};
    if (params.recorded) {
      auto it = params.recorded->find(statistic_to_json(x).dump());
      if (it == params.recorded->end())
        item.missing = fmt::format("no recorded z for x: {}", describe(shape, x, cm.models.front()->model()));
      else
        item.out = measure_simulation(cm.models, x, it->second, params.epsilon, p);
    } else {
      item.out = simulate_and_measure(cm.models, x, params.epsilon, bounds.delta, p, bounds.threshold, options);
    }
    return item;
  };
  // The inputs in order: counts, witnesses and the first failure.
  auto account = [&](const Item& item) {
    const Statistic& x = item.x;
    const SimulationOutcome& out = item.out;
    if (item.missing) {
      failure = *item.missing;
      return false;
    }
    ++checked;
    longest = std::max(longest, out.simulation.z.length);
    worst_distance = std::max(worst_distance, out.attention_distance);
    const Model& f = cm.models.front()->model();
    if (Integer(out.simulation.z.length) > claimed && !failure) {
      failure = fmt::format("|z| = {} > N_sim = {} for x: {}", out.simulation.z.length, claimed.str(), describe(shape, x, f));
      record(x, out.simulation.z, false);
    }
    if (out.within && !*out.within && !failure) {
      record(x, out.simulation.z, false);
      failure = fmt::format("error {} > epsilon = {} for x: {} (z: {})",
                            show(out.error),
                            to_string(params.epsilon), describe(shape, x, f), describe(shape, out.simulation.z, f));
    }
    // The error lemma the bound rests on: every head within δ, but one that
    // weighs one value at x and the same at z (attention_distance).
    if (out.attention_distance > bounds.delta && !failure) {
      record(x, out.simulation.z, false);
      failure = fmt::format("attention distance max_h |w_h(x) - w_h(z)|_1 (heads not of one same value at x and z) "
                            "= {} > delta = {} for x: {} (z: {})",
                            to_string(out.attention_distance), to_string(bounds.delta), describe(shape, x, f),
                            describe(shape, out.simulation.z, f));
    }
    if (!failure) record(x, out.simulation.z, true);
    if (!out.within) ++undecided;
    return !failure;
  };
  // Exhaustive: every statistic of every length up to max_length (for finite:p
  // models: the lengths from the threshold on), split over the threads and
  // accounted in enumeration order up to the first failure.
  const std::uint64_t start = p > 0 && bounds.threshold > 1 ? static_cast<std::uint64_t>(bounds.threshold) : 1;
  std::uint64_t exhaustive_to = 0;
  VisitDigest visited;  // every statistic whose z was measured at the exhaustive lengths
  for (std::uint64_t T = start; T <= start + params.max_length - 1 && !failure; ++T) {
    const std::uint64_t count = statistic_count(shape, T);
    if (count > params.statistic_budget || checked + count > params.max_exhaustive_inputs) break;
    OrdinalLog<Item> items;
    const auto first = first_statistic_where(shape, T, 0, [&](const Statistic& x, std::uint64_t ordinal) {
      Item item = measure(x);
      visited.add(x);
      const bool stop = item.fails(claimed);
      items.add(ordinal, std::move(item));
      return stop;
    });
    for (const auto& [ordinal, item] : items.up_to(first ? *first : count - 1)) account(item);
    exhaustive_to = T;
  }
  const std::uint64_t exhaustive_checked = checked;
  // The error lemma's hard inputs, at the construction's Q.
  const std::vector<Statistic> hard =
      params.hard_inputs
          ? resolution_hard_inputs(shape, options.resolution_override > 0 ? options.resolution_override : resolution, start)
          : std::vector<Statistic>{};
  for (std::size_t k = 0; k < hard.size() && !failure; ++k) account(measure(hard[k]));
  // Random long inputs, lengths log-uniform up to max_random_length (and from
  // the threshold on for finite:p).
  std::mt19937_64 rng(params.seed);
  const std::uint64_t top = std::max<std::uint64_t>(params.max_random_length, 4 * start);
  for (std::size_t k = 0; k < params.random_inputs && !failure; ++k)
    account(measure(random_statistic(shape, log_uniform_integer(start, top, rng), rng)));
  result.evidence = {{"epsilon", to_string(params.epsilon)}, {"delta", to_string(bounds.delta)},
                     {"N_sim", claimed.str()},             {"longest_z", longest},
                     {"checked", checked},                 {"worst_attention_distance", to_string(worst_distance)},
                     {"seed", params.seed},
                     {"N_sim_claimed", claimed.str()},
                     {"witnesses", witnesses}};
  if (failure) {
    result.verdict = Verdict::Refuted;
    result.detail = *failure;
  } else if (undecided > 0) {
    result.verdict = Verdict::Undecided;
    result.detail = fmt::format("{} of {} errors could not be compared with epsilon", undecided, checked);
  } else {
    Scope& scope = result.scope;
    if (exhaustive_to >= start) {
      scope.domain = fmt::format("every statistic of length {}..{}", start, exhaustive_to);
      result.evidence["visited"] = visited.to_json();
    }
    scope.exhaustive = exhaustive_checked;
    scope.samples = checked - exhaustive_checked;
    scope.seed = params.seed;
    scope.caps.push_back({fmt::format("statistics per length, and inputs in all (up to {}), on lengths {}..{}",
                                      params.max_exhaustive_inputs, start, start + params.max_length - 1),
                          params.statistic_budget, exhaustive_to < start + params.max_length - 1});
    scope.decided_by = "exact comparison of the error with epsilon, of the attention distance with delta and of |z| "
                       "with N_sim";
    const Rational distance_ratio = bounds.delta > 0 ? worst_distance / bounds.delta : Rational(0);
    const Rational length_ratio = claimed > 0 ? Rational(Integer(longest), claimed) : Rational(0);
    scope.slack = fmt::format("{} (worst max_h |w_h(x) - w_h(z)|_1 / delta); {} (longest |z| / N_sim)",
                              to_decimal(distance_ratio, 4), to_decimal(length_ratio, 4));
    result.verdict = holding_verdict(scope);
    std::string exhaustive = exhaustive_to >= start
                                 ? fmt::format("every statistic of length {}..{}", start, exhaustive_to)
                                 : fmt::format("no length from {} within the statistic budget", start);
    result.detail = fmt::format("error <= {}, attention distance <= delta and |z| <= N_sim = {} on {} inputs ({}, {} "
                                "constructed for the error lemma, {} random up to T = {}); longest z {}, worst attention "
                                "distance {} (delta = {})",
                                to_string(params.epsilon), claimed.str(), checked, exhaustive, hard.size(),
                                params.random_inputs, top, longest, to_string(worst_distance), to_string(bounds.delta));
  }
  return result;
}

ClaimResult replay_simulation(const Case& c, const nlohmann::json& evidence) {
  CaseModels cm = section4_models(c);
  const Shape shape = cm.models.front()->shape();
  std::map<std::string, Statistic> recorded;
  for (const auto& w : evidence.value("witnesses", nlohmann::json::array()))
    if (w.value("kind", "") == "simulation") {
      Statistic x = statistic_from_json(shape, w.at("x"));
      recorded[statistic_to_json(x).dump()] = statistic_from_json(shape, w.at("z"));
    }
  SimulationParams params = simulation_params(c);
  params.recorded = &recorded;
  return check_simulation(c, params);
}


// The claim and the mutations that must break it (claims/claim.hpp).
namespace {

constexpr const char* kModp3 = "paper/modp/modp_p3_hardmax.json";
constexpr const char* kMargin = "section4/modp_p3_finite6_margin1_2.json";
constexpr const char* kTwoPatternPair = "pairs/modp_p2_two_pattern_pair.json";
constexpr const char* kWindowWide = "section4/window_wide.json";

/// A mutation on 300 random inputs (unless `edit` says otherwise).
Mutation simulation_mutation(MutationText text, std::function<void(SimulationParams&)> edit) {
  return edited_params_mutation<SimulationParams>(kSimulationId, std::move(text), simulation_params, check_simulation,
                                                  [edit](SimulationParams& p) {
                                                    p.random_inputs = 300;
                                                    edit(p);
                                                  });
}

}  // namespace

ClaimDeclaration simulation_declaration() {
  const auto replay = [](const Case& c, const nlohmann::json& evidence) {
    ClaimResult r = replay_simulation(c, evidence);
    r.case_name = c.name;
    return r;
  };
  return {{kSimulationId, "the construction's z has |f(x) - f(z)| <= eps (f and g) and |z| <= N_sim(eps)",
           "hardmax or finite:p", "docs/theory.md#the-simulation-construction-toolkit", is_section4_case,
           named([](const Case& c) { return check_simulation(c, simulation_params(c)); }), replay},
          {simulation_mutation({"N_sim halved", "the construction's length bound divided by 2", "> N_sim", kModp3},
                               [](SimulationParams& p) { p.length_bound_scale = Rational(1, 2); }),
           simulation_mutation({"2^(p/gamma) padding dropped", "N_sim without the finite:p padding term 2t + D(S+1)",
                                "> N_sim", kMargin},
                               [](SimulationParams& p) {
                                 p.drop_padding = true;
                                 p.random_inputs = 50;
                               }),
           simulation_mutation({"resolution Q = 2", "the construction run with Q = 2 instead of "
                                "(5K+7S+2tau+6)/delta", "> epsilon", kModp3},
                               [](SimulationParams& p) { p.resolution_override = 2; }),
           simulation_mutation({"resolution Q/4", "the construction run with Q/4 (N_sim kept): its error lemma needs "
                                "the full (5K+7S+2tau+6)/delta", "> delta = ", kWindowWide},
                               [](SimulationParams& p) { p.resolution_scale = Rational(1, 4); }),
           simulation_mutation({"N_sim halved (one-value head)", "the anchored length bound divided by 2 on a pair "
                                "whose second head weighs one value (its two patterns count as one)", "> N_sim",
                                kTwoPatternPair},
                               [](SimulationParams& p) { p.length_bound_scale = Rational(1, 2); }),
           simulation_mutation({"every head taken as one value", "the construction keeps no head's count ratios, as if "
                                "every head weighed one value", "> epsilon", kWindowWide},
                               [](SimulationParams& p) { p.no_intervals = true; })}};
}

}  // namespace lgc
