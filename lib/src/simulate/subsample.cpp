#include "lgcheck/simulate/subsample.hpp"

#include "lgcheck/enumerate/strings.hpp"

#include <algorithm>
#include <random>
#include <stdexcept>

namespace lgc {

std::uint64_t block_length(std::uint64_t n) {
  std::uint64_t l = 1;
  while (l * l * l < n) ++l;
  return l;
}

namespace {

/// The residue-preserving chain: markov_subsample over the chunks, expanded to positions.
std::vector<std::uint64_t> chunked_subsample(std::uint64_t T, std::uint64_t n, std::size_t locality, std::uint64_t seed,
                                             std::size_t period) {
  const std::uint64_t lead = T % period, chunks = T / period;
  std::vector<std::uint64_t> kept;
  for (std::uint64_t j = 1; j <= lead; ++j) kept.push_back(j);
  if (chunks == 0) return kept;
  const std::uint64_t target = std::min(chunks, std::max<std::uint64_t>(1, n > lead ? (n - lead) / period : 0));
  const std::size_t chunk_locality = (locality + period) / period - 1;  // ⌈(τ+1)/Δ⌉ − 1
  for (std::uint64_t c : markov_subsample(chunks, target, chunk_locality, seed))
    for (std::uint64_t j = lead + (c - 1) * period + 1; j <= lead + c * period; ++j) kept.push_back(j);
  return kept;
}

}  // namespace

std::vector<std::uint64_t> markov_subsample(std::uint64_t T, std::uint64_t n, std::size_t locality, std::uint64_t seed,
                                            std::size_t period) {
  if (n == 0 || n > T) throw std::invalid_argument("markov_subsample: need 1 <= n <= T");
  if (period == 0) throw std::invalid_argument("markov_subsample: period 0");
  if (period > 1) return chunked_subsample(T, n, locality, seed, period);
  std::vector<std::uint64_t> kept;
  if (n == T) {
    for (std::uint64_t j = 1; j <= T; ++j) kept.push_back(j);
    return kept;
  }
  std::mt19937_64 rng(seed);
  const std::uint64_t l = block_length(n);
  bool keep = uniform_integer(0, T - 1, rng) < n;  // stationary: P(keep) = n/T
  const std::uint64_t always = T > locality + 1 ? T - locality : 1;
  for (std::uint64_t j = 1; j <= T; ++j) {
    if (keep || j >= always) kept.push_back(j);
    if (keep)
      keep = uniform_integer(0, l - 1, rng) != 0;          // leave with probability 1/ℓ
    else
      keep = uniform_integer(0, (T - n) * l - 1, rng) < n;  // enter with probability n/((T−n)ℓ)
  }
  return kept;
}

Tokens restrict_to(const Tokens& x, const std::vector<std::uint64_t>& kept) {
  Tokens z;
  z.reserve(kept.size());
  for (auto j : kept) z.push_back(x.at(j - 1));
  return z;
}

}  // namespace lgc
