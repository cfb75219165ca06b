// lgcheck gen: writing generated cases (the paper's tasks and witnesses).
#include "commands.hpp"

#include "lgcheck/model/case_file.hpp"
#include "lgcheck/tasks/paper_tasks.hpp"

#include <iostream>
#include <memory>

namespace lgc::cli {
namespace {

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


struct GenArgs {
  std::string out, check_block, expect_block;
  std::size_t p = 3;
  std::string semantics = "hardmax", omega = "1", readout = "sin", lambda = "2", beta = "4", margin = "1", eta = "1/4";
  std::uint64_t farey_n = 4;
  CLI::App *modp = nullptr, *simple = nullptr, *farey = nullptr, *modp_pair = nullptr, *induction = nullptr;
};

void gen_farey_hat(const GenArgs& a) {
  Rational height = positive_rational_flag("--eta", a.eta);
  FareyHat w = farey_hat(a.farey_n, height);
  nlohmann::json check = json_flag("--check", a.check_block);
  check["witness_n"] = a.farey_n;
  check["witness_length"] = 2 * a.farey_n;
  check["eta"] = to_string(height);
  if (!check.contains("max_length")) check["max_length"] = 2 * a.farey_n;
  std::string n = std::to_string(a.farey_n);
  write_pair_case(w.f, w.g, "farey_hat_n" + n,
                  "Farey-hat witness of order " + n + ": f = g on every input of length <= " + n + "; at the mediant " +
                      to_string(w.mediant) + " (length " + std::to_string(w.mediant_length) + ") they differ by " +
                      to_string(height),
                  a.out, check, a.expect_block);
}

int run_gen(const GenArgs& a) {
  if (*a.modp)
    write_case(modp_task(a.p, semantics_flag(a.semantics), positive_rational_flag("--margin", a.margin)), a.out,
               a.check_block, a.expect_block);
  if (*a.simple)
    write_case(simple_task(rational_flag("--omega", a.omega), a.readout == "sin" ? SimpleReadout::Sin : SimpleReadout::ReluMlp),
               a.out, a.check_block, a.expect_block);
  if (*a.farey) gen_farey_hat(a);
  if (*a.modp_pair) {
    Rational e = rational_flag("--eta", a.eta);
    Semantics sem = semantics_flag(a.semantics);
    write_pair_case(modp_task(a.p, sem), modp_perturbed(a.p, sem, e), "modp_p" + std::to_string(a.p) + "_perturbed_pair",
                    "ModPTask p=" + std::to_string(a.p) + " against a copy whose value map is perturbed by " +
                        to_string(e) + " (D_inf = " + to_string(e) + ")",
                    a.out, json_flag("--check", a.check_block), a.expect_block);
  }
  if (*a.induction)
    write_case(induction_head(rational_flag("--lambda", a.lambda), rational_flag("--beta", a.beta)), a.out,
               a.check_block, a.expect_block);
  return 0;
}

}  // namespace

Command add_gen(CLI::App& app) {
  auto a = std::make_shared<GenArgs>();
  auto* gen = app.add_subcommand("gen", "Write a generated case (lgcheck-case/1) to stdout or --out FILE");
  gen->require_subcommand(1);
  gen->add_option("--out", a->out, "write to this file instead of stdout");
  gen->add_option("--check", a->check_block, "a JSON object stored as the case's \"check\" block (checker parameters)");
  gen->add_option("--expect", a->expect_block, "a JSON object stored as the case's \"expect\" block");
  a->modp = gen->add_subcommand("modp", "ModPTask: fraction of 1-tokens among positions j = 0 mod p");
  a->modp->add_option("--p", a->p, "the period p")->capture_default_str()->check(CLI::Range(1, 1000000));
  a->modp->add_option("--semantics", a->semantics, "hardmax | finite:<p> | softmax")->capture_default_str();
  a->modp->add_option("--margin", a->margin, "the logit gap gamma (the weight of the residue-0 logit)")->capture_default_str();
  a->simple = gen->add_subcommand("simple", "SimpleTask: sin(omega * fraction of 1-tokens)");
  a->simple->add_option("--omega", a->omega, "the frequency omega (exact rational)")->capture_default_str();
  a->simple->add_option("--readout", a->readout, "sin (sin readout) or relu (ReLU-MLP interpolation)")
      ->capture_default_str()->check(CLI::IsMember({"sin", "relu"}));
  a->farey = gen->add_subcommand("farey-hat", "A Farey-hat witness pair: equal up to length n, apart by eta later");
  a->farey->add_option("--n", a->farey_n, "the Farey order n")->capture_default_str()->check(CLI::Range(2, 100000));
  a->farey->add_option("--eta", a->eta, "the height of the hat")->capture_default_str();
  a->modp_pair = gen->add_subcommand("modp-pair", "ModPTask and a copy with its value map perturbed by eta");
  a->modp_pair->add_option("--p", a->p, "the period p")->capture_default_str()->check(CLI::Range(1, 1000000));
  a->modp_pair->add_option("--eta", a->eta, "the perturbation")->capture_default_str();
  a->modp_pair->add_option("--semantics", a->semantics, "hardmax | finite:<p>")->capture_default_str();
  a->induction = gen->add_subcommand("induction", "A two-layer softmax induction head (k = 1)");
  a->induction->add_option("--lambda", a->lambda, "phi(1) of the copy head (> 1)")->capture_default_str();
  a->induction->add_option("--beta", a->beta, "matching strength of the second layer")->capture_default_str();
  return {gen, [a] { return run_gen(*a); }};
}

}  // namespace lgc::cli
