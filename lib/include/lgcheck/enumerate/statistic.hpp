#pragma once
// The sufficient statistic of a one-layer model under hardmax (THEORY.md §2):
// σ(x) = (T, the window x_{T−τ..T}, the bulk counts n_{s,r} = #{j <= T−τ−1 :
// x_j = s, j mod Δ = r}). Enumerators of all statistics of a length, and
// random statistics of long inputs (T up to 10^6 and beyond).
#include "lgcheck/enumerate/parallel.hpp"
#include "lgcheck/model/input.hpp"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <functional>
#include <random>
#include <string>
#include <vector>

namespace lgc {

struct Shape {
  std::size_t alphabet_size = 2;  ///< S
  std::size_t period = 1;         ///< Δ
  std::size_t locality = 0;       ///< τ
  std::size_t classes() const { return alphabet_size * period; }
};

Shape shape_of(const Model& model);

struct Statistic {
  std::uint64_t length = 0;            ///< T
  Tokens window;                       ///< the last min(T, τ+1) tokens, in order
  std::vector<std::uint64_t> counts;   ///< n_{s,r} at index s·Δ + r

  std::uint64_t count(std::size_t token, std::size_t residue, std::size_t period) const {
    return counts[token * period + residue];
  }
  friend bool operator==(const Statistic&, const Statistic&) = default;
};

/// B = T − τ − 1 (0 when T <= τ + 1): the number of bulk positions.
std::uint64_t bulk_length(std::uint64_t length, std::size_t locality);
/// #{1 <= j <= B : j mod Δ = r}.
std::uint64_t residue_count(std::uint64_t bulk, std::size_t period, std::size_t residue);
/// Position of window slot t (offset t = T − j), and its residue.
inline std::uint64_t window_position(const Statistic& s, std::size_t t) { return s.length - t; }

/// σ(x) of a string.
Statistic statistic_of(const Shape& shape, const Tokens& x);
/// A string with statistic σ (bulk tokens laid out in class order per residue).
Tokens string_of(const Shape& shape, const Statistic& sigma);
/// Checks the invariants (window length, Σ_s n_{s,r} = m_r(B)); throws
/// std::invalid_argument naming the one that fails.
void validate_statistic(const Shape& shape, const Statistic& sigma);

/// The number of statistics of length T (UINT64_MAX when it overflows).
std::uint64_t statistic_count(const Shape& shape, std::uint64_t length);
/// Calls visit for every statistic of length T; stops when visit returns false.
/// With a shard i/n, only the statistics whose ordinal in this order is
/// ≡ i (mod n) are visited (the others are generated and skipped). Returns
/// the number visited.
std::uint64_t for_each_statistic(const Shape& shape, std::uint64_t length,
                                 const std::function<bool(const Statistic&)>& visit, const Shard& shard = {});

/// Walks the tree of all strings of length 1..max_length depth first (children
/// in token order), keeping the statistic of the current prefix up to date in
/// O(1) per step instead of recomputing it: visit(statistic of the prefix)
/// is called at every node (S + S² + … + S^max_length calls); when it returns
/// false the node's subtree is skipped. Returns the number of nodes visited.
std::uint64_t for_each_prefix_statistic(const Shape& shape, std::uint64_t max_length,
                                        const std::function<bool(const Statistic&)>& visit);

/// A random statistic of length T whose bulk mixes the shapes that matter:
/// empty classes, rare classes (counts 1..3), and random shares of the rest.
Statistic random_statistic(const Shape& shape, std::uint64_t length, std::mt19937_64& rng);

/// {"length": T, "window": [...], "counts": [...]} for certificates.
nlohmann::json statistic_to_json(const Statistic& sigma);
/// The inverse; validates against the shape (throws std::invalid_argument).
Statistic statistic_from_json(const Shape& shape, const nlohmann::json& j);

/// "T=12 window=01 counts[s,r]=..." for messages and certificates.
std::string describe(const Shape& shape, const Statistic& sigma, const Model& model);

}  // namespace lgc
