// lgcheck bound, simulate, threshold, table: Theorem 4.1 from the command line.
#include "commands.hpp"
#include "output/progress.hpp"

#include "claims/case_models.hpp"
#include "claims/agreement.hpp"
#include "output/cli_output.hpp"
#include "output/plots.hpp"
#include "output/tables.hpp"
#include "claims/section4/theorem41.hpp"
#include "lgcheck/bounds/theorem41.hpp"
#include "lgcheck/enumerate/budget.hpp"
#include "lgcheck/model/case_file.hpp"
#include "lgcheck/quantities/distance.hpp"
#include "lgcheck/quantities/token_merge.hpp"
#include "lgcheck/simulate/simulation_error.hpp"

#include <fmt/format.h>

#include <array>
#include <iostream>
#include <memory>

namespace lgc::cli {
namespace {

struct BoundArgs {
  std::string file, theorem = "4.1", epsilon, c = "1", alpha;
  int precision_bits = -1;
  unsigned log_power = 0;
  bool json = false;
  bool c_given = false;
  bool quiet = false;
};

/// The decimal text of each number. Writing numbers of millions of digits takes seconds each (a threshold
/// 2^{p/γ} at γ = 10^-6): a progress line then says so.
std::vector<std::string> decimal_texts(const std::vector<const Integer*>& numbers, bool quiet) {
  Progress progress("numbers written in decimal", quiet);
  std::vector<std::string> texts;
  for (std::size_t k = 0; k < numbers.size(); ++k) {
    progress.update(k, numbers.size(), fmt::format("{} bits", boost::multiprecision::msb(*numbers[k]) + 1));
    texts.push_back(numbers[k]->str());
  }
  return texts;
}

int cmd_bound(const BoundArgs& a) {
  const BoundInputs in{a.file, a.epsilon, a.c, a.alpha, a.log_power, a.json, a.c_given};
  if (a.theorem == "4.2") return cmd_bound_theorem42(in);
  if (a.theorem == "5.2") return cmd_bound_theorem52(in);
  if (a.theorem != "4.1") throw UsageError("--theorem: one of 4.1, 4.2, 5.2 (got '" + a.theorem + "')");
  Case c = load_case(a.file);
  CaseModels cm = section4_models(c);
  Rational eps = positive_rational_flag("--epsilon", a.epsilon);
  Rational constant = positive_rational_flag("--c", a.c);
  unsigned p = a.precision_bits >= 0 ? static_cast<unsigned>(a.precision_bits) : cm.precision_bits;
  Theorem41Bounds b = theorem41_bounds(cm.models, eps, p, constant);
  if (a.json) {
    const auto big = decimal_texts({&b.threshold, &b.N_paper, &b.N_paper_sum_form, &b.sim.N}, a.quiet);
    print_json({{"theorem", "4.1"},
                {"case", c.name},
                {"epsilon", to_string(b.epsilon)},
                {"c", to_string(b.c)},
                {"gamma", optional_rational(b.gamma)},
                {"L", to_string(b.L)},
                {"period", b.period},
                {"alphabet_size", b.alphabet_size},
                {"locality", b.locality},
                {"tau_hat", b.locality + 1},
                {"heads", b.heads},
                {"precision_bits", b.precision_bits},
                {"threshold", big[0]},
                {"sample_term", to_string(b.sample_term)},
                {"sample_term_sum_form", to_string(b.sample_term_sum_form)},
                {"N_paper", big[1]},
                {"N_paper_sum_form", big[2]},
                {"delta", to_string(b.delta)},
                {"resolution", b.sim.resolution.str()},
                {"attention_patterns", b.sim.patterns},
                {"anchored", b.sim.anchored},
                {"N_sim_formula", b.sim.formula},
                {"N_sim_epsilon_exponent", b.sim.epsilon_exponent},
                {"N_sim", big[3]}});
    return 0;
  }
  std::cout << fmt::format(
      "Theorem 4.1 bounds for {} at epsilon = {}\n\n"
      "ingredients\n"
      "  gamma (logit margin)        {}\n"
      "  L (norm constant)           {}\n"
      "  S, Delta, tau (tau_hat)     {}, {}, {} ({})\n"
      "  precision bits p            {}\n"
      "  c (the O(.) constant)       {}\n"
      "  threshold ceil(2^(p/gamma)) {}\n"
      "  L^2 D^7 S^6 tau_hat^2/eps^2 {}\n"
      "  L^2 D^7 (S^3+tau_hat)^2/eps^2 {}\n\n"
      "bounds\n"
      "  N_paper             {}\n"
      "  N_paper_sum_form    {}\n"
      "  N_sim               {}   (delta = eps/L = {}, Q = {}, {}; grows like eps^-{})\n",
      c.name, to_string(b.epsilon), b.gamma ? to_string(*b.gamma) : "inf", to_string(b.L), b.alphabet_size, b.period,
      b.locality, b.locality + 1, b.precision_bits == 0 ? std::string("none (hardmax)") : std::to_string(b.precision_bits),
      readable(b.c), readable(b.threshold), readable(b.sample_term), readable(b.sample_term_sum_form),
      readable(b.N_paper), readable(b.N_paper_sum_form), readable(b.sim.N), readable(b.delta),
      readable(b.sim.resolution), b.sim.formula, b.sim.epsilon_exponent);
  return 0;
}

struct SimulateArgs {
  std::string file, input, epsilon;
  std::uint64_t random_length = 0, seed = 1, optimal_up_to = 64, length = 0;
  bool json = false, quiet = false;
};

int cmd_simulate(const SimulateArgs& a) {
  Case c = load_case(a.file);
  if (c.model().semantics.kind == Semantics::Kind::Softmax)
    return cmd_simulate_softmax(c, {a.file, a.input, a.epsilon, a.random_length, a.seed, a.length, 8, a.json, a.quiet});
  CaseModels cm = section4_models(c);
  const Model& f = c.models.front();
  Rational eps = positive_rational_flag("--epsilon", a.epsilon);
  if (a.input.empty() == (a.random_length == 0)) throw UsageError("give exactly one of --input STR and --random T");
  const Shape shape = shape_of(f);
  Statistic x;
  if (!a.input.empty()) {
    x = statistic_of(shape, input_flag(f, a.input));
  } else {
    std::mt19937_64 rng(a.seed);
    x = random_statistic(shape, a.random_length, rng);
  }
  Theorem41Bounds b = theorem41_bounds(cm.models, eps, cm.precision_bits);
  SimulationOutcome out = simulate_and_measure(cm.models, x, eps, b.delta, cm.precision_bits, b.threshold);
  const Statistic& z = out.simulation.z;
  // On small inputs, the shortest z that works, for formula >= produced >= optimal.
  std::optional<Statistic> optimal;
  if (x.length <= a.optimal_up_to && cm.precision_bits == 0)
    optimal = shortest_simulation(cm.models, x, eps, 0, std::min<std::uint64_t>(x.length, z.length));
  if (a.json) {
    nlohmann::json j = {{"length_x", x.length},
                        {"length_z", z.length},
                        {"attention_distance", to_string(out.attention_distance)},
                        {"delta", to_string(b.delta)},
                        {"error", number_json(out.error)},
                        {"epsilon", to_string(eps)},
                        {"within_epsilon", out.within ? nlohmann::json(*out.within) : nlohmann::json(nullptr)},
                        {"N_sim", b.sim.N.str()},
                        {"semantics", cm.precision_bits ? "finite:" + std::to_string(cm.precision_bits) : "hardmax"}};
    if (z.length <= 10000) j["z"] = format_input(f, string_of(shape, z));
    if (optimal) j["length_optimal"] = optimal->length;
    print_json(j);
  } else {
    std::cout << fmt::format(
        "x: {}\nz: {}\n|x| = {}, |z| = {} (N_sim = {})\nattention distance max_h |w_h(x) - w_h(z)|_1 = {} (delta = {})\n"
        "error |f(x) - f(z)| = {}  {} epsilon = {}\n",
        describe(shape, x, f), describe(shape, z, f), x.length, z.length, readable(b.sim.N),
        readable(out.attention_distance), readable(b.delta), readable(out.error),
        out.within ? (*out.within ? "<=" : ">") : "undecided against", to_string(eps));
    if (!out.shortened) std::cout << "(x is below the finite:p threshold " << readable(b.threshold) << ": z = x)\n";
    if (optimal)
      std::cout << fmt::format("shortest z that works: |z| = {} ({}); formula {} >= produced {} >= optimal {}\n",
                               optimal->length, describe(shape, *optimal, f), readable(b.sim.N), z.length, optimal->length);
  }
  return out.within && *out.within ? 0 : (out.within ? 1 : 3);
}

struct ThresholdArgs {
  std::string file, epsilon, method = "auto";
  std::uint64_t max_length = 20;
  bool json = false, quiet = false, no_merge = false;
};

/// `--method auto` takes the bounded curve when one of the last 2Δ lengths keeps more reduced statistics than this:
/// below, building each group's bounds costs more than evaluating them (Farey-hat n = 4: the two break even near
/// length 1000, where a length keeps about 2000).
constexpr std::uint64_t kBoundedFrom = 2000;

/// The curve `lgcheck threshold` computes: finite:p weighs every class, so every statistic ("every statistic");
/// hardmax the reduced statistics ("reduced", theory.md "The reduced curve") or the branch and bound over them
/// ("bounded", "The bounded curve"), which "auto" takes where it applies (numbers within 64 bits) and one of the last
/// 2Δ lengths keeps more than kBoundedFrom reduced statistics.
std::string threshold_method(const OneLayerEvaluator& f, const OneLayerEvaluator& g, unsigned precision_bits,
                             const std::string& asked, std::uint64_t max_length) {
  if (precision_bits != 0) {
    if (asked != "auto" && asked != "every")
      throw UsageError("--method " + asked + ": a finite:p pair evaluates every statistic (--method every or auto)");
    return "every statistic";
  }
  if (asked == "every") return "every statistic";
  const bool bounded = bounded_curve_applies(f, g);
  if (asked == "bounded" && !bounded)
    throw UsageError("--method bounded: a model has numbers beyond 64 bits, or the readouts differ in size (use "
                     "reduced or auto)");
  if (asked == "bounded") return "bounded";
  if (asked == "reduced" || !bounded) return "reduced";
  // The last 2Δ lengths: a length can have no fresh statistic at all while the next residue's has many.
  const std::uint64_t period = f.shape().period;
  for (std::uint64_t n = max_length; n > 0 && n + 2 * period > max_length; --n)
    if (reduced_statistic_count(f, g, n) > kBoundedFrom) return "bounded";
  return "reduced";
}

std::string method_text(const std::string& method, const DistanceCurve& curve) {
  if (method == "reduced") return "the reduced ones";
  if (method == "bounded")
    return fmt::format(
        "the branch and bound's, {} boxes bounded, {} of them skipped, {} group searches by values, {} walked, {} "
        "lengths of one-valued groups skipped",
        curve.boxes_bounded, curve.boxes_pruned, curve.value_searches, curve.groups_walked, curve.one_valued_skips);
  return "every statistic";
}

/// N_emp(ε) and what it means: the least n with D(n) > ε, none up to the curve's reach, or the first length n at
/// which D(n) is not separated from ε (`undecided_at`, 0 when none).
std::string n_emp_text(const DistanceCurve& curve, const Rational& eps, std::optional<std::uint64_t> n_emp,
                       std::uint64_t undecided_at) {
  if (n_emp) return fmt::format("{} (the least n with D(n) > {})", *n_emp, to_string(eps));
  if (undecided_at > 0)
    return fmt::format("undecided (D({}) = {} is not separated from {})", undecided_at,
                       readable(curve.D.at(undecided_at - 1)), to_string(eps));
  return fmt::format("not reached (D(n) <= {} for every n <= {})", to_string(eps), curve.reached);
}

/// The pair whose curve `threshold` computes: the case's models with merged tokens dropped (the case's own evaluators
/// when nothing merges).
class MergedPair {
 public:
  MergedPair(const Case& c, const CaseModels& cm, const TokenMerge& merge) : cm_(cm) {
    if (!merge.merges()) return;
    for (std::size_t i = 0; i < 2; ++i) models_[i] = merged_model(c.models[i], merge);
    for (std::size_t i = 0; i < 2; ++i) evaluators_[i] = std::make_unique<OneLayerEvaluator>(models_[i]);
  }
  const OneLayerEvaluator& f() const { return evaluators_[0] ? *evaluators_[0] : *cm_.models[0]; }
  const OneLayerEvaluator& g() const { return evaluators_[1] ? *evaluators_[1] : *cm_.models[1]; }
  MergedPair(const MergedPair&) = delete;  // the evaluators refer to models_
  MergedPair& operator=(const MergedPair&) = delete;

 private:
  const CaseModels& cm_;
  std::array<Model, 2> models_;
  std::array<std::unique_ptr<OneLayerEvaluator>, 2> evaluators_;
};

/// {"c": "b", ...}: each merged-away token and the token standing for it.
nlohmann::json merged_tokens_json(const Model& m, const TokenMerge& merge) {
  nlohmann::json j = nlohmann::json::object();
  for (const auto& [token, as] : merged_away(merge)) j[m.alphabet[token]] = m.alphabet[as];
  return j;
}

/// "c as b, d as a": the same for the text output.
std::string merged_tokens_text(const Model& m, const TokenMerge& merge) {
  std::string text;
  for (const auto& [token, as] : merged_away(merge))
    text += (text.empty() ? "" : ", ") + m.alphabet[token] + " as " + m.alphabet[as];
  return text;
}

int cmd_threshold(const ThresholdArgs& a) {
  Case c = load_case(a.file);
  if (!c.is_pair) throw UsageError(a.file + ": threshold takes a pair case");
  CaseModels cm = section4_models(c);
  Rational eps = positive_rational_flag("--epsilon", a.epsilon);
  BudgetScope budget;  // --budget counts from here
  std::string stopped;  // the budget's message when it ended the curve early: D(n) so far is printed
  Progress progress("lengths", a.quiet);
  // A hardmax pair's tokens of one embedding row in both models merged (theory.md "Indistinguishable tokens"): the
  // same D(n). Not finite:p, whose inexact weights are enclosed per class: a merged class's enclosure may differ.
  const TokenMerge merge = a.no_merge || cm.precision_bits != 0
                               ? every_token(c.models[0].alphabet_size())
                               : indistinguishable_tokens({&c.models[0], &c.models[1]});
  const MergedPair merged(c, cm, merge);
  const OneLayerEvaluator &f = merged.f(), &g = merged.g();
  const std::string method = threshold_method(f, g, cm.precision_bits, a.method, a.max_length);
  auto on_length = [&](std::uint64_t n, std::uint64_t N) { progress.update(n - 1, N, fmt::format("D({})", n)); };
  DistanceCurve curve =
      method == "bounded" ? bounded_distance_curve(f, g, a.max_length, 2000000, 0, &stopped, on_length)
      : method == "reduced"
          ? reduced_distance_curve(f, g, a.max_length, 2000000, 0, &stopped, on_length)
          : distance_curve(f, g, a.max_length, cm.precision_bits, 2000000, 0, &stopped, on_length);
  progress.clear();
  unmerge_curve(curve, merge, cm.models[0]->shape().period);
  DistanceBracket bracket = distance_bracket(cm, curve);
  std::uint64_t undecided_at = 0;
  std::optional<std::uint64_t> n_emp = measured_threshold(curve, eps, &undecided_at);
  if (a.json) {
    nlohmann::json d = nlohmann::json::array();
    for (std::size_t k = 0; k < curve.D.size(); ++k) d.push_back({k + 1, number_json(curve.D[k])});
    print_json({{"D", d},
                {"N_emp", n_emp ? nlohmann::json(*n_emp) : nlohmann::json(nullptr)},
                {"N_emp_undecided", undecided_at > 0},
                {"epsilon", to_string(eps)},
                {"reached", curve.reached},
                {"statistics", curve.statistics},
                {"method", method},
                {"boxes_bounded", curve.boxes_bounded},
                {"boxes_pruned", curve.boxes_pruned},
                {"groups_walked", curve.groups_walked},
                {"value_searches", curve.value_searches},
                {"one_valued_skips", curve.one_valued_skips},
                {"merged_tokens", merged_tokens_json(c.models[0], merge)},
                {"D_inf_lower", number_json(bracket.lower)},
                {"D_inf_upper", bracket.upper ? nlohmann::json(to_string(*bracket.upper)) : nlohmann::json(nullptr)},
                {"D_inf_upper_source", bracket.upper_source},
                {"partial", !stopped.empty()},
                {"stopped", stopped.empty() ? nlohmann::json(nullptr) : nlohmann::json(stopped)}});
    return stopped.empty() ? 0 : 3;
  }
  std::cout << fmt::format("D(n) = max over |x| <= n of |f(x) - g(x)| for {} ({} statistics evaluated: {})\n", c.name,
                           curve.statistics, method_text(method, curve));
  if (merge.merges())
    std::cout << fmt::format("  (tokens merged, the same embedding row in both models: {}; D(n) is the same over the kept "
                             "tokens' strings)\n",
                             merged_tokens_text(c.models[0], merge));
  for (std::size_t k = 0; k < curve.D.size(); ++k) std::cout << fmt::format("  D({}) = {}\n", k + 1, readable(curve.D[k]));
  if (!stopped.empty())
    std::cout << fmt::format("  (partial: stopped after n = {}: {}; raise --budget for more)\n", curve.reached, stopped);
  else if (curve.reached < a.max_length)
    std::cout << fmt::format("  (stopped at n = {}: longer lengths exceed the statistic budget)\n", curve.reached);
  std::cout << fmt::format("N_emp({}) = {}\nbracket: {} <= D_inf <= {}  ({})\n", to_string(eps),
                           n_emp_text(curve, eps, n_emp, undecided_at), readable(bracket.lower),
                           bracket.upper ? show_upper(*bracket.upper) : "unknown",
                           bracket.upper ? bracket.upper_source : "no certified upper bound");
  return stopped.empty() ? 0 : 3;
}

struct PlotArgs {
  std::string name, out, cases;
  bool script = false;
};

int cmd_plot(const PlotArgs& a) {
  const std::string ext = std::filesystem::path(a.out).extension().string();
  if (ext != ".svg" && ext != ".png") throw UsageError("--out: the file must end in .svg or .png, got '" + a.out + "'");
  const Plot plot = make_plot(a.name, bundled_cases_dir(a.cases));
  if (a.script) {
    std::cout << gnuplot_script(plot, a.out);
    return 0;
  }
  try {
    render_plot(plot, a.out);
  } catch (const std::runtime_error& e) {
    throw UsageError(std::string("plot: ") + e.what());
  }
  std::cout << "wrote " << a.out << "\n";
  return 0;
}

struct TableArgs {
  std::string name, format = "md", out, cases;
  unsigned precision_bits = 8;
  bool quiet = false;
};

int cmd_table(const TableArgs& a) {
  Progress progress("steps", a.quiet);  // the long tables (teeth, t42) report through the sink
  const ProgressSinkScope drawn(progress);
  Table t = make_table(a.name, bundled_cases_dir(a.cases), a.precision_bits);
  progress.clear();
  std::string text = render(t, a.format);
  if (a.out.empty()) std::cout << text;
  else write_text_atomically(a.out, text);
  return 0;
}

}  // namespace

Command add_bound(CLI::App& app) {
  auto a = std::make_shared<BoundArgs>();
  auto* sub = app.add_subcommand("bound", "Evaluate a theorem's length bound N with every ingredient");
  add_command_budget_option(sub);
  sub->add_option("CASE", a->file, "model or pair case")->required();
  sub->add_option("--theorem", a->theorem, "the theorem: 4.1, 4.2 or 5.2 (two-layer softmax: C(f), N_variant_A/B)")
      ->capture_default_str();
  sub->add_option("--epsilon", a->epsilon, "the accuracy epsilon (exact rational, e.g. 1/20)")->required();
  sub->add_option("--precision-bits", a->precision_bits,
                  "p for the 2^(p/gamma) term (default: the case's finite:p, none for hardmax)")
      ->check(non_negative_integer());
  sub->add_option("--c", a->c,
                  "4.1, 4.2: the constant hidden in the paper's O(.); 5.2: Lemma 5.3's constant c in C(f) (default: "
                  "the case's subsample_constant, else 1)")
      ->capture_default_str()
      ->each([a](const std::string&) { a->c_given = true; });
  sub->add_option("--alpha", a->alpha, "4.2: the Dirichlet prior, e.g. 1,1/2 (default: the case's dirichlet_alpha)");
  sub->add_option("--log-power", a->log_power, "4.2: the power k of (1 + ln(1/eps)) in N0")->capture_default_str()
      ->check(CLI::Range(0, 16));
  sub->add_flag("--json", a->json, "print a JSON object (keys: docs/cli.md)");
  sub->add_flag("--quiet", a->quiet,
                "no progress line on stderr (4.1 --json: shown on a terminal when writing numbers of millions of "
                "digits takes over 2 s)");
  return {sub, [a] { return cmd_bound(*a); }};
}

Command add_simulate(CLI::App& app) {
  auto a = std::make_shared<SimulateArgs>();
  auto* sub = app.add_subcommand(
      "simulate", "Build the short z that imitates x: Theorem 4.1's construction (hardmax, finite:p), Lemma 5.3's "
                  "Markov subsampler (softmax)");
  add_command_budget_option(sub);
  sub->add_option("CASE", a->file, "one-layer model or pair case; a softmax model of one or two layers")->required();
  sub->add_option("--length", a->length, "softmax: the target length n of z (default |x|/10)");
  sub->add_option("--input", a->input, "the long input x (@FILE reads it from a file, - from standard input)");
  sub->add_option("--random", a->random_length, "a random x of this length instead (a statistic; softmax: a string)");
  sub->add_option("--seed", a->seed, "seed of --random")->capture_default_str();
  sub->add_option("--epsilon", a->epsilon, "the accuracy epsilon")->required();
  sub->add_option("--optimal-up-to", a->optimal_up_to,
                  "also search the shortest z that works when |x| is at most this (hardmax)")
      ->capture_default_str();
  sub->add_flag("--json", a->json, "print a JSON object (keys: docs/cli.md)");
  sub->add_flag("--quiet", a->quiet, "no progress line on stderr (it is shown only on a terminal, after 2 s)");
  return {sub, [a] { return cmd_simulate(*a); }};
}

Command add_threshold(CLI::App& app) {
  auto a = std::make_shared<ThresholdArgs>();
  auto* sub = app.add_subcommand("threshold", "D(n) of a pair exactly, N_emp(eps) and the bracket on D_inf");
  add_threads_option(sub);
  add_budget_option(sub);
  sub->add_option("PAIR", a->file, "pair case")->required();
  sub->add_option("--epsilon", a->epsilon, "the accuracy epsilon")->required();
  sub->add_option("--max-length", a->max_length, "compute D(n) for n = 1..N")
      ->capture_default_str()->check(CLI::Range(1, 100000));
  sub->add_flag("--quiet", a->quiet, "no progress line on stderr (it is shown only on a terminal, after 2 s)");
  sub->add_option("--method", a->method,
                  "how D(n) is computed, the same D(n) each way: every (every statistic), reduced (hardmax: "
                  "the reduced statistics), bounded (hardmax, numbers within 64 bits: branch and bound over the "
                  "reduced statistics' counts), auto (bounded where it applies and one of the lengths N - 2D + 1..N "
                  "keeps more than 2000 reduced statistics, else reduced for hardmax; every for finite:p)")
      ->capture_default_str()->check(CLI::IsMember({"auto", "every", "reduced", "bounded"}));
  sub->add_flag("--no-merge", a->no_merge,
                "keep every token: by default a hardmax pair's tokens with the same embedding row in both models are "
                "merged (they enter the forward pass alike, so D(n) is the same Number over the kept tokens' strings; "
                "docs/theory.md \"Indistinguishable tokens\")");
  sub->add_flag("--json", a->json, "print a JSON object (keys: docs/cli.md)");
  return {sub, [a] { return cmd_threshold(*a); }};
}

Command add_plot(CLI::App& app) {
  auto a = std::make_shared<PlotArgs>();
  auto* sub = app.add_subcommand(
      "plot", "Draw a plot through gnuplot: n_vs_omega, n_vs_delta, n_vs_k (the bounds against the task parameter, log "
              "axes), n_vs_farey (bounds, measured threshold and witness), n_vs_inverse_margin (the margin sweep against "
              "1/gamma), subsample (Lemma 5.3's error against n with "
              "the n^-1/3 reference), distance (D(n) of pair cases)");
  add_command_budget_option(sub);
  sub->add_option("NAME", a->name, "the plot")->required()->check(CLI::IsMember(plot_names()));
  sub->add_option("--out", a->out, "the image: FILE.svg or FILE.png")->required();
  sub->add_option("--cases", a->cases, "the bundled cases directory (default: the cases/ beside the executable's "
                                      "build directory, else ./cases)");
  sub->add_flag("--script", a->script, "print the gnuplot script (data inline) instead of running gnuplot");
  return {sub, [a] { return cmd_plot(*a); }};
}

Command add_table(CLI::App& app) {
  auto a = std::make_shared<TableArgs>();
  auto* sub = app.add_subcommand(
      "table", "Compute a table from the bundled cases and the toolkit's builders: t41 (Theorem 4.1's N), threshold "
               "(the hardmax threshold, measured), margin (the margin sweep: witness and counter families against "
               "1/gamma), t42 (Theorem 4.2's N0), t52 (C(f) on the k-gram family), scaling "
               "(the paper's growth claims with verdicts), sim_lengths (the construction's lengths), teeth (per claim: "
               "non-vacuous cases, largest slack ratio, mutations; runs every bundled case)");
  add_threads_option(sub);
  add_command_budget_option(sub);
  sub->add_option("NAME", a->name, "the table")->required()->check(CLI::IsMember(table_names()));
  sub->add_option("--format", a->format,
                  "md (Markdown), csv, tex (LaTeX, booktabs) or json (the exact values: integers in full, rationals "
                  "as fractions)")
      ->capture_default_str()->check(CLI::IsMember(table_formats()));
  sub->add_option("--out", a->out, "write to this file instead of stdout");
  sub->add_option("--cases", a->cases, "the bundled cases directory (default: the cases/ beside the executable's "
                                      "build directory, else ./cases)");
  sub->add_option("--precision-bits", a->precision_bits, "p for the 2^(p/gamma) term")->capture_default_str();
  sub->add_flag("--quiet", a->quiet, "no progress line on stderr (it is shown only on a terminal, after 2 s)");
  return {sub, [a] { return cmd_table(*a); }};
}

}  // namespace lgc::cli
