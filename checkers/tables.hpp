#pragma once
// Tables computed from the bundled cases (docs/tables/), never typed in.
#include <nlohmann/json.hpp>

#include <filesystem>
#include <string>
#include <vector>

namespace lgc {

struct Table {
  std::string name, caption;
  std::vector<std::string> columns;
  std::vector<std::vector<std::string>> rows;  ///< display text
  nlohmann::json exact = nlohmann::json::array();  ///< one object per row, exact values
  std::vector<std::string> notes;
};

/// t41: Theorem 4.1's bounds against the measured threshold and the witness
/// lower bound, on the bundled ModPTask, SimpleTask and Farey-hat pairs.
Table table_t41(const std::filesystem::path& cases_dir, unsigned precision_bits);

/// sim_lengths: on small inputs, the construction's formula N_sim against the
/// length it produces and the shortest z that works (formula >= produced >=
/// optimal).
Table table_sim_lengths(const std::filesystem::path& cases_dir);

/// t52: C(f) of the k-gram construction against eps, with N_variant_A/B.
Table table_t52();

/// The table called `name` (see table_names()).
Table make_table(const std::string& name, const std::filesystem::path& cases_dir, unsigned precision_bits);

std::string render_markdown(const Table& t);
std::string render_json(const Table& t);

/// The names of the tables `lgcheck table` knows.
std::vector<std::string> table_names();

}  // namespace lgc
