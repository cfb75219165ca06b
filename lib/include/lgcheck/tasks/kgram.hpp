#pragma once
// The in-context k-gram task (THEORY.md §3, the paper's Definition 5.4) and
// the toolkit's two-layer construction for it.
//
// f*(x) averages e_{x_t} over the positions t in [k+1, T] whose preceding k
// tokens x_{t−k..t−1} equal the last k tokens x_{T−k+1..T}; with no such
// position the toolkit's convention is the uniform vector (1/S, ..., 1/S).
// The match fraction of x is (number of such t) / (T − k), 0 when T <= k.
#include "lgcheck/model/input.hpp"
#include "lgcheck/model/model.hpp"

#include <cstdint>

namespace lgc {

/// The matching positions t (1-based) of x for context length k.
std::vector<std::uint64_t> kgram_matches(std::size_t k, const Tokens& x);
/// Their number over T − k (0 when T <= k).
Rational kgram_match_fraction(std::size_t k, const Tokens& x);
/// f*(x), exactly.
QVector kgram_target(std::size_t alphabet_size, std::size_t k, const Tokens& x);

/// The construction: k first-layer heads, head h position-dominant with
/// φ_h(h) = λ and 0 elsewhere (τ = k), copying x_{i−h} into block h; the
/// second layer scores key j by β·Σ_h ⟨block h of Y_j, block h−1 of Y_T⟩
/// (block 0 = the token itself), so a full context match scores about βk,
/// and reads the key's token into the output block. Width (k+2)·S, no MLP.
Model kgram_model(std::size_t alphabet_size, std::size_t k, const Rational& beta, const Rational& lambda);

/// β, λ and the shortest length T₀ for which the construction is proved
/// within ε on every input with match fraction >= ρ (docs/theory.md):
///   β >= 2 ln(4/(ερ)),  λ >= max(2, ln(40 k² β/ε) / ln(k+1)),  T₀ = k + ⌈5k/(2ρε)⌉,
/// β and λ rounded up to multiples of 1/8 (from certified enclosures).
struct KgramParameters {
  Rational beta, lambda;
  std::uint64_t min_length = 0;
};
KgramParameters kgram_parameters(const Rational& epsilon, const Rational& rho, std::size_t k);
/// T₀ for given ε, ρ, k (independent of β, λ).
std::uint64_t kgram_min_length(const Rational& epsilon, const Rational& rho, std::size_t k);

}  // namespace lgc
