#pragma once
// The simulation construction of docs/theory.md §2 ("The simulation construction", "Finite precision: padding"),
// written from the definitions alone: z from x, both statistics, on one-layer hardmax argmax sets, exactly.
#include "lgcheck/kernel/witness.hpp"

#include <vector>

namespace lgc::kernel {

/// The padding length t of finite:p: ⌈2^{p/γ}⌉ as n_sim pads (the models' largest p, their margin), 1 without rounding
/// (always at least 1).
Integer padding_length(const std::vector<Model>& models);

/// T4.1.sim draws this many random inputs (theory.md "T4.1.sim's random inputs, exactly").
constexpr std::size_t kRandomSimulationInputs = 1000;
/// T4.1.sim's random inputs, draw by draw as theory.md "T4.1.sim's random inputs, exactly" states: `count` statistics
/// of f's shape (S, Δ, τ) from one std::mt19937_64 seeded with check.seed, in order, each with its length log-uniform
/// in [t, max(10^6, 4t)], t the padding start (padding_length, at most 2^60), then its bulk counts, then its window.
/// A seed determines them, so the witnesses that record them can be matched input by input.
std::vector<Statistic> random_simulation_inputs(const Model& f, std::uint64_t t, std::uint64_t seed,
                                                std::size_t count = kRandomSimulationInputs);

/// The construction for one case: every first-layer head's logits (by query and key class) and value classes are
/// tabulated once, so that building z for a witness costs comparisons and a few rational operations per class.
class Construction {
 public:
  /// models: f then g (kept by reference); Q = simulation_resolution; t = padding_length.
  Construction(const std::vector<Model>& models, Integer Q, Integer t);
  ~Construction();
  /// The construction's z for x (every model's heads, f then g).
  Statistic build(const Statistic& x) const;
  /// The error lemma's distance: max ‖ω_h(x) − ω_h(z)‖₁ over the heads of every model, less those that weigh one
  /// value at x and the same one at z (0 when none is left).
  Rational attention_distance(const Statistic& x, const Statistic& z) const;

  struct Head;

 private:
  const std::vector<Model>* models_;
  Integer Q_, t_;
  std::vector<Head> heads_;
};

}  // namespace lgc::kernel
