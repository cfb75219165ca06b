#pragma once
// Helpers for the kernel tests: models from inline JSON, bundled cases, strings.
#include "lgcheck/model/case_file.hpp"
#include "lgcheck/kernel/forward.hpp"

#include <nlohmann/json.hpp>

#include <fstream>
#include <string>

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

}  // namespace kt
