#pragma once
// Upper bounds on D∞ = sup_x |f(x) − g(x)|∞ for a one-layer pair (theory.md "Distances and thresholds"), the ends of
// T4.1.lg's bracket the kernel re-establishes: the value-perturbation bound recomputed exactly, the readout-gap bound
// verified by the kernel's own bisection.
#include "lgcheck/kernel/quantities.hpp"

#include <cstddef>
#include <optional>

namespace lgc::kernel {

/// Lip(R)·Σ_h max_c ‖(V_h^f − V_h^g)(E_s + p_r)‖∞ when f and g are one-layer models that share the embedding, the
/// positional encoding, every head's bilinear form and φ, the MLP and the readout (they differ in V only); nullopt
/// otherwise.
std::optional<Rational> value_perturbation(const Model& f, const Model& g);

/// f and g are one-layer models that share attention (embedding, positional encoding, every head's bilinear form and
/// φ) and every head's V: they see the same Y on every input.
bool same_attention_and_values(const Model& f, const Model& g);

/// Whether every Y = y_q + Σ_h (a convex combination of the value vectors V_h y_c), for every query class q, has
/// max_k |R_f(Y) − R_g(Y)| <= bound, R the MLP and the readout, when same_attention_and_values (else nullopt): true
/// when the kernel's bisection (rational interval arithmetic, the sin at 128 bits) shows it within `boxes` boxes
/// (split evenly over the query classes), false when a point of a box is above it, nullopt when neither is shown.
std::optional<bool> readout_gap_within(const Model& f, const Model& g, const Rational& bound, std::size_t boxes);

}  // namespace lgc::kernel
