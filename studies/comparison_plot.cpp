// Plots of `contactlab compare`: a gnuplot script per scene with its data
// inline (datablocks), kept next to the PNGs so a user can restyle and rerun
// it (`cd DIR && gnuplot plot_SCENE.gp`).
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <map>
#include <sstream>

#include "studies/comparison_plot.hpp"

#include "io/output_file.hpp"

namespace contactlab {

namespace {

// Single-quoted for the shell.
std::string shell_quote(const std::string& s) {
  std::string q = "'";
  for (char c : s) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

// Double-quoted for gnuplot (titles may hold '@' and '+'; escape '"' and '\').
std::string gp_string(const std::string& s) {
  std::string q = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\') q += '\\';
    q += c;
  }
  return q + "\"";
}

// Enhanced text for the 10^{n} tick labels; names (with '_') are noenhanced.
const char* kTerminal = "set terminal pngcairo size 960,720 font 'sans,10' enhanced\n";

std::string fmt_g(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%g", v);
  return buf;
}

std::string solver_of(const std::string& combo) { return combo.substr(combo.rfind('+') + 1); }
std::string scheme_of(const std::string& combo) { return combo.substr(0, combo.find('+')); }

// A combination's legend entry: its name, and the time steps of its flagged runs.
std::string legend_title(const std::string& combo, const std::map<std::string, std::string>& flagged_dts) {
  const auto it = flagged_dts.find(combo);
  return it == flagged_dts.end() ? combo : combo + " (flagged at dt " + it->second + ")";
}

// One curve per combination of a per-run value against dt (log-log); empty
// when no run has a positive value. `value` returns NaN where there is none.
// Runs with flags (flag_runs: not converged, did not move, penetrated) are
// circled, and their combination's legend entry lists their time steps, so a
// curve that looks good for a wrong reason says so on the figure itself.
std::string per_dt_plot(const SceneComparison& sc, const std::string& output, const std::string& title,
                        const std::string& ylabel, double (*value)(const ComparisonRun&)) {
  std::vector<std::string> combos;
  std::map<std::string, std::vector<std::pair<double, double>>> points;
  std::map<std::string, std::string> flagged_dts;  // combo -> "0.01, 0.05"
  std::vector<std::pair<double, double>> flagged_points;
  for (const ComparisonRun& r : sc.runs) {
    if (!points.count(r.combo)) combos.push_back(r.combo), points[r.combo];
    if (r.ok && !r.flags.empty()) {
      std::string& dts = flagged_dts[r.combo];
      dts += (dts.empty() ? "" : ", ") + fmt_g(r.dt);
    }
    // log axes: an exact 0 (the reference run's own combo@dt) cannot be drawn.
    const double v = value(r);
    if (r.ok && std::isfinite(v) && v > 0) {
      points[r.combo].emplace_back(r.dt, v);
      if (!r.flags.empty()) flagged_points.emplace_back(r.dt, v);
    }
  }
  std::ostringstream gp, plot;
  gp.precision(9);
  std::map<std::string, int> scheme_dash;
  int curves = 0;
  const std::string tag = output.substr(0, output.find('_'));  // data block names unique per plot
  for (size_t i = 0; i < combos.size(); ++i) {
    const auto& pts = points[combos[i]];
    if (pts.empty()) continue;
    gp << "$" << tag << i << " << EOD\n";
    for (const auto& p : pts) gp << p.first << ' ' << p.second << '\n';
    gp << "EOD\n";
    // Colour and marker per combination, dash pattern per scheme.
    const std::string scheme = scheme_of(combos[i]);
    if (!scheme_dash.count(scheme)) scheme_dash[scheme] = static_cast<int>(scheme_dash.size()) + 1;
    plot << (curves++ ? ", \\\n     " : "plot ") << "$" << tag << i << " using 1:2 with linespoints lw 1.5 lc "
         << (i % 8) + 1 << " pt " << (i % 13) + 1 << " dt " << scheme_dash[scheme] << " title "
         << gp_string(legend_title(combos[i], flagged_dts)) << " noenhanced";
  }
  if (!curves) return "";
  if (!flagged_points.empty()) {
    gp << "$" << tag << "flagged << EOD\n";
    for (const auto& p : flagged_points) gp << p.first << ' ' << p.second << '\n';
    gp << "EOD\n";
    plot << ", \\\n     $" << tag << "flagged using 1:2 with points pt 6 ps 2.2 lw 1.5 lc rgb 'black' title "
         << gp_string("flagged run (runs.csv: flags)") << " noenhanced";
  }
  double lo = 1e300, hi = 0;
  for (const auto& kv : points)
    for (const auto& p : kv.second) lo = std::min(lo, p.first), hi = std::max(hi, p.first);
  gp << kTerminal << "set output '" << output << "'\n"
     << "set title " << gp_string(title) << " noenhanced\nset xlabel 'time step dt [s]'\n"
     << "set ylabel " << gp_string(ylabel) << " noenhanced\n"
     << "set logscale xy\nset format x '%g'\nset format y '10^{%T}'\nset grid xtics ytics mxtics mytics\n"
     << "set xrange [" << lo / 1.25 << ":" << hi * 1.25 << "]\n"
     << "set key outside below center Left reverse maxcols 2 spacing 1.1 height 1\n"
     << plot.str() << "\nunset output\nreset\n";
  return gp.str();
}

// Error against dt (Ostrich's usable-step plot).
std::string error_plot(const SceneComparison& sc, const std::string& label) {
  std::string unit = "m", what = "error";
  if (sc.reference.kind == ErrorKind::Analytic) {
    unit = sc.reference.analytic.unit;
    what = "|" + sc.reference.analytic.quantity + " - analytic|";
  } else if (sc.reference.kind == ErrorKind::ReferenceRun) {
    what = "max position distance to " + sc.reference.run_label;
  }
  return per_dt_plot(sc, "error_vs_dt_" + label + ".png",
                     sc.label + ": error against time step (" + fmt_g(sc.duration) + " s simulated)",
                     what + " [" + unit + "]", [](const ComparisonRun& r) { return r.error; });
}

// Wall time per simulated second against dt: with error_vs_dt, the cost of an accuracy.
std::string wall_plot(const SceneComparison& sc, const std::string& label) {
  return per_dt_plot(sc, "wall_vs_dt_" + label + ".png", sc.label + ": wall time per simulated second",
                     "wall time / simulated time [s/s]", [](const ComparisonRun& r) { return r.wall_per_sim; });
}

// The residual-vs-iteration part; empty when no solver recorded a history.
std::string residual_plot(const SceneComparison& sc, const std::string& label) {
  std::ostringstream gp, plot;
  gp.precision(9);
  int curves = 0;
  for (size_t i : representative_runs(sc)) {
    const ComparisonRun& r = sc.runs[i];
    const size_t n = r.residual_history.size();
    std::ostringstream data;
    data.precision(9);
    int rows = 0;
    for (size_t k = 0; k < n; ++k) {
      if (!(r.residual_history[k] > 0) || !std::isfinite(r.residual_history[k])) continue;
      const long it = n == static_cast<size_t>(r.residual_iterations)
                          ? static_cast<long>(k + 1)
                          : std::lround(double(k + 1) * r.residual_iterations / n);
      data << it << ' ' << r.residual_history[k] << '\n';
      ++rows;
    }
    if (!rows) continue;
    gp << "$res" << i << " << EOD\n" << data.str() << "EOD\n";
    char title[256];
    std::snprintf(title, sizeof title, "%s (%s, dt %g s, step %ld: %d iterations)", solver_of(r.combo).c_str(),
                  r.combo.c_str(), r.dt, r.residual_step, r.residual_iterations);
    plot << (curves ? ", \\\n     " : "plot ") << "$res" << i << " using 1:2 with linespoints lw 1.5 pt 7 ps 0.5 lc "
         << curves + 1 << " title " << gp_string(title) << " noenhanced";
    ++curves;
  }
  if (!curves) return "";
  gp << kTerminal << "set output 'residual_vs_iteration_" << label << ".png'\n"
     << "set title " << gp_string(sc.label + ": solver residual at each solver's hardest step (most iterations)")
     << " noenhanced\nset xlabel 'iteration'\n"
     << "set ylabel \"residual (each solver's own stopping measure, see docs/compare.md)\" noenhanced\n"
     << "set logscale xy\nset format x '%g'\nset format y '10^{%T}'\nset grid xtics ytics mxtics mytics\n"
     << "set key outside below center Left reverse maxcols 1 height 1\n"
     << plot.str() << "\nunset output\nreset\n";
  return gp.str();
}

}  // namespace

bool gnuplot_available() { return std::system("command -v gnuplot >/dev/null 2>&1") == 0; }

bool plot_scene(const std::string& dir, const SceneComparison& sc, const std::string& label) {
  const std::string error_part = error_plot(sc, label), residual_part = residual_plot(sc, label),
                    wall_part = wall_plot(sc, label);
  if (error_part.empty())
    std::cerr << "note: " << sc.label << ": no run has a positive error, no error_vs_dt plot\n";
  if (residual_part.empty())
    std::cerr << "note: " << sc.label << ": no solver residual history, no residual_vs_iteration plot\n";
  const std::string script = "plot_" + label + ".gp";
  try {
    OutputFile gp(dir + "/" + script);
    *gp.open() << "# Generated by contactlab compare; rerun with: cd " << dir << " && gnuplot " << script << "\n"
               << error_part << wall_part << residual_part;
    gp.commit();
  } catch (const std::exception& e) {
    std::cerr << "warning: " << e.what() << "\n";
    return false;
  }
  return run_gnuplot(dir, script);
}

bool run_gnuplot(const std::string& dir, const std::string& script) {
  if (!gnuplot_available()) return false;
  const std::string cmd = "cd " + shell_quote(dir) + " && gnuplot " + shell_quote(script);
  if (std::system(cmd.c_str()) != 0) {
    std::cerr << "warning: gnuplot failed on " << dir << "/" << script << "\n";
    return false;
  }
  return true;
}

}  // namespace contactlab
