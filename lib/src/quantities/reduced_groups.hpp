#pragma once
// Internal to the hardmax distance curves (reduced_distance.cpp,
// bounded_distance.cpp): the groups (window, presence pattern) of theory.md
// "The reduced curve" — per residue the present classes some head of f or g
// weighs with more than one value, and the absorbers.
#include "lgcheck/semantics/one_layer.hpp"

#include <cstdint>
#include <map>
#include <optional>
#include <tuple>
#include <vector>

namespace lgc::detail {

/// One (window, presence pattern) at the lengths of one residue class mod Δ:
/// per residue r, the present classes some head weighs (`weighed`, their
/// counts enumerated) and the other present classes (`absorbers`, only
/// present: they take what the weighed classes leave).
struct Group {
  Tokens window;
  std::vector<std::vector<std::size_t>> weighed, absorbers;
  /// A statistic of the group (at the length it was first built for): the
  /// heads' top sets and values depend on the group only.
  Statistic representative;
};

/// The groups of one length (B >= Δ, so every residue is nonempty): every
/// full window and every pattern of nonempty token sets per residue that
/// the length can hold, each built once per (window, T mod Δ, pattern).
class Groups {
 public:
  Groups(const OneLayerEvaluator& f, const OneLayerEvaluator& g) : f_(f), g_(g) {}

  std::vector<const Group*> at(std::uint64_t T);

 private:
  static bool next_masks(std::vector<unsigned>& masks, unsigned full);
  static bool next_window(Tokens& w, std::size_t S);

  const OneLayerEvaluator &f_, &g_;
  std::map<std::tuple<Tokens, std::uint64_t, std::vector<unsigned>>, Group> cache_;
};

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
  std::uint64_t count() const;

  /// visit(σ) for each statistic, in a fixed order.
  template <class Visit>
  void walk(Visit&& visit) {
    sums_.assign(shape_.period, 0);
    choose_sum(0, false, visit);
  }

  /// The first statistic walk() visits (nullopt when there is none).
  std::optional<Statistic> first() {
    std::optional<Statistic> found;
    walk([&](const Statistic& s) {
      found = s;
      stopped_ = true;
    });
    stopped_ = false;
    return found;
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
    for (std::uint64_t s = low; s <= high && !stopped_; ++s) {
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
      for (std::uint64_t n = 1; n + rest <= left && !stopped_; ++n) {
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
  bool stopped_ = false;  // first(): the first statistic found
  std::vector<std::uint64_t> m_, sums_;
  std::vector<std::uint64_t> assigned_ = std::vector<std::uint64_t>(shape_.period, 0);
  Statistic sigma_;
};

/// a·b, saturating at UINT64_MAX.
std::uint64_t saturating_mul(std::uint64_t a, std::uint64_t b);

/// Lengths whose statistics are enumerated in full: some residue of T − Δ
/// is empty (B < Δ, the window possibly incomplete), or the groups would
/// outnumber the statistics (many tokens, short lengths).
bool enumerated_in_full(const Shape& shape, std::uint64_t T);

/// Throws std::invalid_argument (naming `who`) when f and g differ in S, Δ or τ.
void require_same_shape(const OneLayerEvaluator& f, const OneLayerEvaluator& g, const char* who);

}  // namespace lgc::detail
