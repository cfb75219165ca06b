// lgcheck: the command-line driver. Subcommands info, eval, margin, check, gen.
#include "case_models.hpp"
#include "claim.hpp"
#include "cli_output.hpp"
#include "suite.hpp"
#include "tables.hpp"

#include <fstream>

#include "lgcheck/model/case_file.hpp"
#include "lgcheck/model/input.hpp"
#include "lgcheck/bounds/theorem41.hpp"
#include "lgcheck/quantities/distance.hpp"
#include "lgcheck/quantities/logit_margin.hpp"
#include "theorem41.hpp"
#include "lgcheck/simulate/simulation_error.hpp"
#include "lgcheck/semantics/forward.hpp"
#include "lgcheck/tasks/paper_tasks.hpp"

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include <iostream>

namespace lgc {
namespace {

constexpr int kExitUsage = 2;

/// A refusal of the command line: printed as "lgcheck: <where>: <what>".
struct UsageError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

void print_json(const nlohmann::json& j) { std::cout << j.dump(2) << "\n"; }

nlohmann::json model_info(const Model& m) {
  nlohmann::json heads = nlohmann::json::array();
  nlohmann::json mlps = nlohmann::json::array();
  for (const auto& l : m.layers) {
    heads.push_back(l.heads.size());
    mlps.push_back(l.mlp ? l.mlp->in.rows() : 0);
  }
  return {{"name", m.name},
          {"description", m.description},
          {"alphabet", m.alphabet},
          {"alphabet_size", m.alphabet_size()},
          {"period", m.period},
          {"locality", m.locality},
          {"width", m.width},
          {"layers", m.layers.size()},
          {"heads", heads},
          {"mlp_hidden_units", mlps},
          {"outputs", m.outputs()},
          {"readout", m.readout.sin_omega ? "sin(" + to_string(*m.readout.sin_omega) + " * .)" : "identity"},
          {"semantics", m.semantics.str()}};
}

std::string model_info_text(const Model& m) {
  std::string heads;
  for (const auto& l : m.layers) heads += (heads.empty() ? "" : ", ") + std::to_string(l.heads.size());
  std::string alphabet;
  for (const auto& s : m.alphabet) alphabet += (alphabet.empty() ? "" : " ") + s;
  return fmt::format(
      "name:        {}\ndescription: {}\nalphabet:    {{{}}} (S = {})\nperiod:      {}\nlocality:    {}\n"
      "width:       {}\nlayers:      {} (heads per layer: {})\noutputs:     {}{}\nsemantics:   {}\n",
      m.name, m.description, alphabet, m.alphabet_size(), m.period, m.locality, m.width, m.layers.size(), heads,
      m.outputs(), m.readout.sin_omega ? ", sin(" + to_string(*m.readout.sin_omega) + " * .) readout" : "",
      m.semantics.str());
}

int cmd_info(const std::string& file, bool json) {
  Case c = load_case(file);
  if (json) {
    nlohmann::json j = model_info(c.model());
    j["name"] = c.name;
    if (c.is_pair) j["pair"] = {model_info(c.models[0]), model_info(c.models[1])};
    print_json(j);
  } else if (c.is_pair) {
    std::cout << "pair case " << c.name << "\n\n[f]\n" << model_info_text(c.models[0]) << "\n[g]\n"
              << model_info_text(c.models[1]);
  } else {
    std::cout << model_info_text(c.model());
  }
  return 0;
}

struct EvalArgs {
  std::string file, input, semantics;
  bool json = false, all_positions = false;
  unsigned precision = kDefaultPrecisionBits, budget = 4096;
};

Semantics semantics_flag(const std::string& text) {
  try {
    return Semantics::parse(text);
  } catch (const std::invalid_argument& e) {
    throw UsageError(std::string("--semantics: ") + e.what());
  }
}

int cmd_eval(const EvalArgs& a) {
  Case c = load_case(a.file);
  if (c.is_pair) throw UsageError(a.file + ": eval takes a model case, not a pair");
  const Model& m = c.model();
  Tokens x;
  try {
    x = parse_input(m, a.input);
  } catch (const InputError& e) {
    throw UsageError(std::string("--input: ") + e.what());
  }
  ForwardOptions options{a.semantics.empty() ? m.semantics : semantics_flag(a.semantics), a.precision, a.budget};
  std::vector<Output> outputs = a.all_positions ? evaluate_all(m, x, options) : std::vector<Output>{evaluate(m, x, options)};
  const Output& last = outputs.back();
  bool exact = true;
  for (const auto& o : outputs) exact = exact && is_exact(o);
  if (a.json) {
    nlohmann::json out = nlohmann::json::array();
    for (const auto& v : last) out.push_back(number_json(v));
    nlohmann::json j = {{"semantics", options.semantics.str()}, {"exact", exact}, {"output", out},
                        {"length", x.size()}, {"precision_bits", options.precision_bits}};
    if (a.all_positions) {
      nlohmann::json all = nlohmann::json::array();
      for (const auto& o : outputs) {
        nlohmann::json row = nlohmann::json::array();
        for (const auto& v : o) row.push_back(number_json(v));
        all.push_back(row);
      }
      j["positions"] = all;
    }
    print_json(j);
    return 0;
  }
  std::cout << fmt::format("{} on \"{}\" (T = {}, {} semantics):\n", m.name, format_input(m, x), x.size(),
                           options.semantics.str());
  for (std::size_t i = 0; i < outputs.size(); ++i) {
    std::size_t position = a.all_positions ? i + 1 : x.size();
    for (std::size_t k = 0; k < outputs[i].size(); ++k)
      std::cout << fmt::format("  f(x_1..{})[{}] = {}{}\n", position, k, number_text(outputs[i][k]),
                               outputs[i][k].is_exact() ? "  (exact)" : "  (certified enclosure)");
  }
  return 0;
}

/// γ of a model case, or min(γ(f), γ(g)) of a pair with the attaining model.
int cmd_margin(const std::string& file, bool json) {
  Case c = load_case(file);
  for (const auto& m : c.models)
    if (m.semantics.kind == Semantics::Kind::Softmax)
      throw UsageError(file + ": the positional margin of softmax models is not implemented yet (Section 5)");
  std::size_t which = 0;
  LogitMargin lm = logit_margin(c.models[0]);
  if (c.is_pair) {
    LogitMargin second = logit_margin(c.models[1]);
    if (second.gamma && (!lm.gamma || *second.gamma < *lm.gamma)) {
      lm = second;
      which = 1;
    }
  }
  const Model& m = c.models[which];
  if (json) {
    nlohmann::json j = {{"logit_margin", lm.gamma ? to_string(*lm.gamma) : "inf"}};
    if (lm.witness) {
      j["witness"] = {{"head", lm.witness->head},
                      {"query_token", m.alphabet[static_cast<std::size_t>(lm.witness->query_token)]},
                      {"query_residue", lm.witness->query_residue},
                      {"logits", {to_string(lm.witness->lower), to_string(lm.witness->upper)}}};
      if (c.is_pair) j["witness"]["model"] = which == 0 ? "f" : "g";
    }
    print_json(j);
  } else if (!lm.gamma) {
    std::cout << "logit margin gamma = inf (no head has two distinct attainable logits)\n";
  } else {
    const auto& w = *lm.witness;
    std::cout << fmt::format("logit margin gamma = {}\n  attained by {}head {} at query token {}, residue {}: logits {} and {}\n",
                             to_string(*lm.gamma), c.is_pair ? (which == 0 ? "f, " : "g, ") : "", w.head,
                             m.alphabet[static_cast<std::size_t>(w.query_token)], w.query_residue, to_string(w.lower),
                             to_string(w.upper));
  }
  return 0;
}

Rational rational_flag(const std::string& flag, const std::string& text) {
  try {
    return parse_rational(text);
  } catch (const ParseError& e) {
    throw UsageError(flag + ": " + e.what());
  }
}

struct BoundArgs {
  std::string file, theorem = "4.1", epsilon, c = "1";
  int precision_bits = -1;
  bool json = false;
};

nlohmann::json optional_rational(const std::optional<Rational>& q) {
  return q ? nlohmann::json(to_string(*q)) : nlohmann::json("inf");
}

int cmd_bound(const BoundArgs& a) {
  if (a.theorem != "4.1") throw UsageError("--theorem: only 4.1 is implemented so far (4.2 and 5.2 are not yet)");
  Case c = load_case(a.file);
  CaseModels cm = section4_models(c);
  Rational eps = rational_flag("--epsilon", a.epsilon);
  if (eps <= 0) throw UsageError("--epsilon: expected a positive number, got " + a.epsilon);
  Rational constant = rational_flag("--c", a.c);
  if (constant <= 0) throw UsageError("--c: expected a positive number, got " + a.c);
  unsigned p = a.precision_bits >= 0 ? static_cast<unsigned>(a.precision_bits) : cm.precision_bits;
  Theorem41Bounds b = theorem41_bounds(cm.models, eps, p, constant);
  if (a.json) {
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
                {"threshold", b.threshold.str()},
                {"sample_term", to_string(b.sample_term)},
                {"sample_term_unloosened", to_string(b.sample_term_unloosened)},
                {"N_paper", b.N_paper.str()},
                {"N_paper_unloosened", b.N_paper_unloosened.str()},
                {"delta", to_string(b.delta)},
                {"resolution", b.sim.resolution.str()},
                {"attention_patterns", b.sim.patterns},
                {"anchored", b.sim.anchored},
                {"N_sim_formula", b.sim.formula},
                {"N_sim", b.sim.N.str()}});
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
      "  N_paper_unloosened  {}\n"
      "  N_sim               {}   (delta = eps/L = {}, Q = {}, {})\n",
      c.name, to_string(b.epsilon), b.gamma ? to_string(*b.gamma) : "inf", to_string(b.L), b.alphabet_size, b.period,
      b.locality, b.locality + 1, b.precision_bits == 0 ? std::string("none (hardmax)") : std::to_string(b.precision_bits),
      to_string(b.c), b.threshold.str(), to_string(b.sample_term), to_string(b.sample_term_unloosened), b.N_paper.str(),
      b.N_paper_unloosened.str(), b.sim.N.str(), to_string(b.delta), b.sim.resolution.str(), b.sim.formula);
  return 0;
}

struct SimulateArgs {
  std::string file, input, epsilon;
  std::uint64_t random_length = 0, seed = 1, optimal_up_to = 64;
  bool json = false;
};

int cmd_simulate(const SimulateArgs& a) {
  Case c = load_case(a.file);
  CaseModels cm = section4_models(c);
  const Model& f = c.models.front();
  Rational eps = rational_flag("--epsilon", a.epsilon);
  if (eps <= 0) throw UsageError("--epsilon: expected a positive number, got " + a.epsilon);
  if (a.input.empty() == (a.random_length == 0)) throw UsageError("give exactly one of --input STR and --random T");
  const Shape shape = shape_of(f);
  Statistic x;
  if (!a.input.empty()) {
    try {
      x = statistic_of(shape, parse_input(f, a.input));
    } catch (const InputError& e) {
      throw UsageError(std::string("--input: ") + e.what());
    }
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
        describe(shape, x, f), describe(shape, z, f), x.length, z.length, b.sim.N.str(), to_string(out.attention_distance),
        to_string(b.delta), number_text(out.error),
        out.within ? (*out.within ? "<=" : ">") : "undecided against", to_string(eps));
    if (!out.shortened) std::cout << "(x is below the finite:p threshold " << b.threshold << ": z = x)\n";
    if (optimal)
      std::cout << fmt::format("shortest z that works: |z| = {} ({}); formula {} >= produced {} >= optimal {}\n",
                               optimal->length, describe(shape, *optimal, f), b.sim.N.str(), z.length, optimal->length);
  }
  return out.within && *out.within ? 0 : (out.within ? 1 : 3);
}

struct ThresholdArgs {
  std::string file, epsilon;
  std::uint64_t max_length = 20;
  bool json = false;
};

int cmd_threshold(const ThresholdArgs& a) {
  Case c = load_case(a.file);
  if (!c.is_pair) throw UsageError(a.file + ": threshold takes a pair case");
  CaseModels cm = section4_models(c);
  Rational eps = rational_flag("--epsilon", a.epsilon);
  if (eps <= 0) throw UsageError("--epsilon: expected a positive number, got " + a.epsilon);
  DistanceCurve curve = distance_curve(*cm.models[0], *cm.models[1], a.max_length, cm.precision_bits);
  DistanceBracket bracket = distance_bracket(cm, curve, a.max_length);
  bool undecided = false;
  std::optional<std::uint64_t> n_emp = measured_threshold(curve, eps, &undecided);
  if (a.json) {
    nlohmann::json d = nlohmann::json::array();
    for (std::size_t k = 0; k < curve.D.size(); ++k) d.push_back({k + 1, number_json(curve.D[k])});
    print_json({{"D", d},
                {"N_emp", n_emp ? nlohmann::json(*n_emp) : nlohmann::json(nullptr)},
                {"N_emp_undecided", undecided},
                {"epsilon", to_string(eps)},
                {"reached", curve.reached},
                {"statistics", curve.statistics},
                {"D_inf_lower", number_json(bracket.lower)},
                {"D_inf_upper", bracket.upper ? nlohmann::json(to_string(*bracket.upper)) : nlohmann::json(nullptr)},
                {"D_inf_upper_source", bracket.upper_source}});
    return 0;
  }
  std::cout << fmt::format("D(n) = max over |x| <= n of |f(x) - g(x)| for {} ({} statistics)\n", c.name, curve.statistics);
  for (std::size_t k = 0; k < curve.D.size(); ++k) std::cout << fmt::format("  D({}) = {}\n", k + 1, number_text(curve.D[k]));
  if (curve.reached < a.max_length)
    std::cout << fmt::format("  (stopped at n = {}: longer lengths exceed the statistic budget)\n", curve.reached);
  std::cout << fmt::format("N_emp({}) = {}\nbracket: {} <= D_inf <= {}{}\n", to_string(eps),
                           n_emp ? std::to_string(*n_emp) : (undecided ? "undecided" : "not reached"),
                           number_text(bracket.lower), bracket.upper ? to_string(*bracket.upper) : "unknown",
                           bracket.upper ? "  (" + bracket.upper_source + ")" : "");
  return 0;
}

struct TableArgs {
  std::string name, format = "md", out, cases = "cases";
  unsigned precision_bits = 8;
};

int cmd_table(const TableArgs& a) {
  Table t = table_t41(a.cases, a.precision_bits);
  std::string text = a.format == "json" ? render_json(t) : render_markdown(t);
  if (a.out.empty()) {
    std::cout << text;
    return 0;
  }
  std::filesystem::path tmp = a.out + ".tmp";
  {
    std::ofstream file(tmp);
    if (!file) throw UsageError("--out: cannot write " + a.out);
    file << text;
  }
  std::filesystem::rename(tmp, a.out);
  return 0;
}

int cmd_check(const std::vector<std::string>& paths, const std::string& glob, bool json) {
  std::vector<Case> cases;
  for (const auto& file : collect_case_files(paths)) cases.push_back(load_case(file));  // all validated first
  std::vector<ClaimResult> results;
  for (const auto& c : cases) {
    auto r = check_case(c, glob);
    results.insert(results.end(), r.begin(), r.end());
  }
  if (json) print_json(results_json(results));
  else std::cout << results_table(results);
  return exit_code(summarise(results));
}

nlohmann::json json_flag(const std::string& flag, const std::string& text) {
  if (text.empty()) return nlohmann::json::object();
  try {
    return nlohmann::json::parse(text);
  } catch (const nlohmann::json::parse_error& e) {
    throw UsageError(flag + ": not valid JSON: " + e.what());
  }
}

/// Writes a generated pair (inline models) as a case, validated like any case.
void write_pair_case(const Model& f, const Model& g, const std::string& name, const std::string& description,
                     const std::string& out, nlohmann::json check, const std::string& expect) {
  Case c;
  c.name = name;
  c.description = description;
  c.is_pair = true;
  c.models = {f, g};
  c.check = std::move(check);
  c.expect = json_flag("--expect", expect);
  c = parse_case(case_to_json(c), out.empty() ? "<generated>" : out);
  if (out.empty()) std::cout << case_to_json(c).dump(2) << "\n";
  else save_case(c, out);
}

/// Writes the generated model as a case, with optional check/expect blocks,
/// validated through the same loader every case goes through.
void write_case(const Model& model, const std::string& out, const std::string& check, const std::string& expect) {
  Case c;
  c.name = model.name;
  c.description = model.description;
  c.models = {model};
  c.check = json_flag("--check", check);
  c.expect = json_flag("--expect", expect);
  c = parse_case(case_to_json(c), out.empty() ? "<generated>" : out);
  if (out.empty()) std::cout << case_to_json(c).dump(2) << "\n";
  else save_case(c, out);
}


}  // namespace
}  // namespace lgc

int main(int argc, char** argv) {
  using namespace lgc;
  CLI::App app{"lgcheck: exact and certified checks of the length-generalization bounds of Izzo, Nichani & Lee\n"
               "(arXiv 2510.27015). Cases are lgcheck-case/1 JSON files (see cases/ and docs/).",
               "lgcheck"};
  app.require_subcommand(1);
  app.set_version_flag("--version", std::string("lgcheck ") + LGCHECK_VERSION);

  std::string file, glob = "*", out;
  bool json = false;
  EvalArgs eval_args;
  std::vector<std::string> paths;

  auto* info = app.add_subcommand("info", "Describe a case: alphabet, period, locality, width, layers, heads");
  info->add_option("CASE", file, "case file (lgcheck-case/1 JSON)")->required();
  info->add_flag("--json", json, "print a JSON object (keys of CLI.md)");

  auto* eval = app.add_subcommand("eval", "Evaluate a model on one input under a semantics");
  eval->add_option("CASE", eval_args.file, "model case file")->required();
  eval->add_option("--input", eval_args.input,
                   "the input string: one character per token when every token name is one character "
                   "(e.g. 0110), else names separated by spaces")
      ->required();
  eval->add_option("--semantics", eval_args.semantics,
                   "hardmax | finite:<p> | softmax (default: the case's own)");
  eval->add_flag("--all-positions", eval_args.all_positions, "report the output at every position 1..T");
  eval->add_option("--precision", eval_args.precision, "starting precision of enclosures, in bits")
      ->capture_default_str()->check(CLI::Range(16u, 1u << 20));
  eval->add_option("--budget", eval_args.budget, "largest precision tried when a comparison is undecided, in bits")
      ->capture_default_str()->check(CLI::Range(16u, 1u << 20));
  eval->add_flag("--json", eval_args.json, "print a JSON object (keys of CLI.md)");

  auto* margin = app.add_subcommand("margin", "The logit margin gamma of a one-layer model, with its witness");
  margin->add_option("CASE", file, "model case file")->required();
  margin->add_flag("--json", json, "print a JSON object");

  BoundArgs bound_args;
  auto* bound = app.add_subcommand("bound", "Evaluate a theorem's length bound N with every ingredient");
  bound->add_option("CASE", bound_args.file, "model or pair case")->required();
  bound->add_option("--theorem", bound_args.theorem, "the theorem: 4.1")->capture_default_str();
  bound->add_option("--epsilon", bound_args.epsilon, "the accuracy epsilon (exact rational, e.g. 1/20)")->required();
  bound->add_option("--precision-bits", bound_args.precision_bits,
                    "p for the 2^(p/gamma) term (default: the case's finite:p, none for hardmax)");
  bound->add_option("--c", bound_args.c, "the constant hidden in the paper's O(.)")->capture_default_str();
  bound->add_flag("--json", bound_args.json, "print a JSON object (keys of CLI.md)");

  SimulateArgs sim_args;
  auto* simulate_cmd = app.add_subcommand("simulate", "Build the short z that imitates x (Theorem 4.1 construction)");
  simulate_cmd->add_option("CASE", sim_args.file, "one-layer model or pair case")->required();
  simulate_cmd->add_option("--input", sim_args.input, "the long input x");
  simulate_cmd->add_option("--random", sim_args.random_length, "a random x of this length instead (drawn as a statistic)");
  simulate_cmd->add_option("--seed", sim_args.seed, "seed of --random")->capture_default_str();
  simulate_cmd->add_option("--epsilon", sim_args.epsilon, "the accuracy epsilon")->required();
  simulate_cmd->add_option("--optimal-up-to", sim_args.optimal_up_to,
                           "also search the shortest z that works when |x| is at most this (hardmax)")
      ->capture_default_str();
  simulate_cmd->add_flag("--json", sim_args.json, "print a JSON object (keys of CLI.md)");

  ThresholdArgs threshold_args;
  auto* threshold = app.add_subcommand("threshold", "D(n) of a pair exactly, N_emp(eps) and the bracket on D_inf");
  threshold->add_option("PAIR", threshold_args.file, "pair case")->required();
  threshold->add_option("--epsilon", threshold_args.epsilon, "the accuracy epsilon")->required();
  threshold->add_option("--max-length", threshold_args.max_length, "compute D(n) for n = 1..N")
      ->capture_default_str()->check(CLI::Range(1, 100000));
  threshold->add_flag("--json", threshold_args.json, "print a JSON object (keys of CLI.md)");

  TableArgs table_args;
  auto* table = app.add_subcommand("table", "Compute a table from the bundled cases (t41)");
  table->add_option("NAME", table_args.name, "the table")->required()->check(CLI::IsMember(table_names()));
  table->add_option("--format", table_args.format, "md or json (exact values)")
      ->capture_default_str()->check(CLI::IsMember({"md", "json"}));
  table->add_option("--out", table_args.out, "write to this file instead of stdout");
  table->add_option("--cases", table_args.cases, "the bundled cases directory")->capture_default_str();
  table->add_option("--precision-bits", table_args.precision_bits, "p for the 2^(p/gamma) term")->capture_default_str();

  auto* check = app.add_subcommand("check", "Run the registered claims on case files and directories");
  check->add_option("PATH", paths, "case files, or directories searched recursively for *.json")->required();
  check->add_option("--claims", glob, "only claims whose id matches this shell pattern (e.g. 'S.*')")
      ->capture_default_str();
  check->add_flag("--json", json, "print a JSON object: claims and summary");
  auto* list = app.add_subcommand("claims", "List the registered claims");

  auto* gen = app.add_subcommand("gen", "Write a generated case (lgcheck-case/1) to stdout or --out FILE");
  gen->require_subcommand(1);
  gen->add_option("--out", out, "write to this file instead of stdout");
  std::string check_block, expect_block;
  gen->add_option("--check", check_block, "a JSON object stored as the case's \"check\" block (checker parameters)");
  gen->add_option("--expect", expect_block, "a JSON object stored as the case's \"expect\" block");
  std::size_t p = 3;
  std::string semantics = "hardmax", omega = "1", readout = "sin", lambda = "2", beta = "4";
  auto* gen_modp = gen->add_subcommand("modp", "ModPTask: fraction of 1-tokens among positions j = 0 mod p");
  gen_modp->add_option("--p", p, "the period p")->capture_default_str()->check(CLI::Range(1, 1000000));
  gen_modp->add_option("--semantics", semantics, "hardmax | finite:<p> | softmax")->capture_default_str();
  std::string modp_margin = "1";
  gen_modp->add_option("--margin", modp_margin, "the logit gap gamma (the weight of the residue-0 logit)")->capture_default_str();
  auto* gen_simple = gen->add_subcommand("simple", "SimpleTask: sin(omega * fraction of 1-tokens)");
  gen_simple->add_option("--omega", omega, "the frequency omega (exact rational)")->capture_default_str();
  gen_simple->add_option("--readout", readout, "sin (sin readout) or relu (ReLU-MLP interpolation)")
      ->capture_default_str()->check(CLI::IsMember({"sin", "relu"}));
  std::uint64_t farey_n = 4;
  std::string eta = "1/4";
  auto* gen_farey = gen->add_subcommand("farey-hat", "A Farey-hat witness pair: equal up to length n, apart by eta later");
  gen_farey->add_option("--n", farey_n, "the Farey order n")->capture_default_str()->check(CLI::Range(2, 100000));
  gen_farey->add_option("--eta", eta, "the height of the hat")->capture_default_str();
  auto* gen_modp_pair = gen->add_subcommand("modp-pair", "ModPTask and a copy with its value map perturbed by eta");
  gen_modp_pair->add_option("--p", p, "the period p")->capture_default_str()->check(CLI::Range(1, 1000000));
  gen_modp_pair->add_option("--eta", eta, "the perturbation")->capture_default_str();
  gen_modp_pair->add_option("--semantics", semantics, "hardmax | finite:<p>")->capture_default_str();
  auto* gen_induction = gen->add_subcommand("induction", "A two-layer softmax induction head (k = 1)");
  gen_induction->add_option("--lambda", lambda, "phi(1) of the copy head (> 1)")->capture_default_str();
  gen_induction->add_option("--beta", beta, "matching strength of the second layer")->capture_default_str();

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    int code = app.exit(e);
    return code == 0 ? 0 : kExitUsage;
  }
  try {
    if (*info) return cmd_info(file, json);
    if (*eval) return cmd_eval(eval_args);
    if (*margin) return cmd_margin(file, json);
    if (*check) return cmd_check(paths, glob, json);
    if (*bound) return cmd_bound(bound_args);
    if (*threshold) return cmd_threshold(threshold_args);
    if (*table) return cmd_table(table_args);
    if (*simulate_cmd) return cmd_simulate(sim_args);
    if (*list) {
      for (const auto& c : claim_registry())
        std::cout << fmt::format("{:<16} {}\n{:<16} semantics: {}; proof: {}\n", c.id, c.statement, "", c.semantics, c.docs);
      return 0;
    }
    if (*gen_modp) {
      Rational gap = rational_flag("--margin", modp_margin);
      if (gap <= 0) throw UsageError("--margin: expected a positive number, got " + modp_margin);
      write_case(modp_task(p, semantics_flag(semantics), gap), out, check_block, expect_block);
    }
    if (*gen_simple)
      write_case(simple_task(rational_flag("--omega", omega), readout == "sin" ? SimpleReadout::Sin : SimpleReadout::ReluMlp),
                 out, check_block, expect_block);
    if (*gen_farey) {
      Rational height = rational_flag("--eta", eta);
      if (height <= 0) throw UsageError("--eta: expected a positive number, got " + eta);
      FareyHat w = farey_hat(farey_n, height);
      nlohmann::json check_json = json_flag("--check", check_block);
      check_json["witness_n"] = farey_n;
      check_json["witness_length"] = 2 * farey_n;
      check_json["eta"] = to_string(height);
      if (!check_json.contains("max_length")) check_json["max_length"] = 2 * farey_n;
      write_pair_case(w.f, w.g, "farey_hat_n" + std::to_string(farey_n),
                      "Farey-hat witness of order " + std::to_string(farey_n) + ": f = g on every input of length <= " +
                          std::to_string(farey_n) + "; at the mediant " + to_string(w.mediant) + " (length " +
                          std::to_string(w.mediant_length) + ") they differ by " + to_string(height),
                      out, check_json, expect_block);
    }
    if (*gen_modp_pair) {
      Rational e = rational_flag("--eta", eta);
      Semantics sem = semantics_flag(semantics);
      write_pair_case(modp_task(p, sem), modp_perturbed(p, sem, e), "modp_p" + std::to_string(p) + "_perturbed_pair",
                      "ModPTask p=" + std::to_string(p) + " against a copy whose value map is perturbed by " +
                          to_string(e) + " (D_inf = " + to_string(e) + ")",
                      out, json_flag("--check", check_block), expect_block);
    }
    if (*gen_induction)
      write_case(induction_head(rational_flag("--lambda", lambda), rational_flag("--beta", beta)), out, check_block,
                 expect_block);
    return 0;
  } catch (const CaseError& e) {
    std::cerr << "lgcheck: " << e.what() << "\n";
    return kExitUsage;
  } catch (const UsageError& e) {
    std::cerr << "lgcheck: " << e.what() << "\n";
    return kExitUsage;
  } catch (const Undecided& e) {
    std::cerr << "lgcheck: undecided at the precision budget (" << e.precision_bits() << " bits): " << e.what() << "\n";
    return 3;
  } catch (const std::exception& e) {
    std::cerr << "lgcheck: " << e.what() << "\n";
    return kExitUsage;
  }
}
