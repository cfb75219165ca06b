#pragma once
// The first item of an enumeration (statistics, strings), in its order, at
// which a check stops (a counterexample, a witness), searched by several
// threads with the same answer as one thread. Shard k of n handles the
// ordinals ≡ k (mod n) in increasing order and gives up once its ordinal
// passes the smallest stop found so far by any shard, so every item before
// the first stop is visited exactly once, the first stop is visited, and
// items after it may or may not be (callers aggregate over the ordinals up to
// the first stop: OrdinalLog).
#include "lgcheck/enumerate/parallel.hpp"
#include "lgcheck/enumerate/statistic.hpp"

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <functional>
#include <map>
#include <mutex>
#include <optional>
#include <utility>
#include <vector>

namespace lgc {

/// An enumeration in a fixed order: walk(visit) calls visit(item) on every
/// item in order until visit returns false.
template <class Item>
using Walk = std::function<void(const std::function<bool(const Item&)>&)>;

/// The smallest ordinal (position in walk's order, from 0) at which
/// stop(item, ordinal) returns true, nullopt when it never does; stop is
/// called concurrently from up to `threads` threads (0 = enumeration_threads();
/// fewer when `count`, the number of items, is small). Each shard walks the
/// whole enumeration and handles its own ordinals. Exceptions propagate.
template <class Item>
std::optional<std::uint64_t> first_where(unsigned threads, std::uint64_t count, const Walk<Item>& walk,
                                         const std::function<bool(const Item&, std::uint64_t)>& stop) {
  if (threads == 0) threads = enumeration_threads();
  // Fewer threads than 64 items each would only add start-up cost.
  const unsigned used = static_cast<unsigned>(std::min<std::uint64_t>(threads, std::max<std::uint64_t>(count / 64, 1)));
  std::atomic<std::uint64_t> first{UINT64_MAX};
  run_shards(used, [&](const Shard& shard) {
    std::uint64_t ordinal = 0;
    walk([&](const Item& item) {
      const std::uint64_t mine = ordinal++;
      if (!shard.owns(mine)) return true;
      if (mine > first.load()) return false;
      if (!stop(item, mine)) return true;
      std::uint64_t seen = first.load();
      while (mine < seen && !first.compare_exchange_weak(seen, mine)) {
      }
      return false;
    });
  });
  if (first.load() == UINT64_MAX) return std::nullopt;
  return first.load();
}

/// first_where over the statistics of one length (for_each_statistic's order).
std::optional<std::uint64_t> first_statistic_where(
    const Shape& shape, std::uint64_t length, unsigned threads,
    const std::function<bool(const Statistic&, std::uint64_t ordinal)>& stop);

/// first_where over the S^n strings of length n (lexicographic order).
std::optional<std::uint64_t> first_string_where(std::size_t alphabet_size, std::size_t n, unsigned threads,
                                                const std::function<bool(const Tokens&, std::uint64_t ordinal)>& stop);

/// What the shards of a search noted, by ordinal (thread-safe to add to);
/// read after the search, up to its first stop, for a thread-independent result.
template <class T>
class OrdinalLog {
 public:
  void add(std::uint64_t ordinal, T item) {
    std::lock_guard<std::mutex> lock(mutex_);
    items_.emplace(ordinal, std::move(item));
  }
  /// The entries with ordinal <= last, in increasing order.
  std::vector<std::pair<std::uint64_t, T>> up_to(std::uint64_t last) const {
    std::lock_guard<std::mutex> lock(mutex_);
    return {items_.begin(), items_.upper_bound(last)};
  }
  /// The entry at `ordinal` (std::out_of_range when there is none).
  T at(std::uint64_t ordinal) const {
    std::lock_guard<std::mutex> lock(mutex_);
    return items_.at(ordinal);
  }

 private:
  mutable std::mutex mutex_;
  std::map<std::uint64_t, T> items_;
};

}  // namespace lgc
