#pragma once
// Case files `lgcheck-case/1` (spec/CASE-FORMAT.md): load with every rule
// enforced before any computation, and save so that loading gives back the
// identical model.
#include "lgcheck/model/model.hpp"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <filesystem>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace lgc {

/// A refused case file: names the file, the JSON path and what was expected.
class CaseError : public std::runtime_error {
 public:
  CaseError(std::string file, std::string json_path, std::string what);
  const std::string& file() const { return file_; }
  const std::string& json_path() const { return json_path_; }
  const std::string& reason() const { return reason_; }

 private:
  std::string file_, json_path_, reason_;
};

struct Case {
  std::string file;  ///< the path it was read from ("" when built in memory)
  std::string name;
  std::string description;
  bool is_pair = false;
  std::vector<Model> models;  ///< one model, or the two of a pair
  nlohmann::json check = nlohmann::json::object();   ///< checker parameters
  nlohmann::json expect = nlohmann::json::object();  ///< author's assertions

  const Model& model() const { return models.front(); }

  /// A checker parameter of the check block (validated at load time), or
  /// `fallback` when absent. Accepts JSON integers and exact strings.
  std::uint64_t check_count(const std::string& key, std::uint64_t fallback) const;
  Rational check_rational(const std::string& key, const Rational& fallback) const;
  /// A boolean checker parameter (a JSON true/false), or `fallback`.
  bool check_flag(const std::string& key, bool fallback) const;
};

/// A family of long inputs x for the two-layer simulation checks
/// (check.simulation_inputs): "uniform", "rate:1/K" (each token 1 with
/// probability 1/K, else 0), "single" (one 1 among 0s) or "last" (0s, then a
/// 1 at the last position).
struct InputFamily {
  enum class Kind { Uniform, Rate, Single, Last } kind = Kind::Uniform;
  std::uint64_t inverse_rate = 0;  ///< K for Rate
  std::string name;                ///< as written
};
/// The family a string names, or nullopt.
std::optional<InputFamily> parse_input_family(const std::string& text);

constexpr const char* kCaseFormat = "lgcheck-case/1";

/// Read and validate a case file (model or pair). Throws CaseError.
Case load_case(const std::filesystem::path& file);

/// The JSON document of a file, read as a case is: refused (CaseError naming
/// the file) when it is not a regular file, exceeds the size cap, is not
/// valid JSON or repeats a key in an object (the error names its JSON path).
nlohmann::json parse_json_file(const std::filesystem::path& file);
/// Validate a case given as JSON; `file` is used in messages and to resolve
/// the relative paths of a pair.
Case parse_case(const nlohmann::json& document, const std::filesystem::path& file);
/// Validate one model object; `json_path` prefixes every message ("" at top).
Model parse_model(const nlohmann::json& object, const std::string& file, const std::string& json_path);

/// The model as a `lgcheck-case/1` model object, every number a string.
nlohmann::json model_to_json(const Model& model);
/// The case as a document: a model case, or a pair case with inline models.
nlohmann::json case_to_json(const Case& c);
/// Write the case, formatted, to `file`; written to a temporary file and
/// renamed, so a failure never leaves a partial file.
void save_case(const Case& c, const std::filesystem::path& file);

/// Exact rational from a JSON value (string literal or integer); refuses a
/// JSON float with a message that says to quote it.
Rational json_rational(const nlohmann::json& value, const std::string& file, const std::string& json_path);

}  // namespace lgc
