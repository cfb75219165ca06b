#include "lgcheck/enumerate/statistic.hpp"

#include "lgcheck/enumerate/budget.hpp"
#include "lgcheck/enumerate/strings.hpp"

#include <limits>
#include <stdexcept>

namespace lgc {
namespace {

constexpr std::uint64_t kMax = std::numeric_limits<std::uint64_t>::max();

std::uint64_t saturating_mul(std::uint64_t a, std::uint64_t b) {
  if (a != 0 && b > kMax / a) return kMax;
  return a * b;
}

/// C(n + k − 1, k − 1): compositions of n into k parts, saturating.
std::uint64_t compositions(std::uint64_t n, std::size_t k) {
  if (k == 0) return n == 0 ? 1 : 0;
  // C(n + k − 1, k − 1) = Π_{i=1}^{k−1} (n + i) / i, exact at each step.
  Integer c = 1;
  for (std::size_t i = 1; i < k; ++i) c = c * (n + i) / i;
  return c > kMax ? kMax : static_cast<std::uint64_t>(c);
}

/// Advance `parts` (the last part holds the rest of the sum) to the next
/// composition: an odometer over the first k−1 parts, whose sum may not
/// exceed n. False after the last.
bool next_composition(std::vector<std::uint64_t>& parts) {
  std::size_t k = parts.size();
  if (k <= 1) return false;
  if (parts[k - 1] > 0) {
    ++parts[0];
    --parts[k - 1];
    return true;
  }
  for (std::size_t i = 0; i + 1 < k; ++i) {
    if (parts[i] == 0) continue;
    if (i + 2 == k) return false;
    parts[k - 1] += parts[i] - 1;
    parts[i] = 0;
    ++parts[i + 1];
    return true;
  }
  return false;
}

}  // namespace

Shape shape_of(const Model& model) { return {model.alphabet_size(), model.period, model.locality}; }

std::uint64_t bulk_length(std::uint64_t length, std::size_t locality) {
  return length > locality + 1 ? length - locality - 1 : 0;
}

std::uint64_t residue_count(std::uint64_t bulk, std::size_t period, std::size_t residue) {
  std::uint64_t base = bulk / period;
  return base + ((residue >= 1 && residue <= bulk % period) ? 1 : 0);
}

Statistic statistic_of(const Shape& shape, const Tokens& x) {
  Statistic s;
  s.length = x.size();
  s.counts.assign(shape.classes(), 0);
  std::uint64_t bulk = bulk_length(s.length, shape.locality);
  for (std::uint64_t j = 1; j <= bulk; ++j)
    ++s.counts[static_cast<std::size_t>(x[j - 1]) * shape.period + j % shape.period];
  s.window.assign(x.begin() + static_cast<long>(bulk), x.end());
  return s;
}

Tokens string_of(const Shape& shape, const Statistic& sigma) {
  validate_statistic(shape, sigma);
  std::uint64_t bulk = bulk_length(sigma.length, shape.locality);
  Tokens x(bulk);
  std::vector<std::uint64_t> left = sigma.counts;
  for (std::uint64_t j = 1; j <= bulk; ++j) {
    std::size_t r = j % shape.period, s = 0;
    while (left[s * shape.period + r] == 0) ++s;
    --left[s * shape.period + r];
    x[j - 1] = static_cast<int>(s);
  }
  x.insert(x.end(), sigma.window.begin(), sigma.window.end());
  return x;
}

void validate_statistic(const Shape& shape, const Statistic& sigma) {
  if (sigma.length == 0) throw std::invalid_argument("statistic: length 0");
  std::uint64_t window = std::min<std::uint64_t>(sigma.length, shape.locality + 1);
  if (sigma.window.size() != window) throw std::invalid_argument("statistic: window of the wrong length");
  if (sigma.counts.size() != shape.classes()) throw std::invalid_argument("statistic: counts of the wrong size");
  std::uint64_t bulk = bulk_length(sigma.length, shape.locality);
  for (std::size_t r = 0; r < shape.period; ++r) {
    std::uint64_t total = 0;
    for (std::size_t s = 0; s < shape.alphabet_size; ++s) total += sigma.count(s, r, shape.period);
    if (total != residue_count(bulk, shape.period, r))
      throw std::invalid_argument("statistic: residue " + std::to_string(r) + " holds " + std::to_string(total) +
                                  " bulk positions, expected " + std::to_string(residue_count(bulk, shape.period, r)));
  }
  for (int t : sigma.window)
    if (t < 0 || static_cast<std::size_t>(t) >= shape.alphabet_size) throw std::invalid_argument("statistic: bad token");
}

std::uint64_t statistic_count(const Shape& shape, std::uint64_t length) {
  std::uint64_t bulk = bulk_length(length, shape.locality);
  std::uint64_t count = string_count(shape.alphabet_size, std::min<std::uint64_t>(length, shape.locality + 1));
  for (std::size_t r = 0; r < shape.period; ++r)
    count = saturating_mul(count, compositions(residue_count(bulk, shape.period, r), shape.alphabet_size));
  return count;
}

std::uint64_t for_each_statistic(const Shape& shape, std::uint64_t length,
                                 const std::function<bool(const Statistic&)>& visit, const Shard& shard) {
  const std::size_t S = shape.alphabet_size, D = shape.period;
  std::uint64_t bulk = bulk_length(length, shape.locality);
  std::size_t window = static_cast<std::size_t>(std::min<std::uint64_t>(length, shape.locality + 1));
  // One composition per residue: parts[r][s].
  std::vector<std::vector<std::uint64_t>> parts(D, std::vector<std::uint64_t>(S, 0));
  auto reset = [&](std::size_t r) {
    std::fill(parts[r].begin(), parts[r].end(), 0);
    parts[r][S - 1] = residue_count(bulk, D, r);
  };
  for (std::size_t r = 0; r < D; ++r) reset(r);
  Statistic sigma;
  sigma.length = length;
  sigma.counts.assign(S * D, 0);
  std::uint64_t visited = 0, ordinal = 0;
  bool go_on = true;
  while (go_on) {
    for (std::size_t r = 0; r < D; ++r)
      for (std::size_t s = 0; s < S; ++s) sigma.counts[s * D + r] = parts[r][s];
    for_each_string(S, window, [&](const Tokens& w) {
      if (!shard.owns(ordinal++)) return true;  // (for_each_string has charged the budget for it)
      sigma.window = w;
      ++visited;
      go_on = visit(sigma);
      return go_on;
    });
    if (!go_on) break;
    // Odometer over residues.
    std::size_t r = 0;
    while (r < D && !next_composition(parts[r])) reset(r++);
    if (r == D) break;
  }
  return visited;
}

namespace {

struct PrefixWalk {
  const Shape& shape;
  std::uint64_t max_length;
  const std::function<bool(const Statistic&)>& visit;
  Statistic sigma;
  std::uint64_t visited = 0;

  void descend() {
    if (sigma.length == max_length) return;
    const bool full = sigma.window.size() == shape.locality + 1;
    for (std::size_t t = 0; t < shape.alphabet_size; ++t) {
      // Appending a token pushes the window's oldest token into the bulk, at
      // bulk position j = (new length) − (τ + 1).
      int leaving = 0;
      std::size_t leaving_class = 0;
      if (full) {
        leaving = sigma.window.front();
        const std::uint64_t j = sigma.length + 1 - (shape.locality + 1);
        leaving_class = static_cast<std::size_t>(leaving) * shape.period + j % shape.period;
        ++sigma.counts[leaving_class];
        sigma.window.erase(sigma.window.begin());
      }
      sigma.window.push_back(static_cast<int>(t));
      ++sigma.length;
      ++visited;
      charge_enumeration();
      if (visit(sigma)) descend();
      --sigma.length;
      sigma.window.pop_back();
      if (full) {
        --sigma.counts[leaving_class];
        sigma.window.insert(sigma.window.begin(), leaving);
      }
    }
  }
};

}  // namespace

std::uint64_t for_each_prefix_statistic(const Shape& shape, std::uint64_t max_length,
                                        const std::function<bool(const Statistic&)>& visit) {
  PrefixWalk walk{shape, max_length, visit, {}, 0};
  walk.sigma.counts.assign(shape.classes(), 0);
  walk.descend();
  return walk.visited;
}

Statistic random_statistic(const Shape& shape, std::uint64_t length, std::mt19937_64& rng) {
  const std::size_t S = shape.alphabet_size, D = shape.period;
  Statistic sigma;
  sigma.length = length;
  sigma.counts.assign(S * D, 0);
  std::uint64_t bulk = bulk_length(length, shape.locality);
  for (std::size_t r = 0; r < D; ++r) {
    std::uint64_t left = residue_count(bulk, D, r);
    std::vector<std::size_t> sharing;
    for (std::size_t s = 0; s < S; ++s) {
      switch (uniform_integer(0, 2, rng)) {
        case 0: break;  // absent
        case 1: {       // rare: 1..3 positions
          std::uint64_t c = std::min<std::uint64_t>(left, uniform_integer(1, 3, rng));
          sigma.counts[s * D + r] = c;
          left -= c;
          break;
        }
        default: sharing.push_back(s);
      }
    }
    if (sharing.empty()) sharing.push_back(static_cast<std::size_t>(uniform_integer(0, S - 1, rng)));
    // Random cut points split `left` among the sharing classes.
    std::vector<std::uint64_t> cuts{0, left};
    for (std::size_t k = 1; k < sharing.size(); ++k) cuts.push_back(uniform_integer(0, left, rng));
    std::sort(cuts.begin(), cuts.end());
    for (std::size_t k = 0; k < sharing.size(); ++k) sigma.counts[sharing[k] * D + r] += cuts[k + 1] - cuts[k];
  }
  sigma.window = random_string(S, static_cast<std::size_t>(std::min<std::uint64_t>(length, shape.locality + 1)), rng);
  return sigma;
}

nlohmann::json statistic_to_json(const Statistic& sigma) {
  return {{"length", sigma.length}, {"window", sigma.window}, {"counts", sigma.counts}};
}

Statistic statistic_from_json(const Shape& shape, const nlohmann::json& j) {
  if (!j.is_object() || !j.contains("length") || !j.contains("window") || !j.contains("counts"))
    throw std::invalid_argument("statistic: expected {length, window, counts}");
  Statistic s;
  try {
    s.length = j.at("length").get<std::uint64_t>();
    s.window = j.at("window").get<Tokens>();
    s.counts = j.at("counts").get<std::vector<std::uint64_t>>();
  } catch (const nlohmann::json::exception& e) {
    throw std::invalid_argument(std::string("statistic: ") + e.what());
  }
  validate_statistic(shape, s);
  return s;
}

std::string describe(const Shape& shape, const Statistic& sigma, const Model& model) {
  std::string counts;
  for (std::size_t s = 0; s < shape.alphabet_size; ++s)
    for (std::size_t r = 0; r < shape.period; ++r) {
      std::uint64_t c = sigma.count(s, r, shape.period);
      if (c) counts += (counts.empty() ? "" : " ") + model.alphabet[s] + "@" + std::to_string(r) + ":" + std::to_string(c);
    }
  return "T=" + std::to_string(sigma.length) + " window=\"" + format_input(model, sigma.window) + "\" bulk{" + counts +
         "}";
}

}  // namespace lgc
