#pragma once
// Verdicts of checked claims and the scope that says what a verdict covers
// (docs/reliability.md, "What a verdict means"), and the exit code they imply.
#include <nlohmann/json.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace lgc {

/// PROVED: every instance of the stated finite domain checked, nothing
/// sampled, no cap binding (or a certified symbolic argument).
/// SAMPLED: no counterexample in the exhaustive part plus seeded samples, or
/// an enumeration a cap cut short.
/// VACUOUS: nothing could fail (a false antecedent everywhere, a constant of
/// 0 with nothing evaluated, a bound above the quantity's a-priori range).
/// REFUTED: a certified counterexample. UNDECIDED: enclosures still overlap
/// at the precision budget, or a --budget ran out.
enum class Verdict { Proved, Sampled, Vacuous, Refuted, Undecided };

std::string to_string(Verdict v);
/// The verdict a string names; nullopt for anything else.
std::optional<Verdict> parse_verdict(const std::string& text);

/// A limit that may have cut an enumeration or a search short.
struct Cap {
  std::string what;        ///< what is limited, e.g. "pairs per (window, residue) group"
  std::uint64_t limit = 0;
  bool binding = false;    ///< true when the limit was reached: the domain was not covered
  friend bool operator==(const Cap&, const Cap&) = default;
};

/// What a claim's verdict covers.
struct Scope {
  std::string domain;            ///< the exhaustive part, in words ("" when there is none)
  std::uint64_t exhaustive = 0;  ///< instances checked on the exhaustive part
  std::uint64_t samples = 0;     ///< seeded random instances checked besides
  std::optional<std::uint64_t> seed;
  std::vector<Cap> caps;
  std::string decided_by;  ///< the bound or argument that decided ("" when one comparison decides)
  std::string slack;       ///< the largest measured/bound ratio, exact or certified ("" when none is compared)
  std::string vacuous;     ///< why nothing could fail; non-empty makes a holding claim VACUOUS
  friend bool operator==(const Scope&, const Scope&) = default;

  bool cap_binding() const;
};

/// The verdict of a claim that found no counterexample and decided every
/// instance: VACUOUS when `vacuous` says so, SAMPLED when samples were drawn
/// or a cap bound, PROVED otherwise.
Verdict holding_verdict(const Scope& scope);

nlohmann::json scope_json(const Scope& scope);
/// The scope from its JSON; throws std::invalid_argument naming the field.
Scope scope_from_json(const nlohmann::json& j);

/// One claim checked on one case, or (id "expect:<what>") one of a case's
/// expectations compared: PROVED when met, REFUTED when not, UNDECIDED when
/// the claim ended UNDECIDED (nothing to compare).
struct ClaimResult {
  std::string id;         ///< stable claim id, e.g. "S.consistency"
  std::string case_name;  ///< the case's name
  Verdict verdict = Verdict::Undecided;
  std::string detail;  ///< one line: what was checked, or the counterexample
  Scope scope;
  nlohmann::json evidence = nlohmann::json::object();  ///< witnesses, parameters

  bool is_expectation() const { return id.rfind("expect:", 0) == 0; }
};

/// Claim rows counted by verdict; expectation rows counted apart.
struct VerdictSummary {
  std::size_t proved = 0, sampled = 0, vacuous = 0, refuted = 0, undecided = 0;
  std::size_t expectations_met = 0, expectations_failed = 0, expectations_undecided = 0;
  std::size_t claims() const { return proved + sampled + vacuous + refuted + undecided; }
};

VerdictSummary summarise(const std::vector<ClaimResult>& results);

/// 0 nothing refuted or undecided and every expectation met (PROVED, SAMPLED
/// and VACUOUS are not failures), 1 a claim refuted or an expectation not
/// met, 3 something undecided (a claim or an expectation) and nothing refuted.
int exit_code(const VerdictSummary& summary);

}  // namespace lgc
