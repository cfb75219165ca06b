#pragma once
// The detail text of a certificate as the record implies it: each claim's sentence for its verdict restated, its
// numbers taken from the record's fields (docs/kernel.md "Details").
#include "lgcheck/model/case_file.hpp"

#include <nlohmann/json.hpp>

#include <cstddef>
#include <optional>
#include <string>

namespace lgc::kernel {

struct DetailCheck {
  bool matches = false;
  std::string expected;        ///< the first sentence the record allows, free slots shown as #, (#) and …
  std::size_t free_slots = 0;  ///< numbers, statistics, inputs or texts in the matching sentence not tied to a field
};

/// The detail of a certificate against the sentences its claim writes for its verdict (a holding one, REFUTED or
/// UNDECIDED; an UNDECIDED run stopped before any evidence reads "stopped: …"), filled from its evidence, scope and
/// case (`c`: the certificate's case, parsed); nullopt for a claim the kernel does not know.
std::optional<DetailCheck> check_detail(const nlohmann::json& certificate, const Case& c);

}  // namespace lgc::kernel
