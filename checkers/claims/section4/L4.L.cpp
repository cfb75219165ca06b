// L4.L: for x, z with the same query residue and window,
// |f(x) − f(z)|∞ <= L(f)·max_h ‖ω_h(x) − ω_h(z)‖₁ (hardmax, exact; a sin
// readout is compared through certified enclosures).
#include "claims/section4/theorem41.hpp"
#include "claims/declarations.hpp"

#include "claims/agreement.hpp"

#include "lgcheck/enumerate/ordered_search.hpp"
#include "lgcheck/enumerate/strings.hpp"
#include "lgcheck/enumerate/visit_digest.hpp"
#include "lgcheck/simulate/construction.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <mutex>
#include <tuple>

namespace lgc {
namespace {

struct NormCheck {
  NormCheck(const OneLayerEvaluator& m, std::size_t i, Rational l, nlohmann::json* w)
      : model(m), index(i), L(std::move(l)), witnesses(w) {}

  const OneLayerEvaluator& model;
  std::size_t index;  ///< which model of the case
  Rational L;
  std::uint64_t pairs = 0, undecided = 0;
  std::optional<std::string> counterexample;
  nlohmann::json* witnesses;
  bool keep = false;  ///< record holding pairs (the first few long ones)
  VisitDigest visited;  ///< the enumerated pairs measured (docs/kernel.md "Visit digests")
  /// The largest |f(x) - f(z)| / (L * distance) met (upper end of the
  /// error's enclosure); order-independent, so the same for any thread count.
  mutable std::mutex slack_lock;
  mutable Rational slack = 0;

  void note_slack(const Number& error, const Rational& bound) const {
    if (bound <= 0) return;
    Rational ratio = upper_of(error) / bound;
    std::lock_guard<std::mutex> lock(slack_lock);
    if (ratio > slack) slack = ratio;
  }

  void record(const Statistic& x, const Statistic& z, bool holds) {
    witnesses->push_back({{"kind", "norm_pair"}, {"model", index}, {"L", to_string(L)}, {"x", statistic_to_json(x)},
                          {"z", statistic_to_json(z)}, {"expect", holds ? "holds" : "violates"}});
  }

  /// The comparison of one pair (thread-safe: reads the model only).
  using Measured = NormPairMeasure;
  Measured measure(const Statistic& x, const Statistic& z) const {
    Measured m = measure_norm_pair(model, L, x, z);
    note_slack(m.error, L * m.distance);
    return m;
  }

  /// Counts the pair, in order, and keeps the first counterexample.
  void account(const Statistic& x, const Statistic& z, const Measured& m) {
    ++pairs;
    if (!m.order) ++undecided;
    else if (*m.order <= 0 && keep) record(x, z, true);
    else if (*m.order > 0 && !counterexample) {
      record(x, z, false);
      const Shape& shape = model.shape();
      counterexample = fmt::format("x: {}, z: {}: |f(x) - f(z)| = {} > L * max_h |w_h(x) - w_h(z)|_1 = {} * {}",
                                   describe(shape, x, model.model()), describe(shape, z, model.model()),
                                   show(m.error), to_string(L), to_string(m.distance));
    }
  }

  void run(const Statistic& x, const Statistic& z) { account(x, z, measure(x, z)); }

  /// Every pair in order, split over the threads: accounted in order up to
  /// the first counterexample, so the result is the same for any thread count.
  void run_all(const std::vector<std::pair<const Statistic*, const Statistic*>>& list) {
    using Pair = std::pair<const Statistic*, const Statistic*>;
    const Walk<Pair> walk = [&](const std::function<bool(const Pair&)>& visit) {
      for (const Pair& pair : list)
        if (!visit(pair)) return;
    };
    OrdinalLog<Measured> noted;  // the undecided pairs and counterexamples
    const auto first = first_where<Pair>(0, list.size(), walk, [&](const Pair& pair, std::uint64_t ordinal) {
      Measured m = measure(*pair.first, *pair.second);
      visited.add(index, *pair.first, *pair.second);
      const bool stop = m.order && *m.order > 0;
      if (stop || !m.order) noted.add(ordinal, std::move(m));
      return stop;
    });
    if (list.empty()) return;
    const std::uint64_t last = first ? *first : list.size() - 1;
    const auto kept = noted.up_to(last);
    pairs += last + 1 - kept.size();  // the holding pairs; account() counts the others
    for (const auto& [ordinal, m] : kept) account(*list[ordinal].first, *list[ordinal].second, m);
  }
};

/// The pairs of statistics compared inside the (window, residue) groups.
struct PairSelection {
  std::vector<std::pair<const Statistic*, const Statistic*>> pairs;
  std::uint64_t total = 0;           ///< pairs in all groups
  std::uint64_t groups = 0;          ///< groups with at least one pair
  std::uint64_t groups_covered = 0;  ///< groups with at least one pair selected
};

/// Every pair of every group when they number at most `cap`; otherwise every
/// k-th pair of each group (k = ceil(total / cap), the first pair of every
/// group included), so that every group is represented and the cap is met.
template <class Groups>
PairSelection select_pairs(const Groups& groups, std::uint64_t cap) {
  PairSelection out;
  for (const auto& [key, members] : groups) {
    const std::uint64_t n = members.size();
    out.total += n * (n - 1) / 2;
    if (n > 1) ++out.groups;
  }
  const std::uint64_t stride = out.total <= cap ? 1 : (out.total + cap - 1) / cap;
  for (const auto& [key, members] : groups) {
    std::uint64_t index = 0;
    bool covered = false;
    for (std::size_t i = 0; i < members.size(); ++i)
      for (std::size_t j = i + 1; j < members.size(); ++j, ++index)
        if (index % stride == 0) {
          out.pairs.emplace_back(&members[i], &members[j]);
          covered = true;
        }
    if (covered) ++out.groups_covered;
  }
  return out;
}

/// The key of a group: pairs are compared only inside one (window, T mod Δ).
std::pair<Tokens, std::uint64_t> group_key(const Statistic& s, std::size_t period) {
  return {s.window, s.length % period};
}

/// A group's statistics in the order the every-k-th rule counts pairs in (theory.md "The pairs L4.L compares"):
/// by length, then by the counts n_{s,r} (at s·Δ + r) lexicographically.
void sort_group(std::vector<Statistic>& members) {
  std::sort(members.begin(), members.end(), [](const Statistic& a, const Statistic& b) {
    return std::tie(a.length, a.counts) < std::tie(b.length, b.counts);
  });
}

}  // namespace

NormPairMeasure measure_norm_pair(const OneLayerEvaluator& model, const Rational& L, const Statistic& x,
                                  const Statistic& z) {
  NormPairMeasure m;
  m.distance = 0;
  for (std::size_t h = 0; h < model.heads(); ++h)
    m.distance = std::max(m.distance, l1_distance(model.attention(h, x), model.attention(h, z)));
  // A sin readout encloses f(x) and f(z); where the readout's arguments agree exactly, the outputs are equal and the
  // difference is the exact 0 (output_distance; else a bound of 0 could never be met).
  m.error = output_distance(model, x, model, z);
  m.order = compare(m.error, Number(L * m.distance));
  return m;
}

NormParams norm_params(const Case& c) {
  NormParams p;
  p.max_length = std::min<std::uint64_t>(c.check_count("max_length", p.max_length), 12);
  p.seed = c.check_count("seed", p.seed);
  return p;
}

ClaimResult check_norm(const Case& c, const NormParams& params) {
  CaseModels cm = section4_models(c);
  ClaimResult result;
  result.id = kNormId;
  result.case_name = c.name;
  std::uint64_t pairs = 0, undecided = 0, enumerated_pairs = 0, total_pairs = 0, total_groups = 0, covered_groups = 0;
  std::uint64_t random_checked = 0;
  Rational slack = 0;
  VisitDigest visited;
  std::mt19937_64 rng(params.seed);
  std::string constants;
  nlohmann::json witnesses = nlohmann::json::array();
  for (std::size_t mi = 0; mi < cm.models.size(); ++mi) {
    const OneLayerEvaluator* m = cm.models[mi];
    NormConstant nc = norm_constant(m->model(), params.norm);
    constants += (constants.empty() ? "" : ", ") + to_string(nc.L);
    NormCheck check(*m, mi, nc.L, &witnesses);
    const Shape shape = m->shape();
    // All pairs of small statistics inside each (window, residue) group.
    std::map<std::pair<Tokens, std::uint64_t>, std::vector<Statistic>> groups;
    for (std::uint64_t T = 1; T <= params.max_length; ++T)
      for_each_statistic(shape, T, [&](const Statistic& s) {
        groups[group_key(s, shape.period)].push_back(s);
        return true;
      });
    for (auto& [key, members] : groups) sort_group(members);
    const PairSelection selection = select_pairs(groups, params.max_pairs);
    const auto& list = selection.pairs;
    total_pairs += selection.total;
    total_groups += selection.groups;
    covered_groups += selection.groups_covered;
    check.run_all(list);
    enumerated_pairs += check.pairs;
    // Long random inputs: against their simulation and against a random
    // statistic with the same window and residue.
    check.keep = true;
    for (std::size_t k = 0; k < params.random_pairs && !check.counterexample; ++k) {
      Statistic x = random_statistic(shape, uniform_integer(shape.locality + 2, 1000000, rng), rng);
      check.run(x, simulate({m}, x, Rational(1, 4)).z);
      std::uint64_t other = x.length % shape.period + shape.period * uniform_integer(1, 100000, rng) + shape.locality + 1;
      while (other % shape.period != x.length % shape.period) ++other;
      Statistic y = random_statistic(shape, other, rng);
      y.window = x.window;
      check.run(x, y);
      random_checked += 2;
    }
    slack = std::max(slack, check.slack);
    visited.add(check.visited);
    pairs += check.pairs;
    undecided += check.undecided;
    if (check.counterexample) {
      result.verdict = Verdict::Refuted;
      result.detail = fmt::format("{}: {}", m->model().name, *check.counterexample);
      result.evidence = {{"L", to_string(nc.L)}, {"pairs", pairs}, {"witnesses", witnesses}};
      return result;
    }
  }
  result.evidence = {{"L", constants},
                     {"pairs", pairs},
                     {"seed", params.seed},
                     {"visited", visited.to_json()},
                     {"witnesses", witnesses}};
  Scope& scope = result.scope;
  scope.domain = fmt::format("pairs of statistics of length <= {} with the same window and residue ({} of {} pairs, "
                             "{} of {} groups)",
                             params.max_length, enumerated_pairs, total_pairs, covered_groups, total_groups);
  scope.exhaustive = enumerated_pairs;
  scope.samples = random_checked;
  scope.seed = params.seed;
  scope.caps.push_back({"pairs compared per model (every k-th pair of each group beyond it)", params.max_pairs,
                        enumerated_pairs < total_pairs});
  scope.decided_by = "exact comparison of |f(x) - f(z)| with L * max_h |w_h(x) - w_h(z)|_1";
  scope.slack = to_decimal(slack, 4) + " (largest |f(x) - f(z)| / (L * distance))";
  if (undecided > 0) {
    result.verdict = Verdict::Undecided;
    result.detail = fmt::format("{} of {} pairs undecided", undecided, pairs);
  } else {
    result.verdict = holding_verdict(scope);
    result.detail = fmt::format("|f(x) - f(z)| <= L * max_h |w_h(x) - w_h(z)|_1 with L = {} on {} pairs ({} of the {} "
                                "pairs of statistics up to length {} per window and residue, in {} of {} groups; {} long "
                                "random pairs); largest ratio {}",
                                constants, pairs, enumerated_pairs, total_pairs, params.max_length, covered_groups,
                                total_groups, random_checked, to_decimal(slack, 4));
  }
  return result;
}


// The claim and the mutations that must break it (claims/claim.hpp).
namespace {

constexpr const char* kRelu8 = "paper/simple/simple_w8_relu.json";
constexpr const char* kSin8 = "paper/simple/simple_w8_sin.json";

Mutation norm_mutation(MutationText text, std::function<void(NormOptions&)> edit) {
  return edited_params_mutation<NormParams>(kNormId, std::move(text), norm_params, check_norm,
                                            [edit](NormParams& p) { edit(p.norm); });
}

}  // namespace

ClaimDeclaration norm_declaration() {
  const auto check = [](const Case& c) { return check_norm(c, norm_params(c)); };
  const std::string shows = "> L * max_h |w_h(x) - w_h(z)|_1";
  return {{kNormId, "|f(x) - f(z)| <= L(f) * max_h |w_h(x) - w_h(z)|_1 for x, z with the same window and residue",
           "hardmax", "docs/theory.md#norm-constant-l-toolkit-definition", is_section4_case, named(check),
           rerun(check)},
          {norm_mutation({"L without the MLP term", "Lip(R) = |U| instead of |U|(1 + |B||A|)", shows, kRelu8},
                         [](NormOptions& o) { o.include_mlp_term = false; }),
           norm_mutation({"L without |omega|", "the sin readout's Lipschitz factor |omega| dropped", shows, kSin8},
                         [](NormOptions& o) { o.include_sin_factor = false; })}};
}

}  // namespace lgc
