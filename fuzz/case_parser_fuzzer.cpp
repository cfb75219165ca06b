// libFuzzer target: arbitrary bytes through the case parser. A refusal must
// be a CaseError (or a JSON parse failure); anything else is a bug.
#include "lgcheck/model/case_file.hpp"

#include <cstddef>
#include <cstdint>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string text(reinterpret_cast<const char*>(data), size);
  nlohmann::json doc = nlohmann::json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (doc.is_discarded()) return 0;
  try {
    lgc::Case c = lgc::parse_case(doc, "fuzz/case.json");
    // A case that loads must save and load back to the same models.
    lgc::Case back = lgc::parse_case(lgc::case_to_json(c), "fuzz/case.json");
    if (!(back.models == c.models)) __builtin_trap();
  } catch (const lgc::CaseError&) {
  }
  return 0;
}
