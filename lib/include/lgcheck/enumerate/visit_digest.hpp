#pragma once
// The digest of what an exhaustive check visited (docs/kernel.md "Visit
// digests"): the number of items and the sum, mod 2^64, of a 64-bit hash of
// each. A sum does not depend on the order or the thread that visited an
// item, so shards add to one digest; the trusted kernel re-derives it from
// its own enumeration of the domain a certificate names.
#include "lgcheck/model/input.hpp"
#include "lgcheck/enumerate/statistic.hpp"

#include <nlohmann/json.hpp>

#include <atomic>
#include <cstdint>
#include <string>

namespace lgc {

/// The hash of one statistic: FNV-1a over the 64-bit little-endian words
/// (T, the window's tokens, the counts n_{s,r} in the order s·Δ + r),
/// finished by the splitmix64 mixer.
std::uint64_t statistic_hash(const Statistic& sigma);
/// The hash of one pair of statistics of model number `model` (L4.L): the
/// words (model, the words of x, the words of z), the same way.
std::uint64_t statistic_pair_hash(std::size_t model, const Statistic& x, const Statistic& z);
/// The hash of one string: the words (T, x_1, ..., x_T), the same way.
std::uint64_t string_hash(const Tokens& x);

class VisitDigest {
 public:
  VisitDigest() = default;
  VisitDigest(const VisitDigest& other) : items_(other.items()), sum_(other.sum()) {}
  VisitDigest& operator=(const VisitDigest& other) {
    items_ = other.items();
    sum_ = other.sum();
    return *this;
  }

  void add(const Statistic& sigma) { add_hash(statistic_hash(sigma)); }
  void add(const Tokens& x) { add_hash(string_hash(x)); }
  void add(std::size_t model, const Statistic& x, const Statistic& z) { add_hash(statistic_pair_hash(model, x, z)); }
  void add(const VisitDigest& other) {
    items_ += other.items();
    sum_ += other.sum();
  }
  std::uint64_t items() const { return items_.load(); }
  std::uint64_t sum() const { return sum_.load(); }
  /// {"items": N, "digest": the sum as 16 hexadecimal digits}.
  nlohmann::json to_json() const;

 private:
  void add_hash(std::uint64_t h) {
    items_.fetch_add(1, std::memory_order_relaxed);
    sum_.fetch_add(h, std::memory_order_relaxed);
  }
  std::atomic<std::uint64_t> items_{0}, sum_{0};
};

}  // namespace lgc
