#pragma once
// A detail's numbers in free slots, counted by changing each alone: shared by the detail tests and
// lgcheck_kernel_check --detail.
#include "lgcheck/kernel/detail.hpp"

#include <nlohmann/json.hpp>

#include <cstddef>
#include <regex>
#include <string>

namespace kt {

/// Each number of the detail with its last digit changed, one at a time: how many the detail check (`facts` given)
/// still accepts — the numbers inside free slots; `numbers` is set to how many there are.
inline std::size_t accepted_tamperings(const nlohmann::json& cert, std::size_t& numbers,
                                       const lgc::kernel::DetailFacts& facts = {}) {
  const lgc::Case c = lgc::parse_case(cert.at("case"), "inline");
  const std::string detail = cert["detail"];
  const std::regex number(R"((^|[^A-Za-z0-9^])(-?\d+(?:[./]\d+)*(?:e[-+]?\d+)?))");
  std::size_t accepted = 0;
  numbers = 0;
  for (auto it = std::sregex_iterator(detail.begin(), detail.end(), number); it != std::sregex_iterator(); ++it) {
    const auto& m = (*it)[2];
    std::string digits = m.str();
    digits.back() = digits.back() == '9' ? '0' : static_cast<char>(digits.back() + 1);
    nlohmann::json edited = cert;
    edited["detail"] = detail.substr(0, static_cast<std::size_t>(m.first - detail.begin())) + digits +
                       detail.substr(static_cast<std::size_t>(m.second - detail.begin()));
    ++numbers;
    accepted += lgc::kernel::check_detail(edited, c, facts)->matches;
  }
  return accepted;
}

}  // namespace kt
