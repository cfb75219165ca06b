#pragma once
// Plots computed like the tables (from the bundled cases and the toolkit's
// builders), rendered by gnuplot to SVG or PNG. The data are exact values
// printed in decimal; the rendering is display only.
#include <filesystem>
#include <string>
#include <vector>

namespace lgc {

struct PlotSeries {
  std::string label;
  std::vector<std::pair<std::string, std::string>> points;  ///< (x, y) in decimal
  std::string style = "linespoints";                          ///< gnuplot "with" style
};

struct Plot {
  std::string name, title, xlabel, ylabel;
  bool log_x = false, log_y = false;
  std::vector<PlotSeries> series;
  std::string x_tics;  ///< gnuplot's xtics increment ("" = automatic)
};

/// The names `lgcheck plot` knows, and the plot called `name`.
std::vector<std::string> plot_names();
Plot make_plot(const std::string& name, const std::filesystem::path& cases_dir);

/// A self-contained gnuplot script (data inline) drawing the plot into `out`;
/// the terminal follows the extension: .svg (svg) or .png (pngcairo).
std::string gnuplot_script(const Plot& plot, const std::filesystem::path& out);

/// Runs gnuplot on the script; throws std::runtime_error when gnuplot is
/// missing or fails (its message included). The output is written to a
/// temporary file and renamed, so a failure leaves no partial file.
void render_plot(const Plot& plot, const std::filesystem::path& out);

}  // namespace lgc
