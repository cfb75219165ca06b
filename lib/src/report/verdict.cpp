#include "lgcheck/report/verdict.hpp"

#include <stdexcept>

namespace lgc {

std::string to_string(Verdict v) {
  switch (v) {
    case Verdict::Proved: return "PROVED";
    case Verdict::Sampled: return "SAMPLED";
    case Verdict::Vacuous: return "VACUOUS";
    case Verdict::Refuted: return "REFUTED";
    case Verdict::Undecided: return "UNDECIDED";
  }
  return "?";
}

std::optional<Verdict> parse_verdict(const std::string& text) {
  for (Verdict v : {Verdict::Proved, Verdict::Sampled, Verdict::Vacuous, Verdict::Refuted, Verdict::Undecided})
    if (to_string(v) == text) return v;
  return std::nullopt;
}

bool Scope::cap_binding() const {
  for (const Cap& c : caps)
    if (c.binding) return true;
  return false;
}

Verdict holding_verdict(const Scope& scope) {
  if (!scope.vacuous.empty()) return Verdict::Vacuous;
  if (scope.samples > 0 || scope.cap_binding()) return Verdict::Sampled;
  return Verdict::Proved;
}

nlohmann::json scope_json(const Scope& s) {
  nlohmann::json caps = nlohmann::json::array();
  for (const Cap& c : s.caps) caps.push_back({{"what", c.what}, {"limit", c.limit}, {"binding", c.binding}});
  nlohmann::json j = {{"domain", s.domain}, {"exhaustive", s.exhaustive}, {"samples", s.samples},
                      {"caps", caps},       {"decided_by", s.decided_by}};
  j["seed"] = s.seed ? nlohmann::json(*s.seed) : nlohmann::json(nullptr);
  j["slack"] = s.slack.empty() ? nlohmann::json(nullptr) : nlohmann::json(s.slack);
  j["vacuous"] = s.vacuous.empty() ? nlohmann::json(nullptr) : nlohmann::json(s.vacuous);
  return j;
}

namespace {

template <class T>
T field(const nlohmann::json& j, const char* key) {
  if (!j.contains(key)) throw std::invalid_argument(std::string("scope.") + key + ": missing");
  try {
    return j.at(key).get<T>();
  } catch (const nlohmann::json::exception&) {
    throw std::invalid_argument(std::string("scope.") + key + ": wrong type");
  }
}

std::string optional_text(const nlohmann::json& j, const char* key) {
  if (!j.contains(key) || j.at(key).is_null()) return "";
  return field<std::string>(j, key);
}

}  // namespace

Scope scope_from_json(const nlohmann::json& j) {
  if (!j.is_object()) throw std::invalid_argument("scope: expected an object");
  Scope s;
  s.domain = field<std::string>(j, "domain");
  s.exhaustive = field<std::uint64_t>(j, "exhaustive");
  s.samples = field<std::uint64_t>(j, "samples");
  if (j.contains("seed") && !j.at("seed").is_null()) s.seed = field<std::uint64_t>(j, "seed");
  const auto caps = field<nlohmann::json>(j, "caps");
  if (!caps.is_array()) throw std::invalid_argument("scope.caps: expected an array");
  for (const auto& c : caps)
    s.caps.push_back({field<std::string>(c, "what"), field<std::uint64_t>(c, "limit"), field<bool>(c, "binding")});
  s.decided_by = field<std::string>(j, "decided_by");
  s.slack = optional_text(j, "slack");
  s.vacuous = optional_text(j, "vacuous");
  return s;
}

VerdictSummary summarise(const std::vector<ClaimResult>& results) {
  VerdictSummary s;
  for (const auto& r : results) {
    if (r.is_expectation()) {
      if (r.verdict == Verdict::Refuted) ++s.expectations_failed;
      else if (r.verdict == Verdict::Undecided) ++s.expectations_undecided;
      else ++s.expectations_met;
      continue;
    }
    switch (r.verdict) {
      case Verdict::Proved: ++s.proved; break;
      case Verdict::Sampled: ++s.sampled; break;
      case Verdict::Vacuous: ++s.vacuous; break;
      case Verdict::Refuted: ++s.refuted; break;
      case Verdict::Undecided: ++s.undecided; break;
    }
  }
  return s;
}

int exit_code(const VerdictSummary& summary) {
  if (summary.refuted > 0 || summary.expectations_failed > 0) return 1;
  if (summary.undecided > 0 || summary.expectations_undecided > 0) return 3;
  return 0;
}

}  // namespace lgc
