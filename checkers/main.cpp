// lgcheck: the command-line driver. Subcommands info, eval, margin, check, gen.
#include "claim.hpp"
#include "cli_output.hpp"
#include "suite.hpp"

#include "lgcheck/model/case_file.hpp"
#include "lgcheck/model/input.hpp"
#include "lgcheck/quantities/logit_margin.hpp"
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

Rational rational_flag(const std::string& flag, const std::string& text) {
  try {
    return parse_rational(text);
  } catch (const ParseError& e) {
    throw UsageError(flag + ": " + e.what());
  }
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
  auto* gen_simple = gen->add_subcommand("simple", "SimpleTask: sin(omega * fraction of 1-tokens)");
  gen_simple->add_option("--omega", omega, "the frequency omega (exact rational)")->capture_default_str();
  gen_simple->add_option("--readout", readout, "sin (sin readout) or relu (ReLU-MLP interpolation)")
      ->capture_default_str()->check(CLI::IsMember({"sin", "relu"}));
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
    if (*list) {
      for (const auto& c : claim_registry())
        std::cout << fmt::format("{:<16} {}\n{:<16} semantics: {}; proof: {}\n", c.id, c.statement, "", c.semantics, c.docs);
      return 0;
    }
    if (*gen_modp) write_case(modp_task(p, semantics_flag(semantics)), out, check_block, expect_block);
    if (*gen_simple)
      write_case(simple_task(rational_flag("--omega", omega), readout == "sin" ? SimpleReadout::Sin : SimpleReadout::ReluMlp),
                 out, check_block, expect_block);
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
