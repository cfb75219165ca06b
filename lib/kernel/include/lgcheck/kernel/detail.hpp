#pragma once
// The detail text of a certificate as the record implies it: each claim's sentence for its verdict restated, its
// numbers taken from the record's fields (docs/kernel.md "Details").
#include "lgcheck/model/case_file.hpp"

#include <nlohmann/json.hpp>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>

namespace lgc::kernel {

struct DetailCheck {
  bool matches = false;
  std::string expected;        ///< the first sentence the record allows, free slots shown as #, (#) and …
  std::size_t free_slots = 0;  ///< numbers, statistics, inputs or texts in the matching sentence not tied to a field
};

/// Numbers of a sentence that the certificate check derives while re-establishing the record (none read from it); a
/// number not given is a free slot: L5.3.subsample's count of same-window drift-form premises below 2G.
struct DetailFacts {
  std::optional<std::uint64_t> informative_premises;
};

/// The detail of a certificate against the sentences its claim writes for its verdict (a holding one, REFUTED or
/// UNDECIDED; an UNDECIDED run stopped before any evidence reads "stopped: …"), filled from its evidence, scope and
/// case (`c`: the certificate's case, parsed) and from `facts`; nullopt for a claim the kernel does not know.
std::optional<DetailCheck> check_detail(const nlohmann::json& certificate, const Case& c,
                                        const DetailFacts& facts = {});

}  // namespace lgc::kernel
