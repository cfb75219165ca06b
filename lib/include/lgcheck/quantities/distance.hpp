#pragma once
// Distances between the two models of a pair (THEORY.md §2, "Distances and
// thresholds"): D(n) = max over |x| <= n of |f(x) − g(x)|∞, exactly, by
// enumerating statistics; the measured threshold N_emp(ε); and certified
// upper bounds on D∞ = sup over all x.
#include "lgcheck/enumerate/visit_digest.hpp"
#include "lgcheck/semantics/one_layer.hpp"

#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace lgc {

/// max(a, b) of two certified numbers: exact when both are, else the
/// enclosure [max lo, max hi].
Number certified_max(const Number& a, const Number& b);

/// max_k |a_k − b_k| of two outputs in SmallRational, as distance_curve takes
/// it per statistic; false on an overflow or when the sizes differ (the GMP
/// max_abs_difference then decides, or refuses).
bool small_max_abs_difference(const std::vector<SmallRational>& a, const std::vector<SmallRational>& b,
                              SmallRational& out);

struct DistanceCurve {
  std::vector<Number> D;       ///< D[n−1] = D(n), cumulative maximum
  std::vector<Statistic> argmax;  ///< argmax[n−1]: a statistic of length <= n attaining D(n)
  std::uint64_t reached = 0;   ///< the largest n computed (stops at the budget)
  std::uint64_t statistics = 0;
  VisitDigest visited;         ///< the statistics of lengths 1..reached whose |f − g|∞ was taken
  /// Of those, the ones whose certified FastInterval bound put |f − g|∞ below
  /// the lower end of an inexact maximum (a sin readout): not evaluated at
  /// full precision, since they change neither D nor the argmax.
  std::uint64_t below_maximum = 0;
  /// bounded_distance_curve: the boxes of counts whose bound it computed,
  /// and of those the ones skipped (the bound could not change the maximum).
  std::uint64_t boxes_bounded = 0, boxes_pruned = 0;
  /// bounded_distance_curve: the (group, length) pairs whose fresh statistics
  /// were each evaluated instead of searched (a search abandoned once it had
  /// cost as much, or the lengths walked after abandoned searches).
  std::uint64_t groups_walked = 0;
  /// bounded_distance_curve: the (group, length) pairs decided by the value
  /// search (over the values of the one average |f − g|∞ depends on).
  std::uint64_t value_searches = 0;
  /// bounded_distance_curve: the (group, length) pairs of one-valued groups
  /// (|f − g|∞ one Number at every statistic and length) skipped because
  /// the group's value was taken at an earlier length.
  std::uint64_t one_valued_skips = 0;
};

/// D(n) for n = 1..max_length, stopping early when a length has more than
/// `budget` statistics. p = 0: hardmax; else finite:p. Each length's
/// statistics are split over `threads` (0: enumeration_threads()); the
/// curve, its argmax (the first statistic in enumeration order attaining the
/// largest upper end) and the counts are the same for any thread count.
/// When the enumeration budget (--budget) runs out during a length, the
/// BudgetExceeded propagates; with `stopped` given, the curve ends at the
/// last complete length instead and *stopped holds the reason.
/// `on_length(n, max_length)` is called before length n (progress).
DistanceCurve distance_curve(const OneLayerEvaluator& f, const OneLayerEvaluator& g, std::uint64_t max_length,
                             unsigned p = 0, std::uint64_t budget = 2000000, unsigned threads = 0,
                             std::string* stopped = nullptr,
                             const std::function<void(std::uint64_t, std::uint64_t)>& on_length = {});

/// The same D(n), n = 1..max_length, for a hardmax pair, evaluating only the
/// statistics the reduction of theory.md "The reduced curve" keeps: under
/// hardmax f(σ) depends on the bulk counts only through the classes that
/// some head of f or g weighs with more than one value (the others matter by
/// their presence alone), and a statistic whose reduced form already occurs
/// at length T − Δ has an earlier statistic's value. D is the same Number as
/// distance_curve's (exact, or the same enclosure); `statistics` and
/// `visited` count and digest the statistics evaluated; argmax[n−1] is an
/// evaluated statistic of length <= n attaining D(n). A length whose kept
/// statistics exceed `budget` ends the curve, as in distance_curve, and so
/// does --budget when `stopped` is given: charged per evaluated statistic at
/// a reduced length, and per statistic each shard's enumeration generates at
/// a length enumerated in full (as distance_curve charges). Lengths below
/// τ + 1 + Δ, and lengths with no more statistics than S^{τ+1}·(2^S − 1)^Δ
/// (the groups of window and presence pattern), are enumerated in full.
/// Throws std::invalid_argument when f and g differ in S, Δ or τ.
DistanceCurve reduced_distance_curve(const OneLayerEvaluator& f, const OneLayerEvaluator& g, std::uint64_t max_length,
                                     std::uint64_t budget = 2000000, unsigned threads = 0,
                                     std::string* stopped = nullptr,
                                     const std::function<void(std::uint64_t, std::uint64_t)>& on_length = {});

/// What bounded_distance_curve's box bound takes into account; a test sets a
/// term to false to show that the curve then goes wrong.
struct BoxBoundTerms {
  bool weight_extremes = true;  ///< false: each average at the box's least counts only (a value, not a bound)
  /// false: sin a − sin b bounded by cos((a + b)/2) sin((a − b)/2), the identity's factor 2 dropped (half the value)
  bool sin_identity_factor = true;
  /// false: no value search (every searched group goes through boxes of counts)
  bool value_search = true;
  /// false: no value search over two parameters (a group whose |f − g|∞ moves with two goes through boxes of counts)
  bool two_parameter_search = true;
  /// false: no parameter of the search over two parameters is taken as fixed by the averages' weights N (each P_i
  /// enumerated over its range, as where the rule does not apply)
  bool fixed_parameters = true;
  /// false: where both parameters are fixed by the N's, a box of the N's values is bounded at its least N's only (the
  /// mutation: a value, not a bound over the box)
  bool fixed_box_corners = true;
  /// false: a parameter is taken as fixed by the N's with each λ_w read off one class, not checked at the others
  /// (the mutation: where the a's are no such combination, P_i = A_W + Σ_w λ_w·(N_w − w0_w) fails at statistics)
  bool fixed_parameters_checked = true;
  /// false: no rectangle of the search over two parameters is collapsed along a parameter that moves no coordinate
  /// above the floor there (each searched over both)
  bool collapsed_rectangles = true;
  /// false: every open rectangle is collapsed along a parameter whose ranged witness was built, whether or not that
  /// parameter moves a coordinate above the floor there (the mutation)
  bool collapse_checked = true;
  /// false: the search over two parameters bounds each coordinate as C + β_0·T_0, the second parameter's term
  /// dropped (its bound then misses how T_1 moves |f − g|)
  bool second_parameter_term = true;
  /// false: the value search leaves the window slots out of its average's weight N (T = P/(L·N) then wrong)
  bool value_window_weight = true;
  /// false: the value search's candidates of each N and interval of T leave out the interval's least and largest P
  bool value_interval_ends = true;
  /// false: with sin readouts, u + v's averages are each scanned over a box, none taken from u − v's (an average of a
  /// head of f that g does not share, or of one of g, is the same in both or negated)
  bool shared_averages = true;
  /// false: an average of u + v that is one of u − v's negated takes that one's range unnegated (the mutation)
  bool shared_negation = true;
  /// false: with sin readouts, each bound computed whole, not only as far as it decides whether it lies below the
  /// floor (the same decisions either way)
  bool sin_bound_cutoff = true;
  /// false: no group is taken as one-valued (each goes through the searches, as where the rule does not apply)
  bool one_valued_groups = true;
  /// false: a group counts as one-valued when the sin readouts' u − v is constant, u + v not looked at (then
  /// f − g = 2 cos(ω(u + v)/2) sin(ω(u − v)/2) may still move)
  bool one_valued_sum = true;
  /// Which output coordinates' values the value searches fit (theory.md "The value search"): the others are left out.
  enum class ValueCoordinates {
    every,          ///< every coordinate
    not_vanishing,  ///< those where f − g (identity readouts) or u − v (sin readouts) is not 0 identically: the rule
    /// the mutation: also leaves out a coordinate whose sin readouts' u − v is a nonzero constant, as if it vanished
    /// (u + v not looked at: f − g = 2 cos(ω(u + v)/2) sin(ω(u − v)/2) moves there with u + v)
    not_constant,
  };
  ValueCoordinates value_coordinates = ValueCoordinates::not_vanishing;
};

/// Whether bounded_distance_curve applies: both models' numbers fit the
/// 64-bit tables its bounds use, and their readouts have one size.
bool bounded_curve_applies(const OneLayerEvaluator& f, const OneLayerEvaluator& g);

/// The same D(n), n = 1..max_length, by branch and bound (theory.md "The
/// bounded curve"): per group of the reduced curve, the fresh reduced
/// statistics form a box of counts (ranges per class, a sum per residue);
/// a box whose certified bound on |f − g|∞ (FastInterval: each head's
/// weighted average over the box, then the MLP and readout, sin included) is
/// at most the maximum so far (with a sin readout: below its lower end) —
/// D(n − 1), raised by what the group's search found — is skipped, the
/// others are halved along their widest count until at most 16 statistics
/// remain, which are evaluated as by the other curves; a group whose search
/// has cost as much as evaluating each of its fresh statistics evaluates each
/// of those instead (its search discarded); a one-valued group (|f − g|∞ the
/// same Number at each of its statistics, at every length) has its first
/// statistic evaluated once and is skipped after. D is the same Number as the other
/// curves' (the exact rational, or the same enclosure); `statistics` and
/// `visited` count and digest the evaluated statistics, argmax[n−1] is one of
/// them attaining D(n), the same for any thread count (each group's search
/// starts from D(n − 1)). A length whose boxes and statistics exceed `budget`
/// ends the curve; --budget is charged per box and per statistic. Throws
/// std::invalid_argument unless bounded_curve_applies, when f and g differ
/// in shape, or for lengths of 2^50 and more.
DistanceCurve bounded_distance_curve(const OneLayerEvaluator& f, const OneLayerEvaluator& g, std::uint64_t max_length,
                                     std::uint64_t budget = 2000000, unsigned threads = 0,
                                     std::string* stopped = nullptr,
                                     const std::function<void(std::uint64_t, std::uint64_t)>& on_length = {},
                                     const BoxBoundTerms& terms = {});

/// The number of statistics reduced_distance_curve evaluates at length n
/// (UINT64_MAX when it overflows): at most statistic_count(shape, n).
std::uint64_t reduced_statistic_count(const OneLayerEvaluator& f, const OneLayerEvaluator& g, std::uint64_t n);

/// N_emp(ε) = min{n : D(n) > ε} (certified), nullopt when not reached or
/// undecided at some n first (then `undecided_at` is set to that n; else to 0).
std::optional<std::uint64_t> measured_threshold(const DistanceCurve& curve, const Rational& epsilon,
                                                std::uint64_t* undecided_at = nullptr);

/// f and g have identical attention: same embeddings, positional encodings,
/// bilinear forms and φ (so ω_h(x) agree on every x).
bool shares_attention(const Model& f, const Model& g);

/// When f and g share attention, MLP and readout and differ only in V:
/// D∞ <= Lip(R)·Σ_h max_c ‖(V_h^f − V_h^g)(E_s + p_r)‖∞.
std::optional<Rational> value_perturbation_bound(const Model& f, const Model& g);

/// When f and g share attention and V (so the same representation Y before
/// the MLP) and differ after it: a certified upper bound of
/// sup_Y |R_f(Y) − R_g(Y)| over a box containing every attainable Y, by
/// bisecting the box `boxes` times.
std::optional<Rational> readout_gap_bound(const OneLayerEvaluator& f, const OneLayerEvaluator& g,
                                          std::size_t boxes = 4096);

}  // namespace lgc
