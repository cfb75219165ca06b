#include "cli_support.hpp"

#include "lgcheck/enumerate/budget.hpp"
#include "lgcheck/enumerate/parallel.hpp"

#include <cctype>
#include <filesystem>
#include <fstream>
#include <iostream>

namespace lgc::cli {

void print_json(const nlohmann::json& j) { std::cout << j.dump(2) << "\n"; }

Semantics semantics_flag(const std::string& text) {
  try {
    return Semantics::parse(text);
  } catch (const std::invalid_argument& e) {
    throw UsageError(std::string("--semantics: ") + e.what());
  }
}

Rational rational_flag(const std::string& flag, const std::string& text) {
  try {
    return parse_rational(text);
  } catch (const ParseError& e) {
    throw UsageError(flag + ": " + e.what());
  }
}

std::vector<std::string> split_commas(const std::string& text) {
  std::vector<std::string> out;
  std::size_t start = 0;
  while (true) {
    std::size_t comma = text.find(',', start);
    out.push_back(text.substr(start, comma == std::string::npos ? std::string::npos : comma - start));
    if (comma == std::string::npos) return out;
    start = comma + 1;
  }
}

std::vector<Rational> rational_list_flag(const std::string& flag, const std::string& text, std::size_t size) {
  std::vector<Rational> out;
  for (const std::string& entry : split_commas(text)) {
    Rational q = rational_flag(flag, entry);
    if (q < 0) throw UsageError(flag + ": expected entries >= 0, got " + to_string(q));
    out.push_back(q);
  }
  if (out.size() != size)
    throw UsageError(flag + ": expected " + std::to_string(size) + " comma-separated entries (one per symbol), got " +
                     std::to_string(out.size()));
  return out;
}

Rational positive_rational_flag(const std::string& flag, const std::string& text) {
  Rational q = rational_flag(flag, text);
  if (q <= 0) throw UsageError(flag + ": expected a positive number, got " + text);
  return q;
}

nlohmann::json json_flag(const std::string& flag, const std::string& text) {
  if (text.empty()) return nlohmann::json::object();
  try {
    return nlohmann::json::parse(text);
  } catch (const nlohmann::json::parse_error& e) {
    throw UsageError(flag + ": not valid JSON: " + e.what());
  }
}

nlohmann::json optional_rational(const std::optional<Rational>& q) {
  return q ? nlohmann::json(to_string(*q)) : nlohmann::json("inf");
}

void write_text_atomically(const std::string& file, const std::string& text) {
  const std::filesystem::path target(file);
  std::error_code ec;
  const auto status = std::filesystem::symlink_status(target, ec);
  if (!ec && std::filesystem::exists(status) && !std::filesystem::is_regular_file(status))
    throw UsageError("--out: " + file + " exists and is not a regular file (a symlink, FIFO, device or directory is "
                     "never replaced)");
  if (target.has_parent_path() && !std::filesystem::is_directory(target.parent_path()))
    throw UsageError("--out: the directory " + target.parent_path().string() + " does not exist");
  std::filesystem::path tmp = file + ".tmp";
  {
    std::ofstream out(tmp);
    if (!out) throw UsageError("--out: cannot write " + file);
    out << text;
    out.flush();
    out.close();
    if (out.fail()) {
      std::filesystem::remove(tmp, ec);
      throw UsageError("--out: writing " + file + " failed (device full or unwritable?)");
    }
  }
  std::filesystem::rename(tmp, file, ec);
  if (ec) {
    std::filesystem::remove(tmp, ec);
    throw UsageError("--out: cannot move the written file onto " + file);
  }
}

void add_threads_option(CLI::App* sub, const std::string& purpose) {
  sub->add_option_function<unsigned>("--threads", [](const unsigned& n) { set_enumeration_threads(n); }, purpose)
      ->check(CLI::Range(1u, 256u));
}

namespace {

CLI::Option* budget_option(CLI::App* sub, const std::string& help) {
  return sub->add_option_function<std::string>(
      "--budget",
      [](const std::string& text) {
        try {
          set_enumeration_budget(parse_budget(text));
        } catch (const std::invalid_argument& e) {
          throw CLI::ValidationError("--budget", e.what());
        }
      },
      help);
}

}  // namespace

void add_budget_option(CLI::App* sub) {
  budget_option(sub, "stop each claim's enumerations after this many items (1000000) or this time (30s, 5m); the "
                     "claim then ends UNDECIDED with the budget printed (default: no budget)");
}

void add_command_budget_option(CLI::App* sub) {
  budget_option(sub, "stop after this time (30s, 5m) or this many enumerated items (1000000): the command then "
                     "exits 3 (undecided), keeping what it already printed (default: no budget)");
}

CLI::Validator non_negative_integer() {
  return CLI::Validator(
      [](std::string& value) {
        const auto first = value.find_first_not_of(" \t");
        if (first != std::string::npos && value[first] == '-')
          return "expected a non-negative integer, got " + value;
        return std::string();
      },
      "NON-NEGATIVE");
}


namespace {

constexpr std::uintmax_t kMaxInputBytes = std::uintmax_t{256} << 20;

/// All of a stream, refusing more than kMaxInputBytes.
std::string read_bounded(std::istream& in, const std::string& what) {
  std::string text;
  char buffer[1 << 16];
  while (in.read(buffer, sizeof buffer) || in.gcount() > 0) {
    text.append(buffer, static_cast<std::size_t>(in.gcount()));
    if (text.size() > kMaxInputBytes)
      throw UsageError("--input: " + what + " holds more than " + std::to_string(kMaxInputBytes >> 20) + " MiB");
  }
  return text;
}

std::string input_text(const std::string& value) {
  if (value == "-") return read_bounded(std::cin, "standard input");
  if (value.empty() || value[0] != '@') return value;
  const std::string file = value.substr(1);
  std::error_code ec;
  const auto status = std::filesystem::status(file, ec);
  if (ec || !std::filesystem::exists(status)) throw UsageError("--input: " + file + ": no such file");
  if (!std::filesystem::is_regular_file(status))
    throw UsageError("--input: " + file + ": not a regular file (a directory, FIFO or device is not read as an input)");
  std::ifstream in(file, std::ios::binary);
  if (!in) throw UsageError("--input: " + file + ": cannot open file for reading");
  return read_bounded(in, file);
}

}  // namespace

Tokens input_flag(const Model& model, const std::string& value) {
  std::string text = input_text(value);
  while (!text.empty() && std::isspace(static_cast<unsigned char>(text.back()))) text.pop_back();
  try {
    return parse_input(model, text);
  } catch (const InputError& e) {
    throw UsageError(std::string("--input: ") + (value.size() > 1 && value[0] == '@' ? value.substr(1) + ": " : "") +
                     e.what());
  }
}


std::string bundled_cases_dir(const std::string& given) {
  if (!given.empty()) return given;
  std::error_code ec;
  const std::filesystem::path exe = std::filesystem::read_symlink("/proc/self/exe", ec);
  if (!ec)
    for (const auto& dir : {exe.parent_path() / "cases", exe.parent_path().parent_path() / "cases"})
      if (std::filesystem::is_directory(dir / "paper", ec)) return dir.string();
  return "cases";
}

}  // namespace lgc::cli
