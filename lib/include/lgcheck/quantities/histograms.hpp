#pragma once
// The two histograms of Section 5 (docs/theory.md, "Histograms"): the paper's
// μ(x≤i) over the tokens of the whole prefix [paper P11], the defined quantity,
// and the toolkit's class histogram μ̂ over (token, residue) classes of the
// bulk, the form the evaluation and the constructions compute with. Their
// token marginals are within 2(τ+1)/i in ℓ₁ (tight), proved in the docs.
#include "lgcheck/model/input.hpp"
#include "lgcheck/numeric/rational.hpp"

#include <cstdint>
#include <vector>

namespace lgc {

/// μ(x≤i): μ_s = #{j ≤ i : x_j = s} / i for s = 0..S−1 (1 ≤ i ≤ |x|), exact.
std::vector<Rational> token_histogram(const Tokens& x, std::uint64_t i, std::size_t S);

/// The token marginal m_s = Σ_r μ̂_{s·Δ+r} of a class histogram (class index s·Δ + r).
std::vector<Rational> token_marginal(const std::vector<Rational>& class_histogram, std::size_t S, std::size_t period);

/// 2(τ+1)/i: the bound on ‖μ(x≤i) − m(μ̂_i)‖₁ for every x and every i > τ + 1.
Rational histogram_gap_bound(std::size_t tau, std::uint64_t i);

}  // namespace lgc
