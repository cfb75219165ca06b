#pragma once
// Claim S.consistency: on a one-layer model, finite:p equals hardmax at every
// query position i >= 2^{p/γ} (THEORY.md §2, "Hardmax threshold").
#include "lgcheck/model/case_file.hpp"
#include "lgcheck/report/verdict.hpp"

#include <cstdint>
#include <functional>

namespace lgc {

struct ConsistencyParams {
  unsigned p = 3;                   ///< precision bits of finite:p
  std::size_t max_length = 10;      ///< exhaustive over all strings up to it
  std::uint64_t max_strings = 1u << 16;  ///< cap on S^max_length (shortened to fit)
  std::size_t random_inputs = 20;   ///< random strings at lengths >= threshold
  std::size_t random_span = 32;     ///< random lengths in [threshold, threshold + span)
  std::size_t max_reach = 4096;     ///< random strings only when threshold <= this
  std::uint64_t seed = 1;
  /// The rule claimed: the first query position from which finite:p =
  /// hardmax, given p and γ. The paper's rule is hardmax_threshold; the
  /// mutation tests substitute broken ones.
  std::function<Integer(unsigned, const Rational&)> threshold;
};

/// Parameters from the case: p from a finite:p semantics (else the check
/// block's precision_bits, else 3), max_length, random_inputs, seed.
ConsistencyParams consistency_params(const Case& c);

ClaimResult check_consistency(const Model& model, const ConsistencyParams& params);

inline constexpr const char* kConsistencyId = "S.consistency";

}  // namespace lgc
