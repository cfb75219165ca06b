// L5.lip: the limit map is Lipschitz in the histogram with the certified
// constant (docs/theory.md#the-first-layer-limit-map).
#include "claims/agreement.hpp"
#include "claims/declarations.hpp"
#include "lgcheck/enumerate/strings.hpp"
#include "lgcheck/quantities/first_layer_constants.hpp"
#include "lgcheck/semantics/one_layer.hpp"
#include "lgcheck/semantics/softmax_layer1.hpp"
#include "claims/section5/section5.hpp"

#include <fmt/format.h>

#include <random>

namespace lgc {
namespace {

std::vector<Rational> random_histogram(std::size_t K, std::mt19937_64& rng) {
  std::vector<Rational> mu(K);
  Integer total = 0;
  std::vector<Integer> raw(K);
  for (std::size_t c = 0; c < K; ++c) {
    raw[c] = Integer(rng() % 3 == 0 ? 0 : 1 + rng() % 1000);
    total += raw[c];
  }
  if (total == 0) raw[0] = total = 1;
  for (std::size_t c = 0; c < K; ++c) mu[c] = Rational(raw[c], total);
  return mu;
}

/// Every coordinate the same exact number or the same enclosure (endpoints).
bool same_enclosures(const Vector<Number>& a, const Vector<Number>& b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i)
    if (lower_of(a[i]) != lower_of(b[i]) || upper_of(a[i]) != upper_of(b[i])) return false;
  return true;
}

}  // namespace

LipschitzParams lipschitz_params(const Case& c) {
  LipschitzParams p;
  p.seed = c.check_count("seed", p.seed);
  return p;
}

ClaimResult check_lipschitz(const Case& c, const LipschitzParams& params) {
  ClaimResult r;
  r.id = kLipschitzId;
  r.case_name = c.name;
  const Model& m = c.model();
  SoftmaxFirstLayer layer(m);
  LipschitzConstant lip = limit_map_lipschitz(m, params.with_exponential);
  if (params.claim_zero) lip.L = 0;
  const std::size_t K = layer.shape().classes(), tau = m.locality;
  r.evidence = {{"Lip", to_string(lip.L)}, {"mlp_lipschitz", to_string(lip.mlp_lipschitz)}};
  std::mt19937_64 rng(params.seed);
  std::size_t pairs = 0, vertex_pairs = 0;
  Rational worst = 0;
  auto test = [&](const std::vector<std::size_t>& window, const std::vector<Rational>& a,
                  const std::vector<Rational>& b) -> std::optional<ClaimResult> {
    if (a == b) return std::nullopt;
    ++pairs;
    const Vector<Number> phi_a = layer.limit_layer(window, a), phi_b = layer.limit_layer(window, b);
    Number diff = max_abs_difference(phi_a, phi_b);
    Rational bound = lip.L * l1_distance(a, b);
    // Lip = 0 claims Phi(w, mu) = Phi(w, mu'): no head has the bulk on top, so
    // the limit map must not read mu, and the two evaluations must give the
    // very same enclosures (their difference is an interval around 0 that no
    // precision makes exact).
    if (bound == 0 && same_enclosures(phi_a, phi_b)) return std::nullopt;
    if (bound > 0) worst = std::max(worst, Rational(upper_of(diff) / bound));
    if (upper_of(diff) <= bound) return std::nullopt;
    ClaimResult out = r;
    out.verdict = lower_of(diff) > bound ? Verdict::Refuted : Verdict::Undecided;
    out.detail = fmt::format("|Phi(mu) - Phi(mu')| = {} against Lip |mu - mu'|_1 = {} (Lip = {}) at query class {}",
                             show(diff, 8), to_decimal(bound, 8), to_decimal(lip.L, 6), window.front());
    return out;
  };
  // Near-vertex pairs: all mass on class a, then δ of it moved to class b —
  // where the ratio approaches its supremum. Every query class; window slots
  // equal to the query and, for τ >= 1, every class in slot 1.
  const Rational delta(1, 1000);
  for (std::size_t q = 0; q < K; ++q)
    for (std::size_t w1 = 0; w1 < (tau ? K : 1); ++w1) {
      std::vector<std::size_t> window(tau + 1, q);
      if (tau) window[1] = w1;
      for (std::size_t a = 0; a < K; ++a)
        for (std::size_t b = 0; b < K; ++b) {
          if (a == b) continue;
          std::vector<Rational> mu(K, Rational(0)), nu(K, Rational(0));
          mu[a] = 1;
          nu[a] = 1 - delta;
          nu[b] = delta;
          if (auto bad = test(window, mu, nu)) return *bad;
        }
    }
  vertex_pairs = pairs;
  for (std::size_t k = 0; k < params.random_pairs; ++k) {
    std::vector<std::size_t> window(tau + 1);
    for (auto& w : window) w = static_cast<std::size_t>(uniform_integer(0, K - 1, rng));
    if (auto bad = test(window, random_histogram(K, rng), random_histogram(K, rng))) return *bad;
  }
  r.evidence["pairs"] = pairs;
  r.evidence["worst_ratio"] = to_decimal(worst, 6);
  r.scope.domain = "near-vertex pairs (all mass on one class, 1/1000 of it moved to another) for every query class "
                   "and slot-1 class";
  r.scope.exhaustive = vertex_pairs;
  r.scope.samples = pairs - vertex_pairs;
  r.scope.seed = params.seed;
  r.scope.decided_by = lip.L == 0 ? "Lip = 0: Phi(w, mu) and Phi(w, mu') the same enclosure on every pair"
                                  : "certified |Phi(w, mu) - Phi(w, mu')| against Lip |mu - mu'|_1";
  if (lip.L > 0) r.scope.slack = to_decimal(worst, 4) + " (largest |Phi(mu) - Phi(mu')| / (Lip |mu - mu'|_1))";
  r.verdict = holding_verdict(r.scope);
  r.detail = lip.L == 0 ? fmt::format("Lip = 0 (every first-layer head position-dominant): Phi(w, mu) = Phi(w, mu') "
                                      "on all {} pairs (near-vertex and random)",
                                      pairs)
                        : fmt::format("|Phi(w, mu) - Phi(w, mu')| <= Lip |mu - mu'|_1 with Lip = {} on {} pairs "
                                      "(near-vertex and random); the largest ratio reaches {} of Lip",
                                      to_decimal(lip.L, 6), pairs, to_decimal(worst, 4));
  return r;
}


// The claim and the mutations that must break it (claims/claim.hpp).
namespace {

constexpr const char* kRegimeToken = "section5/regime_token.json";

constexpr ParamsMutation<LipschitzParams> lipschitz_mutation{kLipschitzId, lipschitz_params, check_lipschitz};

}  // namespace

ClaimDeclaration lipschitz_declaration() {
  const auto check = [](const Case& c) { return check_lipschitz(c, lipschitz_params(c)); };
  return {{kLipschitzId, "softmax models: |Phi(w, mu) - Phi(w, mu')| <= Lip |mu - mu'|_1 with the certified Lip",
           "softmax", "docs/theory.md#the-first-layer-limit-map-toolkit-derivation-of-the-papers-key-fact-paper-p11",
           is_softmax_model, named(check), rerun(check)},
          {lipschitz_mutation({"Lip without e^(spread)", "the Lipschitz constant of Phi without its exponential factor",
                               "against Lip |mu - mu'|_1", kRegimeToken},
                              [](LipschitzParams& p) { p.with_exponential = false; }),
           lipschitz_mutation({"Lip claimed 0", "Phi claimed independent of the histogram (Lip = 0) on a token-dominant "
                               "model", "against Lip |mu - mu'|_1 = 0", kRegimeToken},
                              [](LipschitzParams& p) { p.claim_zero = true; })}};
}

}  // namespace lgc
