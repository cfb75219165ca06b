#include "lgcheck/simulate/subsample.hpp"

#include "lgcheck/enumerate/strings.hpp"

#include <random>
#include <stdexcept>

namespace lgc {

std::uint64_t block_length(std::uint64_t n) {
  std::uint64_t l = 1;
  while (l * l * l < n) ++l;
  return l;
}

std::vector<std::uint64_t> markov_subsample(std::uint64_t T, std::uint64_t n, std::size_t locality, std::uint64_t seed) {
  if (n == 0 || n > T) throw std::invalid_argument("markov_subsample: need 1 <= n <= T");
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
