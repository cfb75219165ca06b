#include "output/cli_output.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <stdexcept>

namespace lgc {

nlohmann::json interval_json(const Interval& x) { return {{"lo", x.lower_decimal(25)}, {"hi", x.upper_decimal(25)}}; }

nlohmann::json number_json(const Number& x) {
  if (x.is_exact()) return to_string(x.exact());
  return interval_json(x.enclosure());
}

nlohmann::json claim_result_json(const ClaimResult& r) {
  nlohmann::json j = {{"id", r.id}, {"case", r.case_name}, {"verdict", to_string(r.verdict)}, {"detail", r.detail}};
  if (!r.is_expectation()) j["scope"] = scope_json(r.scope);
  j["evidence"] = r.evidence;
  return j;
}

ClaimResult claim_result_from_json(const nlohmann::json& j) {
  ClaimResult r;
  r.id = j.at("id").get<std::string>();
  r.case_name = j.at("case").get<std::string>();
  const std::string verdict = j.at("verdict").get<std::string>();
  const std::optional<Verdict> v = parse_verdict(verdict);
  if (!v) throw std::invalid_argument("unknown verdict \"" + verdict + "\"");
  r.verdict = *v;
  r.detail = j.at("detail").get<std::string>();
  if (!r.is_expectation()) r.scope = scope_from_json(j.at("scope"));
  r.evidence = j.at("evidence");
  return r;
}

nlohmann::json summary_json(const VerdictSummary& s) {
  return {{"claims", s.claims()},
          {"PROVED", s.proved},
          {"SAMPLED", s.sampled},
          {"VACUOUS", s.vacuous},
          {"REFUTED", s.refuted},
          {"UNDECIDED", s.undecided},
          {"expectations",
           {{"met", s.expectations_met}, {"not_met", s.expectations_failed}, {"undecided", s.expectations_undecided}}}};
}

nlohmann::json results_json(const std::vector<ClaimResult>& results) {
  nlohmann::json claims = nlohmann::json::array(), expectations = nlohmann::json::array();
  for (const auto& r : results) {
    if (!r.is_expectation()) {
      claims.push_back(claim_result_json(r));
      continue;
    }
    expectations.push_back({{"case", r.case_name},
                            {"what", r.id.substr(std::string("expect:").size())},
                            {"met", r.verdict == Verdict::Proved},
                            {"status", r.verdict == Verdict::Proved    ? "met"
                                       : r.verdict == Verdict::Refuted ? "not met"
                                                                       : "undecided"},
                            {"detail", r.detail}});
  }
  return {{"claims", claims}, {"expectations", expectations}, {"summary", summary_json(summarise(results))}};
}

std::string scope_text(const Scope& s) {
  std::vector<std::string> parts;
  if (!s.vacuous.empty()) parts.push_back("vacuous: " + s.vacuous);
  if (!s.domain.empty()) parts.push_back(fmt::format("exhaustive: {} ({})", s.domain, s.exhaustive));
  if (s.samples > 0)
    parts.push_back(fmt::format("samples: {}{}", s.samples, s.seed ? fmt::format(" (seed {})", *s.seed) : ""));
  for (const Cap& c : s.caps)
    parts.push_back(fmt::format("cap: {} <= {}{}", c.what, c.limit, c.binding ? " (binding)" : " (not reached)"));
  if (!s.decided_by.empty()) parts.push_back("decided by: " + s.decided_by);
  if (!s.slack.empty()) parts.push_back("slack: " + s.slack);
  std::string out;
  for (const auto& p : parts) out += (out.empty() ? "" : "; ") + p;
  return out;
}

TableLayout table_layout(const std::vector<std::string>& ids, const std::vector<std::string>& case_names) {
  TableLayout layout;
  for (const auto& id : ids) layout.id_w = std::max(layout.id_w, id.size());
  for (const auto& name : case_names) layout.case_w = std::max(layout.case_w, name.size());
  return layout;
}

std::string table_header(const TableLayout& t) {
  return fmt::format("{:<{}}  {:<{}}  {:<{}}  {}\n", "claim", t.id_w, "case", t.case_w, "verdict", t.verdict_w, "detail") +
         std::string(t.indent() + 6, '-') + "\n";
}

std::string claim_row(const TableLayout& t, const ClaimResult& r) {
  if (r.is_expectation()) return "";
  std::string out = fmt::format("{:<{}}  {:<{}}  {:<{}}  {}\n", r.id, t.id_w, r.case_name, t.case_w,
                                to_string(r.verdict), t.verdict_w, r.detail);
  const std::string scope = scope_text(r.scope);
  if (!scope.empty()) out += std::string(t.indent(), ' ') + scope + "\n";
  return out;
}

std::string table_footer(const TableLayout& t, const std::vector<ClaimResult>& results) {
  std::string out, expectations;
  for (const auto& r : results)
    if (r.is_expectation())
      expectations += fmt::format("{:<{}}  {:<{}}  {:<{}}  {}\n", r.id.substr(7), t.id_w, r.case_name, t.case_w,
                                  r.verdict == Verdict::Proved    ? "met"
                                  : r.verdict == Verdict::Refuted ? "NOT MET"
                                                                  : "undecided",
                                  t.verdict_w, r.detail);
  if (!expectations.empty())
    out += fmt::format("\nexpectations of the cases\n{:<{}}  {:<{}}  {:<{}}  {}\n{}{}", "expected", t.id_w, "case",
                       t.case_w, "status", t.verdict_w, "detail", std::string(t.indent() + 6, '-') + "\n", expectations);
  const VerdictSummary s = summarise(results);
  out += fmt::format("\n{} claims: {} PROVED, {} SAMPLED, {} VACUOUS, {} REFUTED, {} UNDECIDED\n", s.claims(), s.proved,
                     s.sampled, s.vacuous, s.refuted, s.undecided);
  out += fmt::format("expectations: {} met, {} not met{}\n", s.expectations_met, s.expectations_failed,
                     s.expectations_undecided ? fmt::format(", {} undecided", s.expectations_undecided) : "");
  return out;
}

std::string results_table(const std::vector<ClaimResult>& results) {
  std::vector<std::string> ids, names;
  for (const auto& r : results) {
    ids.push_back(r.is_expectation() ? r.id.substr(7) : r.id);
    names.push_back(r.case_name);
  }
  const TableLayout layout = table_layout(ids, names);
  std::string out = table_header(layout);
  for (const auto& r : results) out += claim_row(layout, r);
  return out + table_footer(layout, results);
}

}  // namespace lgc
