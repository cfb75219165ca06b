// Input errors: each class of bad input is refused with a message naming the
// file, the JSON path or flag, what was expected and what was found; the same
// messages are listed in docs/reliability.md; no refusal leaves a file behind.
#include "support.hpp"

#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include <fstream>
#include <functional>
#include <sstream>

using nlohmann::json;

namespace {

struct BadCase {
  const char* what;
  std::function<void(json&)> edit;
  const char* message;  ///< after "lgcheck: <file>: "
};

std::string docs_text() {
  std::ifstream file(lgc::test::source_dir() / "docs" / "reliability.md");
  std::stringstream text;
  text << file.rdbuf();
  return text.str();
}

std::vector<BadCase> bad_cases() {
  return {
      {"a JSON float", [](json& d) { d["embedding"][0][0] = 0.1; },
       "embedding[0][0]: a JSON number with a fraction or exponent is not exact; quote it as a string, e.g. \"0.1\""},
      {"a number that is not a literal", [](json& d) { d["embedding"][0][0] = "1/0"; },
       "embedding[0][0]: not an exact number \"1/0\": zero denominator"},
      {"a phi of the wrong length", [](json& d) { d["layers"][0]["heads"][0]["phi"] = {"0", "1"}; },
       "layers[0].heads[0].phi: expected 1 entries (locality 0), got 2"},
      {"a matrix of the wrong shape", [](json& d) { d["layers"][0]["heads"][0]["qk"][2].erase(0); },
       "layers[0].heads[0].qk[2]: expected 5 entries (width 5), got 4"},
      {"a missing field", [](json& d) { d.erase("readout"); }, "readout: missing required field"},
      {"an unknown field", [](json& d) { d["widht"] = 5; },
       "widht: unknown field (expected one of: alphabet, check, description, embedding, expect, format, layers, locality, "
       "name, period, positional, readout, semantics, width)"},
      {"a negative period", [](json& d) { d["period"] = -3; }, "period: expected an integer in [1, 1000000], got -3"},
      {"an unknown semantics", [](json& d) { d["semantics"] = "argmax"; },
       "semantics: expected \"hardmax\", \"softmax\", \"finite:<p>\" or \"finite-weights:<p>\" with 1 <= p <= 65536, got \"argmax\""},
      {"a repeated token name", [](json& d) { d["alphabet"] = {"0", "0"}; }, "alphabet[1]: token name \"0\" appears twice"},
      {"a wrong format tag", [](json& d) { d["format"] = "lgcheck-case/2"; },
       "format: expected \"lgcheck-case/1\", got \"lgcheck-case/2\""},
      {"a bad checker parameter", [](json& d) { d["check"]["epsilon"] = "-1/20"; },
       "check.epsilon: expected a positive number, got -1/20"},
      {"a Dirichlet prior of the wrong size", [](json& d) { d["check"]["dirichlet_alpha"] = {"1", "1", "1"}; },
       "check.dirichlet_alpha: expected 2 entries (alphabet size 2), got 3"},
      {"a short alphabet with a foreign symbol", [](json& d) { d["check"]["short_alphabet"] = {"2"}; },
       "check.short_alphabet[0]: \"2\" is not a symbol of the alphabet"},
      {"a misspelt checker parameter", [](json& d) { d["check"]["epsilonn"] = "1/2"; },
       "check.epsilonn: unknown checker parameter (expected one of: N0_constant, N0_log_power, average_budget, conclusion_constant, conclusion_term_budget, dirichlet_alpha, doublings, epsilon, eta, exhaustive_span, kgram_k, max_length, precision_bits, random_inputs, regularity_tail, rho, seed, short_alphabet, simulation_inputs, simulation_length, subsample_constant, subsample_length, switch_length, threshold_sharp, witness_length, witness_n)"},
  };
}

}  // namespace

TEST_CASE("Each class of bad case file is refused with its documented message", "[input-errors]") {
  const std::string docs = docs_text();
  auto dir = std::filesystem::temp_directory_path() / ("lgcheck_input_errors_" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  for (const auto& bad : bad_cases()) {
    INFO(bad.what);
    json doc = lgc::case_to_json(lgc::test::bundled("paper/modp/modp_p3_hardmax.json"));
    doc.erase("check");
    doc.erase("expect");
    bad.edit(doc);
    std::string file = (dir / "bad.json").string();
    std::ofstream(file) << doc.dump();
    auto r = lgc::test::run_lgcheck("info " + file, true);
    CHECK(r.exit_code == 2);
    CHECK(r.out == "lgcheck: " + file + ": " + bad.message + "\n");
    CHECK(docs.find(bad.message) != std::string::npos);
  }
  std::filesystem::remove_all(dir);
}

TEST_CASE("Each class of bad flag is refused with its documented message", "[input-errors]") {
  const std::string docs = docs_text();
  std::string modp = lgc::test::case_path("paper/modp/modp_p3_hardmax.json").string();
  struct BadFlag {
    std::string args, message;
    std::string file = "";  ///< the file the message names first ("" for none)
  };
  for (const auto& bad : std::vector<BadFlag>{
           {"eval " + modp + " --input 012", "--input: input position 3: \"2\" is not in the alphabet {0 1}"},
           {"eval " + modp + " --input 01 --semantics finite:x",
            "--semantics: expected \"hardmax\", \"softmax\", \"finite:<p>\" or \"finite-weights:<p>\" with 1 <= p <= 65536, got \"finite:x\""},
           {"bound " + modp + " --epsilon 0", "--epsilon: expected a positive number, got 0"},
           {"bound " + modp + " --epsilon 1/x", "--epsilon: not an exact number \"1/x\": a fraction is written a/b with "
                                               "unsigned integers a and b"},
           {"check /nonexistent/dir", "/nonexistent/dir: no such file or directory"},
           {"bound " + modp + " --theorem 4.2 --epsilon 1/2 --alpha 1,1/2,3",
            "--alpha: expected 2 comma-separated entries (one per symbol), got 3"},
           {"bound " + modp + " --theorem 4.2 --epsilon 1/2",
            "no prior: give --alpha A1,A2,... or a case with check.dirichlet_alpha"},
           {"bound " + modp + " --theorem 5.2 --epsilon 1/2",
            "Theorem 5.2's C(f) is not defined for model modp_p3_hardmax: the model is not softmax", modp},
           {"bound " + modp + " --theorem 5.3 --epsilon 1/2", "--theorem: one of 4.1, 4.2, 5.2 (got '5.3')"},
       }) {
    INFO(bad.args);
    auto r = lgc::test::run_lgcheck(bad.args, true);
    CHECK(r.exit_code == 2);
    CHECK(r.out == "lgcheck: " + (bad.file.empty() ? "" : bad.file + ": ") + bad.message + "\n");
    CHECK(docs.find(bad.message) != std::string::npos);
  }
}

TEST_CASE("A refused generation leaves no output file behind", "[input-errors]") {
  auto out = std::filesystem::temp_directory_path() / ("lgcheck_no_partial_" + std::to_string(::getpid()) + ".json");
  std::filesystem::remove(out);
  // A float in the check block: the generated case is validated before writing.
  auto r = lgc::test::run_lgcheck("gen --out " + out.string() + " --check '{\"epsilon\": 0.5}' modp --p 3", true);
  CHECK(r.exit_code == 2);
  CHECK(r.out.find("check.epsilon") != std::string::npos);
  CHECK_FALSE(std::filesystem::exists(out));
  CHECK_FALSE(std::filesystem::exists(out.string() + ".tmp"));
  r = lgc::test::run_lgcheck("gen --out " + out.string() + " --check '{bad' modp --p 3", true);
  CHECK(r.exit_code == 2);
  CHECK_FALSE(std::filesystem::exists(out));
  r = lgc::test::run_lgcheck("table t41 --out /nonexistent/dir/t41.md --cases " + (lgc::test::source_dir() / "cases").string(), true);
  CHECK(r.exit_code == 2);
}

TEST_CASE("Hostile inputs end in exit 2 with a message, never a signal or a hang", "[input-errors][hostile]") {
  const std::string docs = docs_text();
  const auto dir = std::filesystem::temp_directory_path() / ("lgcheck_hostile_" + std::to_string(::getpid()));
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir / "empty");
  auto write = [&](const std::string& name, const std::string& text) {
    std::ofstream(dir / name) << text;
    return (dir / name).string();
  };
  const std::string self = write("self.json", R"({"format": "lgcheck-case/1", "pair": ["self.json", "self.json"]})");
  const std::string a = write("a.json", R"({"format": "lgcheck-case/1", "pair": ["b.json", "b.json"]})");
  write("b.json", R"({"format": "lgcheck-case/1", "pair": ["a.json", "a.json"]})");
  const std::string dup = write("dup.json", R"({"format": "lgcheck-case/1", "b": {"c": [{"x": 1, "x": 2}]}})");
  const std::string empty = write("empty.json", "");
  const std::string fifo = (dir / "fifo").string();
  REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);
  std::filesystem::create_directories(dir / "twice");
  std::filesystem::copy_file(lgc::test::case_path("witnesses/farey_hat_n4.json"), dir / "twice" / "one.json");
  std::filesystem::copy_file(lgc::test::case_path("witnesses/farey_hat_n4.json"), dir / "twice" / "two.json");
  std::filesystem::create_directory_symlink(dir / "empty", dir / "link");
  const std::string modp = lgc::test::case_path("paper/modp/modp_p3_hardmax.json").string();
  struct Hostile {
    std::string args, message;  ///< message: the documented part, after "lgcheck: <file>: " when there is a file
    std::string file = "";
  };
  for (const auto& h : std::vector<Hostile>{
           {"info " + self, "pair[0]: \"self.json\" is a pair case; a pair holds two models (a pair naming itself or "
                            "another pair is refused)", self},
           {"check " + a, "is a pair case; a pair holds two models (a pair naming itself or another pair is refused)", a},
           {"info " + dup, "b.c[0].x: this key appears twice in its object (JSON keeps only one)", dup},
           {"info " + fifo, "not a regular file (a FIFO, socket or device is not read as a case)", fifo},
           {"info /dev/zero", "not a regular file (a FIFO, socket or device is not read as a case)", "/dev/zero"},
           {"info " + (dir / "empty").string(),
            "is a directory, not a case file (give the directory to check, or a .json file)", (dir / "empty").string()},
           {"check " + (dir / "empty").string(), "no .json case file in the paths given"},
           {"check " + modp + " --claims 'T9.*'", "--claims 'T9.*' matches no registered claim (S.consistency, "
                                                  "T4.1.threshold, L4.L, T4.1.sim, T4.1.lg, T4.1.witness, T4.2.avg, "
                                                  "C4.2.regularity, L5.conv, L5.lip, D5.4.kgram, L5.3.subsample, T5.2.sim, T5.2.witness)"},
           {"check " + (dir / "twice").string() + " --certificates " + (dir / "certs").string(),
            "--certificates: two cases are named \"farey_hat_n4\""},
           {"simulate " + modp + " --epsilon 1/4 --random -1", "--random: expected a non-negative integer, got -1"},
           {"bound " + modp + " --epsilon 1/4 --precision-bits -5",
            "--precision-bits: expected a non-negative integer, got -5"},
           {"gen --out " + (dir / "link").string() + " farey-hat",
            "exists and is not a regular file (a symlink, FIFO, device or directory is never replaced)"},
           {"table threshold --out /dev/full",
            "--out: /dev/full exists and is not a regular file (a symlink, FIFO, device or directory is never replaced)"},
           {"gen --out " + (dir / "missing" / "x.json").string() + " farey-hat", "does not exist"},
           {"average " + lgc::test::case_path("average/farey_hat_n4_uniform.json").string() + " --length 1000000000",
            "the exact expectation needs about"},
           {"average " + lgc::test::case_path("average/farey_hat_n4_uniform.json").string() +
                " --length 1000000000 --method monte-carlo",
            "tokens to draw, beyond the 1e+10 a run may take; lower --samples or --length"},
           {"frobnicate", "unknown subcommand 'frobnicate' (one of: info, eval, margin, bound, simulate, threshold, "
                          "table, plot, check, merge, claims, mutations, replay, gen, average)"},
       }) {
    INFO(h.args);
    auto r = lgc::test::run_lgcheck(h.args, true);
    CHECK(r.exit_code == 2);
    CHECK(r.out.find("lgcheck: " + (h.file.empty() ? "" : h.file + ": ")) == 0);
    CHECK(r.out.find(h.message) != std::string::npos);
    CHECK(docs.find(h.message) != std::string::npos);
  }
  // No arguments: the help, with the subcommands, and exit 2.
  auto bare = lgc::test::run_lgcheck("", true);
  CHECK(bare.exit_code == 2);
  CHECK(bare.out.find("Subcommands:") != std::string::npos);
  // A replayed file that is not a certificate: exit 2 naming it, not 1 ("rejected").
  auto replay = lgc::test::run_lgcheck("replay " + empty, true);
  CHECK(replay.exit_code == 2);
  CHECK(replay.out.find("UNREADABLE " + empty + ": not valid JSON") != std::string::npos);
  // Output that cannot be written is an error, not a result.
  auto full = lgc::test::run_lgcheck("info " + modp + " >/dev/full 2>/dev/null; echo \"exit $?\"");
  CHECK(full.out == "exit 2\n");
  CHECK(std::filesystem::is_symlink(dir / "link"));  // never replaced
  std::filesystem::remove_all(dir);
}

TEST_CASE("A threshold beyond what can be evaluated ends UNDECIDED at once, never REFUTED", "[input-errors][budget]") {
  // finite:200 with gamma = 1: ceil(2^200) positions. It used to search by
  // unit steps from a 128-bit estimate (hours), then compare below the real
  // threshold (a false REFUTED) and overflow the construction (SIGSEGV).
  json doc = lgc::case_to_json(lgc::test::bundled("paper/modp/modp_p2_finite8.json"));
  doc["semantics"] = "finite:200";
  doc.erase("expect");
  const auto file = std::filesystem::temp_directory_path() / ("lgcheck_finite200_" + std::to_string(::getpid()) + ".json");
  std::ofstream(file) << doc.dump();
  auto r = lgc::test::run_lgcheck("check " + file.string() + " --budget 5s --json");
  std::filesystem::remove(file);
  CHECK(r.exit_code == 3);
  const json out = json::parse(r.out);
  for (const auto& row : out["claims"]) {
    INFO(row["id"] << ": " << row["detail"]);
    CHECK(row["verdict"] != "REFUTED");
  }
  CHECK(out["summary"]["UNDECIDED"] == 3);  // S.consistency, T4.1.threshold, T4.1.sim; L4.L does not use the threshold
  // The bound's own threshold is exact and immediate at 150 bits.
  auto b = lgc::test::run_lgcheck("bound " + lgc::test::case_path("paper/modp/modp_p2_hardmax.json").string() +
                                  " --epsilon 1/4 --precision-bits 150 --json");
  CHECK(b.exit_code == 0);
  CHECK(json::parse(b.out)["threshold"] == "1427247692705959881058285969449495136382746624");
}

TEST_CASE("A spent budget is UNDECIDED with exit 3, and the case's expectation is undecided, not refuted", "[input-errors][budget]") {
  // T4.1.lg enumerates about a million statistics on this pair: far more than a budget of 10^5 items allows
  // (a count, not a time: the whole check takes under a second; the time form is tested above and below).
  auto r = lgc::test::run_lgcheck("check " + lgc::test::case_path("pairs/modp_p1_value_readout_pair.json").string() +
                                  " --budget 100000 --json");
  CHECK(r.exit_code == 3);
  const json out = json::parse(r.out);
  bool lg_undecided = false;
  for (const auto& row : out["claims"]) {
    CHECK(row["verdict"] != "REFUTED");
    if (row["id"] == "T4.1.lg") lg_undecided = row["verdict"] == "UNDECIDED";
  }
  CHECK(lg_undecided);
  CHECK(out["summary"]["expectations"]["not_met"] == 0);
  CHECK(out["summary"]["expectations"]["undecided"].get<int>() >= 1);
}

TEST_CASE("threshold stopped by its budget prints the D(n) it computed, marked partial, exit 3", "[input-errors][budget]") {
  const std::string pair = lgc::test::case_path("pairs/modp_p1_value_readout_pair.json").string();
  auto r = lgc::test::run_lgcheck("threshold " + pair + " --epsilon 1/10 --max-length 100000 --budget 1s --json");
  CHECK(r.exit_code == 3);
  const json out = json::parse(r.out);
  CHECK(out["partial"] == true);
  CHECK(out["stopped"].get<std::string>().find("budget") != std::string::npos);
  CHECK(out["D"].size() == out["reached"].get<std::size_t>());
  CHECK(out["reached"].get<std::size_t>() >= 1);
  auto text = lgc::test::run_lgcheck("threshold " + pair + " --epsilon 1/10 --max-length 100000 --budget 1s");
  CHECK(text.exit_code == 3);
  CHECK(text.out.find("D(1) = 43/441") != std::string::npos);
  CHECK(text.out.find("(partial: stopped after n = ") != std::string::npos);
}

namespace {

/// One hostile input: the arguments (paths already in), the exit code it must
/// end with, and a part of the message it must print.
struct HostileRun {
  std::string args;
  int exit_code;
  std::string message;
};

/// Runs lgcheck under a kill timeout of two minutes (stdout and stderr together).
lgc::test::RunResult run_bounded(const std::string& args) { return lgc::test::run_lgcheck_within(args, 120); }

}  // namespace

TEST_CASE("The hostile-input suite: at least 50 bad inputs, each exit 2 with its message, bounded in time and memory",
          "[input-errors][hostile]") {
  namespace fs = std::filesystem;
  const auto dir = fs::temp_directory_path() / ("lgcheck_hostile50_" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir / "empty");
  auto write = [&](const std::string& name, const std::string& text) {
    std::ofstream(dir / name, std::ios::binary) << text;
    return (dir / name).string();
  };
  const std::string modp = lgc::test::case_path("paper/modp/modp_p3_hardmax.json").string();
  const std::string pair = lgc::test::case_path("pairs/modp_p2_perturbed_pair.json").string();
  const std::string induction = lgc::test::case_path("paper/induction/induction_head_k1.json").string();
  const std::string uniform = lgc::test::case_path("average/farey_hat_n4_uniform.json").string();
  const json base = [&] {
    json d = lgc::case_to_json(lgc::test::bundled("paper/modp/modp_p3_hardmax.json"));
    d.erase("check");
    d.erase("expect");
    return d;
  }();
  auto edited = [&](const std::string& name, const std::function<void(json&)>& edit) {
    json d = base;
    edit(d);
    return write(name, d.dump());
  };
  std::string binary(300, '\0');
  for (std::size_t k = 0; k < binary.size(); ++k) binary[k] = static_cast<char>((k * 7919 + 13) % 256);
  std::string huge_number = [&] {
    json d = base;
    d["embedding"][0][0] = "PLACEHOLDER";
    std::string text = d.dump();
    return text.replace(text.find("\"PLACEHOLDER\""), 13, std::string(100000, '9'));
  }();
  const std::string certificate_dir = (dir / "certs").string();
  REQUIRE(run_bounded("check " + pair + " --claims L4.L --certificates " + certificate_dir).exit_code == 0);
  const std::string certificate = certificate_dir + "/modp_p2_perturbed_pair__L4.L.json";
  std::string certificate_text;
  {
    std::ifstream in(certificate);
    std::stringstream text;
    text << in.rdbuf();
    certificate_text = text.str();
  }
  const std::string truncated = write("truncated_certificate.json", certificate_text.substr(0, certificate_text.size() / 2));
  json altered = json::parse(certificate_text);
  altered["evidence"]["L"] = "1000000";
  fs::create_directories(dir / "altered");
  std::ofstream(dir / "altered" / "c.json") << altered.dump();
  const std::string long_input = write("long_input.txt", std::string(10000000, '1'));
  const std::string long_letters = write("long_letters.txt", std::string(10000000, 'a'));
  const std::string fifo = (dir / "fifo").string();
  REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);
  fs::create_directory_symlink(dir / "empty", dir / "link");
  const std::string in_range = "not in range";

  const std::vector<HostileRun> runs = {
      // Case files: malformed, empty, binary, huge, deep, inexact, inconsistent.
      {"info " + write("empty.json", ""), 2, "not valid JSON"},
      {"info " + write("binary.json", binary), 2, "not valid JSON"},
      {"info " + write("truncated.json", base.dump().substr(0, 100)), 2, "not valid JSON"},
      {"info " + write("top_array.json", "[1, 2]"), 2, "expected a JSON object at the top level"},
      {"info " + write("deep.json", std::string(100000, '[') + std::string(100000, ']')), 2,
       "expected a JSON object at the top level"},
      {"info " + write("huge_number.json", huge_number), 2, "a JSON number too large for a machine number"},
      {"info " + edited("float.json", [](json& d) { d["embedding"][0][0] = 0.1; }), 2, "is not exact; quote it"},
      {"info " + edited("zero_denominator.json", [](json& d) { d["embedding"][0][0] = "1/0"; }), 2, "zero denominator"},
      {"info " + edited("huge_string_number.json", [](json& d) { d["embedding"][0][0] = "1e1000000"; }), 2,
       "embedding[0][0]"},
      {"info " + write("duplicate.json", R"({"format": "lgcheck-case/1", "a": 1, "a": 2})"), 2, "appears twice"},
      {"info " + edited("wrong_shape.json", [](json& d) { d["layers"][0]["heads"][0]["qk"][2].erase(0); }), 2,
       "expected 5 entries (width 5), got 4"},
      {"info " + edited("width_zero.json", [](json& d) { d["width"] = 0; }), 2, "width: expected an integer in"},
      {"info " + edited("no_alphabet.json", [](json& d) { d["alphabet"] = json::array(); }), 2,
       "alphabet: expected a non-empty array"},
      {"info " + edited("numeric_tokens.json", [](json& d) { d["alphabet"] = {1, 2}; }), 2, "alphabet[0]"},
      {"info " + edited("huge_period.json", [](json& d) { d["period"] = 1000000000000ull; }), 2,
       "period: expected an integer in [1, 1000000]"},
      {"info " + edited("huge_locality.json", [](json& d) { d["locality"] = 1000000; }), 2, "entries (locality 1000000)"},
      {"info " + edited("finite_zero.json", [](json& d) { d["semantics"] = "finite:0"; }), 2, "semantics: expected"},
      {"info " + edited("finite_huge.json", [](json& d) { d["semantics"] = "finite:100000"; }), 2, "semantics: expected"},
      {"info " + edited("unknown_field.json", [](json& d) { d["widht"] = 5; }), 2, "widht: unknown field"},
      {"info " + edited("no_readout.json", [](json& d) { d.erase("readout"); }), 2, "readout: missing required field"},
      {"info " + (dir / "empty").string(), 2, "is a directory, not a case file"},
      {"info /dev/zero", 2, "not a regular file"},
      {"info " + fifo, 2, "not a regular file"},
      {"info " + (dir / "missing.json").string(), 2, "no such file"},
      {"info " + write("self.json", R"({"format": "lgcheck-case/1", "pair": ["self.json", "self.json"]})"), 2,
       "is a pair case"},
      // Inputs.
      {"eval " + modp + " --input ''", 2, "--input: the input is empty"},
      {"eval " + modp + " --input 012", 2, "\"2\" is not in the alphabet"},
      {"eval " + modp + " --input @" + (dir / "missing.txt").string(), 2, "--input: " + (dir / "missing.txt").string()},
      {"eval " + modp + " --input @" + (dir / "empty").string(), 2, "not a regular file"},
      {"eval " + induction + " --input @" + long_letters + " --all-positions", 2, "at most 1000000"},
      {"eval " + induction + " --input @" + long_input, 2, "\"1\" is not in the alphabet {a b}"},
      // Flags: ranges, numbers, shards, budgets.
      {"threshold " + pair + " --epsilon 1/10 --max-length 1000000000", 2, in_range},
      {"check " + modp + " --threads 0", 2, in_range},
      {"check " + modp + " --threads -1", 2, in_range},
      {"check " + modp + " --threads 1000000", 2, in_range},
      {"bound " + modp + " --epsilon 0", 2, "--epsilon: expected a positive number, got 0"},
      {"bound " + modp + " --epsilon -1/20", 2, "--epsilon: expected a positive number"},
      {"bound " + modp + " --epsilon 1/0", 2, "zero denominator"},
      {"bound " + modp + " --epsilon abc", 2, "--epsilon: not an exact number \"abc\""},
      {"bound " + modp + " --epsilon 1e1000000000", 2, "--epsilon"},
      {"bound " + modp + " --epsilon 1/4 --precision-bits -5", 2, "expected a non-negative integer"},
      {"bound " + modp + " --theorem 5.3 --epsilon 1/2", 2, "--theorem: one of 4.1, 4.2, 5.2"},
      {"eval " + modp + " --input 01 --semantics finite:x", 2, "--semantics: expected"},
      {"check " + modp + " --shard 3/2", 2, "--shard: expected 0 <= i < n"},
      {"check " + modp + " --shard 1", 2, "--shard"},
      {"check " + modp + " --budget 5x", 2, "--budget: expected"},
      {"check " + modp + " --budget -1s", 2, "--budget: expected a positive time"},
      {"check " + modp + " --claims 'T9.*'", 2, "matches no registered claim"},
      {"check " + (dir / "empty").string(), 2, "no .json case file in the paths given"},
      {"simulate " + modp + " --epsilon 1/4 --random -1", 2, "--random: expected a non-negative integer"},
      {"average " + uniform + " --length 1000000000", 2, "the exact expectation needs about"},
      {"average " + uniform + " --length 1000000000 --method monte-carlo", 2, "tokens to draw"},
      // Outputs.
      {"gen --out " + (dir / "no_dir" / "x.json").string() + " farey-hat", 2, "does not exist"},
      {"gen --out " + (dir / "link").string() + " farey-hat", 2, "exists and is not a regular file"},
      {"table threshold --out /dev/full", 2, "exists and is not a regular file"},
      {"table t41 --out /proc/self/no_such_dir/t41.md", 2, "--out"},
      {"gen --check '{bad' modp --p 3", 2, "--check: not valid JSON"},
      // Certificates and shards.
      {"replay " + truncated, 2, "UNREADABLE"},
      {"replay " + (dir / "altered").string(), 1, "evidence.L: recorded 1000000"},
      {"merge " + modp, 2, "not a shard of lgcheck check --shard"},
      {"merge " + write("empty_shard.json", ""), 2, "not valid JSON"},
      {"merge " + write("wrong_shard.json", R"({"format": 7})"), 2, "not a shard of lgcheck check --shard"},
      // The command line itself.
      {"frobnicate", 2, "unknown subcommand 'frobnicate'"},
      {"eval", 2, "required"},
  };
  CHECK(runs.size() >= 50);  // docs/reliability.md says how many
  for (const HostileRun& h : runs) {
    INFO(h.args);
    const auto r = run_bounded(h.args);
    CHECK(r.exit_code == h.exit_code);
    CHECK(r.out.find(h.message) != std::string::npos);
    CHECK(r.out.size() < 20000);  // a message, not a dump of the input
  }
  // Every child together stayed below 2 GB of resident memory.
  struct rusage usage {};
  REQUIRE(::getrusage(RUSAGE_CHILDREN, &usage) == 0);
  CHECK(usage.ru_maxrss < 2L * 1024 * 1024);  // kilobytes
  // A valid 10^7-token input is evaluated from its statistic: bounded, exit 0.
  const auto r = run_bounded("eval " + modp + " --input @" + long_input);
  CHECK(r.exit_code == 0);
  CHECK(r.out.find("T = 10000000") != std::string::npos);
  fs::remove_all(dir);
}

TEST_CASE("Every long-running command takes a budget: spent, it exits 3 with its message, generous, it changes nothing",
          "[input-errors][budget]") {
  const std::string farey = lgc::test::case_path("average/farey_hat_n4_uniform.json").string();
  const std::string modp = lgc::test::case_path("paper/modp/modp_p2_hardmax.json").string();
  const std::string cases = lgc::test::case_path("").string();
  // The wall clock: table teeth runs every bundled case (about a minute).
  auto table = lgc::test::run_lgcheck_within("table teeth --cases " + cases + " --budget 1s", 60);
  CHECK(table.exit_code == 3);
  CHECK_THAT(table.out, Catch::Contains("the time budget of 1 s ran out before table finished"));
  // A count of enumerated items: the exact expectation's terms.
  auto average = lgc::test::run_lgcheck_within("average " + farey + " --length 3000 --budget 1000", 60);
  CHECK(average.exit_code == 3);
  CHECK_THAT(average.out, Catch::Contains("undecided"));
  CHECK_THAT(average.out, Catch::Contains("raise --budget"));
  // Generous budgets: the same answers as without.
  for (const std::string& args : std::vector<std::string>{"bound " + modp + " --epsilon 1/10 --json", "average " + farey + " --length 20 --json",
                                  "simulate " + modp + " --random 1000 --epsilon 1/10 --json",
                                  std::string("gen modp --p 3"), "table t41 --cases " + cases + " --format json"}) {
    INFO(args);
    auto plain = lgc::test::run_lgcheck(args);
    auto budgeted = lgc::test::run_lgcheck(args + " --budget 10m");
    CHECK(plain.exit_code == 0);
    CHECK(budgeted.exit_code == plain.exit_code);
    CHECK(budgeted.out == plain.out);
  }
}
