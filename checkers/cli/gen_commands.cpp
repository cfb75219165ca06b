// lgcheck gen: writing generated cases (the paper's tasks and witnesses).
#include "commands.hpp"

#include "lgcheck/model/case_file.hpp"
#include "lgcheck/tasks/average_tasks.hpp"
#include "lgcheck/tasks/kgram.hpp"
#include "lgcheck/tasks/paper_tasks.hpp"
#include "lgcheck/tasks/section5_tasks.hpp"

#include <iostream>
#include <memory>

namespace lgc::cli {
namespace {

/// Writes a generated pair (inline models) as a case, validated like any case.
void write_pair_case(const Model& f, const Model& g, const std::string& name, const std::string& description,
                     const std::string& out, nlohmann::json check, const std::string& expect,
                     const std::string& name_override) {
  Case c;
  c.name = name_override.empty() ? name : name_override;
  c.description = description;
  c.is_pair = true;
  c.models = {f, g};
  c.check = std::move(check);
  c.expect = json_flag("--expect", expect);
  c = parse_case(case_to_json(c), out.empty() ? "<generated>" : out);
  if (out.empty()) std::cout << case_to_json(c).dump(2) << "\n";
  else write_text_atomically(out, case_to_json(c).dump(2) + "\n");
}

/// Writes the generated model as a case, with optional check/expect blocks,
/// validated through the same loader every case goes through.
void write_case(const Model& model, const std::string& out, const std::string& check, const std::string& expect,
                const std::string& name_override) {
  Case c;
  c.name = name_override.empty() ? model.name : name_override;
  c.description = model.description;
  c.models = {model};
  c.check = json_flag("--check", check);
  c.expect = json_flag("--expect", expect);
  c = parse_case(case_to_json(c), out.empty() ? "<generated>" : out);
  if (out.empty()) std::cout << case_to_json(c).dump(2) << "\n";
  else write_text_atomically(out, case_to_json(c).dump(2) + "\n");
}


struct GenArgs {
  std::string out, check_block, expect_block, name;
  std::size_t p = 3;
  std::string semantics = "hardmax", omega = "1", readout = "sin", lambda = "2", beta = "4", margin = "1", eta = "1/4";
  std::uint64_t farey_n = 4;
  unsigned precision = 2;
  std::size_t vocab = 2, short_size = 1;
  std::uint64_t switch_length = 64;
  std::string alpha, marked = "1";
  bool absence = false, ones = false, other_residues = false;
  std::string witness_rho = "1/4", witness_eta = "1/16";
  CLI::App *modp = nullptr, *margin_counter = nullptr, *margin_witness = nullptr, *position_witness = nullptr,
           *simple = nullptr, *farey = nullptr,
           *modp_pair = nullptr, *induction = nullptr, *presence = nullptr, *regularity = nullptr, *regime = nullptr,
           *kgram = nullptr, *attention = nullptr;
  std::string attention_a = "1/2", copy = "1/10", readout_eta = "0";
  std::size_t first_locality = 0;
  std::string first_score = "0", first_phi = "0", second_phi = "0", residue_shift = "0";
  std::size_t attention_period = 1, second_phi_offset = 0;
  bool two_heads = false, phi_head_last = false;
  std::string mlp_gain = "0", second_value = "1";
  std::size_t k = 1;
  std::string beta_flag, lambda_flag, epsilon = "1/2", rho = "1/2";
  std::string phi1 = "3/2", content = "2";
};

/// The --alpha list as a JSON array of exact strings (all 1 when empty).
nlohmann::json alpha_json(const GenArgs& a) {
  nlohmann::json out = nlohmann::json::array();
  if (a.alpha.empty()) {
    for (std::size_t s = 0; s < a.vocab; ++s) out.push_back("1");
    return out;
  }
  for (const Rational& q : rational_list_flag("--alpha", a.alpha, a.vocab)) out.push_back(to_string(q));
  return out;
}

/// gen attention-pair: the pair of docs/theory.md's T5.2.sim paragraph with the options' first layer and shape.
void gen_attention_pair(const GenArgs& a) {
  AttentionFirstLayer first{a.first_locality, rational_flag("--first-score", a.first_score),
                            rational_flag("--first-phi", a.first_phi)};
  AttentionPairShape shape{rational_flag("--second-phi", a.second_phi), a.attention_period,
                           rational_flag("--residue-shift", a.residue_shift), a.two_heads,
                           rational_flag("--mlp-gain", a.mlp_gain), a.second_phi_offset,
                           rational_flag("--second-value", a.second_value), a.phi_head_last};
  if (a.phi_head_last && !a.two_heads) throw UsageError("--phi-head-last: needs --two-heads");
  if (a.second_phi_offset > a.first_locality)
    throw UsageError("--second-phi-offset: expected an offset <= --locality (" + std::to_string(a.first_locality) +
                     "), got " + std::to_string(a.second_phi_offset));
  if (shape.mlp_gain < 0) throw UsageError("--mlp-gain: expected a gain >= 0, got " + a.mlp_gain);
  if (a.first_locality == 0 && first.phi != 0) throw UsageError("--first-phi: needs --locality >= 1 (window slots 1..tau)");
  if (a.attention_period == 1 && shape.residue_shift != 0) throw UsageError("--residue-shift: needs --period >= 2");
  SoftmaxPair p = attention_pair(rational_flag("--a", a.attention_a), rational_flag("--copy", a.copy),
                                 rational_flag("--eta", a.eta), first, shape);
  std::string first_text;
  if (a.first_locality > 0 || first.score != 0)
    first_text = ", tau = " + std::to_string(a.first_locality) + ", first-layer score " + a.first_score +
                 ", phi " + a.first_phi;
  if (shape.second_phi != 0)
    first_text += ", second-layer phi(" + std::to_string(a.second_phi_offset) + ") " + a.second_phi;
  if (a.attention_period > 1)
    first_text += ", period " + std::to_string(a.attention_period) + ", residue shift " + a.residue_shift;
  if (shape.second_value != 1) first_text += ", second-layer value " + a.second_value;
  if (a.two_heads) first_text += ", two heads per layer";
  if (a.phi_head_last) first_text += ", that head second";
  if (shape.mlp_gain != 0) first_text += ", second-layer MLP gain " + a.mlp_gain;
  write_pair_case(p.f, p.g, "attention_pair",
                  "two-layer softmax pair: keys scored +-a, the second value map perturbed by eta (a = " +
                      a.attention_a + ", copy = " + a.copy + ", eta = " + a.eta + first_text + ")",
                  a.out, json_flag("--check", a.check_block), a.expect_block, a.name);
}

/// The k-gram construction with β, λ from --beta/--lambda or, by default,
/// from the rule for (ε, ρ, k); the check block records k, ε and ρ.
void gen_kgram(const GenArgs& a) {
  Rational eps = positive_rational_flag("--epsilon", a.epsilon), rho = positive_rational_flag("--rho", a.rho);
  if (eps > 1 || rho > 1) throw UsageError("--epsilon and --rho must be in (0, 1]");
  KgramParameters p = kgram_parameters(eps, rho, a.k);
  Rational beta = a.beta_flag.empty() ? p.beta : positive_rational_flag("--beta", a.beta_flag);
  Rational lambda = a.lambda_flag.empty() ? p.lambda : positive_rational_flag("--lambda", a.lambda_flag);
  nlohmann::json check = json_flag("--check", a.check_block);
  check["kgram_k"] = a.k;
  check["epsilon"] = to_string(eps);
  check["rho"] = to_string(rho);
  write_case(kgram_model(a.vocab, a.k, beta, lambda), a.out, check.dump(), a.expect_block, a.name);
}

void gen_presence(const GenArgs& a) {
  Rational height = positive_rational_flag("--eta", a.eta);
  std::vector<bool> marked(a.vocab, false);
  for (const std::string& symbol : split_commas(a.marked)) {
    std::size_t s = 0;
    while (s < a.vocab && std::to_string(s) != symbol) ++s;
    if (s == a.vocab) throw UsageError("--marked: \"" + symbol + "\" is not a symbol 0.." + std::to_string(a.vocab - 1));
    marked[s] = true;
  }
  PresencePair p = presence_pair(a.vocab, marked, height);
  if (a.absence) {  // f = eta: |f - g| = eta exactly when no marked symbol occurs
    p.f.readout.bias = QVector{height};
    p.f.description = "presence pair, f: the constant " + to_string(height);
  }
  nlohmann::json check = json_flag("--check", a.check_block);
  if (!a.alpha.empty()) check["dirichlet_alpha"] = alpha_json(a);
  write_pair_case(p.f, p.g, (a.absence ? "absence_S" : "presence_S") + std::to_string(a.vocab),
                  "presence pair: |f - g| = " + to_string(height) + " exactly when a symbol of {" + a.marked +
                      (a.absence ? "} occurs nowhere, else 0" : "} occurs, else 0"),
                  a.out, check, a.expect_block, a.name);
}

void gen_regularity(const GenArgs& a) {
  if (a.short_size == 0 || a.short_size >= a.vocab)
    throw UsageError("--short: Sigma_short must be a proper, non-empty subset: 1 <= short < vocab");
  Rational height = positive_rational_flag("--eta", a.eta);
  std::vector<bool> marked(a.vocab, false);
  nlohmann::json short_alphabet = nlohmann::json::array();
  std::string short_names;
  for (std::size_t s = 0; s < a.vocab; ++s) {
    marked[s] = s >= a.short_size;
    if (marked[s]) continue;
    short_alphabet.push_back(std::to_string(s));
    short_names += (s ? "," : "") + std::to_string(s);
  }
  PresencePair p = presence_pair(a.vocab, marked, height);
  nlohmann::json check = json_flag("--check", a.check_block);
  check["dirichlet_alpha"] = alpha_json(a);
  check["switch_length"] = a.switch_length;
  check["short_alphabet"] = short_alphabet;
  check["eta"] = to_string(height);
  std::string K = std::to_string(a.switch_length);
  write_pair_case(p.f, p.g, "regularity_k" + K,
                  "regularity counterexample: inputs over Sigma_short = {" + short_names +
                      "} up to length " + K + ", over its complement after; f = g on Sigma_short, |f - g| = " +
                      to_string(height) + " on the complement",
                  a.out, check, a.expect_block, a.name);
}

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
                  a.out, check, a.expect_block, a.name);
}

/// The margin witness pair: the check block names the witness (agreement on
/// every length <= N - 1, a difference of eta at length N = ceil(2^(p/gamma))).
void gen_margin_witness(const GenArgs& a) {
  const Rational gamma = positive_rational_flag("--gamma", a.margin);
  if (gamma > 1) throw UsageError("--gamma: must be at most 1 (got " + to_string(gamma) + ")");
  const Rational height = positive_rational_flag("--eta", a.eta);
  MarginWitness w;
  try {
    w = margin_witness(gamma, a.precision, height);
  } catch (const std::invalid_argument& e) {
    throw UsageError(std::string("--gamma/--precision: ") + e.what());
  }
  if (w.length > Integer(2000000))  // check.witness_length's range (docs/case-format.md)
    throw UsageError("--gamma/--precision: ceil(2^(p/gamma)) = " + w.length.str() +
                     " is beyond 2*10^6, the longest witness length a case can name");
  const std::uint64_t N = static_cast<std::uint64_t>(w.length);
  nlohmann::json check = json_flag("--check", a.check_block);
  check["witness_n"] = N - 1;
  check["witness_length"] = N;
  check["eta"] = to_string(height);
  if (!check.contains("max_length")) check["max_length"] = N;
  write_pair_case(w.f, w.g, w.name,
                  "margin witness pair (finite:" + std::to_string(a.precision) + ", logit margin " + to_string(gamma) +
                      "): f = g on every input of length < ceil(2^(p/gamma)) = " + w.length.str() +
                      "; on 0^(N-1) 1 they differ by " + to_string(height),
                  a.out, check, a.expect_block, a.name);
}

/// The positional-margin witness pair: the check block names the witness (agreement on every length <= N - 1,
/// a difference of at least eta at length M).
void gen_position_witness(const GenArgs& a) {
  const Rational gamma = positive_rational_flag("--gamma", a.margin);
  if (gamma > 1) throw UsageError("--gamma: must be at most 1 (got " + to_string(gamma) + ")");
  const Rational rho = positive_rational_flag("--rho", a.witness_rho);
  if (rho >= 1) throw UsageError("--rho: must be below 1 (got " + to_string(rho) + ")");
  const Rational eta = positive_rational_flag("--eta", a.witness_eta);
  if (eta >= rho) throw UsageError("--eta: must be below rho = " + to_string(rho) + " (got " + to_string(eta) + ")");
  PositionWitness w;
  try {
    w = position_witness(gamma, rho, eta);  // M up to 2*10^6, check.witness_length's range (docs/case-format.md)
  } catch (const std::invalid_argument& e) {
    throw UsageError(std::string("--gamma/--rho/--eta: ") + e.what());
  }
  if (w.length > Integer(1000001))  // check.witness_n = N - 1 is at most 10^6
    throw UsageError("--gamma/--rho: N = " + w.length.str() + " > 10^6 + 1, beyond the agreement a case can name");
  nlohmann::json check = json_flag("--check", a.check_block);
  check["witness_n"] = static_cast<std::uint64_t>(w.length) - 1;
  check["witness_length"] = static_cast<std::uint64_t>(w.gap_length);
  check["eta"] = to_string(eta);
  write_pair_case(w.f, w.g, w.name,
                  "positional-margin witness pair (softmax, positional margin " + to_string(gamma) + ", rho " +
                      to_string(rho) + "): f = g on every input shorter than N = " + w.length.str() +
                      "; on 0^(M-1) 1, M = " + w.gap_length.str() + ", they differ by at least " + to_string(eta),
                  a.out, check, a.expect_block, a.name);
}

int run_gen(const GenArgs& a) {
  if (*a.modp)
    write_case(modp_task(a.p, semantics_flag(a.semantics), positive_rational_flag("--margin", a.margin)), a.out,
               a.check_block, a.expect_block, a.name);
  if (*a.margin_counter) {
    const Rational gamma = positive_rational_flag("--gamma", a.margin);
    if (gamma > Rational(1, 2)) throw UsageError("--gamma: must be at most 1/2 (got " + to_string(gamma) + ")");
    const Semantics semantics = semantics_flag(a.semantics);
    if (semantics.kind == Semantics::Kind::Softmax) throw UsageError("--semantics: hardmax or finite:<p> (got softmax)");
    write_case(margin_counter(gamma, semantics), a.out, a.check_block, a.expect_block, a.name);
  }
  if (*a.margin_witness) gen_margin_witness(a);
  if (*a.position_witness) gen_position_witness(a);
  if (*a.simple)
    write_case(simple_task(rational_flag("--omega", a.omega), a.readout == "sin" ? SimpleReadout::Sin : SimpleReadout::ReluMlp),
               a.out, a.check_block, a.expect_block, a.name);
  if (*a.farey) gen_farey_hat(a);
  if (*a.modp_pair) {
    Rational e = rational_flag("--eta", a.eta), re = rational_flag("--readout-eta", a.readout_eta);
    Semantics sem = semantics_flag(a.semantics);
    Rational gap = (1 + e) * (1 + re) - 1;
    const Model perturbed = modp_perturbed(a.p, sem, e, re);
    const Model g = a.ones             ? attending_to_ones(perturbed)
                    : a.other_residues ? attending_to_other_residues(perturbed)
                                       : perturbed;
    const std::string p = std::to_string(a.p);
    const std::string attends = a.ones             ? "the 1-tokens"
                                : a.other_residues ? "the positions j != 0 mod " + p
                                                   : std::string();
    const std::string description =
        !attends.empty()
            ? "ModPTask p=" + p + " against a copy whose head attends to " + attends +
                  " (two attention patterns), its value map perturbed by " + to_string(e)
            : "ModPTask p=" + p + " against a copy whose value map is perturbed by " + to_string(e) +
                  (re != 0 ? " and readout scaled by 1 + " + to_string(re) : std::string()) +
                  " (D_inf = " + to_string(gap < 0 ? Rational(-gap) : gap) + ")";
    const std::string suffix = a.ones ? "_two_pattern_pair" : a.other_residues ? "_other_residues_pair" : "_perturbed_pair";
    write_pair_case(modp_task(a.p, sem), g, "modp_p" + p + suffix, description, a.out,
                    json_flag("--check", a.check_block), a.expect_block, a.name);
  }
  if (*a.regime)
    write_case(regime_model(rational_flag("--phi1", a.phi1), rational_flag("--content", a.content)), a.out,
               a.check_block, a.expect_block, a.name);
  if (*a.kgram) gen_kgram(a);
  if (*a.attention) gen_attention_pair(a);
  if (*a.presence) gen_presence(a);
  if (*a.regularity) gen_regularity(a);
  if (*a.induction)
    write_case(induction_head(rational_flag("--lambda", a.lambda), rational_flag("--beta", a.beta)), a.out,
               a.check_block, a.expect_block, a.name);
  return 0;
}

}  // namespace

Command add_gen(CLI::App& app) {
  auto a = std::make_shared<GenArgs>();
  auto* gen = app.add_subcommand("gen", "Write a generated case (lgcheck-case/1) to stdout or --out FILE");
  gen->require_subcommand(1);
  add_command_budget_option(gen);
  gen->add_option("--out", a->out, "write to this file instead of stdout");
  gen->add_option("--check", a->check_block, "a JSON object stored as the case's \"check\" block (checker parameters)");
  gen->add_option("--name", a->name, "the case's name (default: the generator's)");
  gen->add_option("--expect", a->expect_block, "a JSON object stored as the case's \"expect\" block");
  a->modp = gen->add_subcommand("modp", "ModPTask: fraction of 1-tokens among positions j = 0 mod p");
  a->modp->add_option("--p", a->p, "the period p")->capture_default_str()->check(CLI::Range(1, 1000000));
  a->modp->add_option("--semantics", a->semantics, "hardmax | finite:<p> | softmax")->capture_default_str();
  a->modp->add_option("--margin", a->margin, "the logit gap gamma (the weight of the residue-0 logit)")->capture_default_str();
  a->margin_counter = gen->add_subcommand(
      "margin-counter",
      "The margin counter-family: logit margin gamma, but the near-tied keys carry one value, so finite:p equals "
      "hardmax from ceil(2^(p/(1-gamma))) on, not ceil(2^(p/gamma))");
  a->margin_counter->add_option("--gamma", a->margin, "the logit margin gamma, in (0, 1/2]")->required();
  a->margin_counter->add_option("--semantics", a->semantics, "hardmax | finite:<p>")->capture_default_str();
  a->margin_witness = gen->add_subcommand(
      "margin-witness",
      "A margin witness pair (finite:p, logit margin gamma): f = g on every input shorter than N = ceil(2^(p/gamma)), "
      "apart by eta at length N, so no length bound for this margin and precision valid at some eps < eta/3 is "
      "below N");
  a->margin_witness->add_option("--gamma", a->margin, "the logit margin gamma, in (0, 1]")->required();
  a->margin_witness->add_option("--precision", a->precision, "the precision p of finite:p")
      ->capture_default_str()->check(CLI::Range(1, 64));
  a->margin_witness->add_option("--eta", a->eta, "the difference at length N")->capture_default_str();
  a->position_witness = gen->add_subcommand(
      "position-witness",
      "A positional-margin witness pair (two-layer softmax, positional margin gamma): f = g on every input shorter "
      "than N > (1/rho - 1)^(1/gamma), apart by at least eta at a length M, so no length bound of Theorem 5.2 valid "
      "at some eps < eta/3 is below N");
  a->position_witness->add_option("--gamma", a->margin, "the positional margin gamma, in (0, 1]")->required();
  a->position_witness->add_option("--rho", a->witness_rho, "g - f tends to rho on 0...01; in (0, 1)")
      ->capture_default_str();
  a->position_witness->add_option("--eta", a->witness_eta, "the difference claimed at length M; in (0, rho)")
      ->capture_default_str();
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
  a->modp_pair
      ->add_option("--readout-eta", a->readout_eta,
                   "also scale the copy's readout by 1 + this (then the pair differs in V and in the readout)")
      ->capture_default_str();
  a->modp_pair->add_option("--semantics", a->semantics, "hardmax | finite:<p>")->capture_default_str();
  CLI::Option* ones =
      a->modp_pair->add_flag("--ones", a->ones,
                             "the copy's head attends to the 1-tokens instead of the positions j = 0 mod p (two "
                             "attention patterns; the copy's weighs one value, so N_sim stays anchored)");
  a->modp_pair
      ->add_flag("--other-residues", a->other_residues,
                 "the copy's head attends to the positions j != 0 mod p instead (two attention patterns of heads "
                 "weighing two values: the general N_sim)")
      ->excludes(ones);
  a->induction = gen->add_subcommand("induction", "A two-layer softmax induction head (k = 1)");
  a->induction->add_option("--lambda", a->lambda, "phi(1) of the copy head (> 1)")->capture_default_str();
  a->induction->add_option("--beta", a->beta, "matching strength of the second layer")->capture_default_str();
  a->kgram = gen->add_subcommand(
      "kgram", "The in-context k-gram construction (two layers, softmax); beta and lambda from (epsilon, rho, k) unless given");
  a->kgram->add_option("--k", a->k, "the context length k")->capture_default_str()->check(CLI::Range(1, 16));
  a->kgram->add_option("--vocab", a->vocab, "the alphabet size S (symbols a, b, ...)")->capture_default_str()
      ->check(CLI::Range(2, 26));
  a->kgram->add_option("--beta", a->beta_flag, "the matching strength (default: 2 ln(3/(eps rho)), rounded up)");
  a->kgram->add_option("--lambda", a->lambda_flag, "phi(h) of the copy heads (default: the rule of docs/theory.md)");
  a->kgram->add_option("--epsilon", a->epsilon, "the target accuracy eps")->capture_default_str();
  a->kgram->add_option("--rho", a->rho, "the least match fraction rho")->capture_default_str();
  a->attention = gen->add_subcommand(
      "attention-pair", "A two-layer softmax pair whose second layer scores keys +-a (Theorem 5.2's simulation check)");
  a->attention->add_option("--a", a->attention_a, "the second layer's score of a key")->capture_default_str();
  a->attention->add_option("--copy", a->copy, "what the first layer writes for a 1")->capture_default_str();
  a->attention->add_option("--eta", a->eta, "the perturbation of g's second value map")->capture_default_str();
  a->attention->add_option("--locality", a->first_locality, "the locality tau (window slots 0..tau)")
      ->capture_default_str()->check(CLI::Range(0, 8));
  a->attention->add_option("--first-score", a->first_score, "the first layer's content score of a 1-key (0: uniform)")
      ->capture_default_str();
  a->attention->add_option("--first-phi", a->first_phi,
                           "the first layer's positional term on window slots 1..tau: < 1 token-dominant, 1 "
                           "balanced, > 1 position-dominant")->capture_default_str();
  a->attention->add_option("--second-phi", a->second_phi,
                           "the second layer's positional term on one key (--second-phi-offset): the key weighs "
                           "L^phi at the query L; < 1 token-dominant (negative: lighter than the bulk), 1 balanced, "
                           "> 1 position-dominant")
      ->capture_default_str();
  a->attention->add_option("--second-phi-offset", a->second_phi_offset,
                           "the key --second-phi weighs: its offset t <= tau from the query (0: the query's own key)")
      ->capture_default_str();
  a->attention->add_option("--period", a->attention_period,
                           "the period Delta of the positional encodings (Theorem 5.2's bounds hold for any)")
      ->capture_default_str()->check(CLI::Range(1, 8));
  a->attention->add_option("--residue-shift", a->residue_shift,
                           "with --period >= 2: a token at residue r reads as r times this much more of a 1 "
                           "(positional encoding p_r)")->capture_default_str();
  a->attention->add_flag("--two-heads", a->two_heads,
                         "a second head in each layer (layer 1: 0-keys scored and copied; layer 2: keys scored -+a, "
                         "half of a 1 read)");
  a->attention->add_option("--second-value", a->second_value,
                           "what the second layer's head of --second-phi reads of a 1 (g reads 1 + eta times it)")
      ->capture_default_str();
  a->attention->add_flag("--phi-head-last", a->phi_head_last,
                         "with --two-heads: the head of --second-phi and --second-value is the second layer's second "
                         "head (a bound summing the first head's term only misses it)");
  a->attention->add_option("--mlp-gain", a->mlp_gain,
                           "a second-layer MLP adding G ReLU(y) to the output slot (0: none)")->capture_default_str();
  a->presence = gen->add_subcommand(
      "presence", "The presence pair: f = 0, g = eta when a marked symbol occurs (Theorem 4.2's alpha_min witness)");
  a->presence->add_option("--vocab", a->vocab, "the alphabet size S (symbols 0..S-1)")->capture_default_str()
      ->check(CLI::Range(2, 32));
  a->presence->add_option("--marked", a->marked, "the marked symbols, comma-separated")->capture_default_str();
  a->presence->add_option("--eta", a->eta, "|f - g| when a marked symbol occurs")->capture_default_str();
  a->presence->add_option("--alpha", a->alpha, "a Dirichlet prior stored as check.dirichlet_alpha, e.g. 2,1/2");
  a->presence->add_flag("--absence", a->absence,
                        "f = eta instead of 0: |f - g| = eta exactly when no marked symbol occurs (E_t decays)");
  a->regularity = gen->add_subcommand(
      "regularity", "Theorem 4.2's regularity counterexample: inputs over Sigma_short up to length K, its complement after");
  a->regularity->add_option("--switch", a->switch_length, "the switch length K")->capture_default_str()
      ->check(CLI::Range(std::uint64_t{1}, std::uint64_t{1000000000}));
  a->regularity->add_option("--vocab", a->vocab, "the alphabet size S (symbols 0..S-1)")->capture_default_str()
      ->check(CLI::Range(2, 32));
  a->regularity->add_option("--short", a->short_size, "Sigma_short = the first N symbols")->capture_default_str();
  a->regularity->add_option("--eta", a->eta, "|f - g| on inputs over the complement")->capture_default_str();
  a->regularity->add_option("--alpha", a->alpha, "the Dirichlet prior, restricted to each side (default all 1)");
  a->regime = gen->add_subcommand(
      "regime", "A two-layer softmax model whose first head is token-dominant (phi1 < 1), balanced (= 1) or "
                "position-dominant (> 1)");
  a->regime->add_option("--phi1", a->phi1, "phi(1) of the first head (phi(0) = 0)")->capture_default_str();
  a->regime->add_option("--content", a->content, "the content logit of a key holding 1")->capture_default_str();
  // gen's own options (--out, --name, --check, --expect) may also follow the kind.
  for (CLI::App* kind : gen->get_subcommands({})) kind->fallthrough();
  return {gen, [a] { return run_gen(*a); }};
}

}  // namespace lgc::cli
