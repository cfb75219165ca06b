// libFuzzer target: arbitrary bytes as the parts of `lgcheck check --shard`,
// through lgcheck merge's merge_shards (one part alone, and the part twice).
// A refusal must be a std::exception (the command line turns it into exit 2);
// a crash, or an allocation sized by an unchecked count (AddressSanitizer
// stops on it), is a bug.
#include "trust/suite.hpp"

#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  std::string text(reinterpret_cast<const char*>(data), size);
  nlohmann::json doc = nlohmann::json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (doc.is_discarded()) return 0;
  for (const std::vector<nlohmann::json>& parts : {std::vector<nlohmann::json>{doc}, std::vector<nlohmann::json>{doc, doc}}) {
    try {
      (void)lgc::merge_shards(parts);
    } catch (const std::exception&) {
    }
  }
  return 0;
}
