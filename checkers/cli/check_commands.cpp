// lgcheck check and claims: the registry of claims over case files.
#include "commands.hpp"

#include "trust/certificate.hpp"
#include "trust/registry.hpp"
#include "trust/mutations.hpp"
#include "output/cli_output.hpp"
#include "trust/suite.hpp"
#include "output/progress.hpp"
#include "lgcheck/enumerate/parallel.hpp"

#include <fmt/format.h>

#include <fstream>
#include <iostream>
#include <map>
#include <memory>

namespace lgc::cli {
namespace {

struct CheckArgs {
  std::vector<std::string> paths;
  std::string glob = "*", certificates, shard;
  bool json = false, quiet = false;
};

/// A --claims pattern that names no registered claim is a typo, not an empty run.
void require_some_claim(const std::string& glob) {
  if (matches(glob, "expect:logit_margin")) return;  // the cases' margin expectations
  std::string ids;
  for (const Claim& claim : claim_registry()) {
    if (matches(glob, claim.id)) return;
    ids += (ids.empty() ? "" : ", ") + claim.id;
  }
  throw UsageError("--claims '" + glob + "' matches no registered claim (" + ids + ")");
}

/// Certificates are named after the case: two cases of one name would write
/// the same files, the second silently replacing the first.
void require_distinct_names(const std::vector<Case>& cases) {
  std::map<std::string, std::string> file_of;
  for (const Case& c : cases) {
    auto [it, fresh] = file_of.emplace(c.name, c.file);
    if (!fresh)
      throw UsageError("--certificates: two cases are named \"" + c.name + "\" (" + it->second + ", " + c.file +
                       "); their certificates would share a file: give one a distinct \"name\"");
  }
}

/// Every id a check table can show: the claims and the margin expectation.
std::vector<std::string> table_ids() {
  std::vector<std::string> ids = {"logit_margin"};
  for (const Claim& claim : claim_registry()) ids.push_back(claim.id);
  return ids;
}

std::vector<std::string> case_names(const std::vector<Case>& cases) {
  std::vector<std::string> names;
  for (const Case& c : cases) names.push_back(c.name);
  return names;
}

int cmd_check(const CheckArgs& a) {
  require_some_claim(a.glob);
  std::vector<Case> cases;
  for (const auto& file : collect_case_files(a.paths)) cases.push_back(load_case(file));  // all validated first
  if (cases.empty()) throw UsageError("no .json case file in the paths given");
  if (!a.certificates.empty()) require_distinct_names(cases);
  Shard shard;
  if (!a.shard.empty()) {
    try {
      shard = parse_shard(a.shard);
    } catch (const std::invalid_argument& e) {
      throw UsageError(std::string("--shard: ") + e.what());
    }
  }
  // The text table is streamed: its widths fit every claim id and case name
  // up front, each claim's row is printed when the claim ends, and the
  // expectations and counts follow at the end. JSON is printed once, whole.
  const TableLayout layout = table_layout(table_ids(), case_names(cases));
  if (!a.json) std::cout << table_header(layout) << std::flush;
  Progress progress("claims", a.quiet);
  auto on_unit = [&](std::size_t done, std::size_t total, std::size_t k) { progress.update(done, total, cases[k].name); };
  auto on_result = [&](const Case& c, const ClaimResult& r) {
    if (!a.certificates.empty()) write_certificate(a.certificates, c, r);
    if (a.json) return;
    progress.clear();
    std::cout << claim_row(layout, r) << std::flush;
  };
  const std::vector<CaseResults> parts = check_cases(cases, a.glob, shard, on_unit, on_result);
  progress.clear();
  std::vector<ClaimResult> results;
  for (const auto& part : parts) results.insert(results.end(), part.results.begin(), part.results.end());
  if (a.json && !a.shard.empty()) print_json(shard_json(parts, shard, cases, a.glob));
  else if (a.json) print_json(results_json(results));
  else std::cout << table_footer(layout, results);
  return exit_code(summarise(results));
}

/// Merges the --shard --json outputs of one run: the table (or JSON) one
/// process would have printed.
int cmd_merge(const std::vector<std::string>& files, bool json) {
  std::vector<nlohmann::json> parts;
  for (const auto& file : files) {
    try {
      parts.push_back(parse_json_file(file));
    } catch (const CaseError& e) {
      throw UsageError(e.what());
    }
    const nlohmann::json& part = parts.back();
    if (!part.is_object() || !part.contains("format") || part["format"] != "lgcheck-shard/2")
      throw UsageError(file + ": not a shard of lgcheck check --shard (format lgcheck-shard/2)");
  }
  std::vector<ClaimResult> results;
  try {
    results = merge_shards(parts);
  } catch (const std::exception& e) {
    throw UsageError(std::string("merge: ") + e.what());
  }
  if (json) print_json(results_json(results));
  else std::cout << results_table(results);
  return exit_code(summarise(results));
}

/// One certificate file's replay: whether it was accepted, rejected or not a
/// readable certificate, and the lines replay prints for it.
struct ReplayOutcome {
  enum class Kind { Accepted, Rejected, Unreadable } kind = Kind::Unreadable;
  std::string lines;
};

ReplayOutcome unreadable(std::string why) { return {ReplayOutcome::Kind::Unreadable, "UNREADABLE " + why + "\n"}; }

std::string accepted_line(const std::filesystem::path& file, const ReplayResult& r) {
  if (r.budget_stop != ReplayResult::BudgetStop::None)
    return fmt::format("accepted  {} (UNDECIDED, stopped by its budget: {}; the kernel re-established {} items)\n",
                       file.string(),
                       r.budget_stop == ReplayResult::BudgetStop::Reproduced
                           ? "the same stop under the same item budget"
                           : "a time budget, not reproducible; nothing claimed",
                       r.kernel_reestablished);
  return fmt::format("accepted  {} ({} witnesses re-verified; the kernel re-established {} items)\n", file.string(),
                     r.witnesses_checked, r.kernel_reestablished);
}

/// Reads and replays one file; `quiet` leaves an accepted certificate's line out.
ReplayOutcome replay_file(const std::filesystem::path& file, bool quiet) {
  nlohmann::json cert;
  try {
    cert = parse_json_file(file);
  } catch (const CaseError& e) {
    return unreadable(e.what());
  }
  if (!cert.is_object() || !cert.contains("claim"))
    return unreadable(file.string() + ": not a certificate (a JSON object written by check --certificates)");
  ReplayResult r;
  try {
    r = replay_certificate(cert);
  } catch (const std::bad_alloc&) {  // the machine's limit, not the certificate's fault: the run stops
    throw;
  } catch (const std::exception& e) {  // a field of the wrong type, a case the claim cannot run on
    r = ReplayResult{};
    r.problems = {std::string("certificate: ") + e.what()};
  }
  if (r.accepted) return {ReplayOutcome::Kind::Accepted, quiet ? std::string() : accepted_line(file, r)};
  std::string lines = fmt::format("REJECTED  {}\n", file.string());
  for (const auto& p : r.problems) lines += "          " + p + "\n";
  return {ReplayOutcome::Kind::Rejected, lines};
}

/// Replays every certificate named (files, or directories of *.json) on
/// --threads threads, printing each file's lines in the files' order as soon
/// as those before it are done: 0 when all are accepted, 1 when one is
/// rejected, 2 when none is rejected but some file is not a readable JSON
/// certificate; `quiet` prints only the rejections, the unreadable files and
/// the count.
int cmd_replay(const std::vector<std::string>& paths, bool quiet) {
  const auto files = collect_case_files(paths);
  if (files.empty()) throw UsageError("replay: no .json file in the paths given");
  Progress progress("certificates", quiet);
  std::vector<ReplayOutcome> outcomes(files.size());
  std::map<ReplayOutcome::Kind, int> count;
  run_in_order(
      files.size(), enumeration_threads(), [&](std::size_t k) { outcomes[k] = replay_file(files[k], quiet); },
      [&](std::size_t k) {
        progress.clear();
        std::cout << outcomes[k].lines << std::flush;
        ++count[outcomes[k].kind];
        outcomes[k].lines.clear();
      },
      [&](std::size_t k, std::size_t done) { progress.update(done, files.size(), files[k].filename().string()); });
  progress.clear();
  const int accepted = count[ReplayOutcome::Kind::Accepted], rejected = count[ReplayOutcome::Kind::Rejected],
            unreadable_files = count[ReplayOutcome::Kind::Unreadable];
  std::cout << fmt::format("\n{} certificates: {} accepted, {} rejected{}\n", accepted + rejected, accepted, rejected,
                           unreadable_files ? fmt::format("; {} files unreadable", unreadable_files) : std::string());
  return rejected > 0 ? 1 : (unreadable_files > 0 ? 2 : 0);
}

int cmd_claims() {
  for (const auto& c : claim_registry())
    std::cout << fmt::format("{:<16} {}\n{:<16} semantics: {}; proof: {}\n", c.id, c.statement, "", c.semantics, c.docs);
  return 0;
}


}  // namespace

Command add_check(CLI::App& app) {
  auto a = std::make_shared<CheckArgs>();
  auto* sub = app.add_subcommand("check", "Run the registered claims on case files and directories");
  add_threads_option(sub);
  add_budget_option(sub);
  sub->add_option("PATH", a->paths, "case files, or directories searched recursively for *.json")->required();
  sub->add_option("--claims", a->glob, "only claims whose id matches this shell pattern (e.g. 'T4.1.*')")
      ->capture_default_str();
  sub->add_flag("--json", a->json, "print a JSON object: claims and summary (at the end; the text table is printed row by "
                                   "row as the claims end)");
  sub->add_flag("--quiet", a->quiet, "no progress line on stderr (it is shown only on a terminal, after 2 s)");
  sub->add_option("--certificates", a->certificates, "write one certificate per claim into this directory");
  sub->add_option("--shard", a->shard,
                  "run only shard i/n of the run: its claims on cases are numbered case by case (cases in sorted "
                  "order, claims in registry order) and the shard runs those numbered i mod n; with --json, print "
                  "the shard's part for `lgcheck merge`, which also compares the cases' expectations");
  return {sub, [a] { return cmd_check(*a); }};
}

Command add_merge(CLI::App& app) {
  auto files = std::make_shared<std::vector<std::string>>();
  auto json = std::make_shared<bool>(false);
  auto* sub = app.add_subcommand("merge", "Merge the parts of `check --shard i/n --json` into the result of one run");
  sub->add_option("PART", *files, "the JSON parts, one per shard (any order)")->required();
  sub->add_flag("--json", *json, "print a JSON object: claims and summary (as check --json)");
  return {sub, [files, json] { return cmd_merge(*files, *json); }};
}

Command add_replay(CLI::App& app) {
  auto paths = std::make_shared<std::vector<std::string>>();
  auto quiet = std::make_shared<bool>(false);
  auto* sub = app.add_subcommand("replay", "Re-verify certificates written by check --certificates: the claim re-run "
                                            "from the recorded evidence (no new search), then the independent kernel");
  add_threads_option(sub, "threads: certificates replayed side by side, their re-runs' enumerations sharing them "
                          "(default: all cores; the same lines for any count, but an item budget stops sooner on more "
                          "threads: replay a budget-stopped certificate with at least its check's --threads)");
  sub->add_option("CERT", *paths, "certificate files, or directories of them")->required();
  sub->add_flag("--quiet", *quiet, "print only the rejected certificates (each problem on its own line) and the count; "
                                   "no progress line (otherwise shown on a terminal after 2 s)");
  return {sub, [paths, quiet] { return cmd_replay(*paths, *quiet); }};
}

Command add_mutations(CLI::App& app) {
  auto cases = std::make_shared<std::string>();
  auto quiet = std::make_shared<bool>(false);
  auto* sub = app.add_subcommand("mutations", "Run the mutation suite: each deliberately broken claim must be REFUTED");
  add_threads_option(sub);
  sub->add_option("--cases", *cases, "the bundled cases directory (default: the cases/ beside the executable's "
                                     "build directory, else ./cases)");
  sub->add_flag("--quiet", *quiet, "no progress line on stderr (it is shown only on a terminal, after 2 s)");
  return {sub, [cases, quiet] {
            std::string table;
            {
              Progress progress("mutations", *quiet);
              const ProgressSinkScope drawn(progress);
              table = mutation_table(bundled_cases_dir(*cases));
            }
            std::cout << table;
            // Every row must end REFUTED for the stated reason.
            for (const char* bad : {"| PROVED |", "| SAMPLED |", "| VACUOUS |", "| UNDECIDED |", "for another reason |"})
              if (table.find(bad) != std::string::npos) return 1;
            return 0;
          }};
}

Command add_claims(CLI::App& app) {
  auto* sub = app.add_subcommand("claims", "List the registered claims: id, statement, semantics, where it is proved");
  return {sub, [] { return cmd_claims(); }};
}

}  // namespace lgc::cli
