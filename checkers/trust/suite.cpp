#include "trust/suite.hpp"

#include "output/cli_output.hpp"
#include "lgcheck/enumerate/budget.hpp"
#include "lgcheck/quantities/logit_margin.hpp"

#include <fnmatch.h>

#include <algorithm>
#include <optional>
#include <set>
#include <stdexcept>

namespace lgc {

bool matches(const std::string& glob, const std::string& id) { return fnmatch(glob.c_str(), id.c_str(), 0) == 0; }

namespace {

ClaimResult expectation_row(const std::string& case_name, const std::string& what, bool ok, const std::string& detail) {
  ClaimResult r;
  r.id = "expect:" + what;
  r.case_name = case_name;
  r.verdict = ok ? Verdict::Proved : Verdict::Refuted;
  r.detail = detail;
  return r;
}

/// The case's expected verdicts ({"claim id": "VERDICT"}), null when none.
nlohmann::json expected_verdicts(const Case& c) {
  return c.expect.contains("verdicts") ? c.expect["verdicts"] : nlohmann::json(nullptr);
}

/// Each expected verdict of a claim the run selected (`glob`) against the
/// claim's verdict; an expected claim that did not run on the case (it does
/// not apply, or a registry change dropped it) is a REFUTED row.
void compare_expected_verdicts(const std::string& case_name, const nlohmann::json& verdicts, const std::string& glob,
                               const std::vector<ClaimResult>& ran, std::vector<ClaimResult>& out) {
  if (!verdicts.is_object()) return;
  for (const auto& item : verdicts.items()) {
    const std::string id = item.key();
    const nlohmann::json& expected = item.value();
    if (!matches(glob, id)) continue;  // filtered out by --claims: nothing to compare
    const std::string want = expected.is_string() ? expected.get<std::string>() : expected.dump();
    auto it = std::find_if(ran.begin(), ran.end(), [&](const ClaimResult& r) { return r.id == id; });
    if (it == ran.end()) {
      out.push_back(expectation_row(case_name, id, false, "expected " + want + ", but the claim did not run on this case"));
      continue;
    }
    std::string got = to_string(it->verdict);
    ClaimResult row = expectation_row(case_name, id, got == want, "expected " + want + ", got " + got);
    if (got != want && it->verdict == Verdict::Undecided) {
      // The claim did not reach a verdict (a budget ran out, or an enclosure
      // stayed undecided): the expectation is not decided either.
      row.verdict = Verdict::Undecided;
      row.detail = "expected " + want + ", the claim ended UNDECIDED: not compared";
    }
    out.push_back(row);
  }
}

bool has_margin_expectation(const Case& c) {
  return c.expect.contains("logit_margin") && !c.is_pair && c.model().semantics.kind != Semantics::Kind::Softmax;
}

ClaimResult margin_row(const Case& c) {
  // The case reader accepted "inf" or an exact number (a string or a JSON integer).
  const nlohmann::json& value = c.expect["logit_margin"];
  const bool infinite = value.is_string() && value == "inf";
  std::string expected = infinite ? "inf" : to_string(json_rational(value, c.file, "expect.logit_margin"));
  LogitMargin m = logit_margin(c.model());
  std::string got = m.gamma ? to_string(*m.gamma) : "inf";
  bool ok = infinite ? !m.gamma : (m.gamma && to_string(*m.gamma) == expected);
  return expectation_row(c.name, "logit_margin", ok, "expected " + expected + ", computed " + got);
}

/// One case's rows in the order of a whole run: the claims (in registry
/// order), the expected verdicts compared, then the logit-margin expectation.
std::vector<ClaimResult> assemble_case(const std::string& case_name, const nlohmann::json& verdicts,
                                       const std::string& glob, const std::vector<ClaimResult>& unit_rows) {
  std::vector<ClaimResult> claims, margin;
  for (const ClaimResult& r : unit_rows) (r.is_expectation() ? margin : claims).push_back(r);
  std::vector<ClaimResult> out = claims;
  compare_expected_verdicts(case_name, verdicts, glob, claims, out);
  out.insert(out.end(), margin.begin(), margin.end());
  return out;
}

}  // namespace

std::vector<std::filesystem::path> collect_case_files(const std::vector<std::string>& paths) {
  std::vector<std::filesystem::path> files;
  for (const auto& p : paths) {
    std::filesystem::path path(p);
    if (std::filesystem::is_directory(path)) {
      std::vector<std::filesystem::path> found;
      for (const auto& entry : std::filesystem::recursive_directory_iterator(path))
        if (entry.is_regular_file() && entry.path().extension() == ".json") found.push_back(entry.path());
      std::sort(found.begin(), found.end());
      files.insert(files.end(), found.begin(), found.end());
    } else if (std::filesystem::exists(path)) {
      files.push_back(path);
    } else {
      throw CaseError(p, "", "no such file or directory");
    }
  }
  return files;
}

namespace {

/// An UNDECIDED row "stopped: <why>" with no evidence.
ClaimResult stopped_row(const Claim& claim, const Case& c, const std::string& why) {
  ClaimResult r;
  r.id = claim.id;
  r.case_name = c.name;
  r.verdict = Verdict::Undecided;
  r.detail = "stopped: " + why;
  return r;
}

/// The claim on the case under a fresh enumeration budget: past the budget,
/// UNDECIDED with the budget printed; past what lgcheck computes exactly (a
/// threshold 2^{p/γ} of more than 2^27 bits, an exponent `ceil_power` cannot
/// round; std::overflow_error), UNDECIDED with the reason, and
/// the other claims and cases still run.
ClaimResult run_within_budget(const Claim& claim, const Case& c) {
  BudgetScope scope;
  try {
    return claim.run(c);
  } catch (const BudgetExceeded& e) {
    return budget_stopped(claim, c, e);
  } catch (const std::overflow_error& e) {
    return beyond_exact_computation(claim, c, e);
  }
}

}  // namespace

ClaimResult beyond_exact_computation(const Claim& claim, const Case& c, const std::overflow_error& e) {
  return stopped_row(claim, c, std::string(e.what()) + " (beyond exact computation)");
}

ClaimResult budget_stopped(const Claim& claim, const Case& c, const std::exception& e) {
  ClaimResult r = stopped_row(claim, c, std::string(e.what()) + kRaiseBudget);
  r.evidence = {{"budget", describe(enumeration_budget())}};
  return r;
}

ClaimResult run_under_budget(const Claim& claim, const Case& c, const Budget& budget) {
  struct Restore {
    Budget before = enumeration_budget();
    ~Restore() { set_enumeration_budget(before); }
  } restore;
  set_enumeration_budget(budget);
  return run_within_budget(claim, c);
}

std::vector<WorkUnit> work_units(const std::vector<Case>& cases, const std::string& glob) {
  std::vector<WorkUnit> units;
  const auto& registry = claim_registry();
  for (std::size_t k = 0; k < cases.size(); ++k) {
    for (std::size_t j = 0; j < registry.size(); ++j)
      if (matches(glob, registry[j].id) && registry[j].applies(cases[k])) units.push_back({k, j});
    if (matches(glob, "expect:logit_margin") && has_margin_expectation(cases[k])) units.push_back({k, std::nullopt});
  }
  return units;
}

ClaimResult run_unit(const WorkUnit& unit, const Case& c) {
  return unit.claim ? run_within_budget(claim_registry()[*unit.claim], c) : margin_row(c);
}

std::vector<ClaimResult> check_case(const Case& c, const std::string& glob) {
  std::vector<ClaimResult> rows;
  for (const WorkUnit& unit : work_units({c}, glob)) rows.push_back(run_unit(unit, c));
  return assemble_case(c.name, expected_verdicts(c), glob, rows);
}

namespace {

/// A case no claim applies to still has its expectations compared: each
/// expected claim did not run. Inserted in case order.
std::vector<CaseResults> with_unitless_cases(std::vector<CaseResults> done, const std::vector<Case>& cases,
                                             const std::string& glob) {
  std::vector<CaseResults> out;
  std::size_t next = 0;
  for (std::size_t k = 0; k < cases.size(); ++k) {
    if (next < done.size() && done[next].case_index == k) {
      out.push_back(std::move(done[next++]));
      continue;
    }
    std::vector<ClaimResult> rows = assemble_case(cases[k].name, expected_verdicts(cases[k]), glob, {});
    if (!rows.empty()) out.push_back({k, std::move(rows), {}});
  }
  return out;
}

}  // namespace

std::vector<CaseResults> check_cases(const std::vector<Case>& cases, const std::string& glob, const Shard& shard,
                                     const std::function<void(std::size_t, std::size_t, std::size_t)>& on_unit,
                                     const std::function<void(const Case&, const ClaimResult&)>& on_result) {
  std::vector<CaseResults> out;
  const std::vector<WorkUnit> units = work_units(cases, glob);
  std::vector<std::size_t> owned;  // the shard's units, in order
  for (std::size_t u = 0; u < units.size(); ++u)
    if (shard.owns(u)) owned.push_back(u);
  std::vector<ClaimResult> rows(owned.size());
  // Claims run side by side, each in its own slot; results are taken in unit order. A budget is process-wide
  // and counts one claim at a time (BudgetScope): under one, the claims run one after the other.
  const unsigned threads = enumeration_budget().unlimited() ? enumeration_threads() : 1;
  run_in_order(
      owned.size(), threads,
      [&](std::size_t i) { rows[i] = run_unit(units[owned[i]], cases[units[owned[i]].case_index]); },
      [&](std::size_t i) {
        const std::size_t u = owned[i], k = units[u].case_index;
        if (out.empty() || out.back().case_index != k) out.push_back({k, {}, {}});
        if (on_result && !rows[i].is_expectation()) on_result(cases[k], rows[i]);
        out.back().units.push_back(u);
        out.back().results.push_back(std::move(rows[i]));
      },
      [&](std::size_t i, std::size_t done) {
        if (on_unit) on_unit(done, owned.size(), units[owned[i]].case_index);
      });
  if (shard.count <= 1) {  // the whole run: each case's rows in their final order
    for (CaseResults& r : out) r.results = assemble_case(cases[r.case_index].name, expected_verdicts(cases[r.case_index]),
                                                         glob, r.results);
    out = with_unitless_cases(std::move(out), cases, glob);
  }
  return out;
}

nlohmann::json shard_json(const std::vector<CaseResults>& results, const Shard& shard, const std::vector<Case>& cases,
                          const std::string& glob) {
  nlohmann::json names = nlohmann::json::array(), expect = nlohmann::json::array(), parts = nlohmann::json::array();
  for (const Case& c : cases) {
    names.push_back(c.name);
    expect.push_back(expected_verdicts(c));
  }
  for (const CaseResults& r : results)
    for (std::size_t i = 0; i < r.units.size(); ++i)
      parts.push_back({{"unit", r.units[i]}, {"case_index", r.case_index}, {"claim", claim_result_json(r.results[i])}});
  return {{"format", "lgcheck-shard/2"},
          {"shard", std::to_string(shard.index) + "/" + std::to_string(shard.count)},
          {"claims", glob},
          {"cases", names},
          {"expect", expect},
          {"units", work_units(cases, glob).size()},
          {"results", parts}};
}

std::vector<ClaimResult> merge_shards(const std::vector<nlohmann::json>& parts) {
  if (parts.empty()) throw std::invalid_argument("no shard to merge");
  // The parts are untrusted JSON: every field is checked before it is used,
  // and nothing is sized by a count read from them until the count is
  // confirmed by what the parts carry.
  const nlohmann::json& first = parts.front();
  std::uint64_t count = 0;
  std::set<std::uint64_t> seen_shard;
  std::size_t reported = 0;
  for (const nlohmann::json& part : parts) {
    if (!part.is_object() || part.value("format", "") != "lgcheck-shard/2")
      throw std::invalid_argument("not a shard of lgcheck check --shard (format lgcheck-shard/2)");
    for (const char* key : {"cases", "expect", "claims", "units", "shard", "results"})
      if (!part.contains(key)) throw std::invalid_argument(std::string("not a shard of lgcheck check --shard (no ") + key + ")");
    for (const char* key : {"cases", "expect", "claims", "units"})
      if (part.at(key) != first.at(key)) throw std::invalid_argument("the shards come from different runs (" + std::string(key) + ")");
    if (!part.at("shard").is_string() || !part.at("results").is_array() || !part.at("cases").is_array() ||
        !part.at("expect").is_array() || part.at("expect").size() != part.at("cases").size() ||
        !part.at("claims").is_string() || !part.at("units").is_number_unsigned())
      throw std::invalid_argument("not a shard of lgcheck check --shard (a field of the wrong type)");
    const std::string name = part.at("shard").get<std::string>();
    const Shard shard = parse_shard(name);
    if (count == 0) count = shard.count;
    if (shard.count != count) throw std::invalid_argument("the shards split the run differently (" + name + ")");
    if (!seen_shard.insert(shard.index).second) throw std::invalid_argument("shard " + name + " given twice");
    reported += part.at("results").size();
  }
  for (std::uint64_t i = 0; i < count; ++i)  // at most parts.size() + 1 steps: each step is a part seen
    if (!seen_shard.count(i)) throw std::invalid_argument("shard " + std::to_string(i) + "/" + std::to_string(count) + " is missing");
  const std::size_t units = first.at("units").get<std::size_t>();
  if (units != reported)
    throw std::invalid_argument("the parts carry " + std::to_string(reported) + " results for a run of " +
                                std::to_string(units) + " units");
  std::vector<std::optional<std::pair<std::size_t, ClaimResult>>> by_unit(units);  // (case index, row)
  for (const nlohmann::json& part : parts) {
    const std::string name = part.at("shard").get<std::string>();
    const Shard shard = parse_shard(name);
    for (const auto& r : part.at("results")) {
      const std::size_t u = r.at("unit").get<std::size_t>();
      if (u >= units || !shard.owns(u) || by_unit[u])
        throw std::invalid_argument("shard " + name + " reports a claim it does not own");
      by_unit[u] = std::make_pair(r.at("case_index").get<std::size_t>(), claim_result_from_json(r.at("claim")));
    }
  }
  for (std::size_t u = 0; u < units; ++u)
    if (!by_unit[u]) throw std::invalid_argument("claim " + std::to_string(u) + " of the run is in no shard");
  // Case by case, in unit order (units are grouped by case, cases in order).
  const std::string glob = first.at("claims").get<std::string>();
  const nlohmann::json& names = first.at("cases");
  const nlohmann::json& expect = first.at("expect");
  std::vector<ClaimResult> merged;
  std::size_t next_case = 0;  // cases before it are assembled; units come case by case, in order
  auto assemble = [&](std::size_t k, const std::vector<ClaimResult>& rows) {
    const std::vector<ClaimResult> done = assemble_case(names[k].get<std::string>(), expect[k], glob, rows);
    merged.insert(merged.end(), done.begin(), done.end());
  };
  for (std::size_t u = 0; u < units;) {
    const std::size_t k = by_unit[u]->first;
    if (k >= names.size()) throw std::invalid_argument("a result names case " + std::to_string(k) + ", not in the run");
    if (k < next_case) throw std::invalid_argument("the results of case " + std::to_string(k) + " are not together");
    for (; next_case < k; ++next_case) assemble(next_case, {});  // cases no claim applies to
    std::vector<ClaimResult> rows;
    for (; u < units && by_unit[u]->first == k; ++u) rows.push_back(by_unit[u]->second);
    assemble(k, rows);
    next_case = k + 1;
  }
  for (; next_case < names.size(); ++next_case) assemble(next_case, {});
  return merged;
}

}  // namespace lgc
