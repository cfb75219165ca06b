#include "claims/claim.hpp"
#include "claims/section4/consistency.hpp"
#include "claims/section4/theorem41.hpp"
#include "claims/section5/section5.hpp"
#include "claims/average/theorem42.hpp"

namespace lgc {
namespace {

bool is_one_layer_model(const Case& c) {
  return !c.is_pair && c.model().layers.size() == 1 && c.model().semantics.kind != Semantics::Kind::Softmax;
}

bool is_section4_model(const Case& c) { return !c.is_pair && is_section4_case(c); }
bool is_section4_pair(const Case& c) { return c.is_pair && is_section4_case(c); }
bool is_witness_pair(const Case& c) { return is_section4_pair(c) && c.check.contains("witness_n"); }

/// Runs `check` and stamps the case name.
template <class F>
std::function<ClaimResult(const Case&)> named(F check) {
  return [check](const Case& c) {
    ClaimResult r = check(c);
    r.case_name = c.name;
    return r;
  };
}

/// The replay of a claim whose run involves no search: the run itself.
template <class F>
std::function<ClaimResult(const Case&, const nlohmann::json&)> rerun(F check) {
  return [check](const Case& c, const nlohmann::json&) {
    ClaimResult r = check(c);
    r.case_name = c.name;
    return r;
  };
}

}  // namespace

const std::vector<Claim>& claim_registry() {
  static const std::vector<Claim> claims = {
      {kConsistencyId,
       "one-layer models: finite:p equals hardmax at every query position i >= 2^{p/gamma}",
       "finite:p vs hardmax", "docs/theory.md#hardmax-threshold-paper-p5", is_section4_model,
       named([](const Case& c) { return check_consistency(c.model(), consistency_params(c)); }),
       rerun([](const Case& c) { return check_consistency(c.model(), consistency_params(c)); })},
      {kThresholdId,
       "finite:p = hardmax at every length T >= ceil(2^{p/gamma}), with a certified witness below where they differ "
       "(finite-weights:p: on the window ceil(2^{p/gamma}) <= T <= 2^p - 1)",
       "finite:p (or finite-weights:p) vs hardmax", "docs/theory.md#hardmax-threshold-paper-p5", is_one_layer_model,
       named([](const Case& c) { return check_threshold(c, threshold_params(c)); }),
       rerun([](const Case& c) { return check_threshold(c, threshold_params(c)); })},
      {kNormId, "|f(x) - f(z)| <= L(f) * max_h |w_h(x) - w_h(z)|_1 for x, z with the same window and residue",
       "hardmax", "docs/theory.md#norm-constant-l-toolkit-definition", is_section4_case,
       named([](const Case& c) { return check_norm(c, norm_params(c)); }),
       rerun([](const Case& c) { return check_norm(c, norm_params(c)); })},
      {kSimulationId, "the construction's z has |f(x) - f(z)| <= eps (f and g) and |z| <= N_sim(eps)",
       "hardmax or finite:p", "docs/theory.md#the-simulation-construction-toolkit", is_section4_case,
       named([](const Case& c) { return check_simulation(c, simulation_params(c)); }),
       [](const Case& c, const nlohmann::json& evidence) {
         ClaimResult r = replay_simulation(c, evidence);
         r.case_name = c.name;
         return r;
       }},
      {kImplicationId, "pairs: D(N_sim(eps)) <= eps implies D_inf <= 3 eps, with the bracket D(n) <= D_inf <= upper",
       "hardmax or finite:p", "docs/theory.md#distances-and-thresholds-toolkit", is_section4_pair,
       named([](const Case& c) { return check_implication(c, implication_params(c)); }),
       rerun([](const Case& c) { return check_implication(c, implication_params(c)); })},
      {kWitnessId,
       "witness pairs: f = g on every input of length <= n, |f - g| >= eta at a length <= the witness length (2n "
       "unless the case names it)",
       "hardmax or finite:p", "docs/theory.md#lower-bound-witnesses-toolkit", is_witness_pair,
       named([](const Case& c) { return check_witness(c, witness_params(c)); }),
       rerun([](const Case& c) { return check_witness(c, witness_params(c)); })},
      {kAverageId,
       "pairs under a Dirichlet prior: E_t <= eps for all t <= N0 = c eps^(-2-2/alpha_min) (1 + ln 1/eps)^k implies "
       "E_T <= C eps^(1/2) at T = N0, 2 N0, 4 N0, ...",
       "hardmax", "docs/theory.md#theorem-42-average-case-paper-p7-statement-toolkit-computation", is_average_case,
       named([](const Case& c) { return check_average(c, average_params(c)); }),
       rerun([](const Case& c) { return check_average(c, average_params(c)); })},
      {kRegularityId,
       "without regularity no N0 works: E_t = 0 for t <= K and E_t = eta after, for the switch K of the case",
       "hardmax", "docs/theory.md#the-regularity-counterexample-paper-p8-idea-toolkit-construction", is_regularity_case,
       named([](const Case& c) { return check_regularity(c, regularity_params(c)); }),
       rerun([](const Case& c) { return check_regularity(c, regularity_params(c)); })},
      {kConvergenceId,
       "softmax models: |Y_i - Phi(window_i, mu_i)| <= K i^(-min(gamma,1)) at every position i >= 2(tau+1)",
       "softmax", "docs/theory.md#the-first-layer-limit-map-toolkit-derivation-of-the-papers-key-fact-paper-p11",
       is_softmax_model,
       named([](const Case& c) { return check_convergence(c, convergence_params(c)); }),
       rerun([](const Case& c) { return check_convergence(c, convergence_params(c)); })},
      {kLipschitzId, "softmax models: |Phi(w, mu) - Phi(w, mu')| <= Lip |mu - mu'|_1 with the certified Lip",
       "softmax", "docs/theory.md#the-first-layer-limit-map-toolkit-derivation-of-the-papers-key-fact-paper-p11",
       is_softmax_model,
       named([](const Case& c) { return check_lipschitz(c, lipschitz_params(c)); }),
       rerun([](const Case& c) { return check_lipschitz(c, lipschitz_params(c)); })},
      {kKgramId,
       "the in-context k-gram construction: |f(x) - f*(x)| <= eps for every input of length >= T0 with match fraction "
       ">= rho, and gamma >= 1",
       "softmax", "docs/theory.md#the-in-context-k-gram-construction-paper-p15-task-toolkit-construction-and-proof",
       is_kgram_case,
       named([](const Case& c) { return check_kgram(c, kgram_params(c)); }),
       rerun([](const Case& c) { return check_kgram(c, kgram_params(c)); })},
      {kSubsampleId,
       "two-layer softmax models: the Markov subsampler's z keeps every second-layer integrand's average within "
       "c (G+L)(tau+1) n^(-1/3), the seed as certificate",
       "softmax", "docs/theory.md#the-subsampler-lemma-53-paper-p14-statement-toolkit-chain-and-check",
       is_two_layer_softmax,
       named([](const Case& c) { return check_subsample(c, subsample_params(c)); }),
       rerun([](const Case& c) { return check_subsample(c, subsample_params(c)); })},
      {kSimulation52Id,
       "two-layer softmax pairs: the subsampled z has |f(x) - f(z)| and |g(x) - g(z)| within the toolkit's explicit "
       "simulation-error bound",
       "softmax", "docs/theory.md#the-simulation-error-bound-toolkit", is_simulation52_case,
       named([](const Case& c) { return check_simulation52(c, simulation52_params(c)); }),
       rerun([](const Case& c) { return check_simulation52(c, simulation52_params(c)); })},
      {kWitness52Id,
       "softmax witness pairs: |f - g| <= 2^-64 on every input of length <= n, |f - g| >= eta at the witness length",
       "softmax", "docs/theory.md#a-witness-family-for-the-positional-margin-toolkit", is_witness52_case,
       named([](const Case& c) { return check_witness52(c, witness_params(c)); }),
       rerun([](const Case& c) { return check_witness52(c, witness_params(c)); })},
  };
  return claims;
}

}  // namespace lgc
