#pragma once
// Tables computed from the bundled cases and the toolkit's builders
// (docs/tables/), never typed in. Each table has display cells (numbers too
// long to print in full in scientific notation) and, per row, the exact
// values for `--format json`.
#include "lgcheck/numeric/rational.hpp"
#include "lgcheck/semantics/one_layer.hpp"
#include "lgcheck/report/verdict.hpp"

#include <nlohmann/json.hpp>

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace lgc {

struct Table {
  std::string name, caption;
  std::vector<std::string> columns;
  std::vector<std::vector<std::string>> rows;  ///< display text
  nlohmann::json exact = nlohmann::json::array();  ///< one object per row, exact values
  std::vector<std::string> notes;
};

/// t41: Theorem 4.1's bounds against the measured threshold and the witness
/// lower bound, on the bundled ModPTask, SimpleTask and Farey-hat pairs.
Table table_t41(const std::filesystem::path& cases_dir, unsigned precision_bits);

/// sim_lengths: on small inputs, the construction's formula N_sim against the
/// length it produces and the shortest z that works (formula >= produced >=
/// optimal).
Table table_sim_lengths(const std::filesystem::path& cases_dir);

/// threshold: γ, p, ⌈2^{p/γ}⌉ against the measured first length from which
/// finite:p equals hardmax on every input (ModPTask, exhaustive over
/// statistics).
Table table_threshold();

/// The measured threshold of a one-layer finite:p model: 1 + the largest
/// T < t at which some statistic's last-position representation under
/// finite:p differs (certified) from hardmax, searched downward from t − 1
/// exhaustively over the statistics of each length; 1 when none differs.
/// `undecided` counts comparisons whose enclosures could not be separated.
struct MeasuredThreshold {
  std::uint64_t first_equal = 1;
  std::uint64_t statistics = 0, undecided = 0;
};
MeasuredThreshold measure_threshold(const OneLayerEvaluator& m, unsigned p, std::uint64_t t);

/// One row of the margin sweep (docs/theory.md, "The margin question"): a
/// member of the margin witness family (a pair) or of the counter-family (one
/// model) at (p, γ), with Theorem 4.1's bounds at ε = 1/20 and the exact N_emp
/// where it is reached.
struct MarginSweepRow {
  std::string family;  ///< "margin witness" or "margin counter"
  unsigned p = 0;
  Rational gamma, gamma_v;
  Integer threshold, value_threshold, N_paper, N_sim;
  std::optional<std::uint64_t> N_emp;    ///< witness: first n with D(n) > ε; counter: first length with finite:p = hardmax
  std::uint64_t searched_to = 0;         ///< the longest length whose statistics were all evaluated (0: none)
  std::uint64_t statistics = 0;          ///< statistics evaluated
  std::optional<Integer> witness_lower;  ///< witness family: N = ⌈2^{p/γ}⌉, proved (docs/theory.md)
  bool computed = false;                 ///< the D(n) curve (witness) or the threshold search (counter) ran
  bool zero_below = true;                ///< witness family: D(n) is the exact 0 for every n < N_emp
  bool gap_at_N_emp = false;             ///< witness family: D(N_emp) is exactly η
};
/// The sweep over γ = 1, 1/2, 1/4, 1/8, 1/16 (the counter-family from 1/2) at p = 2, 4, 8.
std::vector<MarginSweepRow> margin_sweep();

/// The sweep's verdicts, (name, "PROVED: …" or "REFUTED: …"), from the exact
/// values: the witness family's N_emp = ⌈2^{p/γ}⌉ with D = 0 below it and
/// D = η at it, and the counter-family's N_emp <= 2^{2p}.
std::vector<std::pair<std::string, std::string>> margin_laws(const std::vector<MarginSweepRow>& rows);

/// margin: the sweep as a table, with a growth-law verdict per family
/// computed from the exact values.
Table table_margin();

/// t42: Theorem 4.2's N₀ against α_min and ε, with the measured constant C
/// of the ε^{1/2} conclusion (the bundled Farey-hat pairs under two priors).
Table table_t42(const std::filesystem::path& cases_dir);

/// t52: the k-gram family: positional margin, C(f) (certified), N_variant_A/B
/// against ε, and the measured simulation error with its fitted exponent.
Table table_t52();

/// A growth claim's verdict: PROVED when N strictly increases along the
/// values, REFUTED with the first step that does not (exact comparisons).
struct GrowthVerdict {
  Verdict verdict;
  std::string detail;
};
GrowthVerdict strictly_increasing(const std::string& parameter, const std::vector<std::string>& values,
                                  const std::vector<Integer>& N);

/// scaling: the paper's qualitative claims (N grows with ω, Δ, S, k), each
/// with a verdict computed from the toolkit's exact bounds.
Table table_scaling(const std::filesystem::path& cases_dir, unsigned precision_bits);

/// teeth: per registered claim, the bundled cases where it is not vacuous,
/// its largest slack ratio and where, and the mutations that must break it.
/// Runs every claim on every bundled case.
Table table_teeth(const std::filesystem::path& cases_dir);

/// The names of the tables `lgcheck table` knows, and the table called `name`.
std::vector<std::string> table_names();
Table make_table(const std::string& name, const std::filesystem::path& cases_dir, unsigned precision_bits);

/// A markdown table cell: '|' escaped so it does not end the cell.
std::string markdown_cell(const std::string& text);
std::string render_markdown(const Table& t);
std::string render_csv(const Table& t);
/// LaTeX with booktabs rules; scientific notation set as a×10^{b}.
std::string render_tex(const Table& t);
std::string render_json(const Table& t);
/// md, csv, tex, json.
std::vector<std::string> table_formats();
std::string render(const Table& t, const std::string& format);

}  // namespace lgc
