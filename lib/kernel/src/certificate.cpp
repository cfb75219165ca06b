// check_certificate: recomputation of recorded constants and witnesses.
#include "lgcheck/kernel/certificate.hpp"

#include "lgcheck/kernel/average.hpp"
#include "lgcheck/kernel/enumeration.hpp"
#include "lgcheck/kernel/json_read.hpp"
#include "lgcheck/kernel/quantities.hpp"
#include "lgcheck/kernel/section5.hpp"
#include "lgcheck/kernel/witness.hpp"
#include "lgcheck/model/case_file.hpp"

#include <algorithm>
#include <functional>

namespace lgc::kernel {
namespace {

using nlohmann::json;

constexpr std::size_t kMaxWitnesses = 1000000;
constexpr std::uint64_t kMaxEnumeratedStrings = 8192;  // brute force over all strings of a length

/// All strings of length t over S symbols, when there are at most kMaxEnumeratedStrings.
bool for_each_string(std::size_t S, std::size_t t, const std::function<void(const Tokens&)>& visit) {
  if (t > 64) return false;  // also bounds the work when S = 1
  std::uint64_t total = 1;
  for (std::size_t k = 0; k < t; ++k)
    if ((total *= S) > kMaxEnumeratedStrings) return false;
  Tokens x(t, 0);
  for (std::uint64_t n = 0; n < total; ++n) {
    std::uint64_t v = n;
    for (std::size_t k = 0; k < t; ++k, v /= S) x[k] = static_cast<int>(v % S);
    visit(x);
  }
  return true;
}

/// o[key], or nullptr when o is not an object holding it.
const json* member(const json& o, const char* key) { return o.is_object() && o.contains(key) ? &o[key] : nullptr; }

/// o[key] read as a rational, or as a length; nullopt when absent or malformed.
std::optional<Rational> rational_at(const json& o, const char* key, std::string why = "") {
  return member(o, key) ? read_rational(o[key], why) : std::nullopt;
}
std::optional<std::uint64_t> count_at(const json& o, const char* key, std::string why = "") {
  return member(o, key) ? read_count(o[key], kMaxStatisticLength, why) : std::nullopt;
}

std::string enclosure_text(const Rational& lo, const Rational& hi) { return "[" + to_decimal(lo, 12) + ", " + to_decimal(hi, 12) + "]"; }

/// The unit of the last digit of a decimal literal: "2572.86" → 1/100, "1.3e+09" → 10^8.
Rational decimal_unit(const std::string& text) {
  const std::size_t e = text.find_first_of("eE"), dot = text.find('.');
  const long exponent = e == std::string::npos ? 0 : std::stol(text.substr(e + 1));
  const long decimals = dot == std::string::npos ? 0 : static_cast<long>(std::min(e, text.size()) - dot - 1);
  return pow(Rational(10), exponent - decimals);
}

/// |f(x) − g(x)|∞ exactly (nullopt when an output is an enclosure).
std::optional<Rational> exact_distance(const Case& c, const Tokens& x) {
  Values f = evaluate(c.models[0], x, c.models[0].semantics), g = evaluate(c.models[1], x, c.models[1].semantics);
  for (std::size_t k = 0; k < f.size(); ++k)
    if (!f[k].is_exact() || !g[k].is_exact()) return std::nullopt;
  return difference_bracket(f, g).lo;
}

class Checker {
 public:
  explicit Checker(const json& cert) : cert_(cert) {}

  CertificateReport run() {
    try {
      if (!cert_.is_object()) return problem("", "expected a certificate object, got " + show(cert_)), report_;
      if (!read_header() || !read_case()) return report_;
      const std::string claim = cert_["claim"].get<std::string>();
      evidence_ = &cert_["evidence"];
      build_context();
      if (claim == "S.consistency" || claim == "T4.1.threshold") check_threshold_claim();
      else if (claim == "L4.L") check_norm_claim();
      else if (claim == "T4.1.sim") check_simulation_claim();
      else if (claim == "T4.1.lg") check_implication_claim();
      else if (claim == "T4.1.witness") check_witness_claim();
      else if (claim == "T4.2.avg") check_average_claim();
      else if (claim == "C4.2.regularity") check_regularity_claim();
      else if (claim == "L5.conv") check_convergence_claim();
      else if (claim == "L5.lip") check_lipschitz_claim();
      else if (claim == "D5.4.kgram") check_kgram_claim();
      else if (claim == "L5.3.subsample") check_subsample_claim();
      else if (claim == "T5.2.sim") check_complexity_claim();
      else problem("claim", "unknown claim \"" + claim + "\"");
      check_witnesses(claim);
      check_enumeration(claim);
    } catch (const std::exception& e) {  // a guard: every path above validates first
      problem("", std::string("the kernel failed: ") + e.what());
    }
    return report_;
  }

 private:
  const json& cert_;
  const json* evidence_ = nullptr;
  Case case_;
  WitnessContext ctx_;
  CertificateReport report_;

  void problem(const std::string& path, const std::string& why) { report_.problems.push_back(path.empty() ? why : path + ": " + why); }
  const json* field(const char* key) const { return member(*evidence_, key); }

  bool read_header() {
    if (!cert_.contains("format") || cert_["format"] != "lgcheck-certificate/1")
      problem("format", "expected \"lgcheck-certificate/1\"");
    if (!cert_.contains("claim") || !cert_["claim"].is_string()) return problem("claim", "missing or not a string"), false;
    static const std::vector<std::string> verdicts = {"PROVED", "SAMPLED", "VACUOUS", "REFUTED", "UNDECIDED"};
    if (!cert_.contains("verdict") || !cert_["verdict"].is_string() ||
        std::find(verdicts.begin(), verdicts.end(), cert_["verdict"].get<std::string>()) == verdicts.end())
      problem("verdict", "expected one of PROVED, SAMPLED, VACUOUS, REFUTED, UNDECIDED");
    if (!cert_.contains("evidence") || !cert_["evidence"].is_object()) return problem("evidence", "missing or not an object"), false;
    return true;
  }

  bool read_case() {
    if (!cert_.contains("case") || !cert_["case"].is_object()) return problem("case", "missing or not an object"), false;
    const json& c = cert_["case"];
    if (c.contains("pair") && c["pair"].is_array())  // a path would make the parser read a file: refuse it
      for (const auto& member : c["pair"])
        if (!member.is_object()) return problem("case.pair", "the models of a pair must be inline objects"), false;
    try {
      case_ = parse_case(c, "certificate");
    } catch (const std::exception& e) {
      return problem("case", std::string("refused by the case parser: ") + e.what()), false;
    }
    // The constants loop over pairs of classes: refuse sizes no bundled case comes near.
    const Model& m = case_.model();
    if (m.alphabet_size() * m.period > 4096 || m.locality > 4096 || m.width > 4096)
      return problem("case", "too large for the kernel (S·Δ, τ and the width are limited to 4096)"), false;
    report_.reestablished.push_back("case (parsed and validated)");
    return true;
  }

  /// p per model: its finite:p, else the check block's precision_bits (default 3).
  void build_context() {
    ctx_.c = &case_;
    const unsigned check_p = static_cast<unsigned>(case_.check_count("precision_bits", 3));
    for (const Model& m : case_.models) {
      ctx_.L.push_back(norm_constant(m));
      ctx_.p.push_back(m.semantics.kind == Semantics::Kind::Finite ? m.semantics.bits : check_p);
      bool ok = false;
      Integer t = safe([&] { return hardmax_threshold(ctx_.p.back(), logit_margin(m)); }, "threshold", ok);
      ctx_.threshold.push_back(ok ? t : Integer(-1));
    }
  }

  // --- comparisons: "evidence.X: recorded A, recomputed B" ---------------
  void compare_rational(const std::string& path, const json* recorded, const Rational& value, bool known = true) {
    if (!known) return report_.not_reestablished.push_back(path + ": not defined by the kernel for this case");
    if (!recorded) return problem(path, "missing (recomputed " + to_string(value) + ")");
    std::string why;
    auto r = read_rational(*recorded, why);
    if (!r) return problem(path, why);
    if (*r != value) return problem(path, "recorded " + to_string(*r) + ", recomputed " + to_string(value));
    report_.reestablished.push_back(path);
  }
  void compare_integer(const std::string& path, const json* recorded, const std::optional<Integer>& value) {
    if (!value) return report_.not_reestablished.push_back(path + ": not defined by the kernel for this case");
    compare_rational(path, recorded, Rational(*value));
  }
  void compare_margin(const std::string& path, const json* recorded, const Margin& g) {
    if (!g) {
      if (!recorded || *recorded != "inf") return problem(path, "recorded " + (recorded ? show(*recorded) : "nothing") + ", recomputed inf");
      return report_.reestablished.push_back(path);
    }
    compare_rational(path, recorded, *g);
  }
  Integer safe(const std::function<Integer()>& compute, const std::string& path, bool& ok) {
    try {
      ok = true;
      return compute();
    } catch (const std::exception& e) {
      ok = false;
      problem(path, std::string("cannot be recomputed: ") + e.what());
      return Integer(0);
    }
  }

  // --- claims --------------------------------------------------------------
  /// evidence.L: L(f), or for a pair "L(f), L(g)" (each model's own constant).
  void check_norm_claim() {
    std::string recorded = field("L") && field("L")->is_string() ? field("L")->get<std::string>() : "";
    std::string expected;
    for (const auto& L : ctx_.L) {
      if (!L) return report_.not_reestablished.push_back("evidence.L: L(f) is defined for one-layer models only");
      expected += (expected.empty() ? "" : ", ") + to_string(*L);
    }
    if (recorded != expected)
      return problem("evidence.L", "recorded " + (field("L") ? (recorded.empty() ? show(*field("L")) : recorded) : "nothing") +
                                       ", recomputed " + expected);
    report_.reestablished.push_back("evidence.L");
  }

  void check_threshold_claim() {
    const Margin g = logit_margin(case_.models);
    compare_margin("evidence.gamma", field("gamma"), g);
    compare_rational("evidence.p", field("p"), Rational(ctx_.p.front()));
    bool ok = false;
    Integer t = safe([&] { return hardmax_threshold(ctx_.p.front(), g); }, "evidence.threshold", ok);
    if (ok) compare_integer("evidence.threshold", field("threshold"), t);
    // T4.1.threshold's sharpness witness sits at T = t − 1 (its difference is checked with the witnesses).
    const json* w = field("witness");
    if (ok && w && w->is_object() && t > 1)
      compare_integer("evidence.witness.length", w->contains("length") ? &(*w)["length"] : nullptr, Integer(t - 1));
  }

  Rational epsilon_of(const Rational& fallback) {
    Rational eps = case_.check_rational("epsilon", fallback);
    compare_rational("evidence.epsilon", field("epsilon"), eps);
    return eps;
  }

  void check_simulation_claim() {
    const Rational eps = epsilon_of(Rational(1, 10));
    std::optional<Integer> n;
    try {
      n = n_sim(case_.models, eps);
    } catch (const std::exception& e) {
      return problem("evidence.N_sim", std::string("cannot be recomputed: ") + e.what());
    }
    compare_integer("evidence.N_sim", field("N_sim"), n);
    compare_integer("evidence.N_sim_claimed", field("N_sim_claimed"), n);
    if (auto L = norm_constant(case_.models)) compare_rational("evidence.delta", field("delta"), eps / *L, *L != 0);
    ctx_.epsilon = eps;
    ctx_.n_sim = n;
  }

  void check_implication_claim() {
    const Rational eps = epsilon_of(Rational(1, 10));
    try {
      compare_integer("evidence.N", field("N"), n_sim(case_.models, eps));
      std::string why;
      if (const json* e2 = field("simulation_eps")) {
        auto eps2 = read_rational(*e2, why);
        if (!eps2 || *eps2 <= 0) problem("evidence.simulation_eps", why.empty() ? "must be positive" : why);
        else compare_integer("evidence.simulation_N", field("simulation_N"), n_sim(case_.models, *eps2));
      }
    } catch (const std::exception& e) {
      problem("evidence.N", std::string("cannot be recomputed: ") + e.what());
    }
    report_.not_reestablished.push_back("evidence.D_inf_upper: the bracket's upper end (value perturbation / readout gap) is not recomputed");
  }

  void check_witness_claim() {
    const Rational eta = case_.check_rational("eta", Rational(1, 4));
    compare_rational("evidence.eta", field("eta"), eta);
    const std::uint64_t n = case_.check_count("witness_n", 0);
    compare_rational("evidence.n", field("n"), Rational(n));
    compare_rational("evidence.differ_by", field("differ_by"), Rational(2 * n));
    // D(n) = 0: every string of every length <= n, when few enough.
    bool all = n > 0 && case_.is_pair;
    Rational worst = 0;
    for (std::size_t t = 1; all && t <= n; ++t)
      all = for_each_string(case_.model().alphabet_size(), t, [&](const Tokens& x) {
        auto d = exact_distance(case_, x);
        if (!d) all = false;
        else worst = std::max(worst, *d);
      });
    if (all) compare_rational("evidence.D_n", field("D_n"), worst);
    else report_.not_reestablished.push_back("evidence.D_n: too many strings of length <= n to enumerate");
    ctx_.epsilon = eta;  // pair_distance witnesses must reach eta: checked in check_witnesses
  }

  void check_average_claim() {
    if (!case_.check.contains("dirichlet_alpha")) return problem("case.check.dirichlet_alpha", "missing");
    std::vector<Rational> alpha;
    std::string text;
    for (std::size_t s = 0; s < case_.check["dirichlet_alpha"].size(); ++s) {
      alpha.push_back(json_rational(case_.check["dirichlet_alpha"][s], "certificate", "check.dirichlet_alpha"));
      text += (s ? "," : "") + to_string(alpha.back());
    }
    if (!field("alpha") || *field("alpha") != text)
      problem("evidence.alpha", "recorded " + (field("alpha") ? show(*field("alpha")) : "nothing") + ", the case gives \"" + text + "\"");
    else
      report_.reestablished.push_back("evidence.alpha");
    std::optional<Rational> amin;
    for (const auto& a : alpha)
      if (a > 0 && (!amin || a < *amin)) amin = a;
    if (amin) compare_rational("evidence.alpha_min", field("alpha_min"), *amin);
    const Rational eps = epsilon_of(Rational(1, 4)), c = case_.check_rational("N0_constant", Rational(1));
    const unsigned k = static_cast<unsigned>(case_.check_count("N0_log_power", 0));
    compare_rational("evidence.c", field("c"), c);
    compare_rational("evidence.log_power", field("log_power"), Rational(k));
    compare_rational("evidence.C", field("C"), case_.check_rational("conclusion_constant", Rational(1)));
    bool ok = false;
    Integer n0 = safe([&] { return n0_average(alpha, eps, c, k); }, "evidence.N0", ok);
    if (ok) compare_integer("evidence.N0", field("N0"), n0);
    check_premise(alpha, eps, ok ? n0 : Integer(0));
    report_.not_reestablished.push_back("evidence.conclusion: E_T at T >= N0 is beyond the kernel's brute force");
  }

  /// E_t = Σ_x P(x)·|f(x) − g(x)|∞ over all strings of length t (nullopt when too many or inexact).
  std::optional<Rational> brute_expectation(const std::vector<Rational>& alpha, std::size_t t) {
    Rational sum = 0;
    bool exact = case_.is_pair;
    bool small = exact && for_each_string(case_.model().alphabet_size(), t, [&](const Tokens& x) {
      auto d = exact_distance(case_, x);
      if (!d) exact = false;
      else sum += string_probability(alpha, x) * *d;
    });
    if (!small || !exact) return std::nullopt;
    return sum;
  }

  void check_premise(const std::vector<Rational>& alpha, const Rational& eps, const Integer& n0) {
    const json* premise = field("premise");
    if (!premise || !premise->is_object() || !premise->contains("holds") || !(*premise)["holds"].is_boolean())
      return problem("evidence.premise", "missing, or without a boolean \"holds\"");
    const bool holds = (*premise)["holds"].get<bool>();
    const char* at_key = holds ? "at" : "length";
    const char* value_key = holds ? "max_E" : "E";
    std::string why;
    auto t = premise->contains(at_key) ? read_count((*premise)[at_key], 1000000, why) : std::nullopt;
    if (!t || *t == 0) return problem(std::string("evidence.premise.") + at_key, why.empty() ? "missing or 0" : why);
    auto e = brute_expectation(alpha, *t);
    if (!e) return report_.not_reestablished.push_back("evidence.premise: E_" + std::to_string(*t) + " not enumerable by strings");
    compare_rational(std::string("evidence.premise.") + value_key, premise->contains(value_key) ? &(*premise)[value_key] : nullptr, *e);
    if (holds != (*e <= eps)) problem("evidence.premise.holds", "E_" + std::to_string(*t) + " = " + to_string(*e) + " against epsilon " + to_string(eps));
    // The other lengths strings can reach: E_u <= max_E up to N0, or <= ε before the first failure.
    const Rational cap = holds ? *e : eps;
    std::size_t reached = 0;
    for (std::size_t u = 1; holds ? Integer(u) <= n0 : u < *t; ++u) {
      auto eu = brute_expectation(alpha, u);
      if (!eu) break;
      reached = u;
      if (*eu > cap)
        return problem("evidence.premise", "E_" + std::to_string(u) + " = " + to_string(*eu) + " exceeds " + to_string(cap));
    }
    if (reached > 0) report_.reestablished.push_back("evidence.premise: E_t <= " + to_string(cap) + " for t = 1.." + std::to_string(reached));
  }

  /// A constant the kernel encloses: equal when exact, else inside the kernel's
  /// 128-bit enclosure (up to 2^-100 relative above it: both are upper ends).
  void compare_enclosed(const std::string& path, const json* recorded, const Number& value) {
    if (value.is_exact()) return compare_rational(path, recorded, value.exact());
    if (!recorded) return problem(path, "missing");
    std::string why;
    auto r = read_rational(*recorded, why);
    if (!r) return problem(path, why);
    const Rational lo = lower_of(value), hi = upper_of(value);
    const Rational slack = (hi < 0 ? Rational(-hi) : hi) / pow(Rational(2), 100);
    if (*r < lo || *r > hi + slack)
      return problem(path, "recorded " + to_string(*r) + ", the kernel encloses it in " + enclosure_text(lo, hi));
    report_.reestablished.push_back(path + " (within the kernel's enclosure)");
  }

  /// A recorded decimal d with last-digit unit u stands for [d − u, d + u]: it agrees
  /// when that meets the kernel's enclosure (`at_most`: when d − u is not above it).
  void compare_decimal(const std::string& path, const json* recorded, const Number& value, bool at_most = false) {
    std::string why;
    auto d = recorded && recorded->is_string() ? read_rational(*recorded, why) : std::nullopt;
    if (!d) return problem(path, why.empty() ? "missing or not a decimal string" : why);
    const Rational u = decimal_unit(recorded->get<std::string>()), lo = lower_of(value), hi = upper_of(value);
    if (*d - u > hi || (!at_most && *d + u < lo))
      return problem(path, "recorded " + show(*recorded) + ", recomputed " + (at_most ? "at most " : "") + enclosure_text(lo, hi));
    report_.reestablished.push_back(path);
  }

  /// Lemma 5.3: c, the rate, and per test G and L at most the kernel's query-free
  /// bounds and the bound c(G + L)(τ+1)|z|^{−1/3} from the recorded G and L.
  void check_subsample_claim() {
    const Model& m = case_.model();
    if (auto why = layer2_obstacle(m)) return report_.not_reestablished.push_back("L5.3.subsample: " + *why);
    const Rational c = case_.check_rational("subsample_constant", Rational(1)), tau1(static_cast<unsigned long>(m.locality + 1));
    compare_rational("evidence.c", field("c"), c);
    compare_rational("evidence.rate", field("rate"), Rational(1, 3));
    const Section5Bounds k = section5_bounds(m, c);
    const json* tests = field("tests");
    if (!tests || !tests->is_array()) return problem("evidence.tests", "missing or not an array");
    for (std::size_t i = 0; i < tests->size(); ++i) {
      const json& t = (*tests)[i];
      const std::string path = "evidence.tests[" + std::to_string(i) + "]";
      for (const char* key : {"G", "L"}) compare_decimal(path + "." + key, member(t, key), *key == 'G' ? k.G : k.L, true);
      auto G = rational_at(t, "G"), L = rational_at(t, "L");
      auto n = count_at(t, "length_z");
      if (!G || !L || !n || *n == 0) { problem(path, "G, L or length_z unreadable"); continue; }
      compare_decimal(path + ".bound", member(t, "bound"), Number(c * (*G + *L) * tau1) * Number(power(Integer(*n), Rational(-1, 3), 128)));
    }
  }

  /// Theorem 5.2: C = max(C(f), C(g)), N_variant_A/B from it, and each row's C(model)·|z|^{−r′}.
  void check_complexity_claim() {
    const Rational c = case_.check_rational("subsample_constant", Rational(1)), eps = case_.check_rational("epsilon", Rational(1, 10));
    std::vector<Section5Bounds> bounds;
    Margin gamma;  // the smaller positional margin
    for (const Model& m : case_.models) {
      if (auto why = layer2_obstacle(m)) return report_.not_reestablished.push_back("T5.2.sim: " + *why);
      bounds.push_back(section5_bounds(m, c));
      if (const Margin g = positional_margin(m); g && (!gamma || *g < *gamma)) gamma = g;
    }
    Number C = bounds.front().C;
    for (const auto& b : bounds) C = certified_max(C, b.C);
    compare_enclosed("evidence.C", field("C"), C);
    auto recorded = rational_at(*evidence_, "C");
    if (recorded && *recorded >= lower_of(C) && *recorded > 0) {  // the exact N's follow from the recorded C once it is accepted
      const Rational e = gamma ? std::max(Rational(1 / *gamma), Rational(3)) : Rational(3);
      const long u = numerator(e).convert_to<long>(), v = denominator(e).convert_to<long>();
      compare_integer("evidence.N_variant_A", field("N_variant_A"), ceil_power(*recorded / eps, e));
      compare_integer("evidence.N_variant_B", field("N_variant_B"), ceil_power(pow(*recorded, v) * pow(1 / eps, u), Rational(1, v)));
    }
    const json* rows = field("rows");
    if (!rows || !rows->is_array()) return problem("evidence.rows", "missing or not an array");
    for (std::size_t i = 0; i < rows->size(); ++i) {
      const json& r = (*rows)[i];
      const std::string path = "evidence.rows[" + std::to_string(i) + "]";
      const std::size_t which = member(r, "model") && r["model"] == "g" ? 1 : 0;
      auto n = count_at(r, "length_z");
      if (!member(r, "model") || !(r["model"] == "f" || r["model"] == "g") || which >= bounds.size() || !n || *n == 0)
        problem(path, "model or length_z unreadable");
      else if (member(r, "a_priori_bound"))
        compare_decimal(path + ".a_priori_bound", member(r, "a_priori_bound"), bounds[which].C * Number(power(Integer(*n), -bounds[which].rate, 128)));
    }
    report_.not_reestablished.push_back("T5.2.sim: the a-posteriori simulation-error bound and the errors (x is not recorded)");
  }

  void check_convergence_claim() {
    const Model& m = case_.model();
    const Margin g = positional_margin(m);
    compare_margin("evidence.gamma", field("gamma"), g);
    compare_rational("evidence.rate", field("rate"), g ? std::min(*g, Rational(1)) : Rational(1));
    compare_rational("evidence.from", field("from"), Rational(2 * (m.locality + 1)));
    compare_rational("evidence.mlp_lipschitz", field("mlp_lipschitz"), first_mlp_lipschitz(m));
    compare_enclosed("evidence.K", field("K"), convergence_constant(m));
    report_.not_reestablished.push_back("L5.conv: the errors at each position are not recomputed");
  }

  void check_lipschitz_claim() {
    const Model& m = case_.model();
    compare_rational("evidence.mlp_lipschitz", field("mlp_lipschitz"), first_mlp_lipschitz(m));
    compare_enclosed("evidence.Lip", field("Lip"), limit_lipschitz(m));
    report_.not_reestablished.push_back("L5.lip: the sampled pairs are not recomputed");
  }

  void check_kgram_claim() {
    const Model& m = case_.model();
    compare_margin("evidence.gamma", field("gamma"), positional_margin(m));
    const std::uint64_t k = case_.check_count("kgram_k", 0);
    compare_rational("evidence.k", field("k"), Rational(k));
    const Rational eps = epsilon_of(Rational(1, 2)), rho = case_.check_rational("rho", Rational(1));
    compare_rational("evidence.rho", field("rho"), rho);
    compare_integer("evidence.min_length", field("min_length"), kgram_min_length(k, rho, eps));
    report_.not_reestablished.push_back("D5.4.kgram: the inputs' errors against f* are not recomputed");
  }

  void check_regularity_claim() {
    // The evidence echoes the case: compare, and say that E_t is not recomputed.
    compare_rational("evidence.eta", field("eta"), case_.check_rational("eta", Rational(1)));
    compare_rational("evidence.switch_length", field("switch_length"), Rational(case_.check_count("switch_length", 0)));
    compare_rational("evidence.tail", field("tail"), Rational(case_.check_count("regularity_tail", 64)));
    report_.not_reestablished.push_back("C4.2.regularity: E_t under the switching distribution is not recomputed");
  }

  // --- exhaustive domains: the count, and the claim's inequality on sampled strings -----
  void check_enumeration(const std::string& claim) {
    const json* scope = member(cert_, "scope");
    const json* text = scope ? member(*scope, "domain") : nullptr;
    if (!text || !text->is_string() || text->get<std::string>().empty()) return;
    const auto d = parse_domain(text->get<std::string>());
    if (!d) return report_.not_reestablished.push_back("scope.domain: not a domain the kernel enumerates");
    compare_integer("scope.exhaustive", member(*scope, "exhaustive"), domain_count(*d, case_.model()));
    const bool expandable = d->hi <= (case_.model().layers.size() <= 1 ? kMaxExpandedLength : kMaxExpandedLength / 20);  // as witnesses
    const std::vector<Tokens> samples = expandable ? sample_strings(*d, case_.model()) : std::vector<Tokens>{};
    std::size_t checked = 0;
    for (const Tokens& x : samples) checked += sampled_inequality(claim, *d, x);
    if (checked > 0)
      report_.reestablished.push_back("scope.domain: the inequality at " + std::to_string(checked) + " sampled instances (seed " +
                                      std::to_string(kSampleSeed) + ")");
  }

  /// The claim's inequality at one sampled string (each query position of a StringPositions
  /// domain): how many instances were checked. A failure is a problem naming the string.
  std::size_t sampled_inequality(const std::string& claim, const Domain& d, const Tokens& x) {
    const Model& m = case_.model();
    auto fail = [&](const std::string& what) {
      std::string s;
      for (int t : x) s += m.alphabet[static_cast<std::size_t>(t)];
      return problem("scope.domain", what + " at the sampled input " + s), std::size_t{1};
    };
    if ((claim == "S.consistency" || claim == "T4.1.threshold") && cert_["verdict"] != "REFUTED") {
      std::size_t n = 0;
      const bool positions = d.kind == Domain::Kind::StringPositions;
      for (std::uint64_t i = positions ? std::max<std::uint64_t>(d.first, 1) : x.size(); i <= (positions ? d.last : x.size()) && i <= x.size(); ++i) {
        if (Integer(i) < ctx_.threshold.front()) continue;
        const Tokens prefix(x.begin(), x.begin() + static_cast<long>(i));
        if (difference_bracket(last_representation(m, prefix, Semantics::finite(ctx_.p.front())), last_representation(m, prefix, Semantics::hardmax())).lo > 0)
          return fail("finite:p and hardmax differ at position " + std::to_string(i));
        ++n;
      }
      return n;
    }
    const char* key = claim == "T4.1.witness" ? "D_n" : claim == "T4.1.lg" ? "D_inf_upper" : nullptr;
    auto bound = key ? rational_at(*evidence_, key) : std::nullopt;
    if (!bound || !case_.is_pair || (claim == "T4.1.witness" && x.size() > case_.check_count("witness_n", 0))) return 0;
    const Rational dist = difference_bracket(evaluate(case_.models[0], x, case_.models[0].semantics), evaluate(case_.models[1], x, case_.models[1].semantics)).lo;
    return dist > *bound ? fail(std::string("|f - g| is above evidence.") + key) : 1;
  }

  // --- witnesses -------------------------------------------------------------
  void check_witnesses(const std::string& claim) {
    const json* ws = field("witnesses");
    if (!ws) return;
    if (!ws->is_array()) return problem("evidence.witnesses", "expected an array, got " + show(*ws));
    if (ws->size() > kMaxWitnesses) return problem("evidence.witnesses", "more than " + std::to_string(kMaxWitnesses) + " witnesses");
    for (std::size_t i = 0; i < ws->size(); ++i) {
      const json& w = (*ws)[i];
      const std::string path = "evidence.witnesses[" + std::to_string(i) + "]";
      const std::string kind = w.is_object() && w.contains("kind") && w["kind"].is_string() ? w["kind"].get<std::string>() : "?";
      if (!check_witness_fields(claim, kind, w, path)) continue;
      WitnessResult r = check_witness(w, ctx_);
      const std::string name = "witness " + std::to_string(i) + " (" + kind + ")";
      if (r.status == WitnessStatus::Reestablished) ++report_.witnesses_checked, report_.reestablished.push_back(name);
      else if (r.status == WitnessStatus::Rejected) ++report_.witnesses_checked, problem(path, r.why);
      else report_.not_reestablished.push_back(name + ": " + r.why);
    }
  }

  /// Claim-specific requirements on a witness beyond its own property.
  bool check_witness_fields(const std::string& claim, const std::string& kind, const json& w, const std::string& path) {
    if (!w.is_object()) return true;  // check_witness reports it
    std::string why;
    if (claim == "L4.L" && w.contains("L")) {  // the recorded L is never used; it must be the kernel's
      auto m = w.contains("model") ? read_count(w["model"], case_.models.size() - 1, why) : std::optional<std::uint64_t>(0);
      auto L = read_rational(w["L"], why);
      const auto& mine = m ? ctx_.L[*m] : std::optional<Rational>();
      if (!L || !mine || *L != *mine)
        return problem(path + ".L", "recorded " + show(w["L"]) + ", recomputed " + (mine ? to_string(*mine) : "undefined")), false;
    }
    if (claim == "T4.1.witness" && kind == "pair_distance") {
      auto a = rational_at(w, "at_least");
      if (a && ctx_.epsilon && *a < *ctx_.epsilon) return problem(path + ".at_least", "below eta = " + to_string(*ctx_.epsilon)), false;
      auto T = member(w, "statistic") ? count_at(w["statistic"], "length") : std::nullopt;
      if (T && *T > 2 * case_.check_count("witness_n", 0)) return problem(path + ".statistic.length", "longer than 2n"), false;
    }
    if (claim == "T4.1.threshold" && kind == "finite_differs") {
      auto T = member(w, "statistic") ? count_at(w["statistic"], "length") : std::nullopt;
      const std::string verdict = cert_.contains("verdict") && cert_["verdict"].is_string() ? cert_["verdict"].get<std::string>() : "";
      if (T && Integer(*T) >= ctx_.threshold.front() && verdict != "REFUTED")
        return problem(path, "a difference at T >= threshold contradicts the verdict " + verdict), false;
    }
    return true;
  }
};

}  // namespace

CertificateReport check_certificate(const json& certificate) { return Checker(certificate).run(); }

}  // namespace lgc::kernel
