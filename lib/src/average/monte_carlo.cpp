#include "lgcheck/average/monte_carlo.hpp"

#include "lgcheck/enumerate/strings.hpp"
#include "lgcheck/numeric/interval.hpp"

#include <stdexcept>

namespace lgc {

Tokens sample_dirichlet_string(const DirichletPrior& prior, std::uint64_t length, std::mt19937_64& rng) {
  validate_prior(prior, prior.alpha.size());
  Integer d = 1;
  for (const auto& a : prior.alpha) d = boost::multiprecision::lcm(d, Integer(boost::multiprecision::denominator(a)));
  std::vector<std::uint64_t> weight;  // d·(α_s + n_s)
  for (const auto& a : prior.alpha) weight.push_back(Rational(a * d).convert_to<std::uint64_t>());
  const std::uint64_t step = d.convert_to<std::uint64_t>();
  std::uint64_t total = 0;
  for (auto w : weight) total += w;
  if (d > Integer(1) << 20 || Integer(total) + Integer(step) * length > Integer(1) << 62)
    throw std::invalid_argument("sample_dirichlet_string: alpha's denominators or the length are too large for the urn");
  Tokens x(length);
  for (auto& token : x) {
    std::uint64_t u = uniform_integer(0, total - 1, rng);
    std::size_t s = 0;
    while (u >= weight[s]) u -= weight[s++];
    token = static_cast<int>(s);
    weight[s] += step;
    total += step;
  }
  return x;
}

MonteCarloEstimate monte_carlo_distance(const OneLayerEvaluator& f, const OneLayerEvaluator& g,
                                        const DirichletPrior& prior, std::uint64_t length, std::uint64_t samples,
                                        std::uint64_t seed, const Rational& delta, const Rational& range, unsigned bits) {
  if (samples == 0) throw std::invalid_argument("monte_carlo_distance: at least one sample is needed");
  if (delta <= 0 || delta >= 1) throw std::invalid_argument("monte_carlo_distance: delta must be in (0, 1)");
  if (range < 0) throw std::invalid_argument("monte_carlo_distance: the range bound must be >= 0");
  std::mt19937_64 rng(seed);
  MonteCarloEstimate e;
  e.samples = samples;
  e.delta = delta;
  e.range = range;
  Rational lo = 0, hi = 0;
  for (std::uint64_t k = 0; k < samples; ++k) {
    Statistic sigma = statistic_of(f.shape(), sample_dirichlet_string(prior, length, rng));
    Number h = output_distance(f, sigma, g, sigma, 0, bits);
    if (upper_of(h) > range)
      throw std::logic_error("monte_carlo_distance: a sample exceeds the certified bound " + to_string(range));
    lo += lower_of(h);
    hi += upper_of(h);
  }
  e.mean_lower = lo / samples;
  e.mean_upper = hi / samples;
  Interval w = Interval(range, bits) * sqrt(log(Interval(2 / delta, bits)) / Interval(Rational(2 * samples), bits));
  e.half_width = w.upper();
  return e;
}

}  // namespace lgc
