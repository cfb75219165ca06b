// D(n) for a hardmax pair from the reduced statistics (theory.md "The
// reduced curve"): per (window, presence pattern), only the counts of the
// classes some head weighs with more than one value are enumerated, and only
// the reduced statistics that do not already occur at length n − Δ.
#include "lgcheck/quantities/distance.hpp"

#include "distance_fold.hpp"

#include "lgcheck/enumerate/budget.hpp"

#include <limits>
#include <map>
#include <stdexcept>

namespace lgc {
namespace {

constexpr std::uint64_t kMax = std::numeric_limits<std::uint64_t>::max();

/// One (window, presence pattern) at the lengths of one residue class mod Δ:
/// per residue r, the present classes some head weighs (`weighed`, their
/// counts enumerated) and the other present classes (`absorbers`, only
/// present: they take what the weighed classes leave).
struct Group {
  Tokens window;
  std::vector<std::vector<std::size_t>> weighed, absorbers;
};

/// Every present class c of the pattern, residue by residue (bit s of
/// masks[r] = token s present in residue r).
std::vector<std::vector<std::size_t>> present_classes(const Shape& shape, const std::vector<unsigned>& masks) {
  std::vector<std::vector<std::size_t>> present(shape.period);
  for (std::size_t r = 0; r < shape.period; ++r)
    for (std::size_t s = 0; s < shape.alphabet_size; ++s)
      if (masks[r] >> s & 1u) present[r].push_back(s * shape.period + r);
  return present;
}

/// A statistic of length T with the window and exactly the present classes
/// (the first present class of a residue takes its surplus); nullopt when
/// some residue has fewer positions than present classes.
std::optional<Statistic> representative(const Shape& shape, std::uint64_t T, const Tokens& window,
                                        const std::vector<std::vector<std::size_t>>& present) {
  Statistic s;
  s.length = T;
  s.window = window;
  s.counts.assign(shape.classes(), 0);
  const std::uint64_t bulk = bulk_length(T, shape.locality);
  for (std::size_t r = 0; r < shape.period; ++r) {
    const std::uint64_t m = residue_count(bulk, shape.period, r);
    if (present[r].size() > m || (present[r].empty() && m > 0)) return std::nullopt;
    for (std::size_t c : present[r]) s.counts[c] = 1;
    if (!present[r].empty()) s.counts[present[r].front()] += m - present[r].size();
  }
  return s;
}

/// The group of (window, pattern): the classes of the top sets of the heads
/// of f and g that weigh with more than one value, split by residue.
Group make_group(const OneLayerEvaluator& f, const OneLayerEvaluator& g, const Statistic& s,
                 const std::vector<std::vector<std::size_t>>& present) {
  const Shape& shape = f.shape();
  std::vector<bool> weighed(shape.classes(), false);
  for (const OneLayerEvaluator* m : {&f, &g})
    for (std::size_t h = 0; h < m->heads(); ++h) {
      const HeadTop top = m->top(h, s);
      if (!m->single_valued(h, s, top))
        for (std::size_t c : top.classes) weighed[c] = true;
    }
  Group group;
  group.window = s.window;
  group.weighed.resize(shape.period);
  group.absorbers.resize(shape.period);
  for (std::size_t r = 0; r < shape.period; ++r)
    for (std::size_t c : present[r]) (weighed[c] ? group.weighed[r] : group.absorbers[r]).push_back(c);
  return group;
}

std::uint64_t saturating_mul(std::uint64_t a, std::uint64_t b) { return a != 0 && b > kMax / a ? kMax : a * b; }

/// C(n, k), saturating (k is at most S).
std::uint64_t binomial(std::uint64_t n, std::uint64_t k) {
  if (k > n) return 0;
  Integer c = 1;
  for (std::uint64_t i = 1; i <= k; ++i) c = c * (n - k + i) / i;
  return c > kMax ? kMax : static_cast<std::uint64_t>(c);
}

/// The reduced statistics of one group at a length: per residue the sum s_r
/// of the weighed counts is m_r when the residue has no absorber, else any
/// value in [u_r, m_r − a_r] (u_r, a_r the numbers of weighed classes and
/// absorbers), and only the fresh ones, absent at length T − Δ (some residue
/// without an absorber, or some s_r = m_r − a_r). Needs B >= Δ.
class GroupWalk {
 public:
  GroupWalk(const Shape& shape, const Group& group, std::uint64_t T) : shape_(shape), group_(group) {
    const std::uint64_t bulk = bulk_length(T, shape.locality);
    for (std::size_t r = 0; r < shape.period; ++r) m_.push_back(residue_count(bulk, shape.period, r));
    for (std::size_t r = 0; r < shape.period; ++r)
      if (group.absorbers[r].empty()) all_absorbing_ = false;
    sigma_.length = T;
    sigma_.window = group.window;
    sigma_.counts.assign(shape.classes(), 0);
  }

  /// How many statistics walk() visits (saturating).
  std::uint64_t count() const {
    std::uint64_t all = 1, old = 1;
    for (std::size_t r = 0; r < shape_.period; ++r) {
      const std::uint64_t u = group_.weighed[r].size(), a = group_.absorbers[r].size();
      if (a == 0) {
        all = saturating_mul(all, u == 0 ? (m_[r] == 0) : binomial(m_[r] - 1, u - 1));
        continue;
      }
      // Sums s in [u, m − a] with parts >= 1: C(m − a, u) vectors, C(m − a − 1, u − 1) of them with s = m − a.
      const std::uint64_t total = u == 0 ? 1 : binomial(m_[r] - a, u);
      const std::uint64_t tight = u == 0 ? (m_[r] == a) : binomial(m_[r] - a - 1, u - 1);
      all = saturating_mul(all, total);
      old = saturating_mul(old, total - tight);
    }
    return all_absorbing_ && all != kMax ? all - old : all;
  }

  /// visit(σ) for each statistic, in a fixed order.
  template <class Visit>
  void walk(Visit&& visit) {
    sums_.assign(shape_.period, 0);
    choose_sum(0, false, visit);
  }

 private:
  template <class Visit>
  void choose_sum(std::size_t r, bool tight_seen, Visit& visit) {
    if (r == shape_.period) return compose(0, 0, visit);
    const std::uint64_t u = group_.weighed[r].size(), a = group_.absorbers[r].size();
    if (a == 0) {
      sums_[r] = m_[r];
      return choose_sum(r + 1, tight_seen, visit);
    }
    // u = 0: the absorbers hold the whole residue (s = 0); else s in [u, m − a].
    const std::uint64_t top = m_[r] - a, high = u == 0 ? 0 : top;
    std::uint64_t low = u;
    // Every residue absorbing: the last residue must be tight when no earlier one was.
    if (all_absorbing_ && !tight_seen && r + 1 == shape_.period) {
      if (top < low || top > high) return;
      low = top;
    }
    for (std::uint64_t s = low; s <= high; ++s) {
      sums_[r] = s;
      choose_sum(r + 1, tight_seen || s == top, visit);
    }
  }

  /// Writes residue r's composition of sums_[r] into the weighed classes
  /// from index k on (parts >= 1), then the absorbers, then the next residue.
  template <class Visit>
  void compose(std::size_t r, std::size_t k, Visit& visit) {
    if (r == shape_.period) return visit(static_cast<const Statistic&>(sigma_));
    const auto& weighed = group_.weighed[r];
    if (k + 1 < weighed.size()) {
      const std::uint64_t left = sums_[r] - assigned_[r];
      const std::uint64_t rest = weighed.size() - k - 1;  // parts still to come, each >= 1
      for (std::uint64_t n = 1; n + rest <= left; ++n) {
        sigma_.counts[weighed[k]] = n;
        assigned_[r] += n;
        compose(r, k + 1, visit);
        assigned_[r] -= n;
      }
      return;
    }
    if (k + 1 == weighed.size()) sigma_.counts[weighed[k]] = sums_[r] - assigned_[r];
    const auto& absorbers = group_.absorbers[r];
    if (!absorbers.empty()) {
      for (std::size_t c : absorbers) sigma_.counts[c] = 1;
      sigma_.counts[absorbers.front()] = m_[r] - sums_[r] - (absorbers.size() - 1);
    }
    compose(r + 1, 0, visit);
  }

  const Shape& shape_;
  const Group& group_;
  bool all_absorbing_ = true;
  std::vector<std::uint64_t> m_, sums_;
  std::vector<std::uint64_t> assigned_ = std::vector<std::uint64_t>(shape_.period, 0);
  Statistic sigma_;
};

/// The groups of one length (B >= Δ, so every residue is nonempty): every
/// full window and every pattern of nonempty token sets per residue that
/// the length can hold, each built once per (window, T mod Δ, pattern).
class Groups {
 public:
  Groups(const OneLayerEvaluator& f, const OneLayerEvaluator& g) : f_(f), g_(g) {}

  std::vector<const Group*> at(std::uint64_t T) {
    const Shape& shape = f_.shape();
    std::vector<const Group*> out;
    const std::size_t window = shape.locality + 1;
    Tokens w(window, 0);
    std::vector<unsigned> masks(shape.period, 1);
    const unsigned full = (1u << shape.alphabet_size) - 1;
    do {
      std::fill(masks.begin(), masks.end(), 1u);
      do {
        const auto present = present_classes(shape, masks);
        const auto s = representative(shape, T, w, present);
        if (!s) continue;
        auto key = std::make_tuple(w, T % shape.period, masks);
        auto it = cache_.find(key);
        if (it == cache_.end()) it = cache_.emplace(key, make_group(f_, g_, *s, present)).first;
        out.push_back(&it->second);
      } while (next_masks(masks, full));
    } while (next_window(w, shape.alphabet_size));
    return out;
  }

 private:
  static bool next_masks(std::vector<unsigned>& masks, unsigned full) {
    for (unsigned& m : masks) {
      if (m < full) {
        ++m;
        return true;
      }
      m = 1;
    }
    return false;
  }
  static bool next_window(Tokens& w, std::size_t S) {
    for (std::size_t i = w.size(); i-- > 0;) {
      if (static_cast<std::size_t>(w[i]) + 1 < S) {
        ++w[i];
        return true;
      }
      w[i] = 0;
    }
    return false;
  }

  const OneLayerEvaluator &f_, &g_;
  std::map<std::tuple<Tokens, std::uint64_t, std::vector<unsigned>>, Group> cache_;
};

/// The number of (window, pattern) groups of a length, at most: S^{τ+1}·(2^S − 1)^Δ (saturating).
std::uint64_t group_bound(const Shape& shape) {
  if (shape.alphabet_size > 16) return kMax;
  std::uint64_t n = 1;
  for (std::size_t k = 0; k <= shape.locality; ++k) n = saturating_mul(n, shape.alphabet_size);
  for (std::size_t r = 0; r < shape.period; ++r) n = saturating_mul(n, (std::uint64_t{1} << shape.alphabet_size) - 1);
  return n;
}

/// Lengths whose statistics are enumerated in full: some residue of T − Δ
/// is empty (B < Δ, the window possibly incomplete), or the groups would
/// outnumber the statistics (many tokens, short lengths).
bool enumerated_in_full(const Shape& shape, std::uint64_t T) {
  return bulk_length(T, shape.locality) < shape.period || group_bound(shape) >= statistic_count(shape, T);
}

void require_same_shape(const OneLayerEvaluator& f, const OneLayerEvaluator& g) {
  if (!(f.shape().alphabet_size == g.shape().alphabet_size && f.shape().period == g.shape().period &&
        f.shape().locality == g.shape().locality))
    throw std::invalid_argument("reduced_distance_curve: the two models have different shapes");
}

}  // namespace

std::uint64_t reduced_statistic_count(const OneLayerEvaluator& f, const OneLayerEvaluator& g, std::uint64_t n) {
  require_same_shape(f, g);
  const Shape& shape = f.shape();
  if (enumerated_in_full(shape, n)) return statistic_count(shape, n);
  Groups groups(f, g);
  std::uint64_t total = 0;
  for (const Group* group : groups.at(n)) {
    const std::uint64_t k = GroupWalk(shape, *group, n).count();
    total = k > kMax - total ? kMax : total + k;
  }
  return total;
}

DistanceCurve reduced_distance_curve(const OneLayerEvaluator& f, const OneLayerEvaluator& g, std::uint64_t max_length,
                                     std::uint64_t budget, unsigned threads, std::string* stopped,
                                     const std::function<void(std::uint64_t, std::uint64_t)>& on_length) {
  require_same_shape(f, g);
  DistanceCurve curve;
  const Shape& shape = f.shape();
  if (threads == 0) threads = enumeration_threads();
  Groups groups(f, g);
  std::optional<Number> running;
  Statistic running_at;
  for (std::uint64_t n = 1; n <= max_length; ++n) {
    if (on_length) on_length(n, max_length);
    const bool full = enumerated_in_full(shape, n);
    std::vector<const Group*> kept;
    std::uint64_t count = 0;
    if (full) {
      count = statistic_count(shape, n);
    } else {
      kept = groups.at(n);
      for (const Group* group : kept) {
        const std::uint64_t k = GroupWalk(shape, *group, n).count();
        count = k > kMax - count ? kMax : count + k;
      }
    }
    if (count > budget) break;
    const unsigned used = static_cast<unsigned>(std::min<std::uint64_t>(threads, std::max<std::uint64_t>(count / 64, 1)));
    std::vector<detail::ShardMax> parts(used);
    auto shard_part = [&](const Shard& shard) {
      if (full) return detail::shard_max(f, g, n, 0, shard, running);
      detail::DistanceFold fold(f, g, 0, running);
      std::uint64_t ordinal = 0;
      for (const Group* group : kept)
        GroupWalk(shape, *group, n).walk([&](const Statistic& s) {
          if (shard.owns(ordinal)) {
            charge_enumeration();
            fold.fold(s, ordinal);
          }
          ++ordinal;
        });
      return fold.finish();
    };
    try {
      run_shards(used, [&](const Shard& shard) { parts[shard.index] = shard_part(shard); });
    } catch (const BudgetExceeded& e) {
      if (!stopped) throw;
      *stopped = e.what();
      break;  // lengths 1..n-1 are complete
    }
    detail::append_length(curve, parts, n, running, running_at);
  }
  return curve;
}

}  // namespace lgc
