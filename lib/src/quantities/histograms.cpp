#include "lgcheck/quantities/histograms.hpp"

#include <stdexcept>

namespace lgc {

std::vector<Rational> token_histogram(const Tokens& x, std::uint64_t i, std::size_t S) {
  if (i == 0 || i > x.size()) throw std::invalid_argument("token_histogram: the prefix length must be in 1..|x|");
  std::vector<std::uint64_t> counts(S, 0);
  for (std::uint64_t j = 0; j < i; ++j) counts.at(static_cast<std::size_t>(x[j])) += 1;
  std::vector<Rational> mu;
  for (std::uint64_t n : counts) mu.emplace_back(Integer(n), Integer(i));
  return mu;
}

std::vector<Rational> token_marginal(const std::vector<Rational>& class_histogram, std::size_t S, std::size_t period) {
  if (class_histogram.size() != S * period) throw std::invalid_argument("token_marginal: not S·Δ classes");
  std::vector<Rational> m(S, Rational(0));
  for (std::size_t c = 0; c < class_histogram.size(); ++c) m[c / period] += class_histogram[c];
  return m;
}

Rational histogram_gap_bound(std::size_t tau, std::uint64_t i) {
  if (i <= tau + 1) throw std::invalid_argument("histogram_gap_bound: the position must have a bulk (i > tau + 1)");
  return Rational(Integer(2 * (tau + 1)), Integer(i));
}

}  // namespace lgc
