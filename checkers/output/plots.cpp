#include "output/plots.hpp"

#include "claims/case_models.hpp"
#include "lgcheck/bounds/theorem41.hpp"
#include "lgcheck/bounds/theorem52.hpp"
#include "lgcheck/quantities/distance.hpp"
#include "lgcheck/quantities/layer2_integrands.hpp"
#include "lgcheck/tasks/kgram.hpp"
#include "claims/section5/section5.hpp"
#include "output/tables.hpp"

#include <fmt/format.h>

#include <cmath>
#include <cstdio>
#include <fstream>
#include <stdexcept>
#include <unistd.h>

namespace lgc {
namespace {

std::string decimal(const Integer& n) { return to_decimal(Rational(n), 8); }

Plot plot_frame(std::string name, std::string title, std::string xlabel, std::string ylabel, bool log_x, bool log_y) {
  Plot p;
  p.name = std::move(name);
  p.title = std::move(title);
  p.xlabel = std::move(xlabel);
  p.ylabel = std::move(ylabel);
  p.log_x = log_x;
  p.log_y = log_y;
  return p;
}

/// Theorem 4.1's N_paper, N_paper_sum_form and N_sim at ε = 1/10 (p = 8)
/// over pair cases, against the parameter values xs.
Plot theorem41_plot(const std::filesystem::path& cases_dir, const std::string& name, const std::string& title,
                    const std::string& xlabel, const std::vector<std::string>& xs,
                    const std::vector<std::string>& files) {
  Plot p = plot_frame(name, title, xlabel, "length bound N", true, true);
  PlotSeries paper{"N_paper (the paper's bound, c = 1)", {}}, loose{"N_paper, sum form (S^3 + tau)^2", {}},
      sim{"N_sim (the toolkit's constructive bound)", {}};
  for (std::size_t k = 0; k < files.size(); ++k) {
    const Case c = load_case(cases_dir / files[k]);
    const CaseModels cm = section4_models(c);
    const Theorem41Bounds b = theorem41_bounds(cm.models, Rational(1, 10), 8);
    paper.points.emplace_back(xs[k], decimal(b.N_paper));
    loose.points.emplace_back(xs[k], decimal(b.N_paper_sum_form));
    sim.points.emplace_back(xs[k], decimal(b.sim.N));
  }
  p.series = {paper, loose, sim};
  return p;
}

Plot farey_plot(const std::filesystem::path& cases_dir) {
  Plot p = plot_frame("n_vs_farey", "Farey-hat witness pairs of order n, eps = 1/10: bounds against the measured threshold",
         "Farey order n (the pair agrees on every input of length <= n)", "length N", true, true);
  PlotSeries paper{"N_paper (the paper's bound, c = 1)", {}}, sim{"N_sim (the toolkit's constructive bound)", {}},
      measured{"N_emp (measured: first n with D(n) > eps)", {}}, witness{"witness lower bound n + 1", {}, "lines dt 2"};
  for (int n : {4, 8, 16, 32}) {
    const Case c = load_case(cases_dir / ("witnesses/farey_hat_n" + std::to_string(n) + ".json"));
    const CaseModels cm = section4_models(c);
    const Theorem41Bounds b = theorem41_bounds(cm.models, Rational(1, 10), 8);
    const DistanceCurve curve = distance_curve(*cm.models[0], *cm.models[1], c.check_count("max_length", 2 * n));
    const auto emp = measured_threshold(curve, Rational(1, 10));
    const std::string x = std::to_string(n);
    paper.points.emplace_back(x, decimal(b.N_paper));
    sim.points.emplace_back(x, decimal(b.sim.N));
    if (emp) measured.points.emplace_back(x, std::to_string(*emp));
    witness.points.emplace_back(x, std::to_string(n + 1));
  }
  p.series = {paper, sim, measured, witness};
  return p;
}

/// The margin sweep (table margin) against 1/gamma at p = 4: the witness
/// family's first differing length (ceil(2^(p/gamma)) by its lemma; exact
/// D(n) where reached) and the counter-family's threshold.
Plot margin_plot() {
  Plot p = plot_frame("n_vs_inverse_margin",
                      "The margin question at p = 4: the length a bound must reach against 1/gamma",
                      "1/gamma (inverse logit margin)", "length N", true, true);
  PlotSeries bound{"ceil(2^(p/gamma)) = the margin witness's N (its lemma)", {}, "lines dt 2"},
      exact{"margin witness: N_emp, exact D(n)", {}, "points pt 7 ps 1.2"},
      counter{"margin counter: N_emp (finite:p = hardmax from here)", {}};
  for (const MarginSweepRow& r : margin_sweep()) {
    if (r.p != 4) continue;
    const std::string x = to_decimal(Rational(1) / r.gamma, 8);
    if (r.family == "margin witness") {
      bound.points.emplace_back(x, decimal(r.threshold));
      if (r.N_emp) exact.points.emplace_back(x, std::to_string(*r.N_emp));
    } else if (r.N_emp) {
      counter.points.emplace_back(x, std::to_string(*r.N_emp));
    }
  }
  p.series = {bound, exact, counter};
  return p;
}

Plot kgram_plot() {
  Plot p = plot_frame("n_vs_k", "In-context k-gram construction (S = 4, rho = 1/4, eps = 1/2): Theorem 5.2's bounds with C(f)",
         "k (context length)", "length bound N, and C(f)", false, true);
  PlotSeries a{"N_variant_A = ceil((C/eps)^max(1/gamma,3)) (conditional)", {}}, b{"N_variant_B = ceil(C eps^-max(1/gamma,3))", {}},
      c{"C(f) (upper end)", {}, "linespoints dt 3"};
  const Rational eps(1, 2), rho(1, 4);
  for (std::size_t k = 1; k <= 3; ++k) {
    const KgramParameters kp = kgram_parameters(eps, rho, k);
    const ComplexityConstant C = complexity_constant(kgram_model(4, k, kp.beta, kp.lambda));
    const Theorem52Bounds bounds = theorem52_bounds({C}, eps);
    a.points.emplace_back(std::to_string(k), decimal(bounds.N_variant_A));
    b.points.emplace_back(std::to_string(k), decimal(bounds.N_variant_B));
    c.points.emplace_back(std::to_string(k), to_decimal(C.C.upper(), 8));
  }
  p.series = {a, b, c};
  p.x_tics = "1";
  return p;
}

Plot subsample_plot(const std::filesystem::path& cases_dir) {
  Plot p = plot_frame("subsample", "Lemma 5.3 on the induction head: statistic error of the subsampled z against its length",
         "length of z", "statistic error max_p |avg_x p - avg_z p|", true, true);
  const Case c = load_case(cases_dir / "paper/induction/induction_head_k1.json");
  const Model& m = c.model();
  const SoftmaxFirstLayer layer(m);
  std::mt19937_64 rng(7);
  const Tokens x = noisy_periodic_input(m.alphabet_size(), 10000, rng);
  const StatisticAverages stats(layer, x);
  const ErrorCurve curve = subsample_error_curve(x, {30, 100, 300, 1000, 3000}, 4, m, [&](const Tokens& z) {
    return upper_of(stats.error(z)).convert_to<double>();
  });
  PlotSeries measured{fmt::format("measured (mean of seeds 1-4, |x| = 10^4), slope {:.2f}", curve.slope), {}};
  PlotSeries reference{"reference n^(-1/3) through the first point", {}, "lines dt 2"};
  const double anchor = curve.points.front().error * std::cbrt(curve.points.front().length);
  for (const auto& point : curve.points) {
    measured.points.emplace_back(fmt::format("{:.1f}", point.length), fmt::format("{:.6g}", point.error));
    reference.points.emplace_back(fmt::format("{:.1f}", point.length),
                                  fmt::format("{:.6g}", anchor / std::cbrt(point.length)));
  }
  p.series = {measured, reference};
  return p;
}

Plot distance_plot(const std::filesystem::path& cases_dir) {
  Plot p = plot_frame("distance", "D(n) = max over |x| <= n of |f(x) - g(x)| (exact) for pair cases", "n (input length)",
         "D(n)", false, false);
  p.x_tics = "4";
  for (const std::string file : {"witnesses/farey_hat_n4.json", "witnesses/farey_hat_n8.json",
                                 "witnesses/farey_hat_n16.json", "pairs/modp_p2_perturbed_pair.json"}) {
    const Case c = load_case(cases_dir / file);
    const CaseModels cm = section4_models(c);
    const DistanceCurve curve = distance_curve(*cm.models[0], *cm.models[1], 24);
    PlotSeries s{c.name, {}, "steps"};
    for (std::size_t n = 1; n <= curve.reached; ++n) s.points.emplace_back(std::to_string(n), to_decimal(upper_of(curve.D[n - 1]), 8));
    p.series.push_back(s);
  }
  return p;
}

std::string quoted(const std::string& text) {
  std::string out = "\"";
  for (char c : text) {
    if (c == '"' || c == '\\') out += '\\';
    out += c;
  }
  return out + "\"";
}

}  // namespace

std::vector<std::string> plot_names() {
  return {"n_vs_omega", "n_vs_delta", "n_vs_k", "n_vs_farey", "n_vs_inverse_margin", "subsample", "distance"};
}

Plot make_plot(const std::string& name, const std::filesystem::path& cases_dir) {
  if (name == "n_vs_omega")
    return theorem41_plot(cases_dir, name, "SimpleTask (sin vs relu readout), eps = 1/10: Theorem 4.1's N against omega",
                          "omega (frequency of the task)", {"1", "2", "4", "8"},
                          {"pairs/simple_w1_sin_vs_relu.json", "pairs/simple_w2_sin_vs_relu.json",
                           "pairs/simple_w4_sin_vs_relu.json", "pairs/simple_w8_sin_vs_relu.json"});
  if (name == "n_vs_delta")
    return theorem41_plot(cases_dir, name, "ModPTask perturbed pairs, eps = 1/10: Theorem 4.1's N against the period",
                          "Delta = p (period of the task)", {"2", "3", "5", "7"},
                          {"pairs/modp_p2_perturbed_pair.json", "pairs/modp_p3_perturbed_pair.json",
                           "pairs/modp_p5_perturbed_pair.json", "pairs/modp_p7_perturbed_pair.json"});
  if (name == "n_vs_k") return kgram_plot();
  if (name == "n_vs_farey") return farey_plot(cases_dir);
  if (name == "n_vs_inverse_margin") return margin_plot();
  if (name == "subsample") return subsample_plot(cases_dir);
  if (name == "distance") return distance_plot(cases_dir);
  throw std::invalid_argument("unknown plot '" + name + "'");
}

std::string gnuplot_script(const Plot& plot, const std::filesystem::path& out) {
  const std::string ext = out.extension().string();
  std::string s;
  if (ext == ".svg") s += "set terminal svg size 900,600 dynamic enhanced font 'sans,13' background rgb 'white'\n";
  else if (ext == ".png") s += "set terminal pngcairo size 900,600 enhanced font 'sans,11'\n";
  else throw std::invalid_argument("plot output must end in .svg or .png, got '" + out.string() + "'");
  s += "set output " + quoted(out.string()) + "\n";
  s += "set title " + quoted(plot.title) + " noenhanced\n";
  s += "set xlabel " + quoted(plot.xlabel) + " noenhanced\nset ylabel " + quoted(plot.ylabel) + " noenhanced\n";
  if (plot.log_x) s += "set logscale x\n";
  if (plot.log_y) s += "set logscale y\nset format y '10^{%T}'\n";
  s += "set key outside bottom center horizontal maxrows 2 noenhanced\nset grid\n";
  if (plot.log_x) s += "set offsets graph 0.05, graph 0.05, 0, 0\n";
  else s += "set xrange [0:*]\nset offsets 0, graph 0.05, 0, 0\n";
  if (!plot.x_tics.empty()) s += "set xtics " + plot.x_tics + "\n";
  for (std::size_t k = 0; k < plot.series.size(); ++k) {
    s += fmt::format("$d{} << EOD\n", k);
    for (const auto& [x, y] : plot.series[k].points) s += x + " " + y + "\n";
    s += "EOD\n";
  }
  s += "plot ";
  for (std::size_t k = 0; k < plot.series.size(); ++k)
    s += fmt::format("{}$d{} using 1:2 with {} lw 2 title {}", k ? ", \\\n     " : "", k, plot.series[k].style,
                     quoted(plot.series[k].label));
  return s + "\nunset output\n";
}

void render_plot(const Plot& plot, const std::filesystem::path& out) {
  std::filesystem::path partial = out;
  partial += ".partial" + out.extension().string();
  const std::filesystem::path script = std::filesystem::temp_directory_path() /
                                       fmt::format("lgcheck-plot-{}-{}.gp", plot.name, static_cast<long>(::getpid()));
  {
    std::ofstream f(script);
    f << gnuplot_script(plot, partial);
    if (!f) throw std::runtime_error("cannot write the gnuplot script " + script.string());
  }
  const std::string command = "gnuplot " + script.string() + " 2>&1";
  std::string output;
  FILE* pipe = ::popen(command.c_str(), "r");
  if (!pipe) throw std::runtime_error("cannot run gnuplot");
  char buffer[512];
  while (std::fgets(buffer, sizeof buffer, pipe)) output += buffer;
  const int status = ::pclose(pipe);
  std::filesystem::remove(script);
  if (status != 0) {
    std::filesystem::remove(partial);
    if (WIFEXITED(status) && WEXITSTATUS(status) == 127)
      throw std::runtime_error("gnuplot is not installed (make deps installs gnuplot-nox)");
    throw std::runtime_error("gnuplot failed: " + output);
  }
  std::filesystem::rename(partial, out);
}

}  // namespace lgc
