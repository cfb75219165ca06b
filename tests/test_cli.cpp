// The command line end to end: JSON parsed and compared, exit codes.
#include "output/plots.hpp"
#include "output/tables.hpp"
#include "support.hpp"

#include "lgcheck/enumerate/strings.hpp"
#include "lgcheck/semantics/forward.hpp"
#include "lgcheck/tasks/paper_tasks.hpp"

#include <fstream>
#include <map>
#include <set>
#include <sstream>
#include <random>
#include <unistd.h>

using lgc::test::run_lgcheck;
using nlohmann::json;

namespace {
std::string bundled_path(const std::string& relative) { return lgc::test::case_path(relative).string(); }
}  // namespace

TEST_CASE("lgcheck eval prints the exact output as JSON", "[cli]") {
  auto r = run_lgcheck("eval " + bundled_path("paper/modp/modp_p3_hardmax.json") + " --input 1101101 --json");
  REQUIRE(r.exit_code == 0);
  json j = json::parse(r.out);
  CHECK(j["output"] == json::array({"0"}));
  CHECK(j["exact"] == true);
  CHECK(j["semantics"] == "hardmax");

  r = run_lgcheck("eval " + bundled_path("paper/modp/modp_p3_hardmax.json") + " --input 0111111 --semantics finite:3 --json");
  REQUIRE(r.exit_code == 0);
  j = json::parse(r.out);
  CHECK(j["output"] == json::array({"18/19"}));
  CHECK(j["semantics"] == "finite:3");
}

TEST_CASE("lgcheck eval prints certified reals as lo/hi decimals", "[cli]") {
  auto r = run_lgcheck("eval " + bundled_path("paper/simple/simple_w2_sin.json") + " --input 0110 --json");
  REQUIRE(r.exit_code == 0);
  json j = json::parse(r.out);
  CHECK(j["exact"] == false);
  lgc::Rational lo = lgc::parse_rational(j["output"][0]["lo"].get<std::string>());
  lgc::Rational hi = lgc::parse_rational(j["output"][0]["hi"].get<std::string>());
  CHECK(lo < hi);
  // sin(1) = 0.84147098480789650665250232163029899962...
  CHECK(lo <= lgc::parse_rational("0.84147098480789650665250232163"));
  CHECK(hi >= lgc::parse_rational("0.84147098480789650665250232164"));
  CHECK(hi - lo < lgc::parse_rational("1e-24"));
}

TEST_CASE("eval of a one-layer hardmax or finite:p model goes through the statistic, with the forward pass's values",
          "[cli]") {
  std::mt19937_64 rng(7);
  for (const char* file : {"paper/modp/modp_p3_hardmax.json", "paper/modp/modp_p3_finite8.json",
                           "section4/window_two_heads.json", "section4/window_wide.json"}) {
    const lgc::Model m = lgc::test::bundled(file).model();
    for (int trial = 0; trial < 3; ++trial) {
      lgc::Tokens x = lgc::random_string(m.alphabet_size(), 5 + rng() % 20, rng);
      const std::string input = lgc::format_input(m, x);
      INFO(file << " on " << input);
      auto r = run_lgcheck("eval " + bundled_path(file) + " --input " + input + " --all-positions --json");
      REQUIRE(r.exit_code == 0);
      const json j = json::parse(r.out);
      const auto expected = lgc::evaluate_all(m, x, {m.semantics});
      REQUIRE(j["positions"].size() == expected.size());
      for (std::size_t i = 0; i < expected.size(); ++i)
        for (std::size_t k = 0; k < expected[i].size(); ++k) {
          REQUIRE(expected[i][k].is_exact());
          CHECK(j["positions"][i][k] == lgc::to_string(expected[i][k].exact()));
        }
    }
  }
  // A long input from a file: linear, and the text names the route.
  const auto file = std::filesystem::temp_directory_path() / ("lgcheck_long_input_" + std::to_string(::getpid()));
  std::ofstream(file) << std::string(200000, '1') << "\n";
  auto r = run_lgcheck("eval " + bundled_path("paper/modp/modp_p3_hardmax.json") + " --input @" + file.string());
  CHECK(r.exit_code == 0);
  CHECK(r.out.find("T = 200000, hardmax semantics, from the statistic") != std::string::npos);
  std::filesystem::remove(file);
}

TEST_CASE("lgcheck info prints the CLI.md keys", "[cli]") {
  auto r = run_lgcheck("info " + bundled_path("paper/induction/induction_head_k1.json") + " --json");
  REQUIRE(r.exit_code == 0);
  json j = json::parse(r.out);
  CHECK(j["name"] == "induction_head_k1");
  CHECK(j["alphabet_size"] == 2);
  CHECK(j["period"] == 1);
  CHECK(j["locality"] == 1);
  CHECK(j["width"] == 6);
  CHECK(j["layers"] == 2);
  CHECK(j["heads"] == json::array({1, 1}));
  CHECK(j["semantics"] == "softmax");
}

TEST_CASE("lgcheck check runs the claims and reports verdicts", "[cli]") {
  auto r = run_lgcheck("check " + bundled_path("paper/modp/modp_p2_hardmax.json") + " --json");
  REQUIRE(r.exit_code == 0);
  json j = json::parse(r.out);
  REQUIRE(j["claims"].size() >= 1);
  CHECK(j["claims"][0]["id"] == "S.consistency");
  CHECK(j["claims"][0]["case"] == "modp_p2_hardmax");
  CHECK(j["claims"][0]["verdict"] == "SAMPLED");
  CHECK(j["claims"][0]["scope"]["samples"] == 10);
  CHECK(j["claims"][0]["scope"]["seed"] == 1);
  CHECK(j["summary"]["REFUTED"] == 0);
  CHECK(j["summary"]["claims"] == j["claims"].size());
  CHECK(j["summary"]["expectations"]["not_met"] == 0);
  for (const auto& claim : j["claims"]) CHECK(claim["id"].get<std::string>().rfind("expect:", 0) == std::string::npos);
}

TEST_CASE("lgcheck check exits 1 when a case's expectation is refuted", "[cli]") {
  auto dir = std::filesystem::temp_directory_path() / ("lgcheck_cli_" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  json doc = lgc::case_to_json(lgc::test::bundled("paper/modp/modp_p2_hardmax.json"));
  doc["expect"]["logit_margin"] = "2";  // wrong: it is 1
  std::ofstream(dir / "wrong.json") << doc.dump();
  auto r = run_lgcheck("check " + (dir / "wrong.json").string() + " --json");
  CHECK(r.exit_code == 1);
  json j = json::parse(r.out);
  CHECK(j["summary"]["REFUTED"] == 0);  // no claim is refuted: an expectation is not met
  CHECK(j["summary"]["expectations"]["not_met"] == 1);
  std::filesystem::remove_all(dir);
}

TEST_CASE("A bad case gives exit code 2 and names the file and path", "[cli]") {
  auto dir = std::filesystem::temp_directory_path() / ("lgcheck_cli_bad_" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  json doc = lgc::case_to_json(lgc::test::bundled("paper/modp/modp_p2_hardmax.json"));
  doc["layers"][0]["heads"][0]["phi"] = {"0", "1"};
  std::string file = (dir / "bad.json").string();
  std::ofstream(file) << doc.dump();
  for (const std::string& command : {"info " + file, "eval " + file + " --input 01", "check " + file}) {
    INFO(command);
    auto r = run_lgcheck(command, true);
    CHECK(r.exit_code == 2);
    CHECK(r.out.find("lgcheck: " + file + ": layers[0].heads[0].phi: expected 1 entries (locality 0), got 2") !=
          std::string::npos);
  }
  std::filesystem::remove_all(dir);
}

TEST_CASE("Usage errors give exit code 2", "[cli]") {
  std::string modp = bundled_path("paper/modp/modp_p3_hardmax.json");
  CHECK(run_lgcheck("").exit_code == 2);
  CHECK(run_lgcheck("frobnicate").exit_code == 2);
  CHECK(run_lgcheck("eval " + modp).exit_code == 2);  // --input missing
  auto bad_token = run_lgcheck("eval " + modp + " --input 012", true);
  CHECK(bad_token.exit_code == 2);
  CHECK(bad_token.out.find("--input") != std::string::npos);
  CHECK(run_lgcheck("eval " + modp + " --input 01 --semantics finite:x").exit_code == 2);
  CHECK(run_lgcheck("check /nonexistent/path").exit_code == 2);
  CHECK(run_lgcheck("--help").exit_code == 0);
}

TEST_CASE("lgcheck gen writes a case that loads back", "[cli]") {
  auto file = std::filesystem::temp_directory_path() / ("lgcheck_gen_" + std::to_string(::getpid()) + ".json");
  auto r = run_lgcheck("gen --out " + file.string() + " modp --p 5 --semantics finite:4");
  REQUIRE(r.exit_code == 0);
  lgc::Case c = lgc::load_case(file);
  CHECK(c.model().period == 5);
  CHECK(c.model().semantics == lgc::Semantics::finite(4));
  std::filesystem::remove(file);
}

TEST_CASE("lgcheck margin prints gamma and its witness", "[cli]") {
  auto r = run_lgcheck("margin " + bundled_path("paper/modp/modp_p5_hardmax.json") + " --json");
  REQUIRE(r.exit_code == 0);
  json j = json::parse(r.out);
  CHECK(j["logit_margin"] == "1");
  CHECK(j["witness"]["logits"] == json::array({"0", "1"}));
  r = run_lgcheck("margin " + bundled_path("paper/simple/simple_w4_relu.json") + " --json");
  CHECK(json::parse(r.out)["logit_margin"] == "inf");
}

TEST_CASE("lgcheck bound --theorem 4.1 prints the CLI.md keys", "[cli][section4]") {
  auto r = run_lgcheck("bound " + bundled_path("paper/modp/modp_p3_finite8.json") + " --theorem 4.1 --epsilon 1/10 --json");
  REQUIRE(r.exit_code == 0);
  json j = json::parse(r.out);
  for (const char* key : {"theorem", "epsilon", "gamma", "L", "period", "alphabet_size", "locality", "precision_bits",
                          "N_paper", "N_paper_sum_form", "N_sim"})
    CHECK(j.contains(key));
  CHECK(j["gamma"] == "1");
  CHECK(j["L"] == "1");
  CHECK(j["precision_bits"] == 8);
  CHECK(j["N_paper"] == "13996800");
  CHECK(run_lgcheck("bound " + bundled_path("paper/modp/modp_p3_finite8.json") + " --theorem 9.9 --epsilon 1/10").exit_code == 2);
  CHECK(run_lgcheck("bound " + bundled_path("paper/modp/modp_p3_finite8.json") + " --epsilon -1").exit_code == 2);
}

TEST_CASE("lgcheck simulate prints the CLI.md keys", "[cli][section4]") {
  auto r = run_lgcheck("simulate " + bundled_path("paper/modp/modp_p3_hardmax.json") + " --random 100000 --seed 3 --epsilon 1/10 --json");
  REQUIRE(r.exit_code == 0);
  json j = json::parse(r.out);
  CHECK(j["length_x"] == 100000);
  CHECK(j["length_z"].get<std::uint64_t>() <= 3018);
  CHECK(j.contains("z"));
  CHECK(j.contains("attention_distance"));
  CHECK(j.contains("error"));
  CHECK(j["within_epsilon"] == true);
  r = run_lgcheck("simulate " + bundled_path("paper/modp/modp_p3_hardmax.json") + " --input 0110110111 --epsilon 1/2 --json");
  REQUIRE(r.exit_code == 0);
  CHECK(json::parse(r.out)["length_x"] == 10);
  CHECK(run_lgcheck("simulate " + bundled_path("paper/modp/modp_p3_hardmax.json") + " --epsilon 1/2").exit_code == 2);
}

TEST_CASE("lgcheck threshold prints D(n), N_emp and the bracket", "[cli][section4]") {
  auto r = run_lgcheck("threshold " + bundled_path("witnesses/farey_hat_n4.json") + " --epsilon 1/10 --max-length 8 --json");
  REQUIRE(r.exit_code == 0);
  json j = json::parse(r.out);
  CHECK(j["D"].size() == 8);
  CHECK(j["D"][3] == json::array({4, "0"}));
  CHECK(j["D"][4] == json::array({5, "1/4"}));
  CHECK(j["N_emp"] == 5);
  CHECK(j["D_inf_lower"] == "1/4");
  CHECK(j.contains("D_inf_upper"));
  // The text says what N_emp is: the least n with D(n) > eps, or none up to the curve's reach.
  const std::string farey = "threshold " + bundled_path("witnesses/farey_hat_n4.json") + " --epsilon 1/10";
  CHECK(run_lgcheck(farey + " --max-length 8").out.find("N_emp(1/10) = 5 (the least n with D(n) > 1/10)\n") !=
        std::string::npos);
  CHECK(run_lgcheck(farey + " --max-length 4").out.find("N_emp(1/10) = not reached (D(n) <= 1/10 for every n <= 4)\n") !=
        std::string::npos);
  // A pair no upper bound applies to (its heads differ in a logit): the bracket says so.
  auto agreeing = run_lgcheck("threshold " + (lgc::test::source_dir() / "tests/data/agreeing_sin_pair.json").string() +
                              " --epsilon 1/10 --max-length 6");
  CHECK(agreeing.out.find("bracket: 0 <= D_inf <= unknown  (no certified upper bound)\n") != std::string::npos);
}

TEST_CASE("lgcheck threshold merges tokens of one embedding row in both models: the same D(n), and --no-merge",
          "[cli][section4][token-merge]") {
  const std::string pair = (lgc::test::source_dir() / "tests/data/two_average_sin_pair.json").string();
  const std::string run = "threshold " + pair + " --epsilon 1/10 --max-length 14";
  auto merged = run_lgcheck(run + " --json"), whole = run_lgcheck(run + " --json --no-merge");
  REQUIRE(merged.exit_code == 0);
  REQUIRE(whole.exit_code == 0);
  const json m = json::parse(merged.out), w = json::parse(whole.out);
  CHECK(m["merged_tokens"] == json{{"d", "c"}});  // tokens c and d: the row (0, 0, 1) in f and g
  CHECK(w["merged_tokens"] == json::object());
  CHECK(m["D"] == w["D"]);
  CHECK(m["D_inf_upper"] == w["D_inf_upper"]);
  CHECK(m["statistics"].get<std::uint64_t>() < w["statistics"].get<std::uint64_t>());
  CHECK(run_lgcheck(run).out.find("(tokens merged, the same embedding row in both models: d as c; ") !=
        std::string::npos);
  CHECK(run_lgcheck(run + " --no-merge").out.find("tokens merged") == std::string::npos);
  // A pair without a repeated row: the same output, byte for byte, with --no-merge.
  const std::string farey = "threshold " + bundled_path("witnesses/farey_hat_n4.json") + " --epsilon 1/10 --max-length 30";
  for (const char* format : {"", " --json"}) {
    const auto plain = run_lgcheck(farey + format), kept = run_lgcheck(farey + format + " --no-merge");
    REQUIRE(plain.exit_code == 0);
    CHECK(plain.out == kept.out);
  }
  const auto dir = std::filesystem::temp_directory_path() / ("lgcheck_merge_" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  // The second model one coordinate wider (a zero column everywhere): rows are compared within each model.
  lgc::Case wide = lgc::load_case(pair);
  lgc::Model& g = wide.models[1];
  const auto widened = [](const lgc::QMatrix& m, std::size_t rows, std::size_t cols) {
    lgc::QMatrix w(rows, cols);
    for (std::size_t i = 0; i < m.rows(); ++i)
      for (std::size_t j = 0; j < m.cols(); ++j) w(i, j) = m(i, j);
    return w;
  };
  g.embedding = widened(g.embedding, g.embedding.rows(), g.width + 1);
  g.positional = widened(g.positional, g.positional.rows(), g.width + 1);
  for (lgc::Head& h : g.layers[0].heads)
    h.qk = widened(h.qk, g.width + 1, g.width + 1), h.value = widened(h.value, g.width + 1, g.width + 1);
  g.readout.weights = widened(g.readout.weights, g.readout.weights.rows(), g.width + 1);
  ++g.width;
  lgc::save_case(wide, dir / "wide.json");
  const std::string wide_run = "threshold " + (dir / "wide.json").string() + " --epsilon 1/10 --max-length 14 --json";
  const auto wide_merged = run_lgcheck(wide_run), wide_whole = run_lgcheck(wide_run + " --no-merge");
  REQUIRE(wide_merged.exit_code == 0);
  CHECK(json::parse(wide_merged.out)["merged_tokens"] == json{{"d", "c"}});
  CHECK(json::parse(wide_merged.out)["D"] == json::parse(wide_whole.out)["D"]);
  CHECK(json::parse(wide_merged.out)["D"] == m["D"]);
  // A finite:p pair is not merged (its inexact weights are enclosed per class): token 1 given token 0's row.
  lgc::Case finite = lgc::test::bundled("witnesses/margin_witness_gamma1_2_p2.json");
  for (lgc::Model& model : finite.models)
    for (std::size_t k = 0; k < model.width; ++k) model.embedding(1, k) = model.embedding(0, k);
  lgc::save_case(finite, dir / "finite.json");
  const auto finite_run = run_lgcheck("threshold " + (dir / "finite.json").string() + " --epsilon 1/10 --max-length 6 --json");
  REQUIRE(finite_run.exit_code == 0);
  CHECK(json::parse(finite_run.out)["merged_tokens"] == json::object());
  CHECK(json::parse(finite_run.out)["method"] == "every statistic");
  std::filesystem::remove_all(dir);
}

TEST_CASE("lgcheck threshold --method: every, reduced and bounded give the same D(n), and reduced is refused for finite:p",
          "[cli][section4][bounded]") {
  const std::string farey = "threshold " + bundled_path("witnesses/farey_hat_n4.json") + " --epsilon 1/10 --json";
  std::map<std::string, json> runs;
  for (const char* method : {"every", "reduced", "bounded", "auto"}) {
    auto r = run_lgcheck(farey + " --max-length 40 --method " + method);
    REQUIRE(r.exit_code == 0);
    runs[method] = json::parse(r.out);
  }
  CHECK(runs["every"]["method"] == "every statistic");
  CHECK(runs["reduced"]["method"] == "reduced");
  CHECK(runs["bounded"]["method"] == "bounded");
  CHECK(runs["auto"]["method"] == "reduced");  // length 40 keeps 40 reduced statistics: too few to bound
  for (const char* method : {"reduced", "bounded"}) CHECK(runs[method]["D"] == runs["every"]["D"]);
  // At lengths 1..40 each group is too small to bound: its searches are walked.
  CHECK(runs["bounded"]["groups_walked"].get<std::uint64_t>() > 0);
  auto text = run_lgcheck("threshold " + bundled_path("witnesses/farey_hat_n4.json") +
                          " --epsilon 1/10 --max-length 40 --method bounded");
  CHECK(text.out.find("statistics evaluated: the branch and bound's, ") != std::string::npos);
  // finite:p weighs every class: only every statistic.
  auto finite = run_lgcheck("threshold " + bundled_path("witnesses/margin_witness_gamma1_2_p2.json") +
                                " --epsilon 1/10 --method reduced",
                            true);
  CHECK(finite.exit_code == 2);
  CHECK(finite.out.find("a finite:p pair evaluates every statistic") != std::string::npos);
#ifdef LGCHECK_SANITIZED
  return;  // the runs to 2100 and on the sin pair take about a minute there: the Release suite runs them
#endif
  // To 2100 (2100 reduced statistics at the last length) auto takes the bounded curve, and boxes are skipped.
  auto longer = run_lgcheck(farey + " --max-length 2100");
  auto longer_reduced = run_lgcheck(farey + " --max-length 2100 --method reduced");
  REQUIRE(longer.exit_code == 0);
  REQUIRE(longer_reduced.exit_code == 0);
  const json bounded = json::parse(longer.out), reduced = json::parse(longer_reduced.out);
  CHECK(bounded["method"] == "bounded");
  CHECK(bounded["D"] == reduced["D"]);
  CHECK(bounded["boxes_pruned"].get<std::uint64_t>() > 0);
  CHECK(bounded["statistics"].get<std::uint64_t>() < reduced["statistics"].get<std::uint64_t>() / 2);
  // A sin readout: the same enclosures either way.
  const std::string sin =
      "threshold " + bundled_path("pairs/simple_w1_sin_vs_relu.json") + " --epsilon 1/10 --json --max-length 60";
  auto sin_bounded = run_lgcheck(sin + " --method bounded"), sin_reduced = run_lgcheck(sin + " --method reduced");
  REQUIRE(sin_bounded.exit_code == 0);
  REQUIRE(sin_reduced.exit_code == 0);
  CHECK(json::parse(sin_bounded.out)["D"] == json::parse(sin_reduced.out)["D"]);
}

TEST_CASE("lgcheck gen farey-hat writes a witness pair", "[cli][section4]") {
  auto r = run_lgcheck("gen farey-hat --n 6 --eta 1/3");
  REQUIRE(r.exit_code == 0);
  json j = json::parse(r.out);
  CHECK(j["pair"].size() == 2);
  CHECK(j["check"]["witness_n"] == 6);
  lgc::Case c = lgc::parse_case(j, "farey.json");
  CHECK(c.is_pair);
}

TEST_CASE("lgcheck gen margin-counter writes the counter-family, and margin reports its value-aware margin", "[cli][margin]") {
  const auto file = std::filesystem::temp_directory_path() / "lgcheck_margin_counter.json";
  auto r = run_lgcheck("gen margin-counter --gamma 1/8 --semantics finite:4 --out " + file.string());
  REQUIRE(r.exit_code == 0);
  auto m = run_lgcheck("margin --json " + file.string());
  REQUIRE(m.exit_code == 0);
  json j = json::parse(m.out);
  CHECK(j["logit_margin"] == "1/8");
  CHECK(j["value_margin"] == "7/8");
  CHECK(j["value_witness"]["logits"] == json::array({"0", "7/8"}));
  auto text = run_lgcheck("margin " + file.string());
  CHECK(text.out.find("value-aware margin gamma_V = 7/8") != std::string::npos);
  // With a second layer the threshold argument does not hold: no gamma_V.
  std::ifstream in(file);
  json two_layers = json::parse(in);
  two_layers["layers"].push_back(two_layers["layers"][0]);
  std::ofstream(file) << two_layers.dump();
  auto deeper = run_lgcheck("margin --json " + file.string());
  REQUIRE(deeper.exit_code == 0);
  CHECK(json::parse(deeper.out)["value_margin"].is_null());
  std::filesystem::remove(file);
  auto bad = run_lgcheck("gen margin-counter --gamma 3/4", true);
  CHECK(bad.exit_code == 2);
  CHECK(bad.out.find("--gamma: must be at most 1/2") != std::string::npos);
}

TEST_CASE("The committed docs/tables regenerate to identical bytes", "[cli][tables]") {
  const auto dir = lgc::test::source_dir() / "docs" / "tables";
  auto committed = [&](const std::string& file) {
    std::ifstream in(dir / file, std::ios::binary);
    std::stringstream text;
    text << in.rdbuf();
    return text.str();
  };
#ifdef LGCHECK_SANITIZED
  // The tables rerun the claims and bounds on every bundled case (minutes
  // under the sanitizers); whether the committed files are current is the
  // Release suite's check, and the same builders run in other tests here.
  SUCCEED("compared by the Release suite");
  return;
#endif
  for (const std::string& table : lgc::table_names()) {
    const lgc::Table t = lgc::make_table(table, lgc::test::source_dir() / "cases", 8);
    for (const std::string& format : lgc::table_formats()) {
      INFO(table << "." << format << ": regenerate with `make tables`");
      CHECK(lgc::render(t, format) == committed(table + "." + format));
    }
    if (table == "teeth") {
      // docs/reliability.md shows the same teeth table.
      std::ifstream in(lgc::test::source_dir() / "docs" / "reliability.md");
      std::stringstream text;
      text << in.rdbuf();
      INFO("copy docs/tables/teeth.md into docs/reliability.md (section Teeth)");
      CHECK(text.str().find(lgc::render_markdown(t)) != std::string::npos);
      // Every registered claim is not VACUOUS on at least two bundled cases.
      for (const auto& row : t.exact) {
        INFO("claim " << row["claim"].get<std::string>());
        CHECK(row["not_vacuous"].get<std::size_t>() >= 2);
      }
    }
  }
  // The command line writes the same bytes as the library renders.
  auto r = run_lgcheck("table scaling --format tex --cases " + (lgc::test::source_dir() / "cases").string());
  REQUIRE(r.exit_code == 0);
  CHECK(r.out == committed("scaling.tex"));
  for (const std::string& plot : lgc::plot_names()) {
    const auto out = std::filesystem::temp_directory_path() / ("lgcheck_plot_" + std::to_string(::getpid()) + ".svg");
    auto p = run_lgcheck("plot " + plot + " --out " + out.string() + " --cases " + (lgc::test::source_dir() / "cases").string());
    INFO(plot << ".svg: regenerate with `make tables`");
    REQUIRE(p.exit_code == 0);
    std::ifstream in(out, std::ios::binary);
    std::stringstream svg;
    svg << in.rdbuf();
    CHECK(svg.str() == committed(plot + ".svg"));
    std::filesystem::remove(out);
  }
}

TEST_CASE("Text output of threshold, bound and check on the bundled cases has no number longer than 30 characters",
          "[cli][readable]") {
  // A "number": a run of digits with the characters that continue one (/ . e + -).
  auto longest_number = [](const std::string& text) {
    std::size_t best = 0, run = 0;
    for (char ch : text) {
      const bool digit = ch >= '0' && ch <= '9';
      const bool part = digit || ch == '/' || ch == '.' || ch == 'e' || ch == '+' || ch == '-';
      run = (run > 0 && part) || digit ? run + 1 : 0;
      best = std::max(best, run);
    }
    return best;
  };
  std::vector<std::string> runs;
#ifdef LGCHECK_SANITIZED
  std::size_t listed = 0;
#endif
  for (const auto& entry : std::filesystem::recursive_directory_iterator(lgc::test::source_dir() / "cases")) {
    if (entry.path().extension() != ".json") continue;
#ifdef LGCHECK_SANITIZED
    if (listed++ % 4 != 0) continue;  // under the sanitizers every fourth case (each run is a process); Release: all
#endif
    const std::string file = entry.path().string();
    runs.push_back("bound " + file + " --epsilon 1/1000000000000");  // N_paper of about 40 digits
    runs.push_back("threshold " + file + " --epsilon 1/10 --max-length 10");
  }
  for (const char* file : {"pairs/modp_p2_perturbed_pair.json", "section4/modp_p3_finite6_margin1_2.json",
                           "section5/attention_pair_sharp.json", "average/presence_binding.json"})
    runs.push_back("check " + bundled_path(file));
  // Theorem 4.2's N0 of 609 digits, Theorem 5.2's N_variant_A at a small epsilon: both must succeed.
  const std::set<std::string> must_succeed = {
      "bound " + bundled_path("average/farey_hat_n4_uniform.json") +
          " --theorem 4.2 --epsilon 1/1000 --alpha 1/100,1 --log-power 3",
      "bound " + bundled_path("paper/induction/induction_head_k1.json") + " --theorem 5.2 --epsilon 1/100000"};
  runs.insert(runs.end(), must_succeed.begin(), must_succeed.end());
  for (const std::string& args : runs) {
    const auto r = run_lgcheck(args);
    INFO(args << "\n" << r.out);
    if (must_succeed.count(args)) CHECK(r.exit_code == 0);
    CHECK(longest_number(r.out) <= 30);
  }
}

TEST_CASE("average under finite:p: the case's own semantics, the route stated, Monte Carlo refused", "[cli][average]") {
  const std::string pair = bundled_path("witnesses/margin_witness_gamma1_2_p2.json");
  auto r = run_lgcheck("average " + pair + " --length 15 --alpha 1,1 --json");
  REQUIRE(r.exit_code == 0);
  json j = json::parse(r.out);
  CHECK(j["semantics"] == "finite:2");
  CHECK(j["expectation"] == "0");
  CHECK(j["route"] == "every statistic of length 15 (30), each evaluated under finite:2 (below the window t = "
                     "ceil(2^(p/gamma)) = 16 <= T)");
  r = run_lgcheck("average " + pair + " --length 15 --alpha 1,1 --semantics hardmax --json");
  REQUIRE(r.exit_code == 0);
  CHECK(json::parse(r.out)["expectation"] == "1/90");
  r = run_lgcheck("average " + pair + " --length 16 --alpha 1,1 --json");
  REQUIRE(r.exit_code == 0);
  j = json::parse(r.out);
  CHECK(j["expectation"] == "3/272");
  CHECK(j["route"].get<std::string>().rfind("top patterns under hardmax: finite:2 equals hardmax", 0) == 0);
  r = run_lgcheck("average " + pair + " --length 15 --alpha 1,1 --method monte-carlo", true);
  CHECK(r.exit_code == 2);
  CHECK(r.out.find("the Monte Carlo estimate samples under hardmax only") != std::string::npos);
}

#ifndef LGCHECK_SANITIZED  // the line appears after 2 s of wall clock: a matter of the Release build's speed
TEST_CASE("A long evaluation draws a progress line on a terminal only, and not with --quiet", "[cli][progress]") {
  // 2·10^6 tokens through the linear-time softmax evaluation: a few seconds, reported every 2^16 positions.
  const auto file = std::filesystem::temp_directory_path() / ("lgcheck_progress_" + std::to_string(::getpid()) + ".txt");
  {
    std::mt19937_64 rng(7);
    std::string x(2000000, '0');
    for (auto& ch : x) ch = (rng() & 1) ? '1' : '0';
    std::ofstream(file) << x << "\n";
  }
  const std::string eval = std::string(LGCHECK_BINARY) + " eval " +
                           lgc::test::case_path("section5/regime_token.json").string() + " --input @" + file.string();
  // script(1) gives the command a terminal; its output is the terminal's, stderr included.
  auto on_terminal = [](const std::string& command) {
    return lgc::test::run_command("script -qec '" + command + "' /dev/null");
  };
  if (on_terminal("true").exit_code == 0) {  // a pseudo-terminal can be had here
    const auto shown = on_terminal(eval);
    CHECK(shown.exit_code == 0);
    CHECK_THAT(shown.out, Catch::Contains("/2000000 positions, ") && Catch::Contains("] f(x)"));
    CHECK_THAT(shown.out, Catch::Contains("f(x_1..2000000)[0] = "));
    const auto quiet = on_terminal(eval + " --quiet");
    CHECK(quiet.exit_code == 0);
    CHECK_THAT(quiet.out, !Catch::Contains("positions"));
  } else {
    WARN("script(1) could not open a pseudo-terminal: only the no-terminal case is checked");
  }
  const auto piped = lgc::test::run_command(eval + " 2>&1");  // stderr a pipe: no line either
  CHECK(piped.exit_code == 0);
  CHECK_THAT(piped.out, !Catch::Contains("positions"));
  CHECK(piped.out.find("f(x_1..2000000)[0] = ") != std::string::npos);
  std::filesystem::remove(file);
}
#endif

TEST_CASE("check: a case whose threshold is beyond exact computation gives UNDECIDED rows, and the next case still runs",
          "[cli][budget]") {
  // ModPTask at logit margin 10^-6 under finite:200: 2^{p/γ} has 2·10^8 bits, beyond the 2^27 lgcheck computes.
  const auto dir = std::filesystem::temp_directory_path() / ("lgcheck_beyond_" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  nlohmann::json huge = lgc::model_to_json(lgc::modp_task(3, lgc::Semantics::finite(200), lgc::Rational(1, 1000000)));
  huge["format"] = lgc::kCaseFormat;
  std::ofstream(dir / "a_huge.json") << huge.dump(1);
  std::filesystem::copy_file(bundled_path("paper/modp/modp_p3_hardmax.json"), dir / "b_ok.json");
  const auto r = run_lgcheck("check " + dir.string() + " --json");
  std::filesystem::remove_all(dir);
  INFO(r.out.substr(0, 3000));
  CHECK(r.exit_code == 3);  // UNDECIDED, not a usage error: nothing else is lost
  const nlohmann::json j = nlohmann::json::parse(r.out);
  std::size_t stopped = 0, decided = 0;
  for (const auto& row : j.at("claims")) {
    if (row.at("verdict") == "UNDECIDED") {
      CHECK(row.at("detail").get<std::string>().find("more than 2^27") != std::string::npos);
      ++stopped;
    }
    if (row.at("case") == "modp_p3_hardmax" && row.at("verdict") == "SAMPLED") ++decided;
  }
  CHECK(stopped >= 2);   // S.consistency and T4.1.threshold need the threshold
  CHECK(decided == 4);   // every claim of the next case
}

TEST_CASE("lgcheck gen margin-witness writes a witness pair whose T4.1.witness claim is PROVED", "[cli][margin][witness]") {
  const auto file = std::filesystem::temp_directory_path() / "lgcheck_margin_witness.json";
  auto r = run_lgcheck("gen margin-witness --gamma 1/2 --precision 2 --eta 1/8 --out " + file.string());
  REQUIRE(r.exit_code == 0);
  std::ifstream in(file);
  const json j = json::parse(in);
  CHECK(j["check"]["witness_n"] == 15);
  CHECK(j["check"]["witness_length"] == 16);
  CHECK(j["check"]["eta"] == "1/8");
  auto m = run_lgcheck("margin --json " + file.string());
  REQUIRE(m.exit_code == 0);
  CHECK(json::parse(m.out)["logit_margin"] == "1/2");
  auto c = run_lgcheck("check --json --quiet --claims T4.1.witness " + file.string());
  REQUIRE(c.exit_code == 0);
  const json claims = json::parse(c.out)["claims"];
  REQUIRE(claims.size() == 1);
  CHECK(claims[0]["verdict"] == "PROVED");
  CHECK(claims[0]["detail"].get<std::string>().find("any valid N(eps) for eps < eta/3 = 1/24 is at least 16") !=
        std::string::npos);
  // The same pair with g = f reading h1 (irrational weights): D is an enclosure holding 0 at length 2, which is
  // not a difference: UNDECIDED, never REFUTED.
  json same = j;
  for (json& m : same["pair"]) {
    m["layers"][0].erase("mlp");
    m["readout"]["weights"] = json::array({json::array({"0", "0", "1", "0", "0"})});
  }
  std::ofstream(file) << same.dump();
  auto equal = run_lgcheck("check --json --quiet --claims T4.1.witness " + file.string(), true);
  const json undecided = json::parse(equal.out)["claims"];
  REQUIRE(undecided.size() == 1);
  CHECK(undecided[0]["verdict"] == "UNDECIDED");
  CHECK(undecided[0]["detail"].get<std::string>().find("is neither the exact 0 nor certainly positive") !=
        std::string::npos);
  std::filesystem::remove(file);
  auto wide = run_lgcheck("gen margin-witness --gamma 3/2", true);
  CHECK(wide.exit_code == 2);
  CHECK(wide.out.find("--gamma: must be at most 1") != std::string::npos);
  auto short_one = run_lgcheck("gen margin-witness --gamma 1 --precision 1", true);
  CHECK(short_one.exit_code == 2);
  CHECK(short_one.out.find("< 3 (take p/gamma > 1)") != std::string::npos);
  auto long_one = run_lgcheck("gen margin-witness --gamma 1/8 --precision 4", true);  // N = 2^32
  CHECK(long_one.exit_code == 2);
  CHECK(long_one.out.find("ceil(2^(p/gamma)) = 4294967296 is beyond 2*10^6") != std::string::npos);
}
