#include "lgcheck/average/dirichlet.hpp"

#include <algorithm>
#include <optional>
#include <bit>
#include <stdexcept>

namespace lgc {
namespace {

Integer binomial(std::uint64_t n, std::uint64_t k) {
  Integer r;
  mpz_bin_uiui(r.backend().data(), n, k);
  return r;
}

/// Merge groups with equal masks and drop those with exponent 0.
std::vector<DirichletMoments::Group> merged(std::vector<DirichletMoments::Group> groups) {
  std::sort(groups.begin(), groups.end());
  std::vector<DirichletMoments::Group> out;
  for (const auto& [mask, e] : groups) {
    if (e == 0) continue;
    if (!out.empty() && out.back().first == mask)
      out.back().second += e;
    else
      out.emplace_back(mask, e);
  }
  return out;
}

bool contains(std::uint32_t a, std::uint32_t b) { return (a & b) == b; }

/// Indices (i, j) of two groups that overlap without one containing the
/// other (the family is laminar when there are none).
std::optional<std::pair<std::size_t, std::size_t>> crossing(const std::vector<DirichletMoments::Group>& g) {
  for (std::size_t i = 0; i < g.size(); ++i)
    for (std::size_t j = i + 1; j < g.size(); ++j) {
      std::uint32_t a = g[i].first, b = g[j].first;
      if ((a & b) != 0 && !contains(a, b) && !contains(b, a)) return std::pair{i, j};
    }
  return std::nullopt;
}

}  // namespace

void validate_prior(const DirichletPrior& prior, std::size_t alphabet_size) {
  if (prior.alpha.size() != alphabet_size)
    throw std::invalid_argument("Dirichlet alpha: expected " + std::to_string(alphabet_size) + " entries (alphabet size), got " +
                                std::to_string(prior.alpha.size()));
  if (alphabet_size > 32) throw std::invalid_argument("Dirichlet alpha: at most 32 symbols are supported");
  bool positive = false;
  for (const auto& a : prior.alpha) {
    if (a < 0) throw std::invalid_argument("Dirichlet alpha: entries must be >= 0, got " + to_string(a));
    positive = positive || a > 0;
  }
  if (!positive) throw std::invalid_argument("Dirichlet alpha: at least one entry must be > 0");
}

Rational alpha_min(const DirichletPrior& prior) {
  std::optional<Rational> m;
  for (const auto& a : prior.alpha)
    if (a > 0 && (!m || a < *m)) m = a;
  if (!m) throw std::invalid_argument("alpha_min: no positive entry");
  return *m;
}

Rational alpha_max(const DirichletPrior& prior) { return *std::max_element(prior.alpha.begin(), prior.alpha.end()); }

DirichletPrior restrict_prior(const DirichletPrior& prior, const std::vector<bool>& keep) {
  DirichletPrior out = prior;
  for (std::size_t s = 0; s < out.alpha.size(); ++s)
    if (s >= keep.size() || !keep[s]) out.alpha[s] = 0;
  return out;
}

std::string describe(const DirichletPrior& prior) {
  std::string out;
  for (std::size_t s = 0; s < prior.alpha.size(); ++s) {
    if (s) out += ',';
    out += to_string(prior.alpha[s]);
  }
  return out;
}

Rational rising_factorial(const Rational& a, std::uint64_t n) {
  Rational r = 1;
  for (std::uint64_t j = 0; j < n; ++j) r *= a + j;
  return r;
}

Rational string_probability(const DirichletPrior& prior, const Tokens& x) {
  std::vector<std::uint64_t> n(prior.alpha.size(), 0);
  for (int s : x) ++n.at(static_cast<std::size_t>(s));
  Rational total = 0, p = 1;
  for (std::size_t s = 0; s < n.size(); ++s) {
    p *= rising_factorial(prior.alpha[s], n[s]);
    total += prior.alpha[s];
  }
  return p / rising_factorial(total, x.size());
}

Integer statistic_multiplicity(const Shape& shape, const Statistic& sigma) {
  Integer m = 1;
  for (std::size_t r = 0; r < shape.period; ++r) {
    std::uint64_t left = 0;
    for (std::size_t s = 0; s < shape.alphabet_size; ++s) left += sigma.count(s, r, shape.period);
    for (std::size_t s = 0; s < shape.alphabet_size; ++s) {
      std::uint64_t k = sigma.count(s, r, shape.period);
      m *= binomial(left, k);
      left -= k;
    }
  }
  return m;
}

Rational statistic_probability(const DirichletPrior& prior, const Shape& shape, const Statistic& sigma) {
  return Rational(statistic_multiplicity(shape, sigma)) * string_probability(prior, string_of(shape, sigma));
}

DirichletMoments::DirichletMoments(const DirichletPrior& prior) : prior_(prior), d_(1) {
  validate_prior(prior, prior.alpha.size());
  for (const auto& a : prior.alpha) d_ = boost::multiprecision::lcm(d_, Integer(boost::multiprecision::denominator(a)));
  for (std::size_t s = 0; s < prior.alpha.size(); ++s) {
    Rational scaled = prior.alpha[s] * d_;
    numerators_.push_back(boost::multiprecision::numerator(scaled));
    total_ += numerators_.back();
    if (numerators_.back() > 0) support_ |= std::uint32_t{1} << s;
  }
}

Integer DirichletMoments::group_numerator(std::uint32_t mask) const {
  Integer a = 0;
  for (std::size_t s = 0; s < numerators_.size(); ++s)
    if (mask & (std::uint32_t{1} << s)) a += numerators_[s];
  return a;
}

const Integer& DirichletMoments::rising(const Integer& a, std::uint64_t n) {
  auto& table = tables_[a];
  if (table.empty()) table.emplace_back(1);
  while (table.size() <= n) {
    Integer next = table.back() * (a + Integer(table.size() - 1) * d_);
    table.push_back(std::move(next));
  }
  return table[n];
}

Integer DirichletMoments::laminar_moment(const std::vector<Group>& groups) {
  // parent[k]: the smallest group strictly containing group k.
  const std::size_t n = groups.size();
  std::vector<std::size_t> parent(n, n);
  for (std::size_t k = 0; k < n; ++k)
    for (std::size_t j = 0; j < n; ++j)
      if (j != k && contains(groups[j].first, groups[k].first) &&
          (parent[k] == n || std::popcount(groups[j].first) < std::popcount(groups[parent[k]].first)))
        parent[k] = j;
  // total[k] = own exponent + the totals of the children, children first.
  std::vector<std::size_t> order(n);
  for (std::size_t k = 0; k < n; ++k) order[k] = k;
  std::sort(order.begin(), order.end(),
            [&](std::size_t a, std::size_t b) { return std::popcount(groups[a].first) < std::popcount(groups[b].first); });
  std::vector<std::uint64_t> total(n), inner(n, 0);
  for (std::size_t k : order) {
    total[k] = groups[k].second + inner[k];
    if (parent[k] != n) inner[parent[k]] += total[k];
  }
  // Neutrality: given π_G, the children's shares of G are Dirichlet and
  // independent of π_G, so each node contributes Π_C α_C^{(n_C)} / α_G^{(Σ n_C)}.
  Integer num = 1, den = 1;
  for (std::size_t k = 0; k < n; ++k) {
    num *= rising(group_numerator(groups[k].first), total[k]);
    if (inner[k] > 0) den *= rising(group_numerator(groups[k].first), inner[k]);
  }
  mpz_divexact(num.backend().data(), num.backend().data(), den.backend().data());
  return num;
}

Integer DirichletMoments::split_moment(std::vector<Group> groups) {
  groups = merged(std::move(groups));
  auto pair = crossing(groups);
  if (!pair) return laminar_moment(groups);
  // π_G^e = Σ_j C(e, j) π_s^j π_{G∖s}^{e−j} for a symbol s shared with a crossing group.
  auto [i, j] = *pair;
  std::uint32_t shared = groups[i].first & groups[j].first;
  std::uint32_t s = shared & (~shared + 1);
  std::uint32_t rest = groups[i].first & ~s;
  std::uint64_t e = groups[i].second;
  Integer sum = 0;
  for (std::uint64_t k = 0; k <= e; ++k) {
    std::vector<Group> next = groups;
    next[i] = {s, k};
    next.emplace_back(rest, e - k);
    sum += binomial(e, k) * split_moment(std::move(next));
  }
  return sum;
}

Integer DirichletMoments::moment(std::vector<Group> groups) {
  std::uint64_t n = 0, kept = 0;
  std::vector<Group> rest;
  for (auto [mask, e] : groups) {
    n += e;
    if (e == 0) continue;
    mask &= support_;
    if (mask == 0) return 0;            // a symbol the prior never draws
    if (mask == support_) continue;     // π of the whole support is 1
    rest.emplace_back(mask, e);
    kept += e;
  }
  Integer r = split_moment(std::move(rest));
  if (kept == n || r == 0) return r;
  Integer scale = denominator(n);
  Integer below = denominator(kept);
  mpz_divexact(scale.backend().data(), scale.backend().data(), below.backend().data());
  return r * scale;
}

}  // namespace lgc
