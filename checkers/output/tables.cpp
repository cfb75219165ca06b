#include "output/tables.hpp"

#include "claims/case_models.hpp"
#include "output/cli_output.hpp"
#include "lgcheck/bounds/theorem41.hpp"
#include "claims/agreement.hpp"
#include "lgcheck/enumerate/ordered_search.hpp"
#include "lgcheck/numeric/interval.hpp"
#include "lgcheck/quantities/logit_margin.hpp"
#include "lgcheck/semantics/finite_precision.hpp"
#include "lgcheck/tasks/paper_tasks.hpp"
#include "lgcheck/quantities/distance.hpp"
#include "lgcheck/simulate/simulation_error.hpp"

#include <random>

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
  f.push_back({"ModPTask p=2, two patterns", "pairs/modp_p2_two_pattern_pair.json", 0});  // one of one value
  f.push_back({"ModPTask p=2, other residues", "pairs/modp_p2_other_residues_pair.json", 0});  // the general N_sim
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

MeasuredThreshold measure_threshold(const OneLayerEvaluator& m, unsigned p, std::uint64_t t) {
  MeasuredThreshold r;
  for (std::uint64_t T = t - 1; T >= 1; --T) {
    // Over the threads: the first differing statistic in enumeration order,
    // and the undecided ones before it, as one thread would count them.
    OrdinalLog<bool> unknown;
    const auto first = first_statistic_where(m.shape(), T, 0, [&](const Statistic& s, std::uint64_t ordinal) {
      QVector exact = m.representation(s);
      Agreement a = agreement(Vector<Number>(exact.begin(), exact.end()), m.representation_finite(s, p));
      if (a == Agreement::Unknown) unknown.add(ordinal, true);
      return a == Agreement::Different;
    });
    const std::uint64_t upto = first ? *first : statistic_count(m.shape(), T) - 1;
    r.statistics += upto + 1;
    r.undecided += unknown.up_to(upto).size();
    if (first) {
      r.first_equal = T + 1;
      return r;
    }
  }
  return r;
}

Table table_threshold() {
  Table t;
  t.name = "threshold";
  t.caption = "Theorem 4.1's hardmax threshold: finite:p equals hardmax at every query position T >= "
              "ceil(2^(p/gamma)), and already from ceil(2^(p/gamma_V)) on (the value-aware margin, one-layer models); "
              "measured: 1 + the last length below that with a certified difference";
  t.columns = {"task",     "gamma",    "gamma_V", "p", "ceil(2^(p/gamma))", "ceil(2^(p/gamma_V))",
               "measured", "measured/ceil(2^(p/gamma))", "statistics compared"};
  struct Row {
    std::string task;
    Model model;
    unsigned p;
  };
  std::vector<Row> rows;
  auto modp = [&](std::size_t period, const Rational& margin, unsigned p) {
    rows.push_back({"ModPTask Delta=" + std::to_string(period), modp_task(period, Semantics::finite(p), margin), p});
  };
  for (unsigned p = 1; p <= 6; ++p) modp(2, 1, p);
  for (unsigned p = 1; p <= 3; ++p) modp(2, Rational(1, 2), p);
  for (unsigned p = 1; p <= 5; ++p) modp(3, 1, p);
  for (unsigned p : {4u, 6u})
    for (const Rational& gamma : {Rational(1, 4), Rational(1, 8), Rational(1, 16)})
      rows.push_back({"margin counter", margin_counter(gamma, Semantics::finite(p)), p});
  for (const Row& row : rows) {
    const OneLayerEvaluator m(row.model);
    const Rational gamma = *logit_margin(row.model).gamma, gamma_v = *value_margin(row.model).gamma;
    const Integer bound = hardmax_threshold(row.p, gamma), value_bound = hardmax_threshold(row.p, gamma_v);
    // From ceil(2^(p/gamma_V)) on finite:p equals hardmax (docs/theory.md, "The margin question"): search below it.
    const MeasuredThreshold measured = measure_threshold(m, row.p, value_bound.convert_to<std::uint64_t>());
    t.rows.push_back({row.task, to_string(gamma), to_string(gamma_v), std::to_string(row.p), bound.str(),
                      value_bound.str(), std::to_string(measured.first_equal),
                      to_decimal(Rational(Integer(measured.first_equal)) / Rational(bound), 3),
                      std::to_string(measured.statistics)});
    t.exact.push_back({{"task", row.task},
                       {"period", row.model.period},
                       {"gamma", to_string(gamma)},
                       {"gamma_V", to_string(gamma_v)},
                       {"p", row.p},
                       {"threshold", bound.str()},
                       {"value_threshold", value_bound.str()},
                       {"measured", measured.first_equal},
                       {"statistics", measured.statistics},
                       {"undecided", measured.undecided}});
  }
  t.notes = {"threshold = hardmax_threshold(p, gamma), the least t with t^gamma >= 2^p (docs/theory.md); gamma is the "
             "logit margin of the model (ModPTask built with that margin, gen modp --margin; the counter-family, gen "
             "margin-counter --gamma).",
             "gamma_V: the value-aware margin (value_margin), the least gap l* - l between attainable logits such that "
             "the keys with logits in [l, l*] do not all carry one value; finite:p equals hardmax from "
             "ceil(2^(p/gamma_V)) <= ceil(2^(p/gamma)) on (proved, docs/theory.md).",
             "measured: 1 + the largest T below ceil(2^(p/gamma_V)) at which some statistic's last-position "
             "representation under finite:p differs, certified, from hardmax (every statistic of each length, searched "
             "downward); agreement from ceil(2^(p/gamma_V)) on is the proved claim, not searched. On the "
             "counter-family it stays near 2^p while ceil(2^(p/gamma)) grows like 2^(p/gamma): the margin is not what "
             "limits it (docs/theory.md, The margin question)."};
  return t;
}

std::vector<std::string> table_names() {
  return {"t41", "threshold", "margin", "t42", "t52", "scaling", "sim_lengths", "teeth"};
}

Table make_table(const std::string& name, const std::filesystem::path& cases_dir, unsigned precision_bits) {
  if (name == "t41") return table_t41(cases_dir, precision_bits);
  if (name == "threshold") return table_threshold();
  if (name == "margin") return table_margin();
  if (name == "t42") return table_t42(cases_dir);
  if (name == "t52") return table_t52();
  if (name == "scaling") return table_scaling(cases_dir, precision_bits);
  if (name == "sim_lengths") return table_sim_lengths(cases_dir);
  if (name == "teeth") return table_teeth(cases_dir);
  throw std::invalid_argument("unknown table '" + name + "'");
}

Table table_sim_lengths(const std::filesystem::path& cases_dir) {
  Table t;
  t.name = "sim_lengths";
  t.caption = "Theorem 4.1 construction on small inputs: the bound N_sim, the length it produces, and the shortest z "
              "that works (exhaustive search)";
  t.columns = {"case", "eps", "length of x", "N_sim", "produced length of z", "optimal length of z"};
  const std::vector<std::string> files = {"paper/modp/modp_p2_hardmax.json", "paper/modp/modp_p3_hardmax.json",
                                          "pairs/simple_w2_sin_vs_relu.json", "witnesses/farey_hat_n4.json"};
  for (const auto& file : files) {
    Case c = load_case(cases_dir / file);
    CaseModels cm = section4_models(c);
    const Shape shape = cm.models.front()->shape();
    for (Rational eps : {Rational(1, 4), Rational(1, 20)}) {
      Theorem41Bounds b = theorem41_bounds(cm.models, eps, 0);
      std::mt19937_64 rng(7);
      for (std::uint64_t length : {24u, 48u}) {
        Statistic x = random_statistic(shape, length, rng);
        Simulation sim = simulate(cm.models, x, b.delta);
        std::optional<Statistic> best = shortest_simulation(cm.models, x, eps, 0, sim.z.length);
        std::string optimal = best ? std::to_string(best->length) : "-";
        t.rows.push_back({c.name, to_string(eps), std::to_string(x.length), b.sim.N.str(), std::to_string(sim.z.length),
                          optimal});
        t.exact.push_back({{"case", c.name},
                           {"epsilon", to_string(eps)},
                           {"x", statistic_to_json(x)},
                           {"N_sim", b.sim.N.str()},
                           {"produced", sim.z.length},
                           {"optimal", best ? nlohmann::json(best->length) : nlohmann::json(nullptr)}});
      }
    }
  }
  t.notes = {"x: random statistics (seed 7) of lengths 24 and 48; produced: the construction of docs/theory.md at "
             "delta = eps/L; optimal: the shortest statistic with the same window and residue and every model within eps "
             "(exhaustive, up to the produced length).",
             "On short inputs the construction keeps x almost whole: its resolution Q is sized for the worst long input, "
             "while the optimum exploits the particular x."};
  return t;
}

Table table_t41(const std::filesystem::path& cases_dir, unsigned precision_bits) {
  Table t;
  t.name = "t41";
  t.caption = fmt::format("Theorem 4.1: the paper's N against the toolkit's constructive N_sim, the measured threshold "
                          "N_emp and the Farey-hat lower bound (p = {} bits)",
                          precision_bits);
  t.columns = {"family", "eps", "gamma", "L", "2^(p/gamma)", "N_paper", "N_paper_sum_form", "N_sim", "N_emp",
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
                        b.N_paper_sum_form.str(), b.sim.N.str(), n_emp ? std::to_string(*n_emp) : "-", witness,
                        ratio(b.N_paper, n_emp), ratio(b.sim.N, n_emp)});
      t.exact.push_back({{"family", fam.label},
                         {"case", c.name},
                         {"epsilon", to_string(eps)},
                         {"gamma", gamma},
                         {"L", to_string(b.L)},
                         {"threshold", b.threshold.str()},
                         {"N_paper", b.N_paper.str()},
                         {"N_paper_sum_form", b.N_paper_sum_form.str()},
                         {"N_sim", b.sim.N.str()},
                         {"N_emp", n_emp ? nlohmann::json(*n_emp) : nlohmann::json(nullptr)},
                         {"N_emp_searched_to", curve.reached},
                         {"witness_lower_bound", fam.witness_n ? nlohmann::json(fam.witness_n + 1) : nlohmann::json(nullptr)}});
    }
  }
  t.notes = {"N_paper = ceil(c * max{2^(p/gamma), L^2 D^7 S^6 tau_hat^2 / eps^2}) with c = 1; N_paper_sum_form "
             "uses (S^3 + tau_hat)^2 in place of S^6 tau_hat^2 (larger for small tau, smaller for large tau). N_sim is the toolkit's proven bound (docs/theory.md, the simulation construction).",
             "N_emp(eps) = min{n : D(n) > eps}, D computed exactly up to the case's max_length; '-' where D stays <= eps "
             "there (the ModPTask pairs differ by 1/100 and the SimpleTask pairs by the interpolation error, below every "
             "eps here).",
             "witness >=: a Farey-hat pair of order n agrees on every input of length <= n, so no N below n + 1 is valid "
             "for it (T4.1.witness)."};
  return t;
}

}  // namespace lgc
