#pragma once
// Deterministic splitting of an enumeration (shards) and running the shards
// on threads. Shard i of n visits the items whose ordinal in the enumeration
// order is ≡ i (mod n), so the split depends only on (i, n) and the merged
// result of all shards is the same for any thread count.
#include <cstdint>
#include <exception>
#include <functional>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

namespace lgc {

struct Shard {
  std::uint64_t index = 0, count = 1;
  bool owns(std::uint64_t ordinal) const { return count <= 1 || ordinal % count == index; }
};

/// "i/n" with 0 <= i < n; throws std::invalid_argument naming the problem.
Shard parse_shard(std::string_view text);

/// The threads an enumeration uses when not told otherwise: set by the
/// command line's --threads (default: all cores).
unsigned enumeration_threads();
void set_enumeration_threads(unsigned threads);  ///< 0 = all cores

/// Runs work(shard) for the shards k/threads, k = 0..threads−1, each on its
/// own thread (inline when threads <= 1); rethrows the first exception.
void run_shards(unsigned threads, const std::function<void(const Shard&)>& work);

}  // namespace lgc
