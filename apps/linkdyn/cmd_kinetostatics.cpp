// linkdyn kinetostatics MODEL: driver efforts, pair reactions, friction losses and efficiency
// over the drivers' motion [001].
#include <fmt/core.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <nlohmann/json.hpp>

#include "commands.hpp"
#include "linkdyn/io/model_file.hpp"
#include "linkdyn/io/result_tables.hpp"
#include "linkdyn/report/report.hpp"
#include "linkdyn/planar/kinetostatics.hpp"

namespace linkdyn::cli {
namespace {

struct KinetostaticsCliOptions {
  std::string model, csv, json, plot_dir;
  int steps = 0;
  bool no_friction = false;
  planar::KinetostaticsOptions solver;
};

/// Each cylinder's peak pressures, pushing and pulling; a warning where one is above its relief
/// valve's (the valve opens there: the machine cannot follow its law).
void print_cylinder_pressures(const planar::Mechanism& m, const planar::KinetostaticsSummary& s) {
  bool header = false;
  for (const planar::Cylinder& c : m.cylinders()) {
    if (!c.has_areas()) continue;
    if (!header)
      fmt::print("{:<16} {:>14} {:>12} {:>14} {:>12} {:>10}\n", "cylinder", "push max bar", "at t s", "pull max bar",
                 "at t s", "relief"),
          header = true;
    const planar::EffortStatistics& e = s.effort[static_cast<size_t>(c.driver)];
    const double push = e.most / c.piston_area, pull = -e.least / c.annulus_area;
    // "-" where it never pushes (or never pulls).
    const auto bar = [](double p) { return p > 0.0 ? fmt::format("{:.6g}", p / 1e5) : std::string("-"); };
    const auto when = [](double p, double t) { return p > 0.0 ? fmt::format("{:.6g}", t) : std::string("-"); };
    fmt::print("{:<16} {:>14} {:>12} {:>14} {:>12} {:>10}\n", c.name, bar(push), when(push, e.most_t), bar(pull),
               when(pull, e.least_t), bar(c.relief));
    if (c.relief > 0.0 && std::max(push, pull) > c.relief)
      fmt::print(
          "warning: cylinder {} needs {:.6g} bar at t = {:.6g} s, above its relief valve's {:g} bar: the valve opens "
          "there and the machine cannot follow its law (a larger bore, a higher relief, or a lighter load)\n",
          c.name, std::max(push, pull) / 1e5, push >= pull ? e.most_t : e.least_t, c.relief / 1e5);
  }
}

/// A cam's closing spring: its closing force at the base circle now and the least that keeps the
/// follower on the cam at this speed, with the change of its free length (or angle) that gives it.
void print_cam_closing(const planar::Mechanism& m, const planar::Joint& j, const planar::CamClosing& c) {
  if (c.spring < 0 || c.sense == 0) return;
  const planar::Load& load = m.spec().loads[static_cast<size_t>(c.spring)];
  if (!c.closes) {
    fmt::print(
        "cam {}: spring '{}' does not press the follower on the cam at every position: no preload of it keeps "
        "the follower there\n",
        j.name, load.name);
    return;
  }
  const bool linear = load.is<planar::Spring>();
  const std::string unit = linear ? "N" : "N m";
  // Its force k (L - L0) (or -k (dtheta - theta0)) grows by sense * extra: L0 by -sense extra / k.
  std::string change;
  if (linear) {
    const double dl = -c.sense * c.extra / load.as<planar::Spring>().stiffness;
    change = fmt::format("its free length {:.4g} mm {}", std::abs(dl) * 1e3, dl > 0.0 ? "longer" : "shorter");
  } else {
    const double da = c.sense * c.extra / load.as<planar::TorsionalSpring>().stiffness;
    change = fmt::format("its free angle {:+.4g} deg", da * 180.0 / M_PI);
  }
  const double least = c.base_force + c.extra;
  if (least <= 0.0) {
    fmt::print(
        "cam {}: closing spring '{}': {:.6g} {} at the base circle; the follower stays on the cam at this speed "
        "without it (the least is {:.6g} {}: gravity and the loads hold it on)\n",
        j.name, load.name, c.base_force, unit, least, unit);
    return;
  }
  fmt::print(
      "cam {}: closing spring '{}': {:.6g} {} at the base circle; the least that keeps the follower on the cam at this "
      "speed is {:.6g} {} ({:+.6g} {}, {}; binding at t = {:.6g} s)\n",
      j.name, load.name, c.base_force, unit, least, unit, c.extra, unit, change, c.extra_t);
}

/// Each cam pair's least contact force; a warning where it turns negative (the follower would
/// leave the cam there: its spring is too weak for the speed); its closing spring's preload.
void print_cam_contacts(const planar::Mechanism& m, const planar::KinetostaticsSummary& s) {
  for (size_t k = 0; k < m.joints().size(); ++k) {
    if (!m.joints()[k].is<planar::CamPair>() || !std::isfinite(s.least_contact[k])) continue;
    const planar::Joint& j = m.joints()[k];
    fmt::print("cam {}: least contact force {:.6g} N at t = {:.6g} s\n", j.name, s.least_contact[k],
               s.least_contact_t[k]);
    if (s.least_contact[k] < 0.0)
      fmt::print(
          "warning: cam {}: the contact force turns negative ({:.6g} N at t = {:.6g} s): the follower leaves the cam "
          "there (a stiffer or more preloaded spring, or a lower speed)\n",
          j.name, s.least_contact[k], s.least_contact_t[k]);
    print_cam_closing(m, j, s.closing[static_cast<size_t>(j.as<planar::CamPair>().index)]);
  }
}

void print_summary(const planar::Mechanism& m, const planar::KinetostaticsSummary& s, bool friction) {
  fmt::print("mean driving power {:.6g} W over {:.6g} s; driving work {:.6g} J\n", s.mean_driver_power, s.duration,
             s.driver_work);
  if (friction) {
    fmt::print("friction: {:.6g} J lost; iterations per position mean {:.2f}, max {}\n", s.friction_work,
               s.mean_iterations, s.max_iterations);
    if (s.driver_work > 0.0) {
      const double efficiency = 1.0 - s.friction_work / s.driver_work;
      // Rounding of equal works (all the input lost to friction) is no "-0.000000".
      fmt::print("cycle efficiency 1 - friction / driving work: {:.6f}\n",
                 std::abs(efficiency) < 5e-7 ? 0.0 : efficiency);
    }
  }
  if (s.has_useful_loads && s.driver_work > 0.0)
    fmt::print("cycle efficiency useful / driving work [001 Eq. 1]: {:.6f} (useful work {:.6g} J)\n",
               s.useful_work / s.driver_work, s.useful_work);
  fmt::print("{:<16} {:>14} {:>12} {:>14} {:>24}\n", "driver effort", "peak |.|", "at t s", "RMS",
             "without friction: peak, RMS");
  for (size_t d = 0; d < m.drivers().size(); ++d) {
    const planar::Driver& driver = m.drivers()[d];
    const char* unit = driver.type == planar::DriverType::rotational ? "N m" : "N";
    fmt::print("{:<16} {:>14.6g} {:>12.6g} {:>14.6g} {:>11.6g}, {:<11.6g} {}\n", driver.name, s.effort[d].peak,
               s.effort[d].peak_t, s.effort[d].rms, s.effort_frictionless[d].peak, s.effort_frictionless[d].rms, unit);
  }
  print_cylinder_pressures(m, s);
  print_cam_contacts(m, s);
  fmt::print("{:<16} {:>16} {:>14} {:>12}\n", "pair", "friction loss J", "max |F| N", "at t s");
  for (size_t k = 0; k < m.spec().joints.size(); ++k) {
    if (m.joints()[k].is<planar::GearPair>()) continue;
    fmt::print("{:<16} {:>16.6g} {:>14.6g} {:>12.6g}\n", m.joints()[k].name, s.friction_energy[k], s.max_reaction[k],
               s.max_reaction_t[k]);
  }
  for (size_t p = 0; p < m.pins().size(); ++p)  // max |F|: the largest force on a member
    fmt::print("{:<16} {:>16.6g} {:>14.6g} {:>12.6g}\n", m.pins()[p].name, s.pin_friction_energy[p], s.pin_max_force[p],
               s.pin_max_force_t[p]);
  if (s.limit_rows > 0)
    fmt::print(
        "{} row(s) at a removable singular position: reactions and efforts there are their limits (column singular = "
        "1)\n",
        s.limit_rows);
  if (!s.unbounded_t.empty()) {
    fmt::print(
        "warning: at {} singular position(s) the reactions grow without bound (the loads cannot be carried there;\n"
        "  rows left out), at t =",
        s.unbounded_t.size());
    for (size_t k = 0; k < s.unbounded_t.size() && k < 5; ++k) fmt::print(" {:.6g}", s.unbounded_t[k]);
    fmt::print(" s\n");
  }
  if (s.flagged > 0) {
    fmt::print(
        "warning: {} position(s) near self-locking (the successive approximations do not converge; their\n"
        "  friction-dependent cells are empty), at t =",
        s.flagged);
    for (size_t k = 0; k < s.flagged_t.size() && k < 5; ++k) fmt::print(" {:.6g}", s.flagged_t[k]);
    fmt::print(" s (column self_locking = 1)\n");
  }
}

void run_kinetostatics(KinetostaticsCliOptions o) {
  const planar::Mechanism m = io::load_mechanism(o.model);
  const planar::TimeGrid grid = bounded_analysis_grid(m, o.steps);
  o.solver.friction = !o.no_friction;
  planar::KinetostaticsResult all;  // every row, for the plots only
  const Table columns = io::kinetostatics_table(m, all);
  TableFiles files(columns, o.csv, o.json, model_inputs(m.spec()));
  const SweepProgress progress("kinetostatics");
  // Rows streamed to the files chunk by chunk; the plots need them all.
  const Eigen::Index chunk = o.plot_dir.empty() ? files.chunk_rows() : grid.steps + 1;
  const planar::KinetostaticsSummary summary =
      planar::kinetostatics(m, grid, o.solver, chunk, [&](planar::KinetostaticsResult& rows) {
        files.append(io::kinetostatics_table(m, rows));
        if (!o.plot_dir.empty()) all = std::move(rows);
      });
  fmt::print("{}: {} -> {} steps over t = [{:g}, {:g}] s, friction {}\n", m.spec().name, m.structure_string(),
             grid.steps, grid.t0, grid.t_end,
             o.solver.friction ? fmt::format("on (tolerance {:g} N)", o.solver.tolerance) : std::string("off"));
  print_sweep_events(m, summary.sweep);
  planar::check_kinetostatics(m, summary);
  print_summary(m, summary, o.solver.friction);
  nlohmann::ordered_json extra;
  extra["settings"] = {{"t0", grid.t0},
                       {"t_end", grid.t_end},
                       {"steps", grid.steps},
                       {"friction", o.solver.friction},
                       {"tolerance", o.solver.tolerance},
                       {"max_iterations", o.solver.max_iterations}};
  extra["summary"] = {{"mean_driver_power", summary.mean_driver_power},
                      {"driver_work", summary.driver_work},
                      {"useful_work", summary.useful_work},
                      {"friction_work", summary.friction_work},
                      {"mean_iterations", summary.mean_iterations},
                      {"self_locking_rows", summary.flagged},
                      {"efficiency", summary.driver_work > 0.0 && o.solver.friction
                                         ? nlohmann::ordered_json(1.0 - summary.friction_work / summary.driver_work)
                                         : nlohmann::ordered_json(nullptr)}};
  nlohmann::ordered_json pairs = nlohmann::ordered_json::object();
  for (size_t k = 0; k < m.spec().joints.size(); ++k)
    pairs[m.joints()[k].name] = {{"friction_energy", summary.friction_energy[k]},
                                 {"max_force", summary.max_reaction[k]},
                                 {"max_force_t", summary.max_reaction_t[k]}};
  for (int joint : m.cam_pairs()) {
    // A cam: its least contact force and its closing spring's preload (print_cam_closing).
    const planar::Joint& j = m.joints()[static_cast<size_t>(joint)];
    nlohmann::ordered_json& pair = pairs[j.name];
    pair["least_contact_force"] = summary.least_contact[static_cast<size_t>(joint)];
    pair["least_contact_force_t"] = summary.least_contact_t[static_cast<size_t>(joint)];
    const planar::CamClosing& c = summary.closing[static_cast<size_t>(j.as<planar::CamPair>().index)];
    if (c.spring >= 0 && c.sense != 0)
      pair["closing_spring"] = {{"spring", m.spec().loads[static_cast<size_t>(c.spring)].name},
                                {"closes", c.closes},
                                {"base_force", c.base_force},
                                {"least_base_force", c.closes ? nlohmann::ordered_json(c.base_force + c.extra)
                                                              : nlohmann::ordered_json(nullptr)},
                                {"binding_t", c.extra_t}};
  }
  for (size_t p = 0; p < m.pins().size(); ++p)
    pairs[m.pins()[p].name] = {{"friction_energy", summary.pin_friction_energy[p]},
                               {"max_force", summary.pin_max_force[p]},
                               {"max_force_t", summary.pin_max_force_t[p]}};
  extra["pairs"] = pairs;
  nlohmann::ordered_json efforts = nlohmann::ordered_json::object();
  for (size_t d = 0; d < m.drivers().size(); ++d)
    efforts[m.drivers()[d].name] = {{"peak", summary.effort[d].peak},
                                    {"peak_t", summary.effort[d].peak_t},
                                    {"rms", summary.effort[d].rms},
                                    {"peak_frictionless", summary.effort_frictionless[d].peak},
                                    {"rms_frictionless", summary.effort_frictionless[d].rms}};
  extra["driver_efforts"] = efforts;
  files.finish(analysis_metadata(m, o.model, "kinetostatics", summary.sweep, extra));
  all.summary = summary;
  if (!o.plot_dir.empty()) write_plots(o.plot_dir, report::kinetostatics_plots(m, all));
}

}  // namespace

void add_kinetostatics_command(CLI::App& app) {
  auto options = std::make_shared<KinetostaticsCliOptions>();
  CLI::App* cmd = app.add_subcommand(
      "kinetostatics", "Driver efforts, pair reactions, friction losses and efficiency over the drivers' motion");
  cmd->add_option("MODEL", options->model, "Model file (YAML)")->required();
  cmd->add_option("--steps", options->steps, "Number of steps (default: from the model's motion law)")->check(positive);
  add_max_steps_option(cmd);
  cmd->add_flag("--no-friction", options->no_friction, "Frictionless analysis");
  cmd->add_option("--tol", options->solver.tolerance,
                  "Friction iterations stop when no reaction changes more than this (N)")
      ->check(positive);
  cmd->add_option("--max-iter", options->solver.max_iterations, "Largest number of friction iterations per position")
      ->check(positive);
  cmd->add_option("--csv", options->csv, "Write the table as CSV");
  add_digits_option(cmd);
  add_every_option(cmd);
  cmd->add_option("--json", options->json, "Write the table and metadata as JSON");
  cmd->add_option("--plot", options->plot_dir, "Write one SVG file per plot into this folder");
  cmd->callback([options] { run_kinetostatics(*options); });
}

}  // namespace linkdyn::cli
