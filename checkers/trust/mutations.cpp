#include "trust/mutations.hpp"
#include "output/tables.hpp"

#include "claims/section4/consistency.hpp"
#include "lgcheck/model/case_file.hpp"
#include "lgcheck/semantics/finite_precision.hpp"
#include "output/progress.hpp"
#include "claims/section4/theorem41.hpp"
#include "claims/section5/section5.hpp"
#include "claims/average/theorem42.hpp"

#include <map>

namespace lgc {
namespace {

Case load(const std::filesystem::path& dir, const std::string& file) { return load_case(dir / file); }

constexpr const char* kModp3 = "paper/modp/modp_p3_hardmax.json";
constexpr const char* kModp2 = "paper/modp/modp_p2_hardmax.json";
constexpr const char* kModp5Finite = "paper/modp/modp_p5_finite8.json";
constexpr const char* kMargin = "section4/modp_p3_finite6_margin1_2.json";
constexpr const char* kWeights = "section4/attend_ones_gamma2_finite_weights6.json";
constexpr const char* kRelu8 = "paper/simple/simple_w8_relu.json";
constexpr const char* kSin8 = "paper/simple/simple_w8_sin.json";
constexpr const char* kModpPair = "pairs/modp_p2_perturbed_pair.json";
constexpr const char* kTwoPatternPair = "pairs/modp_p2_two_pattern_pair.json";
constexpr const char* kWindowWide = "section4/window_wide.json";
constexpr const char* kFarey8 = "witnesses/farey_hat_n8.json";
constexpr const char* kMarginWitness = "witnesses/margin_witness_gamma1_3_p2.json";
constexpr const char* kMarginWitness2 = "witnesses/margin_witness_gamma1_2_p2.json";
constexpr const char* kMarginWitness4 = "witnesses/margin_witness_gamma1_4_p2.json";
constexpr const char* kPositionWitness2 = "witnesses/position_witness_gamma1_2_rho1_4.json";
constexpr const char* kPositionWitness3 = "witnesses/position_witness_gamma1_3_rho1_4.json";
constexpr const char* kPositionWitness4 = "witnesses/position_witness_gamma1_4_rho1_4.json";
constexpr const char* kFareyUniform = "average/farey_hat_n4_uniform.json";
constexpr const char* kPresenceSkewed = "average/presence_skewed.json";
constexpr const char* kPresenceBinding = "average/presence_binding.json";
constexpr const char* kAbsence = "average/absence_uniform.json";
constexpr const char* kRegularity = "average/regularity_k64.json";
constexpr const char* kRegimePosition = "section5/regime_position.json";
constexpr const char* kRegimeToken = "section5/regime_token.json";
constexpr const char* kKgram = "section5/kgram_k1_s2.json";
constexpr const char* kInduction = "paper/induction/induction_head_k1.json";
constexpr const char* kRarePair = "section5/attention_pair_rare.json";
constexpr const char* kSharpPair = "section5/attention_pair_sharp.json";
constexpr const char* kSecondPhiPair = "section5/attention_pair_second_phi.json";
constexpr const char* kPeriod2Pair = "section5/attention_pair_period2.json";
constexpr const char* kTwoHeadsMlpPair = "section5/attention_pair_two_heads_mlp.json";
constexpr const char* kDominantPair = "section5/attention_pair_second_dominant.json";

Mutation consistency_mutation(std::string name, std::string description, const char* file,
                              std::function<Integer(unsigned, const Rational&)> rule, bool exhaustive_only) {
  return {kConsistencyId, std::move(name), std::move(description), file,
          [file, rule, exhaustive_only](const std::filesystem::path& dir) {
            Case c = load(dir, file);
            ConsistencyParams p = consistency_params(c);
            p.threshold = rule;
            if (exhaustive_only) p.random_inputs = 0;
            return check_consistency(c.model(), p);
          }};
}

Mutation threshold_mutation(std::string name, std::string description, const char* file,
                            std::function<Integer(unsigned, const Rational&)> rule) {
  return {kThresholdId, std::move(name), std::move(description), file, [file, rule](const std::filesystem::path& dir) {
            Case c = load(dir, file);
            ThresholdParams p = threshold_params(c);
            p.threshold = rule;
            return check_threshold(c, p);
          }};
}

/// A mutation that loads `file`, reads the claim's parameters from it, edits them and runs the claim's check.
template <class Params>
Mutation edited_params_mutation(std::string claim, std::string name, std::string description, const char* file,
                                Params (*params_of)(const Case&), ClaimResult (*check)(const Case&, const Params&),
                                std::function<void(Params&)> edit) {
  return {std::move(claim), std::move(name), std::move(description), file,
          [file, params_of, check, edit](const std::filesystem::path& dir) {
            Case c = load(dir, file);
            Params p = params_of(c);
            edit(p);
            return check(c, p);
          }};
}

Mutation lipschitz_mutation(std::string name, std::string description, std::function<void(LipschitzParams&)> edit) {
  return edited_params_mutation<LipschitzParams>(kLipschitzId, std::move(name), std::move(description), kRegimeToken,
                                                 lipschitz_params, check_lipschitz, std::move(edit));
}

Mutation simulation_mutation(std::string name, std::string description, const char* file,
                             std::function<void(SimulationParams&)> edit) {
  return edited_params_mutation<SimulationParams>(kSimulationId, std::move(name), std::move(description), file,
                                                  simulation_params, check_simulation, [edit](SimulationParams& p) {
                                                    p.random_inputs = 300;
                                                    edit(p);
                                                  });
}

Mutation norm_mutation(std::string name, std::string description, const char* file, std::function<void(NormOptions&)> edit) {
  return edited_params_mutation<NormParams>(kNormId, std::move(name), std::move(description), file, norm_params,
                                            check_norm, [edit](NormParams& p) { edit(p.norm); });
}

Mutation witness_mutation(std::string name, std::string description, const char* file,
                          std::function<void(WitnessParams&)> edit) {
  return edited_params_mutation<WitnessParams>(kWitnessId, std::move(name), std::move(description), file,
                                               witness_params, check_witness, std::move(edit));
}

Mutation witness52_mutation(std::string name, std::string description, const char* file,
                            std::function<void(WitnessParams&)> edit) {
  return edited_params_mutation<WitnessParams>(kWitness52Id, std::move(name), std::move(description), file,
                                               witness_params, check_witness52, std::move(edit));
}

/// The two breaks of a witness family member: agreement claimed one length further (its first differing length),
/// and the difference claimed twice as large.
void push_member_mutations(std::vector<Mutation>& m, const std::string& family, const std::string& gamma,
                           const char* file, bool section5) {
  const auto make = section5 ? witness52_mutation : witness_mutation;
  const std::string tag = family + " (gamma " + gamma + ")";
  m.push_back(make(tag + ": agreement up to N", "the " + family + " claimed equal at its first differing length N too",
                   file, [](WitnessParams& p) { p.n += 1; }));
  m.push_back(make(tag + ": eta doubled", "the " + family + "'s difference claimed 2 eta", file,
                   [](WitnessParams& p) { p.eta *= 2; }));
}

Mutation average_mutation(std::string name, std::string description, const char* file,
                          std::function<void(AverageParams&)> edit) {
  return edited_params_mutation<AverageParams>(kAverageId, std::move(name), std::move(description), file,
                                               average_params, check_average, std::move(edit));
}

Mutation regularity_mutation(std::string name, std::string description, std::function<void(RegularityParams&)> edit) {
  return edited_params_mutation<RegularityParams>(kRegularityId, std::move(name), std::move(description), kRegularity,
                                                  regularity_params, check_regularity, std::move(edit));
}

Mutation convergence_mutation(std::string name, std::string description, const char* file,
                              std::function<void(ConvergenceParams&)> edit) {
  return edited_params_mutation<ConvergenceParams>(kConvergenceId, std::move(name), std::move(description), file,
                                                   convergence_params, check_convergence, std::move(edit));
}

Mutation subsample_mutation(std::string name, std::string description, const char* file,
                            std::function<void(SubsampleParams&)> edit) {
  return edited_params_mutation<SubsampleParams>(kSubsampleId, std::move(name), std::move(description), file,
                                                 subsample_params, check_subsample, std::move(edit));
}

Mutation simulation52_mutation(std::string name, std::string description, const char* file,
                               std::function<void(Simulation52Params&)> edit) {
  return edited_params_mutation<Simulation52Params>(kSimulation52Id, std::move(name), std::move(description), file,
                                                    simulation52_params, check_simulation52, std::move(edit));
}

std::vector<Mutation> build_registry() {
  std::vector<Mutation> m;
  m.push_back(consistency_mutation("threshold halved", "the threshold ceil(2^(p/gamma)) divided by 2", kModp3,
                                   [](unsigned p, const Rational& g) { return hardmax_threshold(p, g) / 2; }, false));
  m.push_back(consistency_mutation("threshold off by one", "the threshold one position too early", kModp3,
                                   [](unsigned p, const Rational& g) { return hardmax_threshold(p, g) - 1; }, true));
  m.push_back(consistency_mutation("threshold halved (finite:8)", "the threshold divided by 2 on a finite:8 case",
                                   kModp5Finite, [](unsigned p, const Rational& g) { return hardmax_threshold(p, g) / 2; },
                                   false));
  m.push_back(threshold_mutation("2^p/gamma for 2^(p/gamma)", "the threshold written 2^p/gamma instead of 2^(p/gamma)",
                                 kMargin, [](unsigned bits, const Rational& g) { return ceil(Rational(pow(Integer(2), bits)) / g); }));
  m.push_back(threshold_mutation("threshold halved", "ceil(2^(p/gamma)) divided by 2", kMargin,
                                 [](unsigned bits, const Rational& g) { return hardmax_threshold(bits, g) / 2; }));
  m.push_back(norm_mutation("L without the MLP term", "Lip(R) = |U| instead of |U|(1 + |B||A|)", kRelu8,
                            [](NormOptions& o) { o.include_mlp_term = false; }));
  m.push_back(norm_mutation("L without |omega|", "the sin readout's Lipschitz factor |omega| dropped", kSin8,
                            [](NormOptions& o) { o.include_sin_factor = false; }));
  m.push_back(simulation_mutation("N_sim halved", "the construction's length bound divided by 2", kModp3,
                                  [](SimulationParams& p) { p.length_bound_scale = Rational(1, 2); }));
  m.push_back(simulation_mutation("2^(p/gamma) padding dropped", "N_sim without the finite:p padding term 2t + D(S+1)",
                                  kMargin, [](SimulationParams& p) {
                                    p.drop_padding = true;
                                    p.random_inputs = 50;
                                  }));
  m.push_back(simulation_mutation("resolution Q = 2", "the construction run with Q = 2 instead of (5K+7S+2tau+6)/delta",
                                  kModp3, [](SimulationParams& p) { p.resolution_override = 2; }));
  m.push_back(simulation_mutation("resolution Q/4", "the construction run with Q/4 (N_sim kept): its error lemma needs the "
                                  "full (5K+7S+2tau+6)/delta", kWindowWide,
                                  [](SimulationParams& p) { p.resolution_scale = Rational(1, 4); }));
  m.push_back(simulation_mutation("N_sim halved (one-value head)",
                                  "the anchored length bound divided by 2 on a pair whose second head weighs one "
                                  "value (its two patterns count as one)", kTwoPatternPair,
                                  [](SimulationParams& p) { p.length_bound_scale = Rational(1, 2); }));
  m.push_back(simulation_mutation("every head taken as one value",
                                  "the construction keeps no head's count ratios, as if every head weighed one value",
                                  kWindowWide, [](SimulationParams& p) { p.no_intervals = true; }));
  m.push_back({kImplicationId, "conclusion 3 eps -> eps/20", "the theorem's conclusion D_inf <= 3 eps replaced by eps/20",
               kModpPair, [](const std::filesystem::path& dir) {
                 Case c = load(dir, kModpPair);
                 ImplicationParams p = implication_params(c);
                 p.conclusion_factor = Rational(1, 20);
                 return check_implication(c, p);
               }});
  m.push_back(witness_mutation("agreement up to 2n", "the pair claimed equal on every input of length <= 2n", kFarey8,
                               [](WitnessParams& p) { p.n *= 2; }));
  m.push_back(
      witness_mutation("eta doubled", "the difference claimed 2 eta", kFarey8, [](WitnessParams& p) { p.eta *= 2; }));
  m.push_back(witness_mutation("margin witness: agreement up to N",
                               "the margin witness claimed equal at length N = ceil(2^(p/gamma)) too (one more length)",
                               kMarginWitness, [](WitnessParams& p) { p.n += 1; }));
  m.push_back(witness_mutation("margin witness: eta doubled", "the margin witness's difference claimed 2 eta",
                               kMarginWitness, [](WitnessParams& p) { p.eta *= 2; }));
  push_member_mutations(m, "margin witness", "1/2", kMarginWitness2, false);
  push_member_mutations(m, "margin witness", "1/4", kMarginWitness4, false);
  m.push_back(average_mutation("no multiplicities", "each statistic weighted as one string (multinomial factors dropped, "
                               "weights renormalised to sum to 1; no brute-force cross-check)",
                               kAbsence, [](AverageParams& p) {
                                 p.multiplicities = false;
                                 p.brute_force_length = 0;
                               }));
  m.push_back(average_mutation("N0 from alpha_max", "N0 = c eps^(-2-2/alpha_max): the prior's largest entry in the exponent",
                               kPresenceSkewed, [](AverageParams& p) { p.bound_with_alpha_max = true; }));
  m.push_back(average_mutation("C halved", "the conclusion's constant C of E_T <= C eps^(1/2) halved on a pair where "
                               "the implication nearly binds", kPresenceBinding,
                               [](AverageParams& p) { p.conclusion_constant /= 2; }));
  m.push_back(regularity_mutation("switch one step late", "the pair claimed equal in average up to K + 1",
                                  [](RegularityParams& p) { p.claimed_switch = 65; }));
  m.push_back(regularity_mutation("eta doubled", "the average distance after the switch claimed 2 eta",
                                  [](RegularityParams& p) { p.eta *= 2; }));
  m.push_back(convergence_mutation("positional margin without the 1", "P_h taken without the bulk's element 1 (gamma "
                                   "3/2 instead of 1/2, rate i^-1 instead of i^-1/2)", kRegimePosition,
                                   [](ConvergenceParams& p) { p.with_bulk = false; }));
  m.push_back(convergence_mutation("K/2", "the convergence bound halved (K/2; for a token-dominant head the "
                                   "per-position term W e^s sum_t i^phi(t) / (i - tau - 1) halved)", kRegimeToken,
                                   [](ConvergenceParams& p) { p.bound_scale = Rational(1, 2); }));
  m.push_back(subsample_mutation("drift term dropped", "the drift form without its L |mu_j(z) - mu_i_j(x)|_1 term (the "
                                 "histogram drift charged nothing)", kRegimeToken,
                                 [](SubsampleParams& p) { p.drift_L_scale = 0; }));
  m.push_back(subsample_mutation("G/4 in the drift form", "the integrand bound G divided by 4 in the drift form (a "
                                 "window broken at a block boundary charged 2G/4)", kInduction,
                                 [](SubsampleParams& p) { p.drift_G_scale = Rational(1, 4); }));
  push_member_mutations(m, "position witness", "1/2", kPositionWitness2, true);
  push_member_mutations(m, "position witness", "1/3", kPositionWitness3, true);
  push_member_mutations(m, "position witness", "1/4", kPositionWitness4, true);
  m.push_back(simulation52_mutation("bound without e^A", "the simulation-error bound without its exponential factors "
                                    "e^(A_g)", kSharpPair, [](Simulation52Params& p) { p.bound_terms.exponential = false; }));
  m.push_back(simulation52_mutation("C(f) without e^A", "C(f) without its exponential factors e^(A_g) (the bound "
                                    "C(f) n^-min(gamma,1/3) on c-good z)", kRarePair,
                                    [](Simulation52Params& p) { p.complexity_with_exponential = false; }));
  m.push_back(simulation52_mutation("second-layer window keys weighed 1", "the simulation-error bound with each "
                                    "second-layer window key weighed 1 (W_L = tau + 1) although the query's own key "
                                    "weighs L^(3/4)", kSecondPhiPair,
                                    [](Simulation52Params& p) { p.bound_terms.window_weight = false; }));
  m.push_back(simulation52_mutation("z of any parity", "the simulation-error bound applied to z from the position-wise "
                                    "chain (|z| of either parity) on a period-2 pair, as if z's query window had x's "
                                    "residues", kPeriod2Pair,
                                    [](Simulation52Params& p) { p.bound_terms.same_residue = false; }));
  m.push_back(simulation52_mutation("Lip_out without the MLP", "the simulation-error bound with Lip_out = |U| (the "
                                    "second MLP's factor 1 + |out| |in| dropped) on a pair whose MLP multiplies the "
                                    "output slot by 20", kTwoHeadsMlpPair,
                                    [](Simulation52Params& p) { p.bound_terms.mlp_term = false; }));
  m.push_back(simulation52_mutation("position-dominant bulk charged nothing", "the simulation-error bound without the "
                                    "share L^(1 - Phi) of the bulk keys, as if the query's own key (phi = 3/2) took all "
                                    "the attention", kDominantPair,
                                    [](Simulation52Params& p) { p.bound_terms.vanishing_share = false; }));
  m.push_back({kKgramId, "no minimum length", "the approximation claimed from length k + 1 instead of T0 = k + "
               "5k/(2 rho eps) (the first k positions have no context)", kKgram, [](const std::filesystem::path& dir) {
                 Case c = load(dir, kKgram);
                 KgramParams p = kgram_params(c);
                 p.from_min_length = false;
                 p.random_inputs = 0;
                 return check_kgram(c, p);
               }});
  m.push_back(lipschitz_mutation("Lip without e^(spread)", "the Lipschitz constant of Phi without its exponential factor",
                                 [](LipschitzParams& p) { p.with_exponential = false; }));
  m.push_back(lipschitz_mutation("Lip claimed 0",
                                 "Phi claimed independent of the histogram (Lip = 0) on a token-dominant model",
                                 [](LipschitzParams& p) { p.claim_zero = true; }));
  m.push_back(threshold_mutation("threshold 4x too large",
                                 "ceil(2^(p/gamma)) multiplied by 4: caught by the tightness witness at t - 1", kModp2,
                                 [](unsigned bits, const Rational& g) { return 4 * hardmax_threshold(bits, g); }));
  m.push_back(threshold_mutation("threshold halved (finite-weights:6)",
                                 "ceil(2^(p/gamma)) divided by 2 under finite-weights:p: a sub-maximal key's "
                                 "normalised weight still exceeds 2^-p there",
                                 kWeights, [](unsigned bits, const Rational& g) { return hardmax_threshold(bits, g) / 2; }));
  m.push_back({kThresholdId, "window end 2^p (finite-weights:6)",
               "the finite-weights:p window claimed to reach 2^p: the top keys' weights 1/2^p round there", kWeights,
               [](const std::filesystem::path& dir) {
                 Case c = load(dir, kWeights);
                 ThresholdParams p = threshold_params(c);
                 p.window_end = [](unsigned bits) { return Integer(1) << bits; };
                 return check_threshold(c, p);
               }});
  // The counterexample each mutation must produce: the broken inequality, as
  // the claim's REFUTED detail states it.
  const std::map<std::string, std::string> shows = {
      {"S.consistency/threshold halved", "!= hardmax above the claimed threshold"},
      {"S.consistency/threshold off by one", "!= hardmax above the claimed threshold"},
      {"S.consistency/threshold halved (finite:8)", "!= hardmax above the claimed threshold"},
      {"T4.1.threshold/2^p/gamma for 2^(p/gamma)", "!= hardmax at T >="},
      {"T4.1.threshold/threshold halved", "!= hardmax at T >="},
      {"T4.1.threshold/threshold 4x too large", "is not the first length where"},
      {"T4.1.threshold/threshold halved (finite-weights:6)", "!= hardmax at T in"},
      {"T4.1.threshold/window end 2^p (finite-weights:6)", "!= hardmax at T in"},
      {"L4.L/L without the MLP term", "> L * max_h |w_h(x) - w_h(z)|_1"},
      {"L4.L/L without |omega|", "> L * max_h |w_h(x) - w_h(z)|_1"},
      {"T4.1.sim/N_sim halved", "> N_sim"},
      {"T4.1.sim/2^(p/gamma) padding dropped", "> N_sim"},
      {"T4.1.sim/resolution Q = 2", "> epsilon"},
      {"T4.1.sim/resolution Q/4", "> delta = "},
      {"T4.1.sim/N_sim halved (one-value head)", "> N_sim"},
      {"T4.1.sim/every head taken as one value", "> epsilon"},
      {"T4.1.lg/conclusion 3 eps -> eps/20", "D_inf >= D("},
      {"T4.1.witness/agreement up to 2n", "f and g differ at length"},
      {"T4.1.witness/eta doubled", "no difference of eta"},
      {"T4.1.witness/margin witness: agreement up to N", "f and g differ at length"},
      {"T4.1.witness/margin witness: eta doubled", "no difference of eta"},
      {"T4.1.witness/margin witness (gamma 1/2): agreement up to N", "f and g differ at length"},
      {"T4.1.witness/margin witness (gamma 1/2): eta doubled", "no difference of eta"},
      {"T4.1.witness/margin witness (gamma 1/4): agreement up to N", "f and g differ at length"},
      {"T4.1.witness/margin witness (gamma 1/4): eta doubled", "no difference of eta"},
      {"T4.2.avg/no multiplicities", "> C eps^(1/2)"},
      {"T4.2.avg/N0 from alpha_max", "> C eps^(1/2)"},
      {"T4.2.avg/C halved", "> C eps^(1/2)"},
      {"C4.2.regularity/switch one step late", "not 0 as claimed"},
      {"C4.2.regularity/eta doubled", "not 2 as claimed"},
      {"L5.conv/positional margin without the 1", "vs the bound"},
      {"L5.conv/K/2", "vs the bound"},
      {"L5.3.subsample/drift term dropped", "moves by more than its drift-form premise"},
      {"L5.3.subsample/G/4 in the drift form", "moves by more than its drift-form premise"},
      {"T5.2.witness/position witness (gamma 1/2): agreement up to N", "f and g differ at length"},
      {"T5.2.witness/position witness (gamma 1/2): eta doubled", "no difference of eta"},
      {"T5.2.witness/position witness (gamma 1/3): agreement up to N", "f and g differ at length"},
      {"T5.2.witness/position witness (gamma 1/3): eta doubled", "no difference of eta"},
      {"T5.2.witness/position witness (gamma 1/4): agreement up to N", "f and g differ at length"},
      {"T5.2.witness/position witness (gamma 1/4): eta doubled", "no difference of eta"},
      {"T5.2.sim/bound without e^A", "exceeds the simulation-error bound"},
      {"T5.2.sim/C(f) without e^A", "exceeds C(f)"},
      {"T5.2.sim/second-layer window keys weighed 1", "exceeds the simulation-error bound"},
      {"T5.2.sim/z of any parity", "exceeds the simulation-error bound"},
      {"T5.2.sim/Lip_out without the MLP", "exceeds the simulation-error bound"},
      {"T5.2.sim/position-dominant bulk charged nothing", "exceeds the simulation-error bound"},
      {"D5.4.kgram/no minimum length", "> eps"},
      {"L5.lip/Lip without e^(spread)", "against Lip |mu - mu'|_1"},
      {"L5.lip/Lip claimed 0", "against Lip |mu - mu'|_1 = 0"},
  };
  for (Mutation& mutation : m) mutation.counterexample = shows.at(mutation.claim + "/" + mutation.name);
  return m;
}

/// A markdown table cell: a literal '|' must be escaped.
}  // namespace

bool refutes_for_the_stated_reason(const Mutation& m, const ClaimResult& r) {
  return r.verdict == Verdict::Refuted && !m.counterexample.empty() && r.detail.find(m.counterexample) != std::string::npos;
}

const std::vector<Mutation>& mutation_registry() {
  static const std::vector<Mutation> registry = build_registry();
  return registry;
}

std::string mutation_table(const std::filesystem::path& cases_dir) {
  std::string out =
      "| claim | mutation | what is broken | the counterexample shows | case | verdict |\n|---|---|---|---|---|---|\n";
  const auto& mutations = mutation_registry();
  for (std::size_t k = 0; k < mutations.size(); ++k) {
    const auto& m = mutations[k];
    report_progress(k, mutations.size(), m.claim + ": " + m.name);
    ClaimResult r = m.run(cases_dir);
    const std::string verdict = r.verdict == Verdict::Refuted && !refutes_for_the_stated_reason(m, r)
                                    ? "REFUTED for another reason"
                                    : to_string(r.verdict);
    out += "| `" + m.claim + "` | " + markdown_cell(m.name) + " | " + markdown_cell(m.description) + " | `" +
           markdown_cell(m.counterexample) + "` | `" + m.case_file + "` | " + verdict + " |\n";
  }
  return out;
}

}  // namespace lgc
