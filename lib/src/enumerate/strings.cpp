#include "lgcheck/enumerate/strings.hpp"

#include "lgcheck/enumerate/budget.hpp"

#include <limits>

namespace lgc {

std::uint64_t string_count(std::size_t alphabet_size, std::size_t n) {
  std::uint64_t count = 1;
  for (std::size_t k = 0; k < n; ++k) {
    if (count > std::numeric_limits<std::uint64_t>::max() / alphabet_size) return std::numeric_limits<std::uint64_t>::max();
    count *= alphabet_size;
  }
  return count;
}

std::uint64_t for_each_string(std::size_t alphabet_size, std::size_t n, const std::function<bool(const Tokens&)>& visit) {
  Tokens x(n, 0);
  std::uint64_t visited = 0;
  const int S = static_cast<int>(alphabet_size);
  while (true) {
    ++visited;
    charge_enumeration();
    if (!visit(x)) return visited;
    std::size_t k = n;
    while (k > 0 && x[k - 1] == S - 1) x[--k] = 0;
    if (k == 0) return visited;
    ++x[k - 1];
  }
}

std::uint64_t uniform_integer(std::uint64_t lo, std::uint64_t hi, std::mt19937_64& rng) {
  std::uint64_t span = hi - lo + 1;
  if (span == 0) return rng();  // the full 64-bit range
  std::uint64_t limit = std::numeric_limits<std::uint64_t>::max() - std::numeric_limits<std::uint64_t>::max() % span;
  std::uint64_t r;
  do r = rng();
  while (r >= limit);
  return lo + r % span;
}

std::uint64_t log_uniform_integer(std::uint64_t lo, std::uint64_t hi, std::mt19937_64& rng) {
  if (lo < 1) lo = 1;
  if (hi <= lo) return lo;
  // Binades [2^k, 2^{k+1}) meeting [lo, hi]; pick one uniformly, then a value.
  unsigned first = 63 - static_cast<unsigned>(__builtin_clzll(lo)), last = 63 - static_cast<unsigned>(__builtin_clzll(hi));
  unsigned k = static_cast<unsigned>(uniform_integer(first, last, rng));
  std::uint64_t a = std::max<std::uint64_t>(lo, std::uint64_t(1) << k);
  std::uint64_t b = k == 63 ? hi : std::min<std::uint64_t>(hi, (std::uint64_t(1) << (k + 1)) - 1);
  return uniform_integer(a, b, rng);
}

Tokens random_string(std::size_t alphabet_size, std::size_t n, std::mt19937_64& rng) {
  Tokens x(n);
  for (auto& t : x) t = static_cast<int>(uniform_integer(0, alphabet_size - 1, rng));
  return x;
}

}  // namespace lgc
