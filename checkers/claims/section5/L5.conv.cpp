// L5.conv: the first layer converges to its limit map at rate i^{−min(γ,1)}
// (docs/theory.md#the-first-layer-limit-map).
#include "claims/agreement.hpp"
#include "claims/declarations.hpp"
#include "lgcheck/average/monte_carlo.hpp"
#include "lgcheck/enumerate/budget.hpp"
#include "lgcheck/enumerate/strings.hpp"
#include "lgcheck/enumerate/visit_digest.hpp"
#include "lgcheck/quantities/first_layer_constants.hpp"
#include "lgcheck/semantics/softmax_layer1.hpp"
#include "claims/section5/section5.hpp"

#include <fmt/format.h>

#include <random>

namespace lgc {
namespace {

/// The verdict on every position i >= from of x; the first failure (or
/// undecided position) ends the scan.
struct Scan {
  std::uint64_t positions = 0;
  Rational worst_ratio = 0;  ///< max upper(err) / lower(bound): how close to the bound
  std::optional<std::string> refuted, undecided;
};

/// The bound at one position against the certified error there.
void check_point(const SoftmaxFirstLayer& layer, const ConvergenceConstant& k, const Rational& scale,
                 const SoftmaxFirstLayer::Point& p, const std::string& label, Scan& s) {
  charge_enumeration();  // one position: an item of --budget
  const unsigned bits = layer.bits();
  Vector<Number> Y = layer.layer_output(p);
  Vector<Number> Phi = layer.limit_layer(p.window, p.histogram());
  Number err = max_abs_difference(Y, Phi);
  Interval bound = Interval(scale, bits) * convergence_bound_at(layer.model(), k, p.i, bits);
  ++s.positions;
  if (bound.lower() > 0) s.worst_ratio = std::max(s.worst_ratio, Rational(upper_of(err) / bound.lower()));
  if (upper_of(err) <= bound.lower()) return;
  std::string where = fmt::format("{} at i = {}: |Y - Phi| = {} vs the bound (<= K i^-{}) = {}", label, p.i,
                                  show(err, 8), to_string(k.rate), bound.to_string(8));
  if (lower_of(err) > bound.upper())
    s.refuted = where;
  else
    s.undecided = where;
}

void scan_input(const SoftmaxFirstLayer& layer, const ConvergenceConstant& k, const Rational& scale, const Tokens& x,
                const std::string& label, Scan& s) {
  layer.for_each_position(x, [&](const SoftmaxFirstLayer::Point& p) {
    if (p.i < k.from || s.refuted || s.undecided) return;
    check_point(layer, k, scale, p, label, s);
  });
}

/// The last position of a^{i−τ−1} b^{τ+1}: the bulk all one token, the
/// window all another. Where b has a head's largest content logit and a its
/// smallest, with value vectors W_h apart, the token-dominant term of the
/// bound is nearly met (docs/theory.md); built from counts, so i may be 10^9.
SoftmaxFirstLayer::Point run_point(const Shape& shape, std::size_t a, std::size_t b, std::uint64_t i) {
  SoftmaxFirstLayer::Point p;
  p.i = i;
  const std::uint64_t bulk = i - shape.locality - 1;
  p.counts.assign(shape.classes(), 0);
  for (std::size_t r = 0; r < shape.period; ++r) p.counts[a * shape.period + r] = residue_count(bulk, shape.period, r);
  for (std::size_t t = 0; t <= shape.locality; ++t) p.window.push_back(b * shape.period + (i - t) % shape.period);
  return p;
}

/// The constructed positions: every ordered pair of tokens (at most 8 of
/// each) at i = 10^2, ..., 10^9. Returns how many were checked.
std::uint64_t scan_run_points(const SoftmaxFirstLayer& layer, const Model& m, const ConvergenceConstant& k,
                              const Rational& scale, Scan& s) {
  const Shape shape = shape_of(m);
  const std::size_t S = std::min<std::size_t>(shape.alphabet_size, 8);
  std::uint64_t checked = 0;
  for (std::uint64_t i = 100; i <= 1000000000; i *= 10)
    for (std::size_t a = 0; a < S; ++a)
      for (std::size_t b = 0; b < S && !s.refuted && !s.undecided; ++b)
        if (a != b && i >= k.from) {
          check_point(layer, k, scale, run_point(shape, a, b, i), fmt::format("constructed input {}^(i-{}) {}^{}", m.alphabet[a],
                                                                              shape.locality + 1, m.alphabet[b], shape.locality + 1), s);
          ++checked;
        }
  return checked;
}

}  // namespace

bool is_softmax_model(const Case& c) {
  return !c.is_pair && c.model().semantics.kind == Semantics::Kind::Softmax && !c.model().layers.empty();
}

ConvergenceParams convergence_params(const Case& c) {
  ConvergenceParams p;
  p.max_length = c.check_count("max_length", p.max_length);
  p.random_inputs = c.check_count("random_inputs", p.random_inputs);
  p.seed = c.check_count("seed", p.seed);
  return p;
}

ClaimResult check_convergence(const Case& c, const ConvergenceParams& params) {
  ClaimResult r;
  r.id = kConvergenceId;
  r.case_name = c.name;
  const Model& m = c.model();
  SoftmaxFirstLayer layer(m);
  ConvergenceConstant k = convergence_constant(m, params.with_bulk);
  r.evidence = {{"K", to_string(k.K)},         {"rate", to_string(k.rate)},
                {"gamma", k.gamma ? to_string(*k.gamma) : "inf"},
                {"from", k.from},               {"mlp_lipschitz", to_string(k.mlp_lipschitz)}};
  Scan s;
  const std::size_t S = m.alphabet_size();
  std::uint64_t n = params.max_length;
  while (n > 1 && string_count(S, n) > 4096) --n;
  // The exhaustive domain: positions i >= 2(τ+1) of every input of length n; none when n < 2(τ+1).
  const bool exhaustive = n >= k.from;
  VisitDigest visited;  // every input of length n whose positions were scanned
  if (exhaustive)
    for_each_string(S, n, [&](const Tokens& x) {
      scan_input(layer, k, params.bound_scale, x, "input " + format_input(m, x), s);
      visited.add(x);
      return !s.refuted && !s.undecided;
    });
  const std::uint64_t exhaustive_positions = s.positions;
  const std::uint64_t constructed = scan_run_points(layer, m, k, params.bound_scale, s);
  std::mt19937_64 rng(params.seed);
  std::uint64_t longest = 0;
  const std::uint64_t lengths[] = {1000, 10000, 100000};
  for (std::size_t j = 0; j < params.random_inputs && !s.refuted && !s.undecided; ++j) {
    std::uint64_t T = std::min(params.max_random_length, lengths[std::min<std::size_t>(j, 2)]);
    // Alternate uniform strings and strings from a Dirichlet prior with
    // α = 1/2 (skewed compositions: rare tokens, long runs of one token).
    DirichletPrior skewed{QVector(S, Rational(1, 2))};
    Tokens x = j % 2 == 0 ? random_string(S, T, rng) : sample_dirichlet_string(skewed, T, rng);
    scan_input(layer, k, params.bound_scale, x, fmt::format("random input #{} (seed {}, length {})", j, params.seed, T), s);
    longest = std::max(longest, T);
  }
  r.evidence["positions"] = s.positions;
  r.evidence["worst_ratio"] = to_decimal(s.worst_ratio, 6);
  if (s.refuted) {
    r.verdict = Verdict::Refuted;
    r.detail = *s.refuted;
  } else if (s.undecided) {
    r.verdict = Verdict::Undecided;
    r.detail = "not separated at " + std::to_string(layer.bits()) + " bits: " + *s.undecided;
  } else if (s.positions == 0) {
    r.verdict = Verdict::Undecided;
    r.detail = fmt::format("no position i >= {} was reached (inputs of length {}, {} random)", k.from, n,
                           params.random_inputs);
  } else {
    if (exhaustive) {
      r.scope.domain = fmt::format("positions i >= {} of every input of length {}", k.from, n);
      r.evidence["visited"] = visited.to_json();
    }
    r.scope.exhaustive = exhaustive_positions;
    r.scope.samples = s.positions - exhaustive_positions;
    r.scope.seed = params.seed;
    if (n < params.max_length)
      r.scope.caps.push_back({fmt::format("strings of the exhaustive length (max_length {} shortened to {})",
                                          params.max_length, n),
                              4096, true});
    r.scope.decided_by = "certified |Y_i - Phi(window_i, mu_i)| against the per-position bound (<= K i^-rate)";
    r.scope.slack = to_decimal(s.worst_ratio, 4) + " (closest approach: largest |Y_i - Phi| / bound_i)";
    r.verdict = holding_verdict(r.scope);
    const std::string enumerated =
        exhaustive ? fmt::format("every input of length {}", n)
                   : fmt::format("no exhaustive domain: the exhaustive length {} (max_length, shortened until "
                                 "S^n <= 4096) is below {}", n, k.from);
    r.detail = fmt::format("|Y_i - Phi(window_i, mu_i)| <= bound_i <= K i^-{} with K = {} at {} positions i >= {} "
                           "({}, {} constructed a^(i-tau-1) b^(tau+1) at i = 10^2..10^9, {} random "
                           "up to T = {}); closest approach {} of the bound",
                           to_string(k.rate), to_decimal(k.K, 6), s.positions, k.from, enumerated, constructed,
                           params.random_inputs, longest, to_decimal(s.worst_ratio, 4));
  }
  return r;
}


// The claim and the mutations that must break it (claims/claim.hpp).
namespace {

constexpr const char* kRegimePosition = "section5/regime_position.json";
constexpr const char* kRegimeToken = "section5/regime_token.json";

constexpr ParamsMutation<ConvergenceParams> convergence_mutation{kConvergenceId, convergence_params, check_convergence};

}  // namespace

ClaimDeclaration convergence_declaration() {
  const auto check = [](const Case& c) { return check_convergence(c, convergence_params(c)); };
  return {{kConvergenceId,
           "softmax models: |Y_i - Phi(window_i, mu_i)| <= K i^(-min(gamma,1)) at every position i >= 2(tau+1)",
           "softmax", "docs/theory.md#the-first-layer-limit-map-toolkit-derivation-of-the-papers-key-fact-paper-p11",
           is_softmax_model, named(check), rerun(check)},
          {convergence_mutation({"positional margin without the 1", "P_h taken without the bulk's element 1 (gamma "
                                 "3/2 instead of 1/2, rate i^-1 instead of i^-1/2)", "vs the bound", kRegimePosition},
                                [](ConvergenceParams& p) { p.with_bulk = false; }),
           convergence_mutation({"K/2", "the convergence bound halved (K/2; for a token-dominant head the "
                                 "per-position term W e^s sum_t i^phi(t) / (i - tau - 1) halved)", "vs the bound",
                                 kRegimeToken},
                                [](ConvergenceParams& p) { p.bound_scale = Rational(1, 2); })}};
}

}  // namespace lgc
