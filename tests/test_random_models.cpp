// Random valid cases through every command: one and two layers, every
// semantics, S <= 4, Δ <= 3, τ <= 2, small rational entries with ties (zero
// entries) and near-ties (a pair differing by 1/1000). Each run must end in
// 0, 1, 2 or 3 within its budget and a kill timeout, never a signal; a refusal
// is a one-line "lgcheck: ..." message, never a library exception.
// LGCHECK_RANDOM_LOG=1 prints every run over 2 s or with exit 1 to stderr and
// keeps the generated cases (in the system's temporary directory).
#include "lgcheck/quantities/logit_margin.hpp"
#include "lgcheck/semantics/finite_precision.hpp"
#include "support.hpp"

#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <fstream>
#include <optional>

using nlohmann::json;

namespace {

/// A random two-layer model: a random one-layer model plus a second layer of
/// random heads (width 3, the same τ).
lgc::Model random_two_layer_model(std::mt19937_64& rng, std::size_t S, std::size_t D, std::size_t tau, std::size_t heads) {
  lgc::Model m = lgc::test::random_one_layer_model(rng, S, D, tau, heads, false);
  lgc::Model second = lgc::test::random_one_layer_model(rng, S, D, tau, heads, false);
  m.layers.push_back(second.layers.front());
  return m;
}

/// One random case: a model (2/3) or a near-tie pair (1/3).
json random_case(std::mt19937_64& rng, std::size_t index) {
  const std::size_t S = 2 + rng() % 3, D = 1 + rng() % 3, tau = rng() % 3, heads = 1 + rng() % 2;
  const bool two_layers = rng() % 3 == 0;
  lgc::Model m = two_layers ? random_two_layer_model(rng, S, D, tau, heads)
                            : lgc::test::random_one_layer_model(rng, S, D, tau, heads, rng() % 4 == 0);
  const unsigned kind = static_cast<unsigned>(rng() % 4);
  m.semantics = kind == 0   ? lgc::Semantics::hardmax()
                : kind == 1 ? lgc::Semantics::finite(static_cast<unsigned>(2 + rng() % 7))
                : kind == 2 ? lgc::Semantics::finite_weights(static_cast<unsigned>(2 + rng() % 7))
                            : lgc::Semantics::softmax();
  m.name = "random_" + std::to_string(index);
  // Small checker parameters: the claims' enumerations and random inputs stay short (each case is a process).
  const json check = {{"max_length", 6}, {"random_inputs", 1}, {"seed", index}};
  if (rng() % 3 != 0) {
    json doc = lgc::model_to_json(m);
    doc["format"] = lgc::kCaseFormat;
    doc["check"] = check;
    return doc;
  }
  lgc::Model g = m;
  g.name = m.name + "_g";
  g.readout.bias[0] += lgc::Rational(1, 1000);  // a near-tie: f and g differ by 1/1000 everywhere
  return json{{"format", lgc::kCaseFormat},
              {"name", m.name + "_pair"},
              {"check", check},
              {"pair", json::array({lgc::model_to_json(m), lgc::model_to_json(g)})}};
}

/// One command under a kill timeout of a minute (stdout and stderr together).
lgc::test::RunResult run(const std::string& args) { return lgc::test::run_lgcheck_within(args, 60); }

}  // namespace

TEST_CASE("Random valid cases through info, eval, margin, bound and check end in 0-3, refusals in one line",
          "[random][cli]") {
  std::mt19937_64 rng(lgc::test::test_seed());
  INFO("seed " << lgc::test::test_seed() << " (LGCHECK_TEST_SEED)");
  const auto dir = std::filesystem::temp_directory_path() / ("lgcheck_random_models_" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
#ifdef LGCHECK_SANITIZED
  const std::size_t cases = 20;  // each command is a process; the Release suite runs 200
#else
  const std::size_t cases = 200;
#endif
  std::size_t runs = 0, refusals = 0, refuted = 0;
  for (std::size_t k = 0; k < cases; ++k) {
    const json doc = random_case(rng, k);
    const std::string file = (dir / ("case_" + std::to_string(k) + ".json")).string();
    std::ofstream(file) << doc.dump(1);
    const lgc::Case c = lgc::load_case(file);  // every generated case is valid
    const lgc::Model& m = c.model();
    std::string input;
    for (std::size_t t = 0, n = 1 + rng() % 12; t < n; ++t) input += m.alphabet[rng() % m.alphabet_size()];
    std::vector<std::string> commands = {"info " + file, "margin " + file, "bound " + file + " --epsilon 1/10",
                                         "check " + file + " --budget 5000 --threads 1"};
    if (!c.is_pair) commands.push_back("eval " + file + " --input " + input);
    if (c.is_pair) commands.push_back("bound " + file + " --theorem 4.2 --epsilon 1/10 --alpha " +
                                      std::string(m.alphabet_size() == 2 ? "1,1" : m.alphabet_size() == 3 ? "1,1,1" : "1,1,1,1"));
    if (m.layers.size() == 2) commands.push_back("bound " + file + " --theorem 5.2 --epsilon 1/10");
    for (const std::string& args : commands) {
      INFO(args << "\n" << doc.dump());
      const auto start = std::chrono::steady_clock::now();
      const lgc::test::RunResult r = run(args);
      const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
      if (std::getenv("LGCHECK_RANDOM_LOG") && (seconds > 2 || r.exit_code == 1))
        std::fprintf(stderr, "%.1f s exit %d: %s\n%s\n", seconds, r.exit_code, args.c_str(), r.out.substr(0, 600).c_str());
      ++runs;
      INFO(r.out.substr(0, 2000));
      CHECK(r.exit_code >= 0);
      CHECK(r.exit_code <= 3);
      if (r.exit_code == 2) {
        ++refusals;
        CHECK(r.out.rfind("lgcheck: ", 0) == 0);
        CHECK(r.out.find("exception") == std::string::npos);
        CHECK(r.out.size() < 2000);
      }
      if (r.exit_code == 1) ++refuted;
    }
  }
  // Say what the run met (the counts change with the seed, not the verdict).
  WARN(runs << " runs on " << cases << " random cases: " << refusals << " refusals, " << refuted << " with exit 1");
  if (!std::getenv("LGCHECK_RANDOM_LOG")) std::filesystem::remove_all(dir);
}

TEST_CASE("bound --theorem 4.1 on a random one-layer model with logit margin <= 1/1000 prints the exact threshold",
          "[random][cli][threshold]") {
  std::mt19937_64 rng(lgc::test::test_seed());
  INFO("seed " << lgc::test::test_seed() << " (LGCHECK_TEST_SEED)");
  // Random one-layer finite:8 models (query-key entries with denominators up to 40) until one has γ <= 1/1000.
  std::optional<lgc::Model> small;
  lgc::Rational gamma;
  std::size_t tried = 0;
  for (; tried < 20000 && !small; ++tried) {
    lgc::Model m = lgc::test::random_one_layer_model(rng, 2 + rng() % 3, 1 + rng() % 2, rng() % 3, 1, false);
    for (auto& head : m.layers[0].heads)
      for (std::size_t i = 0; i < head.qk.rows(); ++i)
        for (std::size_t j = 0; j < head.qk.cols(); ++j) head.qk(i, j) = lgc::test::random_rational(rng, 40);
    m.semantics = lgc::Semantics::finite(8);
    const lgc::LogitMargin margin = lgc::logit_margin(m);
    if (margin.gamma && *margin.gamma <= lgc::Rational(1, 1000)) small = m, gamma = *margin.gamma;
  }
  REQUIRE(small);
  INFO("gamma = " << lgc::to_string(gamma) << " after " << tried << " random models");
  const auto file = std::filesystem::temp_directory_path() / ("lgcheck_small_margin_" + std::to_string(::getpid()) + ".json");
  nlohmann::json doc = lgc::model_to_json(*small);
  doc["format"] = lgc::kCaseFormat;
  std::ofstream(file) << doc.dump(1);
  const lgc::test::RunResult r = run("bound '" + file.string() + "' --theorem 4.1 --epsilon 1/20 --json");
  std::filesystem::remove(file);
  REQUIRE(r.exit_code == 0);
  const nlohmann::json j = nlohmann::json::parse(r.out);
  CHECK(j.at("gamma") == lgc::to_string(gamma));
  // The threshold is the least t with t^γ >= 2^8: checked by the exact comparison of power_reaches (not the root).
  const lgc::Integer t(j.at("threshold").get<std::string>());
  CHECK(t.str().size() >= 8000 * 30103 / 100000);  // 2^{8/γ} has at least 8000·log10(2) digits
  CHECK(lgc::power_reaches(t, gamma, 8));
  CHECK_FALSE(lgc::power_reaches(t - 1, gamma, 8));
}
