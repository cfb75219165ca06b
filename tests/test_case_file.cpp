// Case files: every validation rule refuses the wrong file with its JSON path
// in the message; floats are refused with a hint to quote them; saving then
// loading gives the identical model.
#include "lgcheck/model/input.hpp"
#include "lgcheck/tasks/paper_tasks.hpp"

#include "support.hpp"

#include <fstream>

using lgc::Case;
using lgc::CaseError;
using nlohmann::json;

namespace {

json modp3() { return lgc::case_to_json(lgc::test::bundled("paper/modp/modp_p3_hardmax.json")); }

/// Parsing `doc` must fail with `path` as the JSON path and `fragment` in the reason.
void require_refusal(const json& doc, const std::string& path, const std::string& fragment) {
  INFO("expected refusal at " << path << " mentioning \"" << fragment << "\"");
  try {
    lgc::parse_case(doc, "cases/x.json");
    FAIL("the case was accepted");
  } catch (const CaseError& e) {
    INFO("message: " << e.what());
    CHECK(e.file() == "cases/x.json");
    CHECK(e.json_path() == path);
    CHECK(e.reason().find(fragment) != std::string::npos);
    CHECK(std::string(e.what()).find("cases/x.json: " + path) == 0);
  }
}

}  // namespace

TEST_CASE("The CASE-FORMAT example loads with the documented meaning", "[case]") {
  Case c = lgc::test::bundled("paper/modp/modp_p3_hardmax.json");
  const lgc::Model& m = c.model();
  CHECK(c.name == "modp_p3_hardmax");
  CHECK(m.alphabet_size() == 2);
  CHECK(m.period == 3);
  CHECK(m.locality == 0);
  CHECK(m.width == 5);
  CHECK(m.layers.size() == 1);
  CHECK(m.layers[0].heads[0].qk(2, 3) == 1);
  CHECK(m.semantics == lgc::Semantics::hardmax());
}

TEST_CASE("Saving then loading gives the identical model", "[case][roundtrip]") {
  for (const char* file : {"paper/modp/modp_p7_finite8.json", "paper/simple/simple_w8_relu.json",
                           "paper/simple/simple_w2_sin.json", "paper/induction/induction_head_k1.json"}) {
    INFO(file);
    Case c = lgc::test::bundled(file);
    auto tmp = std::filesystem::temp_directory_path() / ("lgcheck_roundtrip_" + std::to_string(::getpid()) + ".json");
    lgc::save_case(c, tmp);
    Case back = lgc::load_case(tmp);
    std::filesystem::remove(tmp);
    CHECK(back.models == c.models);
    CHECK(back.name == c.name);
    CHECK(back.check == c.check);
    CHECK(back.expect == c.expect);
    CHECK(lgc::case_to_json(back) == lgc::case_to_json(c));
  }
}

TEST_CASE("Numbers: strings, integers, and refused floats", "[case][numbers]") {
  json doc = modp3();
  doc["embedding"][0][0] = 1;  // a JSON integer is exact
  CHECK(lgc::parse_case(doc, "x.json").model().embedding(0, 0) == 1);
  doc["embedding"][0][0] = "-7/4";
  CHECK(lgc::parse_case(doc, "x.json").model().embedding(0, 0) == lgc::Rational(-7, 4));
  doc["embedding"][0][0] = "1e-3";
  CHECK(lgc::parse_case(doc, "x.json").model().embedding(0, 0) == lgc::Rational(1, 1000));
  doc["embedding"][0][0] = 0.1;
  require_refusal(doc, "embedding[0][0]", "quote it as a string");
  doc["embedding"][0][0] = "0.1.2";
  require_refusal(doc, "embedding[0][0]", "not an exact number");
  doc["embedding"][0][0] = true;
  require_refusal(doc, "embedding[0][0]", "expected a number written as a string");
}

TEST_CASE("Each validation rule refuses the wrong file with its JSON path", "[case][validation]") {
  json base = modp3();
  SECTION("format") {
    json d = base;
    d["format"] = "lgcheck-case/2";
    require_refusal(d, "format", "expected \"lgcheck-case/1\"");
    d.erase("format");
    require_refusal(d, "format", "missing required field");
  }
  SECTION("top level is an object") { require_refusal(json::array(), "", "expected a JSON object"); }
  SECTION("unknown field in a closed object") {
    json d = base;
    d["widht"] = 5;
    require_refusal(d, "widht", "unknown field");
    d = base;
    d["layers"][0]["heads"][0]["bias"] = "1";
    require_refusal(d, "layers[0].heads[0].bias", "unknown field");
    d = base;
    d["readout"]["scale"] = "1";
    require_refusal(d, "readout.scale", "unknown field");
  }
  SECTION("missing required fields") {
    for (const char* key : {"alphabet", "width", "period", "locality", "embedding", "positional", "layers", "readout"}) {
      json d = base;
      d.erase(key);
      require_refusal(d, key, "missing required field");
    }
    json d = base;
    d["layers"][0]["heads"][0].erase("phi");
    require_refusal(d, "layers[0].heads[0].phi", "missing required field");
    d = base;
    d["layers"][0]["heads"][0].erase("qk");
    require_refusal(d, "layers[0].heads[0].qk", "missing required field");
  }
  SECTION("alphabet") {
    json d = base;
    d["alphabet"] = json::array();
    require_refusal(d, "alphabet", "non-empty array");
    d["alphabet"] = {"0", "0"};
    require_refusal(d, "alphabet[1]", "appears twice");
    d["alphabet"] = {"0", "a b"};
    require_refusal(d, "alphabet[1]", "white space");
    d["alphabet"] = {"0", 1};
    require_refusal(d, "alphabet[1]", "expected a string");
  }
  SECTION("integers: width, period, locality") {
    json d = base;
    d["period"] = -3;
    require_refusal(d, "period", "expected an integer in [1,");
    d["period"] = 0;
    require_refusal(d, "period", "got 0");
    d = base;
    d["width"] = "five";
    require_refusal(d, "width", "not an integer");
    d = base;
    d["locality"] = 1.5;
    require_refusal(d, "locality", "expected an integer");
  }
  SECTION("semantics") {
    json d = base;
    d["semantics"] = "finite:0";
    require_refusal(d, "semantics", "finite:<p>");
    d["semantics"] = "argmax";
    require_refusal(d, "semantics", "expected \"hardmax\"");
  }
  SECTION("matrix shapes") {
    json d = base;
    d["embedding"].push_back(d["embedding"][0]);
    require_refusal(d, "embedding", "expected 2 rows (alphabet size 2), got 3");
    d = base;
    d["positional"].erase(0);
    require_refusal(d, "positional", "expected 3 rows (period 3), got 2");
    d = base;
    d["layers"][0]["heads"][0]["qk"][2].erase(0);
    require_refusal(d, "layers[0].heads[0].qk[2]", "expected 5 entries (width 5), got 4");
    d = base;
    d["layers"][0]["heads"][0]["value"] = "zero";
    require_refusal(d, "layers[0].heads[0].value", "expected an array of rows");
  }
  SECTION("phi length follows the locality") {
    json d = base;
    d["locality"] = 2;
    require_refusal(d, "layers[0].heads[0].phi", "expected 3 entries (locality 2), got 1");
  }
  SECTION("k and q instead of qk") {
    json d = base;
    auto& head = d["layers"][0]["heads"][0];
    head.erase("qk");
    head["k"] = {{"0", "0", "1", "0", "0"}};
    head["q"] = {{"0", "0", "0", "1", "0"}};
    lgc::Model m = lgc::parse_case(d, "x.json").model();
    CHECK(m.layers[0].heads[0].qk == lgc::test::bundled("paper/modp/modp_p3_hardmax.json").model().layers[0].heads[0].qk);
    head["qk"] = base["layers"][0]["heads"][0]["qk"];
    require_refusal(d, "layers[0].heads[0]", "not both");
    head.erase("qk");
    head["q"] = {{"0", "0", "0", "1", "0"}, {"0", "0", "0", "1", "0"}};
    require_refusal(d, "layers[0].heads[0].q", "expected 1 rows");
  }
  SECTION("layers and heads") {
    json d = base;
    d["layers"] = json::array();
    require_refusal(d, "layers", "non-empty array of layers");
    d = base;
    d["layers"][0]["heads"] = json::array();
    require_refusal(d, "layers[0].heads", "non-empty array of heads");
  }
  SECTION("mlp shapes") {
    json d = base;
    d["layers"][0]["mlp"] = {{"in", {{"1", "0", "0", "0", "0"}}}, {"in_bias", {"0", "0"}},
                             {"out", {{"1"}, {"0"}, {"0"}, {"0"}, {"0"}}}, {"out_bias", {"0", "0", "0", "0", "0"}}};
    require_refusal(d, "layers[0].mlp.in_bias", "expected 1 entries (1 hidden units), got 2");
    d["layers"][0]["mlp"]["in_bias"] = {"0"};
    CHECK(lgc::parse_case(d, "x.json").model().layers[0].mlp.has_value());
    d["layers"][0]["mlp"]["out"][4] = {"0", "1"};
    require_refusal(d, "layers[0].mlp.out[4]", "expected 1 entries");
  }
  SECTION("readout") {
    json d = base;
    d["readout"]["bias"] = {"0", "0"};
    require_refusal(d, "readout.bias", "expected 1 entries (1 outputs), got 2");
    d = base;
    d["readout"]["activation"] = "tanh";
    require_refusal(d, "readout.activation", "expected \"identity\" or {\"sin\"");
    d["readout"]["activation"] = {{"sin", 0.5}};
    require_refusal(d, "readout.activation.sin", "quote it");
    d["readout"]["activation"] = {{"sin", "1/2"}};
    CHECK(*lgc::parse_case(d, "x.json").model().readout.sin_omega == lgc::Rational(1, 2));
  }
  SECTION("check and expect blocks") {
    json d = base;
    d["check"] = {{"epsilon", "-1/20"}};
    require_refusal(d, "check.epsilon", "positive");
    d["check"] = {{"dirichlet_alpha", {"1"}}};
    require_refusal(d, "check.dirichlet_alpha", "expected 2 entries (alphabet size 2)");
    d["check"] = {{"max_length", 0}};
    require_refusal(d, "check.max_length", "expected an integer in [1,");
    d = base;
    d["expect"] = {{"verdicts", {{"S.consistency", "PASS"}}}};
    require_refusal(d, "expect.verdicts.S.consistency", "expected PROVED, SAMPLED, VACUOUS, REFUTED or UNDECIDED");
    d["expect"] = {{"margin", "1"}};
    require_refusal(d, "expect.margin", "unknown field");
  }
}

TEST_CASE("Pair cases: files, inline models and compatibility", "[case][pair]") {
  auto dir = std::filesystem::temp_directory_path() / ("lgcheck_pair_" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  lgc::save_case(lgc::test::bundled("paper/modp/modp_p3_hardmax.json"), dir / "f.json");
  lgc::save_case(lgc::test::bundled("paper/modp/modp_p3_finite8.json"), dir / "g.json");
  json pair = {{"format", "lgcheck-case/1"}, {"name", "p3"}, {"pair", {"f.json", "g.json"}}};
  Case c = lgc::parse_case(pair, dir / "pair.json");
  CHECK(c.is_pair);
  CHECK(c.models.size() == 2);
  CHECK(c.models[1].semantics == lgc::Semantics::finite(8));

  json inline_pair = {{"format", "lgcheck-case/1"}, {"pair", {modp3(), modp3()}}};
  inline_pair["pair"][1]["period"] = 2;
  inline_pair["pair"][1]["positional"].erase(0);
  try {
    lgc::parse_case(inline_pair, dir / "pair.json");
    FAIL("incompatible pair accepted");
  } catch (const CaseError& e) {
    CHECK(e.json_path() == "pair[1].period");
  }
  json missing = {{"format", "lgcheck-case/1"}, {"pair", {"f.json", "nope.json"}}};
  try {
    lgc::parse_case(missing, dir / "pair.json");
    FAIL("missing member accepted");
  } catch (const CaseError& e) {
    CHECK(e.file().find("nope.json") != std::string::npos);
  }
  json three = {{"format", "lgcheck-case/1"}, {"pair", {"f.json"}}};
  require_refusal(three, "pair", "exactly two models");
  std::filesystem::remove_all(dir);
}

TEST_CASE("Malformed JSON and unreadable files are refused with the file name", "[case]") {
  auto file = std::filesystem::temp_directory_path() / ("lgcheck_bad_" + std::to_string(::getpid()) + ".json");
  std::ofstream(file) << "{\"format\": \"lgcheck-case/1\", ";
  CHECK_THROWS_WITH(lgc::load_case(file), Catch::Contains("not valid JSON") && Catch::Contains(file.string()));
  std::filesystem::remove(file);
  CHECK_THROWS_WITH(lgc::load_case(file), Catch::Contains("cannot open"));
}

TEST_CASE("Input strings parse with the alphabet's names", "[case][input]") {
  lgc::Model m = lgc::test::bundled("paper/modp/modp_p3_hardmax.json").model();
  CHECK(lgc::parse_input(m, "0110") == lgc::Tokens{0, 1, 1, 0});
  CHECK(lgc::parse_input(m, "0 1 1 0") == lgc::Tokens{0, 1, 1, 0});
  CHECK(lgc::format_input(m, {1, 0}) == "10");
  CHECK_THROWS_WITH(lgc::parse_input(m, "0120"), Catch::Contains("position 3") && Catch::Contains("\"2\""));
  CHECK_THROWS_AS(lgc::parse_input(m, ""), lgc::InputError);
  lgc::Model words = m;
  words.alphabet = {"zero", "one"};
  CHECK(lgc::parse_input(words, "one zero one") == lgc::Tokens{1, 0, 1});
  CHECK(lgc::format_input(words, {1, 0}) == "one zero");
}
