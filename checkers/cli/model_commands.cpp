// lgcheck info, eval, margin: describing and evaluating one case.
#include "commands.hpp"

#include "claims/agreement.hpp"
#include "output/cli_output.hpp"
#include "output/progress.hpp"
#include "lgcheck/model/case_file.hpp"
#include "lgcheck/model/input.hpp"
#include "lgcheck/quantities/logit_margin.hpp"
#include "lgcheck/quantities/positional_margin.hpp"
#include "lgcheck/report/position_progress.hpp"
#include "lgcheck/semantics/softmax_linear.hpp"
#include "lgcheck/semantics/forward.hpp"
#include "lgcheck/semantics/one_layer.hpp"

#include <fmt/format.h>

#include <iostream>
#include <memory>

namespace lgc::cli {
namespace {

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
  bool json = false, all_positions = false, quiet = false;
  unsigned precision = kDefaultPrecisionBits, budget = 4096;
};

/// One-layer hardmax, finite:p or finite-weights:p models: the output from the statistic of
/// the input (each prefix's, kept incrementally, with --all-positions):
/// O(T·classes) time and O(classes) memory, the forward pass's value
/// (docs/theory.md, "Sufficient statistic").
std::vector<Output> statistic_outputs(const Model& m, const Tokens& x, const ForwardOptions& o, bool all_positions) {
  const OneLayerEvaluator eval(m);
  const Shape& shape = eval.shape();
  // finite-weights:p decides its rounding on enclosures when a weight is irrational: retried at doubled
  // precision up to the budget, as the forward pass does (the last Undecided propagates).
  auto at = [&](const Statistic& s) {
    for (unsigned bits = o.precision_bits;; bits *= 2) {
      try {
        return o.semantics.rounds() ? eval.evaluate_rounded(s, o.semantics, bits) : eval.evaluate(s, bits);
      } catch (const Undecided&) {
        if (bits * 2 > o.max_precision_bits) throw;
      }
    }
  };
  if (!all_positions) return {at(statistic_of(shape, x))};
  std::vector<Output> out;
  Statistic s;
  s.counts.assign(shape.classes(), 0);
  for (std::uint64_t i = 1; i <= x.size(); ++i) {
    s.length = i;
    const std::uint64_t bulk = bulk_length(i, shape.locality);
    if (bulk > 0) ++s.counts[static_cast<std::size_t>(x[bulk - 1]) * shape.period + bulk % shape.period];
    s.window.assign(x.begin() + static_cast<long>(bulk), x.begin() + static_cast<long>(i));
    out.push_back(at(s));
  }
  return out;
}

/// The forward pass keeps every position's vectors and compares every query
/// with every key: refused before it starts when that is beyond reach.
void require_forward_pass_fits(const Model& m, std::uint64_t T, bool all_positions) {
  const double layers = static_cast<double>(m.layers.size()), width = static_cast<double>(m.width);
  const double bytes = static_cast<double>(T) * width * (layers + 1) * 96;
  const double operations = static_cast<double>(T) * static_cast<double>(all_positions || m.layers.size() > 1 ? T : 1) *
                            width * layers;
  if (bytes <= 2e9 && operations <= 4e9) return;
  throw UsageError(fmt::format(
      "--input: the forward pass over T = {} positions of this {}-layer model needs about {:.2g} GB and {:.2g} "
      "operations; one-layer hardmax and finite:p models, and softmax models of up to two layers at the last "
      "position, are evaluated in linear time",
      T, m.layers.size(), bytes / 1e9, operations));
}

int cmd_eval(const EvalArgs& a) {
  Case c = load_case(a.file);
  if (c.is_pair) throw UsageError(a.file + ": eval takes a model case, not a pair");
  const Model& m = c.model();
  const Tokens x = input_flag(m, a.input);
  ForwardOptions options{a.semantics.empty() ? m.semantics : semantics_flag(a.semantics), a.precision, a.budget};
  // Softmax models of one or two layers at the last position: linear time
  // (first layer from class counts), the same enclosures as the forward pass.
  const bool linear = !a.all_positions && options.semantics.kind == Semantics::Kind::Softmax && m.layers.size() <= 2;
  const bool by_statistic = m.layers.size() == 1 && options.semantics.kind != Semantics::Kind::Softmax;
  if (a.all_positions && x.size() > 1000000)
    throw UsageError("--all-positions: prints one output per position, at most 1000000 (the input has " +
                     std::to_string(x.size()) + ")");
  if (!linear && !by_statistic) require_forward_pass_fits(m, x.size(), a.all_positions);
  Progress progress("positions", a.quiet);  // the linear-time passes report every 2^16 positions
  const PositionObserverScope observe([&](std::uint64_t done, std::uint64_t total) { progress.update(done, total, "f(x)"); });
  std::vector<Output> outputs = by_statistic    ? statistic_outputs(m, x, options, a.all_positions)
                                : a.all_positions ? evaluate_all(m, x, options)
                                : linear          ? std::vector<Output>{softmax_evaluate_linear(m, x, options.precision_bits)}
                                                  : std::vector<Output>{evaluate(m, x, options)};
  progress.clear();
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
  std::string shown = format_input(m, x);
  if (shown.size() > 80) shown = shown.substr(0, 40) + "..." + shown.substr(shown.size() - 20);
  std::cout << fmt::format("{} on \"{}\" (T = {}, {} semantics{}):\n", m.name, shown, x.size(),
                           options.semantics.str(),
                           linear ? ", linear-time evaluation" : (by_statistic ? ", from the statistic" : ""));
  for (std::size_t i = 0; i < outputs.size(); ++i) {
    std::size_t position = a.all_positions ? i + 1 : x.size();
    for (std::size_t k = 0; k < outputs[i].size(); ++k)
      std::cout << fmt::format("  f(x_1..{})[{}] = {}{}\n", position, k, readable(outputs[i][k]),
                               outputs[i][k].is_exact() ? "  (exact)" : "  (certified enclosure)");
  }
  return 0;
}

/// The positional margin and regimes of softmax models (each model of a pair).
int positional_margin_report(const Case& c, bool json) {
  nlohmann::json models = nlohmann::json::array();
  std::string text;
  std::optional<Rational> gamma;
  for (const Model& m : c.models) {
    PositionalMargin pm = positional_margin(m);
    if (pm.gamma && (!gamma || *pm.gamma < *gamma)) gamma = pm.gamma;
    nlohmann::json heads = nlohmann::json::array();
    text += fmt::format("{}: positional margin gamma = {}\n", m.name, pm.gamma ? to_string(*pm.gamma) : "inf");
    for (const HeadRegime& h : pm.heads) {
      nlohmann::json P = nlohmann::json::array();
      std::string listed;
      for (const Rational& q : h.P) {
        P.push_back(to_string(q));
        listed += (listed.empty() ? "" : ", ") + to_string(q);
      }
      heads.push_back({{"head", h.head}, {"regime", to_string(h.regime)}, {"P", P}, {"gamma", optional_rational(h.gamma)}});
      text += fmt::format("  layer 1 head {}: {:<18} P = {{{}}}  gamma_h = {}\n", h.head, to_string(h.regime), listed,
                          h.gamma ? to_string(*h.gamma) : "inf");
    }
    models.push_back({{"name", m.name}, {"positional_margin", optional_rational(pm.gamma)}, {"heads", heads}});
  }
  if (json) {
    nlohmann::json j = {{"positional_margin", optional_rational(gamma)}, {"heads", models[0]["heads"]}};
    if (c.is_pair) j["models"] = models;
    print_json(j);
  } else {
    std::cout << text;
    if (c.is_pair) std::cout << fmt::format("pair: gamma = min = {}\n", gamma ? to_string(*gamma) : "inf");
  }
  return 0;
}

/// The smaller margin of a case's models (γ or γ_V, by `margin`) and the model attaining it.
std::pair<LogitMargin, std::size_t> smallest_margin(const Case& c, LogitMargin (*margin)(const Model&)) {
  std::pair<LogitMargin, std::size_t> best{margin(c.models[0]), 0};
  if (c.is_pair) {
    LogitMargin second = margin(c.models[1]);
    if (second.gamma && (!best.first.gamma || *second.gamma < *best.first.gamma)) best = {second, 1};
  }
  return best;
}

nlohmann::json margin_witness_json(const Case& c, const LogitMargin& lm, std::size_t which) {
  const Model& m = c.models[which];
  nlohmann::json w = {{"head", lm.witness->head},
                      {"query_token", m.alphabet[static_cast<std::size_t>(lm.witness->query_token)]},
                      {"query_residue", lm.witness->query_residue},
                      {"logits", {to_string(lm.witness->lower), to_string(lm.witness->upper)}}};
  if (c.is_pair) w["model"] = which == 0 ? "f" : "g";
  return w;
}

std::string margin_witness_text(const Case& c, const LogitMargin& lm, std::size_t which) {
  const auto& w = *lm.witness;
  return fmt::format("  attained by {}head {} at query token {}, residue {}: logits {} and {}\n",
                     c.is_pair ? (which == 0 ? "f, " : "g, ") : "", w.head,
                     c.models[which].alphabet[static_cast<std::size_t>(w.query_token)], w.query_residue,
                     to_string(w.lower), to_string(w.upper));
}

/// γ of a model case, or min(γ(f), γ(g)) of a pair with the attaining model;
/// the same for the value-aware margin γ_V.
int cmd_margin(const std::string& file, bool json) {
  Case c = load_case(file);
  bool softmax = false;
  for (const auto& m : c.models) softmax = softmax || m.semantics.kind == Semantics::Kind::Softmax;
  if (softmax) return positional_margin_report(c, json);
  const auto [lm, which] = smallest_margin(c, &logit_margin);
  // γ_V's threshold holds for one-layer models only (a second layer mixes earlier positions' outputs).
  bool one_layer = true;
  for (const auto& m : c.models) one_layer = one_layer && m.layers.size() == 1;
  const auto [vm, value_which] = smallest_margin(c, &value_margin);
  if (json) {
    nlohmann::json j = {{"logit_margin", lm.gamma ? to_string(*lm.gamma) : "inf"}};
    j["value_margin"] = !one_layer ? nlohmann::json(nullptr) : nlohmann::json(vm.gamma ? to_string(*vm.gamma) : "inf");
    if (lm.witness) j["witness"] = margin_witness_json(c, lm, which);
    if (one_layer && vm.witness) j["value_witness"] = margin_witness_json(c, vm, value_which);
    print_json(j);
    return 0;
  }
  if (!lm.gamma)
    std::cout << "logit margin gamma = inf (no head has two distinct attainable logits)\n";
  else
    std::cout << fmt::format("logit margin gamma = {}\n", to_string(*lm.gamma)) << margin_witness_text(c, lm, which);
  if (!one_layer)
    std::cout << "value-aware margin gamma_V: not given for a model of more than one layer (its threshold argument "
                 "needs one)\n";
  else if (!vm.gamma)
    std::cout << "value-aware margin gamma_V = inf (keys of different values never compete: finite:p equals hardmax "
                 "at every length)\n";
  else
    std::cout << fmt::format("value-aware margin gamma_V = {} (gaps to keys of another value only: finite:p equals "
                             "hardmax from ceil(2^(p/gamma_V)) on)\n",
                             to_string(*vm.gamma))
              << margin_witness_text(c, vm, value_which);
  return 0;
}

}  // namespace

Command add_info(CLI::App& app) {
  auto args = std::make_shared<std::pair<std::string, bool>>();
  auto* sub = app.add_subcommand("info", "Describe a case: alphabet, period, locality, width, layers, heads");
  sub->add_option("CASE", args->first, "case file (lgcheck-case/1 JSON)")->required();
  sub->add_flag("--json", args->second, "print a JSON object (keys: docs/cli.md)");
  return {sub, [args] { return cmd_info(args->first, args->second); }};
}

Command add_eval(CLI::App& app) {
  auto a = std::make_shared<EvalArgs>();
  auto* sub = app.add_subcommand("eval", "Evaluate a model on one input under a semantics");
  sub->add_option("CASE", a->file, "model case file")->required();
  sub->add_option("--input", a->input,
                  "the input string: one character per token when every token name is one character "
                  "(e.g. 0110), else names separated by spaces; @FILE reads it from a file, - from standard input")
      ->required();
  sub->add_option("--semantics", a->semantics, "hardmax | finite:<p> | finite-weights:<p> | softmax (default: the case's own)");
  sub->add_flag("--all-positions", a->all_positions, "report the output at every position 1..T");
  sub->add_option("--precision", a->precision, "starting precision of enclosures, in bits")
      ->capture_default_str()->check(CLI::Range(16u, 1u << 20));
  sub->add_option("--budget", a->budget, "largest precision tried when a comparison is undecided, in bits")
      ->capture_default_str()->check(CLI::Range(16u, 1u << 20));
  sub->add_flag("--json", a->json, "print a JSON object (keys: docs/cli.md)");
  sub->add_flag("--quiet", a->quiet, "no progress line on stderr (it is shown only on a terminal, after 2 s)");
  return {sub, [a] { return cmd_eval(*a); }};
}

Command add_margin(CLI::App& app) {
  auto args = std::make_shared<std::pair<std::string, bool>>();
  auto* sub = app.add_subcommand(
      "margin",
      "The logit margin gamma of a one-layer model (or pair), with its witness; for softmax models the positional margin "
      "and each first-layer head's regime");
  sub->add_option("CASE", args->first, "model or pair case file")->required();
  sub->add_flag("--json", args->second, "print a JSON object (keys: docs/cli.md)");
  return {sub, [args] { return cmd_margin(args->first, args->second); }};
}

}  // namespace lgc::cli
