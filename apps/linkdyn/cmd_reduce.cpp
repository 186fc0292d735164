// linkdyn reduce MODEL: the reduced parameters of a one-DOF mechanism [003], tabulated.
#include <fmt/core.h>

#include <algorithm>
#include <cmath>

#include "commands.hpp"
#include "linkdyn/dynamics/reduced.hpp"
#include "linkdyn/io/model_file.hpp"

namespace linkdyn::cli {
namespace {

struct ReduceOptions {
  std::string model, csv, json;
  int points = 360;
};

void run_reduce(const ReduceOptions& o) {
  const io::Model model = io::read_model(o.model);
  const planar::Mechanism m = planar::compile(model.mechanism);
  planar::require_start_assembly(m, m.default_grid());
  require_within_max_steps(o.points, {}, "--table-points", "table points");
  const dynamics::ReducedTable t = dynamics::tabulate_reduced_parameters(m, o.points, model.machine.constraint_actions);
  double worst_m = 0.0, worst_dm = 0.0, m_lo = INFINITY, m_hi = -INFINITY, dm_scale = 0.0;
  for (size_t k = 0; k < t.q.size(); ++k) {
    m_lo = std::min(m_lo, t.m[k]), m_hi = std::max(m_hi, t.m[k]);
    dm_scale = std::max(dm_scale, std::abs(t.dm[k]));
  }
  for (size_t k = 0; k < t.q.size(); ++k) {
    worst_m = std::max(worst_m, std::abs(t.m[k] - t.m_kinetostatic[k]) / m_hi);
    worst_dm = std::max(worst_dm, std::abs(t.dm[k] - t.dm_kinetostatic[k]) / std::max(dm_scale, 1e-300));
  }
  const bool rot = m.drivers()[0].type == planar::DriverType::rotational;
  fmt::print("{}: reduced parameters at {} points over q = [{:.6g}, {:.6g}] {}{}\n", m.spec().name, t.q.size(),
             t.q.front(), t.q.back(), rot ? "rad" : "m", t.periodic ? " (periodic)" : "");
  fmt::print("reduced inertia m(q) from {:.6g} to {:.6g} {}\n", m_lo, m_hi, rot ? "kg m^2" : "kg");
  fmt::print("kinetic energy vs kinetostatics [003 Sect. 2]: largest difference {:.2e} (m), {:.2e} (dm/dq), relative\n",
             worst_m, worst_dm);
  for (const std::string& a : t.actions) fmt::print("constraint action {}: me1 and me1q tabulated\n", a);
  nlohmann::ordered_json extra;
  extra["settings"] = {{"points", o.points}, {"periodic", t.periodic}};
  write_outputs(m, o.model, "reduce", dynamics::reduced_table(m, t), planar::SweepSummary{}, o.csv, o.json, extra);
}

}  // namespace

void add_reduce_command(CLI::App& app) {
  auto options = std::make_shared<ReduceOptions>();
  CLI::App* cmd = app.add_subcommand(
      "reduce", "Reduced inertia m(q), dm/dq and constraint-action parameters of a one-DOF mechanism");
  cmd->add_option("MODEL", options->model, "Model file (YAML)")->required();
  cmd->add_option("--table-points,--points", options->points, "Intervals over the driver's range")
      ->check(CLI::Range(4, 100000000))
      ->capture_default_str();
  add_max_steps_option(cmd);
  cmd->add_option("--csv", options->csv, "Write the table as CSV");
  add_digits_option(cmd);
  cmd->add_option("--json", options->json, "Write the table and metadata as JSON");
  cmd->callback([options] { run_reduce(*options); });
}

}  // namespace linkdyn::cli
