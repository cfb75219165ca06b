#include "trust/certificate.hpp"

#include "claims/agreement.hpp"
#include "claims/case_models.hpp"
#include "claims/section4/theorem41.hpp"
#include "trust/registry.hpp"
#include "lgcheck/bounds/theorem41.hpp"
#include "lgcheck/enumerate/parallel.hpp"
#include "lgcheck/kernel/certificate.hpp"
#include "lgcheck/quantities/distance.hpp"
#include "lgcheck/quantities/norm_constant.hpp"
#include "lgcheck/semantics/forward.hpp"
#include "lgcheck/simulate/simulation_error.hpp"
#include "trust/suite.hpp"

#include <fmt/format.h>

#include <fstream>
#include <mutex>
#include <shared_mutex>

namespace lgc {
namespace {

std::string hex64(std::uint64_t v) { return fmt::format("{:016x}", v); }

/// A string field of an untrusted document, or `fallback` when it is missing or not a string.
std::string text_field(const nlohmann::json& j, const char* key, const char* fallback) {
  return j.contains(key) && j[key].is_string() ? j[key].get<std::string>() : std::string(fallback);
}

const Claim* find_claim(const std::string& id) {
  for (const auto& c : claim_registry())
    if (c.id == id) return &c;
  return nullptr;
}

/// Lists every difference between the recorded claim record and `again`: verdict, detail, scope.
void compare_records(const ClaimResult& again, const nlohmann::json& cert, std::vector<std::string>& problems) {
  const std::string recorded_verdict = text_field(cert, "verdict", "?");
  if (to_string(again.verdict) != recorded_verdict)
    problems.push_back("verdict: recorded " + recorded_verdict + ", the re-run gives " + to_string(again.verdict) +
                       " (" + again.detail + ")");
  const std::string recorded_detail = text_field(cert, "detail", "(not a string)");
  if (again.detail != recorded_detail)
    problems.push_back("detail: recorded \"" + recorded_detail + "\", the re-run gives \"" + again.detail + "\"");
  const nlohmann::json scope = scope_json(again.scope);
  if (!cert.contains("scope") || cert["scope"] != scope)
    problems.push_back("scope: recorded " + (cert.contains("scope") ? cert["scope"].dump() : std::string("none")) +
                       ", the re-run gives " + scope.dump());
}

/// Runs the claim again from the certificate's own case (its check block carries the parameters and seeds),
/// taking search results from the evidence, and lists every difference of the whole record.
void compare_with_rerun(const Claim& claim, const Case& c, const nlohmann::json& cert, const nlohmann::json& evidence,
                        std::vector<std::string>& problems) {
  ClaimResult again;
  try {
    again = claim.replay(c, evidence);
  } catch (const std::overflow_error& e) {  // as the run does (suite.cpp): UNDECIDED, stopped
    again = beyond_exact_computation(claim, c, e);
  }
  compare_records(again, cert, problems);
}

/// Whether a detail is a budget's stop: "stopped: … (raise --budget to decide)".
bool is_budget_stop(const std::string& detail) {
  const std::string tail = kRaiseBudget;
  return detail.rfind("stopped: ", 0) == 0 && detail.size() >= tail.size() &&
         detail.compare(detail.size() - tail.size(), tail.size(), tail) == 0;
}

/// The budget a budget-stopped record names ("1000 enumerated items", "30 s": `describe`'s forms), or nullopt.
std::optional<Budget> recorded_budget(const nlohmann::json& evidence) {
  if (!evidence.is_object() || evidence.size() != 1 || !evidence.contains("budget") || !evidence["budget"].is_string())
    return std::nullopt;
  const std::string text = evidence["budget"].get<std::string>();
  const std::size_t space = text.find(' ');
  if (space == std::string::npos || space == 0) return std::nullopt;
  const std::string number = text.substr(0, space), unit = text.substr(space + 1);
  if (unit != "enumerated items" && unit != "s") return std::nullopt;
  try {
    const Budget b = parse_budget(unit == "s" ? number + "s" : number);
    if (describe(b) != text) return std::nullopt;  // only the forms the search writes
    return b;
  } catch (const std::invalid_argument&) {
    return std::nullopt;
  }
}

/// Whether a record says its run was stopped by a budget: UNDECIDED with a budget's stop for its detail.
bool says_budget_stopped(const nlohmann::json& cert) {
  return text_field(cert, "verdict", "") == "UNDECIDED" && is_budget_stop(text_field(cert, "detail", ""));
}

/// A budget-stopped record (suite.cpp's `budget_stopped`): UNDECIDED, "stopped: … (raise --budget to decide)",
/// evidence holding only the budget. An item budget is reproduced: the claim's own run under it must give the
/// same record. A time budget cannot be; the claim must then at least be one a budget stops on this case (its run
/// under a budget of 1 item stops), with the empty scope of a stopped row. Returns true when it handled `cert`.
bool check_budget_stop(const Claim& claim, const Case& c, const nlohmann::json& cert, const nlohmann::json& evidence,
                       ReplayResult& r) {
  if (!says_budget_stopped(cert)) return false;
  const std::optional<Budget> budget = recorded_budget(evidence);
  if (!budget) return false;  // re-run as any record, and rejected there
  if (!claim.applies(c)) {  // nothing to re-run
    r.problems.push_back("claim: " + claim.id + " does not apply to the certificate's case");
    return true;
  }
  if (budget->items) {
    compare_records(run_under_budget(claim, c, *budget), cert, r.problems);
    r.budget_stop = ReplayResult::BudgetStop::Reproduced;
    return true;
  }
  const ClaimResult probe = run_under_budget(claim, c, Budget{1, std::nullopt});
  if (!is_budget_stop(probe.detail))
    r.problems.push_back("evidence.budget: a time budget cannot stop " + claim.id +
                         " on this case (its run under a budget of 1 item does not stop: " + to_string(probe.verdict) +
                         ")");
  const nlohmann::json empty = scope_json(ClaimResult{}.scope);
  if (!cert.contains("scope") || cert["scope"] != empty)
    r.problems.push_back("scope: recorded " + (cert.contains("scope") ? cert["scope"].dump() : std::string("none")) +
                         ", a stopped run's is " + empty.dump());
  r.budget_stop = ReplayResult::BudgetStop::TimeNotReproduced;
  return true;
}

std::string file_name(const std::string& case_name, const std::string& claim) {
  std::string s = case_name + "__" + claim + ".json";
  for (char& ch : s)
    if (!(std::isalnum(static_cast<unsigned char>(ch)) || ch == '.' || ch == '_' || ch == '-')) ch = '_';
  return s;
}

/// Re-verifies one witness with the trusted evaluation; "" when it matches.
std::string verify_witness(const Case& c, const CaseModels& cm, const nlohmann::json& w, const nlohmann::json& evidence) {
  const std::string kind = w.value("kind", "");
  const bool expect_holds = w.value("expect", "") == "holds";
  const Shape shape = cm.models.front()->shape();
  if (kind == "finite_differs") {
    const OneLayerEvaluator& m = *cm.models.at(w.at("model").get<std::size_t>());
    Statistic s = statistic_from_json(shape, w.at("statistic"));
    QVector exact = m.representation(s);
    Vector<Number> hard(exact.begin(), exact.end());
    // The model's own rounding semantics (finite-weights:p keeps its reading), else finite:p at the recorded p.
    const unsigned p = w.at("p").get<unsigned>();
    const Semantics rounding = m.model().semantics.kind == Semantics::Kind::FiniteWeights ? Semantics::finite_weights(p)
                                                                                         : Semantics::finite(p);
    bool differs = agreement(hard, m.representation_rounded(s, rounding)) == Agreement::Different;
    return differs ? "" : rounding.str() + " and hardmax do not differ at the recorded statistic";
  }
  if (kind == "string_differs") {
    const Model& m = c.model();
    Tokens x = parse_input(m, w.at("input").get<std::string>());
    std::size_t i = w.at("position").get<std::size_t>();
    auto h = representation_at(m, x, ForwardOptions{Semantics::hardmax()}, {i});
    auto f = representation_at(m, x, ForwardOptions{Semantics::finite(w.at("p").get<unsigned>())}, {i});
    return agreement(h[0], f[0]) == Agreement::Different ? "" : "finite:p and hardmax do not differ at the recorded position";
  }
  if (kind == "simulation") {
    Statistic x = statistic_from_json(shape, w.at("x")), z = statistic_from_json(shape, w.at("z"));
    Rational eps = parse_rational(evidence.at("epsilon").get<std::string>());
    Integer bound = parse_integer(evidence.at("N_sim_claimed").get<std::string>());
    bool ok = z.window == x.window && z.length % shape.period == x.length % shape.period && Integer(z.length) <= bound;
    for (const auto* m : cm.models) {
      std::optional<int> order = compare(output_distance(*m, x, *m, z, cm.precision_bits), Number(eps));
      ok = ok && order && *order <= 0;
    }
    return ok == expect_holds ? "" : "the recorded z does not " + std::string(expect_holds ? "meet" : "break") +
                                         " |z| <= N_sim with error <= epsilon";
  }
  if (kind == "norm_pair") {
    const OneLayerEvaluator& m = *cm.models.at(w.at("model").get<std::size_t>());
    Statistic x = statistic_from_json(shape, w.at("x")), z = statistic_from_json(shape, w.at("z"));
    const std::optional<int> order =
        measure_norm_pair(m, parse_rational(w.at("L").get<std::string>()), x, z).order;
    bool holds = x.window == z.window && x.length % shape.period == z.length % shape.period && order && *order <= 0;
    return holds == expect_holds ? "" : "the recorded pair does not " + std::string(expect_holds ? "satisfy" : "violate") +
                                            " |f(x) - f(z)| <= L * distance";
  }
  if (kind == "pair_distance") {
    Statistic s = statistic_from_json(shape, w.at("statistic"));
    Rational at_least = parse_rational(w.at("at_least").get<std::string>());
    Number d = output_distance(*cm.models.at(0), s, *cm.models.at(1), s, cm.precision_bits);
    return upper_of(d) >= at_least ? "" : "|f - g| at the recorded statistic is below the recorded " + to_string(at_least);
  }
  return "unknown witness kind \"" + kind + "\"";
}

}  // namespace

std::string case_digest(const Case& c) {
  std::string text = case_to_json(c).dump();
  std::uint64_t h = 1469598103934665603ull;
  for (unsigned char ch : text) {
    h ^= ch;
    h *= 1099511628211ull;
  }
  return hex64(h);
}

nlohmann::json make_certificate(const Case& c, const ClaimResult& result) {
  return {{"format", kCertificateFormat},
          {"toolkit", std::string("lgcheck ") + LGCHECK_VERSION},
          {"claim", result.id},
          {"case_name", result.case_name},
          {"case", case_to_json(c)},
          {"case_digest", case_digest(c)},
          {"precision_bits", kDefaultPrecisionBits},
          {"verdict", to_string(result.verdict)},
          {"detail", result.detail},
          {"scope", scope_json(result.scope)},
          {"evidence", result.evidence}};
}

std::filesystem::path write_certificate(const std::filesystem::path& dir, const Case& c, const ClaimResult& result) {
  std::filesystem::create_directories(dir);
  std::filesystem::path file = dir / file_name(result.case_name, result.id);
  std::filesystem::path tmp = file;
  tmp += ".tmp";
  {
    std::ofstream out(tmp);
    out << make_certificate(c, result).dump() << "\n";
    if (!out) throw std::runtime_error(file.string() + ": cannot write the certificate");
  }
  std::filesystem::rename(tmp, file);
  return file;
}

namespace {

ReplayResult replay_certificate_unguarded(const nlohmann::json& cert) {
  ReplayResult r;
  auto problem = [&](const std::string& what) { r.problems.push_back(what); };
  if (!cert.is_object() || cert.value("format", "") != kCertificateFormat) {
    problem(std::string("format: expected \"") + kCertificateFormat + "\"");
    return r;
  }
  Case c;
  try {
    c = parse_case(cert.at("case"), "certificate case");
  } catch (const std::exception& e) {
    problem(std::string("case: ") + e.what());
    return r;
  }
  if (case_digest(c) != cert.value("case_digest", ""))
    problem("case_digest: the case does not match its digest (" + case_digest(c) + " computed, " +
            cert.value("case_digest", "none") + " recorded): the case was altered");
  const Claim* claim = find_claim(cert.value("claim", ""));
  if (!claim) {
    problem("claim: \"" + cert.value("claim", "") + "\" is not a registered claim");
    return r;
  }
  const nlohmann::json evidence = cert.value("evidence", nlohmann::json::object());
  // Section 4 witnesses are re-verified here; a softmax pair's (T5.2.witness) by the re-run below and the kernel.
  if (evidence.contains("witnesses") && is_one_layer_rounding_case(c)) {
    try {
      CaseModels cm = one_layer_models(c);
      for (std::size_t k = 0; k < evidence["witnesses"].size(); ++k) {
        std::string why = verify_witness(c, cm, evidence["witnesses"][k], evidence);
        ++r.witnesses_checked;
        if (!why.empty()) problem(fmt::format("evidence.witnesses[{}]: {}", k, why));
      }
    } catch (const std::exception& e) {
      problem(std::string("evidence.witnesses: ") + e.what());
    }
  }
  // A run the search's budget stopped is re-run under that budget, not without it (which would decide).
  if (!check_budget_stop(*claim, c, cert, evidence, r)) compare_with_rerun(*claim, c, cert, evidence, r.problems);
  // The independent check: the trusted kernel (lib/kernel, no search code)
  // recomputes every constant it knows from the case and re-establishes the
  // witnesses with its own forward pass.
  const kernel::CertificateReport k = kernel::check_certificate(cert);
  for (const auto& p : k.problems) problem("kernel: " + p);
  r.kernel_reestablished = k.reestablished.size();
  r.accepted = r.problems.empty();
  return r;
}

/// The enumeration budget is process-wide (enumerate/budget.hpp): a replay that sets one (a budget-stopped
/// record's) runs alone; any other, which runs without a budget, may run beside others (`lgcheck replay` runs
/// certificates on several threads).
std::shared_mutex g_budget_replays;

}  // namespace

ReplayResult replay_certificate(const nlohmann::json& cert) {
  if (cert.is_object() && says_budget_stopped(cert)) {  // its re-run may set the budget (check_budget_stop)
    std::unique_lock<std::shared_mutex> alone(g_budget_replays);
    const AllEnumerationThreads all;  // as check enumerated: every shard charges the budget (enumerate/budget.hpp)
    return replay_certificate_unguarded(cert);
  }
  std::shared_lock<std::shared_mutex> beside_others(g_budget_replays);
  return replay_certificate_unguarded(cert);
}

}  // namespace lgc
