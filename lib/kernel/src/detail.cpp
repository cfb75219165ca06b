// check_holding_detail: each claim's holding sentence, restated from docs/kernel.md "Details".
#include "lgcheck/kernel/detail.hpp"

#include "lgcheck/kernel/json_read.hpp"
#include "lgcheck/model/input.hpp"
#include "lgcheck/numeric/interval.hpp"

#include <cctype>
#include <functional>
#include <map>
#include <string_view>
#include <vector>

namespace lgc::kernel {
namespace {

using nlohmann::json;

/// Free slots of a sentence: a number, a parenthesised tuple, a value (a number, an enclosure "[lo, hi]" or a long
/// fraction "~0.25 (40-digit fraction)"). A field the record lacks is kMissing, which no detail contains.
constexpr char kNumber = '\x01', kTuple = '\x02', kValue = '\x03';
const std::string NUM(1, kNumber), TUP(1, kTuple), VALUE(1, kValue), kMissing(1, '\x04');

std::size_t digits_at(std::string_view s, std::size_t i) {
  std::size_t n = 0;
  while (i + n < s.size() && std::isdigit(static_cast<unsigned char>(s[i + n]))) ++n;
  return n;
}

/// The length of the number at the start of s ("-3", "49/55", "0.1695", "1.3e+09"); 0 when none.
std::size_t number_length(std::string_view s) {
  std::size_t i = !s.empty() && s[0] == '-' ? 1 : 0;
  const std::size_t lead = digits_at(s, i);
  if (lead == 0) return 0;
  i += lead;
  while (i + 1 < s.size() && (s[i] == '.' || s[i] == '/') && digits_at(s, i + 1) > 0) i += 1 + digits_at(s, i + 1);
  if (i < s.size() && s[i] == 'e') {
    const std::size_t j = i + 1 + (i + 1 < s.size() && (s[i + 1] == '+' || s[i + 1] == '-'));
    if (const std::size_t e = digits_at(s, j)) i = j + e;
  }
  return i;
}

/// The length of a literal `word` at the start of s, else 0.
std::size_t literal_length(std::string_view s, std::string_view word) { return s.starts_with(word) ? word.size() : 0; }

/// The length of the value at the start of s (kValue); 0 when none.
std::size_t value_length(std::string_view s) {
  if (s.starts_with('[')) {
    const std::size_t lo = number_length(s.substr(1)), comma = lo ? literal_length(s.substr(1 + lo), ", ") : 0;
    const std::size_t hi = comma ? number_length(s.substr(1 + lo + comma)) : 0;
    return hi && literal_length(s.substr(1 + lo + comma + hi), "]") ? lo + comma + hi + 2 : 0;
  }
  if (s.starts_with('~')) {
    const std::size_t d = number_length(s.substr(1)), open = d ? literal_length(s.substr(1 + d), " (") : 0;
    const std::size_t n = open ? digits_at(s, 1 + d + open) : 0;
    return n && literal_length(s.substr(1 + d + open + n), "-digit fraction)") ? 1 + d + open + n + 16 : 0;
  }
  return number_length(s);
}

/// Does s read p, each free slot standing for one number, tuple or value? (Each slot's extent is fixed by its form.)
bool matches(std::string_view p, std::string_view s) {
  for (const char c : p) {
    std::size_t take = 1;
    if (c == kNumber)
      take = number_length(s);
    else if (c == kValue)
      take = value_length(s);
    else if (c == kTuple)
      take = s.starts_with('(') ? s.find(')') + 1 : 0;  // npos + 1 = 0
    else if (s.empty() || s.front() != c)
      take = 0;
    if (take == 0) return false;
    s.remove_prefix(take);
  }
  return s.empty();
}

std::size_t slots(const std::string& p) {
  std::size_t n = 0;
  for (char c : p) n += c == kNumber || c == kTuple || c == kValue;
  return n;
}

std::string shown(const std::string& p) {
  std::string out;
  for (char c : p)
    out += c == kNumber       ? "#"
           : c == kTuple      ? "(#)"
           : c == kValue      ? "<value>"
           : c == kMissing[0] ? "<missing>"
                              : std::string(1, c);
  return out;
}

/// The numbers of a text, in order.
std::vector<std::string> numbers_in(std::string_view s) {
  std::vector<std::string> out;
  for (std::size_t i = 0; i < s.size();) {
    const bool starts = i == 0 || !(std::isalnum(static_cast<unsigned char>(s[i - 1])) || s[i - 1] == '^');
    const std::size_t n = starts ? number_length(s.substr(i)) : 0;
    if (n > 0) out.emplace_back(s.substr(i, n));
    i += n > 0 ? n : 1;
  }
  return out;
}

/// A JSON value as the search prints it: a string as is, an integer in decimal; anything else kMissing.
std::string text(const json* v) {
  if (!v) return kMissing;
  if (v->is_string()) return v->get<std::string>();
  if (v->is_number_integer()) return v->dump();
  return kMissing;
}

std::optional<Rational> rational(const json* v) {
  std::string why;
  return v ? read_rational(*v, why) : std::nullopt;
}

/// A rational written in full when at most 24 characters, else a value slot (the search abbreviates it).
std::string short_exact(const json* v) {
  const std::string t = text(v);
  return rational(v) && t.size() <= 24 ? t : VALUE;
}

/// An integer in full up to 20 digits, else "1.2346e+45 (46 digits)".
std::string readable_integer(const json* v) {
  const std::string t = text(v);
  const auto q = rational(v);
  if (!q || t.size() <= 20) return t;
  return to_decimal(*q, 5) + " (" + std::to_string(t.size()) + " digits)";
}

std::string decimal_of(const json* v, int digits) {
  const auto q = rational(v);
  return q ? to_decimal(*q, digits) : kMissing;
}

/// One certificate's fields, read without trusting their presence.
class Record {
 public:
  Record(const json& cert, const Model& model)
      : cert_(cert), model_(model), evidence_(member(cert, "evidence")), scope_(member(cert, "scope")) {}
  const json* evj(const char* key) const { return evidence_ ? member(*evidence_, key) : nullptr; }
  std::string ev(const char* key) const { return text(evj(key)); }
  std::string ev(const char* key, const char* sub) const {
    const json* o = evj(key);
    return text(o ? member(*o, sub) : nullptr);
  }
  std::string sc(const char* key) const { return text(scope_ ? member(*scope_, key) : nullptr); }
  bool has(const char* key) const { return evj(key) != nullptr; }
  bool vacuous() const { return text(member(cert_, "verdict")) == "VACUOUS"; }
  /// scope.domain, "" when absent or empty.
  std::string domain() const {
    const std::string d = sc("domain");
    return d == kMissing ? "" : d;
  }
  /// The first word of scope.slack ("0.5 (largest …)" → "0.5").
  std::string slack_head() const {
    const std::string s = sc("slack");
    return s == kMissing ? s : s.substr(0, s.find(' '));
  }
  /// The case's check value `key` as a normalised rational, `fallback` when absent.
  std::string check_rational(const char* key, const char* fallback) const {
    const json* c = member(cert_, "case");
    const json* check = c ? member(*c, "check") : nullptr;
    const json* v = check ? member(*check, key) : nullptr;
    if (!v) return fallback;
    const auto q = rational(v);
    return q ? to_string(*q) : kMissing;
  }
  /// evidence.key[i] for an array (i < 0 counts from the end).
  const json* element(const char* key, long i) const {
    const json* a = evj(key);
    if (!a || !a->is_array() || a->empty()) return nullptr;
    const long n = static_cast<long>(a->size());
    return i >= -n && i < n ? &(*a)[static_cast<std::size_t>(i < 0 ? n + i : i)] : nullptr;
  }

  /// A recorded statistic as the search describes it: T=29 window="1" bulk{0@0:28} (token@residue:count).
  std::string statistic(const json* st) const {
    const auto count = [](const json* v) -> std::optional<std::uint64_t> {
      std::string why;
      return v && v->is_number_integer() ? read_count(*v, UINT64_MAX, why) : std::nullopt;
    };
    const auto length = count(st ? member(*st, "length") : nullptr);
    const json* window = st ? member(*st, "window") : nullptr;
    const json* counts = st ? member(*st, "counts") : nullptr;
    const std::size_t S = model_.alphabet_size(), period = model_.period;
    if (!length || !window || !window->is_array() || !counts || !counts->is_array() || counts->size() != S * period)
      return kMissing;
    Tokens tokens;
    for (const json& t : *window) {
      const auto token = count(&t);
      if (!token || *token >= S) return kMissing;
      tokens.push_back(static_cast<int>(*token));
    }
    std::string bulk;
    for (std::size_t k = 0; k < counts->size(); ++k) {
      const auto c = count(&(*counts)[k]);
      if (!c) return kMissing;
      if (*c > 0)
        bulk += (bulk.empty() ? "" : " ") + model_.alphabet[k / period] + "@" + std::to_string(k % period) + ":" +
                std::to_string(*c);
    }
    return "T=" + std::to_string(*length) + " window=\"" + format_input(model_, tokens) + "\" bulk{" + bulk + "}";
  }

 private:
  const json& cert_;
  const Model& model_;
  const json* evidence_;
  const json* scope_;
};

using Sentences = std::vector<std::string>;

/// Every concatenation of one choice per part.
Sentences combine(const std::vector<Sentences>& parts) {
  Sentences out{""};
  for (const auto& part : parts) {
    Sentences next;
    for (const auto& head : out)
      for (const auto& tail : part) next.push_back(head + tail);
    out = std::move(next);
  }
  return out;
}

std::string plus(const std::string& integer, long add) {
  const json value = integer;
  const auto q = rational(&value);
  return q && denominator(*q) == 1 ? to_string(Rational(*q + add)) : kMissing;
}

Sentences norm(const Record& r) {
  const auto d = numbers_in(r.domain());  // length, enumerated, total, groups covered, groups
  if (d.size() != 5) return {kMissing};
  return {"|f(x) - f(z)| <= L * max_h |w_h(x) - w_h(z)|_1 with L = " + r.ev("L") + " on " + r.ev("pairs") + " pairs (" +
          d[1] + " of the " + d[2] + " pairs of statistics up to length " + d[0] + " per window and residue, in " +
          d[3] + " of " + d[4] + " groups; " + r.sc("samples") + " long random pairs); largest ratio " +
          r.slack_head()};
}

Sentences simulation(const Record& r) {
  const std::string domain = r.domain();
  return {"error <= " + r.ev("epsilon") + ", attention distance <= delta and |z| <= N_sim = " + r.ev("N_sim_claimed") +
          " on " + r.ev("checked") + " inputs (" +
          (domain.empty() ? "no length from " + NUM + " within the statistic budget" : domain) + ", " + NUM +
          " constructed for the error lemma, " + NUM + " random up to T = " + NUM + "); longest z " +
          r.ev("longest_z") + ", worst attention distance " + r.ev("worst_attention_distance") +
          " (delta = " + r.ev("delta") + ")"};
}

Sentences implication(const Record& r) {
  const std::string upper = r.ev("D_inf_upper");
  std::string upper_text = upper;
  if (const auto q = rational(r.evj("D_inf_upper")); q && upper.size() > 24)
    upper_text = Interval(*q, 256).upper_decimal(12) + " (rounded up)";
  const std::string bracket = "D(" + r.ev("reached") + ") = " + r.ev("D_inf_lower") + " <= D_inf <= " + upper_text +
                              " (" + r.ev("upper_source") + ")";
  const auto N = rational(r.evj("N")), reached = rational(r.evj("reached"));
  const bool within = N && reached && *N < *reached;
  if (r.vacuous())
    return {"antecedent false: D(" + (within ? r.ev("N") : r.ev("reached")) +
            ") >= " + (within ? VALUE : r.ev("D_inf_lower")) + " > eps = " + r.ev("epsilon") +
            " (N = N_sim = " + r.ev("N") + "); " + bracket};
  return {"D(N) <= eps = " + r.ev("epsilon") + " and D_inf <= 3 * eps: " + bracket};
}

Sentences witness41(const Record& r) {
  const json* w = r.element("witnesses", 0);
  const json* s = w ? member(*w, "statistic") : nullptr;
  const auto eta = rational(r.evj("eta"));
  return {"f = g on every input of length <= " + r.ev("n") + " (D(" + r.ev("n") +
          ") = 0 exactly) and |f - g| = " + VALUE + " >= eta = " + r.ev("eta") + " at length " +
          text(s ? member(*s, "length") : nullptr) + " <= " + r.ev("differ_by") +
          ": any valid N(eps) for eps < eta/3 = " + (eta ? to_string(*eta / 3) : kMissing) + " is at least " +
          plus(r.ev("n"), 1)};
}

Sentences witness52(const Record& r) {
  const auto eta = rational(r.evj("eta"));
  const json* w = r.element("witnesses", 0);
  return {"|f - g| <= 2^-64 on every input of length <= " + r.ev("n") + " (" + r.sc("exhaustive") +
          " statistics) and |f - g| = " + r.ev("D_differ") + " >= eta = " + r.ev("eta") + " at length " +
          r.ev("differ_by") + " (" + r.statistic(w ? member(*w, "statistic") : nullptr) +
          "): any valid N(eps) of Theorem 5.2 for 2^-64 <= eps < eta/3 = " + (eta ? to_string(*eta / 3) : kMissing) +
          " is at least " + plus(r.ev("n"), 1) + " (positional margin " + r.ev("positional_margin") + ")"};
}

Sentences consistency(const Record& r) {
  const auto t = rational(r.evj("threshold")), n = rational(r.evj("max_length"));
  const std::string from = t && n ? to_string(std::max(*t, Rational(*n + 1))) : kMissing;
  const std::string random = r.ev("random_inputs") == "0"
                                 ? ""
                                 : ", " + r.ev("random_inputs") + " random strings of length " + from + ".." + NUM +
                                       " (seed " + r.ev("seed") + ")";
  return {"finite:" + r.ev("p") + " = hardmax at all " + r.ev("positions") +
          " query positions i >= " + r.ev("threshold") + " (gamma=" + r.ev("gamma") + "): " +
          (r.has("visited") ? "every string of length <= " + r.ev("max_length")
                            : "no string of length <= " + r.ev("max_length") + " reaches the threshold") +
          random};
}

/// T4.1.threshold: "at <statistic>: <semantics> gives (…), hardmax gives (…)" for a recorded finding.
std::string finding(const Record& r, const char* key, const std::string& sem) {
  return "at " + r.ev(key, "statistic") + ": " + sem + " gives " + TUP + ", hardmax gives " + TUP;
}

Sentences threshold(const Record& r) {
  const bool window = r.has("window_end");
  const std::string sem = window ? r.ev("semantics") : "finite:" + r.ev("p");
  const auto t = rational(r.evj("threshold")), end = rational(r.evj("window_end"));
  if (window && t && end && *t > *end)
    return {"finite-weights:" + r.ev("p") + ": the window [t, 2^p - 1] = [" + r.ev("threshold") + ", " +
            r.ev("window_end") + "] is empty, nothing to compare"};
  Sentences past{""};
  if (window && end && *end >= Rational(Integer(1000000000000)))
    past = {"; past the window, T = 2^p is beyond the longest length a certificate records (10^12)"};
  else if (window && r.has("past_window"))
    past = combine(
        {{"; past the window, at T = " + r.ev("past_window", "length") + ": " + finding(r, "past_window", sem) + " ("},
         {"first in enumeration order", "found by random search"},
         {"; the reading's counterexample to agreement at every T >= t, not part of the claim)"}});
  else if (window)
    past = {"; past the window, at T = " + plus(r.ev("window_end"), 1) +
                ", no difference on any statistic (not part "
                "of the claim)",
            "; past the window, at T = " + plus(r.ev("window_end"), 1) + ", no difference among " + NUM +
                " random statistics (not part of the claim)"};
  if (r.ev("gamma") == "inf")
    return combine({{sem + " = hardmax on " + r.ev("compared") +
                     " statistics: gamma = inf, threshold 1 (nothing to round" + (window ? " in the window)" : ")")},
                    past});
  Sentences witness{"threshold 1: no length below it"};
  if (r.has("witness"))
    witness = combine({{"witness at T = " + r.ev("witness", "length") + ": " + finding(r, "witness", sem)},
                       {" (first in enumeration order)", " (found by random search)"}});
  else if (t && *t > 1)
    witness = {"not sharp on this model: every statistic of length " + to_string(*t - 1) + " = t - 1 already agrees (" +
                   (window ? "under finite-weights:p a sub-maximal weight u/sum(u) can round before t"
                           : "the margin is not realised there") +
                   "; check.threshold_sharp would make this a refutation)",
               "no difference found at T = " + to_string(*t - 1) + " = t - 1 among " + NUM +
                   " random statistics (sharpness not asked for: check.threshold_sharp)"};
  const std::string rule = "ceil(2^(p/gamma)), the least i with i^gamma >= 2^p";
  const std::string head = sem + " = hardmax on " + r.ev("compared") + " statistics with ";
  if (!window)
    return combine({{head + "T >= t = " + r.ev("threshold") + " (" + rule + "), gamma = " + r.ev("gamma") + " (" +
                     r.ev("exhaustive_lengths") + " lengths exhaustively, " + NUM +
                     " random in [t, 2t] and up to T = " + NUM + "); "},
                    witness});
  const std::string random = r.sc("samples") == "0" ? "" : ", " + r.sc("samples") + " random in the window";
  return combine({{head + "t = " + r.ev("threshold") + " <= T <= " + r.ev("window_end") + " (" + rule +
                   "; the window's end 2^p - 1: below 2^p no normalised weight of a top key reaches 2^-p), gamma = " +
                   r.ev("gamma") + " (" + r.ev("exhaustive_lengths") + " lengths exhaustively" + random + "); "},
                  witness,
                  past});
}

Sentences average(const Record& r) {
  const json* premise = r.evj("premise");
  const auto at = [&](const char* key) { return premise ? member(*premise, key) : nullptr; };
  const json* first = r.element("conclusion", 0);
  const json* last = r.element("conclusion", -1);
  if (r.vacuous())
    return {"vacuous: the premise fails, E_" + text(at("length")) + " = " + short_exact(at("E")) +
            " > eps = " + r.ev("epsilon") + " with N0 = " + r.ev("N0") + " (alpha_min = " + r.ev("alpha_min") + ")"};
  return {"max E_t over t <= N0 = " + r.ev("N0") + " is " + short_exact(at("max_E")) + " <= eps = " + r.ev("epsilon") +
          "; E_T <= " + r.ev("C") + "·eps^(1/2) at " +
          (r.ev("conclusion_lengths") == "every" ? "every" : "the doublings") +
          " T = " + text(first ? member(*first, "length") : nullptr) + ".." +
          text(last ? member(*last, "length") : nullptr) + "; the instance needs C >= " + r.ev("C_needed")};
}

Sentences regularity(const Record& r) {
  const auto K = rational(r.evj("switch_length")), tail = rational(r.evj("tail"));
  return {"E_t = 0 exactly for every t <= K = " + r.ev("switch_length") + " and E_t = eta = " + r.ev("eta") +
          " for K < t <= " + (K && tail ? to_string(*K + *tail) : kMissing) +
          ": the premise of Theorem 4.2 holds at every N0 <= K for every eps > 0, the conclusion fails once eps < "
          "(eta/C)^2, so without regularity no N0 <= K works"};
}

Sentences convergence(const Record& r) {
  const auto d = numbers_in(r.domain());  // from, length
  const std::string enumerated = d.size() == 2
                                     ? "every input of length " + d[1]
                                     : "no exhaustive domain: the exhaustive length " + NUM +
                                           " (max_length, shortened until S^n <= 4096) is below " + r.ev("from");
  return {"|Y_i - Phi(window_i, mu_i)| <= bound_i <= K i^-" + r.ev("rate") + " with K = " + decimal_of(r.evj("K"), 6) +
          " at " + r.ev("positions") + " positions i >= " + r.ev("from") + " (" + enumerated + ", " + NUM +
          " constructed a^(i-tau-1) b^(tau+1) at i = 10^2..10^9, " + NUM + " random up to T = " + NUM +
          "); closest approach " + r.slack_head() + " of the bound"};
}

Sentences lipschitz(const Record& r) {
  if (r.ev("Lip") == "0")
    return {"Lip = 0 (every first-layer head position-dominant): Phi(w, mu) = Phi(w, mu') on all " + r.ev("pairs") +
            " pairs (near-vertex and random)"};
  return {"|Phi(w, mu) - Phi(w, mu')| <= Lip |mu - mu'|_1 with Lip = " + decimal_of(r.evj("Lip"), 6) + " on " +
          r.ev("pairs") + " pairs (near-vertex and random); the largest ratio reaches " + r.slack_head() + " of Lip"};
}

Sentences kgram(const Record& r) {
  const std::string domain = r.domain();
  const auto d = numbers_in(domain);
  const std::size_t hard = r.has("visited") ? 3 : 0;  // the count of hard inputs among the domain's numbers
  const std::string exhaustive = r.has("visited") && d.size() > 1
                                     ? "every input of length " + r.ev("min_length") + ".." + d[1]
                                     : "no length >= T0 = " + r.ev("min_length") + " within the exhaustive budget";
  return {"|f(x) - f*(x)| <= eps = " + r.ev("epsilon") + " on " + r.ev("inputs") + " inputs with match fraction >= " +
          r.ev("rho") + " (" + exhaustive + ", " + (d.size() > hard ? d[hard] : kMissing) +
          " hard inputs from T0; random repetitive ones from T0 up to T = " + NUM + "); worst error " + NUM +
          "; gamma = " + r.ev("gamma") + " >= 1"};
}

Sentences subsample(const Record& r) {
  const json* tests = r.evj("tests");
  const std::string count = tests && tests->is_array() ? std::to_string(tests->size()) : kMissing;
  return combine(
      {{"on " + count + " (x, n) pairs a seed gives statistic error <= c (G+L)(tau+1) n^-" + r.ev("rate") +
        " (c = " + r.ev("c") + ", G <= " + NUM + ", L <= " + NUM + ")"},
       {"", " (every rate bound >= 2G: that part could not fail)"},
       {", and the drift form holds position by position (" + NUM + " premises below 2G); measured log-log slope " +
        r.ev("fitted_slope") + " on the long periodic input (reported, against -1/3)"}});
}

Sentences complexity(const Record& r) {
  std::size_t c_good = 0;
  const json* rows = r.evj("rows");
  if (rows && rows->is_array())
    for (const json& row : *rows) c_good += row.is_object() && row.value("c_good", json()) == json(true);
  const json* input = r.element("inputs", 0);
  const json* x = input ? member(*input, "x") : nullptr;
  const std::string length = x && x->is_string() ? std::to_string(x->get_ref<const std::string&>().size()) : kMissing;
  return combine(
      {{"|f(x) - f(z)| and |g(x) - g(z)| within the simulation-error bound on " + r.sc("samples") +
        " (x, n) checks (|x| = " + length + ") and within C(f) n^-min("},
       {"gamma,1/3,gamma2", "gamma,1/3"},
       {") on the " + std::to_string(c_good) + " with a c-good z; smallest bound " + NUM +
        "; both within eps = " + r.check_rational("epsilon", "1/10") + " first at " + r.ev("eps_reached_at") +
        " (measured) against N_variant_A = " + readable_integer(r.evj("N_variant_A")) +
        " (conditional on a c-good z at every length"},
       {"", " with |x|'s residue mod " + NUM},
       {"), N_variant_B = " + readable_integer(r.evj("N_variant_B")) + " (C = " + decimal_of(r.evj("C"), 4) + ")"}});
}

const std::map<std::string, std::function<Sentences(const Record&)>>& sentences() {
  static const std::map<std::string, std::function<Sentences(const Record&)>> all = {{"L4.L", norm},
                                                                                     {"T4.1.sim", simulation},
                                                                                     {"T4.1.lg", implication},
                                                                                     {"T4.1.witness", witness41},
                                                                                     {"T5.2.witness", witness52},
                                                                                     {"S.consistency", consistency},
                                                                                     {"T4.1.threshold", threshold},
                                                                                     {"T4.2.avg", average},
                                                                                     {"C4.2.regularity", regularity},
                                                                                     {"L5.conv", convergence},
                                                                                     {"L5.lip", lipschitz},
                                                                                     {"D5.4.kgram", kgram},
                                                                                     {"L5.3.subsample", subsample},
                                                                                     {"T5.2.sim", complexity}};
  return all;
}

}  // namespace

std::optional<DetailCheck> check_holding_detail(const json& certificate, const Model& model) {
  const json* claim = member(certificate, "claim");
  const json* detail = member(certificate, "detail");
  const auto known = claim && claim->is_string() ? sentences().find(claim->get<std::string>()) : sentences().end();
  if (known == sentences().end()) return std::nullopt;
  const Sentences allowed = known->second(Record(certificate, model));
  DetailCheck out;
  out.expected = shown(allowed.front());
  if (!detail || !detail->is_string()) return out;
  for (const std::string& p : allowed)
    if (matches(p, detail->get_ref<const std::string&>())) {
      out.matches = true;
      out.expected = shown(p);
      out.free_slots = slots(p);
      break;
    }
  return out;
}

}  // namespace lgc::kernel
