#include "lgcheck/enumerate/ordered_search.hpp"

#include "lgcheck/enumerate/strings.hpp"

namespace lgc {

std::optional<std::uint64_t> first_statistic_where(
    const Shape& shape, std::uint64_t length, unsigned threads,
    const std::function<bool(const Statistic&, std::uint64_t ordinal)>& stop) {
  const Walk<Statistic> walk = [&](const std::function<bool(const Statistic&)>& visit) {
    for_each_statistic(shape, length, visit);
  };
  return first_where(threads, statistic_count(shape, length), walk, stop);
}

std::optional<std::uint64_t> first_string_where(std::size_t alphabet_size, std::size_t n, unsigned threads,
                                                const std::function<bool(const Tokens&, std::uint64_t ordinal)>& stop) {
  const Walk<Tokens> walk = [&](const std::function<bool(const Tokens&)>& visit) {
    for_each_string(alphabet_size, n, visit);
  };
  return first_where(threads, string_count(alphabet_size, n), walk, stop);
}

}  // namespace lgc
