// linkdyn flex MODEL: the elastic links' natural frequencies along the cycle [004 Fig. 6] and
// their vibration under the inertial loads of the motion [004 Eq. 20].
#include <fmt/core.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <nlohmann/json.hpp>

#include "commands.hpp"
#include "linkdyn/flex/link.hpp"
#include "linkdyn/flex/modal.hpp"
#include "linkdyn/io/model_file.hpp"
#include "linkdyn/io/result_tables.hpp"
#include "linkdyn/io/table_writer.hpp"

namespace linkdyn::cli {
namespace {

struct FlexOptions {
  std::string model, csv, json, response_csv, stress_csv, plot_dir;
  int steps = 0, modes = 4, substeps = 20, gyroscopic_basis = flex::CycleOptions{}.gyroscopic_basis_per_mode;
  bool no_friction = false, no_gyroscopic = false, from_rest = false, no_response = false, allow_unstable = false,
       no_eigen = false;
};

std::vector<double> column_values(const Table& table, const std::string& name) {
  std::vector<double> out;
  const int c = table.column(name);
  for (size_t r = 0; r < table.rows() && c >= 0; ++r) out.push_back(table.at(r, c));
  return out;
}

std::pair<double, double> range_of(const std::vector<double>& v) {
  const auto [lo, hi] = std::minmax_element(v.begin(), v.end());
  return {*lo, *hi};
}

void print_link(const planar::Mechanism& m, const flex::ElasticLink& link) {
  const flex::BeamModel& b = link.beam;
  const planar::Body& body = m.bodies()[link.body];
  fmt::print(
      "elastic link '{}' on body '{}': L = {:.6g} m, {} elements ({} dofs), supports {}-{}, geometric stiffness {}\n",
      link.name, body.name, b.length, b.elements, b.size(), flex::support_name(b.supports[0]),
      flex::support_name(b.supports[1]), b.geometric_stiffness ? "on" : "off");
  const double beam_mass = b.section.mass_per_length() * b.length;
  fmt::print("  beam mass rho A L = {:.6g} kg (the rigid body's mass: {:.6g} kg)\n", beam_mass, body.mass);
  flex::ModalWorkspace ws(b);
  flex::analyze_modes(b, flex::FrameMotion{}, ws, false);
  fmt::print("  at rest:");
  for (int k = 0; k < std::min(4, b.size()); ++k)
    fmt::print(" f{} = {:.6g} Hz", k + 1, flex::frequency_hz(ws.lambda(k)));
  fmt::print("\n");
  if (b.damping_alpha > 0.0 || b.damping_beta > 0.0) {
    fmt::print("  Rayleigh damping alpha = {:.6g} 1/s, beta = {:.6g} s: ratio", b.damping_alpha, b.damping_beta);
    for (int k = 0; k < std::min(4, b.size()); ++k) {
      const double w = std::sqrt(std::max(ws.lambda(k), 0.0));
      fmt::print(" {:.4g}", w > 0.0 ? b.damping_alpha / (2.0 * w) + b.damping_beta * w / 2.0 : 0.0);
    }
    fmt::print(" in modes 1-{}\n", std::min(4, b.size()));
  }
  if (!link.ignored_loads.empty()) {
    fmt::print(
        "  note: the beam carries its weight, inertia and end forces; these loads on body '{}' act on the\n"
        "  rigid motion but are not applied along the beam:",
        body.name);
    for (int k : link.ignored_loads) fmt::print(" {}", m.spec().loads[k].name);
    fmt::print("\n");
  }
}

/// The internal forces' envelope over the response at each station (node or element middle) and,
/// with the link's section modulus, the extreme fibres' stresses: their extremes, the largest
/// stress range a fibre sees (for fatigue) and when |sigma| peaks. Printed, and written to `path`.
void stress_envelope(const planar::Mechanism& m, const flex::ElasticLink& link, const flex::LinkResponse& r,
                     const std::string& path) {
  const bool stresses = link.section_modulus > 0.0;
  const double area = link.beam.section.A, modulus = link.section_modulus;
  Table table;
  table.add_column("s", "m");
  for (const char* force : {"N", "V"}) {
    table.add_column(fmt::format("{}.min", force), "N");
    table.add_column(fmt::format("{}.max", force), "N");
  }
  table.add_column("M.min", "N m");
  table.add_column("M.max", "N m");
  if (stresses) {
    for (const char* column : {"sigma.min", "sigma.max", "sigma.range"}) table.add_column(column, "Pa");
    table.add_column("t.sigma_peak", "s");
  }
  struct Peak {
    double value = -1.0, s = 0.0, t = 0.0;
    void update(double v, double at_s, double at_t) {
      if (v > value) value = v, s = at_s, t = at_t;
    }
  } peak_n, peak_v, peak_m, peak_sigma, peak_range;
  for (Eigen::Index k = 0; k < r.station.size(); ++k) {
    const double s = r.station(k);
    const auto n = r.normal.col(k), v = r.shear.col(k), mo = r.moment.col(k);
    table.values.insert(table.values.end(),
                        {s, n.minCoeff(), n.maxCoeff(), v.minCoeff(), v.maxCoeff(), mo.minCoeff(), mo.maxCoeff()});
    for (Eigen::Index row = 0; row < r.t.size(); ++row) {
      peak_n.update(std::abs(n(row)), s, r.t(row));
      peak_v.update(std::abs(v(row)), s, r.t(row));
      peak_m.update(std::abs(mo(row)), s, r.t(row));
    }
    if (!stresses) continue;
    // Each fibre's stress N / A +- M / W over the cycle (the +c fibre, then the -c one).
    double lo = INFINITY, hi = -INFINITY, range = 0.0, largest = -1.0, t_largest = 0.0;
    for (const double side : {1.0, -1.0}) {
      double fibre_lo = INFINITY, fibre_hi = -INFINITY;
      for (Eigen::Index row = 0; row < r.t.size(); ++row) {
        const double sigma = n(row) / area + side * mo(row) / modulus;
        fibre_lo = std::min(fibre_lo, sigma), fibre_hi = std::max(fibre_hi, sigma);
        if (std::abs(sigma) > largest) largest = std::abs(sigma), t_largest = r.t(row);
        peak_sigma.update(std::abs(sigma), s, r.t(row));
      }
      lo = std::min(lo, fibre_lo), hi = std::max(hi, fibre_hi), range = std::max(range, fibre_hi - fibre_lo);
    }
    peak_range.update(range, s, 0.0);
    table.values.insert(table.values.end(), {lo, hi, range, t_largest});
  }
  fmt::print(
      "  internal forces: |N| up to {:.6g} N (s = {:.4g} m), |V| up to {:.6g} N (s = {:.4g} m), |M| up to {:.6g} "
      "N m at s = {:.4g} m, t = {:.6g} s\n",
      peak_n.value, peak_n.s, peak_v.value, peak_v.s, peak_m.value, peak_m.s, peak_m.t);
  if (stresses)
    fmt::print(
        "  extreme fibre stress: |sigma| up to {:.6g} MPa at s = {:.4g} m, t = {:.6g} s; largest stress range "
        "{:.6g} MPa at s = {:.4g} m\n",
        1e-6 * peak_sigma.value, peak_sigma.s, peak_sigma.t, 1e-6 * peak_range.value, peak_range.s);
  else
    fmt::print("  (no stresses: give the link a section, e.g. section: {{shape: rectangle, width: , height: }})\n");
  if (path.empty()) return;
  write_table_files(table, path, "", {}, model_inputs(m.spec()));
}

/// `duration` is the cycle's when the grid spans one period, else 0 (no harmonics to compare).
void print_cycle(const flex::ElasticLink& link, const Table& table, int modes, double duration) {
  if (duration > 0.0)
    fmt::print("  along the cycle (cycle frequency {:.6g} Hz):\n", 1.0 / duration);
  else
    fmt::print("  along the grid (not one period of the motion):\n");
  for (int k = 1; k <= modes; ++k) {
    const auto [lo, hi] = range_of(column_values(table, fmt::format("{}.f{}", link.name, k)));
    fmt::print("    f{} in [{:.6g}, {:.6g}] Hz", k, lo, hi);
    const std::vector<double> g = column_values(table, fmt::format("{}.fg{}", link.name, k));
    if (!g.empty()) {
      const auto [glo, ghi] = range_of(g);
      fmt::print(", gyroscopic [{:.6g}, {:.6g}] Hz", glo, ghi);
    }
    // The harmonics of the cycle that the band crosses (resonance risk when low and excited).
    if (lo > 0.0 && duration > 0.0) {
      const double n_lo = std::ceil(lo * duration), n_hi = std::floor(hi * duration);
      if (n_lo < n_hi)
        fmt::print("; f / f_cycle in [{:.4g}, {:.4g}]: crosses harmonics {:g}..{:g}", lo * duration, hi * duration,
                   n_lo, n_hi);
      else if (n_lo == n_hi)
        fmt::print("; f / f_cycle in [{:.4g}, {:.4g}]: crosses harmonic {:g}", lo * duration, hi * duration, n_lo);
      else
        fmt::print("; f / f_cycle in [{:.4g}, {:.4g}]: between harmonics {:g} and {:g}", lo * duration, hi * duration,
                   n_hi, n_lo);
    }
    fmt::print("\n");
  }
  const std::vector<double> lambda = column_values(table, link.name + ".lambda1");
  if (!lambda.empty() && range_of(lambda).first < 0.0)
    fmt::print("  warning: lambda1 < 0 on part of the cycle: the link buckles there (f1 reported negative)\n");
}

/// The natural frequencies and eigenvalues along the cycle, against time and the driver's angle.
void eigen_plots(const planar::Mechanism& m, const flex::ElasticLink& link, const Table& eigen, int modes,
                 std::vector<io::Plot>& plots) {
  const std::vector<double> t = column_values(eigen, "t");
  io::Plot f{"flex-" + link.name + "-frequencies",
             "Natural frequencies of '" + link.name + "' along the cycle",
             "t (s)",
             "frequency (Hz)",
             {}};
  for (int k = 1; k <= modes; ++k) {
    f.series.push_back({fmt::format("f{}", k), t, column_values(eigen, fmt::format("{}.f{}", link.name, k)), {}});
    const std::vector<double> g = column_values(eigen, fmt::format("{}.fg{}", link.name, k));
    if (!g.empty()) f.series.push_back({fmt::format("f{} gyroscopic", k), t, g, {}});
  }
  plots.push_back(std::move(f));
  // One plot per eigenvalue, as [004 Fig. 6 (a), (b)]: lambda_k = omega_k^2 against time.
  for (int k = 1; k <= std::min(modes, 2); ++k) {
    io::Plot l{fmt::format("flex-{}-eigenvalue{}", link.name, k),
               fmt::format("Eigenvalue {} of '{}' along the cycle", k, link.name),
               "t (s)",
               "lambda = omega^2 (1/s^2)",
               {}};
    l.series.push_back(
        {fmt::format("lambda{} (undamped)", k), t, column_values(eigen, fmt::format("{}.lambda{}", link.name, k)), {}});
    std::vector<double> g = column_values(eigen, fmt::format("{}.fg{}", link.name, k));
    for (double& x : g) x = std::pow(2.0 * M_PI * x, 2);
    if (!g.empty()) l.series.push_back({fmt::format("(2 pi fg{})^2 (gyroscopic)", k), t, g, {}});
    plots.push_back(std::move(l));
  }
  // The frequencies against the first rotational driver's angle (deg).
  for (const planar::Driver& d : m.drivers()) {
    if (d.type != planar::DriverType::rotational) continue;
    std::vector<double> angle = column_values(eigen, planar::driver_column(d));
    for (double& a : angle) a *= 180.0 / M_PI;
    io::Plot a{"flex-" + link.name + "-frequencies-vs-" + d.name,
               "Natural frequencies of '" + link.name + "' against " + d.name,
               d.name + " (deg)",
               "frequency (Hz)",
               {}};
    for (int k = 1; k <= modes; ++k)
      a.series.push_back({fmt::format("f{}", k), angle, column_values(eigen, fmt::format("{}.f{}", link.name, k)), {}});
    a.linked = false;
    plots.push_back(std::move(a));
    break;
  }
}

std::vector<io::Plot> flex_plots(const planar::Mechanism& m, const flex::ElasticLink& link, const Table& eigen,
                                 const Table* response, int modes) {
  std::vector<io::Plot> plots;
  if (eigen.rows() > 0) eigen_plots(m, link, eigen, modes, plots);
  if (response) {
    const std::vector<double> rt = column_values(*response, "t");
    io::Plot w{"flex-" + link.name + "-response",
               "Deflection of '" + link.name + "' (beam frame)",
               "t (s)",
               "deflection (m)",
               {}};
    w.series.push_back({"mid-span w", rt, column_values(*response, link.name + ".mid.w"), {}});
    w.series.push_back({"mid-span u", rt, column_values(*response, link.name + ".mid.u"), {}});
    plots.push_back(std::move(w));
  }
  return plots;
}

/// The eigen-analysis along the cycle: its table written first (a later failure leaves it), then
/// instability (exit 3 unless --allow-unstable).
void run_eigen_cycle(const planar::Mechanism& m, const std::vector<flex::ElasticLink>& links,
                     const planar::TimeGrid& grid, const FlexOptions& o,
                     const planar::KinetostaticsOptions& kinetostatics, Table& eigen) {
  flex::CycleOptions cycle{o.modes, !o.no_gyroscopic, kinetostatics, o.gyroscopic_basis};
  const flex::EigenCycleResult cycle_result = flex::eigen_cycle(m, links, grid, cycle);
  eigen = io::eigen_cycle_table(m, links, cycle_result);
  if (!o.no_gyroscopic && o.gyroscopic_basis < 0)
    for (size_t l = 0; l < links.size(); ++l)
      fmt::print(
          "elastic link '{}': gyroscopic problem on {} modes at rest at {} of {} positions (slow spin), in "
          "full at the others\n",
          links[l].name, 3 * o.modes, cycle_result.links[l].basis_positions, grid.steps + 1);
  nlohmann::ordered_json extra;
  extra["settings"] = {{"t0", grid.t0},
                       {"t_end", grid.t_end},
                       {"steps", grid.steps},
                       {"modes", o.modes},
                       {"gyroscopic", !o.no_gyroscopic},
                       {"gyroscopic_basis_per_mode", o.gyroscopic_basis},
                       {"friction", !o.no_friction}};
  // The eigen table first: a failure of the response below leaves it written.
  write_outputs(m, o.model, "flex", eigen, planar::SweepSummary{}, o.csv, o.json, extra);
  if (const std::string unstable = flex::first_instability(m, links, cycle_result); !unstable.empty()) {
    if (!o.allow_unstable)
      throw AnalysisError(unstable + "; the eigen table is written; --allow-unstable computes the response anyway");
    fmt::print("warning: {}\n", unstable);
  }
}

void run_flex(const FlexOptions& o) {
  const io::Model model = io::read_model(o.model);
  const planar::Mechanism m = planar::compile(model.mechanism);
  const std::vector<flex::ElasticLink> links = flex::require_elastic_links(m, model.elastic_links);
  const planar::TimeGrid grid = bounded_analysis_grid(m, o.steps);
  const SweepProgress progress("flex");
  fmt::print("{}: {} -> {} positions over t = [{:g}, {:g}] s\n", m.spec().name, m.structure_string(), grid.steps,
             grid.t0, grid.t_end);
  planar::KinetostaticsOptions kinetostatics;
  kinetostatics.friction = !o.no_friction;
  Table eigen;  // empty with --no-eigen
  if (!o.no_eigen) run_eigen_cycle(m, links, grid, o, kinetostatics, eigen);
  std::vector<Table> responses;
  for (const flex::ElasticLink& link : links) {
    print_link(m, link);
    if (!o.no_eigen)
      print_cycle(link, eigen, o.modes, flex::periodicity_problem(m, grid).empty() ? grid.t_end - grid.t0 : 0.0);
    if (o.no_response) continue;
    flex::ResponseOptions ro{o.substeps, !o.from_rest, kinetostatics};
    const flex::LinkResponse response = flex::link_response(m, link, grid, ro);
    const double error = response.periodicity_error;
    // A response beyond the link's length is no small vibration: it grows (unstable) or resonates.
    const double largest = std::max(response.node_w.cwiseAbs().maxCoeff(), response.node_u.cwiseAbs().maxCoeff());
    if (!std::isfinite(largest) || (largest > link.beam.length && !o.allow_unstable))
      throw AnalysisError(fmt::format(
          "elastic link '{}': the {} response reaches {:.3g} m, beyond the link's length {:.3g} m: it grows "
          "(an unstable or resonant link; see the eigen table){}",
          link.name, o.from_rest ? "from-rest" : "steady", largest, link.beam.length,
          std::isfinite(largest) ? "; --allow-unstable writes it anyway" : ""));
    responses.push_back(io::response_table(m, link, response));
    const Table& r = responses.back();
    const auto [wlo, whi] = range_of(column_values(r, link.name + ".mid.w"));
    const auto [ulo, uhi] = range_of(column_values(r, link.name + ".mid.u"));
    fmt::print(
        "  {} response (Newmark, {} steps per position): mid-span w in [{:.6g}, {:.6g}] m, u in [{:.6g}, {:.6g}] m",
        o.from_rest ? "from rest" : "steady periodic", o.substeps, wlo, whi, ulo, uhi);
    if (!o.from_rest) fmt::print(", periodicity error {:.2g}", error);
    fmt::print("\n");
    std::string stress_path = o.stress_csv;  // several links: one file each, named after the link
    if (!stress_path.empty() && links.size() > 1) {
      const std::filesystem::path p(stress_path);
      stress_path = (p.parent_path() / (p.stem().string() + "-" + link.name + p.extension().string())).string();
    }
    stress_envelope(m, link, response, stress_path);
  }
  if (!o.response_csv.empty() && !responses.empty()) {
    Table all = responses.front();
    for (size_t k = 1; k < responses.size(); ++k) {  // further links: their columns after the first's
      const Table& r = responses[k];
      Table merged;
      for (size_t c = 0; c < all.width(); ++c) merged.add_column(all.columns[c], all.units[c]);
      const size_t lead = 1 + m.drivers().size();
      for (size_t c = lead; c < r.width(); ++c) merged.add_column(r.columns[c], r.units[c]);
      for (size_t row = 0; row < all.rows(); ++row) {
        for (size_t c = 0; c < all.width(); ++c) merged.values.push_back(all.at(row, c));
        for (size_t c = lead; c < r.width(); ++c) merged.values.push_back(r.at(row, c));
      }
      all = std::move(merged);
    }
    write_table_files(all, o.response_csv, "", {}, model_inputs(m.spec()));
  }
  std::vector<io::Plot> plots;
  for (size_t k = 0; k < links.size(); ++k)
    for (io::Plot& p : flex_plots(m, links[k], eigen, responses.empty() ? nullptr : &responses[k], o.modes))
      plots.push_back(std::move(p));
  write_plots(o.plot_dir, plots);
}

}  // namespace

void add_flex_command(CLI::App& app) {
  auto options = std::make_shared<FlexOptions>();
  CLI::App* cmd =
      app.add_subcommand("flex", "Elastic links: natural frequencies along the cycle and vibration response");
  cmd->add_option("MODEL", options->model, "Model file (YAML) with an 'elastic_links:' section")->required();
  cmd->add_option("--modes", options->modes, "Number of eigenvalues per link (default 4)")->check(positive);
  cmd->add_option("--steps", options->steps, "Number of positions along the cycle (default: from the model)")
      ->check(positive);
  add_max_steps_option(cmd);
  CLI::Option* csv = cmd->add_option("--csv", options->csv, "Write the eigenvalues along the cycle as CSV");
  add_digits_option(cmd);
  CLI::Option* json = cmd->add_option("--json", options->json, "Write the eigenvalues and metadata as JSON");
  cmd->add_option("--response", options->response_csv, "Write the deflections along the cycle as CSV");
  cmd->add_option("--stress", options->stress_csv,
                  "Write each link's internal-force and stress envelope along it as CSV (per node and element middle: "
                  "N, V, M extremes; with a section, the fibre stresses' extremes and range)");
  cmd->add_option("--substeps", options->substeps, "Newmark steps per position (default 20)")->check(positive);
  cmd->add_flag("--from-rest", options->from_rest,
                "Response from rest over the grid instead of the steady periodic one");
  CLI::Option* no_response = cmd->add_flag("--no-response", options->no_response, "Eigen-analysis only");
  cmd->add_flag("--allow-unstable", options->allow_unstable,
                "Go on when a link buckles or flutters (a warning instead of exit 3), and write a response that grows");
  CLI::Option* no_gyroscopic =
      cmd->add_flag("--no-gyroscopic", options->no_gyroscopic, "Skip the gyroscopic (quadratic) eigenproblem");
  cmd->add_option("--gyroscopic-basis", options->gyroscopic_basis,
                  "The gyroscopic problem projected on this many modes at rest per asked mode: 7x faster, exact "
                  "while the link's modes change little along the cycle, not for a fast spin (0: on all the link's "
                  "dofs; -1: 3 per mode where the link turns slower than 0.2 of its first frequency, all dofs "
                  "elsewhere)")
      ->check(CLI::Range(-1, 1000))
      ->capture_default_str();
  cmd->add_flag("--no-eigen", options->no_eigen,
                "Response only: skip the eigen-analysis along the cycle (and its table, --csv and --json)")
      ->excludes(no_response)
      ->excludes(no_gyroscopic)
      ->excludes(csv)
      ->excludes(json);
  cmd->add_flag("--no-friction", options->no_friction, "End forces from kinetostatics without friction");
  cmd->add_option("--plot", options->plot_dir, "Write the eigenvalue and response plots as SVG into this folder");
  cmd->callback([options] { run_flex(*options); });
}

}  // namespace linkdyn::cli
