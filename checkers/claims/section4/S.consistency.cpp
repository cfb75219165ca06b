#include "claims/section4/consistency.hpp"
#include "claims/declarations.hpp"

#include "claims/case_models.hpp"

#include "claims/agreement.hpp"

#include "lgcheck/enumerate/ordered_search.hpp"
#include "lgcheck/enumerate/strings.hpp"
#include "lgcheck/enumerate/visit_digest.hpp"
#include "lgcheck/quantities/logit_margin.hpp"
#include "lgcheck/semantics/finite_precision.hpp"
#include "lgcheck/semantics/forward.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <random>

namespace lgc {
namespace {

/// The two semantics compared at the queries of one input: the first
/// counterexample and the first undecidable position.
struct Outcome {
  std::uint64_t positions = 0;
  std::optional<ClaimResult> refutation;
  std::optional<std::string> undecided;
};

/// Compares hardmax and finite:p on inputs (thread-safe: no state but the model).
struct Comparison {
  Comparison(const Model& m, unsigned p) : model(m), hard{Semantics::hardmax()}, finite{Semantics::finite(p)} {}

  const Model& model;
  ForwardOptions hard, finite;

  Outcome run(const Tokens& x, const std::vector<std::size_t>& queries) const {
    Outcome out;
    if (queries.empty()) return out;
    auto h = representation_at(model, x, hard, queries);
    // Raise the precision of the finite:p enclosures until every position is
    // decided, up to the budget.
    ForwardOptions options = finite;
    std::vector<Vector<Number>> f;
    std::vector<Agreement> verdicts;
    while (true) {
      f = representation_at(model, x, options, queries);
      verdicts.clear();
      for (std::size_t q = 0; q < queries.size(); ++q) verdicts.push_back(agreement(h[q], f[q]));
      bool unknown = std::find(verdicts.begin(), verdicts.end(), Agreement::Unknown) != verdicts.end();
      if (!unknown || options.precision_bits * 2 > options.max_precision_bits) break;
      options.precision_bits *= 2;
    }
    for (std::size_t q = 0; q < queries.size(); ++q)
      record(out, x, queries[q], verdicts[q], h[q], f[q], options.precision_bits);
    return out;
  }

  void record(Outcome& out, const Tokens& x, std::size_t position, Agreement a, const Vector<Number>& h,
              const Vector<Number>& f, unsigned bits) const {
    ++out.positions;
    if (a == Agreement::Different && !out.refutation) {
      ClaimResult r;
      r.verdict = Verdict::Refuted;
      r.detail = fmt::format("at query position {} of \"{}\": {} gives {}, hardmax gives {}", position,
                             format_input(model, Tokens(x.begin(), x.begin() + static_cast<long>(position))),
                             finite.semantics.str(), show(f), show(h));
      r.evidence = {{"input", format_input(model, x)}, {"position", position}};
      r.evidence["witnesses"] = nlohmann::json::array(
          {{{"kind", "string_differs"}, {"input", format_input(model, x)}, {"position", position},
            {"p", finite.semantics.bits}, {"expect", "differs"}}});
      out.refutation = r;
    }
    if (a == Agreement::Unknown && !out.undecided)
      out.undecided = fmt::format("position {} of \"{}\" undecided at {} bits (budget)", position,
                                  format_input(model, x), bits);
  }
};

/// The outcomes of the inputs checked so far, in input order.
struct Tally {
  std::uint64_t positions = 0, strings = 0;
  std::optional<ClaimResult> refutation;
  std::optional<std::string> undecided;

  void add(const Outcome& o) {
    ++strings;
    positions += o.positions;
    note(o);
  }
  /// The first refutation and undecided position, counted elsewhere.
  void note(const Outcome& o) {
    if (o.refutation && !refutation) refutation = o.refutation;
    if (o.undecided && !undecided) undecided = o.undecided;
  }
};

std::vector<std::size_t> range(std::size_t from, std::size_t to) {
  std::vector<std::size_t> v;
  for (std::size_t i = from; i <= to; ++i) v.push_back(i);
  return v;
}

/// What a holding S.consistency covered: every string of length n (each a
/// prefix for the shorter ones) when the threshold is within it, and the
/// seeded random strings; VACUOUS when gamma = inf (no logit set has two
/// values, so no weight is ever rounded and finite:p is hardmax by definition).
Scope consistency_scope(const ConsistencyParams& params, std::size_t alphabet, const LogitMargin& margin,
                        const Integer& threshold, std::size_t n, bool exhaustive_reaches, std::size_t random_done) {
  Scope scope;
  if (exhaustive_reaches) {
    scope.domain = fmt::format("query positions {}..{} of every string of length {}", threshold.str(), n, n);
    const std::uint64_t queries = n - static_cast<std::uint64_t>(threshold) + 1;
    scope.exhaustive = string_count(alphabet, n) * queries;
  }
  scope.samples = random_done;
  if (random_done) scope.seed = params.seed;
  if (n < params.max_length)
    scope.caps.push_back({fmt::format("strings of the exhaustive length (max_length {} shortened to {})", params.max_length, n),
                          params.max_strings, true});
  scope.decided_by = "exact comparison of the finite:p and hardmax representations";
  if (!margin.gamma)
    scope.vacuous = "gamma = inf: every attainable-logit set has one value, so no attention weight is ever rounded";
  return scope;
}

}  // namespace

ConsistencyParams consistency_params(const Case& c) {
  ConsistencyParams p;
  p.p = rounding_bits(c, p.p);
  p.max_length = c.check_count("max_length", p.max_length);
  p.random_inputs = c.check_count("random_inputs", p.random_inputs);
  p.seed = c.check_count("seed", p.seed);
  return p;
}

ClaimResult check_consistency(const Model& model, const ConsistencyParams& params) {
  LogitMargin margin = logit_margin(model);
  auto rule = params.threshold ? params.threshold : hardmax_threshold;
  Integer threshold = margin.gamma ? rule(params.p, *margin.gamma) : Integer(1);
  if (threshold < 1) threshold = 1;

  const Comparison compare(model, params.p);
  Tally cmp;
  std::size_t n = params.max_length;
  while (n > 1 && string_count(model.alphabet_size(), n) > params.max_strings) --n;
  const bool exhaustive_reaches = threshold <= n;
  VisitDigest visited;  // every string of length n whose query positions were compared
  if (exhaustive_reaches) {
    // Every string of length n, split over the threads; the tally counts the
    // strings up to the first refutation in lexicographic order, as one thread would.
    const auto queries = range(static_cast<std::size_t>(threshold), n);
    OrdinalLog<Outcome> noted;
    const auto first = first_string_where(model.alphabet_size(), n, 0, [&](const Tokens& x, std::uint64_t ordinal) {
      Outcome o = compare.run(x, queries);
      visited.add(x);
      const bool stop = o.refutation.has_value();
      if (stop || o.undecided) noted.add(ordinal, std::move(o));
      return stop;
    });
    const std::uint64_t upto = first ? *first : string_count(model.alphabet_size(), n) - 1;
    cmp.strings += upto + 1;  // every string checks every query position
    cmp.positions += (upto + 1) * queries.size();
    for (const auto& [ordinal, o] : noted.up_to(upto)) cmp.note(o);
  }
  std::size_t random_done = 0;
  if (!cmp.refutation && threshold <= params.max_reach) {
    std::mt19937_64 rng(params.seed);
    auto t = static_cast<std::size_t>(threshold);
    for (; random_done < params.random_inputs && !cmp.refutation; ++random_done) {
      std::size_t length = std::max<std::size_t>(t, n + 1) + uniform_integer(0, params.random_span - 1, rng);
      cmp.add(compare.run(random_string(model.alphabet_size(), length, rng), range(t, length)));
    }
  }

  std::string gamma = margin.gamma ? to_string(*margin.gamma) : "inf";
  ClaimResult result;
  result.id = kConsistencyId;
  result.case_name = model.name;
  result.evidence = {{"p", params.p},       {"gamma", gamma},           {"threshold", threshold.str()},
                     {"max_length", n},     {"random_inputs", random_done}, {"seed", params.seed},
                     {"positions", cmp.positions}, {"strings", cmp.strings}};
  if (cmp.refutation) {
    result.verdict = Verdict::Refuted;
    result.detail = fmt::format("finite:{} != hardmax above the claimed threshold {}: {}", params.p, threshold.str(),
                                cmp.refutation->detail);
    result.evidence.update(cmp.refutation->evidence);
  } else if (cmp.undecided) {
    result.verdict = Verdict::Undecided;
    result.detail = *cmp.undecided;
  } else if (cmp.positions == 0) {
    result.verdict = Verdict::Undecided;
    result.detail = fmt::format("threshold {} (p={}, gamma={}) beyond reach: no query position checked", threshold.str(),
                                params.p, gamma);
  } else {
    result.scope = consistency_scope(params, model.alphabet_size(), margin, threshold, n, exhaustive_reaches, random_done);
    if (exhaustive_reaches) result.evidence["visited"] = visited.to_json();
    result.verdict = holding_verdict(result.scope);
    result.detail = fmt::format(
        "finite:{} = hardmax at all {} query positions i >= {} (gamma={}): {}{}", params.p, cmp.positions,
        threshold.str(), gamma,
        exhaustive_reaches ? fmt::format("every string of length <= {}", n)
                           : fmt::format("no string of length <= {} reaches the threshold", n),
        random_done ? fmt::format(", {} random strings of length {}..{} (seed {})", random_done,
                                  std::max<std::size_t>(static_cast<std::size_t>(threshold), n + 1),
                                  std::max<std::size_t>(static_cast<std::size_t>(threshold), n + 1) + params.random_span - 1,
                                  params.seed)
                    : std::string());
  }
  return result;
}


// The claim and the mutations that must break it (claims/claim.hpp).
namespace {

bool is_section4_model(const Case& c) { return !c.is_pair && is_section4_case(c); }

constexpr const char* kModp3 = "paper/modp/modp_p3_hardmax.json";
constexpr const char* kModp5Finite = "paper/modp/modp_p5_finite8.json";

Mutation consistency_mutation(MutationText text, std::function<Integer(unsigned, const Rational&)> rule,
                              bool exhaustive_only) {
  const char* file = text.case_file;
  return {kConsistencyId, std::move(text.name), std::move(text.description), file,
          [file, rule, exhaustive_only](const std::filesystem::path& dir) {
            const Case c = load_case(dir / file);
            ConsistencyParams p = consistency_params(c);
            p.threshold = rule;
            if (exhaustive_only) p.random_inputs = 0;
            return check_consistency(c.model(), p);
          },
          std::move(text.counterexample)};
}

}  // namespace

ClaimDeclaration consistency_declaration() {
  const auto check = [](const Case& c) { return check_consistency(c.model(), consistency_params(c)); };
  const std::string shows = "!= hardmax above the claimed threshold";
  return {{kConsistencyId, "one-layer models: finite:p equals hardmax at every query position i >= 2^{p/gamma}",
           "finite:p vs hardmax", "docs/theory.md#hardmax-threshold-paper-p5", is_section4_model, named(check),
           rerun(check)},
          {consistency_mutation({"threshold halved", "the threshold ceil(2^(p/gamma)) divided by 2", shows, kModp3},
                                [](unsigned p, const Rational& g) { return hardmax_threshold(p, g) / 2; }, false),
           consistency_mutation({"threshold off by one", "the threshold one position too early", shows, kModp3},
                                [](unsigned p, const Rational& g) { return hardmax_threshold(p, g) - 1; }, true),
           consistency_mutation({"threshold halved (finite:8)", "the threshold divided by 2 on a finite:8 case", shows,
                                 kModp5Finite},
                                [](unsigned p, const Rational& g) { return hardmax_threshold(p, g) / 2; }, false)}};
}

}  // namespace lgc
