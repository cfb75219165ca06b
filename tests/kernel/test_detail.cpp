// check_detail: a certificate's detail is its claim's sentence for its verdict, filled from the record; and the three
// valid certificates of random models the kernel used to reject.
#include "lgcheck/kernel/certificate.hpp"
#include "lgcheck/kernel/detail.hpp"
#include "detail_tampering.hpp"
#include "support.hpp"

#include <catch2/catch.hpp>

#include <algorithm>
#include <regex>

using nlohmann::json;
namespace k = lgc::kernel;

namespace {

using kt::accepted_tamperings;
using kt::fixture;
using kt::has;

std::optional<k::DetailCheck> detail_of(const json& cert) {
  return k::check_detail(cert, lgc::parse_case(cert["case"], "inline"));
}

/// A fixture, the free slots of its sentence, the numbers of its detail, and how many of them changed one at a time
/// (last digit) are still accepted: all inside free slots.
struct DetailRow {
  const char* name;
  std::size_t free, numbers, accepted;
};

void check_rows(const std::vector<DetailRow>& rows) {
  for (const DetailRow& row : rows) {
    const json cert = fixture(row.name);
    const auto d = detail_of(cert);
    INFO(row.name << "\n" << cert["detail"].get<std::string>() << "\n" << (d ? d->expected : "unknown claim"));
    REQUIRE(d);
    CHECK(d->matches);
    CHECK(d->free_slots == row.free);
    std::size_t numbers = 0;
    CHECK(accepted_tamperings(cert, numbers) == row.accepted);
    CHECK(numbers == row.numbers);
  }
}

}  // namespace

TEST_CASE("the detail of a holding verdict is its claim's sentence, each number tied to the record or counted free",
          "[kernel][detail]") {
  // fixture, free slots of its sentence, numbers of its detail, tamperings still accepted (all inside free slots)
  const std::vector<DetailRow> rows = {
      {"modp_p3_perturbed_pair__L4.L.json", 0, 11, 0},  // every number a recorded field or the domain's
      {"modp_p2_perturbed_pair__T4.1.lg.json", 0, 5, 0},
      {"modp_p3_hardmax__T4.1.sim.json", 0, 11, 0},  // the constructed inputs: the samples less the 1000 random
      // no exhaustive length: the first length is the padding length t = 256 (finite:8, gamma = 1), T up to 10^6
      {"modp_p2_finite8__T4.1.sim.json", 0, 10, 0},
      {"farey_hat_n4__T4.1.witness.json", 0, 10, 0},  // |f - g| at the witness, the kernel's exact value
      {"position_witness_gamma1_2_rho1_4__T5.2.witness.json", 0, 20, 0},  // the statistic rendered from the witness
      // the two representation tuples of the witness: the kernel's, but the enclosed coordinate's two printed ends
      {"modp_p3_finite6_margin1_2__T4.1.threshold.json", 1, 40, 2},
      {"modp_p3_finite_weights6__T4.1.threshold.json", 0, 5, 0},  // the empty window
      {"simple_w8_sin__S.consistency.json", 0, 8, 0},  // the random lengths from..from + 31
      {"presence_skewed__T4.2.avg.json", 0, 5, 0},                // VACUOUS
      {"presence_binding__T4.2.avg.json", 0, 8, 0},               // SAMPLED
      {"regularity_k64__C4.2.regularity.json", 0, 6, 0},
      {"regime_token__L5.lip.json", 0, 4, 0},
      {"kgram_k1_s2__D5.4.kgram.json", 0, 10, 0},  // the longest random T the claim's; worst_error at 4 digits
      // G and L from the tests' own; the informative premises: the certificate check's count (below), free here
      {"regime_token__L5.3.subsample.json", 1, 11, 1},
      {"attention_pair_smooth__T5.2.sim.json", 0, 10, 0},  // the smallest bound at 4 digits from smallest_bound
  };
  check_rows(rows);
}

TEST_CASE("L5.3.subsample's count of drift-form premises below 2G is the certificate check's own", "[kernel][detail]") {
  json cert = fixture("regime_token__L5.3.subsample.json");
  const auto r = k::check_certificate(cert);
  INFO((r.problems.empty() ? "" : r.problems.front()));
  REQUIRE(r.accepted());
  for (const auto& n : r.not_reestablished) CHECK(n.find("detail:") == std::string::npos);  // every number tied
  const std::string detail = cert["detail"];
  REQUIRE(detail.find("(1799 premises below 2G)") != std::string::npos);
  cert["detail"] = std::regex_replace(detail, std::regex("1799 premises"), "1800 premises");
  CHECK(has(k::check_certificate(cert).problems, "detail: recorded"));
  // Told the count, the detail check ties it; without it, it is a free slot.
  json edited = cert;
  CHECK_FALSE(k::check_detail(edited, lgc::parse_case(edited["case"], "inline"), {1799})->matches);
  CHECK(detail_of(edited)->matches);
}

TEST_CASE("a detail edited in its words or numbers is rejected by the certificate check, both texts named",
          "[kernel][detail]") {
  json cert = fixture("modp_p3_perturbed_pair__L4.L.json");
  const std::string original = cert["detail"];
  const std::string pairs = cert["evidence"]["pairs"].dump();
  cert["detail"] = std::regex_replace(original, std::regex(" on " + pairs + " pairs"), " on 999999999 pairs");
  auto r = k::check_certificate(cert);
  INFO((r.problems.empty() ? "" : r.problems.front()));
  CHECK(has(r.problems,
            "detail: recorded \"" + cert["detail"].get<std::string>() + "\", the record implies \"" + original + "\""));
  // Words: the enumerated count made to read as every pair.
  cert["detail"] =
      std::regex_replace(original, std::regex(R"(\((\d+) of the (\d+) pairs)"), "(every one of the $2 pairs");
  REQUIRE(cert["detail"] != original);
  CHECK(has(k::check_certificate(cert).problems, "detail: recorded"));
  // A VACUOUS T4.1.lg record carrying the holding sentence (its numbers all true).
  json lg = fixture("modp_p1_value_readout_pair_eps1_11__T4.1.lg.json");
  const std::string bracket = lg["detail"].get<std::string>().substr(lg["detail"].get<std::string>().find("; D(") + 2);
  lg["detail"] = "D(N) <= eps = 1/11 and D_inf <= 3 * eps: " + bracket;
  CHECK_FALSE(detail_of(lg)->matches);
  // A field the sentence reads, edited in the record only: the detail no longer matches it.
  json sim = fixture("attention_pair_smooth__T5.2.sim.json");
  sim["evidence"]["N_variant_B"] = "1";
  CHECK_FALSE(detail_of(sim)->matches);
  json threshold = fixture("modp_p3_finite6_margin1_2__T4.1.threshold.json");
  threshold["evidence"]["witnesses"][0]["statistic"]["counts"][0] = 1;  // the finding's statistic, rendered from it
  CHECK_FALSE(detail_of(threshold)->matches);
  // A REFUTED record's detail is read too: a holding record relabelled REFUTED with any text is rejected for it.
  json refuted = fixture("regime_token__L5.lip.json");
  refuted["verdict"] = "REFUTED";
  refuted["detail"] = "anything";
  CHECK(has(k::check_certificate(refuted).problems, "detail: recorded \"anything\", the record implies"));
}

TEST_CASE("the detail of a REFUTED or UNDECIDED verdict is its claim's sentence for that verdict, each number tied "
          "to the record or counted free",
          "[kernel][detail]") {
  // The search's records: random models' REFUTED and UNDECIDED runs, and REFUTED records of the mutation suite's
  // broken constants (data/details/mutation_*: rejected by the kernel for the constant, their details the search's
  // sentences). Free slots are the counterexample's own values and what the kernel does not draw.
  const std::vector<DetailRow> rows = {
      // REFUTED
      {"details/random_differ__T4.1.witness.json", 3, 5, 4},  // the first length, |f - g|, the statistic
      {"details/random_no_difference__T4.1.witness.json", 0, 4, 0},
      {"details/random_differ__T5.2.witness.json", 2, 7, 3},  // the length tied to differs_at
      {"details/mutation_eta_doubled__T5.2.witness.json", 1, 3, 1},  // the largest |f - g| at M
      {"details/mutation_threshold_halved__S.consistency.json", 2, 15, 10},  // the two outputs; the input tied
      {"details/mutation_threshold_halved__T4.1.threshold.json", 2, 25, 11},  // the outputs; the statistic tied
      {"details/mutation_window_halved__T4.1.threshold.json", 2, 15, 6},
      {"random_not_sharp__T4.1.threshold.json", 0, 6, 0},
      {"details/mutation_no_omega__L4.L.json", 2, 18, 3},  // |f(x) - f(z)| and the distance; x and z tied
      {"details/mutation_no_padding__T4.1.sim.json", 0, 19, 0},  // x and |z| tied to the violating witness
      {"presence_binding_small_C__T4.2.avg.json", 2, 9, 2},  // the failing T and E_T
      {"presence_refuted_at_doubling__T4.2.avg.json", 2, 9, 2},
      {"regularity_k64_wrong_eta__C4.2.regularity.json", 2, 4, 2},
      {"details/mutation_K_halved__L5.conv.json", 5, 9, 7},  // the two tokens, i, |Y - Phi| and the bound
      {"details/mutation_lip_0__L5.lip.json", 3, 6, 4},
      {"kgram_k1_s2_weak_copy__D5.4.kgram.json", 0, 2, 0},
      {"details/mutation_no_minimum_length__D5.4.kgram.json", 4, 5, 4},
      {"details/mutation_no_drift_term__L5.3.subsample.json", 2, 9, 2},  // the scaled L and G
      {"details/mutation_dominant_bulk_free__T5.2.sim.json", 2, 6, 3},
      {"random_sin_pair_refuted__T4.1.witness.json", 3, 6, 5},
      // UNDECIDED
      {"random_sin_constant__L4.L.json", 1, 2, 1},  // the undecided pairs
      {"details/random_beyond_reach__S.consistency.json", 0, 3, 0},
      {"details/random_cannot_decide__T4.1.lg.json", 0, 5, 0},
      {"details/random_threshold_beyond__T4.1.sim.json", 0, 4, 0},
      {"details/random_tightness_open__T4.1.threshold.json", 0, 5, 0},  // the random statistics: the claim's 4000
      {"details/random_enclosure_of_0__T4.1.witness.json", 3, 6, 5},
      {"presence_eps_above_1__T4.2.avg.json", 0, 2, 0},
      {"details/random_beyond_budget__T4.2.avg.json", 0, 3, 0},
      {"details/random_second_layer_value__T5.2.witness.json", 0, 2, 0},
      {"details/random_stopped_items__L5.conv.json", 0, 1, 0},
      {"details/random_stopped_seconds__T4.1.lg.json", 1, 2, 1},  // the items enumerated before the clock ran out
  };
  check_rows(rows);
}

TEST_CASE("a REFUTED or UNDECIDED detail of another verdict's sentence, another model or another witness is "
          "rejected",
          "[kernel][detail]") {
  // T4.1.witness: the REFUTED sentence under UNDECIDED, and the UNDECIDED one under REFUTED.
  json witness = fixture("details/random_no_difference__T4.1.witness.json");
  witness["verdict"] = "UNDECIDED";
  CHECK_FALSE(detail_of(witness)->matches);
  json open = fixture("details/random_enclosure_of_0__T4.1.witness.json");
  open["verdict"] = "REFUTED";
  CHECK_FALSE(detail_of(open)->matches);
  // L4.L: the violating pair is the recorded witness's, named by its model.
  json norm = fixture("details/mutation_no_omega__L4.L.json");
  REQUIRE(detail_of(norm)->matches);
  norm["evidence"]["witnesses"][0]["z"]["counts"][0] = 2;
  CHECK_FALSE(detail_of(norm)->matches);
  norm = fixture("details/mutation_no_omega__L4.L.json");
  norm["case"]["name"] = "another";
  CHECK_FALSE(detail_of(norm)->matches);
  // T5.2.witness: the head the statistic argument stops at is the case's first with a non-zero value.
  json obstacle = fixture("details/random_second_layer_value__T5.2.witness.json");
  REQUIRE(detail_of(obstacle)->matches);
  for (auto& m : obstacle["case"]["pair"])
    for (auto& row : m["layers"][1]["heads"][0]["value"])
      for (auto& v : row) v = "0";
  CHECK_FALSE(detail_of(obstacle)->matches);
  // T4.2.avg: "beyond the budget" names the case's check.average_budget and N0·2^d (d = check.doublings).
  json avg = fixture("details/random_beyond_budget__T4.2.avg.json");
  avg["case"]["check"]["average_budget"] = 1000000;
  CHECK_FALSE(detail_of(avg)->matches);
  avg = fixture("details/random_beyond_budget__T4.2.avg.json");
  avg["case"]["check"]["doublings"] = 2;
  CHECK_FALSE(detail_of(avg)->matches);
  // A stopped run names the budget it recorded.
  json stopped = fixture("details/random_stopped_items__L5.conv.json");
  stopped["evidence"]["budget"] = "6000 enumerated items";
  CHECK_FALSE(detail_of(stopped)->matches);
}

TEST_CASE(
    "valid certificates of random models the kernel rejected: an enclosure of 0, a premise enclosure, equal "
    "readout arguments",
    "[kernel][certificate]") {
  // D = 0 exactly (f and g share V; a sin readout), enclosed at 128 bits as [0, 1.46936793853e-39] beside an exact
  // D_inf_upper of 0: the enclosure is within 2^-100 of it.
  json zero = fixture("random_pair_zero_distance__T4.1.lg.json");
  auto r = k::check_certificate(zero);
  INFO((r.problems.empty() ? "" : r.problems.front()));
  CHECK(r.accepted());
  zero["evidence"]["D_inf_lower"] = "[0, 1e-20]";
  CHECK(has(k::check_certificate(zero).problems, "evidence.D_inf_lower: not an exact rational or an enclosure"));
  // A sin pair's premise E_1 = [0.750169066058, 0.750169066059] > eps = 1/2: VACUOUS, read as an enclosure.
  json premise = fixture("random_sin_pair_premise__T4.2.avg.json");
  r = k::check_certificate(premise);
  INFO((r.problems.empty() ? "" : r.problems.front()));
  CHECK(r.accepted());
  premise["evidence"]["premise"]["E"] = "[0.4, 0.41]";  // below eps = 1/2 beside "holds": false, and not E_1
  CHECK(has(k::check_certificate(premise).problems, "evidence.premise.E: recorded \"[0.4, 0.41]\", the kernel encloses"));
  // Readout weights 0 under sin: f(x) = f(z) = sin(-1) for every pair, which two enclosures do not show; equal
  // readout arguments do (the sampled pairs of the domain were rejected as "not certainly <= 0").
  r = k::check_certificate(fixture("random_sin_constant__L4.L.json"));
  INFO((r.problems.empty() ? "" : r.problems.front()));
  CHECK(r.accepted());
  CHECK(has(r.reestablished, "scope.domain: L4.L at"));
}

TEST_CASE("forged details an audit found accepted are rejected: derived counts, wording by enumeration, tuples, "
          "T4.1.lg's source and reach, a premise enclosure against the kernel's own",
          "[kernel][detail]") {
  // T4.1.sim: a longest z below a recorded witness's z (the detail and the field edited together).
  json sim = fixture("modp_p3_hardmax__T4.1.sim.json");
  const std::string longest = sim["evidence"]["longest_z"].dump();
  sim["evidence"]["longest_z"] = 5;
  sim["detail"] = std::regex_replace(sim["detail"].get<std::string>(), std::regex("longest z " + longest), "longest z 5");
  CHECK_FALSE(detail_of(sim)->matches);
  // T4.1.threshold: T = 4095 has more than 200 000 statistics, so its witness was found by random search.
  json thr = fixture("modp_p3_finite6_margin1_2__T4.1.threshold.json");
  REQUIRE(detail_of(thr)->matches);
  thr["detail"] = std::regex_replace(thr["detail"].get<std::string>(), std::regex(R"(\(found by random search\))"),
                                     "(first in enumeration order)");
  CHECK_FALSE(detail_of(thr)->matches);
  // A tuple slot holds numbers and enclosures, not words.
  thr = fixture("modp_p3_finite6_margin1_2__T4.1.threshold.json");
  thr["detail"] = std::regex_replace(thr["detail"].get<std::string>(), std::regex(R"(gives \(0, 1, 1, 1, 1\))"),
                                     "gives (nothing: they agree everywhere)");
  CHECK_FALSE(detail_of(thr)->matches);
  // T4.1.lg: the source is one of the search's three texts; `reached` is the domain's last length under VACUOUS too.
  json lg = fixture("modp_p2_perturbed_pair__T4.1.lg.json");
  lg["evidence"]["upper_source"] = "value perturbation (certified by exact bisection)";
  CHECK(has(k::check_certificate(lg).problems, "evidence.upper_source: not one of the three sources"));
  lg = fixture("modp_p1_value_readout_pair_eps1_11__T4.1.lg.json");
  lg["evidence"]["reached"] = 1;
  CHECK(has(k::check_certificate(lg).problems, "evidence.reached: not the last length of the recorded domain"));
  // T4.2.avg under a sin readout: g's bias set to f's + 1/1000 (−499/1000), so E_1 is near 0.000734, while the
  // record keeps E_1 = [0.750169…] > eps.
  json premise = fixture("random_sin_pair_premise__T4.2.avg.json");
  premise["case"]["pair"][1]["readout"]["bias"] = json::array({"-499/1000"});
  CHECK(has(k::check_certificate(premise).problems, "evidence.premise.E: recorded \"[0.750169066058, 0.750169066059]\","
                                                    " the kernel encloses E_1 in [0.000734474328196, "));
  // g's bias made f's: the readouts' arguments agree at every string, so E_1 is the exact 0 (string_gap), and the
  // record's enclosure is not even of the right kind.
  premise["case"]["pair"][1]["readout"]["bias"] = premise["case"]["pair"][0]["readout"]["bias"];
  CHECK(has(k::check_certificate(premise).problems, "evidence.premise.holds: E_1 = 0 against epsilon 1/2"));
}

TEST_CASE("REFUTED records the search writes for token names holding a quote or a brace, and for integers beyond 20 "
          "digits, are accepted, and two T4.1.witness records the kernel rejected",
          "[kernel][detail]") {
  // An audit's cases (data/details): the statistic's window and bulk and a long E are read by their forms.
  for (const char* name : {"details/quote_token__T4.1.witness.json", "details/brace_token__T4.1.witness.json",
                           "details/long_integer__T4.2.avg.json", "details/long_integer__C4.2.regularity.json",
                           // and two T4.1.witness records the kernel rejected: eta absent (0, docs/case-format.md,
                           // read as 1/4), and the UNDECIDED of a case naming no witness order (no evidence)
                           "details/eta_default__T4.1.witness.json",
                           "details/random_no_witness_order__T4.1.witness.json",
                           // a sin pair's E_1 enclosure holding the claimed 0: UNDECIDED (the search said REFUTED)
                           "details/sin_enclosure__C4.2.regularity.json"}) {
    const auto r = k::check_certificate(fixture(name));
    INFO(name << "\n" << (r.problems.empty() ? "" : r.problems.front()));
    CHECK(r.accepted());
  }
  // An UNDECIDED claims nothing: a C4.2.regularity run stopped by its budget (K + tail = 4 > 3), whose case the kernel
  // finds false at t = 4 (E_4 = 0, not eta = 2), is accepted with that failure listed, not rejected.
  const auto undecided = k::check_certificate(fixture("details/undecided_false_claim__C4.2.regularity.json"));
  CHECK(undecided.accepted());
  CHECK(has(undecided.not_reestablished, "E_4 = 0 by the kernel's weighted strings or statistics, not 2 (the kernel "
                                         "finds the claim false here; the record is UNDECIDED)"));
  json order = fixture("details/random_no_witness_order__T4.1.witness.json");
  order["verdict"] = "PROVED";  // nothing recorded: a holding verdict is checked in full
  CHECK_FALSE(k::check_certificate(order).accepted());
  order = fixture("details/random_no_witness_order__T4.1.witness.json");
  order["case"]["check"]["witness_length"] = 2 * order["case"]["check"]["witness_n"].get<int>() + 2;
  CHECK(has(k::check_certificate(order).problems, "detail: recorded"));  // the case now names an order
}

TEST_CASE("forged REFUTED and UNDECIDED details an audit found accepted are rejected: the words follow the record",
          "[kernel][detail]") {
  const auto rewritten = [](const char* name, const std::string& detail) {
    json cert = fixture(name);
    cert["detail"] = detail;
    return detail_of(cert)->matches;
  };
  // C4.2.regularity: "long" after the case's switch, "not eta" after the claimed K (E_65, K = 64).
  const std::string regularity = fixture("regularity_k64_wrong_eta__C4.2.regularity.json")["detail"];
  CHECK_FALSE(rewritten("regularity_k64_wrong_eta__C4.2.regularity.json",
                        std::regex_replace(regularity, std::regex("long"), "short")));
  CHECK_FALSE(rewritten("regularity_k64_wrong_eta__C4.2.regularity.json",
                        std::regex_replace(regularity, std::regex(R"(not 1/2)"), "not 0")));
  // L5.conv: the UNDECIDED sentence under REFUTED.
  const std::string conv = fixture("details/mutation_K_halved__L5.conv.json")["detail"];
  CHECK_FALSE(rewritten("details/mutation_K_halved__L5.conv.json", "not separated at 128 bits: " + conv));
  // T4.1.sim: |z| = 4096 > N_sim = 3018 is the failure its witness shows, not an error above epsilon.
  const json sim = fixture("details/mutation_no_padding__T4.1.sim.json");
  const std::string x = sim["detail"].get<std::string>().substr(sim["detail"].get<std::string>().find("for x: "));
  CHECK_FALSE(rewritten("details/mutation_no_padding__T4.1.sim.json", "error 1 > epsilon = 1/10 " + x));
  // T4.1.witness: "no difference" beside D_n != 0, "differ" beside D_n = 0, "reached" beside a recorded D_n.
  CHECK_FALSE(rewritten("details/random_differ__T4.1.witness.json", "no difference of eta = 1/2 by length 2: D(2) = 2"));
  CHECK_FALSE(rewritten("details/random_no_difference__T4.1.witness.json",
                        "f and g differ at length 1 <= n = 1: |f - g| = 2 at T=1 window=\"0\" bulk{}"));
  CHECK_FALSE(
      rewritten("details/random_differ__T4.1.witness.json", "lengths up to 2 needed, reached 1 within the statistic "
                                                            "budget"));
  // T5.2.witness: "no difference" beside a recorded difference at a length <= n.
  CHECK_FALSE(rewritten("details/random_differ__T5.2.witness.json",
                        "no difference of eta = 1/100 at length 4: |f - g| <= 0.1 at every statistic"));
  // T4.1.threshold: "agree on every statistic of length t - 1" beside a recorded difference.
  CHECK_FALSE(rewritten("details/mutation_threshold_halved__T4.1.threshold.json",
                        "the threshold 2048 is not the first length where finite:6 = hardmax: they agree on every "
                        "statistic of length 2047 = t - 1 (threshold rule: ceil(2^(p/gamma)), the least i with "
                        "i^gamma >= 2^p)"));
  // T4.2.avg: the cross-check's weights beside recorded conclusion rows; "not separated" beyond the budget.
  CHECK_FALSE(rewritten("presence_binding_small_C__T4.2.avg.json", "the weights of length 3 sum to 2, not 1"));
  CHECK_FALSE(rewritten("details/random_beyond_budget__T4.2.avg.json",
                        "some E_t with t <= N0 is not separated from eps at the working precision"));
  // S.consistency: an undecided position beside positions = 0.
  CHECK_FALSE(rewritten("details/random_beyond_reach__S.consistency.json",
                        "position 5 of \"01010\" undecided at 64 bits (budget)"));
  // A stopped run: the items enumerated are written for a time budget only.
  CHECK_FALSE(rewritten("details/random_stopped_items__L5.conv.json",
                        "stopped: the budget of 5000 enumerated items was used up (5000 items enumerated) (raise "
                        "--budget to decide)"));
  CHECK_FALSE(rewritten("details/random_stopped_seconds__T4.1.lg.json",
                        "stopped: the budget of 20 s was used up (raise --budget to decide)"));
  // T5.2.sim: the a-priori sentence's exponent is the row's model's r' = min(gamma, 1/3, gamma2).
  const json pair = fixture("details/mutation_dominant_bulk_free__T5.2.sim.json");
  const std::string row = pair["detail"].get<std::string>().substr(0, pair["detail"].get<std::string>().find("exceeds"));
  CHECK(rewritten("details/mutation_dominant_bulk_free__T5.2.sim.json",
                  row + "exceeds C(f) |z|^-1/3 = 0.5 (C(f) = 2.5, z c-good)"));
  CHECK_FALSE(rewritten("details/mutation_dominant_bulk_free__T5.2.sim.json",
                        row + "exceeds C(f) |z|^-5 = 0.5 (C(f) = 2.5, z c-good)"));
}
