// linkdyn kinematics MODEL: positions, velocities and accelerations over the drivers' motion.
#include <fmt/core.h>

#include <cmath>
#include <nlohmann/json.hpp>

#include "commands.hpp"
#include "linkdyn/io/design_numbers.hpp"
#include "linkdyn/io/model_file.hpp"
#include "linkdyn/io/result_tables.hpp"
#include "linkdyn/report/report.hpp"

namespace linkdyn::cli {
namespace {

struct KinematicsOptions {
  std::string model, csv, json, plot_dir;
  int steps = 0;
  double singular_tol = planar::default_singular_tolerance;
  std::vector<std::string> along;
};

void print_summary(const planar::Mechanism& m, const Table& columns, const std::vector<ColumnRange>& ranges) {
  fmt::print("{:<28} {:>14} {:>14} {:>14}\n", "quantity", "min", "max", "at t (max |.|)");
  auto column_summary = [&](const std::string& name, double scale, const char* unit) {
    const int c = columns.column(name);
    if (c < 0 || ranges[static_cast<size_t>(c)].peak < 0) return;
    const ColumnRange& range = ranges[static_cast<size_t>(c)];
    fmt::print("{:<28} {:>14.6g} {:>14.6g} {:>14.6g}  {}\n", name, range.lo * scale, range.hi * scale, range.t_peak,
               unit);
  };
  for (size_t b = 1; b < m.bodies().size(); ++b) {
    const std::string& n = m.bodies()[b].name;
    column_summary(n + ".angle", 180.0 / M_PI, "deg");
    column_summary(n + ".omega", 1.0, "rad/s");
    column_summary(n + ".alpha", 1.0, "rad/s^2");
  }
  for (const std::string& name : columns.columns)
    if (name.size() > 19 && name.compare(name.size() - 19, 19, ".transmission_angle") == 0)
      column_summary(name, 180.0 / M_PI, "deg");
}

void run_kinematics(const KinematicsOptions& o) {
  const planar::Mechanism m = io::load_mechanism(o.model);
  const planar::TimeGrid grid = bounded_analysis_grid(m, o.steps);
  std::vector<report::PointDirection> along;
  for (const std::string& a : o.along) along.push_back(point_direction(a));
  report::check_along(m, along);  // before the sweep
  planar::KinematicsResult all;   // every row, for the plots only
  planar::allocate_rows(m, 0, all);
  const Table columns = io::kinematics_table(m, all);
  TableFiles files(columns, o.csv, o.json, model_inputs(m.spec()));
  std::vector<ColumnRange> ranges(columns.width());
  const SweepProgress progress("kinematics");
  // Rows streamed to the files chunk by chunk; the plots need them all.
  const Eigen::Index chunk = o.plot_dir.empty() ? files.chunk_rows() : grid.steps + 1;
  const planar::SweepSummary summary =
      planar::kinematics(m, grid, o.singular_tol, chunk, [&](planar::KinematicsResult& rows) {
        const Table table = io::kinematics_table(m, rows);
        files.append(table);
        update_ranges(table, ranges);
        if (!o.plot_dir.empty()) all = std::move(rows);
      });
  fmt::print("{}: {} -> {} steps over t = [{:g}, {:g}] s\n", m.spec().name, m.structure_string(), grid.steps, grid.t0,
             grid.t_end);
  print_sweep_events(m, summary);
  print_summary(m, columns, ranges);
  const planar::DesignNumbers design = planar::design_numbers(m, grid);
  fmt::print("{}", io::design_numbers_text(m, design));
  nlohmann::ordered_json extra;
  extra["settings"] = {{"t0", grid.t0}, {"t_end", grid.t_end}, {"steps", grid.steps}, {"singular_tol", o.singular_tol}};
  extra["design"] = nlohmann::ordered_json::parse(io::design_numbers_json(design));
  files.finish(analysis_metadata(m, o.model, "kinematics", summary, extra));
  all.summary = summary;
  if (!o.plot_dir.empty()) write_plots(o.plot_dir, report::kinematics_plots(m, all, along));
}

}  // namespace

void add_kinematics_command(CLI::App& app) {
  auto options = std::make_shared<KinematicsOptions>();
  CLI::App* cmd = app.add_subcommand("kinematics", "Positions, velocities and accelerations over the drivers' motion");
  cmd->add_option("MODEL", options->model, "Model file (YAML)")->required();
  cmd->add_option("--steps", options->steps, "Number of steps (default: from the model's motion law)")->check(positive);
  add_max_steps_option(cmd);
  cmd->add_option("--singular-tol", options->singular_tol,
                  "Dead point when a group's conditioning (sine of its transmission angle) is below this")
      ->check(CLI::Range(0.0, 1.0));
  cmd->add_option("--csv", options->csv, "Write the table as CSV");
  add_digits_option(cmd);
  add_every_option(cmd);
  cmd->add_option("--json", options->json, "Write the table and metadata as JSON");
  CLI::Option* plot = cmd->add_option("--plot", options->plot_dir, "Write one SVG file per plot into this folder");
  cmd->add_option("--along", options->along,
                  "POINT:ANGLE (repeatable, with --plot): plot a tracked point's signed displacement, velocity and "
                  "acceleration along the direction ANGLE (with its unit: T:90deg)")
      ->needs(plot);
  cmd->callback([options] { run_kinematics(*options); });
}

}  // namespace linkdyn::cli
