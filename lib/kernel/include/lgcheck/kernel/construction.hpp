#pragma once
// The simulation construction of docs/theory.md §2 ("The simulation construction", "Finite precision: padding"),
// written from the definitions alone: z from x, both statistics, on one-layer hardmax argmax sets, exactly.
#include "lgcheck/kernel/witness.hpp"

#include <optional>
#include <vector>

namespace lgc::kernel {

/// A first-layer head's argmax set at σ (query: the window's last token at residue T mod Δ): the bulk classes C_h
/// (index s·Δ + r, count > 0) and the window slots t (position T − t) whose logit is the largest of the present keys.
struct ArgmaxSet {
  std::vector<std::size_t> classes;
  std::vector<std::size_t> slots;
};
ArgmaxSet argmax_set(const Model& m, std::size_t head, const Statistic& sigma);
/// The one value vector V_h(E_s + p_r) every key of the set carries (the head weighs one value at σ), else nullopt.
std::optional<QVector> one_value(const Model& m, std::size_t head, const Statistic& sigma, const ArgmaxSet& a);
/// ω_h: the hardmax weights summed per bulk class (index s·Δ + r) and per window slot t (index SΔ + t).
std::vector<Rational> attention(const Model& m, const Statistic& sigma, const ArgmaxSet& a);

/// The padding length t of finite:p: ⌈2^{p/γ}⌉ as n_sim pads (the models' largest p, their margin), 1 without rounding.
Integer padding_length(const std::vector<Model>& models);
/// The construction's z for x (every model's heads, f then g), Q = simulation_resolution, t = padding_length.
Statistic construct(const std::vector<Model>& models, const Statistic& x, const Integer& Q, const Integer& t);
/// The error lemma's distance: max ‖ω_h(x) − ω_h(z)‖₁ over the heads of every model, less those that weigh one value
/// at x and the same one at z (0 when none is left).
Rational attention_distance(const std::vector<Model>& models, const Statistic& x, const Statistic& z);

}  // namespace lgc::kernel
