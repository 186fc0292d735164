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
  bool no_friction = false;
};

void run_report(const ReportCliOptions& o) {
  const io::Model model = io::read_model(o.model);
  const planar::Mechanism m = planar::compile(model.mechanism);
  const planar::TimeGrid grid = bounded_analysis_grid(m, o.steps);
  const SweepProgress progress("report");
  report::ReportOptions options;
  options.solver.friction = !o.no_friction;
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
  cmd->callback([options] { run_report(*options); });
}

}  // namespace linkdyn::cli
