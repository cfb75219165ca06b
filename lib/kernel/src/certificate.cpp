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
#include <cstdio>
#include <functional>

namespace lgc::kernel {
namespace {

using nlohmann::json;

constexpr std::size_t kMaxWitnesses = 1000000;
constexpr std::uint64_t kMaxEnumeratedStrings = 8192;  // brute force over all strings of a length

/// All strings of length t over `symbols`, when there are at most `limit` (and t <= 1000).
bool for_each_string(const Tokens& symbols, std::size_t t, const std::function<void(const Tokens&)>& visit,
                     std::uint64_t limit = kMaxEnumeratedStrings) {
  const std::size_t S = symbols.size();
  std::uint64_t total = 1;
  for (std::size_t k = 0; k < t; ++k)
    if (t > 1000 || S == 0 || (total *= S) > limit) return false;
  Tokens x(t, 0);
  for (std::uint64_t n = 0; n < total; ++n) {
    std::uint64_t v = n;
    for (std::size_t k = 0; k < t; ++k, v /= S) x[k] = symbols[v % S];
    visit(x);
  }
  return true;
}
/// The symbols with a positive weight; all S symbols.
Tokens support(const std::vector<Rational>& alpha) {
  Tokens out;
  for (std::size_t s = 0; s < alpha.size(); ++s)
    if (alpha[s] > 0) out.push_back(static_cast<int>(s));
  return out;
}
Tokens symbols(std::size_t S) { return support(std::vector<Rational>(S, Rational(1))); }

/// o[key], or nullptr when o is not an object holding it.
const json* member(const json& o, const char* key) { return o.is_object() && o.contains(key) ? &o[key] : nullptr; }

/// o[key] read as a rational, or as a length; nullopt when absent or malformed.
std::optional<Rational> rational_at(const json& o, const char* key, std::string why = "") {
  return member(o, key) ? read_rational(o[key], why) : std::nullopt;
}
std::optional<std::uint64_t> count_at(const json& o, const char* key, std::string why = "") {
  return member(o, key) ? read_count(o[key], kMaxStatisticLength, why) : std::nullopt;
}

/// x written with the model's symbols.
std::string text_of(const Model& m, const Tokens& x) {
  std::string s;
  for (int t : x) s += m.alphabet[static_cast<std::size_t>(t)];
  return s;
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
      all = for_each_string(symbols(case_.model().alphabet_size()), t, [&](const Tokens& x) {
        auto d = exact_distance(case_, x);
        if (!d) all = false;
        else worst = std::max(worst, *d);
      });
    if (all) compare_rational("evidence.D_n", field("D_n"), worst);
    else report_.not_reestablished.push_back("evidence.D_n: too many strings of length <= n to enumerate");
    ctx_.epsilon = eta;  // pair_distance witnesses must reach eta: checked in check_witnesses
  }

  void check_average_claim() {
    const auto read = case_alpha();
    if (!read) return;
    const std::vector<Rational>& alpha = *read;
    std::string text;
    for (const auto& a : alpha) text += (text.empty() ? "" : ",") + to_string(a);
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

  /// E_t = Σ_x P(x)·|f(x) − g(x)|∞ over the strings of length t of α's support (nullopt when too many or inexact).
  std::optional<Rational> brute_expectation(const std::vector<Rational>& alpha, std::size_t t) {
    Rational sum = 0;
    bool exact = case_.is_pair;
    bool small = exact && for_each_string(support(alpha), t, [&](const Tokens& x) {
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
    const std::uint64_t last = holds ? (n0 > 100000 ? 0 : n0.convert_to<std::uint64_t>()) : *t, listed = std::min<std::uint64_t>(last, 16);
    check_average_domain(n0, last, holds);
    auto e = brute_expectation(alpha, *t);
    if (!e) report_.not_reestablished.push_back("evidence.premise: E_" + std::to_string(*t) + " not enumerable by strings");
    else compare_rational(std::string("evidence.premise.") + value_key, premise->contains(value_key) ? &(*premise)[value_key] : nullptr, *e);
    if (!e) e = rational_at(*premise, value_key);  // the bound the other lengths are held to, as recorded
    if (!e) return problem(std::string("evidence.premise.") + value_key, "missing or unreadable");
    if (holds != (*e <= eps)) problem("evidence.premise.holds", "E_" + std::to_string(*t) + " = " + to_string(*e) + " against epsilon " + to_string(eps));
    // Every E_u strings reach: equal to the recorded premise.values[u − 1] (E_1..E_min(last, 16)), and at most
    // max_E up to N0, or at most ε before a recorded first failure.
    const json* values = member(*premise, "values");
    if (!values || !values->is_array() || values->size() != listed)
      problem("evidence.premise.values", "expected E_1..E_" + std::to_string(listed) + ", got " + (values ? show(*values) : "nothing"));
    const Rational cap = holds ? *e : eps;
    std::size_t reached = 0;
    for (std::size_t u = 1; u <= last; ++u) {
      auto eu = brute_expectation(alpha, u);
      if (!eu) break;
      reached = u;
      if (u <= listed && values && values->is_array() && values->size() == listed)
        compare_rational("evidence.premise.values[" + std::to_string(u - 1) + "]", &(*values)[u - 1], *eu);
      if ((holds || u < last) && *eu > cap)
        return problem("evidence.premise", "E_" + std::to_string(u) + " = " + to_string(*eu) + " exceeds " + to_string(cap));
    }
    if (reached > 0) report_.reestablished.push_back("evidence.premise: E_t <= " + to_string(cap) + " for t = 1.." + std::to_string(std::min<std::size_t>(reached, holds ? last : last - 1)));
  }

  /// T4.2.avg's domain (theory.md "T4.2.avg"): the premise's lengths 1..last, then, when it holds, the conclusion's:
  /// every T in [N₀, N₀·2^d] or T = N₀·2^j (the search's choice by its term estimate, read from conclusion_lengths).
  void check_average_domain(const Integer& n0, std::uint64_t last, bool holds) {
    std::string text = "E_t exactly for t = 1.." + std::to_string(last);
    Integer count = last;
    if (holds) {
      const std::uint64_t d = std::min<std::uint64_t>(case_.check_count("doublings", 3), 20);
      const bool every = field("conclusion_lengths") && *field("conclusion_lengths") == "every";
      text += " (premise) and E_T at " + (every ? "every T in [" + to_string(n0) + ", " + to_string(Integer(n0 << d)) + "]" : "T = N0 * 2^j, j = 0.." + std::to_string(d)) + " (conclusion)";
      count += every ? Integer((n0 << d) - n0 + 1) : Integer(d + 1);
    }
    compare_domain(text, count);
  }

  /// scope.domain must read `text` and scope.exhaustive be `count` (both recomputed); no recorded domain: not compared.
  void compare_domain(const std::string& text, const Integer& count) {
    const json* scope = member(cert_, "scope");
    const json* d = scope ? member(*scope, "domain") : nullptr;
    if (!d || !d->is_string() || d->get<std::string>().empty()) return report_.not_reestablished.push_back("scope.domain: none recorded");
    if (*d != text) problem("scope.domain", "recorded \"" + d->get<std::string>() + "\", recomputed \"" + text + "\"");
    else report_.reestablished.push_back("scope.domain");
    compare_integer("scope.exhaustive", member(*scope, "exhaustive"), count);
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
    // theory.md "L5.lip": for every query class q, slot-1 class (when τ >= 1) and ordered pair a != b of the K = SΔ classes.
    const Integer K(static_cast<unsigned long>(m.alphabet_size() * m.period));
    compare_domain("near-vertex pairs (all mass on one class, 1/1000 of it moved to another) for every query class and slot-1 class",
                   K * (m.locality ? K : Integer(1)) * K * (K - 1));
    report_.not_reestablished.push_back("L5.lip: the pairs' |Phi(mu) - Phi(mu')| (the kernel has no limit map Phi)");
  }

  void check_kgram_claim() {
    const Model& m = case_.model();
    compare_margin("evidence.gamma", field("gamma"), positional_margin(m));
    const std::uint64_t k = case_.check_count("kgram_k", 0);
    compare_rational("evidence.k", field("k"), Rational(k));
    const Rational eps = epsilon_of(Rational(1, 2)), rho = case_.check_rational("rho", Rational(1));
    compare_rational("evidence.rho", field("rho"), rho);
    const Integer T0 = kgram_min_length(k, rho, eps);
    compare_integer("evidence.min_length", field("min_length"), T0);
    check_kgram_domain(k, T0, eps, rho);
  }

  /// D5.4.kgram's domain (theory.md "D5.4.kgram"): the inputs of length T₀, T₀ + 1, … (to check.max_length, default 18,
  /// while the lengths' strings total at most 2^15) with match fraction >= ρ, recounted, plus the recorded number of hard
  /// inputs; then ‖f − f*‖∞ <= ε, certified, at those of kSamples strings of these lengths (kernel seed) inside the domain.
  void check_kgram_domain(std::uint64_t k, const Integer& T0, const Rational& eps, const Rational& rho) {
    const Model& m = case_.model();
    const std::uint64_t top = case_.check_count("max_length", 18), first = T0 > top ? top + 1 : T0.convert_to<std::uint64_t>();
    std::uint64_t last = 0, strings = 0, inside = 0;
    for (std::uint64_t T = first; T <= top; ++T) {
      if (!for_each_string(symbols(m.alphabet_size()), T, [&](const Tokens& x) { inside += match_fraction(x, k) >= rho; }, (1u << 15) - strings)) break;
      strings += pow(Integer(static_cast<unsigned long>(m.alphabet_size())), static_cast<unsigned long>(T)).convert_to<std::uint64_t>();
      last = T;
    }
    std::string text = last ? "every input of length " + std::to_string(first) + ".." + std::to_string(last) + " with match fraction >= rho (" + std::to_string(inside) + "), " : "";
    const json* scope = member(cert_, "scope");
    const json* recorded = scope ? member(*scope, "domain") : nullptr;
    unsigned long hard = 0;  // the hard inputs are not rebuilt: their number is read from the recorded text
    const std::string r = recorded && recorded->is_string() ? recorded->get<std::string>() : "";
    if (const auto at = r.find(" constructed hard inputs"); at != std::string::npos && at > 0)
      std::sscanf(r.c_str() + (r.rfind(' ', at - 1) == std::string::npos ? 0 : r.rfind(' ', at - 1) + 1), "%1lu", &hard);
    text += std::to_string(hard) + " constructed hard inputs (first k positions scoring like a match, match fraction near rho) at T = " +
            to_string(T0) + ".." + to_string(Integer(T0 + 2));
    compare_domain(text, Integer(inside + hard));
    report_.not_reestablished.push_back("scope.domain: the constructed hard inputs (not rebuilt; their number is read from the domain)");
    Domain d{Domain::Kind::Statistics, first, last, 0, 0, std::nullopt};
    std::size_t checked = 0, open = 0;
    for (const Tokens& x : last ? sample_strings(d, m) : std::vector<Tokens>{}) {
      if (match_fraction(x, k) < rho) continue;
      const std::vector<Rational> target = kgram_target(x, k, m.alphabet_size());
      const Bracket b = difference_bracket(evaluate(m, x, m.semantics), Values(target.begin(), target.end()));
      if (b.lo > eps) return problem("scope.domain", "|f - f*| > epsilon at the sampled input " + text_of(m, x));
      ++(b.hi <= eps ? checked : open);
    }
    if (checked + open == 0) return report_.not_reestablished.push_back("scope.domain: no enumerated length to sample |f - f*| on");
    report_.reestablished.push_back("scope.domain: |f - f*| <= epsilon at " + std::to_string(checked) + " sampled inputs (seed " +
                                    std::to_string(kSampleSeed) + ", " + std::to_string(open) + " not separated)");
  }

  /// C4.2.regularity (theory.md "The regularity counterexample"): the parameters, the domain 1..K + tail, and E_t by
  /// weighted strings of the switching law's support (Dir(α) on Σ_short up to K, on its complement after) at every
  /// length t <= 200 or in (K, K + 200] they reach: exactly 0 up to K, exactly η after.
  void check_regularity_claim() {
    const Rational eta = case_.check_rational("eta", Rational(1));
    const std::uint64_t K = case_.check_count("switch_length", 0), tail = case_.check_count("regularity_tail", 64);
    compare_rational("evidence.eta", field("eta"), eta);
    compare_rational("evidence.switch_length", field("switch_length"), Rational(K));
    compare_rational("evidence.tail", field("tail"), Rational(tail));
    compare_domain("E_t exactly for t = 1..K + tail = " + std::to_string(K + tail), Integer(K) + tail);
    const auto alpha = case_alpha();
    const json* names = member(case_.check, "short_alphabet");
    if (!alpha || !names || !names->is_array()) return problem("case.check", "dirichlet_alpha or short_alphabet missing");
    std::vector<bool> short_symbol(alpha->size(), false);
    for (const auto& name : *names)
      for (std::size_t s = 0; s < alpha->size(); ++s) short_symbol[s] = short_symbol[s] || name == case_.model().alphabet[s];
    std::size_t reached = 0;
    for (std::uint64_t t = 1; t <= K + std::min<std::uint64_t>(tail, 200); t = t == std::min<std::uint64_t>(K, 200) ? K + 1 : t + 1) {
      std::vector<Rational> law = *alpha;
      for (std::size_t s = 0; s < law.size(); ++s) law[s] = short_symbol[s] == (t <= K) ? law[s] : Rational(0);
      const auto e = brute_expectation(law, t);
      if (!e) continue;
      ++reached;
      if (*e != (t <= K ? Rational(0) : eta))
        return problem("scope.domain", "E_" + std::to_string(t) + " = " + to_string(*e) + " by the kernel's weighted strings, not " + (t <= K ? "0" : to_string(eta)));
    }
    report_.reestablished.push_back("scope.domain: E_t exactly at " + std::to_string(reached) + " lengths by weighted strings");
  }

  /// check.dirichlet_alpha, or nullopt (a problem) when absent or malformed.
  std::optional<std::vector<Rational>> case_alpha() {
    const json* a = member(case_.check, "dirichlet_alpha");
    if (!a || !a->is_array() || a->size() != case_.model().alphabet_size()) return problem("case.check.dirichlet_alpha", "missing or not one per symbol"), std::nullopt;
    std::vector<Rational> alpha;
    for (const auto& v : *a) alpha.push_back(json_rational(v, "certificate", "check.dirichlet_alpha"));
    return alpha;
  }

  // --- exhaustive domains: the count, and the claim's inequality on sampled strings -----
  void check_enumeration(const std::string& claim) {
    if (claim == "L4.L") return check_norm_domain();
    if (claim == "T4.2.avg" || claim == "C4.2.regularity" || claim == "L5.lip" || claim == "D5.4.kgram") return;  // with the claim
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

  /// L4.L's domain (theory.md "The pairs L4.L compares"): the pair counts of every model, recomputed; then the lemma
  /// at kSamples kernel-drawn pairs (x, z) of lengths <= n with the same window and residue, for every model, under
  /// hardmax (the statistics' semantics; finite:p's surviving enclosures would leave equal outputs unseparated).
  void check_norm_domain() {
    const std::uint64_t n = std::min<std::uint64_t>(case_.check_count("max_length", 10), 12);
    const PairCount c = norm_pair_count(case_.model(), n);  // every model of a case has the same shape
    const Integer models(static_cast<unsigned long>(case_.models.size())), compared = c.compared * models, groups = c.groups * models;
    compare_domain("pairs of statistics of length <= " + std::to_string(n) + " with the same window and residue (" + to_string(compared) + " of " +
                       to_string(Integer(c.total * models)) + " pairs, " + to_string(groups) + " of " + to_string(groups) + " groups)",
                   compared);
    std::size_t checked = 0;
    for (const auto& [x, z] : sample_norm_pairs(case_.model(), n))
      for (std::size_t i = 0; i < case_.models.size() && ctx_.L[i]; ++i, ++checked)
        if (WitnessResult r = norm_inequality(case_.models[i], *ctx_.L[i], x, z, Semantics::hardmax()); r.status == WitnessStatus::Rejected)
          return problem("scope.domain", "model " + std::to_string(i) + ": " + r.why + " at the sampled pair x = " + text_of(case_.model(), x) + ", z = " + text_of(case_.model(), z));
    report_.reestablished.push_back("scope.domain: L4.L at " + std::to_string(checked) + " sampled pairs (seed " + std::to_string(kSampleSeed) + ")");
  }

  /// The claim's inequality at one sampled string (each query position of a StringPositions
  /// domain): how many instances were checked. A failure is a problem naming the string.
  std::size_t sampled_inequality(const std::string& claim, const Domain& d, const Tokens& x) {
    const Model& m = case_.model();
    auto fail = [&](const std::string& what) { return problem("scope.domain", what + " at the sampled input " + text_of(m, x)), std::size_t{1}; };
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
