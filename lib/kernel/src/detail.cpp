// check_holding_detail: each claim's holding sentence, restated from docs/kernel.md "Details".
#include "lgcheck/kernel/detail.hpp"

#include "lgcheck/kernel/construction.hpp"
#include "lgcheck/kernel/enumeration.hpp"
#include "lgcheck/kernel/json_read.hpp"
#include "lgcheck/kernel/section5.hpp"
#include "lgcheck/kernel/witness.hpp"
#include "lgcheck/model/input.hpp"
#include "lgcheck/numeric/interval.hpp"

#include <algorithm>
#include <cctype>
#include <functional>
#include <map>
#include <numeric>
#include <string_view>
#include <vector>

namespace lgc::kernel {
namespace {

using nlohmann::json;

/// Free slots of a sentence: a number, a parenthesised tuple, a value (a number, an enclosure "[lo, hi]", a long
/// fraction "~0.25 (40-digit fraction)" or a long integer "1e+30 (31 digits)"), a statistic as the search describes
/// it (T=5 window="01" bulk{0@0:3}), a quoted input ("0110") and a text (any non-empty run of characters: the rest
/// of the sentence decides where it ends; token names may hold '"' or '}', so a statistic's window and bulk and a
/// quoted input are texts too). A field the record lacks is kMissing, which no detail contains.
constexpr char kNumber = '\x01', kTuple = '\x02', kValue = '\x03', kStatistic = '\x05', kQuoted = '\x06',
               kText = '\x07', kAnyText = '\x08';
const std::string NUM(1, kNumber), TUP(1, kTuple), VALUE(1, kValue), STAT(1, kStatistic), QUOTED(1, kQuoted),
    TEXT(1, kText), kMissing(1, '\x04');
/// A statistic and a quoted input as sentences of their own, kAnyText a possibly empty text.
const std::string kStatisticForm = "T=" + NUM + " window=\"" + std::string(1, kAnyText) + "\" bulk{" +
                                   std::string(1, kAnyText) + "}",
                  kQuotedForm = "\"" + std::string(1, kAnyText) + "\"";

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
  const std::size_t d = number_length(s), open = d ? literal_length(s.substr(d), " (") : 0;
  const std::size_t n = open ? digits_at(s, d + open) : 0;
  if (n && literal_length(s.substr(d + open + n), " digits)")) return d + open + n + 8;  // "1e+30 (31 digits)"
  return d;
}

/// The length of the tuple at the start of s: "(" values separated by ", " ")"; 0 when none.
std::size_t tuple_length(std::string_view s) {
  if (!s.starts_with('(')) return 0;
  for (std::size_t i = 1;;) {
    const std::size_t v = value_length(s.substr(i));
    if (v == 0) return 0;
    i += v;
    if (literal_length(s.substr(i), ")")) return i + 1;
    if (!literal_length(s.substr(i), ", ")) return 0;
    i += 2;
  }
}

bool is_slot(char c) {
  return c == kNumber || c == kTuple || c == kValue || c == kStatistic || c == kQuoted || c == kText || c == kAnyText;
}

/// Does s read p, each free slot standing for one number, tuple or value (its extent fixed by its form), one
/// statistic or quoted input (their forms above), or one text (any extent the rest of p allows)?
bool matches(std::string_view p, std::string_view s) {
  for (std::size_t k = 0; k < p.size(); ++k) {
    const char c = p[k];
    if (c == kStatistic || c == kQuoted)
      return matches((c == kStatistic ? kStatisticForm : kQuotedForm) + std::string(p.substr(k + 1)), s);
    if (c == kText || c == kAnyText) {  // a literal after the text: only the places where it starts are tried
      const char next = k + 1 < p.size() ? p[k + 1] : '\0';
      const bool literal = next != '\0' && !is_slot(next);
      for (std::size_t take = c == kText ? 1 : 0; take <= s.size(); ++take)
        if ((!literal || (take < s.size() && s[take] == next)) && matches(p.substr(k + 1), s.substr(take)))
          return true;
      return false;
    }
    std::size_t take = 1;
    if (c == kNumber)
      take = number_length(s);
    else if (c == kValue)
      take = value_length(s);
    else if (c == kTuple)
      take = tuple_length(s);
    else if (s.empty() || s.front() != c)
      take = 0;
    if (take == 0) return false;
    s.remove_prefix(take);
  }
  return s.empty();
}

std::size_t slots(const std::string& p) {
  return static_cast<std::size_t>(std::count_if(p.begin(), p.end(), is_slot));
}

std::string shown(const std::string& p) {
  std::string out;
  for (char c : p)
    out += c == kNumber       ? "#"
           : c == kTuple      ? "(#)"
           : c == kValue      ? "<value>"
           : c == kStatistic  ? "<statistic>"
           : c == kQuoted     ? "\"<input>\""
           : c == kText       ? "…"
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

/// The decimal digits of |n|.
std::size_t digit_count(const Integer& n) { return to_string(n).size() - (n < 0 ? 1 : 0); }

/// An integer in full up to 20 digits, else "1.2346e+45 (46 digits)".
std::string readable_integer(const Integer& n) {
  const std::size_t digits = digit_count(n);
  return digits <= 20 ? to_string(n) : to_decimal(Rational(n), 5) + " (" + std::to_string(digits) + " digits)";
}

/// A rational as the search abbreviates it: integers as above, a fraction in full up to 24 characters, else
/// "~0.123456789012 (40-digit fraction)"; a recorded enclosure (not a rational) is a value slot.
std::string readable(const json* v) {
  const auto q = rational(v);
  if (!q) return v && v->is_string() ? VALUE : kMissing;
  if (denominator(*q) == 1) return readable_integer(numerator(*q));
  if (const std::string exact = to_string(*q); exact.size() <= 24) return exact;
  const std::size_t digits = std::max(digit_count(numerator(*q)), digit_count(denominator(*q)));
  return "~" + to_decimal(*q, 12) + " (" + std::to_string(digits) + "-digit fraction)";
}

std::string readable_integer(const json* v) {
  const auto q = rational(v);
  return q && denominator(*q) == 1 ? readable_integer(numerator(*q)) : kMissing;
}

std::string decimal_of(const json* v, int digits) {
  const auto q = rational(v);
  return q ? to_decimal(*q, digits) : kMissing;
}

/// One certificate's fields, read without trusting their presence.
class Record {
 public:
  Record(const json& cert, const Case& c, const DetailFacts& facts)
      : cert_(cert), case_(c), facts_(facts), model_(c.model()), evidence_(member(cert, "evidence")),
        scope_(member(cert, "scope")) {}
  const Case& parsed() const { return case_; }
  const DetailFacts& facts() const { return facts_; }
  const json* evj(const char* key) const { return evidence_ ? member(*evidence_, key) : nullptr; }
  std::string ev(const char* key) const { return text(evj(key)); }
  std::string ev(const char* key, const char* sub) const {
    const json* o = evj(key);
    return text(o ? member(*o, sub) : nullptr);
  }
  std::string sc(const char* key) const { return text(scope_ ? member(*scope_, key) : nullptr); }
  bool has(const char* key) const { return evj(key) != nullptr; }
  std::string verdict() const { return text(member(cert_, "verdict")); }
  std::string detail() const { return text(member(cert_, "detail")); }
  bool vacuous() const { return verdict() == "VACUOUS"; }
  bool refuted() const { return verdict() == "REFUTED"; }
  /// scope.domain, "" when absent or empty.
  std::string domain() const {
    const std::string d = sc("domain");
    return d == kMissing ? "" : d;
  }
  /// The first word of scope.slack ("0.5 (largest …)" → "0.5").
  std::string slack_head() const {
    const std::string s = sc("slack");
    const std::string head = s.substr(0, s.find(' '));
    return number_length(head) == head.size() && !head.empty() ? head : kMissing;  // a measurement: a number only
  }
  /// evidence.key when it is a number (a measurement the kernel does not recompute), else kMissing.
  std::string number(const char* key) const {
    const std::string t = ev(key);
    return number_length(t) == t.size() && !t.empty() ? t : kMissing;
  }
  /// The case's check value `key` as a normalised rational, `fallback` when absent.
  std::string check_rational(const char* key, const std::string& fallback) const {
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
  std::string statistic(const json* st) const { return statistic(st, model_); }
  std::string statistic(const json* st, const Model& model) const {
    const auto count = [](const json* v) -> std::optional<std::uint64_t> {
      std::string why;
      return v && v->is_number_integer() ? read_count(*v, UINT64_MAX, why) : std::nullopt;
    };
    const auto length = count(st ? member(*st, "length") : nullptr);
    const json* window = st ? member(*st, "window") : nullptr;
    const json* counts = st ? member(*st, "counts") : nullptr;
    const std::size_t S = model.alphabet_size(), period = model.period;
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
        bulk += (bulk.empty() ? "" : " ") + model.alphabet[k / period] + "@" + std::to_string(k % period) + ":" +
                std::to_string(*c);
    }
    return "T=" + std::to_string(*length) + " window=\"" + format_input(model, tokens) + "\" bulk{" + bulk + "}";
  }

 private:
  const json& cert_;
  const Case& case_;
  const DetailFacts& facts_;
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
  // Per model the search compares 500 long random x with their simulation and with a random z: 1000 pairs; the
  // pairs are those and the enumerated ones.
  const Integer random = 1000 * Integer(static_cast<unsigned long>(r.parsed().models.size()));
  const json enumerated_pairs = d[1];
  const auto counted = rational(&enumerated_pairs);
  const std::string pairs = counted ? to_string(Rational(*counted + Rational(random))) : kMissing;
  return {"|f(x) - f(z)| <= L * max_h |w_h(x) - w_h(z)|_1 with L = " + r.ev("L") + " on " + pairs + " pairs (" + d[1] +
          " of the " + d[2] + " pairs of statistics up to length " + d[0] + " per window and residue, in " + d[3] +
          " of " + d[4] + " groups; " + to_string(random) + " long random pairs); largest ratio " + r.slack_head()};
}

Sentences simulation(const Record& r) {
  // The search draws 1000 random inputs, of lengths up to max(10^6, 4·start) (start: the first length checked);
  // the samples are those and the constructed inputs.
  const std::string domain = r.domain();
  const auto d = numbers_in(domain);
  const json samples_value = r.sc("samples");
  const auto samples = rational(&samples_value);
  const std::string hard = samples && *samples >= 1000 ? to_string(Rational(*samples - 1000)) : kMissing;
  // The first length checked: the domain's, else the claim's own start, the padding length t (1 without rounding).
  Integer first = -1;
  if (const json from = d.empty() ? json() : json(d[0]); !domain.empty()) {
    if (const auto q = rational(&from); q && denominator(*q) == 1) first = numerator(*q);
  } else {
    try {
      first = padding_length(r.parsed().models);
    } catch (const std::exception&) {  // no margin or threshold: the claim's other checks say why
    }
  }
  const std::string top = first > 0 ? to_string(std::max(Integer(1000000), Integer(4 * first))) : kMissing;
  const std::string start = !domain.empty() ? domain
                            : first > 0     ? "no length from " + to_string(first) + " within the statistic budget"
                                            : kMissing;
  // Every input checked is recorded as a witness (x with the z built for it; a test fixture may keep fewer): the
  // recorded count is at least their number, the longest z at least theirs.
  const json* witnesses = r.evj("witnesses");
  std::uint64_t longest = 0;
  bool readable_witnesses = witnesses && witnesses->is_array();
  for (std::size_t i = 0; readable_witnesses && i < witnesses->size(); ++i) {
    const json* z = member((*witnesses)[i], "z");
    const json* length = z ? member(*z, "length") : nullptr;
    readable_witnesses = length && length->is_number_integer() && length->get<std::int64_t>() >= 0;
    if (readable_witnesses) longest = std::max(longest, length->get<std::uint64_t>());
  }
  const json* checked_field = r.evj("checked");
  const json* longest_field = r.evj("longest_z");
  const bool consistent = readable_witnesses && checked_field && checked_field->is_number_integer() &&
                          checked_field->get<std::int64_t>() >= 0 &&
                          checked_field->get<std::uint64_t>() >= witnesses->size() && longest_field &&
                          longest_field->is_number_integer() && longest_field->get<std::int64_t>() >= 0 &&
                          longest_field->get<std::uint64_t>() >= longest;
  const std::string checked = consistent ? r.ev("checked") : kMissing;
  return {"error <= " + r.ev("epsilon") + ", attention distance <= delta and |z| <= N_sim = " + r.ev("N_sim_claimed") +
          " on " + checked + " inputs (" + start + ", " + hard +
          " constructed for the error lemma, 1000 random "
          "up to T = " +
          top + "); longest z " + (consistent ? r.ev("longest_z") : kMissing) + ", worst attention distance " +
          r.ev("worst_attention_distance") + " (delta = " + r.ev("delta") + ")"};
}

/// T4.1.lg's bracket: "D(reached) = lower <= D_inf <= upper (source)", a long upper end rounded up to 12 digits, an
/// empty source read "no certified upper bound".
std::string lg_bracket(const Record& r) {
  const std::string upper = r.ev("D_inf_upper"), source = r.ev("upper_source");
  std::string upper_text = upper;
  if (const auto q = rational(r.evj("D_inf_upper")); q && upper.size() > 24)
    upper_text = Interval(*q, 256).upper_decimal(12) + " (rounded up)";
  return "D(" + r.ev("reached") + ") = " + r.ev("D_inf_lower") + " <= D_inf <= " + upper_text + " (" +
         (source.empty() ? "no certified upper bound" : source) + ")";
}

Sentences implication(const Record& r) {
  const std::string bracket = lg_bracket(r);
  const auto N = rational(r.evj("N")), reached = rational(r.evj("reached"));
  const bool within = N && reached && *N < *reached;
  if (r.vacuous())
    return {"antecedent false: D(" + (within ? r.ev("N") : r.ev("reached")) +
            ") >= " + (within ? VALUE : r.ev("D_inf_lower")) + " > eps = " + r.ev("epsilon") +
            " (N = N_sim = " + r.ev("N") + "); " + bracket};
  return {"D(N) <= eps = " + r.ev("epsilon") + " and D_inf <= 3 * eps: " + bracket};
}

/// |f − g| at a recorded statistic by the kernel's own forward pass: in full when every output is exact (as the
/// search prints an exact value), else a value slot (an enclosure, whose printed ends the kernel does not restate);
/// kMissing when the statistic is not one of the case's.
std::string gap_at(const Record& r, const json* statistic) {
  const Case& c = r.parsed();
  if (!statistic || !c.is_pair) return kMissing;
  const auto sigma = read_statistic(*statistic, c.model());
  const Statistic* s = std::get_if<Statistic>(&sigma);
  if (!s) return kMissing;
  if (s->length > expansion_limit(c.model())) return VALUE;
  const StringGap gap = string_gap(c, expand(*s, c.model()));
  return gap.exact ? to_string(gap.d.lo) : VALUE;
}

Sentences witness41(const Record& r) {
  const json* w = r.element("witnesses", 0);
  const json* s = w ? member(*w, "statistic") : nullptr;
  const auto eta = rational(r.evj("eta"));
  return {"f = g on every input of length <= " + r.ev("n") + " (D(" + r.ev("n") +
          ") = 0 exactly) and |f - g| = " + gap_at(r, s) + " >= eta = " + r.ev("eta") + " at length " +
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
  const auto from = t && n ? std::optional<Rational>(std::max(*t, Rational(*n + 1))) : std::nullopt;
  // The search draws the random lengths in [from, from + 32).
  const std::string lengths = from ? to_string(*from) + ".." + to_string(Rational(*from + 31)) : kMissing;
  const std::string random = r.ev("random_inputs") == "0"
                                 ? ""
                                 : ", " + r.ev("random_inputs") + " random strings of length " + lengths + " (seed " +
                                       r.check_rational("seed", "1") + ")";
  return {"finite:" + r.ev("p") + " = hardmax at all " + r.ev("positions") +
          " query positions i >= " + r.ev("threshold") + " (gamma=" + r.ev("gamma") + "): " +
          (t && n && *t <= *n ? "every string of length <= " + r.ev("max_length")
                              : "no string of length <= " + r.ev("max_length") + " reaches the threshold") +
          random};
}

/// T4.1.threshold's random statistics at a length it does not enumerate (t − 1, 2^p): the claim draws 4000.
const std::string kWitnessTries = "4000";

/// T4.1.threshold enumerates a length when it has at most 200 000 statistics, else draws random ones: "first in
/// enumeration order" or "found by random search", and "on any statistic" or "among 4000 random statistics".
bool enumerated(const Record& r, const json* length) {
  const auto T = rational(length);
  return T && denominator(*T) == 1 && *T <= Rational(Integer(1) << 62) &&
         statistic_count(r.parsed().model(), numerator(*T).convert_to<std::uint64_t>()) <= 200000;
}

/// The representation at the last position of statistic s as the search prints the tuple: each exact coordinate in
/// full, an enclosure a value slot (its printed ends are not restated); a tuple slot beyond the expansion limit or
/// when the forward pass cannot decide.
std::string representation_tuple(const Model& m, const Statistic& s, Semantics semantics) {
  if (s.length > expansion_limit(m)) return TUP;
  Values v;
  try {
    v = last_representation(m, expand(s, m), semantics);
  } catch (const std::exception&) {
    return TUP;
  }
  std::string out;
  for (const Number& x : v) out += (out.empty() ? "" : ", ") + (x.is_exact() ? to_string(x.exact()) : VALUE);
  return "(" + out + ")";
}

/// T4.1.threshold: "at <statistic>: <semantics> gives (…), hardmax gives (…)" for a recorded finding, the statistic
/// that of the finite_differs witness of that length (which the kernel re-establishes), as the search describes it,
/// and the two representations the kernel's forward pass gives there (the witness's model; its own rounding
/// semantics, else finite:p with the witness's p).
std::string finding(const Record& r, const char* key, const std::string& sem) {
  const json* found = r.evj(key);
  const json* length = found ? member(*found, "length") : nullptr;
  const json* witnesses = r.evj("witnesses");
  std::string where = kMissing, rounded = kMissing, hard = kMissing;
  for (std::size_t i = 0; length && witnesses && witnesses->is_array() && i < witnesses->size(); ++i) {
    const json& w = (*witnesses)[i];
    const json* st = member(w, "statistic");
    const json* kind = member(w, "kind");
    if (!kind || *kind != "finite_differs" || !st || !member(*st, "length") || (*st)["length"] != *length) continue;
    where = r.statistic(st);
    const auto model = count_at(w, "model", r.parsed().models.size() - 1);
    const auto p = count_at(w, "p", 4096);
    if (!model || !p) continue;
    const Model& m = r.parsed().models[*model];
    const auto sigma = read_statistic(*st, m);
    const Statistic* s = std::get_if<Statistic>(&sigma);
    if (!s) continue;
    const Semantics rounding = m.semantics.rounds() ? m.semantics : Semantics::finite(static_cast<unsigned>(*p));
    rounded = representation_tuple(m, *s, rounding);
    hard = representation_tuple(m, *s, Semantics::hardmax());
  }
  return "at " + where + ": " + sem + " gives " + rounded + ", hardmax gives " + hard;
}

/// T4.1.threshold's comparisons (every model at each enumerated statistic and each random one) and its enumerated
/// lengths (those of the domain's [a, b] with at most 200 000 statistics).
std::pair<std::string, std::string> threshold_counts(const Record& r) {
  const json exhaustive = r.sc("exhaustive"), samples = r.sc("samples");
  const auto e = rational(&exhaustive), n = rational(&samples);
  const Rational models(static_cast<long>(r.parsed().models.size()));
  const std::string compared = e && n ? to_string(Rational(models * (*e + *n))) : kMissing;
  const auto d = numbers_in(r.domain());
  if (d.size() != 3) return {compared, r.ev("exhaustive_lengths")};  // no domain: nothing enumerated to count
  const json a_text = d[0], b_text = d[1];
  const auto a = rational(&a_text), b = rational(&b_text);
  if (!a || !b || *b < *a || *b - *a > 100000) return {compared, kMissing};
  std::uint64_t lengths = 0;
  for (Integer T = numerator(*a); T <= numerator(*b); ++T)
    lengths += statistic_count(r.parsed().model(), T.convert_to<std::uint64_t>()) <= 200000;
  return {compared, std::to_string(lengths)};
}

Sentences threshold(const Record& r) {
  const bool window = r.has("window_end");
  const std::string sem = window ? r.ev("semantics") : "finite:" + r.ev("p");
  const auto [compared, lengths] = threshold_counts(r);
  const auto t = rational(r.evj("threshold")), end = rational(r.evj("window_end"));
  if (window && t && end && *t > *end)
    return {"finite-weights:" + r.ev("p") + ": the window [t, 2^p - 1] = [" + r.ev("threshold") + ", " +
            r.ev("window_end") + "] is empty, nothing to compare"};
  // Which length was enumerated (else searched at random) fixes each clause's wording.
  const json below = t ? json(to_string(Rational(*t - 1))) : json(),
             after = end ? json(plus(r.ev("window_end"), 1)) : json();
  const auto order = [&](const json* length) {
    return std::string(enumerated(r, length) ? "first in enumeration order" : "found by random search");
  };
  Sentences past{""};
  if (window && end && *end >= Rational(Integer(1000000000000)))
    past = {"; past the window, T = 2^p is beyond the longest length a certificate records (10^12)"};
  else if (window && r.has("past_window"))
    past = {"; past the window, at T = " + r.ev("past_window", "length") + ": " + finding(r, "past_window", sem) +
            " (" + order(member(*r.evj("past_window"), "length")) +
            "; the reading's counterexample to agreement at every T >= t, not part of the claim)"};
  else if (window)
    past = {"; past the window, at T = " + text(&after) + ", no difference " +
            (enumerated(r, &after) ? std::string("on any statistic")
                                   : "among " + kWitnessTries + " random statistics") +
            " (not part of the claim)"};
  if (r.ev("gamma") == "inf")
    return combine({{sem + " = hardmax on " + compared + " statistics: gamma = inf, threshold 1 (nothing to round" +
                     (window ? " in the window)" : ")")},
                    past});
  Sentences witness{"threshold 1: no length below it"};
  if (r.has("witness"))
    witness = {"witness at T = " + r.ev("witness", "length") + ": " + finding(r, "witness", sem) + " (" +
               order(member(*r.evj("witness"), "length")) + ")"};
  else if (t && *t > 1 && enumerated(r, &below))
    witness = {"not sharp on this model: every statistic of length " + text(&below) + " = t - 1 already agrees (" +
               (window ? "under finite-weights:p a sub-maximal weight u/sum(u) can round before t"
                       : "the margin is not realised there") +
               "; check.threshold_sharp would make this a refutation)"};
  else if (t && *t > 1)
    witness = {"no difference found at T = " + text(&below) + " = t - 1 among " + kWitnessTries +
               " random statistics (sharpness not asked for: check.threshold_sharp)"};
  const std::string rule = "ceil(2^(p/gamma)), the least i with i^gamma >= 2^p";
  // The random lengths reach min(max(10^6, 4t), 2^62) (the longest statistic).
  const std::string far =
      t ? to_string(std::min(std::max(Rational(1000000), Rational(4 * *t)), Rational(Integer(1) << 62))) : kMissing;
  const std::string head = sem + " = hardmax on " + compared + " statistics with ";
  if (!window)
    return combine(
        {{head + "T >= t = " + r.ev("threshold") + " (" + rule + "), gamma = " + r.ev("gamma") + " (" + lengths +
          " lengths exhaustively, " + r.sc("samples") + " random in [t, 2t] and up to T = " + far + "); "},
         witness});
  const std::string random = r.sc("samples") == "0" ? "" : ", " + r.sc("samples") + " random in the window";
  return combine({{head + "t = " + r.ev("threshold") + " <= T <= " + r.ev("window_end") + " (" + rule +
                   "; the window's end 2^p - 1: below 2^p no normalised weight of a top key reaches 2^-p), gamma = " +
                   r.ev("gamma") + " (" + lengths + " lengths exhaustively" + random + "); "},
                  witness,
                  past});
}

Sentences average(const Record& r) {
  const json* premise = r.evj("premise");
  const auto at = [&](const char* key) { return premise ? member(*premise, key) : nullptr; };
  const json* first = r.element("conclusion", 0);
  const json* last = r.element("conclusion", -1);
  if (r.vacuous())
    return {"vacuous: the premise fails, E_" + text(at("length")) + " = " + readable(at("E")) +
            " > eps = " + r.ev("epsilon") + " with N0 = " + r.ev("N0") + " (alpha_min = " + r.ev("alpha_min") + ")"};
  return {"max E_t over t <= N0 = " + r.ev("N0") + " is " + readable(at("max_E")) + " <= eps = " + r.ev("epsilon") +
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

/// A value the kernel ties as a recorded decimal d written with `recorded` significant digits (within u of it, u
/// one unit of that digit), written again with `digits` < `recorded`: the renderings of d − u, d and d + u, which are
/// all the renderings of the values within u of d (at most two: 2u is below one unit of the `digits`-th digit).
Sentences rewritten(const std::optional<Rational>& d, const Rational& u, int digits) {
  if (!d) return {kMissing};
  Sentences out;
  for (const Rational& x : std::vector<Rational>{*d - u, *d, *d + u})
    if (const std::string s = to_decimal(x, digits); std::find(out.begin(), out.end(), s) == out.end())
      out.push_back(s);
  return out;
}

/// rewritten for the largest of the decimals tests[i][key] written with `recorded` digits: each is within one unit of
/// its own `recorded`-th digit of its test's value, so the largest is within its own unit (the largest) of the largest
/// value.
Sentences largest_rewritten(const Record& r, const char* key, int recorded, int digits) {
  const json* tests = r.evj("tests");
  std::optional<Rational> top;
  std::string text;
  for (std::size_t i = 0; tests && tests->is_array() && i < tests->size(); ++i) {
    const json* v = member((*tests)[i], key);
    const auto q = rational(v);
    if (!q || !v->is_string()) return {kMissing};
    if (!top || *q > *top) top = q, text = v->get<std::string>();
  }
  return rewritten(top, top ? literal_unit(text, *top, recorded) : Rational(0), digits);
}

/// L5.conv's constructed and random inputs (the claim's constants, theory.md "L5.conv"): a^(i−τ−1) b^(τ+1) for each
/// ordered pair a ≠ b of the first min(S, 8) tokens at each i = 10^2..10^9 with i >= from; check.random_inputs
/// (default 2) random inputs of lengths 10^3, 10^4, then 10^5: their count, the constructed ones' and the longest T.
std::string convergence_inputs(const Record& r) {
  const auto from = rational(r.evj("from"));
  if (!from) return kMissing;
  const std::uint64_t S = std::min<std::uint64_t>(r.parsed().model().alphabet_size(), 8);
  std::uint64_t constructed = 0;
  for (std::uint64_t i = 100; i <= 1000000000; i *= 10) constructed += Rational(i) >= *from ? S * (S - 1) : 0;
  const std::uint64_t random = r.parsed().check_count("random_inputs", 2);
  const std::uint64_t lengths[] = {0, 1000, 10000, 100000};
  return std::to_string(constructed) + " constructed a^(i-tau-1) b^(tau+1) at i = 10^2..10^9, " +
         std::to_string(random) + " random up to T = " + std::to_string(lengths[std::min<std::uint64_t>(random, 3)]);
}

Sentences convergence(const Record& r) {
  const auto d = numbers_in(r.domain());  // from, length
  const std::string enumerated = d.size() == 2
                                     ? "every input of length " + d[1]
                                     : "no exhaustive domain: the exhaustive length " +
                                           std::to_string(convergence_length(r.parsed())) +
                                           " (max_length, shortened until S^n <= 4096) is below " + r.ev("from");
  return {"|Y_i - Phi(window_i, mu_i)| <= bound_i <= K i^-" + r.ev("rate") + " with K = " + decimal_of(r.evj("K"), 6) +
          " at " + r.ev("positions") + " positions i >= " + r.ev("from") + " (" + enumerated + ", " +
          convergence_inputs(r) + "); closest approach " + r.slack_head() + " of the bound"};
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
  const std::string exhaustive = r.has("visited") && d.size() > 1
                                     ? "every input of length " + r.ev("min_length") + ".." + d[1]
                                     : "no length >= T0 = " + r.ev("min_length") + " within the exhaustive budget";
  // The claim's random inputs (theory.md "D5.4.kgram"): check.random_inputs (default 40) of lengths T0, T0 + 1, …,
  // then 10^3 and 10^4 (each at least T0); the longest T follows. The worst error (a measurement, evidence.worst_error
  // at 6 digits) is written at 4.
  const auto T0 = rational(r.evj("min_length"));
  const std::uint64_t random = r.parsed().check_count("random_inputs", 40);
  const std::string longest =
      !T0 || denominator(*T0) != 1 ? kMissing
      : random == 0               ? "0"
                                  : to_string(std::max(Integer(numerator(*T0) + (random < 3 ? 0 : random - 3)),
                                                       std::max(numerator(*T0), Integer(10000))));
  const json* worst = r.evj("worst_error");
  const auto worst_value = worst && worst->is_string() ? rational(worst) : std::nullopt;
  return combine(
      {{"|f(x) - f*(x)| <= eps = " + r.ev("epsilon") + " on " + r.ev("inputs") + " inputs with match fraction >= " +
        r.ev("rho") + " (" + exhaustive + ", " + std::to_string(hard_input_count(domain)) +
        " hard inputs from T0; random repetitive ones from T0 up to T = " + longest + "); worst error "},
       rewritten(worst_value, worst_value ? literal_unit(worst->get<std::string>(), *worst_value, 6) : Rational(0), 4),
       {"; gamma = " + r.ev("gamma") + " >= 1"}});
}

Sentences subsample(const Record& r) {
  const json* tests = r.evj("tests");
  const std::string count = tests && tests->is_array() ? std::to_string(tests->size()) : kMissing;
  // G and L of each test are recorded at 8 digits (and tied to the kernel's); the detail has their maxima at 6. The
  // same-window drift-form premises below 2G are counted by the certificate check (a free slot without it).
  const auto& counted = r.facts().informative_premises;
  const std::string informative = counted ? std::to_string(*counted) : NUM;
  return combine(
      {{"on " + count + " (x, n) pairs a seed gives statistic error <= c (G+L)(tau+1) n^-" + r.ev("rate") +
        " (c = " + r.ev("c") + ", G <= "},
       largest_rewritten(r, "G", 8, 6),
       {", L <= "},
       largest_rewritten(r, "L", 8, 6),
       {")"},
       {"", " (every rate bound >= 2G: that part could not fail)"},
       {", and the drift form holds position by position (" + informative +
        " premises below 2G); measured log-log slope " +
        (r.ev("fitted_slope") == "n/a" ? "n/a" : r.number("fitted_slope")) +  // n/a: fewer than two targets below |x|
        " on the long periodic input (reported, against -1/3)"}});
}

/// T5.2.sim's "first at n = …": the least tested n at which every row's error is within ε, from the rows' recorded
/// errors (which the kernel checks against its own forward pass): a row whose recorded [lo, hi] straddles ε may go
/// either way, and the recorded text must be one those allow.
std::string first_within(const Record& r) {
  const json* rows = r.evj("rows");
  const json eps_text = r.check_rational("epsilon", "1/10");
  const auto eps = rational(&eps_text);
  std::map<std::uint64_t, int> at;  // n -> 1 every row within, 0 some row may be, -1 some row is not
  for (std::size_t i = 0; eps && rows && rows->is_array() && i < rows->size(); ++i) {
    const json* n = member((*rows)[i], "n");
    const json* error = member((*rows)[i], "error");
    const auto ends = error ? recorded_ends(*error) : std::nullopt;
    if (!n || !n->is_number_unsigned() || !ends) return kMissing;
    const int row = ends->second <= *eps ? 1 : ends->first > *eps ? -1 : 0;
    auto [it, fresh] = at.emplace(n->get<std::uint64_t>(), row);
    if (!fresh) it->second = std::min(it->second, row);
  }
  const std::string recorded = r.ev("eps_reached_at");
  for (const auto& [n, status] : at) {
    if (status >= 0 && recorded == "n = " + std::to_string(n)) return recorded;
    if (status == 1) return "n = " + std::to_string(n);  // the first n certainly within
  }
  return "none of the tested n";
}

Sentences complexity(const Record& r) {
  std::size_t c_good = 0;
  const json* rows = r.evj("rows");
  if (rows && rows->is_array())
    for (const json& row : *rows) c_good += row.is_object() && row.value("c_good", json()) == json(true);
  std::uint64_t period = 1;
  bool margin2 = false;  // some γ₂ < 1 enters the exponent
  for (const Model& m : r.parsed().models) {
    period = std::lcm(period, static_cast<std::uint64_t>(m.period));
    margin2 = margin2 || second_layer_margin(m) != 1;
  }
  // smallest_bound is recorded at 6 digits (and tied to the kernel's least bound); the detail has it at 4.
  const json* smallest = r.evj("smallest_bound");
  const auto least = smallest && smallest->is_string() ? rational(smallest) : std::nullopt;
  return combine(
      {{"|f(x) - f(z)| and |g(x) - g(z)| within the simulation-error bound on " + r.sc("samples") +
        " (x, n) checks (|x| = " + r.check_rational("simulation_length", "10000") + ") and within C(f) n^-min(" +
        (margin2 ? "gamma,1/3,gamma2" : "gamma,1/3") + ") on the " + std::to_string(c_good) +
        " with a c-good z; smallest bound "},
       rewritten(least, least ? literal_unit(smallest->get<std::string>(), *least, 6) : Rational(0), 4),
       {"; both within eps = " + r.check_rational("epsilon", "1/10") + " first at " + first_within(r) +
        " (measured) against N_variant_A = " + readable_integer(r.evj("N_variant_A")) +
        " (conditional on a c-good z at every length" +
        (period == 1 ? "" : " with |x|'s residue mod " + std::to_string(period)) +
        "), N_variant_B = " + readable_integer(r.evj("N_variant_B")) + " (C = " + decimal_of(r.evj("C"), 4) + ")"}});
}

// --- REFUTED and UNDECIDED: each claim's sentences of a failure or of a run that could not decide ---------------

/// The recorded witnesses of `kind` (an `expect` of "" for any), in order.
std::vector<const json*> witnesses_of(const Record& r, const std::string& kind, const std::string& expect = "") {
  std::vector<const json*> out;
  const json* ws = r.evj("witnesses");
  for (std::size_t i = 0; ws && ws->is_array() && i < ws->size(); ++i) {
    const json& w = (*ws)[i];
    if (text(member(w, "kind")) == kind && (expect.empty() || text(member(w, "expect")) == expect)) out.push_back(&w);
  }
  return out;
}

/// Each sentence of `make` at the statistic of each recorded witness of `kind`; kMissing when there is none.
Sentences at_witnesses(const Record& r, const std::string& kind,
                       const std::function<std::string(const std::string&)>& make) {
  Sentences out;
  for (const json* w : witnesses_of(r, kind)) out.push_back(make(r.statistic(member(*w, "statistic"))));
  return out.empty() ? Sentences{kMissing} : out;
}

/// The last entry of the evidence array `key` (a failing run records its failing row last), its field `sub`.
std::string last_row(const Record& r, const char* key, const char* sub) {
  const json* row = r.element(key, -1);
  return text(row ? member(*row, sub) : nullptr);
}

/// T4.1.sim and T4.1.threshold stop when ceil(2^(p/γ)) exceeds the 2^62 positions of a statistic.
std::string beyond_statistics(const Record& r) {
  const std::string t = r.ev("threshold");
  if (t == kMissing) return kMissing;
  return "the threshold ceil(2^(p/gamma)) = " + (t.size() > 30 ? t.substr(0, 6) + "..." : t) + " (" +
         std::to_string(t.size()) + " digits) is beyond the longest statistic the checker represents (2^62 "
         "positions): nothing at or above it can be evaluated";
}

Sentences norm_failing(const Record& r) {
  if (!r.refuted()) return {NUM + " of " + r.ev("pairs") + " pairs undecided"};
  Sentences out;  // at the violating witness: its model's name, x and z
  for (const json* w : witnesses_of(r, "norm_pair", "violates")) {
    const json* index = member(*w, "model");
    const auto& models = r.parsed().models;
    if (!index || !index->is_number_unsigned() || index->get<std::uint64_t>() >= models.size()) continue;
    const Model& m = models[index->get<std::size_t>()];
    out.push_back(m.name + ": x: " + r.statistic(member(*w, "x"), m) + ", z: " + r.statistic(member(*w, "z"), m) +
                  ": |f(x) - f(z)| = " + VALUE + " > L * max_h |w_h(x) - w_h(z)|_1 = " + r.ev("L") + " * " + NUM);
  }
  return out.empty() ? Sentences{kMissing} : out;
}

Sentences simulation_failing(const Record& r) {
  if (!r.refuted())
    return {NUM + " of " + r.ev("checked") + " errors could not be compared with epsilon", beyond_statistics(r)};
  Sentences out;  // at the violating witness: x and the z built for it
  for (const json* w : witnesses_of(r, "simulation", "violates")) {
    const std::string x = r.statistic(member(*w, "x")), z = r.statistic(member(*w, "z"));
    const json* z_field = member(*w, "z");
    const std::string z_length = text(z_field ? member(*z_field, "length") : nullptr);
    // The search tests |z| first, then the error, then the attention distance.
    const auto length = rational(z_field ? member(*z_field, "length") : nullptr);
    const auto n_sim = rational(r.evj("N_sim_claimed"));
    if (length && n_sim && *length > *n_sim) {
      out.push_back("|z| = " + z_length + " > N_sim = " + r.ev("N_sim_claimed") + " for x: " + x);
      continue;
    }
    out.insert(out.end(), {"error " + VALUE + " > epsilon = " + r.ev("epsilon") + " for x: " + x + " (z: " + z + ")",
                           "attention distance max_h |w_h(x) - w_h(z)|_1 (heads not of one same value at x and z) = " +
                               NUM + " > delta = " + r.ev("delta") + " for x: " + x + " (z: " + z + ")"});
  }
  return out.empty() ? Sentences{kMissing} : out;
}

Sentences implication_failing(const Record& r) {
  const std::string bracket = lg_bracket(r);
  if (!r.refuted())
    return {"cannot decide D(N = " + r.ev("N") + ") <= eps or D_inf <= 3 * eps within length " + r.ev("reached") +
            ": " + bracket};
  const auto eps = rational(r.evj("epsilon"));
  const std::string three = eps ? to_string(Rational(3 * *eps)) : kMissing;
  return at_witnesses(r, "pair_distance", [&](const std::string& at) {
    return "D_inf >= D(" + r.ev("reached") + ") = " + r.ev("D_inf_lower") + " > 3 * eps = " + three + ", witness " +
           at + "; " + bracket;
  });
}

/// check.witness_n (0 when absent) and check.witness_length (2n by default), as the case gives them.
std::pair<std::optional<Rational>, std::optional<Rational>> witness_order(const Record& r) {
  const json n_text = r.check_rational("witness_n", "0");
  const auto n = rational(&n_text);
  const json length_text = r.check_rational("witness_length", n ? to_string(Rational(2 * *n)) : kMissing);
  return {n, rational(&length_text)};
}

Sentences witness41_failing(const Record& r) {
  const auto [n, length] = witness_order(r);
  if (n && length && (*n == 0 || *length < *n))
    return {r.refuted() ? kMissing
                        : "the case names no witness order (check.witness_n >= 1, check.witness_length >= witness_n)"};
  // The search records D_n once its curve reaches the lengths; D_n = 0 exactly leaves only D(differ_by) to decide.
  const std::string top = n && length ? to_string(std::max(*n, *length)) : kMissing;
  const std::string M = r.ev("differ_by");
  if (!r.has("D_n"))
    return {r.refuted() ? kMissing
                        : "lengths up to " + top + " needed, reached " + NUM + " within the statistic budget"};
  if (r.ev("D_n") != "0")
    return {r.refuted()
                ? "f and g differ at length " + NUM + " <= n = " + r.ev("n") + ": |f - g| = " + VALUE + " at " + STAT
                : "D(" + NUM + ") = " + VALUE + " is neither the exact 0 nor certainly positive (at " + STAT + ")"};
  return {r.refuted() ? "no difference of eta = " + r.ev("eta") + " by length " + M + ": D(" + M + ") = " +
                            r.ev("D_differ")
                      : "D(" + M + ") = " + r.ev("D_differ") + " not separated from eta = " + r.ev("eta")};
}

Sentences witness52_failing(const Record& r) {
  const auto n = rational(r.evj("n")), M = rational(r.evj("differ_by")), eta = rational(r.evj("eta"));
  const bool refuted = r.refuted();
  if (!n || !M || !eta) return {kMissing};
  if (*n == 0 || *M <= *n)
    return {refuted ? kMissing
                    : "the case names no witness (check.witness_n >= 1 and check.witness_length > witness_n)"};
  if (*eta <= Rational(3) / Rational(pow(Integer(2), 64)))
    return {refuted ? kMissing : "the case names no difference to check (check.eta must exceed 3 * 2^-64)"};
  if (const auto why = statistic_obstacle(r.parsed().models))
    return {refuted ? kMissing : "the statistic argument does not apply: " + *why};
  // A difference at a length <= n is recorded as differs_at; the gap at M only once every length <= n agreed.
  const std::string far = " of eta = " + r.ev("eta") + " at length " + r.ev("differ_by") + ": |f - g| <= " + NUM +
                          " at every statistic";
  if (r.has("differs_at"))
    return {refuted ? "f and g differ at length " + r.ev("differs_at") + " <= n = " + r.ev("n") + ": |f - g| = " +
                          VALUE + " > 2^-64 at " + STAT
                    : kMissing};
  if (r.has("D_differ")) return {(refuted ? "no difference" : "no certified difference") + far};
  return {refuted ? kMissing : "|f - g| at length " + NUM + " is neither certainly above 2^-64 nor within it (up to " +
                                   NUM + ")"};
}

/// S.consistency's counterexample: the recorded input up to the recorded position, as the search prints it.
std::string input_prefix(const Record& r) {
  const auto position = rational(r.evj("position"));
  const std::string input = r.ev("input");
  if (!position || denominator(*position) != 1 || input == kMissing) return kMissing;
  try {
    const Model& m = r.parsed().model();
    const Tokens x = parse_input(m, input);
    if (*position < 1 || *position > Rational(static_cast<long>(x.size()))) return kMissing;
    return format_input(m, Tokens(x.begin(), x.begin() + numerator(*position).convert_to<long>()));
  } catch (const std::exception&) {
    return kMissing;
  }
}

Sentences consistency_failing(const Record& r) {
  const std::string sem = "finite:" + r.ev("p");
  if (r.refuted())
    return {sem + " != hardmax above the claimed threshold " + r.ev("threshold") + ": at query position " +
            r.ev("position") + " of \"" + input_prefix(r) + "\": " + sem + " gives " + TUP + ", hardmax gives " + TUP};
  if (r.ev("positions") == "0")
    return {"threshold " + r.ev("threshold") + " (p=" + r.ev("p") + ", gamma=" + r.ev("gamma") +
            ") beyond reach: no query position checked"};
  return {"position " + NUM + " of " + QUOTED + " undecided at " + NUM + " bits (budget)"};
}

Sentences threshold_failing(const Record& r) {
  const bool window = r.has("window_end");
  const std::string sem = window ? r.ev("semantics") : "finite:" + r.ev("p");
  const auto t = rational(r.evj("threshold"));
  const std::string below = t ? to_string(Rational(*t - 1)) : kMissing;
  if (!r.refuted())
    return {NUM + " of " + r.ev("compared") + " comparisons undecided at the default precision",
            sem + " = hardmax from T = " + r.ev("threshold") + " on, but no statistic of length " + below +
                " = t - 1 out of " + kWitnessTries +
                " random ones shows a difference, so the threshold's tightness is not established",
            beyond_statistics(r)};
  const std::string t_text = r.ev("threshold");
  const std::string claimed = window ? " at T in [" + t_text + ", " + r.ev("window_end") + "] (claimed window): "
                                     : " at T >= " + t_text + " (claimed threshold): ";
  if (witnesses_of(r, "finite_differs").empty())  // no difference recorded: only sharpness can fail
    return {"the threshold " + r.ev("threshold") + " is not the first length where " + sem +
            " = hardmax: they agree on every statistic of length " + below +
            " = t - 1 (threshold rule: ceil(2^(p/gamma)), the least i with i^gamma >= 2^p)"};
  return at_witnesses(r, "finite_differs", [&](const std::string& at) {
    return sem + " != hardmax" + claimed + "at " + at + ": " + sem + " gives " + TUP + ", hardmax gives " + TUP;
  });
}

Sentences average_failing(const Record& r) {
  const json* premise = r.evj("premise");
  const json* max_E = premise ? member(*premise, "max_E") : nullptr;
  // The search's internal cross-check refutes before the premise is recorded (every string against the
  // statistic sum, or weights not summing to 1) or, in the conclusion, by the weights only.
  const std::string weights = "the weights of length " + NUM + " sum to " + NUM + ", not 1";
  if (r.refuted() && !premise)
    return {weights, "at length " + NUM + " the statistic sum gives E = " + VALUE + " but every string gives " + VALUE};
  if (r.refuted() && !r.has("conclusion")) return {weights};  // the rows are recorded with the failing length only
  if (r.refuted())
    return {"premise holds (max E_t = " + readable(max_E) + " <= eps = " + r.ev("epsilon") + " for t <= N0 = " +
            r.ev("N0") + ") but E_" + NUM + " = " + VALUE + " > C eps^(1/2) = " + r.ev("C") + "·" + r.ev("epsilon") +
            "^(1/2)"};
  const json eps_text = r.check_rational("epsilon", "1/4");
  if (const auto eps = rational(&eps_text); eps && *eps > 1) return {"Theorem 4.2 is stated for eps <= 1"};
  const auto N0 = rational(r.evj("N0"));
  const json doublings = r.check_rational("doublings", "3");
  const auto d = rational(&doublings);
  const bool whole = d && denominator(*d) == 1 && *d <= 64;
  const Integer scale = whole ? Integer(pow(Integer(2), numerator(*d).convert_to<unsigned>())) : Integer(0);
  const std::optional<Rational> top = N0 && whole ? std::make_optional(Rational(*N0 * Rational(scale))) : std::nullopt;
  const json budget_text = r.check_rational("average_budget", "20000");
  const auto budget = rational(&budget_text);
  if (!top || !budget) return {kMissing};
  if (*top > *budget)  // the search stops before the premise
    return {"N0 = " + r.ev("N0") + " needs lengths up to " + to_string(*top) + ", beyond the budget " +
            to_string(*budget) + " (check.average_budget)"};
  if (!premise) return {"some E_t with t <= N0 is not separated from eps at the working precision"};
  return {"E_" + NUM + " = " + VALUE + " not separated from C eps^(1/2)"};
}

Sentences regularity_failing(const Record& r) {
  const auto K = rational(r.evj("switch_length")), tail = rational(r.evj("tail"));
  const json budget_text = r.check_rational("average_budget", "20000");
  const auto budget = rational(&budget_text);
  if (!K || !tail || !budget) return {kMissing};
  if (*K + *tail > *budget)  // the search stops before any E_t
    return {r.refuted() ? kMissing
                        : "lengths up to K + tail = " + to_string(*K + *tail) + " exceed the budget " +
                              to_string(*budget) + " (check.average_budget)"};
  const std::string detail = r.detail();
  // The words follow the length t the detail names: the short law up to the case's switch, the claimed value 0 up
  // to the claimed K (the record's switch_length), η after.
  const json t_text = detail.starts_with("E_") ? detail.substr(2, digits_at(detail, 2)) : std::string();
  const auto t = rational(&t_text);
  const json switch_text = r.check_rational("switch_length", "1");
  const auto switch_at = rational(&switch_text);
  if (!t || !switch_at) return {kMissing};
  const std::string law = "E_" + NUM + " = " + VALUE + " under the " + (*t <= *switch_at ? "short" : "long") +
                          " distribution", want = *t <= *K ? "0" : r.ev("eta"), switch_K = r.ev("switch_length");
  if (!r.refuted())  // an enclosure (a sin readout) that holds the claimed value
    return {law + " is not separated from " + want + ", the claimed value (switch K = " + switch_K + ")"};
  return {law + ", not " + want + " as claimed (switch K = " + switch_K + ")"};
}

Sentences convergence_failing(const Record& r) {
  // The inputs: one of the exhaustive length (a text), a constructed a^(i-tau-1) b^(tau+1) (a, b token names), or
  // a random one of the case's seed.
  const std::string window = std::to_string(r.parsed().model().locality + 1);
  const Sentences where = combine({{"input " + TEXT,
                                    "constructed input " + TEXT + "^(i-" + window + ") " + TEXT + "^" + window,
                                    "random input #" + NUM + " (seed " + r.check_rational("seed", "1") + ", length " +
                                        NUM + ")"},
                                   {" at i = " + NUM + ": |Y - Phi| = " + VALUE + " vs the bound (<= K i^-" +
                                    r.ev("rate") + ") = " + VALUE}});
  if (r.refuted()) return where;
  Sentences out = combine({{"not separated at " + NUM + " bits: "}, where});
  out.push_back("no position i >= " + r.ev("from") + " was reached (inputs of length " + NUM + ", " +
                r.check_rational("random_inputs", "2") + " random)");
  return out;
}

Sentences lipschitz_failing(const Record& r) {
  return {"|Phi(mu) - Phi(mu')| = " + VALUE + " against Lip |mu - mu'|_1 = " + NUM + " (Lip = " +
          decimal_of(r.evj("Lip"), 6) + ") at query class " + NUM};
}

Sentences kgram_failing(const Record& r) {
  const std::string where = "input " + TEXT + " (T = " + NUM + ", match fraction " + NUM + "): |f - f*| = " + VALUE +
                            " > eps = " + r.ev("epsilon");
  if (r.refuted()) return {"the positional margin is " + r.ev("gamma") + " < 1", where};
  return {"not separated from eps: " + where};
}

Sentences subsample_failing(const Record& r) {
  // The failing test is the last recorded one.
  const std::string head = last_row(r, "tests", "input") + " input (T = " + last_row(r, "tests", "T") +
                           ", n = " + last_row(r, "tests", "n") + ")";
  const std::string seeded = head + ", seed " + last_row(r, "tests", "seed") + ": ";
  const std::string fails = seeded + "at the integrand k that comes closest, E_k = " + VALUE;
  const std::string drift = " the drift form S_k + 2G beta + L D = " + VALUE + " (beta = " +
                            last_row(r, "tests", "broken_windows") + "/" + NUM + ", D = " +
                            last_row(r, "tests", "drift") + "; the statistic error, the largest E_k, is " + VALUE +
                            ")";
  if (r.refuted())
    return {seeded + "a kept position's integrand moves by more than its drift-form premise: |p(z_j) - p(x_i_j)| > "
                     "L |mu_j(z) - mu_i_j(x)|_1 (ratio " + last_row(r, "tests", "lipschitz_ratio") + " of L = " + NUM +
                ") or > 2G (ratio " + last_row(r, "tests", "range_ratio") + " of G = " + NUM + ")",
            fails + " >" + drift};
  return {head + ": no seed among 1..8 gives a statistic error within c (G+L)(tau+1) n^-" + r.ev("rate") + " = " +
              VALUE + "; the last, |z| = " + last_row(r, "tests", "length_z") + ", gives " +
              last_row(r, "tests", "error") +
              " (the lemma asserts that some z exists: seeds that miss do not refute it)",
          fails + " not certainly <=" + drift};
}

Sentences complexity_failing(const Record& r) {
  const std::string length = r.check_rational("simulation_length", "10000");
  const std::string row = "model " + last_row(r, "rows", "model") + " on x (|x| = " + length + ", " +
                          last_row(r, "rows", "input") + "), z from the subsampler (seed " +
                          last_row(r, "rows", "seed") + ", |z| = " + last_row(r, "rows", "length_z") +
                          "): |f(x) - f(z)| = " + VALUE + " exceeds ";
  const std::string model = last_row(r, "rows", "model");
  const auto& models = r.parsed().models;
  const std::string rate = model == "f" || (model == "g" && models.size() > 1)
                               ? to_string(complexity_rate(models[model == "f" ? 0 : 1]))
                               : kMissing;
  const Sentences exceeds = {row + "C(f) |z|^-" + rate + " = " + NUM + " (C(f) = " + NUM + ", z c-good)",
                             row + "the simulation-error bound " + NUM};
  if (r.refuted()) return exceeds;
  Sentences out = exceeds;
  for (const char* m : {"f", "g"})
    out.push_back("model " + std::string(m) + " on x (|x| = " + length + ", " + TEXT + ") at n = " + NUM +
                  ": the subsampler's z (seed " + NUM + ") has length " + NUM + ", below n0 = " + NUM +
                  ", where the simulation-error bound starts");
  out.push_back("no (x, n) pair was checked: every target n is too short or not below |x| = " + length);
  return out;
}

/// An UNDECIDED run the search stopped before any evidence (docs/kernel.md "Stopped runs"): its budget's text, or a
/// number beyond exact computation (the text the exception carries).
Sentences stopped(const Record& r) {
  const std::string budget = r.ev("budget"), used = "stopped: the budget of " + budget + " was used up";
  if (budget == kMissing) return {"stopped: " + TEXT + " (beyond exact computation)"};
  if (budget.ends_with(" s")) return {used + " (" + NUM + " items enumerated) (raise --budget to decide)"};
  return {used + " (raise --budget to decide)"};
}

using SentenceMap = std::map<std::string, std::function<Sentences(const Record&)>>;

/// The sentences of a holding verdict (PROVED, SAMPLED, VACUOUS), per claim.
const SentenceMap& sentences() {
  static const SentenceMap all = {{"L4.L", norm},
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

/// The sentences of a REFUTED or UNDECIDED verdict, per claim.
const SentenceMap& failing_sentences() {
  static const SentenceMap all = {
      {"L4.L", norm_failing},           {"T4.1.sim", simulation_failing},   {"T4.1.lg", implication_failing},
      {"T4.1.witness", witness41_failing}, {"T5.2.witness", witness52_failing}, {"S.consistency", consistency_failing},
      {"T4.1.threshold", threshold_failing}, {"T4.2.avg", average_failing},  {"C4.2.regularity", regularity_failing},
      {"L5.conv", convergence_failing}, {"L5.lip", lipschitz_failing},     {"D5.4.kgram", kgram_failing},
      {"L5.3.subsample", subsample_failing}, {"T5.2.sim", complexity_failing}};
  return all;
}

}  // namespace

std::optional<DetailCheck> check_detail(const json& certificate, const Case& c, const DetailFacts& facts) {
  const json* claim = member(certificate, "claim");
  const json* detail = member(certificate, "detail");
  const Record record(certificate, c, facts);
  const std::string verdict = record.verdict();
  const bool failing = verdict == "REFUTED" || verdict == "UNDECIDED";
  const SentenceMap& map = failing ? failing_sentences() : sentences();
  const auto known = claim && claim->is_string() ? map.find(claim->get<std::string>()) : map.end();
  if (known == map.end()) return std::nullopt;
  const bool stop = verdict == "UNDECIDED" && detail && detail->is_string() &&
                    detail->get_ref<const std::string&>().starts_with("stopped: ");
  const Sentences allowed = stop ? stopped(record) : known->second(record);
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
