#pragma once
// Builders of the concrete models the paper studies, bundled in cases/ and
// used by the tables: ModPTask, SimpleTask (sin readout or ReLU-MLP
// approximation) and a hand-built two-layer induction head.
#include "lgcheck/model/model.hpp"

#include <cstdint>
#include <string>

namespace lgc {

/// q as it appears in a case name: its exact text with '/' written '_'.
std::string rational_name(const Rational& q);

/// ModPTask: alphabet {0,1}, period Δ = p, locality 0; hardmax attends to the
/// positions j ≡ 0 (mod p) and returns the fraction of 1-tokens there.
/// `margin` scales the logit (γ = margin); the default 1 is the paper's task.
Model modp_task(std::size_t p, const Semantics& semantics, const Rational& margin = 1);

/// The margin counter-family (docs/theory.md, "The margin question"): tokens
/// 0, 1, 2 (Δ = 1, τ = 0), one head with logits 1, 1 − γ, 0 on the keys 1, 2,
/// 0 whatever the query; the keys 1 and 2 carry one value (output 1), the key
/// 0 another (output 0). Logit margin γ (for 0 < γ <= 1/2), value-aware
/// margin 1 − γ: the first length from which finite:p equals hardmax is
/// ⌈2^{p/(1−γ)}⌉ <= 2^{2p}, bounded as γ → 0 while ⌈2^{p/γ}⌉ is not.
Model margin_counter(const Rational& gamma, const Semantics& semantics);

/// The margin witness family (docs/theory.md, "The margin question"): a pair
/// of one-layer finite:p models over {0, 1} (Δ = 1, τ = 0, no query-key
/// term) with two heads: head 1 puts φ(0) = γ on the query itself and 0 on
/// every other key, and reads "the key is a 1" (output h₁); head 2 is
/// uniform and reads the same (h₂ = the fraction of 1-tokens). f returns h₂;
/// g returns h₂ + s·ReLU(h₁ − h₂ − 1/2), s = η/(1/2 − 1/N). Logit margin and
/// value-aware margin γ (0 < γ <= 1). With N = ⌈2^{p/γ}⌉ (>= 3 required):
/// f = g on every input of length < N, and g − f = η on 0^{N−1}1.
struct MarginWitness {
  Model f, g;
  std::string name;  ///< margin_witness_gamma<γ>_p<p> ('/' written '_'): the models' names less "_f", "_g"

  Integer length;  ///< N = ⌈2^{p/γ}⌉, the first length where they differ
  Rational slope;  ///< s = η/(1/2 − 1/N)
};
MarginWitness margin_witness(const Rational& gamma, unsigned bits, const Rational& eta);

enum class SimpleReadout { Sin, ReluMlp };

/// SimpleTask: alphabet {0,1}, Δ = 1, τ = 0, M = 0 (uniform attention), so
/// the head returns q = the fraction of 1-tokens; the output is sin(ω·q)
/// (Sin), or its piecewise-linear interpolation at the rational knots k/(4ω')
/// (ω' = ⌈ω⌉) with values sin(ω·knot) rounded to multiples of 10^{-6}
/// (ReluMlp, a one-hidden-layer ReLU MLP, exact rationals throughout).
Model simple_task(const Rational& omega, SimpleReadout readout);

/// An induction head (two layers, softmax, k = 1) over {a, b}: layer 1 copies
/// the previous token (φ(1) = lambda > 1, position-dominant), layer 2 matches
/// the copied token of each key against the query token with strength beta
/// and averages the one-hot of the matching keys' tokens.
Model induction_head(const Rational& lambda, const Rational& beta);

/// A copy of ModPTask whose value map is perturbed: V(output, token 1) =
/// 1 + eta, so |f − g| <= eta with equality when every attended token is 1.
/// A non-zero readout_eta also scales the readout by 1 + readout_eta, so
/// |f − g| <= (1 + eta)(1 + readout_eta) − 1; the pair then differs in V and
/// in the readout, and only the simulation bound brackets D∞ (docs/theory.md).
Model modp_perturbed(std::size_t p, const Semantics& semantics, const Rational& eta,
                     const Rational& readout_eta = Rational(0));

/// A ModPTask model (or copy) whose head attends to the 1-tokens (logit [key
/// token is 1]) instead of the positions j = 0 mod p: a second attention
/// pattern beside ModPTask's, of a head weighing one value (the 1-tokens'):
/// N_sim stays anchored (docs/theory.md, "One value", "Lemma (length)").
Model attending_to_ones(Model modp);

/// A ModPTask model (or copy) whose head attends to the positions j ≠ 0 mod p
/// (logit 1 − [key residue 0]) instead: a second pattern of a head weighing
/// two values (the tokens'), so N_sim is the general bound.
Model attending_to_other_residues(Model modp);

/// The Farey-hat witness pair of order n (THEORY.md §2): S = 2, Δ = 1, τ = 0,
/// M = 0, so attention is uniform and its output is q = the fraction of
/// 1-tokens. f returns q; g returns q + hat(q), a ReLU hat of height eta
/// supported strictly between the Farey neighbours a/b < 1/2 of order n
/// (b = 2⌊(n−1)/2⌋ + 1), peaking at their mediant (of denominator <= 2n).
/// No input of length <= n sees the hat; the mediant's length does.
struct FareyHat {
  Model f, g;
  Rational left, right, mediant;  ///< the support (left, right) and the peak
  std::uint64_t mediant_length = 0;
};
FareyHat farey_hat(std::uint64_t n, const Rational& eta);

}  // namespace lgc
