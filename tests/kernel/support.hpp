#pragma once
// Helpers for the kernel tests: models from inline JSON, bundled cases, strings.
#include "lgcheck/model/case_file.hpp"
#include "lgcheck/kernel/forward.hpp"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <fstream>
#include <string>
#include <vector>

namespace kt {

inline nlohmann::json read_json(const std::string& relative) {
  std::ifstream in(std::string(KERNEL_SOURCE_DIR) + "/" + relative);
  return nlohmann::json::parse(in);
}

inline lgc::Case bundled(const std::string& relative) {
  return lgc::parse_case(read_json(relative), std::string(KERNEL_SOURCE_DIR) + "/" + relative);
}

inline lgc::Model model_from(const nlohmann::json& j) { return lgc::parse_case(j, "inline").model(); }

/// "0110" -> {0,1,1,0} for the alphabet {"0","1"}; "ab" -> {0,1} for {"a","b"}.
inline lgc::kernel::Tokens tokens(const lgc::Model& m, const std::string& text) {
  lgc::kernel::Tokens t;
  for (char ch : text)
    for (std::size_t s = 0; s < m.alphabet.size(); ++s)
      if (m.alphabet[s] == std::string(1, ch)) t.push_back(static_cast<int>(s));
  return t;
}

inline lgc::Rational exact_of(const lgc::Number& x) { return x.exact(); }

/// A certificate of tests/kernel/data.
inline nlohmann::json fixture(const std::string& name) { return read_json("tests/kernel/data/" + name); }

/// The holding T4.1.sim fixture (modp_p3_hardmax) without most of its random inputs: witnesses 850..1803 cut, of the
/// domain's 0..799, the constructed 800..803 and the random 804..1803 (up to 10^6 positions each, a check's main
/// cost). Its check also reads "fewer than the 1000 random inputs": for the tests that look for a problem elsewhere.
inline nlohmann::json simulation_fixture_cut() {
  nlohmann::json cert = fixture("modp_p3_hardmax__T4.1.sim.json");
  nlohmann::json& ws = cert["evidence"]["witnesses"];
  ws.erase(ws.begin() + 850, ws.end());
  return cert;
}

/// Whether some line of `list` contains `text`.
inline bool has(const std::vector<std::string>& list, const std::string& text) {
  return std::any_of(list.begin(), list.end(), [&](const std::string& s) { return s.find(text) != std::string::npos; });
}

/// The lines of `list`, one per line (for INFO).
inline std::string all(const std::vector<std::string>& list) {
  std::string out;
  for (const auto& s : list) out += s + "\n";
  return out;
}

}  // namespace kt
