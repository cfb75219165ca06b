// Section 4 claims: PROVED on bundled cases, and REFUTED under each
// deliberate break of a constant (the mutations the issue lists, and one per
// checker).
#include "claims/section4/theorem41.hpp"
#include "claims/case_models.hpp"

#include "lgcheck/bounds/theorem41.hpp"
#include "lgcheck/enumerate/strings.hpp"
#include "lgcheck/quantities/logit_margin.hpp"
#include "lgcheck/semantics/finite_precision.hpp"
#include "lgcheck/tasks/paper_tasks.hpp"

#include "support.hpp"

#include <set>

using lgc::Rational;
using lgc::Verdict;

namespace {

void require(Verdict expected, const lgc::ClaimResult& r) {
  INFO(r.id << " on " << r.case_name << ": " << lgc::to_string(r.verdict) << ": " << r.detail);
  CHECK(r.verdict == expected);
}

}  // namespace

TEST_CASE("gamma and L of ModPTask are 1, L of the SimpleTask readouts by hand", "[section4][norm]") {
  for (std::size_t p : {2u, 3u, 5u, 7u}) {
    lgc::Model m = lgc::modp_task(p, lgc::Semantics::hardmax());
    CHECK(*lgc::logit_margin(m).gamma == 1);
    CHECK(lgc::norm_constant(m).L == 1);
  }
  // sin readout: L = |omega| * |U| * V = omega.
  CHECK(lgc::norm_constant(lgc::simple_task(Rational(8), lgc::SimpleReadout::Sin)).L == 8);
  // ReLU readout: L = |U| (1 + |B| |A|) V = 1 + sum_k |c_k| (A has one 1 per row).
  lgc::Model relu = lgc::simple_task(Rational(2), lgc::SimpleReadout::ReluMlp);
  Rational total = 0;
  for (std::size_t k = 0; k < relu.layers[0].mlp->out.cols(); ++k) total += abs(relu.layers[0].mlp->out(3, k));
  CHECK(lgc::norm_constant(relu).L == 1 + total);
  lgc::NormOptions no_mlp;
  no_mlp.include_mlp_term = false;
  CHECK(lgc::norm_constant(relu, no_mlp).L == 1);
}

TEST_CASE("L and gamma of random models against brute force over all strings", "[section4][norm]") {
  std::mt19937_64 rng(lgc::test::test_seed() + 21);
  INFO("seed " << lgc::test::test_seed() + 21);
  for (int rep = 0; rep < 4; ++rep) {
    lgc::Model m = lgc::modp_task(2, lgc::Semantics::hardmax());
    auto& head = m.layers[0].heads[0];
    for (std::size_t r = 0; r < 5; ++r)
      for (std::size_t c = 0; c < 5; ++c) {
        head.qk(r, c) = lgc::test::random_rational(rng, 3);
        head.value(r, c) = lgc::test::random_rational(rng, 4);
      }
    // V_h by brute force: the largest |V y_j| over every key of every string.
    Rational v_brute = 0;
    std::set<Rational> gaps;
    lgc::for_each_string(2, 6, [&](const lgc::Tokens& x) {
      for (std::size_t j = 1; j <= x.size(); ++j)
        v_brute = std::max(v_brute, lgc::linf_norm(lgc::apply<Rational>(head.value, lgc::initial_embedding(m, x[j - 1], j))));
      // logits met at the last query
      auto q = lgc::apply<Rational>(head.qk, lgc::initial_embedding(m, x.back(), x.size()));
      std::vector<Rational> logits;
      for (std::size_t j = 1; j <= x.size(); ++j)
        logits.push_back(lgc::dot<Rational>(lgc::initial_embedding(m, x[j - 1], j), q) + (j == x.size() ? head.phi[0] : Rational(0)));
      std::sort(logits.begin(), logits.end());
      for (std::size_t k = 1; k < logits.size(); ++k)
        if (logits[k] != logits[k - 1]) gaps.insert(logits[k] - logits[k - 1]);
      return true;
    });
    CHECK(lgc::value_norm(m, 0) == v_brute);
    CHECK(lgc::norm_constant(m).L == lgc::readout_lipschitz(m) * v_brute);
    lgc::LogitMargin lm = lgc::logit_margin(m);
    if (!gaps.empty()) {
      REQUIRE(lm.gamma.has_value());
      CHECK(*lm.gamma <= *gaps.begin());  // every gap met is at least gamma
    }
  }
}

TEST_CASE("Theorem 4.1 bounds by hand on ModPTask p = 3", "[section4][bound]") {
  lgc::Case c = lgc::test::bundled("paper/modp/modp_p3_hardmax.json");
  lgc::CaseModels cm = lgc::section4_models(c);
  lgc::Theorem41Bounds b = lgc::theorem41_bounds(cm.models, Rational(1, 10), 8);
  CHECK(b.threshold == 256);
  // L^2 D^7 S^6 tau_hat^2 / eps^2 = 3^7 * 64 * 100
  CHECK(b.sample_term == Rational(2187 * 64 * 100));
  CHECK(b.N_paper == 2187 * 64 * 100);
  CHECK(b.sample_term_sum_form == Rational(2187 * 81 * 100));
  // Q = ceil((5*6 + 7*2 + 0 + 6) * 10 + 1/2) = 501; anchored: 3 * (2*501 + 4) = 3018
  CHECK(b.sim.resolution == 501);
  CHECK(b.sim.anchored);
  CHECK(b.sim.N == 3018);
  // the constant c scales N_paper; c * 2^{p/gamma} is rounded up exactly
  CHECK(lgc::theorem41_bounds(cm.models, Rational(1000), 8, Rational(3, 2)).N_paper == 384);
}

TEST_CASE("Section 4 claims hold on bundled cases, with the verdict their scope calls for", "[section4][claim]") {
  lgc::Case modp = lgc::test::bundled("paper/modp/modp_p3_hardmax.json");
  lgc::Case margin = lgc::test::bundled("section4/modp_p3_finite6_margin1_2.json");
  // Random lengths beyond the threshold: SAMPLED.
  require(Verdict::Sampled, lgc::check_threshold(margin, lgc::threshold_params(margin)));
  // The pair cap binds on modp_p3 (every k-th pair of each group): SAMPLED.
  require(Verdict::Sampled, lgc::check_norm(modp, lgc::norm_params(modp)));
  lgc::SimulationParams sim = lgc::simulation_params(modp);
  sim.random_inputs = 300;
  require(Verdict::Sampled, lgc::check_simulation(modp, sim));
  sim.random_inputs = 0;  // the exhaustive part alone, no cap reached: PROVED on its stated domain
  sim.hard_inputs = false;
  const lgc::ClaimResult exhaustive = lgc::check_simulation(modp, sim);
  require(Verdict::Proved, exhaustive);
  CHECK(exhaustive.scope.samples == 0);
  CHECK(exhaustive.scope.exhaustive > 0);
  lgc::Case pair = lgc::test::bundled("pairs/simple_w8_sin_vs_relu.json");
  require(Verdict::Proved, lgc::check_implication(pair, lgc::implication_params(pair)));
  lgc::Case farey = lgc::test::bundled("witnesses/farey_hat_n8.json");
  require(Verdict::Proved, lgc::check_witness(farey, lgc::witness_params(farey)));
}

TEST_CASE("Mutation: N_sim halved is REFUTED", "[section4][mutation]") {
  lgc::Case modp = lgc::test::bundled("paper/modp/modp_p3_hardmax.json");
  lgc::SimulationParams sim = lgc::simulation_params(modp);
  sim.random_inputs = 300;
  sim.length_bound_scale = Rational(1, 2);
  require(Verdict::Refuted, lgc::check_simulation(modp, sim));
}

TEST_CASE("Mutation: the 2^{p/gamma} padding dropped from N_sim is REFUTED", "[section4][mutation]") {
  lgc::Case margin = lgc::test::bundled("section4/modp_p3_finite6_margin1_2.json");
  lgc::SimulationParams sim = lgc::simulation_params(margin);
  sim.random_inputs = 50;
  sim.drop_padding = true;
  require(Verdict::Refuted, lgc::check_simulation(margin, sim));
}

TEST_CASE("T4.1.threshold under finite-weights:p: the window t <= T <= 2^p - 1, its two ends broken", "[section4][claim]") {
  lgc::Case c = lgc::test::bundled("section4/attend_ones_gamma2_finite_weights6.json");
  const lgc::ThresholdParams params = lgc::threshold_params(c);
  REQUIRE(params.normalised_weights);
  const lgc::ClaimResult r = lgc::check_threshold(c, params);
  require(Verdict::Proved, r);  // every statistic of every length 8..63, the sharpness witness at 7
  CHECK(r.evidence["window_end"] == "63");
  CHECK(r.evidence["witness"]["length"] == 7);
  CHECK(r.evidence["past_window"]["length"] == 64);
  CHECK(r.detail.find("finite-weights:6 gives (1, 0, 49/55), hardmax gives (1, 0, 1)") != std::string::npos);
  // The window claimed one length longer: at T = 64 the 64 top keys' weights 1/64 round.
  lgc::ThresholdParams longer = params;
  longer.window_end = [](unsigned p) { return lgc::Integer(1) << p; };
  const lgc::ClaimResult l = lgc::check_threshold(c, longer);
  require(Verdict::Refuted, l);
  CHECK(l.detail.find("!= hardmax at T in [8, 64]") != std::string::npos);
  CHECK(l.detail.find("at T=64") != std::string::npos);
  // The threshold halved: at T = 4 a 0-key's weight 1/16 / Σu > 2^-6 survives.
  lgc::ThresholdParams halved = params;
  halved.threshold = [](unsigned p, const Rational& g) { return lgc::hardmax_threshold(p, g) / 2; };
  require(Verdict::Refuted, lgc::check_threshold(c, halved));
  // Margin 1 (ModPTask p = 2): t = 2^p, the window [2^p, 2^p - 1] is empty: VACUOUS, nothing compared.
  lgc::Case modp = c;
  modp.models = {lgc::modp_task(2, lgc::Semantics::finite_weights(6))};
  const lgc::ClaimResult empty = lgc::check_threshold(modp, lgc::threshold_params(modp));
  require(Verdict::Vacuous, empty);
  CHECK(empty.evidence["compared"] == 0);
  // gamma = inf (no key below the top: the head weighs every key alike): nothing rounds in the window, VACUOUS, and
  // past it the 64 top keys round together, recorded as the past-window witness.
  lgc::Case uniform = c;
  uniform.models[0].layers[0].heads[0].qk = lgc::QMatrix(3, 3);
  const lgc::ClaimResult flat = lgc::check_threshold(uniform, lgc::threshold_params(uniform));
  require(Verdict::Vacuous, flat);
  CHECK(flat.detail.find("nothing to round in the window") != std::string::npos);
  CHECK(flat.evidence["past_window"]["length"] == 64);
  // The same model under finite:6 is the paper's reading: the claim holds from t = 64 on, and the Section 4 gate
  // refuses finite-weights:p everywhere else.
  CHECK_FALSE(lgc::is_section4_case(c));
  CHECK_THROWS_WITH(lgc::section4_models(c), Catch::Contains("finite-weights:p is read by eval, margin, average and "
                                                             "the claim T4.1.threshold only"));
}

TEST_CASE("Mutation: 2^p/gamma in place of 2^{p/gamma} is REFUTED", "[section4][mutation]") {
  lgc::Case margin = lgc::test::bundled("section4/modp_p3_finite6_margin1_2.json");
  lgc::ThresholdParams params = lgc::threshold_params(margin);
  params.threshold = [](unsigned p, const Rational& gamma) { return lgc::ceil(Rational(lgc::pow(lgc::Integer(2), p)) / gamma); };
  require(Verdict::Refuted, lgc::check_threshold(margin, params));
}

TEST_CASE("Mutation: L without the MLP term is REFUTED", "[section4][mutation]") {
  lgc::Case relu = lgc::test::bundled("paper/simple/simple_w8_relu.json");
  lgc::NormParams params = lgc::norm_params(relu);
  params.norm.include_mlp_term = false;
  require(Verdict::Refuted, lgc::check_norm(relu, params));
  lgc::Case sine = lgc::test::bundled("paper/simple/simple_w8_sin.json");
  lgc::NormParams no_omega = lgc::norm_params(sine);
  no_omega.norm.include_sin_factor = false;
  require(Verdict::Refuted, lgc::check_norm(sine, no_omega));
}

TEST_CASE("Mutation: a too small Q in the construction is REFUTED", "[section4][mutation]") {
  lgc::Case modp = lgc::test::bundled("paper/modp/modp_p3_hardmax.json");
  lgc::SimulationParams sim = lgc::simulation_params(modp);
  sim.random_inputs = 300;
  sim.resolution_override = 2;
  require(Verdict::Refuted, lgc::check_simulation(modp, sim));
}

TEST_CASE("Mutation: T4.1.lg with a smaller conclusion factor is REFUTED", "[section4][mutation]") {
  lgc::Case pair = lgc::test::bundled("pairs/modp_p2_perturbed_pair.json");
  lgc::ImplicationParams params = lgc::implication_params(pair);
  params.conclusion_factor = Rational(1, 20);
  require(Verdict::Refuted, lgc::check_implication(pair, params));
}

TEST_CASE("Mutation: a Farey-hat pair claimed equal up to 2n is REFUTED", "[section4][mutation]") {
  lgc::Case farey = lgc::test::bundled("witnesses/farey_hat_n8.json");
  lgc::WitnessParams params = lgc::witness_params(farey);
  params.n = 2 * params.n;
  require(Verdict::Refuted, lgc::check_witness(farey, params));
  lgc::WitnessParams bigger = lgc::witness_params(farey);
  bigger.eta = Rational(1, 2);
  require(Verdict::Refuted, lgc::check_witness(farey, bigger));
}

TEST_CASE("D(n), N_emp and the bracket on a Farey-hat pair", "[section4][distance]") {
  lgc::Case farey = lgc::test::bundled("witnesses/farey_hat_n4.json");
  lgc::CaseModels cm = lgc::section4_models(farey);
  lgc::DistanceCurve curve = lgc::distance_curve(*cm.models[0], *cm.models[1], 8);
  REQUIRE(curve.reached == 8);
  for (int n = 1; n <= 4; ++n) CHECK(curve.D[n - 1] == lgc::Number(0));
  CHECK(curve.D[4] == lgc::Number(Rational(1, 4)));  // the mediant 2/5 at length 5
  CHECK(*lgc::measured_threshold(curve, Rational(1, 10)) == 5);
  lgc::DistanceBracket b = lgc::distance_bracket(cm, curve);
  REQUIRE(b.upper.has_value());
  CHECK(*b.upper >= Rational(1, 4));
  CHECK(*b.upper < Rational(1, 4) + Rational(1, 1000));
}

TEST_CASE("L4.L under a sin readout: a pair with the same representation has the exact difference 0, not UNDECIDED",
          "[section4][claim]") {
  // A random hardmax model with a sin readout: f(x) and f(z) are enclosures. Pairs whose attention agrees (Δω = 0,
  // so the bound L·Δω is 0) have the same representation before the readout, hence equal outputs; measured as the
  // difference of two enclosures they stayed undecided (1 933 of 9 920 pairs, and the claim UNDECIDED).
  const lgc::Case c = lgc::parse_case(nlohmann::json::parse(R"({"format": "lgcheck-case/1", "name": "random_sin",
    "alphabet": ["0", "1"], "embedding": [["1/4", "-1/4"], ["0", "-1/2"]], "positional": [["0", "0"]],
    "layers": [{"heads": [{"phi": ["0", "0"], "qk": [["1/4", "-3/4"], ["-3/4", "1/4"]], "value": [["3/4", "-1/2"], ["0", "-3/4"]]},
                          {"phi": ["1/2", "0"], "qk": [["0", "3/4"], ["0", "-3/4"]], "value": [["1/4", "0"], ["1/4", "-1/2"]]}]}],
    "locality": 1, "period": 1, "semantics": "hardmax", "width": 2,
    "readout": {"activation": {"sin": "1"}, "bias": ["0"], "weights": [["1/4", "-1/2"]]}})"), "inline");
  const lgc::ClaimResult r = lgc::check_norm(c, lgc::norm_params(c));
  require(Verdict::Sampled, r);
}
