// check_certificate: recomputation of recorded constants and witnesses.
#include "lgcheck/kernel/certificate.hpp"

#include "lgcheck/kernel/average.hpp"
#include "lgcheck/kernel/construction.hpp"
#include "lgcheck/kernel/detail.hpp"
#include "lgcheck/kernel/distance_bounds.hpp"
#include "lgcheck/kernel/enumeration.hpp"
#include "lgcheck/kernel/json_read.hpp"
#include "lgcheck/kernel/section5.hpp"
#include "lgcheck/kernel/witness.hpp"
#include "lgcheck/model/input.hpp"

#include <algorithm>
#include <functional>
#include <random>
#include <map>
#include <numeric>
#include <set>

namespace lgc::kernel {
namespace {

using nlohmann::json;

constexpr std::size_t kMaxWitnesses = 1000000;
/// T5.2.witness: the positions (statistics times length) the kernel evaluates for the agreement, at most.
constexpr std::uint64_t kWitness52Positions = 100000000;
/// S.consistency, T4.1.threshold, T4.1.lg: a domain whose statistics need at most this many expanded positions is
/// checked at every statistic instead of at the kernel's samples.
constexpr std::uint64_t kExhaustivePositions = 10000000;
/// T5.2.witness: the largest |f − g| accepted as agreement, 2^-64.
Rational witness52_tolerance() { return Rational(1) / Rational(pow(Integer(2), 64)); }
/// The width of an enclosure at the search's working precision near 0: 2^-100 (128-bit enclosures are far tighter).
const Rational kWorkingWidth = Rational(1) / Rational(pow(Integer(2), 100));
constexpr std::uint64_t kMaxEnumeratedStrings = 8192;  // brute force over all strings of a length
/// T4.1.lg: the boxes the readout-gap bisection may split, over all query classes (the search stops at 4096).
constexpr std::size_t kReadoutGapBoxes = 20000;

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

/// w[key].length, when w records a readable one.
std::optional<std::uint64_t> length_at(const json& w, const char* key) {
  const json* s = member(w, key);
  return s ? count_at(*s, "length", kMaxStatisticLength) : std::nullopt;
}

/// The positions a witness asks to expand (its statistics' lengths, its input's size; 0 where unreadable): the
/// budget of expanded positions is spent on the shortest witnesses first.
std::uint64_t expansion_size(const json& w) {
  std::uint64_t total = 0;
  for (const char* key : {"x", "z", "statistic"}) total += length_at(w, key).value_or(0);
  if (const json* input = member(w, "input"); input && input->is_string())
    total += input->get_ref<const std::string&>().size();
  return total;
}

/// x written with the model's symbols.
std::string text_of(const Model& m, const Tokens& x) {
  std::string s;
  for (int t : x) s += m.alphabet[static_cast<std::size_t>(t)];
  return s;
}

/// A message from its pieces: text as is, numbers written in full.
std::string piece(const std::string& s) { return s; }
std::string piece(const char* s) { return s; }
std::string piece(const Rational& q) { return to_string(q); }
std::string piece(const Integer& z) { return to_string(z); }
template <class T, class = std::enable_if_t<std::is_integral_v<T>>>
std::string piece(T n) { return std::to_string(n); }
template <class... A>
std::string cat(const A&... a) { return (std::string() + ... + piece(a)); }

/// A recorded distance's upper end (recorded_ends).
std::optional<Rational> recorded_upper(const json& v) {
  const auto ends = recorded_ends(v);
  return ends ? std::optional<Rational>(ends->second) : std::nullopt;
}

std::string enclosure_text(const Rational& lo, const Rational& hi) {
  return cat("[", to_decimal(lo, 12), ", ", to_decimal(hi, 12), "]");
}
/// "nothing", or the recorded value as a message shows it.
std::string shown(const json* recorded) { return recorded ? show(*recorded) : "nothing"; }

/// A recorded decimal d, within `unit` of the value it stands for: does [d − unit, d + unit] meet the enclosure?
bool decimal_meets(const Rational& d, const Rational& unit, const Number& value) {
  return d - unit <= upper_of(value) && d + unit >= lower_of(value);
}


/// The texts of the two ends of a recorded "[lo, hi]", or a single decimal d twice; nullopt when not a string.
std::optional<std::pair<std::string, std::string>> bracket_ends(const json* recorded) {
  if (!recorded || !recorded->is_string()) return std::nullopt;
  const std::string& text = recorded->get_ref<const std::string&>();
  const std::size_t comma = text.find(", ");
  if (text.size() > 2 && text.front() == '[' && text.back() == ']' && comma != std::string::npos)
    return std::make_pair(text.substr(1, comma - 1), text.substr(comma + 2, text.size() - comma - 3));
  return std::make_pair(text, text);
}

/// A statistic as messages show it: "length T, window [...], counts [...]".
std::string statistic_text(const Statistic& s) {
  const auto list = [](const auto& v) {
    std::string out;
    for (const auto& e : v) out += (out.empty() ? "" : ", ") + std::to_string(e);
    return "[" + out + "]";
  };
  return cat("length ", s.length, ", window ", list(s.window), ", counts ", list(s.counts));
}

/// A recorded field and the path that names it in problems.
struct Recorded { std::string path; const json* value; };

/// L5.conv's sampled strings longer than this are not re-checked (the claim's own domain has n <= 12).
constexpr std::size_t kMaxConvergenceLength = 64;

class Checker {
 public:
  explicit Checker(const json& cert) : cert_(cert) {}
  CertificateReport run() {
    try {
      if (!cert_.is_object()) return problem("", "expected a certificate object, got " + show(cert_)), report_;
      if (!read_header() || !read_case()) return report_;
      const std::string claim = cert_["claim"].get<std::string>();
      evidence_ = &cert_["evidence"];
      if (claim != "T4.1.threshold" && std::any_of(case_.models.begin(), case_.models.end(), [](const Model& m) {
            return m.semantics.kind == Semantics::Kind::FiniteWeights;
          }))
        return problem("claim", claim + " is not defined for finite-weights:p models (T4.1.threshold only)"), report_;
      if (const auto why = section4_obstacle(claim))
        return problem("claim", claim + " does not apply to this case: " + *why), report_;
      if (stopped_before_evidence(claim)) return report_;
      build_context();
      if (threshold_beyond_statistics(claim)) return report_;
      const auto& claims = claim_checks();
      if (const auto c = claims.find(claim); c != claims.end()) (this->*c->second)();
      else problem("claim", "unknown claim \"" + claim + "\"");
      check_witnesses(claim);
      if (claim == "T4.1.sim") check_constructions(), check_random_inputs();
      if (claim == "T4.1.lg") check_lower_bracket_witnesses();
      check_enumeration(claim);
      if (verdict() == "REFUTED") check_refutation(claim);
      list_measurements(claim);
      check_samples(claim);
      check_seeds(claim);
      check_verdict_kind(claim);
      check_detail();
    } catch (const std::exception& e) {  // a guard: every path above validates first
      problem("", std::string("the kernel failed: ") + e.what());
    }
    return report_;
  }

 private:
  /// Each claim id and its check.
  static const std::map<std::string, void (Checker::*)()>& claim_checks() {
    static const std::map<std::string, void (Checker::*)()> claims = {
        {"S.consistency", &Checker::check_threshold_claim}, {"T4.1.threshold", &Checker::check_threshold_claim},
        {"L4.L", &Checker::check_norm_claim}, {"T4.1.sim", &Checker::check_simulation_claim},
        {"T4.1.lg", &Checker::check_implication_claim}, {"T4.1.witness", &Checker::check_witness_claim},
        {"T4.2.avg", &Checker::check_average_claim}, {"C4.2.regularity", &Checker::check_regularity_claim},
        {"L5.conv", &Checker::check_convergence_claim}, {"L5.lip", &Checker::check_lipschitz_claim},
        {"D5.4.kgram", &Checker::check_kgram_claim}, {"L5.3.subsample", &Checker::check_subsample_claim},
        {"T5.2.sim", &Checker::check_complexity_claim}, {"T5.2.witness", &Checker::check_witness52_claim}};
    return claims;
  }

  /// Why a Section 4 claim does not apply to the case (theory.md §2: one-layer hardmax or finite:p models; the search
  /// does not run it elsewhere), or nullopt: S.consistency and T4.1.threshold are claims of one model, T4.1.lg and
  /// T4.1.witness of a pair.
  std::optional<std::string> section4_obstacle(const std::string& claim) const {
    static const std::set<std::string> section4 = {"S.consistency", "T4.1.threshold", "L4.L",
                                                   "T4.1.sim",      "T4.1.lg",        "T4.1.witness"};
    if (!section4.count(claim)) return std::nullopt;
    for (const Model& m : case_.models) {
      if (m.layers.size() != 1) return cat("a model of ", m.layers.size(), " layers (Section 4 is of one layer)");
      if (m.semantics.kind == Semantics::Kind::Softmax) return std::string("a softmax model (Section 4 rounds)");
    }
    if ((claim == "S.consistency" || claim == "T4.1.threshold") && case_.is_pair)
      return std::string("a pair (the claim is of one model)");
    if ((claim == "T4.1.lg" || claim == "T4.1.witness") && !case_.is_pair) return std::string("not a pair");
    return std::nullopt;
  }

  const json& cert_;
  const json* evidence_ = nullptr;
  DetailFacts facts_;  ///< the detail's numbers the checks below derive (detail.hpp)
  std::size_t open_ = 0;  ///< sampled instances whose enclosure meets the bound (neither held nor refuted)
  std::vector<Model> first_layers_;  ///< T5.2.witness: the models cut to their first layer (inert_gap)
  std::optional<Integer> threshold_;  ///< S.consistency, T4.1.threshold: the kernel's t
  bool empty_window_ = false;         ///< finite-weights:p with t > 2^p − 1
  std::set<std::size_t> reestablished_;  ///< the indices of the witnesses the kernel re-established
  std::set<std::size_t> constructed_;    ///< the simulation witnesses whose z is the kernel's construction
  std::vector<std::string> counterexamples_;  ///< failures of the claim the kernel re-established (claim_fails)
  std::optional<std::string> refutation_open_;  ///< a REFUTED's ground the kernel reached but cannot decide
  /// T4.2.avg, C4.2.regularity: the positions E_t by statistics may still expand in this certificate, for the premise
  /// (and C4.2.regularity's lengths) and for the conclusion, each its own budget.
  std::uint64_t premise_positions_left_ = kExhaustivePositions, conclusion_positions_left_ = kExhaustivePositions;
  Case case_;
  WitnessContext ctx_;
  CertificateReport report_;

  void problem(const std::string& path, const std::string& why) {
    report_.problems.push_back(path.empty() ? why : path + ": " + why);
  }
  void agreed(const std::string& what) { report_.reestablished.push_back(what); }
  /// A failure of the claim's own statement that the kernel established: under REFUTED a counterexample the verdict
  /// may rest on (check_refutation), under any other verdict a problem.
  void claim_fails(const std::string& path, const std::string& why) {
    if (verdict() == "REFUTED") return counterexamples_.push_back(path + ": " + why);
    if (verdict() != "UNDECIDED") return problem(path, why);
    // An UNDECIDED claims nothing (a search stopped by its budget or its precision): the failure is listed.
    counterexamples_.push_back(path + ": " + why);  // a walk stops at it, as at a problem
    unchecked(path + ": " + why + " (the kernel finds the claim false here; the record is UNDECIDED)");
  }
  /// Problems and counterexamples so far: a walk over instances stops at the first new one.
  std::size_t failures() const { return report_.problems.size() + counterexamples_.size(); }
  void unchecked(const std::string& what) { report_.not_reestablished.push_back(what); }
  const json* field(const char* key) const { return member(*evidence_, key); }
  /// evidence.key and scope.key, with their paths.
  Recorded ev(const char* key) const { return {std::string("evidence.") + key, field(key)}; }
  Recorded scope(const char* key) const {
    const json* s = member(cert_, "scope");
    return {std::string("scope.") + key, s ? member(*s, key) : nullptr};
  }

  /// scope.domain when it is a non-empty string, else nullptr.
  const json* recorded_domain() const {
    const json* d = scope("domain").value;
    return d && d->is_string() && !d->get_ref<const std::string&>().empty() ? d : nullptr;
  }

  std::string verdict() const {
    const json* v = member(cert_, "verdict");
    return v && v->is_string() ? v->get<std::string>() : "";
  }
  bool holding() const { return verdict() == "PROVED" || verdict() == "SAMPLED" || verdict() == "VACUOUS"; }

  bool read_header() {
    if (!cert_.contains("format") || cert_["format"] != "lgcheck-certificate/1")
      problem("format", "expected \"lgcheck-certificate/1\"");
    if (!cert_.contains("claim") || !cert_["claim"].is_string())
      return problem("claim", "missing or not a string"), false;
    static const std::vector<std::string> verdicts = {"PROVED", "SAMPLED", "VACUOUS", "REFUTED", "UNDECIDED"};
    if (std::find(verdicts.begin(), verdicts.end(), verdict()) == verdicts.end())
      problem("verdict", "expected one of PROVED, SAMPLED, VACUOUS, REFUTED, UNDECIDED");
    if (!cert_.contains("evidence") || !cert_["evidence"].is_object())
      return problem("evidence", "missing or not an object"), false;
    return true;
  }

  /// The detail is its claim's sentence for the verdict filled from the record (detail.hpp); the numbers the
  /// kernel cannot tie to a recorded field are counted as not re-established.
  void check_detail() {
    report_.detail_facts = facts_;
    const auto d = lgc::kernel::check_detail(cert_, case_, facts_);
    if (!d) return;
    const json* recorded = member(cert_, "detail");
    if (!d->matches)
      return problem("detail", cat("recorded ", recorded && recorded->is_string()
                                                    ? "\"" + recorded->get<std::string>() + "\""
                                                    : shown(recorded),
                                   ", the record implies \"", d->expected, "\""));
    agreed("detail");
    if (d->free_slots > 0)
      unchecked(cat("detail: ", d->free_slots, " of its numbers or texts not tied to a recorded field (counts and "
                    "lengths of inputs the kernel does not draw, rounded measurements, counterexamples' values)"));
  }

  /// An UNDECIDED run stopped by the search's budget or by a number beyond exact computation ("stopped: …", no
  /// evidence but the budget) claims nothing: accepted once its case parses.
  /// The claim must still be one the kernel knows and, for T5.2.sim, apply to the case.
  bool stopped_before_evidence(const std::string& claim) {
    const json* detail = member(cert_, "detail");
    if (verdict() != "UNDECIDED" || !detail || !detail->is_string() || detail->get<std::string>().rfind("stopped: ", 0))
      return false;
    if (!claim_checks().count(claim)) return problem("claim", "unknown claim \"" + claim + "\""), true;
    if (claim == "T5.2.sim") {
      if (!case_.is_pair) return problem("case", "T5.2.sim does not apply: not a pair"), true;
      for (const Model& m : case_.models)
        if (auto why = layer2_obstacle(m)) return problem("case", "T5.2.sim does not apply: " + *why), true;
    }
    for (const auto& [key, value] : evidence_->items())
      if (key != "budget" || !value.is_string())
        return problem("evidence." + key, "recorded by a run that says it stopped (only the budget's text)"), true;
    // A budget's stop names the budget the search writes ("N enumerated items", "X s"); any other stop names none.
    const std::string text = detail->get<std::string>(), tail = " (raise --budget to decide)";
    const bool by_budget =
        text.size() >= tail.size() && text.compare(text.size() - tail.size(), tail.size(), tail) == 0;
    const json* budget = field("budget");
    if (by_budget != (budget != nullptr) || (budget && !budget_text(budget->get<std::string>())))
      return problem("evidence.budget", by_budget ? "missing or not a budget (\"N enumerated items\" or \"X s\")"
                                                  : "recorded by a stop that is not the budget's"), true;
    for (const char* key : {"domain", "exhaustive", "samples", "caps", "vacuous"})
      if (const json* s = scope(key).value; s && !empty_value(*s))
        return problem(std::string("scope.") + key, "recorded by a run that says it stopped (it has none)"), true;
    check_detail();
    agreed("UNDECIDED, stopped before any evidence: nothing claimed");
    return true;
  }

  /// null, "", 0 or []: a scope field of a run that stopped before any evidence.
  static bool empty_value(const json& v) {
    return v.is_null() || (v.is_string() && v.get_ref<const std::string&>().empty()) || (v.is_number() && v == 0) ||
           (v.is_array() && v.empty());
  }

  /// "N enumerated items" (N >= 1) or "X s" (X > 0): the budgets the search records.
  static bool budget_text(const std::string& text) {
    const std::size_t space = text.find(' ');
    if (space == std::string::npos || space == 0) return false;
    const std::string number = text.substr(0, space), unit = text.substr(space + 1);
    if (unit == "enumerated items")
      return number.find_first_not_of("0123456789") == std::string::npos && number != "0" && number[0] != '0';
    if (unit != "s" || number.find_first_not_of("0123456789.e+-") != std::string::npos) return false;
    std::string why;
    const auto value = read_rational(json(number), why);
    return value && *value > 0;
  }

  /// T4.1.sim and T4.1.threshold stop, UNDECIDED with evidence holding only `threshold`, when ceil(2^(p/γ)) is
  /// beyond the 2^62 positions the search's statistics count: accepted once the kernel's own threshold is that
  /// number and exceeds 2^62 (nothing is claimed).
  bool threshold_beyond_statistics(const std::string& claim) {
    if ((claim != "T4.1.sim" && claim != "T4.1.threshold") || verdict() != "UNDECIDED" || evidence_->size() != 1 ||
        !field("threshold"))
      return false;
    // T4.1.sim's threshold is the rounding models' (none: the search has no threshold and decides the claim).
    const std::optional<unsigned> p = claim == "T4.1.sim" ? rounding_bits(case_.models) : ctx_.p.front();
    if (!p) return problem("evidence.threshold", "no model rounds: T4.1.sim has no threshold here"), true;
    const auto t = recompute([&] { return hardmax_threshold(*p, logit_margin(case_.models)); }, "evidence.threshold");
    if (!t) return true;
    compare_integer(ev("threshold"), *t);
    check_detail();
    if (*t <= Integer(1) << 62)
      problem("evidence.threshold", "within 2^62 positions, where the claim is evaluated: an UNDECIDED with nothing "
                                    "but the threshold is not its result");
    else
      agreed("UNDECIDED, the threshold beyond 2^62 positions (recomputed): nothing claimed");
    return true;
  }

  bool read_case() {
    if (!cert_.contains("case") || !cert_["case"].is_object())
      return problem("case", "missing or not an object"), false;
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
    agreed("case (parsed and validated)");
    return true;
  }

  /// p per model: its finite:p (or finite-weights:p), else the check block's precision_bits (default 3); the
  /// rounding semantics compared with hardmax: the model's own, else finite:p.
  void build_context() {
    ctx_.c = &case_;
    const unsigned check_p = static_cast<unsigned>(case_.check_count("precision_bits", 3));
    for (const Model& m : case_.models) {
      ctx_.L.push_back(norm_constant(m));
      ctx_.rounding.push_back(m.semantics.rounds() ? m.semantics : Semantics::finite(check_p));
      ctx_.p.push_back(ctx_.rounding.back().bits);
      ctx_.threshold.push_back(threshold_or_unknown(ctx_.p.back(), logit_margin(m)));
    }
  }

  /// ⌈2^{p/γ}⌉, or -1 when it is beyond exact computation: a claim that needs it (S.consistency, T4.1.threshold,
  /// T4.1.sim's N_sim) recomputes it and reports that itself; L4.L or T4.1.witness on such models do not need it.
  static Integer threshold_or_unknown(unsigned p, const Margin& gamma) {
    try {
      return hardmax_threshold(p, gamma);
    } catch (const std::exception&) {
      return Integer(-1);
    }
  }

  // --- comparisons: "evidence.X: recorded A, recomputed B" ---------------
  void compare_rational(const Recorded& r, const Rational& value, bool known = true) {
    if (!known) return unchecked(r.path + ": not defined by the kernel for this case");
    if (!r.value) return problem(r.path, "missing (recomputed " + to_string(value) + ")");
    std::string why;
    auto v = read_rational(*r.value, why);
    if (!v) return problem(r.path, why);
    if (*v != value) return problem(r.path, "recorded " + to_string(*v) + ", recomputed " + to_string(value));
    agreed(r.path);
  }

  void compare_integer(const Recorded& r, const std::optional<Integer>& value) {
    if (!value) return unchecked(r.path + ": not defined by the kernel for this case");
    compare_rational(r, Rational(*value));
  }
  /// compare_rational for evidence fields whose values are already computed.
  void compare_fields(std::initializer_list<std::pair<const char*, Rational>> fields) {
    for (const auto& [key, value] : fields) compare_rational(ev(key), value);
  }

  void compare_margin(const Recorded& r, const Margin& g) {
    if (g) return compare_rational(r, *g);
    if (!r.value || *r.value != "inf") return problem(r.path, "recorded " + shown(r.value) + ", recomputed inf");
    agreed(r.path);
  }

  /// compute(), or nullopt and a problem at `path` when it throws.
  template <class F>
  auto recompute(F compute, const std::string& path) -> std::optional<decltype(compute())> {
    try {
      return compute();
    } catch (const std::exception& e) {
      problem(path, std::string("cannot be recomputed: ") + e.what());
      return std::nullopt;
    }
  }

  // --- claims --------------------------------------------------------------
  /// evidence.L: L(f), or for a pair "L(f), L(g)" (each model's own constant).
  void check_norm_claim() {
    const json* L = field("L");
    const std::string recorded = L && L->is_string() ? L->get<std::string>() : "";
    std::string expected;
    for (const auto& l : ctx_.L) {
      if (!l) return unchecked("evidence.L: L(f) is defined for one-layer models only");
      expected += (expected.empty() ? "" : ", ") + to_string(*l);
    }
    const std::string written = L && !recorded.empty() ? recorded : shown(L);
    if (recorded != expected) return problem("evidence.L", cat("recorded ", written, ", recomputed ", expected));
    agreed("evidence.L");
  }

  /// S.consistency, T4.1.threshold: γ, p, the threshold and the sharpness witness's length.
  void check_threshold_claim() {
    const Margin g = logit_margin(case_.models);
    compare_margin(ev("gamma"), g);
    // γ = ∞: no weight is ever rounded, so nothing could fail; the claim holds VACUOUS exactly then.
    if (const std::string v = verdict(); !window_end() && holding() && (v == "VACUOUS") != !g)
      problem("verdict", cat("recorded ", v, " where the kernel's gamma is ", g ? to_string(*g) : "inf",
                             ": a holding claim is VACUOUS exactly when gamma = inf"));
    compare_rational(ev("p"), Rational(ctx_.p.front()));
    const auto t = recompute([&] { return hardmax_threshold(ctx_.p.front(), g); }, "evidence.threshold");
    if (!t) return;
    compare_integer(ev("threshold"), *t);
    threshold_ = *t;
    if (const auto end = window_end()) {  // finite-weights:p: the claim is the window t <= T <= 2^p − 1
      compare_integer(ev("window_end"), *end);
      const json* sem = field("semantics");
      if (!sem || *sem != ctx_.rounding.front().str())
        problem("evidence.semantics", "expected \"" + ctx_.rounding.front().str() + "\", the case's semantics");
      if (const json* past = field("past_window"))
        compare_integer({"evidence.past_window.length", member(*past, "length")}, *end + 1);
      empty_window_ = g && *t > *end;
      if (holding() && (verdict() == "VACUOUS") != (!g || empty_window_))
        problem("verdict", cat("recorded ", verdict(), ": under finite-weights:p a holding claim is VACUOUS exactly "
                               "when gamma = inf or the window [t, 2^p - 1] is empty"));
      if (empty_window_) return;
    }
    // T4.1.threshold's sharpness witness sits at T = t − 1 (its difference is checked with the witnesses); a case
    // asserting sharpness must have it under a holding verdict, as a finite_differs witness of length t − 1.
    const json* w = field("witness");
    if (w && w->is_object() && *t > 1)
      compare_integer({"evidence.witness.length", member(*w, "length")}, Integer(*t - 1));
    else if (sharpness_asserted(g, *t))
      problem("evidence.witness", "missing, while the case asserts check.threshold_sharp (a difference at t - 1)");
    if (sharpness_asserted(g, *t) && !has_difference_at(*t - 1))
      problem("evidence.witnesses", "no finite_differs witness of length t - 1, while the case asserts "
                                    "check.threshold_sharp");
    if (cert_["claim"] == "T4.1.threshold" && verdict() == "REFUTED" && case_.check_flag("threshold_sharp", false) &&
        g && *t > 1 && *t - 1 <= Integer(kMaxStatisticLength))
      check_unsharp((*t - 1).convert_to<std::uint64_t>());
  }

  /// A holding T4.1.threshold whose case asserts that t is sharp (a difference at t − 1 > 0).
  bool sharpness_asserted(const Margin& g, const Integer& t) const {
    return cert_["claim"] == "T4.1.threshold" && case_.check_flag("threshold_sharp", false) && holding() && g && t > 1;
  }

  /// Whether evidence.witnesses lists a finite_differs witness at a statistic of length T (re-established with the
  /// witnesses).
  bool has_difference_at(const Integer& T) const {
    const json* list = field("witnesses");
    if (!list || !list->is_array()) return false;
    for (const json& w : *list) {
      const json* kind = w.is_object() ? member(w, "kind") : nullptr;
      const auto length = kind && *kind == "finite_differs" ? length_at(w, "statistic") : std::nullopt;
      if (length && Integer(*length) == T) return true;
    }
    return false;
  }

  /// T4.1.threshold's exhaustive lengths start at t; under finite-weights:p they stay in the window and a PROVED
  /// claim covers all of it.
  void check_threshold_domain(const Domain& d) {
    if (!threshold_) return;
    if (Integer(d.lo) != *threshold_)
      return problem("scope.domain", cat("the lengths start at ", d.lo, ", not at the threshold ", *threshold_));
    if (const auto end = window_end()) {
      if (Integer(d.hi) > *end) return problem("scope.domain", cat("the lengths reach ", d.hi, ", past the window"));
      if (verdict() == "PROVED" && Integer(d.hi) != *end)
        return problem("scope.domain", cat("PROVED on lengths up to ", d.hi, " of the window up to ", *end));
    }
    agreed("scope.domain: the lengths from the threshold" + std::string(window_end() ? ", within the window" : ""));
  }

  /// finite-weights:p: the window's last length 2^p − 1 (theory.md "finite-weights:p"); nullopt otherwise.
  std::optional<Integer> window_end() const {
    if (ctx_.rounding.empty() || ctx_.rounding.front().kind != Semantics::Kind::FiniteWeights) return std::nullopt;
    return (Integer(1) << ctx_.p.front()) - 1;
  }

  Rational epsilon_of(const Rational& fallback) {
    Rational eps = case_.check_rational("epsilon", fallback);
    compare_rational(ev("epsilon"), eps);
    return eps;
  }

  /// T4.1.sim: ε, N_sim (also as claimed) and δ = ε/L; they bound the simulation witnesses.
  void check_simulation_claim() {
    const Rational eps = epsilon_of(Rational(1, 10));
    const auto n = recompute([&] { return n_sim(case_.models, eps); }, "evidence.N_sim");
    if (!n) return;
    compare_integer(ev("N_sim"), *n);
    compare_integer(ev("N_sim_claimed"), *n);
    if (norm_constant(case_.models)) compare_rational(ev("delta"), simulation_delta(case_.models, eps));
    ctx_.epsilon = eps;
    ctx_.n_sim = *n;
    ctx_.delta = simulation_delta(case_.models, eps);
    ctx_.resolution = simulation_resolution(case_.models, eps);
    ctx_.padding = padding_length(case_.models);
  }

  /// T4.1.sim, after the witnesses: every simulation witness's z the kernel's construction of x (check_simulation).
  void check_constructions() {
    const json* ws = field("witnesses");
    std::uint64_t simulations = 0;
    for (std::size_t i = 0; ws && ws->is_array() && i < ws->size(); ++i) {
      const json* k = member((*ws)[i], "kind");
      simulations += k && *k == "simulation";
    }
    if (simulations > 0 && constructed_.size() == simulations)
      agreed(cat("z is the construction's output at every one of the ", simulations, " simulation witnesses (the "
                 "kernel's own construction; max_h |w_h(x) - w_h(z)|_1 compared with delta)"));
    // The domain's statistics are re-run by the kernel (simulation_domain), listed or not, and the random inputs
    // re-drawn (check_random_inputs); the constructed inputs are read only through their witnesses.
    const json* samples = scope("samples").value;
    if (!holding() || !samples || !samples->is_number_unsigned()) return;  // check_verdict_kind reports it
    const auto lengths = simulation_lengths();
    const Integer domain = lengths ? domain_count(*lengths, case_.model()) : Integer(0);
    const Integer counted = domain + samples->get<std::uint64_t>();
    if (counted > Integer(simulations))
      unchecked(cat("scope: ", Integer(counted - simulations), " of the ", counted, " inputs counted (the domain's "
                    "statistics and scope.samples) are not listed as simulation witnesses (the domain's are re-run by "
                    "the kernel and the random ones re-drawn; a constructed input not listed is not re-established: "
                    "its count is compared, not the input)"));
  }

  /// T4.1.sim's random inputs (theory.md "T4.1.sim's random inputs, exactly"): under any verdict but REFUTED, the
  /// witness list's last 1000 simulation witnesses must have as x the kernel's own draws from check.seed (default
  /// 1), in order. A copy of another witness in their place (its z still the construction's), two of them swapped,
  /// or another seed's draws are problems; before, only their count was compared.
  void check_random_inputs() {
    const json* ws = field("witnesses");
    if (verdict() == "REFUTED" || !ws || !ws->is_array() || !ctx_.n_sim) return;  // n_sim: t was computed
    const std::uint64_t seed = case_.check_count("seed", 1);
    const std::vector<std::size_t> last = last_simulations(*ws, kRandomSimulationInputs);
    if (last.size() < kRandomSimulationInputs)
      return problem("evidence.witnesses", cat(last.size(), " simulation witnesses, fewer than the ",
                                               kRandomSimulationInputs, " random inputs the claim draws from seed ",
                                               seed, " (the last ", kRandomSimulationInputs, " must be them)"));
    if (ctx_.padding > Integer(kMaxStatisticLength / 4))
      return unchecked(cat("evidence.witnesses: the random inputs are not re-drawn (their lengths from t = ",
                           ctx_.padding, " reach beyond the 2^62 positions of a statistic)"));
    const auto draws = random_simulation_inputs(case_.model(), ctx_.padding.convert_to<std::uint64_t>(), seed);
    std::size_t differ = 0;
    std::string path, why;  // the first witness that is not its draw: its x, and how it differs from draw j
    for (std::size_t j = 0; j < draws.size(); ++j) {
      const auto differs = not_the_draw((*ws)[last[j]], draws[j]);
      if (!differs || differ++ > 0) continue;
      path = cat("evidence.witnesses[", last[j], "].x");
      why = cat(*differs, " as random input ", j + 1, " of the ", draws.size(), " from seed ", seed);
    }
    if (differ > 0)
      return problem(path, cat(why, " (", differ, " of the last ", draws.size(), " simulation witnesses are not the "
                                    "draws in order)"));
    agreed(cat("the ", draws.size(), " random inputs re-drawn from seed ", seed, " are the last ", draws.size(),
               " simulation witnesses, in order"));
  }

  /// The indices of the list's last n `simulation` witnesses, in list order (all of them when fewer).
  static std::vector<std::size_t> last_simulations(const json& ws, std::size_t n) {
    std::vector<std::size_t> out;
    for (std::size_t i = ws.size(); i-- > 0 && out.size() < n;)
      if (const json* kind = member(ws[i], "kind"); kind && *kind == "simulation") out.push_back(i);
    std::reverse(out.begin(), out.end());
    return out;
  }

  /// Why the witness's x is not the statistic `drawn` (compared field by field: length, window, counts), or nullopt.
  std::optional<std::string> not_the_draw(const json& w, const Statistic& drawn) const {
    const json* x = member(w, "x");
    if (!x) return cat("missing, the kernel draws ", statistic_text(drawn));
    auto read = read_statistic(*x, case_.model());
    if (const auto* why = std::get_if<std::string>(&read))
      return cat(*why, "; the kernel draws ", statistic_text(drawn));
    const Statistic& recorded = std::get<Statistic>(read);
    if (recorded.length == drawn.length && recorded.window == drawn.window && recorded.counts == drawn.counts)
      return std::nullopt;
    return cat("recorded ", statistic_text(recorded), ", the kernel draws ", statistic_text(drawn));
  }

  /// T4.1.lg: ε, N = N_sim(ε), and N_sim at the recorded simulation_eps.
  void check_implication_claim() {
    const Rational eps = epsilon_of(Rational(1, 10));
    ctx_.epsilon = eps;  // the antecedent's ε, read by the pair_distance witnesses' fields and the samples
    if (const auto n = recompute([&] { return n_sim(case_.models, eps); }, "evidence.N")) {
      compare_integer(ev("N"), *n);
      std::string why;
      if (const json* e2 = field("simulation_eps")) {
        auto eps2 = read_rational(*e2, why);
        const bool zero_L = norm_constant(case_.models).value_or(Rational(1)) == 0;  // then ε′ = L·δ = 0: z exact
        if (!eps2 || *eps2 < 0 || (*eps2 == 0 && !zero_L))
          problem("evidence.simulation_eps", why.empty() ? "must be positive (0 only when L = 0)" : why);
        else if (const auto n2 = recompute([&] { return n_sim(case_.models, *eps2); }, "evidence.N"))
          compare_integer(ev("simulation_N"), *n2);
      }
    }
    check_distance_upper(eps);
  }

  /// T4.1.lg, after the witnesses are checked: only a witness the kernel re-established counts. VACUOUS needs one
  /// at a length <= N with at_least > ε (the antecedent D(N) <= ε false); the recorded D_inf_lower = D(reached) must
  /// be attained by one (its at_least equal to an exact D_inf_lower, else within a unit of the 8th significant digit
  /// below the recorded enclosure's lower end) and its ends ordered, below D_inf_upper.
  void check_lower_bracket_witnesses() {
    const json* ws = field("witnesses");
    std::vector<std::pair<std::uint64_t, Rational>> shown;  // (length, at_least) of the re-established witnesses
    for (std::size_t i = 0; ws && ws->is_array() && i < ws->size(); ++i) {
      const auto T = length_at((*ws)[i], "statistic");
      const auto a = rational_at((*ws)[i], "at_least");
      if (reestablished_.count(i) && T && a) shown.emplace_back(*T, *a);
    }
    const auto N = rational_at(*evidence_, "N");
    if (verdict() == "VACUOUS" && ctx_.epsilon) {
      const auto above = std::find_if(shown.begin(), shown.end(), [&](const auto& w) {
        return N && Rational(w.first) <= *N && w.second > *ctx_.epsilon;
      });
      if (above == shown.end())
        problem("verdict", "VACUOUS needs a re-established pair_distance witness at a length <= N with at_least > "
                           "eps = " + to_string(*ctx_.epsilon) + " (the antecedent D(N) <= eps false)");
      else agreed(cat("verdict VACUOUS: a re-established witness at length ", above->first, " <= N above eps"));
    }
    const json* lower = field("D_inf_lower");
    if (!lower || !recorded_domain()) return;
    const auto ends = recorded_ends(*lower);
    // D(reached) <= D∞ <= D_inf_upper: hi within two units of its 12th digit, or within 2^-100 (an enclosure of an
  // exact 0 at 128 bits, "[0, 1.46936793853e-39]" beside a D_inf_upper of 0, is only that wide)
  const auto upper = rational_at(*evidence_, "D_inf_upper");
    if (!ends || ends->first > ends->second ||
        (upper && ends->second > *upper + std::max(2 * significant_unit(ends->second, 12), kWorkingWidth)))
      return problem("evidence.D_inf_lower", "not an exact rational or an enclosure [lo, hi] with lo <= hi <= "
                                             "evidence.D_inf_upper: " + show(*lower));
    const auto& [lo, hi] = *ends;
    std::string why;  // an enclosure (even "[5, 5]") is met within a unit of its 8th digit, an exact value exactly
    const Rational slack = read_rational(*lower, why) ? Rational(0) : significant_unit(hi, 8);
    for (const auto& w : shown)
      if (w.second <= hi && w.second >= lo - slack)
        return agreed("evidence.D_inf_lower: attained by a re-established witness");
    problem("evidence.D_inf_lower", "no re-established pair_distance witness attains it (" + show(*lower) + ")");
  }

  /// T4.1.lg's D_inf_upper by its upper_source (theory.md "Distances and thresholds"): the value-perturbation bound
  /// recomputed exactly, the readout-gap bound shown by the kernel's bisection (kReadoutGapBoxes boxes), the
  /// simulation bound left to the re-run (it needs D at N_sim); a holding verdict that is not VACUOUS needs
  /// D_inf_upper <= 3ε.
  void check_distance_upper(const Rational& eps) {
    const json* source = field("upper_source");
    const auto upper = rational_at(*evidence_, "D_inf_upper");
    if (recorded_domain()) reached_length();  // a problem unless `reached` is the domain's last length
    if (const json* u = field("D_inf_upper"); !upper && u && *u != "unknown")
      return problem("evidence.D_inf_upper", "neither a rational nor \"unknown\": " + show(*u));
    if (!source || !source->is_string() || !upper) {
      if (holding() && verdict() != "VACUOUS") problem("evidence.D_inf_upper", "no upper end under " + verdict());
      return unchecked("evidence.D_inf_upper: none recorded");
    }
    const std::string& text = source->get_ref<const std::string&>();
    if (!case_.is_pair) return problem("case", "T4.1.lg needs a pair");
    const Model &f = case_.models[0], &g = case_.models[1];
    // The source is one of the search's three texts, word for word (the detail repeats it).
    const json* n2_text = field("simulation_N");
    const json* eps2_text = field("simulation_eps");
    const std::string simulation = n2_text && eps2_text && n2_text->is_string() && eps2_text->is_string()
                                       ? "simulation: D(N_sim = " + n2_text->get<std::string>() + ") + 2*" +
                                             eps2_text->get<std::string>()
                                       : "";
    if (text != "value perturbation: Lip(R) * sum_h max_c |(V_f - V_g) e_c|" &&
        text != "readout gap: sup over the representation box of |R_f - R_g|" && text != simulation)
      return problem("evidence.upper_source", "not one of the three sources (value perturbation, readout gap, "
                                              "simulation with the recorded simulation_N and simulation_eps): \"" +
                                                  text + "\"");
    if (text.rfind("value perturbation", 0) == 0) {
      if (const auto v = value_perturbation(f, g)) compare_rational(ev("D_inf_upper"), *v);
      else problem("evidence.upper_source", "value perturbation, but f and g differ in more than V");
    } else if (text.rfind("readout gap", 0) == 0) {
      if (!same_attention_and_values(f, g))
        return problem("evidence.upper_source", "readout gap, but f and g differ in attention or V");
      const std::optional<bool> within = readout_gap_within(f, g, *upper, kReadoutGapBoxes);
      if (within && !*within)
        return problem("evidence.D_inf_upper", cat("recorded ", to_string(*upper),
                                                   ", but a point of the readout-gap box has |R_f - R_g| above it"));
      if (!within)
        unchecked(cat("evidence.D_inf_upper: the readout gap not shown within ", kReadoutGapBoxes, " boxes"));
      else agreed("evidence.D_inf_upper: sup over the readout-gap boxes <= it (the kernel's bisection)");
    } else if (text.rfind("simulation", 0) == 0) {  // D(N_sim(ε′)) + 2ε′, ε′ = simulation_eps (its N compared above)
      const auto eps2 = rational_at(*evidence_, "simulation_eps"), n2 = rational_at(*evidence_, "simulation_N");
      if (!eps2 || !n2 || *n2 > Rational(reached_length()) || *upper < 2 * *eps2)
        return problem("evidence.D_inf_upper", "a simulation bound needs simulation_eps, simulation_N within the "
                                               "curve and D_inf_upper >= 2 simulation_eps");
      unchecked("evidence.D_inf_upper: D(N_sim) of the simulation bound (the exact curve: the re-run's)");
    } else {
      return problem("evidence.upper_source", "not value perturbation, readout gap or simulation: \"" + text + "\"");
    }
    if (!holding() || verdict() == "VACUOUS") return;
    if (*upper > 3 * eps)
      return problem("evidence.D_inf_upper",
                     cat(to_string(*upper), " is above 3 eps = ", to_string(3 * eps), " under ", verdict()));
    // The antecedent D(N) <= ε: from the curve when it reaches N, else from D(N) <= D∞ <= D_inf_upper.
    const auto N = rational_at(*evidence_, "N");
    if (N && *N > Rational(reached_length()) && *upper > eps)
      problem("evidence.D_inf_upper", cat(to_string(*upper), " is above eps = ", to_string(eps), ", and the curve (to ",
                                          reached_length(), ") does not reach N"));
  }

  /// T4.1.lg's evidence.reached: the curve's last length, which must be the domain's (the kernel enumerates the
  /// domain); 0, and a problem, when it is not.
  std::uint64_t reached_length() {
    const json* reached = field("reached");
    const json* text = recorded_domain();
    const auto d = text ? parse_domain(text->get<std::string>()) : std::nullopt;
    if (!reached || !reached->is_number_unsigned() || !d || reached->get<std::uint64_t>() != d->hi) {
      problem("evidence.reached", "not the last length of the recorded domain");
      return 0;
    }
    return reached->get<std::uint64_t>();
  }

  /// The length by which T4.1.witness claims a difference: check.witness_length, 2n by default.
  std::uint64_t witness_length() const {
    return case_.check_count("witness_length", 2 * case_.check_count("witness_n", 0));
  }

  /// T4.1.witness: η, n, the witness length (check.witness_length, 2n by default) and D(n) = max |f − g| over
  /// every string of length <= n, when few enough.
  void check_witness_claim() {
    // The search stops before its curve, UNDECIDED with no evidence, when the case names no witness order or the
    // lengths are beyond its statistic budget (the detail says which, checked against the case): nothing claimed.
    if (verdict() == "UNDECIDED" && evidence_->is_object() && evidence_->empty())
      return agreed("verdict: UNDECIDED before any evidence (no witness order, or no curve to the lengths): nothing "
                    "claimed");
    const Rational eta = case_.check_rational("eta", 0);  // docs/case-format.md: η defaults to 0
    const std::uint64_t n = case_.check_count("witness_n", 0);
    compare_fields({{"eta", eta}, {"n", Rational(n)}, {"differ_by", Rational(witness_length())}});
    // D_n by every string of length <= n: exact when every output is, else enclosed as [max lo, max hi]. A length
    // with too many strings is taken by its statistics, each expanded to one string: a one-layer model's output is
    // its statistic's (theory.md §2 "Sufficient statistic"), within kWitness52Positions expanded positions.
    bool enumerated = n > 0 && case_.is_pair, exact = true;
    Bracket worst{0, 0};
    const auto visit = [&](const Tokens& x) {
      const StringGap gap = string_gap(case_, x);
      exact = exact && gap.exact;
      worst = {std::max(worst.lo, gap.d.lo), std::max(worst.hi, gap.d.hi)};
    };
    std::uint64_t spent = 0;
    const Model& m = case_.model();
    for (std::size_t t = 1; enumerated && t <= n; ++t) {
      if (for_each_string(symbols(m.alphabet_size()), t, visit)) continue;
      const Integer cost = statistic_count(m, t) * Integer(t);
      enumerated = m.layers.size() == 1 && cost + Integer(spent) <= Integer(kWitness52Positions);
      if (!enumerated) break;
      spent += static_cast<std::uint64_t>(cost);
      for_each_statistic(m, t, [&](const Statistic& s) { visit(expand(s, m)); });
    }
    if (!enumerated) unchecked("evidence.D_n: too many statistics of length <= n to evaluate");
    else if (exact) compare_rational(ev("D_n"), worst.lo);
    else if (meets_enclosure("evidence.D_n", field("D_n"), worst, cat("D(", n, ")")))
      agreed("evidence.D_n (the kernel's enclosure by strings meets it)");
    // Under a sin readout D_n is an enclosure: whether f and g differ at a length <= n is the kernel's to show.
    if (enumerated && !exact) {
      const bool differs = worst.lo > 0, agrees = worst.hi == 0;
      const std::string enclosed = cat("the kernel encloses D(", n, ") in ", enclosure_text(worst.lo, worst.hi));
      if (holding() && differs) problem("verdict", cat(verdict(), ", but ", enclosed));
      else if (verdict() == "REFUTED" && differs)
        agreed("verdict: REFUTED, f and g differ at a length <= n (" + enclosed + ")");
      else if (!agrees && (holding() || verdict() == "REFUTED"))
        unchecked(cat("verdict: ", verdict(), ", ", enclosed, ", which does not separate it from 0"));
    }
    ctx_.epsilon = eta;  // pair_distance witnesses must reach eta: checked in check_witnesses
    // The verdict against the evidence: holding needs D_n = 0; REFUTED cannot stand beside D_n = 0 and a gap
    // witness (re-established in check_witnesses), which together are the claim.
    const auto d_n = rational_at(*evidence_, "D_n");
    const json* gaps = field("witnesses");
    const bool gap_recorded = gaps && gaps->is_array() && !gaps->empty();
    if (holding() && (!d_n || *d_n != 0)) problem("verdict", cat(verdict(), " but evidence.D_n is not 0"));
    if (verdict() == "REFUTED" && d_n && *d_n == 0 && gap_recorded)
      problem("verdict", "REFUTED, but evidence.D_n = 0 and a witness of |f - g| >= eta are recorded: the claim holds");
    // A REFUTED beside D_n = 0 can only rest on D(differ_by) < eta: the record must say so.
    const json* differ = field("D_differ");
    const auto upper = differ ? recorded_upper(*differ) : std::nullopt;
    if (verdict() == "REFUTED" && d_n && *d_n == 0 && !(upper && *upper < eta))
      problem("verdict", "REFUTED with evidence.D_n = 0 needs evidence.D_differ certainly below eta = " +
                             to_string(eta));
  }

  /// T5.2.witness (theory.md "A witness family for the positional margin"): η, n, M (check.witness_length, 2n by
  /// default), the tolerance 2^-64 and γ = min over the models. A holding verdict needs value 0 after the first
  /// layer, M > n, η > 3·2^-64, the domain "every statistic of length <= n", |f − g| <= 2^-64 at each statistic of
  /// length <= n (the kernel's own evaluation, within kWitness52Positions) and a gap >= η at a statistic of length
  /// M; REFUTED needs a difference > 2^-64 at length <= n, or no statistic of length M with |f − g| >= η.
  void check_witness52_claim() {
    const Rational eta = case_.check_rational("eta", 0), tolerance = witness52_tolerance();
    const std::uint64_t n = case_.check_count("witness_n", 0), M = witness_length();
    compare_fields({{"eta", eta}, {"n", Rational(n)}, {"differ_by", Rational(M)}, {"tolerance", tolerance}});
    Margin gamma;
    for (const Model& m : case_.models) gamma = smaller_margin(gamma, positional_margin(m));
    compare_margin(ev("positional_margin"), gamma);
    ctx_.epsilon = eta;
    if (!witness52_applies()) {
      if (verdict() != "UNDECIDED")
        problem("claim", "T5.2.witness applies to a pair of softmax models of one or two layers with the same number "
                         "of outputs, witness_n >= 1 and witness_length > witness_n");
      return;
    }
    const bool inert = !statistic_obstacle(case_.models);
    if (verdict() == "REFUTED") return check_witness52_refutation(n, M, eta, tolerance, inert);
    if (!holding()) return;
    if (!inert) return problem("verdict", verdict() + ", but a head after the first layer has a non-zero value");
    if (eta <= 3 * tolerance) return problem("verdict", verdict() + " needs eta > 3 * 2^-64");
    const auto upper = rational_at(*evidence_, "D_n_upper");
    if (!upper || *upper > tolerance) problem("evidence.D_n_upper", "missing or above 2^-64 under " + verdict());
    Integer count = 0;
    for (std::uint64_t T = 1; T <= n; ++T) count += statistic_count(case_.model(), T);
    compare_domain(cat("every statistic of length <= ", n), count);
    std::uint64_t spent = 0, open = 0, skipped = 0;
    for (std::uint64_t T = 1; T <= n; ++T) {  // shortest first; a length beyond the budget is skipped and counted
      const Integer cost = statistic_count(case_.model(), T) * Integer(T);
      if (cost + Integer(spent) > Integer(kWitness52Positions)) {
        ++skipped;
        continue;
      }
      spent += static_cast<std::uint64_t>(cost);
      bool failed = false;
      for_each_statistic(case_.model(), T, [&](const Statistic& s) {
        const Bracket d = inert_gap(expand(s, case_.model()));
        if (d.lo > tolerance && !failed) failed = true, problem("evidence.D_n_upper", cat("|f - g| > 2^-64 at ", T));
        else if (d.hi > tolerance) ++open;
      });
      if (failed) return;
    }
    // An enclosure that does not separate |f - g| from 2^-64 leaves the search UNDECIDED too: no holding verdict.
    if (open > 0) return problem("verdict", cat(verdict(), ", but ", open, " statistics of length <= n have |f - g| "
                                                "not separated from 2^-64 at 128 bits"));
    if (skipped > 0) unchecked(cat("|f - g| <= 2^-64 at ", skipped, " lengths <= n (beyond the kernel's budget)"));
    agreed(cat("|f - g| <= 2^-64 at every statistic of ", n - skipped, " of the ", n, " lengths <= n, by the kernel"));
    check_witness52_gap(M, eta);
  }

  /// The search's conditions (is_witness52_case, and the claim's own): a pair of softmax models of one or two
  /// layers with outputs of one size, n >= 1, M > n.
  bool witness52_applies() const {
    if (!case_.is_pair || case_.models.size() != 2) return false;
    for (const Model& m : case_.models)
      if (m.semantics.kind != Semantics::Kind::Softmax || m.layers.empty() || m.layers.size() > 2 ||
          m.readout.weights.rows() != case_.models[0].readout.weights.rows())
        return false;
    const std::uint64_t n = case_.check_count("witness_n", 0);
    return n >= 1 && witness_length() > n;
  }

  /// |f(x) − g(x)|∞ for a pair whose heads after the first layer have value 0: they add 0, so each output is the
  /// later MLPs and the readout applied to the first layer's representation at T (O(T), not O(T²)).
  Bracket inert_gap(const Tokens& x) {
    if (first_layers_.empty())  // each model cut to its first layer, once per certificate
      for (const Model& m : case_.models) {
        first_layers_.push_back(m);
        first_layers_.back().layers.resize(1);
      }
    Values out[2];
    for (std::size_t k = 0; k < 2; ++k) {
      const Model& m = case_.models[k];
      Values y = last_representation(first_layers_[k], x, m.semantics);
      for (std::size_t l = 1; l < m.layers.size(); ++l)
        if (m.layers[l].mlp) y = apply_mlp(*m.layers[l].mlp, y);
      out[k] = apply_readout(m, y);
    }
    return difference_bracket(out[0], out[1]);
  }

  /// The pair_distance witnesses recorded with "expect": "holds" (others are a problem for this claim).
  std::vector<std::pair<Statistic, Rational>> witness52_gaps() {
    std::vector<std::pair<Statistic, Rational>> out;
    const json* ws = field("witnesses");
    if (!ws || !ws->is_array()) return out;
    for (const json& w : *ws) {
      const json *k = member(w, "kind"), *e = member(w, "expect"), *s = member(w, "statistic");
      const auto a = rational_at(w, "at_least");
      if (!k || *k != "pair_distance" || !e || *e != "holds" || !s || !a) continue;
      if (auto sigma = read_statistic(*s, case_.model()); std::holds_alternative<Statistic>(sigma))
        out.emplace_back(std::get<Statistic>(sigma), *a);
    }
    return out;
  }

  /// A holding verdict's gap: a recorded statistic of length M where the kernel finds |f − g| >= η.
  void check_witness52_gap(std::uint64_t M, const Rational& eta) {
    for (const auto& [sigma, at_least] : witness52_gaps()) {
      if (sigma.length != M || at_least < eta) continue;
      if (inert_gap(expand(sigma, case_.model())).lo >= eta) return agreed(cat("|f - g| >= eta at length ", M));
    }
    problem("evidence.witnesses", cat("no statistic of length ", M, " with |f - g| >= eta re-established"));
  }

  /// REFUTED: a recorded difference > 2^-64 at a length <= n (the full forward pass), or, for a pair the statistic
  /// argument covers, no statistic of length M with |f − g| >= η (each one evaluated).
  void check_witness52_refutation(std::uint64_t n, std::uint64_t M, const Rational& eta, const Rational& tolerance,
                                  bool inert) {
    for (const auto& [sigma, at_least] : witness52_gaps()) {
      if (sigma.length > n || at_least <= tolerance || sigma.length > expansion_limit(case_.model())) continue;
      const Tokens x = expand(sigma, case_.model());
      if ((inert ? inert_gap(x) : pair_gap(case_, x)).lo >= at_least)
        return agreed(cat("verdict: REFUTED by |f - g| >= ", to_string(at_least), " at length ", sigma.length));
    }
    if (!inert || statistic_count(case_.model(), M) * Integer(M) > Integer(kWitness52Positions))
      return problem("verdict", "REFUTED without a re-established difference at a length <= n");
    bool reached = false;
    for_each_statistic(case_.model(), M, [&](const Statistic& s) {
      reached = reached || inert_gap(expand(s, case_.model())).hi >= eta;
    });
    if (reached)
      return problem("verdict", cat("REFUTED, but a statistic of length ", M, " is not certainly below eta"));
    agreed(cat("verdict: REFUTED, |f - g| < eta at every statistic of length ", M));
  }

  /// T4.2.avg: α, α_min, ε, c, k, C, N₀, then the premise (check_premise).
  void check_average_claim() {
    const auto read = case_alpha();
    if (!read) return;
    const std::vector<Rational>& alpha = *read;
    if (const Rational eps = case_.check_rational("epsilon", Rational(1, 4)); eps > 1) {
      // Theorem 4.2 is stated for ε ≤ 1: the search computes nothing and records no evidence.
      if (!evidence_->empty()) problem("evidence", cat("recorded although eps = ", eps, " > 1"));
      if (verdict() != "UNDECIDED") return problem("verdict", cat(verdict(), " although eps = ", eps, " > 1"));
      return agreed(cat("verdict: UNDECIDED, eps = ", eps, " > 1 (Theorem 4.2 is stated for eps <= 1)"));
    }
    std::string text;
    for (const auto& a : alpha) text += cat(text.empty() ? "" : ",", a);
    if (!field("alpha") || *field("alpha") != text)
      problem("evidence.alpha", "recorded " + shown(field("alpha")) + ", the case gives \"" + text + "\"");
    else
      agreed("evidence.alpha");
    if (const auto amin = smallest_positive(alpha)) compare_rational(ev("alpha_min"), *amin);
    const Rational eps = epsilon_of(Rational(1, 4)), c = case_.check_rational("N0_constant", Rational(1));
    const unsigned k = static_cast<unsigned>(case_.check_count("N0_log_power", 0));
    compare_fields({{"c", c}, {"log_power", Rational(k)}, {"C", case_.check_rational("conclusion_constant", 1)}});
    const auto n0 = recompute([&] { return n0_average(alpha, eps, c, k); }, "evidence.N0");
    if (n0) compare_integer(ev("N0"), *n0);
    // Lengths up to N₀·2^d beyond check.average_budget (theory.md "T4.2.avg"): UNDECIDED, nothing computed.
    const unsigned doublings = static_cast<unsigned>(std::min<std::uint64_t>(case_.check_count("doublings", 3), 20));
    if (const Integer top = n0.value_or(Integer(0)) << doublings;
        top > Integer(case_.check_count("average_budget", 20000))) {
      if (verdict() != "UNDECIDED")
        return problem("verdict", cat(verdict(), " although N0·2^d = ", top, " exceeds the budget"));
      return agreed(cat("verdict: UNDECIDED, N0·2^d = ", top, " exceeds check.average_budget"));
    }
    check_premise(alpha, eps, n0.value_or(Integer(0)));
    if (n0) check_conclusion(alpha, eps, *n0, doublings);
  }

  /// T4.2.avg's conclusion, when the recorded premise holds: E_T <= C ε^{1/2} (E_T² against C²ε) at the conclusion
  /// lengths in order (every T in [N₀, N₀·2^d], or T = N₀·2^j as recorded in conclusion_lengths; under REFUTED every
  /// T) as far as the kernel's strings or statistics reach; a recorded conclusion row's E must be the kernel's. A
  /// certain failure is claim_fails (under REFUTED the counterexample).
  void check_conclusion(const std::vector<Rational>& alpha, const Rational& eps, const Integer& n0,
                        unsigned doublings) {
    const json* premise = field("premise");
    const json* holds = premise ? member(*premise, "holds") : nullptr;
    if (!holds || *holds != true || n0 < 1) return;
    std::map<std::uint64_t, const json*> rows;  // length → recorded E
    if (const json* list = field("conclusion"); list && list->is_array())
      for (const json& row : *list)
        if (const auto T = count_at(row, "length", kMaxStatisticLength)) rows[*T] = member(row, "E");
    const bool doubling = verdict() != "REFUTED" && field("conclusion_lengths") &&
                          *field("conclusion_lengths") == "doubling";
    const Rational C = case_.check_rational("conclusion_constant", 1), bound_sq = C * C * eps;
    const Integer top = n0 << doublings;
    std::size_t held = 0, open = 0;
    // One conclusion length: the kernel's E_T, the recorded row's E against it, then the claim's inequality.
    enum class Step { beyond_reach, finished, next };
    auto visit = [&](std::uint64_t T) {
      const auto e = expectation(alpha, T, conclusion_positions_left_);
      if (!e) return Step::beyond_reach;
      if (const auto row = rows.find(T); row != rows.end()) {
        if (e->exact) compare_rational({cat("evidence.conclusion: E_", T), row->second}, e->sum.lo);
        else if (!meets_enclosure(cat("evidence.conclusion: E_", T), row->second, e->sum, cat("E_", T)))
          return Step::finished;
      }
      if (e->sum.lo * e->sum.lo > bound_sq) {
        claim_fails("evidence.conclusion", cat("E_", T, " >= ", e->sum.lo, " > C eps^(1/2) = ", C, " * ", eps,
                                               "^(1/2) by the kernel's strings or statistics"));
        if (verdict() == "REFUTED") check_refuting_premise(alpha, eps, n0);
        return Step::finished;
      }
      ++(e->sum.hi * e->sum.hi > bound_sq ? open : held);
      return Step::next;
    };
    std::set<std::uint64_t> visited;
    if (verdict() == "REFUTED")  // the recorded rows first (the search's failing length is its last row), then every T
      for (const auto& [length, E] : rows) {
        if (Integer(length) < n0 || Integer(length) > top || length > 1000) continue;
        const Step step = visit(length);
        if (step == Step::finished) return;
        if (step == Step::next) visited.insert(length);
      }
    Integer T = n0;
    for (; T <= top && T <= 1000; T = doubling ? Integer(T * 2) : Integer(T + 1)) {
      const std::uint64_t length = T.convert_to<std::uint64_t>();
      if (visited.count(length)) continue;
      const Step step = visit(length);
      if (step == Step::beyond_reach) break;
      if (step == Step::finished) return;
    }
    if (held > 0)
      agreed(cat("evidence.conclusion: E_T <= C eps^(1/2) at ", held, " conclusion lengths from N0 = ", n0));
    if (open > 0) unchecked(cat("evidence.conclusion: ", open, " E_T not separated from C eps^(1/2) at 128 bits"));
    if (T <= top) unchecked(cat("evidence.conclusion: E_T from T = ", T, " on, beyond the kernel's reach"));
  }

  /// T4.2.avg under REFUTED: the premise E_u <= ε at every u <= N₀ by the kernel's own strings or statistics (the
  /// record's premise is not trusted), within 4·10⁷ more positions; a premise the kernel does not show is a problem.
  void check_refuting_premise(const std::vector<Rational>& alpha, const Rational& eps, const Integer& n0) {
    std::uint64_t budget = 4 * kExhaustivePositions;
    const std::uint64_t last = n0 > 1000 ? 0 : n0.convert_to<std::uint64_t>();
    if (!last)
      return problem("verdict", cat("REFUTED, but the premise up to N0 = ", n0, " is beyond the kernel's reach"));
    for (std::uint64_t u = 1; u <= last; ++u) {
      const auto e = expectation(alpha, u, budget);
      if (!e || e->sum.hi > eps)
        return problem("verdict", cat("REFUTED, but the kernel does not show the premise E_t <= eps at t = ", u,
                                      !e ? " (beyond its reach)"
                                         : e->sum.lo > eps ? ": E_t is above eps (the claim is VACUOUS)"
                                                           : " (not separated at 128 bits)"));
    }
    agreed(cat("verdict: the premise E_t <= eps at t = 1..", last, " (the kernel's own, under REFUTED)"));
  }

  /// A recorded value (a rational or "[lo, hi]") that must meet the kernel's enclosure of `what`: a problem naming
  /// both when it does not (or is unreadable), and false.
  bool meets_enclosure(const std::string& path, const json* recorded, const Bracket& kernel, const std::string& what) {
    const auto ends = recorded ? recorded_ends(*recorded) : std::nullopt;
    if (ends && ends->first <= kernel.hi && ends->second >= kernel.lo) return true;
    problem(path, cat("recorded ", shown(recorded), ", the kernel encloses ", what, " in ",
                      enclosure_text(kernel.lo, kernel.hi)));
    return false;
  }

  /// E_t = Σ_x P(x)·|f(x) − g(x)|∞ over the strings of length t of α's support, enclosed by each string's
  /// [lo, hi] of |f − g|, and exact (lo = hi) when every output is; nullopt when too many strings.
  struct Expectation {
    Bracket sum{0, 0};
    bool exact = true;
  };
  std::optional<Expectation> expectation_by_strings(const std::vector<Rational>& alpha, std::size_t t) {
    if (!case_.is_pair) return std::nullopt;
    Expectation e;
    if (!for_each_string(support(alpha), t, [&](const Tokens& x) {
          const StringGap gap = string_gap(case_, x);
          const Rational p = string_probability(alpha, x);
          e.exact = e.exact && gap.exact;
          e.sum.lo += p * gap.d.lo;
          e.sum.hi += p * gap.d.hi;
        }))
      return std::nullopt;
    return e;
  }

  /// E_t by statistics, for a one-layer pair: a one-layer output is its statistic's (theory.md §2) and every string
  /// of a statistic has the same token counts, hence the same Dirichlet-multinomial weight, so E_t is the sum over
  /// the statistics σ of #strings(σ)·P(σ's string)·|f − g|, #strings(σ) = Π_r m_r(B)! / Π_s n_{s,r}!; nullopt when
  /// the statistics of length t need more positions than `budget` has left (charged).
  std::optional<Expectation> expectation_by_statistics(const std::vector<Rational>& alpha, std::uint64_t t,
                                                       std::uint64_t& budget) {
    const Model& m = case_.model();
    if (!case_.is_pair || m.layers.size() != 1 || case_.models[1].layers.size() != 1) return std::nullopt;
    const Integer cost = statistic_count(m, t) * Integer(t);
    if (cost > Integer(budget)) return std::nullopt;
    budget -= cost.convert_to<std::uint64_t>();
    std::vector<Integer> factorial{1};
    for (std::uint64_t k = 1; k <= t; ++k) factorial.push_back(factorial.back() * Integer(k));
    const std::uint64_t B = t > m.locality + 1 ? t - m.locality - 1 : 0;
    Expectation e;
    for_each_statistic(m, t, [&](const Statistic& sigma) {
      const Tokens x = expand(sigma, m);
      const Rational p = string_probability(alpha, x);
      if (p == 0) return;
      Integer strings = 1;
      for (std::size_t r = 0; r < m.period; ++r) {
        strings *= factorial[residue_count(B, r, m.period)];
        for (std::size_t s = 0; s < m.alphabet_size(); ++s) strings /= factorial[sigma.counts[s * m.period + r]];
      }
      const StringGap gap = string_gap(case_, x);
      e.exact = e.exact && gap.exact;
      e.sum.lo += Rational(strings) * p * gap.d.lo;
      e.sum.hi += Rational(strings) * p * gap.d.hi;
    });
    return e;
  }

  /// E_t by strings, else by statistics (nullopt when neither reaches t).
  std::optional<Expectation> expectation(const std::vector<Rational>& alpha, std::uint64_t t, std::uint64_t& budget) {
    if (auto e = expectation_by_strings(alpha, static_cast<std::size_t>(t))) return e;
    return expectation_by_statistics(alpha, t, budget);
  }

  /// E_t exactly (nullopt when neither strings nor statistics reach t or an output is inexact).
  std::optional<Rational> brute_expectation(const std::vector<Rational>& alpha, std::size_t t) {
    const auto e = expectation(alpha, t, premise_positions_left_);
    if (!e || !e->exact) return std::nullopt;
    return e->sum.lo;
  }

  /// T4.2.avg's premise: E at the recorded length, whether it holds against ε, and every E_u strings reach:
  /// equal to the recorded premise.values[u − 1] (E_1..E_min(last, 16)), and at most max_E up to N0, or at most
  /// ε before a recorded first failure.
  void check_premise(const std::vector<Rational>& alpha, const Rational& eps, const Integer& n0) {
    const json* premise = field("premise");
    const json* holds_field = premise ? member(*premise, "holds") : nullptr;
    if (!holds_field || !holds_field->is_boolean())
      return problem("evidence.premise", "missing, or without a boolean \"holds\"");
    const bool holds = holds_field->get<bool>();
    const char* at_key = holds ? "at" : "length";
    const char* value_key = holds ? "max_E" : "E";
    const std::string value_path = std::string("evidence.premise.") + value_key;
    std::string why;
    auto t = count_at(*premise, at_key, 1000000, &why);
    if (!t || *t == 0) return problem(std::string("evidence.premise.") + at_key, why.empty() ? "missing or 0" : why);
    const std::uint64_t last = holds ? (n0 > 100000 ? 0 : n0.convert_to<std::uint64_t>()) : *t;
    const std::uint64_t listed = std::min<std::uint64_t>(last, 16);
    check_average_domain(n0, last, holds);
    const auto by_strings = expectation(alpha, *t, premise_positions_left_);
    const auto e = by_strings && by_strings->exact ? std::make_optional(by_strings->sum.lo) : std::nullopt;
    const json* recorded = member(*premise, value_key);
    if (e) compare_rational({value_path, recorded}, *e);
    else if (const auto kernel = by_strings ? std::make_optional(by_strings->sum) : std::nullopt) {  // a sin readout
      if (!meets_enclosure(value_path, recorded, *kernel, cat("E_", *t))) return;
      if (holds ? kernel->lo > eps : kernel->hi <= eps)  // certainly on the other side of epsilon
        return problem("evidence.premise.holds", cat("E_", *t, " in ", enclosure_text(kernel->lo, kernel->hi),
                                                     " against epsilon ", eps, " (the kernel's enclosure)"));
      if (holds ? kernel->hi > eps : kernel->lo <= eps)
        unchecked(cat("evidence.premise.holds: the kernel's enclosure of E_", *t, " meets epsilon"));
      agreed(value_path + " (the kernel's enclosure by strings meets it)");
    } else unchecked(cat("evidence.premise: E_", *t, " beyond the kernel's strings and statistics"));
    // Else the recorded value's ends are the bound the other lengths are held to.
    const auto ends =
        e ? std::make_optional(std::make_pair(*e, *e)) : recorded ? recorded_ends(*recorded) : std::nullopt;
    if (!ends) return problem(value_path, "missing or unreadable");
    if (holds ? ends->second > eps : ends->first <= eps)  // a holding premise's upper end, a failing one's lower end
      problem("evidence.premise.holds",
              cat("E_", *t, " = ", e ? to_string(*e) : shown(recorded), " against epsilon ", eps));
    const json* values = member(*premise, "values");
    const bool listed_ok = values && values->is_array() && values->size() == listed;
    if (!listed_ok)
      problem("evidence.premise.values", cat("expected E_1..E_", listed, ", got ", shown(values)));
    const Rational cap = holds ? ends->second : eps;
    std::size_t reached = 0;
    for (std::size_t u = 1; u <= last; ++u) {
      auto eu = brute_expectation(alpha, u);
      if (!eu) break;
      reached = u;
      if (u <= listed && listed_ok)
        compare_rational({cat("evidence.premise.values[", u - 1, "]"), &(*values)[u - 1]}, *eu);
      if ((holds || u < last) && *eu > cap)
        return problem("evidence.premise", cat("E_", u, " = ", *eu, " exceeds ", cap));
    }
    const std::size_t held = std::min<std::size_t>(reached, holds ? last : last - 1);
    if (reached > 0) agreed(cat("evidence.premise: E_t <= ", cap, " for t = 1..", held));
    if (reached < last)  // an inexact E_t, or beyond the strings and the statistics' budget
      unchecked(cat("evidence.premise: E_t (and the listed values) for t = ", reached + 1, "..", last,
                    " not re-established by the kernel"));
  }

  /// T4.2.avg's domain (theory.md "T4.2.avg"): the premise's lengths 1..last, then, when it holds, the conclusion's:
  /// every T in [N₀, N₀·2^d] or T = N₀·2^j (the search's choice by its term estimate, read from conclusion_lengths).
  void check_average_domain(const Integer& n0, std::uint64_t last, bool holds) {
    std::string text = "E_t exactly for t = 1.." + std::to_string(last);
    Integer count = last;
    if (holds) {
      const std::uint64_t d = std::min<std::uint64_t>(case_.check_count("doublings", 3), 20);
      const bool every = field("conclusion_lengths") && *field("conclusion_lengths") == "every";
      const Integer top = n0 << d;
      const std::string at = every ? cat("every T in [", n0, ", ", top, "]") : cat("T = N0 * 2^j, j = 0..", d);
      text += " (premise) and E_T at " + at + " (conclusion)";
      count += every ? Integer((n0 << d) - n0 + 1) : Integer(d + 1);
    }
    compare_domain(text, count);
  }

  /// scope.domain must read `text` and scope.exhaustive be `count` (both recomputed); no recorded domain: not compared.
  void compare_domain(const std::string& text, const Integer& count) {
    const json* d = recorded_domain();
    if (!d) return unchecked("scope.domain: none recorded");
    if (*d != text) problem("scope.domain", "recorded \"" + d->get<std::string>() + "\", recomputed \"" + text + "\"");
    else agreed("scope.domain");
    compare_integer(scope("exhaustive"), count);
  }

  /// A constant the kernel encloses: equal when exact, else inside the kernel's
  /// 128-bit enclosure (up to 2^-100 relative above it: both are upper ends).
  void compare_enclosed(const Recorded& r, const Number& value) {
    if (value.is_exact()) return compare_rational(r, value.exact());
    if (!r.value) return problem(r.path, "missing");
    std::string why;
    auto v = read_rational(*r.value, why);
    if (!v) return problem(r.path, why);
    const Rational lo = lower_of(value), hi = upper_of(value);
    const Rational slack = (hi < 0 ? Rational(-hi) : hi) / pow(Rational(2), 100);
    if (*v < lo || *v > hi + slack)
      return problem(r.path, cat("recorded ", *v, ", the kernel encloses it in ", enclosure_text(lo, hi)));
    agreed(r.path + " (within the kernel's enclosure)");
  }

  /// compare_decimal against the first of `values` the recorded decimal meets (the last when it meets none).
  void compare_any_decimal(const Recorded& r, const std::vector<Number>& values, int digits) {
    if (values.empty()) return problem(r.path, "the kernel has no value to compare with");
    std::string why;
    const auto d = r.value && r.value->is_string() ? read_rational(*r.value, why) : std::nullopt;
    const auto met = std::find_if(values.begin(), values.end(), [&](const Number& v) {
      return d && decimal_meets(*d, literal_unit(r.value->get<std::string>(), *d, digits), v);
    });
    compare_decimal(r, met != values.end() ? *met : values.back(), digits);
  }

  /// A recorded decimal d that the search writes with `digits` significant digits stands for [d − u, d + u], u one
  /// unit of its last such digit (literal_unit: 0 for a fraction): it agrees when that meets the kernel's enclosure.
  /// (The unit of the last digit written would be looser: "%g" drops trailing zeros, and a value cut to "1.5" stood
  /// for all of [1.4, 1.6].)
  void compare_decimal(const Recorded& r, const Number& value, int digits) {
    std::string why;
    auto d = r.value && r.value->is_string() ? read_rational(*r.value, why) : std::nullopt;
    if (!d) return problem(r.path, why.empty() ? "missing or not a decimal string" : why);
    if (!decimal_meets(*d, literal_unit(r.value->get<std::string>(), *d, digits), value))
      return problem(r.path, cat("recorded ", show(*r.value), ", recomputed ",
                                 enclosure_text(lower_of(value), upper_of(value))));
    agreed(r.path);
  }

  /// Lemma 5.3: c, the rate, and per test (x and z recorded as strings): G and L at x's query Φ_q, the bound
  /// c(G + L)(τ+1)|z|^{−1/3} from the recorded G and L, z a subsequence of x ending in x's window, and the statistic
  /// error max_k |avg_x p_k − avg_z p_k| against the recorded error and, for the seed found, against the bound.
  void check_subsample_claim() {
    const Model& m = case_.model();
    if (m.layers.size() != 2 || m.semantics.kind != Semantics::Kind::Softmax)
      return problem("case", "L5.3.subsample does not apply: not a two-layer softmax model");
    const Rational c = case_.check_rational("subsample_constant", Rational(1));
    const Rational tau1(static_cast<unsigned long>(m.locality + 1));
    compare_fields({{"c", c}, {"rate", Rational(1, 3)}});
    const LimitMap phi(m);
    std::map<std::string, std::pair<Values, std::vector<Number>>> by_x;  // Φ_q and the averages of each x
    bool above_range = true;       // every rate bound >= 2G
    std::uint64_t informative = 0;  // same-window drift-form premises below 2G
    if (const json* tests = field("tests"); holding() && tests && tests->is_array() && tests->empty())
      problem("evidence.tests", "empty under the holding verdict " + verdict());
    const std::vector<SubsampleTest> expected = subsample_tests();
    const std::uint64_t seed = case_.check_count("seed", 1);
    const std::vector<Tokens> drawn =
        subsample_inputs(m.alphabet_size(), case_.check_count("subsample_length", 10000), seed);
    std::size_t index = 0;
    for_each_entry("tests", [&](const json& t, const std::string& path) {
      const auto x = recorded_input(t, "x", path), z = recorded_input(t, "z", path);
      if (!x || !z) return;
      const std::size_t i = index++;
      if (i >= expected.size()) return problem(path, cat("beyond the claim's ", expected.size(), " tests"));
      if (!member(t, "input") || !member(t, "n") || *member(t, "input") != expected[i].input ||
          *member(t, "n") != expected[i].n || x->size() != expected[i].T)
        return problem(path, cat("not the claim's test ", i, ": the ", expected[i].input, " x of length ",
                                 expected[i].T, " at n = ", expected[i].n));
      if (*x != drawn[expected[i].drawn])
        return problem(path + ".x", cat("not the ", expected[i].input, " x the claim draws from seed ", seed));
      if (x->size() <= m.locality + 1 || z->size() <= m.locality + 1) return problem(path, "x or z has no bulk");
      compare_integer({path + ".T", member(t, "T")}, Integer(static_cast<unsigned long>(x->size())));
      compare_integer({path + ".length_z", member(t, "length_z")}, Integer(static_cast<unsigned long>(z->size())));
      if (!keeps_window(*x, *z, m.locality + 1))
        return problem(path + ".z", "not a subsequence of x ending in x's window");
      auto [at, fresh] = by_x.try_emplace(member(t, "x")->get<std::string>());
      if (fresh) at->second.first = phi.at_end(*x), at->second.second = integrand_averages(phi, at->second.first, *x);
      const IntegrandBounds b = integrand_bounds(m, at->second.first);
      compare_decimal({path + ".G", member(t, "G")}, b.G, 8);
      compare_decimal({path + ".L", member(t, "L")}, b.L, 8);
      auto G = rational_at(t, "G"), L = rational_at(t, "L");
      if (!G || !L) return problem(path, "G or L unreadable");
      const Number rate(power(Integer(static_cast<unsigned long>(z->size())), Rational(-1, 3), 128));
      // The recorded G and L are G and L rounded to 8 significant digits, each within a unit u of that digit: the
      // bound made from them is the interval their ±u give. (The search's bound comes from its unrounded G and L: a
      // point bound from the decimals can sit a rounding unit of the bound away.)
      const Rational spread = significant_unit(*G, 8) + significant_unit(*L, 8);  // both written at 8 digits
      const Number low = Number(c * (*G + *L - spread) * tau1) * rate;
      const Number high = Number(c * (*G + *L + spread) * tau1) * rate;
      const Number from_decimals(Interval::hull(lower_of(low), upper_of(high), 128));
      compare_decimal({path + ".bound", member(t, "bound")}, from_decimals, 6);
      const Number error = statistic_error(at->second.second, integrand_averages(phi, at->second.first, *z));
      compare_bracket({path + ".error", member(t, "error")}, error, 6);
      const Number bound = Number(c * tau1) * (b.G + b.L) * rate;
      const json* seed = member(t, "seed");
      if (!seed || seed->is_null())  // no seed met the bound: the claim cannot hold (the search says UNDECIDED)
        return holding() ? problem(path + ".seed", "null under the holding verdict " + verdict()) : void();
      if (lower_of(error) > upper_of(bound)) problem(path, "the statistic error is above c(G + L)(tau+1)|z|^-1/3");
      else if (upper_of(error) <= lower_of(bound)) agreed(path + ": statistic error <= c(G + L)(tau+1)|z|^-1/3");
      else unchecked(path + ": the statistic error and the bound are not separated at 128 bits");
      above_range = above_range && lower_of(bound) >= upper_of(Number(2) * b.G);
      if (const auto kept = recorded_kept(t, *x, *z, path)) {
        check_provenance(path + ".kept", *kept, x->size(), member(t, "n"), *seed, m.locality, m.period);
        const DriftForm d = drift_form(phi, at->second.first, at->second.second, *x, *kept, b.G, b.L);
        informative += d.informative;
        check_drift_form(t, path, d);
      } else {
        unchecked(path + ": the drift form (no kept positions)");
      }
    });
    if (holding() && index != expected.size())
      problem("evidence.tests", cat(index, " tests under the holding verdict ", verdict(), ", the claim runs ",
                                    expected.size()));
    if (holding() && index == expected.size()) facts_.informative_premises = informative;  // the detail's count
    // VACUOUS exactly when no part could fail: every rate bound is at least 2G, the statistic error's a-priori
    // range, and every same-window premise L‖Δμ̂‖₁ is at least 2G (theory.md "The drift form").
    if (const Recorded v = scope("vacuous"); holding() && field("tests")) {
      const bool recorded = v.value && v.value->is_string() && !v.value->get_ref<const std::string&>().empty();
      if (recorded != (above_range && informative == 0))
        problem("scope.vacuous", cat(recorded ? "a reason is recorded" : "none is recorded", ", but ",
                                     informative, " drift-form premises are below 2G and the rate bounds are ",
                                     above_range ? "all" : "not all", " at least 2G"));
    }
  }

  /// One of L5.3.subsample's tests: the input family, |x| and the target n.
  struct SubsampleTest {
    std::string input;
    std::uint64_t T, n;
    std::size_t drawn;  ///< which of subsample_inputs' x
  };
  /// L5.3.subsample's tests, in order (theory.md "L5.3.subsample"): with L = check.subsample_length (10000) and
  /// T₁ = min(10⁴, L), the uniform and the periodic x of length T₁ at n = 100 and at n = 1000 (each n below T₁),
  /// then a periodic x of length 10⁵ at n = 10⁴ when L >= 10⁵, else of length T₁ at n = ⌊T₁/10⌋.
  std::vector<SubsampleTest> subsample_tests() const {
    const std::uint64_t L = case_.check_count("subsample_length", 10000), T1 = std::min<std::uint64_t>(10000, L);
    std::vector<SubsampleTest> out;
    for (std::uint64_t n : {100u, 1000u})
      if (n < T1) out.push_back({"uniform", T1, n, 0}), out.push_back({"periodic", T1, n, 1});
    if (L >= 100000) out.push_back({"periodic", 100000, 10000, 2});
    else out.push_back({"periodic", T1, T1 / 10, 2});
    return out;
  }

  /// That `kept` are the positions the subsampler draws for the recorded seed and target n (theory.md "The draws,
  /// exactly"): z is the seed's, not any subsequence chosen to pass.
  void check_provenance(const std::string& path, const std::vector<std::uint64_t>& kept, std::uint64_t T,
                        const json* n, const json& seed, std::uint64_t tau, std::uint64_t period) {
    if (!n || !n->is_number_unsigned() || n->get<std::uint64_t>() == 0 || n->get<std::uint64_t>() > T ||
        !seed.is_number_unsigned() || seed.get<std::uint64_t>() < 1 || seed.get<std::uint64_t>() > 8)
      return problem(path, "no readable seed in 1..8 (the seeds the claim tries) and target n (1 <= n <= |x|)");
    if (subsampler_positions(T, n->get<std::uint64_t>(), tau, seed.get<std::uint64_t>(), period) != kept)
      return problem(path, cat("not the positions the subsampler draws for seed ", seed.get<std::uint64_t>(),
                               " and n = ", n->get<std::uint64_t>()));
    agreed(cat(path, ": the subsampler's, seed ", seed.get<std::uint64_t>()));
  }

  /// That z is x at the positions the subsampler draws for the recorded seed and n (a T5.2.sim row).
  void check_subsampled(const std::string& path, const Tokens& x, const Tokens& z, std::uint64_t n, const json* seed,
                        std::uint64_t tau, std::uint64_t period) {
    if (!seed || !seed->is_number_unsigned() || n == 0 || n > x.size())
      return problem(path + ".seed", "missing, or no target n (1 <= n <= |x|) to re-draw the subsample from");
    Tokens drawn;
    for (std::uint64_t j : subsampler_positions(x.size(), n, tau, seed->get<std::uint64_t>(), period))
      drawn.push_back(x[j - 1]);
    if (drawn != z)
      return problem(path + ".z", cat("not x at the positions the subsampler draws for seed ",
                                      seed->get<std::uint64_t>(), " and n = ", n));
    agreed(cat(path, ".z: the subsampler's, seed ", seed->get<std::uint64_t>()));
  }

  /// A test's `kept`: z's positions in x, 1-based and increasing, x's token at each, x's last τ + 1 among them.
  std::optional<std::vector<std::uint64_t>> recorded_kept(const json& t, const Tokens& x, const Tokens& z,
                                                          const std::string& path) {
    const json* list = member(t, "kept");
    if (!list) {
      if (holding()) problem(path + ".kept", "missing under the holding verdict " + verdict());
      return std::nullopt;
    }
    std::vector<std::uint64_t> kept;
    const std::uint64_t T = x.size(), window = case_.model().locality + 1;
    for (std::size_t j = 0; list->is_array() && j < list->size() && j < z.size(); ++j) {
      const json& i = (*list)[j];
      if (!i.is_number_unsigned() || i.get<std::uint64_t>() < 1 || i.get<std::uint64_t>() > T) break;
      if ((!kept.empty() && i.get<std::uint64_t>() <= kept.back()) || x[i.get<std::uint64_t>() - 1] != z[j]) break;
      kept.push_back(i.get<std::uint64_t>());
    }
    const bool whole = list->is_array() && kept.size() == list->size() && kept.size() == z.size();
    if (!whole || kept[z.size() - window] != T - window + 1)
      return problem(path + ".kept", "not z's increasing positions in x, x's last tau + 1 among them"), std::nullopt;
    return kept;
  }

  /// A ratio of upper ends (the drift form's lipschitz_ratio, range_ratio) as compare_decimal, except below 2^-100:
  /// there a ratio is the enclosures' width, not the change (an integrand that moves by less than the resolution of
  /// either computation), and a recorded value below 2^-100 agrees with a kernel value below it.
  void compare_ratio(const Recorded& r, const Rational& value) {
    const Rational noise = pow(Rational(2), -100);
    std::string why;
    const auto d = r.value && r.value->is_string() ? read_rational(*r.value, why) : std::nullopt;
    if (d && *d <= noise && value <= noise) return agreed(r.path + " (both below 2^-100)");
    compare_decimal(r, Number(value), 4);
  }

  /// The drift form's recorded numbers against the kernel's, and, for a holding verdict, its premises and inequality.
  void check_drift_form(const json& t, const std::string& path, const DriftForm& d) {
    compare_integer({path + ".broken_windows", member(t, "broken_windows")}, Integer(d.broken));
    compare_decimal({path + ".drift", member(t, "drift")}, Number(d.drift), 6);
    compare_any_decimal({path + ".drift_form_bound", member(t, "drift_form_bound")}, d.bounds, 6);
    compare_ratio({path + ".lipschitz_ratio", member(t, "lipschitz_ratio")}, d.lipschitz_ratio);
    compare_ratio({path + ".range_ratio", member(t, "range_ratio")}, d.range_ratio);
    if (!holding() && verdict() != "REFUTED") return;
    if (d.premise_broken)
      return claim_fails(path, "a kept position's integrand moves by more than its drift-form premise");
    if (d.inequality_broken)
      return claim_fails(path, "the statistic error is above the drift form S + 2G beta + L D");
    if (!holding()) return;
    if (d.inequality_certain) agreed(path + ": E_k <= S_k + 2G beta + L D for every integrand k");
    else unchecked(path + ": E_k and S_k + 2G beta + L D not separated at 128 bits");
    if (d.open == 0) agreed(path + ": the drift form's premise at every kept position");
    else unchecked(cat(path, ": ", d.open, " drift-form premises not separated from their bound at 128 bits (with ",
                       "L = 0 a premise asks for equality, which enclosures do not show)"));
  }

  /// The string recorded at t[key], parsed with the case's alphabet; nullopt (and a problem) when it is not one.
  std::optional<Tokens> recorded_input(const json& t, const char* key, const std::string& path) {
    const json* text = member(t, key);
    if (!text || !text->is_string()) return problem(path + "." + key, "missing or not a string"), std::nullopt;
    try {
      return parse_input(case_.model(), text->get<std::string>());
    } catch (const std::exception& e) {
      return problem(path + "." + key, e.what()), std::nullopt;
    }
  }

  /// z is x restricted to positions that include x's last `window` ones (the subsampler's z).
  static bool keeps_window(const Tokens& x, const Tokens& z, std::size_t window) {
    const long w = static_cast<long>(window);
    if (z.size() < window || !std::equal(z.end() - w, z.end(), x.end() - w)) return false;
    std::size_t k = 0;
    for (std::size_t i = 0; i < x.size() && k < z.size(); ++i) k += x[i] == z[k];
    return k == z.size();
  }

  /// A recorded "[lo, hi]" (or one decimal, or an exact fraction) meets the kernel's enclosure, each end written with
  /// `digits` significant digits widened by one unit of its last (literal_unit).
  void compare_bracket(const Recorded& r, const Number& value, int digits) {
    const auto ends = bracket_ends(r.value);
    if (!ends) return problem(r.path, "missing or not a string");
    const std::string text = r.value->get<std::string>(), &lo_text = ends->first, &hi_text = ends->second;
    std::string why;
    const auto lo = read_rational(json(lo_text), why), hi = read_rational(json(hi_text), why);
    if (!lo || !hi) return problem(r.path, "not a decimal or [lo, hi]: " + text);
    if (*lo - literal_unit(lo_text, *lo, digits) > upper_of(value) ||
        *hi + literal_unit(hi_text, *hi, digits) < lower_of(value))
      return problem(r.path, cat("recorded ", text, ", recomputed ", enclosure_text(lower_of(value), upper_of(value))));
    agreed(r.path);
  }

  /// visit(entry, path) for each entry of the evidence array `key`; false (a problem) when it is not an array.
  bool for_each_entry(const char* key, const std::function<void(const json&, const std::string&)>& visit) {
    const json* list = field(key);
    if (!list || !list->is_array()) return problem(cat("evidence.", key), "missing or not an array"), false;
    for (std::size_t i = 0; i < list->size(); ++i) visit((*list)[i], cat("evidence.", key, "[", i, "]"));
    return true;
  }

  /// Theorem 5.2: C = max(C(f), C(g)), N_variant_A/B from it, and each row's C(model)·|z|^{−r′}.
  void check_complexity_claim() {
    const Rational c = case_.check_rational("subsample_constant", Rational(1));
    const Rational eps = case_.check_rational("epsilon", Rational(1, 10));
    std::vector<Section5Bounds> bounds;
    Rational rate(1, 3);  // the smaller r′ = min(γ, 1/3, γ₂)
    std::size_t period = 1;  // lcm of the periods: a z of the right residue exists among any `period` lengths
    std::uint64_t start = 1;  // C(f) holds from the larger start on
    if (!case_.is_pair) return problem("case", "T5.2.sim does not apply: not a pair");
    for (const Model& m : case_.models) {
      if (auto why = layer2_obstacle(m)) return problem("case", "T5.2.sim does not apply: " + *why);
      bounds.push_back(section5_bounds(m, c));
      rate = std::min(rate, bounds.back().rate);
      period = std::lcm(period, m.period);
      start = std::max(start, bounds.back().start);
    }
    Number C = bounds.front().C;
    for (const auto& b : bounds) C = certified_max(C, b.C);
    compare_enclosed(ev("C"), C);
    auto recorded = rational_at(*evidence_, "C");
    if (recorded && *recorded >= lower_of(C) && *recorded > 0) try {  // the exact N's follow from an accepted C
      const Rational e = 1 / rate;  // max(1/γ, 3, 1/γ₂)
      const long u = numerator(e).convert_to<long>(), v = denominator(e).convert_to<long>();
      const Integer spread(static_cast<unsigned long>(period - 1));  // N_A = max(⌈(C/ε)^e⌉, start) + lcm(Δ) − 1
      compare_integer(ev("N_variant_A"), std::max(ceil_power(*recorded / eps, e), Integer(start)) + spread);
      compare_integer(ev("N_variant_B"), ceil_power(pow(*recorded, v) * pow(1 / eps, u), Rational(1, v)));
    } catch (const std::overflow_error& beyond) {
      unchecked(cat("T5.2.sim: N_variant_A/B (", beyond.what(), ")"));
    }
    const bool rows = for_each_entry("rows", [&](const json& r, const std::string& path) {
      const json* model = member(r, "model");
      const std::size_t which = model && *model == "g" ? 1 : 0;
      auto n = count_at(r, "length_z", kMaxStatisticLength);
      if (!model || !(*model == "f" || *model == "g") || which >= bounds.size() || !n || *n == 0)
        problem(path, "model or length_z unreadable");
      else if (const json *bound = member(r, "a_priori_bound"), *good = member(r, "c_good");
               !good || !good->is_boolean())
        problem(path + ".c_good", "missing or not true/false");
      else if (!*good && (!bound || *bound != "-"))
        problem(path + ".a_priori_bound", "recorded for a z that is not c-good (the claim writes \"-\")");
      else if (*good)
        compare_decimal({path + ".a_priori_bound", bound}, a_priori(bounds[which], *n), 6);
    });
    if (rows) check_simulation_rows(bounds, c);
  }

  /// C(f)·n^{−r′}, the a-priori bound on |f(x) − f(z)| for a c-good z of length n.
  static Number a_priori(const Section5Bounds& b, std::uint64_t n) {
    return b.C * Number(power(Integer(n), -b.rate, 128));
  }

  /// Whether z (|z| = n, statistic error E, histogram drift D) is c-good for x (theory.md "The complexity C(f)"):
  /// n >= n₀, E <= c(G + L)(τ+1)n^{−1/3} and D <= c·H·(τ+1)n^{−1/3}, G and L query-free. true or false when the
  /// enclosures decide it, nullopt when they do not.
  std::optional<bool> c_good(const Model& m, const Section5Bounds& b, const Rational& c, std::uint64_t n,
                             const Number& E, const Rational& D) const {
    const Rational tau1(static_cast<unsigned long>(m.locality + 1));
    const Rational H(static_cast<unsigned long>(m.alphabet_size() * m.period));
    const Number rate(power(Integer(n), Rational(-1, 3), 128));
    const Number limit_E = Number(c * tau1) * (b.G + b.L) * rate, limit_D = Number(c * H * tau1) * rate;
    if (n < b.start || lower_of(E) > upper_of(limit_E) || D > upper_of(limit_D)) return false;
    if (upper_of(E) <= lower_of(limit_E) && D <= lower_of(limit_D)) return true;
    return std::nullopt;
  }

  /// T5.2.sim's a-posteriori rows of every (model, input family) the case names (check.simulation_inputs, else
  /// uniform and, for S = 2, rate:1/20 and rate:1/400; models f and g): the rows of every n the claim tests (100, 1000
  /// and |x|/10 above 1000, each >= 2(τ+1) and below |x| = check.simulation_length) must be there; from the family's
  /// recorded x (`inputs`, one entry per family) and each row's z: z a subsequence of x keeping its window, the
  /// statistic error E, the histogram drift and the bound (`SimulationErrorBounder`), the error |m(x) − m(z)|∞ by the
  /// kernel's own forward pass of the row's model m (a first-layer pass counts each far key once: linear in |x|), which
  /// the recorded error must meet; for a holding verdict, error <= bound on the kernel's own numbers (and the recorded
  /// upper end <= the bound's).
  void check_simulation_rows(const std::vector<Section5Bounds>& constants, const Rational& c) {
    const json* inputs = field("inputs");
    if (!inputs || !inputs->is_array()) return problem("evidence.inputs", "missing or not an array");
    std::map<std::string, const json*> by_family;  // the entry {"input": family, "x": text}
    for (const json& entry : *inputs)
      if (const json* name = member(entry, "input");
          name && name->is_string() && !by_family.emplace(*name, &entry).second)
        return problem("evidence.inputs", "the family " + name->get<std::string>() + " is recorded twice");
    std::vector<std::string> families{"uniform"};
    if (const auto it = case_.check.find("simulation_inputs"); it != case_.check.end() && it->is_array()) {
      families.clear();
      for (const json& f : *it)
        if (f.is_string()) families.push_back(f.get<std::string>());
    } else if (case_.model().alphabet_size() == 2) {
      families = {"uniform", "rate:1/20", "rate:1/400"};
    }
    const std::uint64_t length = case_.check_count("simulation_length", 10000), tau = case_.model().locality;
    std::vector<InputFamily> parsed;  // the case parser accepted each name
    for (const std::string& f : families)
      if (const auto family = parse_input_family(f)) parsed.push_back(*family);
    std::map<std::string, Tokens> drawn;  // each family's x, from the case's seed
    const std::uint64_t seed = case_.check_count("seed", 1);
    const std::vector<Tokens> xs = simulation_inputs(parsed, case_.model().alphabet_size(), length, seed);
    for (std::size_t k = 0; k < parsed.size(); ++k) drawn.emplace(parsed[k].name, xs[k]);
    std::set<std::uint64_t> targets;  // the n the claim tests
    for (const std::uint64_t n : {std::uint64_t{100}, std::uint64_t{1000}, length / 10 > 1000 ? length / 10 : 0})
      if (n >= 2 * (tau + 1) && n < length) targets.insert(n);
    using Pair = std::pair<std::string, std::string>;  // (model, family)
    std::map<Pair, std::set<std::uint64_t>> missing;   // per (model, family): the n without a row yet
    for (const std::string& f : families)
      for (const char* model : {"f", "g"}) missing[{model, f}] = targets;
    struct AtX {
      Values query;                  // Φ_q
      std::vector<Number> averages;  // the integrands' averages over x
      std::optional<SimulationErrorBounder> bounder;
      Values output;                 // m(x)
    };
    std::map<Pair, AtX> at_x;
    std::size_t recomputed = 0;  // rows whose numbers were all recomputed
    std::optional<Bracket> smallest, least;  // the least bound, and the least with C(f)|z|^-r' of the c-good rows
    auto lower = [](std::optional<Bracket>& into, const Number& v) {
      into = into ? Bracket{std::min(into->lo, lower_of(v)), std::min(into->hi, upper_of(v))}
                  : Bracket{lower_of(v), upper_of(v)};
    };
    for_each_entry("rows", [&](const json& r, const std::string& path) {
      const json *model = member(r, "model"), *family = member(r, "input");
      const auto found = family && family->is_string() ? by_family.find(family->get<std::string>()) : by_family.end();
      const json* entry = found == by_family.end() ? nullptr : found->second;
      if (!model || !model->is_string() || !entry) return problem(path + ".input", "not a family in evidence.inputs");
      const Pair key{model->get<std::string>(), family->get<std::string>()};
      const auto left = missing.find(key);
      if (left == missing.end()) return problem(path, "not a (model, input) the case names");
      const json* n = member(r, "n");
      if (!n || !n->is_number_unsigned() || left->second.erase(n->get<std::uint64_t>()) == 0)
        return problem(path + ".n", "not one of the lengths the claim tests, or repeated");
      const Model& m = case_.models.at(key.first == "g" ? 1 : 0);
      const auto x = recorded_input(*entry, "x", "evidence.inputs[" + key.second + "]");
      const auto z = recorded_input(r, "z", path);
      if (!x || !z) return;
      if (x->size() != length)
        return problem("evidence.inputs", cat("|x| = ", x->size(), ", the case's length ", length));
      if (const auto d = drawn.find(key.second); d == drawn.end() || *x != d->second)
        return problem("evidence.inputs[" + key.second + "].x", cat("not the x the claim draws from seed ", seed));
      const std::uint64_t tail = kept_tail(m);  // the query's window and each top second-layer key's
      if (x->size() < tail + m.locality + 1 || z->size() < tail + m.locality + 1)
        return problem(path, "x or z too short");
      if (!keeps_window(*x, *z, tail))
        return problem(path + ".z", cat("not a subsequence of x ending in x's last ", tail, " tokens"));
      if (z->size() % m.period != x->size() % m.period)  // else z's window would not have x's residues
        return problem(path + ".z",
                       cat("|z| = ", z->size(), " is not |x| = ", x->size(), " mod the period ", m.period));
      check_subsampled(path, *x, *z, n->get<std::uint64_t>(), member(r, "seed"), tail - 1, m.period);
      const LimitMap phi(m);
      auto [slot, fresh] = at_x.try_emplace(key);
      AtX& ax = slot->second;
      if (fresh) {
        ax.query = phi.at_end(*x), ax.averages = integrand_averages(phi, ax.query, *x), ax.bounder.emplace(m, *x);
        ax.output = evaluate(m, *x, m.semantics);
      }
      const Number E = statistic_error(ax.averages, integrand_averages(phi, ax.query, *z));
      const SimulationErrorBound b = ax.bounder->bound(*z, E);
      compare_decimal({path + ".statistic_error", member(r, "statistic_error")}, E, 6);
      compare_decimal({path + ".histogram_drift", member(r, "histogram_drift")}, Number(b.drift), 6);
      compare_decimal({path + ".bound", member(r, "bound")}, b.total, 6);
      const auto length_z = count_at(r, "length_z", kMaxStatisticLength);
      if (!length_z || *length_z != z->size()) problem(path + ".length_z", cat("not |z| = ", z->size()));
      // max_k |m_k(x) − m_k(z)|: the same maximum of differences as the statistic error, over the outputs.
      const Number error = statistic_error(ax.output, evaluate(m, *z, m.semantics));
      compare_bracket({path + ".error", member(r, "error")}, error, 6);
      const auto ends = bracket_ends(member(r, "error"));
      std::string why;
      const auto hi = ends ? read_rational(json(ends->second), why) : std::nullopt;
      if (!hi) return problem(path + ".error", "missing, or not a decimal or [lo, hi]");
      ++recomputed;
      const Section5Bounds& k = constants.at(key.first == "g" ? 1 : 0);
      const bool good = check_c_good(r, path, [&](std::uint64_t seed) {
        if (*member(r, "seed") == seed) return c_good(m, k, c, z->size(), E, b.drift);
        Tokens other;
        for (std::uint64_t j : subsampler_positions(x->size(), n->get<std::uint64_t>(), tail - 1, seed, m.period))
          other.push_back((*x)[j - 1]);
        if (other.size() < k.start) return std::optional<bool>(false);  // n < n₀: not c-good, and no bound covers it
        const Number E_other = statistic_error(ax.averages, integrand_averages(phi, ax.query, other));
        return c_good(m, k, c, other.size(), E_other, ax.bounder->bound(other, E_other).drift);
      });
      lower(smallest, b.total), lower(least, b.total);
      if (good) lower(least, a_priori(k, z->size()));
      if (verdict() == "REFUTED") return row_counterexample(path, error, b.total, good ? &k : nullptr, z->size());
      if (!holding()) return;
      const std::string bound = enclosure_text(lower_of(b.total), upper_of(b.total));
      if (*hi > upper_of(b.total)) return problem(path + ".error", "recorded above the recomputed bound " + bound);
      // The claim's inequality on the kernel's own numbers (the recorded ones only had to meet them).
      if (lower_of(error) > upper_of(b.total)) return problem(path + ".error", "recomputed above the bound " + bound);
      if (upper_of(error) > lower_of(b.total)) unchecked(path + ": error <= bound (not separated)");
      else agreed(path + ": error <= bound (recomputed)");
      if (!good) return;
      const Number prior = a_priori(k, z->size());  // C(f)|z|^{−r′}, the premise c-good being the kernel's
      if (lower_of(error) > upper_of(prior))
        return problem(path + ".error",
                       "recomputed above C(f)|z|^-r' " + enclosure_text(lower_of(prior), upper_of(prior)));
      if (upper_of(error) > lower_of(prior)) return unchecked(path + ": error <= C(f)|z|^-r' (not separated)");
      agreed(path + ": error <= C(f)|z|^-r' (recomputed, z c-good)");
    });
    for (const auto& [key, left] : missing)
      if (holding() && !left.empty())
        problem("evidence.rows", cat("no row of model ", key.first, ", input ", key.second, " at n = ", *left.begin()));
    agreed(cat("T5.2.sim: the a-posteriori bound, E, the drift and the error recomputed from x and z on ", recomputed,
               " rows of ", at_x.size(), " (model, input) pairs"));
    if (holding() && smallest && least) check_simulation_vacuity(*smallest, *least);
  }

  /// T5.2.sim's smallest_bound and output_range, and VACUOUS exactly when every bound checked (the least, a-priori
  /// bounds of c-good rows included) is at least the a-priori range R of |f(x) − f(z)| (theory.md "T5.2.sim"): R is
  /// the largest of the models' (section5's output_range).
  void check_simulation_vacuity(const Bracket& smallest, const Bracket& least) {
    compare_decimal(ev("smallest_bound"), Number(Interval::hull(smallest.lo, smallest.hi, 128)), 6);
    std::optional<Rational> range = Rational(0);
    for (const Model& m : case_.models) {
      const auto one = output_range(m);
      range = range && one ? std::optional<Rational>(std::max(*range, *one)) : std::nullopt;
    }
    if (!range) {  // a model that is not two-layer (the claim's obstacle has been reported)
      if (verdict() == "VACUOUS") problem("verdict", "VACUOUS, but a model has no a-priori range");
      return;
    }
    compare_decimal(ev("output_range"), Number(*range), 6);
    const std::string text = cat("the least bound checked ", enclosure_text(least.lo, least.hi),
                                 " against the a-priori range ", to_decimal(*range, 6));
    const bool vacuous = verdict() == "VACUOUS";
    if (least.lo >= *range && !vacuous)
      return problem("verdict", cat("recorded ", verdict(), ", but ", text, ": VACUOUS"));
    if (least.hi < *range && vacuous) return problem("verdict", "VACUOUS, but " + text + " is below it");
    if (least.lo < *range && least.hi >= *range) return unchecked("verdict: " + text + " (not separated)");
    agreed("verdict " + verdict() + ": " + text);
  }

  /// T5.2.sim under REFUTED: a row whose error (the kernel's) is certainly above its bound or, z c-good (k given),
  /// above C(f)|z|^{−r′} is a counterexample (claim_fails).
  void row_counterexample(const std::string& path, const Number& error, const Number& bound, const Section5Bounds* k,
                          std::size_t length_z) {
    if (lower_of(error) > upper_of(bound))
      return claim_fails(path + ".error",
                         "recomputed above the bound " + enclosure_text(lower_of(bound), upper_of(bound)));
    if (!k) return;
    const Number prior = a_priori(*k, length_z);
    if (lower_of(error) > upper_of(prior))
      claim_fails(path + ".error", "recomputed above C(f)|z|^-r' " + enclosure_text(lower_of(prior), upper_of(prior)));
  }

  /// A T5.2.sim row's `c_good` and `seed` (theory.md "T5.2.sim"): the claim tries seeds 1..8 until z is c-good and
  /// records the first such seed, else seed 1 with c_good false. good_at(s) decides seed s's z (nullopt: the
  /// enclosures do not). A recorded c_good the kernel decides otherwise, a seed before the recorded one (or, for a z
  /// not c-good, any seed) whose z is c-good, or a z not c-good recorded with another seed than 1 is a problem.
  /// Returns whether the a-priori check applies: c_good recorded and confirmed.
  bool check_c_good(const json& r, const std::string& path,
                    const std::function<std::optional<bool>(std::uint64_t)>& good_at) {
    const json *c_good = member(r, "c_good"), *seed_at = member(r, "seed");
    if (!c_good || !c_good->is_boolean()) return false;  // a problem already
    if (!seed_at || !seed_at->is_number_unsigned() || *seed_at < 1u || *seed_at > 8u)
      return problem(path + ".seed", "missing, or not one of the seeds 1..8 the claim tries"), false;
    const bool recorded = c_good->get<bool>();
    const std::uint64_t seed = seed_at->get<std::uint64_t>();
    if (!recorded && seed != 1) return problem(path + ".seed", cat(seed, ", but a z not c-good is seed 1's")), false;
    const std::optional<bool> own = good_at(seed);
    if (own && *own != recorded)
      return problem(path + ".c_good", cat("recorded ", recorded ? "true" : "false", ", the kernel finds seed ", seed,
                                            "'s z ", *own ? "c-good" : "not c-good")),
             false;
    bool open = !own;  // some seed's z the enclosures do not decide
    for (std::uint64_t s = 1; s <= (recorded ? seed - 1 : 8); ++s) {
      if (s == seed) continue;
      const std::optional<bool> other = good_at(s);
      if (other && *other)
        return problem(path + ".seed", cat(seed, ", but seed ", s, "'s z is c-good: the claim records the first")),
               false;
      open = open || !other;
    }
    if (open) unchecked(path + ".c_good: a seed's z not decided at 128 bits");
    else agreed(cat(path, ".c_good: ", recorded ? "the first c-good seed" : "no seed in 1..8 gives a c-good z"));
    return recorded && own;
  }

  /// L5.conv: γ, the rate min(γ, 1), the start 2(τ+1), Lip(MLP) and K.
  void check_convergence_claim() {
    const Model& m = case_.model();
    const Margin g = positional_margin(m);
    compare_margin(ev("gamma"), g);
    compare_fields({{"rate", g ? std::min(*g, Rational(1)) : Rational(1)}, {"from", Rational(2 * (m.locality + 1))},
                    {"mlp_lipschitz", first_mlp_lipschitz(m)}});
    compare_enclosed(ev("K"), convergence_constant(m));
    const std::uint64_t n = convergence_length(case_), from = 2 * (m.locality + 1);
    const Integer S(static_cast<unsigned long>(m.alphabet_size()));
    if (recorded_domain() && n >= from)
      compare_domain(cat("positions i >= ", from, " of every input of length ", n),
                     pow(S, static_cast<unsigned long>(n)) * Integer(static_cast<unsigned long>(n - from + 1)));
    else if (const json* d = recorded_domain())
      problem("scope.domain", cat("recorded \"", d->get<std::string>(), "\", but the inputs of length ", n,
                                  " reach no position i >= ", from, ": no exhaustive domain"));
    else if (n < from) {  // nothing enumerated: no count, no digest
      compare_integer(scope("exhaustive"), Integer(0));
      if (field("visited")) problem("evidence.visited", "recorded without an exhaustive domain");
      agreed(cat("scope.domain: none (the inputs of length ", n, " reach no position i >= ", from, ")"));
    }
  }

  /// L5.lip: Lip(MLP), Lip, and the domain of near-vertex pairs (theory.md "L5.lip": for every query class q,
  /// slot-1 class (when τ >= 1) and ordered pair a != b of the K = SΔ classes).
  void check_lipschitz_claim() {
    const Model& m = case_.model();
    compare_rational(ev("mlp_lipschitz"), first_mlp_lipschitz(m));
    compare_enclosed(ev("Lip"), limit_lipschitz(m));
    const Integer K(static_cast<unsigned long>(m.alphabet_size() * m.period));
    compare_domain("near-vertex pairs (all mass on one class, 1/1000 of it moved to another) for every query class and "
                   "slot-1 class",
                   K * (m.locality ? K : Integer(1)) * K * (K - 1));
    check_lipschitz_pairs(m);
  }

  /// Every near-vertex pair of L5.lip's domain: ‖Φ(w, μ̂) − Φ(w, μ̂′)‖∞ <= Lip·‖μ̂ − μ̂′‖₁ by the kernel's limit map, a
  /// pair rejected only when the difference's lower end exceeds the bound's upper end.
  void check_lipschitz_pairs(const Model& m) {
    const std::size_t K = m.alphabet_size() * m.period, tau = m.locality;
    const Rational delta(1, 1000), lip = upper_of(limit_lipschitz(m));
    if (K > 64) return unchecked("scope.domain: more than 64 classes, the near-vertex pairs are not re-checked");
    const LimitMap phi(m);
    std::size_t pairs = 0, open = 0;
    for (std::size_t q = 0; q < K; ++q)
      for (std::size_t w1 = 0; w1 < (tau ? K : 1); ++w1) {
        std::vector<std::size_t> window(tau + 1, q);
        if (tau) window[1] = w1;
        for (std::size_t a = 0; a < K; ++a) {
          std::vector<Rational> mu(K, Rational(0));
          mu[a] = 1;
          const Values at_vertex = phi.at(window, mu);
          for (std::size_t b = 0; b < K; ++b) {
            if (a == b) continue;
            std::vector<Rational> nu = mu;
            nu[a] = 1 - delta, nu[b] = delta;
            const Bracket gap = difference_bracket(at_vertex, phi.at(window, nu));
            if (gap.lo > lip * 2 * delta)
              return claim_fails("scope.domain", cat("L5.lip fails at query class ", q, ", slot-1 class ", w1,
                                                 ", mass moved from class ", a, " to ", b));
            ++(gap.hi > lip * 2 * delta ? open : pairs);
          }
        }
      }
    agreed(cat("scope.domain: L5.lip on ", pairs, " of the ", pairs + open,
               " near-vertex pairs by the kernel's limit map"));
    if (open > 0) unchecked(cat("scope.domain: ", open, " near-vertex pairs not separated from Lip |mu - mu'|_1"));
  }

  /// D5.4.kgram: γ, k, ε, ρ, T₀, then the domain (check_kgram_domain).
  void check_kgram_claim() {
    const Model& m = case_.model();
    if (m.readout.weights.rows() != m.alphabet_size())  // f* is a distribution over the tokens
      return problem("claim", cat("D5.4.kgram does not apply: the readout has ", m.readout.weights.rows(),
                                  " outputs, the k-gram target one per token (", m.alphabet_size(), ")"));
    const Margin g = positional_margin(m);
    compare_margin(ev("gamma"), g);
    if (g && *g < 1) claim_fails("evidence.gamma", cat("the positional margin ", *g, " < 1 (the lemma assumes >= 1)"));
    const std::uint64_t k = case_.check_count("kgram_k", 0);
    compare_rational(ev("k"), Rational(k));
    const Rational eps = epsilon_of(Rational(1, 2)), rho = case_.check_rational("rho", Rational(1));
    compare_rational(ev("rho"), rho);
    const Integer T0 = kgram_min_length(k, rho, eps);
    compare_integer(ev("min_length"), T0);
    check_kgram_domain(k, T0, eps, rho);
  }

  /// D5.4.kgram's domain (theory.md "D5.4.kgram"): the inputs of length T₀, T₀ + 1, … (to check.max_length,
  /// default 18, while the lengths' strings total at most 2^15) with match fraction >= ρ, recounted, plus the
  /// recorded number of hard inputs; then ‖f − f*‖∞ <= ε, certified, at those of kSamples strings of these lengths
  /// (kernel seed) inside the domain.
  void check_kgram_domain(std::uint64_t k, const Integer& T0, const Rational& eps, const Rational& rho) {
    const Model& m = case_.model();
    const std::uint64_t top = case_.check_count("max_length", 18);
    const std::uint64_t first = T0 > top ? top + 1 : T0.convert_to<std::uint64_t>();
    const Integer S(static_cast<unsigned long>(m.alphabet_size()));
    std::uint64_t last = 0, strings = 0, inside = 0;
    Digest visited;  // the inputs inside the domain, as D5.4.kgram's search digests them
    for (std::uint64_t T = first; T <= top; ++T) {
      const auto count = [&](const Tokens& x) {
        if (match_fraction(x, k) < rho) return;
        ++inside;
        std::vector<std::uint64_t> words{x.size()};
        words.insert(words.end(), x.begin(), x.end());
        visited.add(words);
      };
      if (!for_each_string(symbols(m.alphabet_size()), T, count, (1u << 15) - strings)) break;
      strings += pow(S, static_cast<unsigned long>(T)).convert_to<std::uint64_t>();
      last = T;
    }
    std::string text;  // the enumerated lengths (when any), then the hard inputs
    if (last) text = cat("every input of length ", first, "..", last, " with match fraction >= rho (", inside, "), ");
    const json* recorded = recorded_domain();
    // The hard inputs are not rebuilt: their number is read from the recorded text.
    const unsigned long hard = recorded ? hard_input_count(recorded->get<std::string>()) : 0;
    text += std::to_string(hard) + " constructed hard inputs (first k positions scoring like a match, match fraction " +
            "near rho) at T = " + to_string(T0) + ".." + to_string(Integer(T0 + 2));
    compare_domain(text, Integer(inside) + hard);
    if (last) compare_visited(visited);
    check_kgram_vacuity(inside);
    unchecked("scope.domain: the constructed hard inputs (not rebuilt; their number is read from the domain)");
    Domain d{Domain::Kind::Statistics, first, last, 0, 0, std::nullopt};
    std::size_t checked = 0, open = 0;
    for (const Tokens& x : last ? sample_strings(d, m) : std::vector<Tokens>{}) {
      if (match_fraction(x, k) < rho) continue;
      const std::vector<Rational> target = kgram_target(x, k, m.alphabet_size());
      const Bracket b = difference_bracket(evaluate(m, x, m.semantics), Values(target.begin(), target.end()));
      if (b.lo > eps) return claim_fails("scope.domain", "|f - f*| > epsilon at the sampled input " + text_of(m, x));
      ++(b.hi <= eps ? checked : open);
    }
    if (checked + open == 0) return unchecked("scope.domain: no enumerated length to sample |f - f*| on");
    agreed("scope.domain: |f - f*| <= epsilon at " + std::to_string(checked) + " sampled inputs (seed " +
           std::to_string(kSampleSeed) + ", " + std::to_string(open) + " not separated)");
  }

  /// D5.4.kgram under a holding verdict: evidence.inputs, the inputs checked with match fraction >= ρ, holds the
  /// `inside` enumerated ones the kernel recounted, and the claim is VACUOUS exactly when it is 0.
  void check_kgram_vacuity(std::uint64_t inside) {
    if (!holding()) return;
    const json* n = field("inputs");
    if (!n || !n->is_number_unsigned()) return problem("evidence.inputs", "missing or not a count");
    const std::uint64_t inputs = n->get<std::uint64_t>();
    if (inputs < inside)
      return problem("evidence.inputs", cat(inputs, ", fewer than the ", inside, " enumerated inputs with match "
                                            "fraction >= rho the kernel counts"));
    if ((verdict() == "VACUOUS") != (inputs == 0))
      return problem("verdict", cat("recorded ", verdict(), " with ", inputs, " inputs of match fraction >= rho "
                                    "checked: VACUOUS exactly when there is none"));
    agreed(cat("verdict ", verdict(), ": ", inputs, " inputs of match fraction >= rho checked (", inside,
               " of them enumerated, recounted)"));
  }

  /// C4.2.regularity (theory.md "The regularity counterexample"): the parameters, the domain 1..K + tail, and E_t by
  /// weighted strings of the switching law's support (Dir(α) on Σ_short up to K, on its complement after) at every
  /// length t <= 200 or in (K, K + 200] they reach: exactly 0 up to K, exactly η after.
  void check_regularity_claim() {
    const Rational eta = case_.check_rational("eta", Rational(1));
    const std::uint64_t K = case_.check_count("switch_length", 0), tail = case_.check_count("regularity_tail", 64);
    compare_fields({{"eta", eta}, {"switch_length", Rational(K)}, {"tail", Rational(tail)}});
    compare_domain("E_t exactly for t = 1..K + tail = " + std::to_string(K + tail), Integer(K) + tail);
    const auto alpha = case_alpha();
    const json* names = member(case_.check, "short_alphabet");
    if (!alpha || !names || !names->is_array())
      return problem("case.check", "dirichlet_alpha or short_alphabet missing");
    const auto& alphabet = case_.model().alphabet;
    std::vector<bool> short_symbol(alpha->size(), false);
    for (const auto& name : *names)
      for (std::size_t s = 0; s < alpha->size(); ++s) short_symbol[s] = short_symbol[s] || name == alphabet[s];
    std::size_t reached = 0;
    const std::uint64_t early_end = std::min<std::uint64_t>(K, 200), end = K + std::min<std::uint64_t>(tail, 200);
    for (std::uint64_t t = 1; t <= end; t = t == early_end ? K + 1 : t + 1) {
      std::vector<Rational> law = *alpha;
      for (std::size_t s = 0; s < law.size(); ++s) law[s] = short_symbol[s] == (t <= K) ? law[s] : Rational(0);
      const auto e = brute_expectation(law, t);
      if (!e) continue;
      ++reached;
      if (*e != (t <= K ? Rational(0) : eta))
        return claim_fails("scope.domain", cat("E_", t, " = ", *e, " by the kernel's weighted strings or statistics, ",
                                               "not ", t <= K ? Rational(0) : eta));
    }
    agreed("scope.domain: E_t exactly at " + std::to_string(reached) + " lengths by weighted strings or statistics");
  }

  /// check.dirichlet_alpha, or nullopt (a problem) when absent or malformed.
  std::optional<std::vector<Rational>> case_alpha() {
    const json* a = member(case_.check, "dirichlet_alpha");
    if (!a || !a->is_array() || a->size() != case_.model().alphabet_size())
      return problem("case.check.dirichlet_alpha", "missing or not one per symbol"), std::nullopt;
    std::vector<Rational> alpha;
    for (const auto& v : *a) alpha.push_back(json_rational(v, "certificate", "check.dirichlet_alpha"));
    return alpha;
  }

  // --- exhaustive domains: the count, and the claim's inequality on sampled strings -----
  void check_enumeration(const std::string& claim) {
    if (claim == "L4.L") return check_norm_domain();
    if (claim == "T4.2.avg" || claim == "C4.2.regularity" || claim == "L5.lip" || claim == "D5.4.kgram") return;
    const json* text = recorded_domain();
    if (empty_window_) {  // nothing to enumerate: no domain, no count
      if (text) return problem("scope.domain", "the window [t, 2^p - 1] is empty, yet a domain is recorded");
      compare_integer(scope("exhaustive"), Integer(0));
      return agreed("scope: the window [t, 2^p - 1] is empty, nothing enumerated");
    }
    if (claim == "T4.1.sim") return simulation_domain(text);
    const bool named = claim == "T4.1.threshold" || claim == "T4.1.lg" || claim == "T4.1.witness" ||
                       claim == "T5.2.witness" ||
                       (claim == "L5.conv" && convergence_length(case_) >= 2 * (case_.model().locality + 1));
    if (!text)
      return named && holding() ? problem("scope.domain", "missing under the holding verdict " + verdict()) : void();
    const auto d = parse_domain(text->get<std::string>());
    if (!d) return unchecked("scope.domain: not a domain the kernel enumerates");
    if (claim == "T4.1.threshold") check_threshold_domain(*d);
    compare_integer(scope("exhaustive"), domain_count(*d, case_.model()));
    if (const auto digest = domain_digest(*d, case_.model())) compare_visited(*digest);
    else unchecked("evidence.visited: the domain is beyond the kernel's digest limit");
    if (const auto every = exhaustive_inequality(claim, *d)) {
      const char* what = claim == "L5.conv" ? " positions of every input" : " statistics";
      if (*every > 0) agreed(cat("scope.domain: the inequality at every one of the ", *every, what));
      else unchecked("scope.domain: the claim's inequality at no instance of the domain");
      if (open_ > 0) unchecked(cat("scope.domain: ", open_, " instances not separated from the bound at 128 bits"));
      return;
    }
    std::size_t checked = 0;
    if (d->hi <= expansion_limit(case_.model()))  // expandable, as witnesses
      for (const Tokens& x : sample_strings(*d, case_.model())) {
        const std::size_t before = failures();
        checked += sampled_inequality(claim, *d, x);
        if (failures() > before) break;  // one failing sample names the problem (or the counterexample)
      }
    if (checked > 0)
      agreed(cat("scope.domain: the inequality at ", checked, " sampled instances (seed ", kSampleSeed, ")"));
    else if (claim != "T4.1.sim")
      unchecked("scope.domain: the claim's inequality at no sampled instance");
    if (open_ > 0)
      unchecked(cat("scope.domain: ", open_, " sampled instances not separated from the bound at 128 bits"));
  }

  /// T4.1.sim's exhaustive lengths as the claim chooses them (theory.md "T4.1.sim"): from t (the padding length, 1
  /// without rounding) over min(check.max_length, 16) lengths, while a length holds at most 200 000 statistics and
  /// the lengths together at most 20 000; nullopt when not even the first fits.
  std::optional<Domain> simulation_lengths() {
    const Model& m = case_.model();
    if (ctx_.padding > Integer(kMaxStatisticLength)) return std::nullopt;
    const std::uint64_t start = ctx_.padding > 1 ? ctx_.padding.convert_to<std::uint64_t>() : 1;
    const std::uint64_t lengths = std::min<std::uint64_t>(case_.check_count("max_length", 12), 16);
    Integer total = 0;
    std::uint64_t to = 0;
    for (std::uint64_t T = start; T < start + lengths; ++T) {
      const Integer count = statistic_count(m, T);
      if (count > 200000 || total + count > 20000) break;
      total += count, to = T;
    }
    return to ? std::optional<Domain>(Domain{Domain::Kind::Statistics, start, to, 0, 0, std::nullopt}) : std::nullopt;
  }

  /// T4.1.sim under a holding verdict: the recorded domain must be the lengths the claim covers (simulation_lengths),
  /// and at every statistic of them, whatever witnesses the certificate lists, z the kernel's own construction, the
  /// lemma's distance and |z| <= N_sim, the error while kExhaustivePositions last (x and z expanded).
  void simulation_domain(const json* text) {
    if (!holding() || !ctx_.epsilon || !ctx_.n_sim || !ctx_.delta) return;
    const Model& m = case_.model();
    const auto lengths = simulation_lengths();
    const std::string want = lengths ? cat("every statistic of length ", lengths->lo, "..", lengths->hi) : "";
    if ((text ? text->get<std::string>() : "") != want)
      return problem("scope.domain", cat("recorded ", text ? show(*text) : "none", ", the claim covers ",
                                         want.empty() ? "no length" : "\"" + want + "\""));
    if (!lengths) return agreed("scope.domain: no length within the statistic budget");
    const Domain& d = *lengths;
    if (const auto digest = domain_digest(d, m)) compare_visited(*digest);
    compare_integer(scope("exhaustive"), domain_count(d, m));
    WitnessContext ctx = ctx_;
    ctx.positions_left = kExhaustivePositions;
    std::uint64_t built = 0, within = 0, open = 0, shorter = 0;  // open: not separated from ε at 128 bits
    Rational worst = 0;                                            // the largest attention distance
    const std::size_t before = failures();
    for (std::uint64_t T = d.lo; T <= d.hi && failures() == before; ++T) {
      for_each_statistic(m, T, [&](const Statistic& x) {
        if (failures() != before) return;
        const Statistic z = construction_of(ctx).build(x);
        const WitnessResult r = constructed_simulation(ctx, x, z);
        ++built, shorter += z.length < x.length;
        worst = std::max(worst, r.distance);
        if (r.status == WitnessStatus::Reestablished) ++within;
        else if (r.violated)
          claim_fails("scope.domain", r.why + " at the statistic's input " + text_of(m, expand(x, m)));
        else open += r.status == WitnessStatus::Rejected;
      });
    }
    if (failures() != before) return;
    agreed(cat("scope.domain: at every one of the ", built, " statistics, z the kernel's construction with max_h "
               "|w_h(x) - w_h(z)|_1 <= delta and |z| <= N_sim; |f(x) - f(z)| <= eps at ", within,
               " (z shorter than x at ", shorter, ", the largest distance ", worst, ")"));
    if (open > 0) unchecked(cat("scope.domain: |f(x) - f(z)| at ", open, " statistics not separated from eps"));
    if (within + open < built)
      unchecked(cat("scope.domain: |f(x) - f(z)| at ", built - within - open, " statistics beyond ",
                    kExhaustivePositions, " expanded positions"));
  }

  /// S.consistency, T4.1.threshold and T4.1.lg at every statistic of the domain's lengths (of a StringPositions
  /// domain, the prefixes' lengths first..last: every prefix is a string of its length), each expanded to one string
  /// (a one-layer output is its statistic's, theory.md §2), when within kExhaustivePositions; L5.conv at every
  /// input of its length when at most kMaxEnumeratedStrings: how many instances were checked (stopping at the first
  /// failure, a problem); nullopt for other claims or beyond the limit.
  std::optional<std::size_t> exhaustive_inequality(const std::string& claim, const Domain& d) {
    const Model& m = case_.model();
    const bool positions = d.kind == Domain::Kind::StringPositions;
    if (claim == "L5.conv" && positions && d.lo == d.hi) {  // every input of the length: at most 4096 (L5.conv's n)
      std::size_t checked = 0;
      const std::size_t before = failures();
      const bool all = for_each_string(symbols(m.alphabet_size()), d.lo, [&](const Tokens& x) {
        if (failures() == before) checked += sampled_inequality(claim, d, x, "the input");
      });
      return all ? std::make_optional(checked) : std::nullopt;
    }
    if ((claim != "S.consistency" && claim != "T4.1.threshold" && claim != "T4.1.lg") || m.layers.size() != 1)
      return std::nullopt;
    const std::uint64_t lo = positions ? std::max<std::uint64_t>(d.first, 1) : d.lo, hi = positions ? d.last : d.hi;
    Integer cost = 0;
    std::vector<std::uint64_t> included;  // the lengths the cap leaves in the domain
    for (std::uint64_t T = lo; T <= hi; ++T) {
      const Integer count = statistic_count(m, T);
      if (d.cap && count > Integer(*d.cap)) continue;
      if ((cost += count * Integer(T)) > Integer(kExhaustivePositions)) return std::nullopt;
      included.push_back(T);
    }
    Domain lengths = d;  // each statistic's string is checked at its last position
    lengths.kind = Domain::Kind::Statistics;
    std::size_t checked = 0;
    const std::size_t before = failures();
    for (const std::uint64_t T : included) {
      if (failures() != before) break;
      for_each_statistic(m, T, [&](const Statistic& s) {
        if (failures() == before)
          checked += sampled_inequality(claim, lengths, expand(s, m), "the statistic's input");
      });
    }
    return checked;
  }

  /// evidence.visited (docs/kernel.md "Visit digests") against the kernel's digest of the domain; a holding verdict
  /// must record it.
  void compare_visited(const Digest& mine) {
    const json* v = field("visited");
    if (!v) return holding() ? problem("evidence.visited", "missing (recomputed " + mine.text() + ")") : void();
    const json *items = member(*v, "items"), *digest = member(*v, "digest");
    if (!items || !items->is_number_unsigned() || !digest || !digest->is_string())
      return problem("evidence.visited", "expected {\"items\": N, \"digest\": 16 hexadecimal digits}, got " + show(*v));
    const std::string recorded = cat(items->get<std::uint64_t>(), " items, digest ", digest->get<std::string>());
    if (recorded != mine.text())
      return problem("evidence.visited", "recorded " + recorded + ", recomputed " + mine.text());
    agreed("evidence.visited: " + mine.text() + ", the kernel's own enumeration of the domain");
  }

  /// L4.L's domain (theory.md "The pairs L4.L compares"): the pair counts of every model, recomputed; then the lemma
  /// at kSamples kernel-drawn pairs (x, z) of lengths <= n with the same window and residue, for every model, under
  /// hardmax (the statistics' semantics; finite:p's surviving enclosures would leave equal outputs unseparated).
  void check_norm_domain() {
    const Model& f = case_.model();  // every model of a case has the same shape
    const std::uint64_t n = std::min<std::uint64_t>(case_.check_count("max_length", 10), 12);
    const PairCount c = norm_pair_count(f, n);
    const Integer models(static_cast<unsigned long>(case_.models.size()));
    const Integer compared = c.compared * models, groups = c.groups * models, total = c.total * models;
    compare_domain(cat("pairs of statistics of length <= ", n, " with the same window and residue (", compared, " of ",
                       total, " pairs, ", groups, " of ", groups, " groups)"),
                   compared);
    if (const auto digest = norm_pair_digest(f, case_.models.size(), n)) compare_visited(*digest);
    else unchecked("evidence.visited: the pairs are beyond the kernel's digest limit");
    std::size_t checked = 0;
    for (const auto& [x, z] : sample_norm_pairs(f, n))
      for (std::size_t i = 0; i < case_.models.size() && ctx_.L[i]; ++i, ++checked)
        if (WitnessResult r = norm_inequality(case_.models[i], *ctx_.L[i], x, z, Semantics::hardmax());
            r.status == WitnessStatus::Rejected) {
          const std::string why = "model " + std::to_string(i) + ": " + r.why + " at the sampled pair x = " +
                                  text_of(f, x) + ", z = " + text_of(f, z);
          return r.violated ? claim_fails("scope.domain", why) : problem("scope.domain", why);
        }
    agreed(cat("scope.domain: L4.L at ", checked, " sampled pairs (seed ", kSampleSeed, ")"));
  }

  /// The claim's inequality at one sampled string (each query position of a StringPositions
  /// domain): how many instances were checked. A failure is a problem naming the string.
  std::size_t sampled_inequality(const std::string& claim, const Domain& d, const Tokens& x,
                                 const char* instance = "the sampled input") {
    const Model& m = case_.model();
    auto fail = [&](const std::string& what) {
      return problem("scope.domain", what + " at " + instance + " " + text_of(m, x)), std::size_t{1};
    };
    auto fails_claim = [&](const std::string& what) {  // the claim's own statement: a counterexample under REFUTED
      return claim_fails("scope.domain", what + " at " + instance + " " + text_of(m, x)), std::size_t{1};
    };
    if (claim == "S.consistency" || claim == "T4.1.threshold") {
      std::size_t n = 0;
      const bool positions = d.kind == Domain::Kind::StringPositions;
      const std::uint64_t from = positions ? std::max<std::uint64_t>(d.first, 1) : x.size();
      const auto end = window_end();
      for (std::uint64_t i = from; i <= (positions ? d.last : x.size()) && i <= x.size(); ++i) {
        if (Integer(i) < ctx_.threshold.front() || (end && Integer(i) > *end)) continue;
        const Tokens prefix(x.begin(), x.begin() + static_cast<long>(i));
        if (rounding_gap(m, prefix, ctx_.rounding.front()).lo > 0)
          return fails_claim(ctx_.rounding.front().str() + " and hardmax differ at position " + std::to_string(i));
        ++n;
      }
      return n;
    }
    if (claim == "L5.conv") return convergence_at(d, x, fails_claim);
    if (claim == "T5.2.witness") {  // agreement within 2^-64 at every length <= n, through both layers
      if (!witness52_applies() || x.size() > case_.check_count("witness_n", 0) || !holding()) return 0;
      const Bracket d = pair_gap(case_, x);
      if (d.lo > witness52_tolerance()) return fail("|f - g| > 2^-64");
      return d.hi > witness52_tolerance() ? fail("|f - g| not separated from 2^-64 at 128 bits") : 1;
    }
    if (claim == "T4.1.lg") return distance_sample(x, fail);
    const char* key = claim == "T4.1.witness" ? "D_n" : nullptr;
    auto bound = key ? rational_at(*evidence_, key) : std::nullopt;
    if (!bound || !case_.is_pair || (claim == "T4.1.witness" && x.size() > case_.check_count("witness_n", 0))) return 0;
    return pair_gap(case_, x).lo > *bound ? fail(std::string("|f - g| is above evidence.") + key) : 1;
  }

  /// T4.1.lg at one sampled string of the curve's domain: |f − g| is at most D(reached) (the upper end of the recorded
  /// D_inf_lower, the curve's maximum) and D_inf_upper; at most D(N_sim(ε′)) = D_inf_upper − 2ε′ when the simulation
  /// bound gave the upper end and |x| <= simulation_N; at most ε when |x| <= N under a holding verdict that is not
  /// VACUOUS (the antecedent D(N) <= ε).
  template <class Fail>
  std::size_t distance_sample(const Tokens& x, const Fail& fail) {
    if (!case_.is_pair) return 0;
    struct Limit { std::optional<Rational> value; std::string name; };
    std::vector<Limit> limits;
    if (const json* lower = field("D_inf_lower")) limits.push_back({recorded_upper(*lower), "evidence.D_inf_lower"});
    const auto upper = rational_at(*evidence_, "D_inf_upper");
    limits.push_back({upper, "evidence.D_inf_upper"});
    const json* source = field("upper_source");
    const auto eps2 = rational_at(*evidence_, "simulation_eps"), n2 = rational_at(*evidence_, "simulation_N");
    if (upper && source && source->is_string() && source->get<std::string>().rfind("simulation", 0) == 0 && eps2 &&
        n2 && Rational(x.size()) <= *n2)
      limits.push_back({*upper - 2 * *eps2, "D(simulation_N) = evidence.D_inf_upper - 2 simulation_eps"});
    const auto N = rational_at(*evidence_, "N");
    if (holding() && verdict() != "VACUOUS" && N && ctx_.epsilon && Rational(x.size()) <= *N)
      limits.push_back({*ctx_.epsilon, "eps (the antecedent D(N) <= eps)"});
    const Rational gap = pair_gap(case_, x).lo;
    for (const Limit& l : limits)
      if (l.value && gap > *l.value) return fail("|f - g| is above " + l.name);
    return 1;
  }

  /// L5.conv at every position i of the domain in x: ‖Y_i − Φ(window_i, μ̂_i)‖∞ <= K·i^{−min(γ,1)}, Y_i the first
  /// layer's output by the kernel's forward pass on x_1..x_i, Φ its limit map.
  template <class Fail>
  std::size_t convergence_at(const Domain& d, const Tokens& x, const Fail& fail) {
    if (x.size() > kMaxConvergenceLength) return 0;  // a forward pass per position: quadratic in |x| each
    Model first = case_.model();
    first.layers.resize(1);
    const Margin g = positional_margin(first);
    const Rational rate = g ? std::min(*g, Rational(1)) : Rational(1), K = upper_of(convergence_constant(first));
    const std::uint64_t from = std::max<std::uint64_t>(d.first, 2 * (first.locality + 1));
    std::size_t n = 0, failed = 0;
    LimitMap(first).along(x, [&](std::uint64_t i, const Values& phi) {
      if (i < from || i > d.last || failed) return;
      const Tokens prefix(x.begin(), x.begin() + static_cast<long>(i));
      const Rational bound = K * upper_of(Number(power(Integer(i), Rational(-rate), 128)));
      const Bracket gap = difference_bracket(last_representation(first, prefix, first.semantics), phi);
      if (gap.lo > bound) failed = i;
      else if (gap.hi > bound) ++open_;
      else ++n;
    });
    if (failed) return fail("|Y_i - Phi(window_i, mu_i)| > K i^-rate at position " + std::to_string(failed));
    return n;
  }

  // --- refutations -----------------------------------------------------------
  /// A REFUTED record rests on a counterexample the kernel re-established (claim_fails: a witness, a sampled or
  /// enumerated instance, a recorded row), else it is rejected naming what would count. T4.1.witness and T5.2.witness
  /// decide their REFUTED by their own rules (check_witness_claim, check_witness52_refutation).
  void check_refutation(const std::string& claim) {
    if (claim == "T4.1.witness" || claim == "T5.2.witness") return;
    if (claim == "T4.1.lg" && !counterexamples_.empty()) check_antecedent();
    if (!counterexamples_.empty()) {
      agreed("verdict: REFUTED by a counterexample the kernel re-established (" + counterexamples_.front() + ")");
      if (counterexamples_.size() > 1) agreed(cat("verdict: ", counterexamples_.size() - 1, " more counterexamples"));
      return;
    }
    if (refutation_open_) return unchecked("verdict: REFUTED, not decided by the kernel (" + *refutation_open_ + ")");
    static const std::map<std::string, std::string> counts = {
        {"S.consistency", "a string_differs witness at a position >= t, or an instance of the domain where finite:p "
                          "and hardmax differ"},
        {"T4.1.threshold", "a finite_differs witness at a length the claim covers, an instance of the domain where "
                           "they differ, or, under check.threshold_sharp, agreement at every statistic of length "
                           "t - 1"},
        {"L4.L", "a norm_pair witness or a drawn pair that certainly violates the lemma"},
        {"T4.1.lg", "a pair_distance witness above 3 eps at a length > N, with the antecedent D(N) <= eps at every "
                    "statistic of length <= N within 10^7 positions"},
        {"T4.2.avg", "E_T above C eps^(1/2) at a conclusion length the kernel's strings or statistics reach, the "
                     "premise holding"},
        {"C4.2.regularity", "E_t other than the claimed value at a length the kernel's strings or statistics reach"},
        {"L5.conv", "a position of the domain's inputs where K i^-rate is certainly exceeded"},
        {"L5.lip", "a near-vertex pair where Lip |mu - mu'|_1 is certainly exceeded"},
        {"D5.4.kgram", "gamma < 1, or a drawn input of the domain with |f - f*| certainly above epsilon"},
        {"L5.3.subsample", "a test whose drift-form premise or inequality certainly fails"},
        {"T5.2.sim", "a row whose error is certainly above its bound or, z c-good, above C(f)|z|^-r'"}};
    if (claim == "T4.1.sim")
      return problem("verdict", "REFUTED, but the kernel re-establishes no T4.1.sim counterexample: it takes no "
                                "violating simulation witness as one, even with z the construction's (re-run the "
                                "claim)");
    const auto c = counts.find(claim);
    problem("verdict", "REFUTED, but the kernel re-establishes no counterexample (one would be " +
                           (c != counts.end() ? c->second : std::string("unknown for this claim")) + ")");
  }

  /// T4.1.lg under REFUTED: the antecedent D(N) <= ε, which a REFUTED needs the kernel to show: no re-established
  /// witness above ε at a length <= N, and every statistic of length <= N (each expanded to one string: a one-layer
  /// output is its statistic's) within ε, within kExhaustivePositions. Anything less is a problem.
  void check_antecedent() {
    const auto N = rational_at(*evidence_, "N");
    if (!N || !ctx_.epsilon) return problem("verdict", "REFUTED, but evidence.N or eps is not the kernel's");
    const json* ws = field("witnesses");
    for (const std::size_t i : reestablished_) {  // a gap the kernel re-established at a length <= N refutes it
      const auto T = length_at((*ws)[i], "statistic");
      const auto a = rational_at((*ws)[i], "at_least");
      if (T && a && Rational(*T) <= *N && *a > *ctx_.epsilon)
        return problem("verdict", cat("REFUTED, but witness ", i, " shows |f - g| >= ", *a, " > eps at length ", *T,
                                      " <= N: the antecedent D(N) <= eps is false"));
    }
    const Model& m = case_.model();
    Integer cost = 0;
    std::uint64_t last = 0;
    for (; Rational(last + 1) <= *N; ++last)
      if ((cost += statistic_count(m, last + 1) * Integer(last + 1)) > Integer(kExhaustivePositions))
        return problem("verdict", cat("REFUTED, but the antecedent D(N) <= eps is beyond the kernel's reach (lengths "
                                      "<= N need more than ", kExhaustivePositions, " positions)"));
    std::size_t checked = 0, open = 0;
    std::optional<std::uint64_t> above;  // a length <= N with a statistic certainly above ε
    for (std::uint64_t T = 1; T <= last && !above; ++T)
      for_each_statistic(m, T, [&](const Statistic& s) {
        if (above) return;
        const Bracket d = pair_gap(case_, expand(s, m));
        if (d.lo > *ctx_.epsilon) above = T;
        else ++(d.hi > *ctx_.epsilon ? open : checked);
      });
    if (above)
      return problem("verdict", cat("REFUTED, but |f - g| > eps at a statistic of length ", *above,
                                    " <= N: the antecedent D(N) <= eps is false"));
    if (open > 0)
      return problem("verdict", cat("REFUTED, but the antecedent is not shown: ", open,
                                    " statistics not separated from eps at 128 bits"));
    agreed(cat("the antecedent D(N) <= eps at every one of the ", checked, " statistics of length <= N"));
  }

  /// T4.1.threshold under check.threshold_sharp: finite:p = hardmax at every statistic of length T = t − 1 (each
  /// expanded to one string) refutes the sharpness the case asserts (claim_fails); within kExhaustivePositions.
  void check_unsharp(std::uint64_t T) {
    const Model& m = case_.model();
    const Integer count = statistic_count(m, T);
    if (count * Integer(T) > Integer(kExhaustivePositions))
      return void(refutation_open_ = cat("sharpness: the statistics of length t - 1 = ", T, " need more than ",
                                         kExhaustivePositions, " positions"));
    std::uint64_t open = 0;
    std::optional<Tokens> differs;  // a statistic's string where they certainly differ: t is sharp after all
    for_each_statistic(m, T, [&](const Statistic& s) {
      if (differs) return;
      const Tokens x = expand(s, m);
      const Bracket d = rounding_gap(m, x, ctx_.rounding.front());
      if (d.lo > 0) differs = x;
      else open += d.hi > 0;
    });
    const std::string sem = ctx_.rounding.front().str();
    if (differs)
      return problem("verdict", cat("REFUTED for sharpness, but ", sem, " and hardmax differ at the statistic's input ",
                                    text_of(m, *differs), " of length t - 1 = ", T));
    if (open > 0)  // equal value vectors under weights that are enclosures: equality the enclosures do not show
      return void(refutation_open_ = cat("sharpness: ", sem, " = hardmax at ", Integer(count - open), " of the ", count,
                                         " statistics of length t - 1 = ", T, ", none certainly differs, ", open,
                                         " not separated from a difference at 128 bits"));
    claim_fails("evidence.threshold",
                cat("not sharp: ", sem, " = hardmax at every one of the ", count, " statistics of length t - 1 = ", T));
  }

  /// A re-established witness that contradicts the claim (claim_fails): a norm_pair witness that certainly violates
  /// L4.L, S.consistency's string difference at a position >= t; under REFUTED also T4.1.threshold's difference at a
  /// covered length (check_witness_fields rejects it otherwise) and T4.1.lg's gap above 3ε at a length > N (the
  /// antecedent is checked by check_antecedent). A simulation witness's certain violation, its z the construction's,
  /// is not taken as a counterexample (docs/kernel.md, "REFUTED verdicts"): a T4.1.sim REFUTED is rejected.
  void witness_against_claim(const std::string& claim, const std::string& kind, const json& w,
                             const std::string& path) {
    const json* expect = member(w, "expect");
    if (expect && *expect == "violates" && kind == "simulation") {
      const std::string why = "|z| > N_sim, |f(x) - f(z)| > epsilon or attention distance > delta (re-established)";
      if (verdict() != "REFUTED") return problem(path, why);
      return agreed(path + ": " + why + ", z the construction's; not taken as a counterexample (docs/kernel.md)");
    }
    if (expect && *expect == "violates")
      return claim_fails(path, "|f(x) - f(z)| > L max_h |w_h(x) - w_h(z)|_1 (re-established)");
    const auto position = count_at(w, "position", kMaxStatisticLength);
    if (claim == "S.consistency" && kind == "string_differs" && position && threshold_ &&
        Integer(*position) >= *threshold_)
      return claim_fails(path, "finite:p != hardmax at a position >= t (re-established)");
    if (verdict() != "REFUTED") return;
    const auto T = length_at(w, "statistic");
    const auto end = window_end();
    if (claim == "T4.1.threshold" && kind == "finite_differs" && T && threshold_ && Integer(*T) >= *threshold_ &&
        (!end || Integer(*T) <= *end))
      return claim_fails(path, "finite:p != hardmax at a length the claim covers (re-established)");
    const auto a = rational_at(w, "at_least"), N = rational_at(*evidence_, "N");
    if (claim == "T4.1.lg" && kind == "pair_distance" && a && N && T && ctx_.epsilon && Rational(*T) > *N &&
        *a > 3 * *ctx_.epsilon)
      return claim_fails(path, cat("D_inf >= ", *a, " > 3 eps at length ", *T, " > N (re-established)"));
  }

  // --- witnesses -------------------------------------------------------------
  /// The kind of a holding verdict follows from its scope (docs/reliability.md, "What a verdict means"):
  /// VACUOUS with a reason, else SAMPLED with samples or a binding cap, else PROVED.
  /// Evidence fields no check reads: the search's own measurements over inputs the kernel does not all draw, listed
  /// as not re-established when recorded.
  void list_measurements(const std::string& claim) {
    static const std::map<std::string, std::vector<const char*>> unread = {
        {"D5.4.kgram", {"worst_error"}}, {"L5.conv", {"worst_ratio"}}, {"L5.lip", {"worst_ratio"}},
        {"S.consistency", {"strings"}}};
    if (const auto it = unread.find(claim); it != unread.end())
      for (const char* key : it->second)
        if (field(key)) unchecked(cat("evidence.", key, ": a measurement of the search's run (not re-established)"));
  }

  /// scope.samples of a holding record, which decides SAMPLED against PROVED, from what the claim always draws
  /// (docs/reliability.md "How each claim fills its scope"): L4.L 500 random pairs of two comparisons per model,
  /// S.consistency check.random_inputs (20) strings when t <= 4096; the count of recorded tests or rows for
  /// L5.3.subsample and T5.2.sim; for L5.conv, L5.lip and D5.4.kgram the recorded total (positions, pairs, inputs)
  /// less scope.exhaustive. Nullopt for the other claims.
  std::optional<std::uint64_t> expected_samples(const std::string& claim) {
    auto count = [&](const char* key) -> std::optional<std::uint64_t> {
      const json* v = field(key);
      if (v && v->is_array()) return v->size();
      return v && v->is_number_unsigned() ? std::optional<std::uint64_t>(v->get<std::uint64_t>()) : std::nullopt;
    };
    if (claim == "L4.L") return 1000 * case_.models.size();
    if (claim == "S.consistency")
      return threshold_ && *threshold_ <= 4096 ? case_.check_count("random_inputs", 20) : 0;
    if (claim == "L5.3.subsample") return count("tests");
    if (claim == "T5.2.sim") return count("rows");
    const char* total = claim == "L5.conv" ? "positions" : claim == "L5.lip" ? "pairs"
                        : claim == "D5.4.kgram"                            ? "inputs"
                                                                           : nullptr;
    const json* exhaustive = scope("exhaustive").value;
    const auto all = total ? count(total) : std::nullopt;
    if (!all || !exhaustive || !exhaustive->is_number_unsigned() || *all < exhaustive->get<std::uint64_t>())
      return std::nullopt;
    return *all - exhaustive->get<std::uint64_t>();
  }

  void check_samples(const std::string& claim) {
    if (!holding()) return;
    if (claim == "T4.2.avg" && verdict() == "PROVED")  // the theorem concludes for every T >= N₀
      return problem("verdict", "PROVED, but T4.2.avg's conclusion lengths stop at N0 * 2^d (always SAMPLED)");
    const auto want = expected_samples(claim);
    const json* samples = scope("samples").value;
    if (!want || !samples || !samples->is_number_unsigned()) return;
    if (samples->get<std::uint64_t>() != *want)
      return problem("scope.samples", cat("recorded ", samples->get<std::uint64_t>(), ", the claim draws ", *want));
    agreed("scope.samples");
  }

  /// scope.seed and evidence.seed: the seed a claim draws its random instances from is the case's check.seed
  /// (default 1), whatever the record says. A claim that draws with it records that seed, or null when it drew
  /// nothing (scope.samples 0: an early decision, S.consistency without random strings); the others record null.
  void check_seeds(const std::string& claim) {
    static const std::set<std::string> seeded = {"T4.1.sim", "L4.L",     "T4.1.threshold", "L5.lip",     "L5.conv",
                                                 "T5.2.sim", "S.consistency", "L5.3.subsample", "D5.4.kgram"};
    const json* samples = scope("samples").value;
    const bool drew = samples && samples->is_number_unsigned() && *samples != 0;
    const std::uint64_t seed = case_.check_count("seed", 1);
    for (const Recorded& r : {scope("seed"), ev("seed")}) {
      const bool null = !r.value || r.value->is_null();
      if (r.path == "evidence.seed" && !r.value) continue;  // recorded by four Section 4 claims only
      if (!seeded.count(claim) && !null)
        problem(r.path, cat("recorded ", shown(r.value), ", but ", claim, " draws nothing with it"));
      else if (seeded.count(claim) && (null ? drew : *r.value != seed))
        problem(r.path, cat("recorded ", shown(r.value), ", the case's seed is ", seed,
                            null ? " (and scope.samples says instances were drawn)" : ""));
      else
        agreed(r.path);
    }
  }

  /// Only these claims have a case where nothing could fail, each decided by its own check (docs/reliability.md).
  static bool may_be_vacuous(const std::string& claim) {
    static const std::set<std::string> claims = {"S.consistency", "T4.1.threshold", "T4.1.lg",   "T4.2.avg",
                                                 "L5.3.subsample", "T5.2.sim",      "D5.4.kgram"};
    return claims.count(claim) > 0;
  }

  void check_verdict_kind(const std::string& claim) {
    const std::string v = verdict();
    if (v != "PROVED" && v != "SAMPLED" && v != "VACUOUS")
      return unchecked("verdict " + v + " (not a holding verdict)");
    if (v == "VACUOUS" && !may_be_vacuous(claim)) return problem("verdict", "VACUOUS, which " + claim + " never is");
    const json *vacuous = scope("vacuous").value, *samples = scope("samples").value, *caps = scope("caps").value;
    if (!samples || !samples->is_number_unsigned()) return problem("scope.samples", "missing or not a count");
    if (!caps || !caps->is_array()) return problem("scope.caps", "missing or not an array");
    bool binding = false;
    for (const json& c : *caps) {
      const json* b = member(c, "binding");
      if (!b || !b->is_boolean()) return problem("scope.caps", "a cap without a boolean \"binding\"");
      binding = binding || b->get<bool>();
    }
    const bool has_reason = vacuous && vacuous->is_string() && !vacuous->get_ref<const std::string&>().empty();
    const bool sampled = samples->get<std::uint64_t>() > 0 || binding;
    const std::string kind = has_reason ? "VACUOUS" : sampled ? "SAMPLED" : "PROVED";
    if (kind != v) return problem("verdict", cat("recorded ", v, ", the scope implies ", kind));
    agreed("verdict kind " + v + " from the scope");
  }

  void check_witnesses(const std::string& claim) {
    const json* ws = field("witnesses");
    if (!ws) return;
    if (!ws->is_array()) return problem("evidence.witnesses", "expected an array, got " + show(*ws));
    if (ws->size() > kMaxWitnesses)
      return problem("evidence.witnesses", "more than " + std::to_string(kMaxWitnesses) + " witnesses");
    std::vector<std::pair<std::uint64_t, std::size_t>> order;  // shortest first, then by index
    for (std::size_t i = 0; i < ws->size(); ++i) order.emplace_back(expansion_size((*ws)[i]), i);
    std::sort(order.begin(), order.end());
    std::vector<std::size_t> beyond;  // left by the budget: a sample of them is checked after the others
    for (const auto& [size, i] : order)
      if (!check_one_witness(claim, (*ws)[i], i, false)) beyond.push_back(i);
    if (beyond.empty()) return;
    // kLongSamples of them, drawn without replacement from kSampleSeed (a partial Fisher-Yates shuffle), within a
    // budget of their own: the longest witnesses are sampled, not skipped.
    std::mt19937_64 rng(kSampleSeed);
    const std::size_t k = std::min(kLongSamples, beyond.size());
    for (std::size_t j = 0; j < k; ++j) std::swap(beyond[j], beyond[j + rng() % (beyond.size() - j)]);
    ctx_.positions_left = kLongSampleBudget;
    for (std::size_t j = 0; j < k; ++j) check_one_witness(claim, (*ws)[beyond[j]], beyond[j], true);
    unchecked(cat(beyond.size() - k, " witnesses beyond the budget of ", kExpansionBudget, " expanded positions (",
                  k, " more drawn by the kernel's seed, each checked if it fits ", kLongSampleBudget, " more)"));
  }

  /// Checks witness i and reports it; false (nothing reported) when the budget left it and `last` is false.
  bool check_one_witness(const std::string& claim, const json& w, std::size_t i, bool last) {
    const std::string path = "evidence.witnesses[" + std::to_string(i) + "]";
    const json* k = member(w, "kind");
    const std::string kind = k && k->is_string() ? k->get<std::string>() : "?";
    if (!check_witness_fields(claim, kind, w, path)) return true;
    WitnessResult r = check_witness(w, ctx_);
    if (r.constructed) constructed_.insert(i);
    if (r.over_budget && !last) return false;
    const std::string name =
        "witness " + std::to_string(i) + " (" + kind + ")" + (last ? ", drawn beyond the budget" : "");
    if (r.status == WitnessStatus::Reestablished) {
      ++report_.witnesses_checked, reestablished_.insert(i), agreed(name);
      witness_against_claim(claim, kind, w, path);
    } else if (r.status == WitnessStatus::Rejected) ++report_.witnesses_checked, problem(path, r.why);
    else unchecked(name + ": " + r.why);
    return true;
  }

  /// Claim-specific requirements on a witness beyond its own property.
  bool check_witness_fields(const std::string& claim, const std::string& kind, const json& w, const std::string& path) {
    if (!w.is_object()) return true;  // check_witness reports it
    // The search records a violation only beside REFUTED: under a holding verdict it contradicts the record, whether
    // or not the witness is within the expansion budget (an audit's forgery hid one beyond it).
    if (holding() && member(w, "expect") && *member(w, "expect") == "violates")
      return problem(path + ".expect", cat("\"violates\" beside a ", verdict(), " verdict")), false;
    std::string why;
    if (claim == "L4.L" && w.contains("L")) {  // the recorded L is never used; it must be the kernel's
      auto m = w.contains("model") ? count_at(w, "model", case_.models.size() - 1) : std::optional<std::uint64_t>(0);
      auto L = read_rational(w["L"], why);
      const auto& mine = m ? ctx_.L[*m] : std::optional<Rational>();
      if (!L || !mine || *L != *mine)
        return problem(path + ".L", cat("recorded ", show(w["L"]), ", recomputed ", mine ? piece(*mine) : "undefined")),
               false;
    }
    if (claim == "T4.1.witness" && kind == "pair_distance") {
      auto a = rational_at(w, "at_least");
      if (a && ctx_.epsilon && *a < *ctx_.epsilon)
        return problem(path + ".at_least", "below eta = " + to_string(*ctx_.epsilon)), false;
      auto T = length_at(w, "statistic");
      if (T && *T > witness_length())
        return problem(path + ".statistic.length", cat("longer than the witness length ", witness_length())), false;
      const std::uint64_t n = case_.check_count("witness_n", 0);
      if (T && *T <= n && holding())
        return problem(path + ".statistic.length", cat("a gap at length ", *T, " <= n = ", n, " contradicts D_n = 0")),
               false;
    }
    if (claim == "T5.2.witness" && kind == "pair_distance") {  // holding: the gap at M; REFUTED: a difference <= n
      const json* e = member(w, "expect");
      auto a = rational_at(w, "at_least");
      auto T = length_at(w, "statistic");
      const std::uint64_t n = case_.check_count("witness_n", 0), M = witness_length();
      const bool refuted = verdict() == "REFUTED";
      if (!e || *e != "holds" || !a || !T) return problem(path, "expected a gap that holds, with at_least"), false;
      if (refuted && (*a <= witness52_tolerance() || *T > n))
        return problem(path, "a refutation needs |f - g| >= at_least > 2^-64 at a length <= n"), false;
      if (!refuted && ctx_.epsilon && *a < *ctx_.epsilon)
        return problem(path + ".at_least", "below eta = " + to_string(*ctx_.epsilon)), false;
      if (!refuted && *T != M) return problem(path + ".statistic.length", cat("not the witness length ", M)), false;
    }
    if (claim == "T4.1.lg" && kind == "pair_distance") {  // D(reached) is the curve's maximum; D(N) <= ε if holding
      const auto a = rational_at(w, "at_least"), N = rational_at(*evidence_, "N");
      const json* lower = field("D_inf_lower");
      const auto most = lower ? recorded_upper(*lower) : std::nullopt;
      auto T = length_at(w, "statistic");
      if (a && most && *a > *most)
        return problem(path + ".at_least", "above evidence.D_inf_lower = " + show(*lower) + ", the curve's maximum"),
               false;
      const bool proved = holding() && verdict() != "VACUOUS";
      if (proved && a && N && T && ctx_.epsilon && Rational(*T) <= *N && *a > *ctx_.epsilon)
        return problem(path, cat("a gap above eps at length ", *T, " <= N contradicts the antecedent under ",
                                 verdict())),
               false;
    }
    if (claim == "T4.1.threshold" && kind == "finite_differs") {
      auto T = length_at(w, "statistic");
      const auto end = window_end();
      const bool in_claim = T && Integer(*T) >= ctx_.threshold.front() && (!end || Integer(*T) <= *end);
      if (in_claim && verdict() != "REFUTED")
        return problem(path, "a difference at a length the claim covers contradicts the verdict " + verdict()), false;
    }
    return true;
  }
};

}  // namespace

CertificateReport check_certificate(const json& certificate) { return Checker(certificate).run(); }

}  // namespace lgc::kernel
