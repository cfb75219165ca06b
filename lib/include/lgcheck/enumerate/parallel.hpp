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
/// command line's --threads (default: all cores); within run_in_order's
/// work, the calling item's share of them (the count divided by the items
/// running side by side, at least 1).
unsigned enumeration_threads();
void set_enumeration_threads(unsigned threads);  ///< 0 = all cores

/// For its lifetime, enumeration_threads() on this thread is the whole count
/// again (work that runs alone although it was started by run_in_order).
class AllEnumerationThreads {
 public:
  AllEnumerationThreads();
  ~AllEnumerationThreads();
  AllEnumerationThreads(const AllEnumerationThreads&) = delete;
  AllEnumerationThreads& operator=(const AllEnumerationThreads&) = delete;

 private:
  unsigned saved_;
};

/// Runs work(shard) for the shards k/threads, k = 0..threads−1, each on its
/// own thread (inline when threads <= 1); rethrows the first exception.
void run_shards(unsigned threads, const std::function<void(const Shard&)>& work);

/// Runs work(i) for i = 0..count−1 on `threads` threads, each taking the next
/// i not yet taken, and calls in_order(i) for i = 0, 1, … in increasing order,
/// each as soon as work(0..i) have returned; `started(i, emitted)` (if given)
/// is called when a thread takes i, `emitted` items having been passed to
/// in_order (progress). The callbacks run one at a time, under one lock (they
/// may print or update shared state); `work` runs outside it, so it must only
/// touch what belongs to its i, and its enumerations get a share of the
/// threads (enumeration_threads()). As on one thread: when work(j) or a
/// callback at j throws, no index after j is taken, every index before the
/// least such j is still emitted, and that j's exception is rethrown once the
/// threads have stopped. With threads <= 1 everything runs inline, in order.
void run_in_order(std::size_t count, unsigned threads, const std::function<void(std::size_t)>& work,
                  const std::function<void(std::size_t)>& in_order,
                  const std::function<void(std::size_t, std::size_t)>& started = {});

}  // namespace lgc
