#pragma once
// Comparing two distance curves in the tests: how many lengths a broken curve misses.
#include "lgcheck/quantities/distance.hpp"

#include <catch2/catch.hpp>

#include <cstddef>

namespace lgc::test {

/// The number of lengths at which `broken` lies certainly below `right` (it never lies above: required).
inline std::size_t lengths_missed(const DistanceCurve& broken, const DistanceCurve& right) {
  REQUIRE(broken.D.size() == right.D.size());
  std::size_t missed = 0;
  for (std::size_t k = 0; k < right.D.size(); ++k) {
    REQUIRE(upper_of(broken.D[k]) <= upper_of(right.D[k]));
    if (upper_of(broken.D[k]) < lower_of(right.D[k])) ++missed;
  }
  return missed;
}

}  // namespace lgc::test
