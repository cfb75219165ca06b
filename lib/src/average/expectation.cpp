#include "lgcheck/average/expectation.hpp"

#include "lgcheck/enumerate/budget.hpp"
#include "lgcheck/enumerate/strings.hpp"

#include <algorithm>
#include <optional>
#include <stdexcept>

namespace lgc {
namespace {

enum class Role { Zero, Enumerated, Free };

/// One head's possible top level: the classes above it (absent), the classes
/// at it, and whether one of them must be present (false for the level of
/// the window's maximal logit, which the window always occupies).
struct TopOption {
  std::vector<std::size_t> above, level;
  bool needs_presence = false;
};

/// Enumerated classes of one residue that every head attending to them sees
/// with the same value vector: only their total count matters, so they are
/// enumerated as one and their split is summed out by the Dirichlet moment.
struct ClassGroup {
  std::vector<std::size_t> classes;
  std::size_t residue = 0;
  std::uint32_t symbols = 0;
};

/// Σ W_i·h_i with integer weights W_i and exact h_i = a_i/b_i, kept as A/D
/// (D the lcm of the b_i) so no gcd of huge numbers is taken per term.
class ExactSum {
 public:
  void add(const Integer& weight, const Rational& h) {
    Integer b = boost::multiprecision::denominator(h);
    Integer g = gcd(d_, b);
    if (g != b) {
      Integer grow = b / g;
      a_ *= grow;
      d_ *= grow;
    }
    a_ += weight * boost::multiprecision::numerator(h) * (d_ / b);
  }
  Rational over(const Integer& denominator) const { return Rational(a_, d_ * denominator); }

 private:
  Integer a_ = 0, d_ = 1;
};

class PatternExpectation {
 public:
  PatternExpectation(const OneLayerEvaluator& f, const OneLayerEvaluator& g, DirichletMoments& moments,
                     std::uint64_t length, const ExpectationOptions& options)
      : models_{&f, &g}, moments_(moments), options_(options), shape_(f.shape()), length_(length) {
    if (length == 0) throw std::invalid_argument("expected_distance: length must be >= 1");
    const std::uint64_t bulk = bulk_length(length, shape_.locality);
    for (std::size_t r = 0; r < shape_.period; ++r) residue_size_.push_back(residue_count(bulk, shape_.period, r));
    possible_.resize(shape_.classes());
    for (std::size_t c = 0; c < shape_.classes(); ++c)
      possible_[c] = drawn(c / shape_.period) && residue_size_[c % shape_.period] > 0;
  }

  Expectation run() {
    const std::size_t window = static_cast<std::size_t>(std::min<std::uint64_t>(length_, shape_.locality + 1));
    for_each_string(shape_.alphabet_size, window, [&](const Tokens& w) {
      if (std::all_of(w.begin(), w.end(), [&](int s) { return drawn(static_cast<std::size_t>(s)); })) visit_window(w);
      return true;
    });
    Expectation e;
    // Without multiplicities (a mutation) the weights are renormalised, as a
    // computation that forgot them would do: its mass is 1, its value wrong.
    const Integer& denominator =
        options_.multiplicities || mass_ == 0 ? moments_.denominator(length_) : mass_;
    Rational exact = exact_.over(denominator);
    e.value = interval_terms_ ? Number(inexact_ / Interval(Rational(denominator), options_.bits) +
                                       Interval(exact, options_.bits))
                              : Number(exact);
    e.mass = Rational(mass_, denominator);
    e.terms = terms_;
    return e;
  }

 private:
  bool drawn(std::size_t symbol) const { return moments_.prior().alpha[symbol] > 0; }
  std::size_t residue(std::size_t c) const { return c % shape_.period; }
  std::size_t symbol(std::size_t c) const { return c / shape_.period; }

  std::vector<TopOption> top_options(const OneLayerEvaluator& m, std::size_t h, const Statistic& sigma) const {
    Rational window_max = m.window_logit(h, sigma, 0);
    for (std::size_t t = 1; t < sigma.window.size(); ++t) window_max = std::max(window_max, m.window_logit(h, sigma, t));
    const int y = sigma.window.back();
    const std::size_t r = static_cast<std::size_t>(length_ % shape_.period);
    std::vector<Rational> levels{window_max};
    std::vector<Rational> logit(shape_.classes());
    for (std::size_t c = 0; c < shape_.classes(); ++c) {
      if (!possible_[c]) continue;
      logit[c] = m.class_logit(h, y, r, c);
      if (logit[c] > window_max && std::find(levels.begin(), levels.end(), logit[c]) == levels.end())
        levels.push_back(logit[c]);
    }
    std::vector<TopOption> options;
    for (const Rational& v : levels) {
      TopOption o;
      o.needs_presence = v != window_max;
      for (std::size_t c = 0; c < shape_.classes(); ++c) {
        if (!possible_[c]) continue;
        if (logit[c] > v) o.above.push_back(c);
        if (logit[c] == v) o.level.push_back(c);
      }
      options.push_back(std::move(o));
    }
    return options;
  }

  void visit_window(const Tokens& w) {
    Statistic sigma{length_, w, std::vector<std::uint64_t>(shape_.classes(), 0)};
    std::vector<std::vector<TopOption>> per_head;
    heads_.clear();
    for (const OneLayerEvaluator* m : models_)
      for (std::size_t h = 0; h < m->heads(); ++h) {
        per_head.push_back(top_options(*m, h, sigma));
        heads_.emplace_back(m, h);
      }
    std::vector<std::size_t> choice(per_head.size(), 0);
    while (true) {
      visit_pattern(sigma, per_head, choice);
      std::size_t k = 0;
      while (k < choice.size() && ++choice[k] == per_head[k].size()) choice[k++] = 0;
      if (k == choice.size()) break;
    }
  }

  void visit_pattern(Statistic sigma, const std::vector<std::vector<TopOption>>& per_head,
                     const std::vector<std::size_t>& choice) {
    std::vector<Role> role(shape_.classes(), Role::Free);
    for (std::size_t c = 0; c < shape_.classes(); ++c)
      if (!possible_[c]) role[c] = Role::Zero;
    for (std::size_t k = 0; k < choice.size(); ++k)
      for (std::size_t c : per_head[k][choice[k]].above) role[c] = Role::Zero;
    for (std::size_t k = 0; k < choice.size(); ++k)
      for (std::size_t c : per_head[k][choice[k]].level)
        if (role[c] != Role::Zero) role[c] = Role::Enumerated;
    presence_.clear();
    for (std::size_t k = 0; k < choice.size(); ++k) {
      const TopOption& o = per_head[k][choice[k]];
      if (!o.needs_presence) continue;
      std::vector<std::size_t> present;
      for (std::size_t c : o.level)
        if (role[c] == Role::Enumerated) present.push_back(c);
      if (present.empty()) return;  // the level is emptied by another head's constraint
      presence_.push_back(std::move(present));
    }
    // A residue with positions but neither enumerated nor free classes
    // cannot be filled.
    filler_.assign(shape_.period, SIZE_MAX);
    std::vector<bool> has_enumerated(shape_.period, false);
    for (std::size_t c = 0; c < shape_.classes(); ++c) {
      if (role[c] == Role::Free && filler_[residue(c)] == SIZE_MAX) filler_[residue(c)] = c;
      if (role[c] == Role::Enumerated) has_enumerated[residue(c)] = true;
    }
    for (std::size_t r = 0; r < shape_.period; ++r)
      if (residue_size_[r] > 0 && filler_[r] == SIZE_MAX && !has_enumerated[r]) return;
    group_classes(role, per_head, choice);
    free_mask_.assign(shape_.period, 0);
    for (std::size_t c = 0; c < shape_.classes(); ++c)
      if (role[c] == Role::Free) free_mask_[residue(c)] |= std::uint32_t{1} << symbol(c);
    used_.assign(shape_.period, 0);
    enumerate(sigma, 0);
  }

  /// What class c looks like to the heads whose chosen level holds it.
  std::vector<std::optional<QVector>> signature(std::size_t c, const std::vector<std::vector<TopOption>>& per_head,
                                                const std::vector<std::size_t>& choice) const {
    std::vector<std::optional<QVector>> sig(per_head.size());
    for (std::size_t k = 0; k < per_head.size(); ++k) {
      const auto& level = per_head[k][choice[k]].level;
      if (std::find(level.begin(), level.end(), c) != level.end())
        sig[k] = heads_[k].first->class_value(heads_[k].second, c);
    }
    return sig;
  }

  void group_classes(const std::vector<Role>& role, const std::vector<std::vector<TopOption>>& per_head,
                     const std::vector<std::size_t>& choice) {
    groups_.clear();
    std::vector<std::vector<std::optional<QVector>>> signatures;
    for (std::size_t c = 0; c < shape_.classes(); ++c) {
      if (role[c] != Role::Enumerated) continue;
      auto sig = signature(c, per_head, choice);
      std::size_t g = 0;
      while (g < groups_.size() && !(groups_[g].residue == residue(c) && signatures[g] == sig)) ++g;
      if (g == groups_.size()) {
        groups_.push_back(ClassGroup{{}, residue(c), 0});
        signatures.push_back(std::move(sig));
      }
      groups_[g].classes.push_back(c);
      groups_[g].symbols |= std::uint32_t{1} << symbol(c);
    }
  }

  bool last_of_residue(std::size_t index) const {
    for (std::size_t j = index + 1; j < groups_.size(); ++j)
      if (groups_[j].residue == groups_[index].residue) return false;
    return true;
  }

  /// Every count of a group sits on its first class (the others are 0).
  std::uint64_t group_count(const Statistic& sigma, const ClassGroup& g) const { return sigma.counts[g.classes.front()]; }

  void enumerate(Statistic& sigma, std::size_t index) {
    if (index == groups_.size()) return leaf(sigma);
    const std::size_t c = groups_[index].classes.front(), r = groups_[index].residue;
    const std::uint64_t room = residue_size_[r] - used_[r];
    std::uint64_t lo = 0;
    if (filler_[r] == SIZE_MAX && last_of_residue(index)) lo = room;  // no filler: this class takes the rest
    for (std::uint64_t k = lo; k <= room; ++k) {
      sigma.counts[c] = k;
      used_[r] += k;
      enumerate(sigma, index + 1);
      used_[r] -= k;
    }
    sigma.counts[c] = 0;
  }

  void leaf(Statistic& sigma) {
    for (const auto& set : presence_)
      if (std::none_of(set.begin(), set.end(), [&](std::size_t c) { return present(sigma, c); })) return;
    std::vector<DirichletMoments::Group> groups;
    for (int s : sigma.window) groups.emplace_back(std::uint32_t{1} << s, 1);
    for (const ClassGroup& g : groups_) groups.emplace_back(g.symbols, group_count(sigma, g));
    Integer weight = 1;
    for (std::size_t r = 0; r < shape_.period; ++r) {
      const std::uint64_t rest = residue_size_[r] - used_[r];
      if (filler_[r] != SIZE_MAX) {
        sigma.counts[filler_[r]] = rest;
        groups.emplace_back(free_mask_[r], rest);
      }
      if (options_.multiplicities) weight *= multinomial(r, sigma, rest);
    }
    weight *= moments_.moment(std::move(groups));
    if (weight != 0) accumulate(sigma, weight);
    for (std::size_t r = 0; r < shape_.period; ++r)
      if (filler_[r] != SIZE_MAX) sigma.counts[filler_[r]] = 0;
  }

  /// Class c is present: its group's count is positive.
  bool present(const Statistic& sigma, std::size_t c) const {
    for (const ClassGroup& g : groups_)
      if (std::find(g.classes.begin(), g.classes.end(), c) != g.classes.end()) return group_count(sigma, g) > 0;
    return false;
  }

  /// m_r! / (Π_{groups G in r} k_G! · rest!).
  Integer multinomial(std::size_t r, const Statistic& sigma, std::uint64_t rest) const {
    Integer m = 1;
    std::uint64_t left = residue_size_[r];
    for (const ClassGroup& g : groups_) {
      if (g.residue != r) continue;
      Integer b;
      mpz_bin_uiui(b.backend().data(), left, group_count(sigma, g));
      m *= b;
      left -= group_count(sigma, g);
    }
    (void)rest;  // the rest fills what is left: C(rest, rest) = 1
    return m;
  }

  void accumulate(const Statistic& sigma, const Integer& weight) {
    ++terms_;
    mass_ += weight;
    Number h = output_distance(*models_[0], sigma, *models_[1], sigma, 0, options_.bits);
    if (h.is_exact()) {
      if (h.exact() != 0) exact_.add(weight, h.exact());
    } else {
      inexact_ += Interval(Rational(weight), options_.bits) * h.enclosure(options_.bits);
      interval_terms_ = true;
    }
    if (options_.progress && terms_ % 4096 == 0) options_.progress(terms_);
    charge_enumeration();  // one term of the sum: an enumerated item for --budget
  }

  const OneLayerEvaluator* models_[2];
  DirichletMoments& moments_;
  ExpectationOptions options_;
  Shape shape_;
  std::uint64_t length_;
  std::vector<std::uint64_t> residue_size_;
  std::vector<bool> possible_;
  // the pattern being enumerated
  std::vector<std::vector<std::size_t>> presence_;
  std::vector<std::pair<const OneLayerEvaluator*, std::size_t>> heads_;  ///< (model, head) per option list
  std::vector<ClassGroup> groups_;
  std::vector<std::size_t> filler_;
  std::vector<std::uint32_t> free_mask_;
  std::vector<std::uint64_t> used_;
  // the sums
  ExactSum exact_;
  Interval inexact_ = Interval::zero(kDefaultPrecisionBits);
  bool interval_terms_ = false;
  Integer mass_ = 0;
  std::uint64_t terms_ = 0;
};

void require_same_shape(const OneLayerEvaluator& f, const OneLayerEvaluator& g) {
  const Shape a = f.shape(), b = g.shape();
  if (a.alphabet_size != b.alphabet_size || a.period != b.period || a.locality != b.locality)
    throw std::invalid_argument("expected_distance: the two models differ in alphabet, period or locality");
}

}  // namespace

Expectation expected_distance(const OneLayerEvaluator& f, const OneLayerEvaluator& g, DirichletMoments& moments,
                              std::uint64_t length, const ExpectationOptions& options) {
  require_same_shape(f, g);
  validate_prior(moments.prior(), f.shape().alphabet_size);
  return PatternExpectation(f, g, moments, length, options).run();
}

Number expected_distance_by_statistics(const OneLayerEvaluator& f, const OneLayerEvaluator& g,
                                       const DirichletPrior& prior, std::uint64_t length, unsigned bits,
                                       const Semantics& semantics) {
  require_same_shape(f, g);
  auto at = [&](const OneLayerEvaluator& m, const Statistic& sigma) {
    return semantics.rounds() ? m.representation_rounded(sigma, semantics, bits) : representation_under(m, sigma, 0, bits);
  };
  Number sum(0);
  for_each_statistic(f.shape(), length, [&](const Statistic& sigma) {
    Rational p = statistic_probability(prior, f.shape(), sigma);
    if (p != 0) sum += Number(p) * readout_distance(f.model(), at(f, sigma), g.model(), at(g, sigma), bits);
    return true;
  });
  return sum;
}

Number expected_distance_by_strings(const Model& f, const Model& g, const DirichletPrior& prior, std::uint64_t length,
                                    unsigned bits) {
  ForwardOptions options{Semantics::hardmax(), bits};
  Number sum(0);
  for_each_string(f.alphabet_size(), static_cast<std::size_t>(length), [&](const Tokens& x) {
    Rational p = string_probability(prior, x);
    if (p != 0)
      sum += Number(p) * readout_distance(f, representation_at(f, x, options, {x.size()}).front(), g,
                                          representation_at(g, x, options, {x.size()}).front(), bits);
    return true;
  });
  return sum;
}

}  // namespace lgc
