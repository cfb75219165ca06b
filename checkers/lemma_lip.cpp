// L5.lip: the limit map is Lipschitz in the histogram with the certified
// constant (docs/theory.md#the-first-layer-limit-map).
#include "agreement.hpp"
#include "lgcheck/enumerate/strings.hpp"
#include "lgcheck/quantities/first_layer_constants.hpp"
#include "lgcheck/semantics/one_layer.hpp"
#include "lgcheck/semantics/softmax_layer1.hpp"
#include "section5.hpp"

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
  const std::size_t K = layer.shape().classes(), tau = m.locality;
  r.evidence = {{"Lip", to_string(lip.L)}, {"mlp_lipschitz", to_string(lip.mlp_lipschitz)}};
  if (lip.L == 0) {
    r.verdict = Verdict::Proved;
    r.detail = "Lip = 0: every first-layer head is position-dominant, so Phi does not depend on the histogram";
    return r;
  }
  std::mt19937_64 rng(params.seed);
  std::size_t pairs = 0;
  Rational worst = 0;
  auto test = [&](const std::vector<std::size_t>& window, const std::vector<Rational>& a,
                  const std::vector<Rational>& b) -> std::optional<ClaimResult> {
    if (a == b) return std::nullopt;
    ++pairs;
    Number diff = max_abs_difference(layer.limit_layer(window, a), layer.limit_layer(window, b));
    Rational bound = lip.L * l1_distance(a, b);
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
  for (std::size_t k = 0; k < params.random_pairs; ++k) {
    std::vector<std::size_t> window(tau + 1);
    for (auto& w : window) w = static_cast<std::size_t>(uniform_integer(0, K - 1, rng));
    if (auto bad = test(window, random_histogram(K, rng), random_histogram(K, rng))) return *bad;
  }
  r.evidence["pairs"] = pairs;
  r.evidence["worst_ratio"] = to_decimal(worst, 6);
  r.verdict = Verdict::Proved;
  r.detail = fmt::format("|Phi(w, mu) - Phi(w, mu')| <= Lip |mu - mu'|_1 with Lip = {} on {} pairs (near-vertex and "
                         "random); the largest ratio reaches {} of Lip",
                         to_decimal(lip.L, 6), pairs, to_decimal(worst, 4));
  return r;
}

}  // namespace lgc
