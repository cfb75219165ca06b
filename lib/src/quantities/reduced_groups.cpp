// The (window, presence pattern) groups of the hardmax distance curves
// (theory.md "The reduced curve").
#include "reduced_groups.hpp"

#include <algorithm>
#include <limits>
#include <optional>
#include <stdexcept>
#include <string>

namespace lgc::detail {
namespace {

constexpr std::uint64_t kMax = std::numeric_limits<std::uint64_t>::max();

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
  group.representative = s;
  group.weighed.resize(shape.period);
  group.absorbers.resize(shape.period);
  for (std::size_t r = 0; r < shape.period; ++r)
    for (std::size_t c : present[r]) (weighed[c] ? group.weighed[r] : group.absorbers[r]).push_back(c);
  return group;
}

/// C(n, k), saturating (k is at most S).
std::uint64_t binomial(std::uint64_t n, std::uint64_t k) {
  if (k > n) return 0;
  Integer c = 1;
  for (std::uint64_t i = 1; i <= k; ++i) c = c * (n - k + i) / i;
  return c > kMax ? kMax : static_cast<std::uint64_t>(c);
}

/// The number of (window, pattern) groups of a length, at most: S^{τ+1}·(2^S − 1)^Δ (saturating).
std::uint64_t group_bound(const Shape& shape) {
  if (shape.alphabet_size > 16) return kMax;
  std::uint64_t n = 1;
  for (std::size_t k = 0; k <= shape.locality; ++k) n = saturating_mul(n, shape.alphabet_size);
  for (std::size_t r = 0; r < shape.period; ++r) n = saturating_mul(n, (std::uint64_t{1} << shape.alphabet_size) - 1);
  return n;
}

}  // namespace

std::uint64_t saturating_mul(std::uint64_t a, std::uint64_t b) { return a != 0 && b > kMax / a ? kMax : a * b; }

std::vector<const Group*> Groups::at(std::uint64_t T) {
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

bool Groups::next_masks(std::vector<unsigned>& masks, unsigned full) {
  for (unsigned& m : masks) {
    if (m < full) {
      ++m;
      return true;
    }
    m = 1;
  }
  return false;
}

bool Groups::next_window(Tokens& w, std::size_t S) {
  for (std::size_t i = w.size(); i-- > 0;) {
    if (static_cast<std::size_t>(w[i]) + 1 < S) {
      ++w[i];
      return true;
    }
    w[i] = 0;
  }
  return false;
}

std::uint64_t GroupWalk::count() const {
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

bool enumerated_in_full(const Shape& shape, std::uint64_t T) {
  return bulk_length(T, shape.locality) < shape.period || group_bound(shape) >= statistic_count(shape, T);
}

void require_same_shape(const OneLayerEvaluator& f, const OneLayerEvaluator& g, const char* who) {
  if (!(f.shape().alphabet_size == g.shape().alphabet_size && f.shape().period == g.shape().period &&
        f.shape().locality == g.shape().locality))
    throw std::invalid_argument(std::string(who) + ": the two models have different shapes");
}

}  // namespace lgc::detail

