#pragma once
// Internal to the hardmax distance curves (reduced_distance.cpp,
// bounded_distance.cpp): the groups (window, presence pattern) of theory.md
// "The reduced curve" — per residue the present classes some head of f or g
// weighs with more than one value, and the absorbers.
#include "lgcheck/semantics/one_layer.hpp"

#include <cstdint>
#include <map>
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

/// a·b, saturating at UINT64_MAX.
std::uint64_t saturating_mul(std::uint64_t a, std::uint64_t b);

/// Lengths whose statistics are enumerated in full: some residue of T − Δ
/// is empty (B < Δ, the window possibly incomplete), or the groups would
/// outnumber the statistics (many tokens, short lengths).
bool enumerated_in_full(const Shape& shape, std::uint64_t T);

/// Throws std::invalid_argument (naming `who`) when f and g differ in S, Δ or τ.
void require_same_shape(const OneLayerEvaluator& f, const OneLayerEvaluator& g, const char* who);

}  // namespace lgc::detail
