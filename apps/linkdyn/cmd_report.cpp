// linkdyn report MODEL: one self-contained HTML file with the animation and every plot.
#include <fmt/core.h>

#include <filesystem>
#include <fstream>

#include "commands.hpp"
#include "linkdyn/io/table_writer.hpp"
#include "linkdyn/io/model_file.hpp"
#include "linkdyn/report/report.hpp"

namespace linkdyn::cli {
namespace {

struct ReportCliOptions {
  std::string model, output;
  int steps = 0;
  bool no_friction = false, steady = false, start_up = false;
  double start_up_t_end = Table::missing, rel_tol = 1e-9;
  std::string method = "auto";
  std::vector<std::string> along;
};

void run_report(const ReportCliOptions& o) {
  const io::Model model = io::read_model(o.model);
  const planar::Mechanism m = planar::compile(model.mechanism);
  const planar::TimeGrid grid = bounded_analysis_grid(m, o.steps);
  const SweepProgress progress("report");
  report::ReportOptions options;
  options.solver.friction = !o.no_friction;
  options.dynamics = o.steady     ? report::DynamicsRun::steady
                     : o.start_up ? report::DynamicsRun::start_up
                                  : report::DynamicsRun::automatic;
  options.start_up_duration = o.start_up_t_end - grid.t0;  // NaN unless given
  options.method = dynamics::method_named(o.method);
  options.rel_tol = o.rel_tol;
  for (const std::string& a : o.along) options.along.push_back(point_direction(a));
  const std::string html = report::planar_report_html(m, model.machine, grid, options);
  const std::string path = o.output.empty() ? m.spec().name + ".report.html" : o.output;
  io::require_not_an_input(path, {o.model}, "--output");
  io::write_file(path, [&](std::ostream& out) { out << html; });
  fmt::print("wrote {} ({:.0f} kB); open it in a browser\n", std::filesystem::absolute(path).string(),
             html.size() / 1024.0);
}

}  // namespace

void add_report_command(CLI::App& app) {
  auto options = std::make_shared<ReportCliOptions>();
  CLI::App* cmd = app.add_subcommand("report", "A self-contained HTML report: animation and plots of every analysis");
  cmd->add_option("MODEL", options->model, "Model file (YAML)")->required();
  cmd->add_option("-o,--output", options->output, "The HTML file (default: <model name>.report.html)");
  cmd->add_option("--steps", options->steps, "Number of steps (default: from the model's motion law)")->check(positive);
  add_max_steps_option(cmd);
  cmd->add_flag("--no-friction", options->no_friction, "Frictionless kinetostatics");
  cmd->add_option("--along", options->along,
                  "POINT:ANGLE (repeatable): plot a tracked point's signed displacement, velocity and acceleration "
                  "along the direction ANGLE (with its unit: T:90deg)");
  CLI::Option* steady = cmd->add_flag(
      "--steady", options->steady,
      "Direct dynamics (one-DOF machine with actuators): the steady cycle, an error if there is none (default: the "
      "steady cycle when one exists, else the start-up)");
  CLI::Option* start_up = cmd->add_flag("--start-up", options->start_up,
                                        "Direct dynamics: the start-up from rest instead of the steady cycle")
                              ->excludes(steady);
  cmd->add_option("--t-end", options->start_up_t_end,
                  "With --start-up: its end time (s, or with a unit: 300ms; default: 5 times the analysis grid's "
                  "duration, at least 1 s)")
      ->transform(in_si(Quantity::time))
      ->check(positive)
      ->needs(start_up);
  add_method_options(cmd, options->method, options->rel_tol);
  cmd->callback([options] { run_report(*options); });
}

}  // namespace linkdyn::cli
