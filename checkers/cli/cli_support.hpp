#pragma once
// Shared pieces of the lgcheck command line: the usage error, reading exact
// flags, printing JSON, writing files so that a failure leaves nothing behind.
#include "lgcheck/model/input.hpp"
#include "lgcheck/model/semantics.hpp"
#include "lgcheck/numeric/rational.hpp"

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

#include <functional>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace lgc::cli {

constexpr int kExitUsage = 2;

/// A refusal of the command line: printed as "lgcheck: <where>: <what>", exit 2.
struct UsageError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

/// A registered subcommand and what to run when it is chosen.
struct Command {
  CLI::App* app = nullptr;
  std::function<int()> run;
};

void print_json(const nlohmann::json& j);
Semantics semantics_flag(const std::string& text);
Rational rational_flag(const std::string& flag, const std::string& text);
/// A rational flag that must be > 0.
Rational positive_rational_flag(const std::string& flag, const std::string& text);
/// "a,b,,c" -> {"a", "b", "", "c"}.
std::vector<std::string> split_commas(const std::string& text);
/// A comma-separated list of rationals ("1,1/2,3"), each >= 0, `size` of them.
std::vector<Rational> rational_list_flag(const std::string& flag, const std::string& text, std::size_t size);
/// An optional JSON object flag ("" gives an empty object).
nlohmann::json json_flag(const std::string& flag, const std::string& text);
/// The bundled cases directory: `given` when set (--cases), else the
/// cases/ of the source tree the executable was built in (found relative to
/// the executable: beside it or one level up, as build/lgcheck), else ./cases.
std::string bundled_cases_dir(const std::string& given);
/// The tokens of --input: the string itself, "@FILE" (the file's text) or
/// "-" (standard input), without trailing whitespace; up to 256 MiB. Throws
/// UsageError naming --input (and the file).
Tokens input_flag(const Model& model, const std::string& value);
/// "inf" for nullopt, else the exact rational.
nlohmann::json optional_rational(const std::optional<Rational>& q);
/// Writes `text` to `file` through a temporary file and a rename.
void write_text_atomically(const std::string& file, const std::string& text);

/// `--threads N` on an enumeration-heavy command: the threads exhaustive
/// enumerations split over (default: all cores; results are identical for
/// any N).
/// A validator refusing a value written with a minus sign: "expected a
/// non-negative integer, got -5" (CLI11 would wrap it into an unsigned).
CLI::Validator non_negative_integer();

/// --threads N (1..256; default all cores), what the threads do in `purpose`.
void add_threads_option(CLI::App* sub, const std::string& purpose = "threads for exhaustive enumerations (default: all "
                                                                    "cores; verdicts and numbers are the same for any "
                                                                    "count)");

/// `--budget B` on a command that enumerates: a count of enumerated items
/// (1000000) or a time (30s, 5m); past it a claim ends UNDECIDED with the
/// budget printed.
/// --budget on a claim runner (check, threshold): each claim's enumerations stop there.
void add_budget_option(CLI::App* sub);
/// --budget on a command that computes one answer: a time (or a count of
/// enumerated items) after which it stops, exit 3 (docs/cli.md, "Budgets").
void add_command_budget_option(CLI::App* sub);

}  // namespace lgc::cli
