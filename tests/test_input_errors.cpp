// Input errors: each class of bad input is refused with a message naming the
// file, the JSON path or flag, what was expected and what was found; the same
// messages are listed in docs/reliability.md; no refusal leaves a file behind.
#include "support.hpp"

#include <fstream>
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
       "semantics: expected \"hardmax\", \"softmax\" or \"finite:<p>\" with 1 <= p <= 65536, got \"argmax\""},
      {"a repeated token name", [](json& d) { d["alphabet"] = {"0", "0"}; }, "alphabet[1]: token name \"0\" appears twice"},
      {"a wrong format tag", [](json& d) { d["format"] = "lgcheck-case/2"; },
       "format: expected \"lgcheck-case/1\", got \"lgcheck-case/2\""},
      {"a bad checker parameter", [](json& d) { d["check"]["epsilon"] = "-1/20"; },
       "check.epsilon: expected a positive number, got -1/20"},
      {"a Dirichlet prior of the wrong size", [](json& d) { d["check"]["dirichlet_alpha"] = {"1", "1", "1"}; },
       "check.dirichlet_alpha: expected 2 entries (alphabet size 2), got 3"},
      {"a short alphabet with a foreign symbol", [](json& d) { d["check"]["short_alphabet"] = {"2"}; },
       "check.short_alphabet[0]: \"2\" is not a symbol of the alphabet"},
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
            "--semantics: expected \"hardmax\", \"softmax\" or \"finite:<p>\" with 1 <= p <= 65536, got \"finite:x\""},
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
