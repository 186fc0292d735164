// linkdyn simulate MODEL: direct dynamics of a machine with its actuators and friction [003],
// by the reduced method (one DOF), the full constrained model or Kane's equations [004 App. B].
#include <fmt/core.h>

#include <chrono>
#include <cmath>
#include <cstdio>
#include <type_traits>
#include <utility>
#include <variant>
#include <unistd.h>

#include "commands.hpp"
#include "linkdyn/dynamics/simulate.hpp"
#include "linkdyn/io/model_file.hpp"
#include "linkdyn/io/result_tables.hpp"
#include "linkdyn/report/report.hpp"

namespace linkdyn::cli {
namespace {

struct SimulateOptions {
  std::string model, csv, json, method = "auto", integrator = "rkf78", plot_dir;
  dynamics::SimulationOptions sim;
  bool steady = false, no_friction = false, no_kinematics = false, rigid_links = false;
  int elastic_modes = 4;
  double mean_speed = 0.0, fluctuation = 0.0;
  std::string q0, qd0, mean_speed_text;  ///< with a unit or in SI, as the first driver's kind
  std::vector<std::string> adjust;
  std::string flywheel;
  int cycles = 2;
};

int actuator_index(const planar::Mechanism& m, const dynamics::MachineSpec& machine, const std::string& name) {
  const int k = machine.find_actuator(name);
  if (k < 0)
    throw InputError({}, "--adjust " + name, "is not an actuator of the model",
                     "name an actuator under 'actuators' in " + m.spec().where.file);
  return k;
}

/// Steady regime, optionally after solving an actuator scale or a flywheel; then the
/// simulation covers `cycles` steady cycles. Returns the options to simulate with.
dynamics::SimulationOptions steady_setup(const planar::Mechanism& m, const dynamics::MachineSpec& machine,
                                         SimulateOptions& o, std::unique_ptr<dynamics::DynamicSystem>& system) {
  dynamics::SimulationOptions sim = o.sim;
  sim.progress = nullptr;
  double guess = std::isfinite(sim.qd0) ? sim.qd0 : planar::evaluate(m.drivers()[0].law, sim.t0).qd;
  if (o.mean_speed != 0.0) {
    std::vector<int> acts;
    for (const std::string& a : o.adjust) acts.push_back(actuator_index(m, machine, a));
    if (acts.empty()) throw InputError({}, "--mean-speed", "needs the actuators to adjust", "add --adjust NAME[,NAME]");
    const dynamics::ActuatorSolution solution =
        dynamics::solve_actuator_for_mean_speed(*system, sim, acts, o.mean_speed, guess);
    const double scale = solution.scale;
    guess = solution.qd0;
    sim.actuator_scale.assign(machine.actuators.size(), 1.0);
    for (int a : acts) {
      sim.actuator_scale[a] = scale;
      const dynamics::Actuator& act = machine.actuators[a];
      // The scaled parameter: a motor's voltage, a resistance's T0, a torque's value, a
      // cylinder's whole force law.
      const auto [what, base] = std::visit(
          [](const auto& law) -> std::pair<const char*, double> {
            using Law = std::decay_t<decltype(law)>;
            if constexpr (std::is_same_v<Law, dynamics::DcMotor>)
              return {"voltage", law.voltage};
            else if constexpr (std::is_same_v<Law, dynamics::Resistance>)
              return {"T0", law.T0};
            else if constexpr (std::is_same_v<Law, dynamics::CylinderForce>)
              return {"force scale", 1.0};
            else
              return {"value", law.value};
          },
          act.law);
      fmt::print("actuator {}: {} = {:.9g} gives a mean speed of {:.9g}\n", act.name, what, base * scale, o.mean_speed);
    }
  }
  if (o.fluctuation > 0.0) {
    const int body = m.spec().find_body(o.flywheel);
    if (body <= 0)
      throw InputError({}, "--flywheel", "'" + o.flywheel + "' is not a moving body", "name the flywheel body");
    const double added = dynamics::flywheel_for_fluctuation(m, machine, sim, body, o.fluctuation, guess);
    fmt::print("flywheel {}: add {:.9g} kg m^2 (to {:.9g}) for a fluctuation of at most {:.6g}\n", o.flywheel, added,
               m.bodies()[body].inertia + added, o.fluctuation);
    system = std::make_unique<dynamics::DynamicSystem>(
        dynamics::with_body_inertia(*system, body, m.bodies()[body].inertia + added));
  }
  const dynamics::SteadyRegime s = dynamics::steady_regime(*system, sim, guess);
  fmt::print(
      "steady regime: qd0 = {:.9g}, period {:.9g} s, mean speed {:.9g}, speed {:.6g} to {:.6g}, fluctuation {:.6g} ({} "
      "Newton iterations)\n",
      s.qd0, s.period, s.mean_speed, s.qd_min, s.qd_max, s.fluctuation, s.iterations);
  double total = 0.0;
  for (size_t k = 0; k < s.actuator_work.size(); ++k) {
    fmt::print("  work per cycle of {}: {:.9g} J\n", machine.actuators[k].name, s.actuator_work[k]);
    total += s.actuator_work[k];
  }
  if (!s.actuator_work.empty()) fmt::print("  sum of the actuators' work per cycle: {:.3g} J\n", total);
  sim.qd0 = s.qd0;
  sim.current0 = s.current0;
  sim.t_end = sim.t0 + o.cycles * s.period;
  sim.progress = o.sim.progress;
  return sim;
}

/// Progress on stderr for runs longer than about two seconds, as the sweeps show theirs: a line
/// rewritten each second on a terminal, else (a log) one line every 10 s.
std::function<void(double)> progress_reporter(double t0, double t_end) {
  const bool tty = isatty(fileno(stderr)) != 0;
  auto start = std::make_shared<std::chrono::steady_clock::time_point>(std::chrono::steady_clock::now());
  auto last = std::make_shared<double>(0.0);
  return [=](double t) {
    const double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - *start).count();
    if (elapsed < 2.0 || (*last > 0.0 && elapsed - *last < (tty ? 1.0 : 10.0))) return;
    *last = elapsed;
    const double done = (t - t0) / (t_end - t0);
    fmt::print(stderr, "{}simulate: t = {:.6g} s of {:.6g} s ({:.0f} %), {:.0f} s left{}", tty ? "\r" : "", t, t_end,
               100.0 * done, done > 0.0 ? elapsed * (1.0 - done) / done : 0.0, tty ? "   " : "\n");
    std::fflush(stderr);
  };
}

/// "250x real time", or "3.2x slower than real time" when the computing takes longer; not timed
/// when the run integrated nothing, or too little time (or computed too briefly) for a ratio.
std::string speed_against_real_time(double simulated, double computing) {
  if (!(simulated > 0.0)) return "nothing integrated";
  const double ratio = simulated / computing;
  if (!(computing > 1e-9) || !(ratio > 1e-12)) return "too short to time";
  if (ratio >= 1.0) return fmt::format("{:.0f}x real time", ratio);
  return fmt::format("{:.2g}x slower than real time", 1.0 / ratio);
}

/// What the summary says of the rows, gathered chunk by chunk: the first coordinate's speed
/// range and mean, every coordinate at the end, the time held by static friction.
struct RowSummary {
  Eigen::Index rows = 0, stuck_rows = 0;
  double qd_lo = INFINITY, qd_hi = -INFINITY, qd_sum = 0.0, stuck_time = 0.0, t_last = 0.0;
  bool stuck_last = false;
  Eigen::VectorXd q_end, qd_end;

  void add(const dynamics::SimulationResult& r) {
    for (Eigen::Index k = 0; k < r.rows(); ++k) {
      const double qd = r.qd(k, 0);
      qd_lo = std::min(qd_lo, qd), qd_hi = std::max(qd_hi, qd), qd_sum += qd;
      const bool stuck = r.stuck(k) > 0;
      if (rows > 0 && stuck && stuck_last) stuck_time += r.t(k) - t_last;
      stuck_rows += stuck ? 1 : 0;
      stuck_last = stuck, t_last = r.t(k);
      ++rows;
    }
    if (r.rows() > 0) q_end = r.q.row(r.rows() - 1).transpose(), qd_end = r.qd.row(r.rows() - 1).transpose();
    peak_w.resize(r.elastic.size(), 0.0), peak_t.resize(r.elastic.size(), 0.0), peak_node.resize(r.elastic.size(), 0);
    for (size_t l = 0; l < r.elastic.size(); ++l)
      for (Eigen::Index k = 0; k < r.rows(); ++k)
        for (Eigen::Index node = 0; node < r.elastic[l].node_w.cols(); ++node)
          if (std::abs(r.elastic[l].node_w(k, node)) > std::abs(peak_w[l]))
            peak_w[l] = r.elastic[l].node_w(k, node), peak_t[l] = r.t(k), peak_node[l] = static_cast<int>(node);
  }
  std::vector<double> peak_w, peak_t;  ///< per coupled elastic link: the largest |w| over the nodes, signed
  std::vector<int> peak_node;
};

void print_summary(const planar::Mechanism& m, const dynamics::DynamicSystem& system, const SimulateOptions& o,
                   const dynamics::SimulationResult& r, const RowSummary& rows, double seconds) {
  fmt::print(
      "{}: {} method ({}), t = [{:g}, {:g}] s, {} rows; {} steps, {} events, {} right-hand sides, {:.3g} s of "
      "computing ({})\n",
      m.spec().name, o.method, o.integrator, o.sim.t0, r.t_final, rows.rows, r.steps, r.events, r.rhs_evaluations,
      seconds, speed_against_real_time(r.t_final - o.sim.t0, seconds));
  if (o.method == "reduced")
    fmt::print("reduced model: {} intervals per {}, estimated relative interpolation error {:.2g}\n", r.table_points,
               m.drivers()[0].type == planar::DriverType::rotational ? "turn (or range)" : "range", r.table_error);
  for (const flex::ModalLink& link : system.elastic)
    fmt::print(
        "elastic link {}: coupled, on {} mode(s) at rest ({:.6g} to {:.6g} Hz), damping alpha {:.3g} 1/s beta {:.3g} "
        "s\n",
        link.name, link.modes, std::sqrt(link.frequency_squared(0)) / (2.0 * M_PI),
        std::sqrt(link.frequency_squared(link.modes - 1)) / (2.0 * M_PI), link.beam.damping_alpha,
        link.beam.damping_beta);
  const bool bearings = !system.mechanism->bearings().empty();
  fmt::print("pair friction: {}\n", r.friction ? "on" : bearings ? "off (--no-friction)" : "none in the model");
  if (rows.rows > 0) {
    const planar::Driver& first = m.drivers()[0];
    fmt::print("{} from {:.6g} to {:.6g}, mean {:.6g}; {} at the end {:.9g}\n", planar::driver_column(first, 1),
               rows.qd_lo, rows.qd_hi, rows.qd_sum / static_cast<double>(rows.rows), planar::driver_column(first),
               rows.q_end(0));
    for (Eigen::Index i = 1; i < rows.q_end.size(); ++i) {
      const planar::Driver& d = m.drivers()[static_cast<size_t>(i)];
      fmt::print("{} at the end {:.9g}, {} {:.9g}\n", planar::driver_column(d), rows.q_end(i),
                 planar::driver_column(d, 1), rows.qd_end(i));
    }
    if (rows.stuck_rows == rows.rows)
      fmt::print(
          "the machine stays at rest: static friction holds it throughout (its actuators and loads never "
          "exceed the static limit); raise the drive or lower the static friction to start it\n");
    else if (rows.stuck_last)
      fmt::print("the machine is at rest at the end, held by static friction (the drive does not exceed it)\n");
    else if (rows.stuck_time > 0.0)
      fmt::print("the machine stood still, held by static friction, for {:.6g} s\n", rows.stuck_time);
  }
  // The energy balance: input work - friction losses = change of kinetic + potential energy.
  double input = 0.0;
  for (double w : r.actuator_work) input += w;
  for (size_t l = 0; l < r.load_work.size(); ++l)
    if (!planar::conservative(m.spec().loads[l])) input += r.load_work[l];
  double loss = 0.0;
  for (size_t k = 0; k < r.friction_loss.size(); ++k)
    if (system.coulomb[k].pair_friction()) loss += r.friction_loss[k];
  fmt::print(
      "energy: input work {:.9g} J (actuators and loads), pair friction {:.9g} J, change of kinetic + potential {:.9g} "
      "J; "
      "residual {:.3g} J\n",
      input, loss, r.energy_change, r.energy_residual);
  if (!system.elastic.empty())
    fmt::print("  elastic links: damping {:.9g} J dissipated, geometric stiffness work {:.9g} J (in the balance)\n",
               r.elastic_damping_loss, r.geometric_work);
  for (size_t l = 0; l < rows.peak_w.size(); ++l)
    fmt::print("elastic link {}: peak transverse deflection {:.6g} m at node {} (t = {:.6g} s)\n",
               system.elastic[l].name, rows.peak_w[l], rows.peak_node[l], rows.peak_t[l]);
  for (size_t k = 0; k < r.actuator_work.size(); ++k)
    fmt::print("  work of {}: {:.9g} J\n", system.machine.actuators[k].name, r.actuator_work[k]);
  for (size_t k = 0; k < r.friction_loss.size(); ++k)
    if (system.coulomb[k].pair_friction() && r.friction_loss[k] > 0.0)
      fmt::print("  friction loss in {}: {:.9g} J\n", system.coulomb[k].name, r.friction_loss[k]);
}

void run_simulate(SimulateOptions o) {
  io::Model model = io::read_model(o.model);
  const planar::Mechanism m = planar::compile(model.mechanism);
  planar::require_start_assembly(m, m.default_grid());
  check_output_paths({{"--csv", o.csv}, {"--json", o.json}}, model_inputs(m.spec()));
  require_within_max_steps(o.sim.steps, {}, "--steps");
  require_within_max_steps(o.sim.table_points, {}, "--table-points", "table points");
  o.sim.method = dynamics::method_named(o.method);
  o.sim.integrator = o.integrator == "dopri5" ? dynamics::Integrator::dopri5 : dynamics::Integrator::rkf78;
  o.sim.friction = !o.no_friction;
  o.sim.kinematics = !o.no_kinematics;
  const planar::Driver& first = m.drivers()[0];
  if (!o.q0.empty()) o.sim.q0 = driver_quantity(first, o.q0, 0, "--q0");
  if (!o.qd0.empty()) o.sim.qd0 = driver_quantity(first, o.qd0, 1, "--qd0");
  if (!o.mean_speed_text.empty()) o.mean_speed = driver_quantity(first, o.mean_speed_text, 1, "--mean-speed");
  auto system = std::make_unique<dynamics::DynamicSystem>(m, model.machine);
  // Elastic links act on the motion with Kane's and the full method; the reduced one takes them rigid.
  if (!model.elastic_links.empty() && !o.rigid_links) {
    // (the automatic method: the reduced one for one DOF, which takes them rigid)
    const bool reduced = o.sim.method == dynamics::Method::reduced ||
                         (o.sim.method == dynamics::Method::automatic && m.drivers().size() == 1);
    if (!reduced) {
      if (o.steady || o.mean_speed != 0.0 || o.fluctuation > 0.0)
        throw InputError(m.spec().where, "elastic link '" + model.elastic_links.front().name + "'",
                         "--steady, --mean-speed and --fluctuation take the machine rigid, not its coupled links",
                         "add --rigid-links, or run the coupled machine from its start long enough for damping "
                         "to settle it");
      dynamics::couple_elastic_links(*system, model.elastic_links, o.elastic_modes);
    } else {
      fmt::print(stderr,
                 "note: the elastic links are simulated as rigid bodies by the reduced method; --method kane (or "
                 "full) couples them with the motion\n");
    }
  }
  // The method, once (its tables are built here and kept for the runs that follow).
  std::string note;
  o.sim.method = dynamics::resolve_method(*system, o.sim, note);
  o.method = dynamics::method_name(o.sim.method);
  if (!note.empty()) fmt::print(stderr, "note: {}\n", note);
  o.sim.progress = progress_reporter(o.sim.t0, o.sim.t_end);
  if (o.steady || o.mean_speed != 0.0 || o.fluctuation > 0.0) o.sim = steady_setup(m, model.machine, o, system);
  o.sim.progress = progress_reporter(o.sim.t0, o.sim.t_end);
  // The rows go to the files as they are computed (chunk by chunk), unless the plots need them.
  std::unique_ptr<TableFiles> files;
  RowSummary rows;
  if (o.plot_dir.empty())
    o.sim.on_rows = [&](const dynamics::SimulationResult& chunk) {
      const Table table = io::simulation_table(*system, chunk);
      if (!files) {
        files = std::make_unique<TableFiles>(table, o.csv, o.json, model_inputs(m.spec()));
      } else {
        files->append(table);
      }
      rows.add(chunk);
    };
  const auto start = std::chrono::steady_clock::now();
  const dynamics::SimulationResult r = dynamics::simulate(*system, o.sim);
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (isatty(fileno(stderr))) fmt::print(stderr, "\r{:60}\r", "");
  if (!o.sim.on_rows) rows.add(r);
  print_summary(m, *system, o, r, rows, seconds);
  nlohmann::ordered_json extra;
  extra["settings"] = {{"method", o.method},          {"integrator", o.integrator}, {"t0", o.sim.t0},
                       {"t_end", o.sim.t_end},        {"steps", o.sim.steps},       {"rel_tol", o.sim.rel_tol},
                       {"abs_tol", o.sim.abs_tol},    {"friction", r.friction},     {"table_points", r.table_points},
                       {"table_error", r.table_error}};
  extra["energy"] = {{"actuator_work", r.actuator_work},
                     {"load_work", r.load_work},
                     {"friction_loss", r.friction_loss},
                     {"energy_change", r.energy_change},
                     {"residual", r.energy_residual}};
  if (!system->elastic.empty()) {
    extra["energy"]["elastic_damping_loss"] = r.elastic_damping_loss;
    extra["energy"]["geometric_work"] = r.geometric_work;
    extra["settings"]["elastic_modes"] = o.elastic_modes;
  }
  if (!note.empty()) extra["settings"]["method_note"] = note;
  if (r.stopped) extra["stopped"] = {{"t", r.t_final}, {"message", r.stop_message}};
  // Whatever was computed is written, also when the run stopped early.
  const nlohmann::ordered_json metadata = analysis_metadata(m, o.model, "simulate", planar::SweepSummary{}, extra);
  if (!files)
    files = std::make_unique<TableFiles>(io::simulation_table(*system, r), o.csv, o.json, model_inputs(m.spec()));
  files->finish(metadata);
  if (!o.plot_dir.empty()) write_plots(o.plot_dir, report::simulation_plots(*system, r));
  dynamics::throw_if_stopped(r);
}

}  // namespace

void add_simulate_command(CLI::App& app) {
  auto options = std::make_shared<SimulateOptions>();
  CLI::App* cmd = app.add_subcommand(
      "simulate",
      "Direct dynamics of a machine with motors, resistances and friction (any DOF with --method kane or full)");
  cmd->add_option("MODEL", options->model, "Model file (YAML)")->required();
  cmd->add_option("--t-end", options->sim.t_end, "End time (s, or with a unit: 300ms)")
      ->transform(in_si(Quantity::time))
      ->check(positive)
      ->capture_default_str();
  cmd->add_option("--steps", options->sim.steps, "Output rows - 1")->check(positive)->capture_default_str();
  add_max_steps_option(cmd);
  cmd->add_option("--max-integrator-steps", options->sim.max_integrator_steps,
                  "The integrator's step budget; beyond it the run stops with the rows so far (default: 10^5 + 100 "
                  "per output row)")
      ->check(positive);
  add_method_options(cmd, options->method, options->sim.rel_tol);
  cmd->add_option("--integrator", options->integrator,
                  "rkf78 (Runge-Kutta-Fehlberg 7(8)) or dopri5 (Dormand-Prince 5(4))")
      ->check(CLI::IsMember({"rkf78", "dopri5"}))
      ->capture_default_str();
  cmd->add_option("--atol", options->sim.abs_tol, "Absolute tolerance of the integration")
      ->check(positive)
      ->capture_default_str();
  cmd->add_option("--q0", options->q0,
                  "Initial value of the first driver coordinate, SI or with a unit: 90deg, 20mm (default: its motion "
                  "law's at t = 0)");
  cmd->add_option("--qd0", options->qd0,
                  "Initial speed of the first driver coordinate, SI or with a unit: 300rpm, 0.5m/s (default: its "
                  "motion law's)");
  cmd->add_flag("--no-friction", options->no_friction,
                "Leave out the Coulomb friction of the pairs (the actuators' resistances stay)");
  cmd->add_flag("--reactions", options->sim.reactions, "Write every pair's reaction at every row");
  cmd->add_flag("--no-kinematics", options->no_kinematics, "Leave out the bodies' and points' columns");
  cmd->add_option(
         "--table-points,--points", options->sim.table_points,
         "Reduced method: intervals of the table per turn (default 0: refined until the interpolation error is "
         "below --table-tolerance)")
      ->check(non_negative)
      ->capture_default_str();
  cmd->add_option("--table-tolerance", options->sim.table_tolerance,
                  "Reduced method: relative interpolation error of the table (default 0: --rtol / 10)")
      ->check(non_negative)
      ->capture_default_str();
  cmd->add_flag("--rigid-links", options->rigid_links,
                "Kane's and the full method: take the elastic links as rigid bodies (by default their deformation is "
                "integrated with the motion)");
  cmd->add_option(
         "--elastic-modes", options->elastic_modes,
         "Kane's and the full method: the modes at rest on which each elastic link deforms (0: every degree of freedom "
         "of its beam; the highest ones make the integration stiff)")
      ->check(non_negative)
      ->capture_default_str();
  cmd->add_flag("--steady", options->steady, "Start from the steady (periodic) regime and simulate --cycles cycles");
  cmd->add_option("--cycles", options->cycles, "Steady cycles to simulate")->check(positive)->capture_default_str();
  cmd->add_option("--mean-speed", options->mean_speed_text,
                  "Solve the --adjust actuators' common scale for this mean speed of the first driver, SI or with a "
                  "unit: 30rpm");
  cmd->add_option("--adjust", options->adjust, "Actuators whose value (torque, voltage, T0) is scaled for --mean-speed")
      ->delimiter(',');
  cmd->add_option("--fluctuation", options->fluctuation,
                  "Add inertia to --flywheel until (max - min) / mean speed is at most this");
  cmd->add_option("--flywheel", options->flywheel, "The body that receives the added inertia");
  cmd->add_option("--plot", options->plot_dir, "Write one SVG file per plot into this folder");
  cmd->add_option("--csv", options->csv, "Write the table as CSV");
  add_digits_option(cmd);
  add_every_option(cmd);
  cmd->add_option("--json", options->json, "Write the table and metadata as JSON");
  cmd->callback([options] { run_simulate(*options); });
}

}  // namespace linkdyn::cli
