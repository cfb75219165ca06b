#include "lgcheck/enumerate/visit_digest.hpp"

#include <fmt/format.h>

namespace lgc {

namespace {

constexpr std::uint64_t kFnvOffset = 0xcbf29ce484222325ull, kFnvPrime = 0x100000001b3ull;

std::uint64_t fnv_word(std::uint64_t h, std::uint64_t word) {
  for (int byte = 0; byte < 8; ++byte) {
    h ^= (word >> (8 * byte)) & 0xffu;
    h *= kFnvPrime;
  }
  return h;
}

std::uint64_t splitmix_finish(std::uint64_t z) {
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
  return z ^ (z >> 31);
}

std::uint64_t statistic_words(std::uint64_t h, const Statistic& sigma) {
  h = fnv_word(h, sigma.length);
  for (int t : sigma.window) h = fnv_word(h, static_cast<std::uint64_t>(t));
  for (std::uint64_t c : sigma.counts) h = fnv_word(h, c);
  return h;
}

}  // namespace

std::uint64_t statistic_hash(const Statistic& sigma) { return splitmix_finish(statistic_words(kFnvOffset, sigma)); }

std::uint64_t statistic_pair_hash(std::size_t model, const Statistic& x, const Statistic& z) {
  return splitmix_finish(statistic_words(statistic_words(fnv_word(kFnvOffset, model), x), z));
}

std::uint64_t string_hash(const Tokens& x) {
  std::uint64_t h = fnv_word(kFnvOffset, x.size());
  for (int t : x) h = fnv_word(h, static_cast<std::uint64_t>(t));
  return splitmix_finish(h);
}

nlohmann::json VisitDigest::to_json() const {
  return {{"items", items()}, {"digest", fmt::format("{:016x}", sum())}};
}

}  // namespace lgc
