// linkdyn simulate MODEL: direct dynamics of a machine with its actuators [003], by the
// reduced method (one DOF), the full constrained model or Kane's equations [004 App. B].
#include <fmt/core.h>

#include <chrono>
#include <cmath>

#include "commands.hpp"
#include "linkdyn/dynamics/direct.hpp"
#include "linkdyn/io/model_file.hpp"
#include "linkdyn/io/report.hpp"

namespace linkdyn::cli {
namespace {

struct SimulateOptions {
  std::string model, csv, json, method = "reduced", plot_dir;
  dynamics::SimulationOptions sim;
  bool steady = false;
  double mean_speed = 0.0, fluctuation = 0.0;
  std::vector<std::string> adjust;
  std::string flywheel;
  int cycles = 2;
};

int actuator_index(const planar::Mechanism& m, const std::string& name) {
  for (size_t k = 0; k < m.spec().actuators.size(); ++k)
    if (m.spec().actuators[k].name == name) return static_cast<int>(k);
  throw InputError(m.spec().where, "actuator '" + name + "'", "is not in the model", "name an actuator under 'actuators'");
}

/// Steady regime, optionally after solving an actuator scale or a flywheel; then the
/// simulation covers `cycles` steady cycles. Returns the options to simulate with.
dynamics::SimulationOptions steady_setup(const planar::Mechanism& m, SimulateOptions& o,
                                         std::unique_ptr<dynamics::DynamicSystem>& system) {
  dynamics::SimulationOptions sim = o.sim;
  double guess = std::isfinite(sim.qd0) ? sim.qd0 : planar::evaluate(m.drivers()[0].law, sim.t0).qd;
  if (o.mean_speed != 0.0) {
    std::vector<int> acts;
    for (const std::string& a : o.adjust) acts.push_back(actuator_index(m, a));
    if (acts.empty()) throw InputError(m.spec().where, "--mean-speed", "needs the actuators to adjust", "add --adjust NAME[,NAME]");
    const dynamics::ActuatorSolution solution = dynamics::solve_actuator_for_mean_speed(*system, sim, acts, o.mean_speed, guess);
    const double scale = solution.scale;
    guess = solution.qd0;
    sim.actuator_scale.assign(m.spec().actuators.size(), 1.0);
    for (int a : acts) {
      sim.actuator_scale[a] = scale;
      const planar::Actuator& act = m.spec().actuators[a];
      const double base = act.type == planar::Actuator::dc_motor ? act.voltage : act.type == planar::Actuator::resistance ? act.T0 : act.value;
      fmt::print("actuator {}: {} = {:.9g} gives a mean speed of {:.9g}\n", act.name,
                 act.type == planar::Actuator::dc_motor ? "voltage" : act.type == planar::Actuator::resistance ? "T0" : "value",
                 base * scale, o.mean_speed);
    }
  }
  if (o.fluctuation > 0.0) {
    const int body = m.spec().find_body(o.flywheel);
    if (body <= 0) throw InputError(m.spec().where, "--flywheel", "'" + o.flywheel + "' is not a moving body", "name the flywheel body");
    const double added = dynamics::flywheel_for_fluctuation(m, sim, body, o.fluctuation, guess);
    fmt::print("flywheel {}: add {:.9g} kg m^2 (to {:.9g}) for a fluctuation of at most {:.6g}\n", o.flywheel, added,
               m.bodies()[body].inertia + added, o.fluctuation);
    planar::MechanismSpec spec = m.spec();
    spec.bodies[body].inertia += added;
    system = std::make_unique<dynamics::DynamicSystem>(planar::compile(spec));
  }
  const dynamics::SteadyRegime s = dynamics::steady_regime(*system, sim, guess);
  fmt::print("steady regime: qd0 = {:.9g}, period {:.9g} s, mean speed {:.9g}, speed {:.6g} to {:.6g}, fluctuation {:.6g} ({} Newton iterations)\n",
             s.qd0, s.period, s.mean_speed, s.qd_min, s.qd_max, s.fluctuation, s.iterations);
  double total = 0.0;
  for (size_t k = 0; k < s.actuator_work.size(); ++k) {
    fmt::print("  work per cycle of {}: {:.9g} J\n", m.spec().actuators[k].name, s.actuator_work[k]);
    total += s.actuator_work[k];
  }
  if (!s.actuator_work.empty()) fmt::print("  sum of the actuators' work per cycle: {:.3g} J\n", total);
  sim.qd0 = s.qd0;
  sim.current0 = s.current0;
  sim.t_end = sim.t0 + o.cycles * s.period;
  return sim;
}

void run_simulate(SimulateOptions o) {
  const planar::Mechanism m = io::load_mechanism(o.model);
  analysis_grid(m, 0);
  o.sim.method = o.method == "full" ? dynamics::Method::full : o.method == "kane" ? dynamics::Method::kane : dynamics::Method::reduced;
  auto system = std::make_unique<dynamics::DynamicSystem>(m);
  if (o.steady || o.mean_speed != 0.0 || o.fluctuation > 0.0) o.sim = steady_setup(m, o, system);
  const auto start = std::chrono::steady_clock::now();
  const dynamics::SimulationResult r = dynamics::simulate(*system, o.sim);
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  const Table& t = r.table;
  const size_t dof = m.drivers().size();  // columns t, q (dof), qd (dof), ...
  double lo = INFINITY, hi = -INFINITY, sum = 0.0;
  for (size_t k = 0; k < t.rows(); ++k) {
    const double qd = t.at(k, 1 + dof);
    lo = std::min(lo, qd), hi = std::max(hi, qd), sum += qd;
  }
  fmt::print("{}: {} method, t = [{:g}, {:g}] s, {} rows; {} events, {} right-hand sides, {:.3g} s of computing ({:.0f}x real time)\n",
             m.spec().name, o.method, o.sim.t0, o.sim.t_end, t.rows(), r.events, r.rhs_evaluations, seconds,
             (o.sim.t_end - o.sim.t0) / seconds);
  fmt::print("{} from {:.6g} to {:.6g}, mean {:.6g}; q at the end {:.9g}\n", t.columns[1 + dof], lo, hi, sum / t.rows(), t.at(t.rows() - 1, 1));
  for (size_t i = 1; i < dof; ++i)
    fmt::print("{} at the end {:.9g}, {} {:.9g}\n", t.columns[1 + i], t.at(t.rows() - 1, 1 + i), t.columns[1 + dof + i],
               t.at(t.rows() - 1, 1 + dof + i));
  nlohmann::ordered_json extra;
  extra["settings"] = {{"method", o.method}, {"t0", o.sim.t0}, {"t_end", o.sim.t_end}, {"steps", o.sim.steps},
                       {"rel_tol", o.sim.rel_tol}, {"abs_tol", o.sim.abs_tol}, {"table_points", o.sim.table_points}};
  write_outputs(m, o.model, "simulate", t, planar::SweepSummary{}, o.csv, o.json, extra);
  write_plots(o.plot_dir, io::simulation_plots(t));
}

}  // namespace

void add_simulate_command(CLI::App& app) {
  auto options = std::make_shared<SimulateOptions>();
  CLI::App* cmd = app.add_subcommand("simulate", "Direct dynamics of a machine with motors and resistances (any DOF with --method kane or full)");
  cmd->add_option("MODEL", options->model, "Model file (YAML)")->required();
  cmd->add_option("--t-end", options->sim.t_end, "End time (s)")->check(CLI::PositiveNumber);
  cmd->add_option("--steps", options->sim.steps, "Output rows - 1")->check(CLI::PositiveNumber);
  cmd->add_option("--method", options->method,
                  "reduced (tabulated parameters, fast, one DOF), full (whole constrained model) or kane (Kane's equations "
                  "[004 App. B], any DOF, with every pair's reaction)")
      ->check(CLI::IsMember({"reduced", "full", "kane"}));
  cmd->add_option("--qd0", options->sim.qd0, "Initial speed of the driver coordinate (default: its motion law's)");
  cmd->add_option("--rtol", options->sim.rel_tol, "Relative tolerance of the integrator")->check(CLI::PositiveNumber);
  cmd->add_option("--points", options->sim.table_points, "Reduced method: table points per cycle")->check(CLI::Range(8, 10000000));
  cmd->add_flag("--steady", options->steady, "Start from the steady (periodic) regime and simulate --cycles cycles");
  cmd->add_option("--cycles", options->cycles, "Steady cycles to simulate (default 2)")->check(CLI::PositiveNumber);
  cmd->add_option("--mean-speed", options->mean_speed, "Solve the --adjust actuators' common scale for this mean speed");
  cmd->add_option("--adjust", options->adjust, "Actuators whose value (torque, voltage, T0) is scaled for --mean-speed")->delimiter(',');
  cmd->add_option("--fluctuation", options->fluctuation, "Add inertia to --flywheel until (max - min) / mean speed is at most this");
  cmd->add_option("--flywheel", options->flywheel, "The body that receives the added inertia");
  cmd->add_option("--plot", options->plot_dir, "Write one SVG file per plot into this folder");
  cmd->add_option("--csv", options->csv, "Write the table as CSV");
  cmd->add_option("--json", options->json, "Write the table and metadata as JSON");
  cmd->callback([options] { run_simulate(*options); });
}

}  // namespace linkdyn::cli
