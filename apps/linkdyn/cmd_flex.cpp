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
  const double beam_mass = b.beam_mass();
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

/// The internal forces' envelope over the response (flex::StressEnvelope): printed, and written
/// to `path` per station (N, V, M extremes; with a section, the fibre stresses' extremes, the
/// largest range a fibre sees and when |sigma| peaks).
void print_stress_envelope(const planar::Mechanism& m, const flex::StressEnvelope& e, const std::string& path) {
  Table table;
  table.add_column("s", "m");
  for (const char* force : {"N", "V"}) {
    table.add_column(fmt::format("{}.min", force), "N");
    table.add_column(fmt::format("{}.max", force), "N");
  }
  table.add_column("M.min", "N m");
  table.add_column("M.max", "N m");
  if (e.stresses) {
    for (const char* column : {"sigma.min", "sigma.max", "sigma.range"}) table.add_column(column, "Pa");
    table.add_column("t.sigma_peak", "s");
  }
  for (Eigen::Index k = 0; k < e.station.size(); ++k) {
    table.values.insert(table.values.end(),
                        {e.station(k), e.n_min(k), e.n_max(k), e.v_min(k), e.v_max(k), e.m_min(k), e.m_max(k)});
    if (e.stresses)
      table.values.insert(
          table.values.end(),
          {std::min(e.fibre_min[0](k), e.fibre_min[1](k)), std::max(e.fibre_max[0](k), e.fibre_max[1](k)),
           std::max(e.fibre_max[0](k) - e.fibre_min[0](k), e.fibre_max[1](k) - e.fibre_min[1](k)),
           e.t_sigma_largest(k)});
  }
  fmt::print(
      "  internal forces: |N| up to {:.6g} N (s = {:.4g} m), |V| up to {:.6g} N (s = {:.4g} m), |M| up to {:.6g} "
      "N m at s = {:.4g} m, t = {:.6g} s\n",
      e.normal.value, e.normal.s, e.shear.value, e.shear.s, e.moment.value, e.moment.s, e.moment.t);
  if (e.stresses) {
    const flex::StressEnvelope::Peak range = e.range_peak();
    fmt::print(
        "  extreme fibre stress: |sigma| up to {:.6g} MPa at s = {:.4g} m, t = {:.6g} s; largest stress range "
        "{:.6g} MPa at s = {:.4g} m\n",
        1e-6 * e.sigma.value, e.sigma.s, e.sigma.t, 1e-6 * range.value, range.s);
  } else {
    fmt::print("  (no stresses: give the link a section, e.g. section: {{shape: rectangle, width: , height: }})\n");
  }
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
  // The response's Newmark steps per pass (a steady one takes up to five passes).
  const long newmark_steps = static_cast<long>(grid.steps) * o.substeps;
  if (!o.no_response) require_within_max_steps(newmark_steps, {}, "--substeps", "Newmark steps (positions x substeps)");
  // Up front: the eigen table is written before the response is computed.
  check_output_paths({{"--csv", o.csv}, {"--json", o.json}, {"--response", o.response_csv}, {"--stress", o.stress_csv}},
                     model_inputs(m.spec()));
  const SweepProgress progress("flex");
  fmt::print("{}: {} -> {} positions over t = [{:g}, {:g}] s{}\n", m.spec().name, m.structure_string(), grid.steps,
             grid.t0, grid.t_end,
             o.no_response ? "" : fmt::format(", {} Newmark steps per pass of the response", newmark_steps));
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
    // The rows stream to the response file (one per link when there are several) as the final
    // pass computes them; the summary, the envelope and the growth check gather them chunk by
    // chunk; only the plots keep them.
    auto per_link = [&](const std::string& path) {
      if (path.empty() || links.size() == 1) return path;
      const std::filesystem::path p(path);
      return (p.parent_path() / (p.stem().string() + "-" + link.name + p.extension().string())).string();
    };
    std::unique_ptr<TableFiles> file;
    std::unique_ptr<flex::StressEnvelope> envelope;
    Table kept;  // with --plot
    double w_lo = INFINITY, w_hi = -INFINITY, u_lo = INFINITY, u_hi = -INFINITY, largest = 0.0;
    const std::string response_path = per_link(o.response_csv);
    const Eigen::Index chunk = o.plot_dir.empty() ? 4096 : grid.steps + 1;  // about 3 MB of rows
    const double error = flex::link_response(m, link, grid, ro, chunk, [&](const flex::LinkResponse& rows) {
      if (!envelope) envelope = std::make_unique<flex::StressEnvelope>(link, rows.station);
      envelope->add(rows);
      if (rows.t.size() == 0) return;
      w_lo = std::min(w_lo, rows.mid_w.minCoeff()), w_hi = std::max(w_hi, rows.mid_w.maxCoeff());
      u_lo = std::min(u_lo, rows.mid_u.minCoeff()), u_hi = std::max(u_hi, rows.mid_u.maxCoeff());
      const double here = std::max(rows.node_w.cwiseAbs().maxCoeff(), rows.node_u.cwiseAbs().maxCoeff());
      largest = std::isfinite(here) ? std::max(largest, here) : INFINITY;
      if (response_path.empty() && o.plot_dir.empty()) return;
      const Table table = io::response_table(m, link, rows);
      if (!response_path.empty()) {
        if (!file)
          file = std::make_unique<TableFiles>(table, response_path, "", model_inputs(m.spec()), "--response");
        else
          file->append(table);
      }
      if (!o.plot_dir.empty()) kept = table;
    });
    // A response beyond the link's length is no small vibration: it grows (unstable) or resonates.
    if (!std::isfinite(largest) || (largest > link.beam.length && !o.allow_unstable))
      throw AnalysisError(fmt::format(
          "elastic link '{}': the {} response reaches {:.3g} m, beyond the link's length {:.3g} m: it grows "
          "(an unstable or resonant link; see the eigen table){}",
          link.name, o.from_rest ? "from-rest" : "steady", largest, link.beam.length,
          std::isfinite(largest) ? "; --allow-unstable writes it anyway" : ""));
    if (file) file->finish(nlohmann::ordered_json::object());
    if (!o.plot_dir.empty()) responses.push_back(std::move(kept));
    fmt::print(
        "  {} response (Newmark, {} steps per position): mid-span w in [{:.6g}, {:.6g}] m, u in [{:.6g}, {:.6g}] m",
        o.from_rest ? "from rest" : "steady periodic", o.substeps, w_lo, w_hi, u_lo, u_hi);
    if (!o.from_rest) fmt::print(", periodicity error {:.2g}", error);
    fmt::print("\n");
    print_stress_envelope(m, *envelope, per_link(o.stress_csv));
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
