#pragma once
// Internal to the distance curves (distance.cpp, reduced_distance.cpp): one
// shard's running maximum of |f − g|∞ over the statistics it evaluates, in
// 64-bit rationals while every distance fits and in GMP (or certified
// enclosures) after, and the merge of a length's shards into the curve.
#include "lgcheck/quantities/distance.hpp"

#include <optional>
#include <vector>

namespace lgc::detail {

/// One shard's part of D(n): the certified max of |f − g|∞ over its
/// statistics and the first (by ordinal) attaining the largest upper end.
struct ShardMax {
  std::optional<Number> value;
  Rational best_upper;
  std::uint64_t best_ordinal = 0, visited = 0;
  std::uint64_t below = 0;  ///< visited, but below the maximum by their FastInterval bound (DistanceFold)
  Statistic at;
  VisitDigest digest;
};

/// The shard's running maximum while every distance so far was a
/// SmallRational; on the first that is not, it moves into the ShardMax.
struct SmallMax {
  bool active = false, any = false;
  SmallRational best;
  std::uint64_t best_ordinal = 0;
  Statistic at;

  void consider(const SmallRational& d, std::uint64_t ordinal, const Statistic& s);
  /// Hands the maximum to the GMP bookkeeping (the same fields the slow
  /// path would have set) and stops.
  void settle(ShardMax& m);
};

/// Folds the statistics of one shard: fold(s, ordinal) takes |f − g|∞ at s
/// (p = 0: hardmax, the 64-bit path while it lasts; else finite:p).
/// Under hardmax, when the maximum so far (the shard's, or `before`, the
/// curve's over the shorter lengths) is an enclosure, not exact, a statistic
/// whose |f − g|∞ the FastInterval enclosures put certainly below its lower
/// end is counted and digested but not evaluated at full precision: it
/// changes neither end of the maximum nor the argmax (the first statistic of
/// the largest upper end), so D(n) and its argmax are the same.
class DistanceFold {
 public:
  DistanceFold(const OneLayerEvaluator& f, const OneLayerEvaluator& g, unsigned p,
               const std::optional<Number>& before = std::nullopt);
  void fold(const Statistic& s, std::uint64_t ordinal);
  /// The lower end of the shard's maximum so far (its exact value when it is
  /// exact; nullopt before any fold).
  std::optional<Rational> best_lower() const;
  /// The shard's result (call once, after the last fold).
  ShardMax finish();

 private:
  /// |f − g|∞ at s is certainly below the floor (FastInterval enclosures).
  bool below_floor(const Statistic& s);
  /// Raises the floor to the lower end of `m` when m is an enclosure.
  void raise_floor(const Number& m);
  const OneLayerEvaluator &f_, &g_;
  unsigned p_;
  ShardMax max_;
  SmallMax fast_;
  std::vector<SmallRational> a_, b_;
  double floor_ = 0;  ///< a double at most the lower end of an inexact maximum; 0: none
  std::vector<FastInterval> fa_, fb_;
};

/// The shard's part of every statistic of length n (for_each_statistic's order).
ShardMax shard_max(const OneLayerEvaluator& f, const OneLayerEvaluator& g, std::uint64_t n, unsigned p,
                   const Shard& shard, const std::optional<Number>& before = std::nullopt);

/// Appends D(n) to the curve from the shards of length n (merged in shard
/// order: the largest upper end, ties to the smallest ordinal; the running
/// maximum over all lengths keeps the earlier argmax on ties). `running` and
/// `running_at` carry the maximum across calls.
void append_length(DistanceCurve& curve, const std::vector<ShardMax>& parts, std::uint64_t n,
                   std::optional<Number>& running, Statistic& running_at);

}  // namespace lgc::detail
