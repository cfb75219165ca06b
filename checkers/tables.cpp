#include "tables.hpp"

#include "case_models.hpp"
#include "lgcheck/bounds/theorem41.hpp"
#include "lgcheck/numeric/interval.hpp"
#include "lgcheck/quantities/distance.hpp"

#include <fmt/format.h>

namespace lgc {
namespace {

struct Family {
  std::string label, file;
  std::uint64_t witness_n = 0;  ///< Farey order, 0 if not a witness
};

std::vector<Family> t41_families() {
  std::vector<Family> f;
  for (int p : {2, 3, 5, 7})
    f.push_back({"ModPTask p=" + std::to_string(p), "pairs/modp_p" + std::to_string(p) + "_perturbed_pair.json", 0});
  for (int w : {1, 2, 4, 8})
    f.push_back({"SimpleTask w=" + std::to_string(w), "pairs/simple_w" + std::to_string(w) + "_sin_vs_relu.json", 0});
  for (std::uint64_t n : {4u, 8u, 16u, 32u})
    f.push_back({"Farey-hat n=" + std::to_string(n), "witnesses/farey_hat_n" + std::to_string(n) + ".json", n});
  return f;
}

std::string ratio(const Integer& a, const std::optional<std::uint64_t>& b) {
  if (!b) return "-";
  return to_decimal(Rational(a, Integer(*b)), 3);
}

}  // namespace

std::vector<std::string> table_names() { return {"t41"}; }

Table table_t41(const std::filesystem::path& cases_dir, unsigned precision_bits) {
  Table t;
  t.name = "t41";
  t.caption = fmt::format("Theorem 4.1: the paper's N against the toolkit's constructive N_sim, the measured threshold "
                          "N_emp and the Farey-hat lower bound (p = {} bits)",
                          precision_bits);
  t.columns = {"family", "eps", "gamma", "L", "2^(p/gamma)", "N_paper", "N_paper_unloosened", "N_sim", "N_emp",
               "witness >=", "N_paper/N_emp", "N_sim/N_emp"};
  for (const auto& fam : t41_families()) {
    Case c = load_case(cases_dir / fam.file);
    CaseModels cm = section4_models(c);
    const std::uint64_t reach = c.check_count("max_length", 24);
    DistanceCurve curve = distance_curve(*cm.models[0], *cm.models[1], reach);
    for (Rational eps : {Rational(1, 10), Rational(1, 20), Rational(1, 100)}) {
      Theorem41Bounds b = theorem41_bounds(cm.models, eps, precision_bits);
      std::optional<std::uint64_t> n_emp = measured_threshold(curve, eps);
      std::string gamma = b.gamma ? to_string(*b.gamma) : "inf";
      std::string witness = fam.witness_n ? std::to_string(fam.witness_n + 1) : "-";
      t.rows.push_back({fam.label, to_string(eps), gamma, to_string(b.L), b.threshold.str(), b.N_paper.str(),
                        b.N_paper_unloosened.str(), b.sim.N.str(), n_emp ? std::to_string(*n_emp) : "-", witness,
                        ratio(b.N_paper, n_emp), ratio(b.sim.N, n_emp)});
      t.exact.push_back({{"family", fam.label},
                         {"case", c.name},
                         {"epsilon", to_string(eps)},
                         {"gamma", gamma},
                         {"L", to_string(b.L)},
                         {"threshold", b.threshold.str()},
                         {"N_paper", b.N_paper.str()},
                         {"N_paper_unloosened", b.N_paper_unloosened.str()},
                         {"N_sim", b.sim.N.str()},
                         {"N_emp", n_emp ? nlohmann::json(*n_emp) : nlohmann::json(nullptr)},
                         {"N_emp_searched_to", curve.reached},
                         {"witness_lower_bound", fam.witness_n ? nlohmann::json(fam.witness_n + 1) : nlohmann::json(nullptr)}});
    }
  }
  t.notes = {"N_paper = ceil(c * max{2^(p/gamma), L^2 D^7 S^6 tau_hat^2 / eps^2}) with c = 1; the unloosened variant "
             "uses (S^3 + tau_hat)^2. N_sim is the toolkit's proven bound (docs/theory.md, the simulation construction).",
             "N_emp(eps) = min{n : D(n) > eps}, D computed exactly up to the case's max_length; '-' where D stays <= eps "
             "there (the ModPTask pairs differ by 1/100 and the SimpleTask pairs by the interpolation error, below every "
             "eps here).",
             "witness >=: a Farey-hat pair of order n agrees on every input of length <= n, so no N below n + 1 is valid "
             "for it (T4.1.witness)."};
  return t;
}

std::string render_markdown(const Table& t) {
  std::string out = "**" + t.caption + "**\n\n|";
  for (const auto& c : t.columns) out += " " + c + " |";
  out += "\n|";
  for (std::size_t k = 0; k < t.columns.size(); ++k) out += k == 0 ? "---|" : "---:|";
  out += "\n";
  for (const auto& row : t.rows) {
    out += "|";
    for (const auto& cell : row) out += " " + cell + " |";
    out += "\n";
  }
  out += "\n";
  for (const auto& n : t.notes) out += "- " + n + "\n";
  return out;
}

std::string render_json(const Table& t) {
  return nlohmann::json({{"table", t.name}, {"caption", t.caption}, {"rows", t.exact}, {"notes", t.notes}}).dump(2) + "\n";
}

}  // namespace lgc
