#pragma once
// The input distribution of Theorem 4.2 (THEORY.md §2): π ~ Dir(α), then
// x_1..x_T iid π, so a string with symbol counts n_s has probability
//   P(x) = Π_s α_s^{(n_s)} / α₀^{(T)}   (rising factorials, α₀ = Σ_s α_s),
// an exact rational for rational α. A component α_s = 0 is allowed: the prior
// then lives on the symbols with α_s > 0 (the limit α_s → 0 of the formula),
// which is how the regularity counterexample restricts an alphabet.
#include "lgcheck/model/input.hpp"
#include "lgcheck/model/model.hpp"
#include "lgcheck/enumerate/statistic.hpp"

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace lgc {

struct DirichletPrior {
  QVector alpha;  ///< α_s >= 0 per symbol, at least one > 0
};

/// Throws std::invalid_argument unless α has one entry per symbol, every
/// entry >= 0 and at least one > 0.
void validate_prior(const DirichletPrior& prior, std::size_t alphabet_size);
/// The smallest positive α_s (the α_min of Theorem 4.2).
Rational alpha_min(const DirichletPrior& prior);
/// The largest α_s.
Rational alpha_max(const DirichletPrior& prior);
/// α with the components outside `keep` set to 0 (the prior conditioned on
/// the alphabet `keep`, still a Dirichlet-multinomial).
DirichletPrior restrict_prior(const DirichletPrior& prior, const std::vector<bool>& keep);
/// "1,1/2" for messages.
std::string describe(const DirichletPrior& prior);

/// a^{(n)} = a (a+1) ... (a+n−1); 1 when n = 0.
Rational rising_factorial(const Rational& a, std::uint64_t n);
/// P(x) under the prior (exact).
Rational string_probability(const DirichletPrior& prior, const Tokens& x);
/// The number of strings with statistic σ: Π_r m_r! / Π_s n_{s,r}!.
Integer statistic_multiplicity(const Shape& shape, const Statistic& sigma);
/// P(σ(x) = σ) = multiplicity × the probability of any one such string.
Rational statistic_probability(const DirichletPrior& prior, const Shape& shape, const Statistic& sigma);

/// Exact Dirichlet moments E[Π_G π_G^{e_G}] over groups G of symbols
/// (π_G = Σ_{s∈G} π_s), returned as the integer numerator over the common
/// denominator R₀(n) = d^n·α₀^{(n)}, n = Σ e_G, d the common denominator of α.
/// A laminar family (any two groups disjoint or nested) has a closed form:
/// aggregation merges disjoint groups and neutrality (the shares of a
/// group's parts are Dirichlet and independent of the group's mass) handles
/// nesting; crossing groups are first split one symbol at a time by the
/// binomial theorem. The rising-factorial tables are cached, so repeated calls at
/// growing n cost a few big multiplications each.
class DirichletMoments {
 public:
  using Group = std::pair<std::uint32_t, std::uint64_t>;  ///< (symbol bit mask, exponent)

  explicit DirichletMoments(const DirichletPrior& prior);

  const DirichletPrior& prior() const { return prior_; }
  /// Numerator of E[Π_G π_G^{e_G}] over denominator(Σ e_G).
  Integer moment(std::vector<Group> groups);
  /// R₀(n) = d^n·α₀^{(n)}.
  const Integer& denominator(std::uint64_t n) { return rising(total_, n); }

 private:
  /// R_a(n) = Π_{j<n} (a + j·d), a = d·α_G.
  const Integer& rising(const Integer& a, std::uint64_t n);
  Integer split_moment(std::vector<Group> groups);
  Integer laminar_moment(const std::vector<Group>& groups);
  Integer group_numerator(std::uint32_t mask) const;

  DirichletPrior prior_;
  Integer d_, total_;
  std::vector<Integer> numerators_;  ///< d·α_s
  std::uint32_t support_ = 0;        ///< symbols with α_s > 0
  std::map<Integer, std::vector<Integer>> tables_;
};

}  // namespace lgc
