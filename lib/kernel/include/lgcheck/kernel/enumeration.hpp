#pragma once
// Exhaustive domains named in a certificate's scope, re-derived by the kernel: their size
// by its own count, and strings of them from its own generator (docs/kernel.md "Enumerations").
#include "lgcheck/kernel/forward.hpp"
#include "lgcheck/kernel/witness.hpp"

#include <cstdint>
#include <functional>
#include <optional>
#include <string>

namespace lgc::kernel {

/// The kernel's sampling seed and sample size per certificate (fixed, documented).
constexpr std::uint64_t kSampleSeed = 0x4c474b65726e656cull;  // "LGKernel"
constexpr std::size_t kSamples = 200;

/// "every statistic of length A..B" (or "<= B"), "every statistic of each length T in [A, B] with at
/// most C statistics", "query positions A..B of every string of length N", "positions i >= A of every
/// input of length N" (StringPositions: lo = hi = N, positions first..last).
/// The whole text must be one of these (T4.1.lg's may end in " (the distance curve D(n))"): other words after
/// the form make it no domain.
struct Domain {
  enum class Kind { Statistics, StringPositions } kind = Kind::Statistics;
  std::uint64_t lo = 1, hi = 0, first = 0, last = 0;
  std::optional<std::uint64_t> cap;  ///< a length with more statistics is not in the domain
};
std::optional<Domain> parse_domain(const std::string& text);
/// The number N of "N constructed hard inputs" in a D5.4.kgram domain text (0 when it names none).
unsigned long hard_input_count(const std::string& domain);

/// The number of statistics of strings of length T (theory.md §2 "Sufficient statistic").
Integer statistic_count(const Model& model, std::uint64_t T);
/// How many items the domain holds: statistics, or (string, query position) pairs.
Integer domain_count(const Domain& d, const Model& model);
/// kSamples strings of the domain's lengths drawn from kSampleSeed (none when it has no length).
std::vector<Tokens> sample_strings(const Domain& d, const Model& model);

/// What a search visited (docs/kernel.md "Visit digests"): the number of items and the sum mod 2^64 of each
/// item's hash, FNV-1a over its 64-bit little-endian words finished by the splitmix64 mixer.
struct Digest {
  std::uint64_t items = 0, sum = 0;
  void add(const std::vector<std::uint64_t>& words);
  std::string text() const;  ///< "N items, digest" and the sum as 16 hexadecimal digits
};
constexpr std::uint64_t kMaxDigestItems = 20000000;
/// The digest of every statistic of the domain's lengths (words: T, the window's tokens, the counts n_{s,r} at
/// s·Δ + r) or of every string of a StringPositions domain's length (words: T, the tokens); nullopt when the
/// domain holds more than kMaxDigestItems.
std::optional<Digest> domain_digest(const Domain& d, const Model& model);

/// Calls visit for every statistic of length T (every window, then every bulk: domain_digest's order).
void for_each_statistic(const Model& model, std::uint64_t T, const std::function<void(const Statistic&)>& visit);

/// L4.L's pairs (theory.md "The pairs L4.L compares"), per model: groups (window, T mod Δ) of the statistics of
/// length <= n, the pairs inside them, and those compared: every k-th of each group, k = ⌈total/kNormPairCap⌉.
constexpr std::uint64_t kNormPairCap = 20000;
struct PairCount { Integer compared, total, groups, stride; };
PairCount norm_pair_count(const Model& model, std::uint64_t n);
/// The digest of the pairs compared, for `models` models (words: the model's number, then each statistic's words),
/// a group's statistics ordered by (T, counts) and its pairs (i < j) counted in that order; nullopt beyond the limit.
std::optional<Digest> norm_pair_digest(const Model& model, std::size_t models, std::uint64_t n);
/// kSamples pairs (x, z) of lengths in [τ+1, n], T_x ≡ T_z (mod Δ), z ending in x's window, from kSampleSeed.
std::vector<std::pair<Tokens, Tokens>> sample_norm_pairs(const Model& model, std::uint64_t n);

}  // namespace lgc::kernel
