// D(n) for a hardmax pair from the reduced statistics (theory.md "The
// reduced curve"): per (window, presence pattern), only the counts of the
// classes some head weighs with more than one value are enumerated, and only
// the reduced statistics that do not already occur at length n − Δ.
#include "lgcheck/quantities/distance.hpp"

#include "distance_fold.hpp"
#include "reduced_groups.hpp"

#include "lgcheck/enumerate/budget.hpp"

#include <limits>

namespace lgc {
namespace {

using detail::Group;
using detail::Groups;
using detail::GroupWalk;

constexpr std::uint64_t kMax = std::numeric_limits<std::uint64_t>::max();

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
