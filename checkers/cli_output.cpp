#include "cli_output.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <stdexcept>

namespace lgc {

nlohmann::json interval_json(const Interval& x) { return {{"lo", x.lower_decimal(25)}, {"hi", x.upper_decimal(25)}}; }

nlohmann::json number_json(const Number& x) {
  if (x.is_exact()) return to_string(x.exact());
  return interval_json(x.enclosure());
}

std::string integer_text(const Integer& n) {
  const std::string digits = n.str();
  const std::size_t length = digits.size() - (n < 0 ? 1 : 0);
  if (length <= 15) return digits;
  return fmt::format("{} ({} digits)", to_decimal(Rational(n), 5), length);
}

nlohmann::json claim_result_json(const ClaimResult& r) {
  return {{"id", r.id}, {"case", r.case_name}, {"verdict", to_string(r.verdict)}, {"detail", r.detail},
          {"evidence", r.evidence}};
}

ClaimResult claim_result_from_json(const nlohmann::json& j) {
  ClaimResult r;
  r.id = j.at("id").get<std::string>();
  r.case_name = j.at("case").get<std::string>();
  const std::string verdict = j.at("verdict").get<std::string>();
  if (verdict == "PROVED") r.verdict = Verdict::Proved;
  else if (verdict == "REFUTED") r.verdict = Verdict::Refuted;
  else if (verdict == "UNDECIDED") r.verdict = Verdict::Undecided;
  else throw std::invalid_argument("unknown verdict \"" + verdict + "\"");
  r.detail = j.at("detail").get<std::string>();
  r.evidence = j.at("evidence");
  return r;
}

nlohmann::json results_json(const std::vector<ClaimResult>& results) {
  nlohmann::json claims = nlohmann::json::array();
  for (const auto& r : results) claims.push_back(claim_result_json(r));
  VerdictSummary s = summarise(results);
  return {{"claims", claims}, {"summary", {{"PROVED", s.proved}, {"REFUTED", s.refuted}, {"UNDECIDED", s.undecided}}}};
}

std::string results_table(const std::vector<ClaimResult>& results) {
  std::size_t id_w = 5, case_w = 4, verdict_w = 9;
  for (const auto& r : results) {
    id_w = std::max(id_w, r.id.size());
    case_w = std::max(case_w, r.case_name.size());
  }
  std::string out = fmt::format("{:<{}}  {:<{}}  {:<{}}  {}\n", "claim", id_w, "case", case_w, "verdict", verdict_w, "detail");
  out += std::string(id_w + case_w + verdict_w + 6 + 6, '-') + "\n";
  for (const auto& r : results)
    out += fmt::format("{:<{}}  {:<{}}  {:<{}}  {}\n", r.id, id_w, r.case_name, case_w, to_string(r.verdict), verdict_w,
                       r.detail);
  VerdictSummary s = summarise(results);
  out += fmt::format("\n{} claims: {} PROVED, {} REFUTED, {} UNDECIDED\n", results.size(), s.proved, s.refuted,
                     s.undecided);
  return out;
}

}  // namespace lgc
