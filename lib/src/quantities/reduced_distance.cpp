// D(n) for a hardmax pair from the reduced statistics (theory.md "The
// reduced curve"): per (window, presence pattern), only the counts of the
// classes some head weighs with more than one value are enumerated, and only
// the reduced statistics that do not already occur at length n − Δ.
#include "lgcheck/quantities/distance.hpp"

#include "distance_fold.hpp"
#include "reduced_groups.hpp"

#include "lgcheck/enumerate/budget.hpp"

#include <limits>
#include <map>
#include <stdexcept>

namespace lgc {
namespace {

using detail::Group;
using detail::Groups;
using detail::saturating_mul;

constexpr std::uint64_t kMax = std::numeric_limits<std::uint64_t>::max();

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

}  // namespace

std::uint64_t reduced_statistic_count(const OneLayerEvaluator& f, const OneLayerEvaluator& g, std::uint64_t n) {
  detail::require_same_shape(f, g, "reduced_distance_curve");
  const Shape& shape = f.shape();
  if (detail::enumerated_in_full(shape, n)) return statistic_count(shape, n);
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
  detail::require_same_shape(f, g, "reduced_distance_curve");
  DistanceCurve curve;
  const Shape& shape = f.shape();
  if (threads == 0) threads = enumeration_threads();
  Groups groups(f, g);
  std::optional<Number> running;
  Statistic running_at;
  for (std::uint64_t n = 1; n <= max_length; ++n) {
    if (on_length) on_length(n, max_length);
    const bool full = detail::enumerated_in_full(shape, n);
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
