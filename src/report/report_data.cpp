#include "report/report_data.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cmath>
#include <optional>

#include "linkdyn/core/interrupt.hpp"
#include "linkdyn/dynamics/simulate.hpp"
#include "linkdyn/io/design_numbers.hpp"
#include "linkdyn/planar/motion_law.hpp"
#include "report/axes.hpp"

namespace linkdyn::report {
namespace {

using planar::Mechanism;

std::string sweep_summary(const Mechanism& m, const planar::TimeGrid& grid, const planar::SweepSummary& sweep) {
  std::string text = fmt::format("structure: {}\ndegrees of freedom: {}\nsteps: {} over t = [{:g}, {:g}] s\n",
                                 m.structure_string(), m.dof(), grid.steps, grid.t0, grid.t_end);
  for (const planar::SweepEvent& e : sweep.events) text += fmt::format("t = {:.6g} s: {}\n", e.t, e.message);
  return text;
}

/// The drivers' values at a row: "crank_drive = 123.4 deg", several comma-separated.
std::string driver_values_at(const Mechanism& m, const planar::KinetostaticsResult& r, Eigen::Index row) {
  std::string text;
  for (size_t d = 0; d < m.drivers().size(); ++d) {
    const planar::Driver& driver = m.drivers()[d];
    const double q = r.q(row, static_cast<Eigen::Index>(d));
    text += (d ? ", " : "") +
            (driver.type == planar::DriverType::rotational
                 ? fmt::format("{} = {:.4g} deg", driver.name, std::abs(q) < 1e-12 ? 0.0 : q * 180.0 / M_PI)
                 : fmt::format("{} = {:.6g} m", driver.name, q));
  }
  return text;
}

/// The row nearest to time t.
Eigen::Index row_at(const planar::KinetostaticsResult& r, double t) {
  Eigen::Index best = 0;
  for (Eigen::Index k = 1; k < r.t.size(); ++k)
    if (std::abs(r.t(k) - t) < std::abs(r.t(best) - t)) best = k;
  return best;
}

std::string kinetostatics_summary(const Mechanism& m, const planar::KinetostaticsResult& r) {
  const planar::KinetostaticsSummary& ksum = r.summary;
  std::string text = fmt::format("mean driving power: {:.6g} W; driving work {:.6g} J; friction loss {:.6g} J\n",
                                 ksum.mean_driver_power, ksum.driver_work, ksum.friction_work);
  // What a motor is sized by: each driver's peak and RMS effort, with and without friction.
  for (size_t d = 0; d < m.drivers().size() && ksum.rows > 0; ++d) {
    const planar::Driver& driver = m.drivers()[d];
    const std::string unit = effort_axis(m, d).unit;
    for (const bool with_friction : {true, false}) {
      const planar::EffortStatistics& e = with_friction ? ksum.effort[d] : ksum.effort_frictionless[d];
      Eigen::Index at = 0;  // the row of the peak
      while (at + 1 < r.rows() && r.t(at) != e.peak_t) ++at;
      text += fmt::format("driver {} effort{}: peak |.| {:.6g} {} at {} (t = {:.6g} s), RMS {:.6g} {}\n", driver.name,
                          with_friction ? "" : " without friction", e.peak, unit, driver_values_at(m, r, at), e.peak_t,
                          e.rms, unit);
    }
  }
  if (ksum.has_useful_loads && ksum.driver_work > 0) {
    text += fmt::format("cycle efficiency (useful / driving work): {:.4f}\n", ksum.useful_work / ksum.driver_work);
    if (std::abs(ksum.useful_work) <= 1e-9 * ksum.driver_work)
      text +=
          "  (zero: the useful loads do no net work over the cycle, e.g. a spring or weight that gives back what "
          "it takes)\n";
  } else if (!ksum.has_useful_loads) {
    text += "cycle efficiency: no load is marked useful (useful: true), so none is computed\n";
  }
  for (size_t k = 0; k < m.spec().joints.size(); ++k)
    if (!m.joints()[k].is<planar::GearPair>())
      text +=
          fmt::format("pair {}: max |F| {:.6g} N at {} (t = {:.6g} s), friction loss {:.6g} J\n", m.joints()[k].name,
                      ksum.max_reaction[k], driver_values_at(m, r, row_at(r, ksum.max_reaction_t[k])),
                      ksum.max_reaction_t[k], ksum.friction_energy[k]);
  for (size_t p = 0; p < m.pins().size(); ++p)
    text +=
        fmt::format("compound pin {}: max |F| on a member {:.6g} N at {} (t = {:.6g} s), friction loss {:.6g} J\n",
                    m.pins()[p].name, ksum.pin_max_force[p], driver_values_at(m, r, row_at(r, ksum.pin_max_force_t[p])),
                    ksum.pin_max_force_t[p], ksum.pin_friction_energy[p]);
  if (ksum.flagged > 0) text += fmt::format("{} position(s) near self-locking\n", ksum.flagged);
  return text;
}

/// The steady regime's lines of the summary: its speeds, each actuator's and the friction's
/// energy per cycle, and each DC motor's operating point (mean and RMS current, mean torque at
/// its body, mean speeds, mean electrical power).
std::string steady_summary(const dynamics::DynamicSystem& system, const dynamics::SteadyRegime& s,
                           const dynamics::SimulationResult& cycle) {
  const Mechanism& m = *system.mechanism;
  const planar::Driver& driver = m.drivers()[0];
  const bool rot = driver.type == planar::DriverType::rotational;
  const double to_rpm = 30.0 / M_PI;
  std::string text = fmt::format(
      "steady regime: period {:.6g} s, mean speed {:.6g} {} ({}), speed {:.6g} to {:.6g}, fluctuation {:.4g}\n",
      s.period, rot ? s.mean_speed * to_rpm : s.mean_speed, rot ? "rpm" : "m/s", driver.name,
      rot ? s.qd_min * to_rpm : s.qd_min, rot ? s.qd_max * to_rpm : s.qd_max, s.fluctuation);
  for (size_t k = 0; k < s.actuator_work.size(); ++k)
    text += fmt::format("  energy per cycle: {} {:.6g} J\n", system.machine.actuators[k].name, s.actuator_work[k]);
  double friction = 0.0;  // the pairs' (the resistances have their own lines)
  for (size_t k = 0; k < cycle.friction_loss.size(); ++k)
    if (system.coulomb[k].pair_friction()) friction += cycle.friction_loss[k];
  if (cycle.friction) text += fmt::format("  energy per cycle: friction in the pairs {:.6g} J\n", friction);
  // Means over the cycle's uniform rows (the first and last rows are the same state).
  const Eigen::Index n = cycle.rows() - 1;
  if (n < 1) return text;
  for (size_t k = 0; k < system.motors.size(); ++k) {
    const auto a = static_cast<size_t>(system.motors[k]);
    const dynamics::DcMotor& motor = system.machine.actuators[a].as<dynamics::DcMotor>();
    const auto i = cycle.current.col(static_cast<Eigen::Index>(k)).head(n);
    const auto torque = cycle.effort.col(static_cast<Eigen::Index>(a)).head(n);
    const double mean_i = i.mean(), rms_i = std::sqrt(i.squaredNorm() / static_cast<double>(n));
    // The motor's body's mean speed (the cycle's poses), through the reducer: omega_body = ratio omega_motor.
    const int body = system.machine.actuators[a].body;
    const double body_speed = cycle.kinematics.omega.col(body - 1).head(n).mean();
    text += fmt::format(
        "  DC motor '{}' operating point: current mean {:.6g} A, RMS {:.6g} A (peak {:.6g} A); torque on {} mean "
        "{:.6g} N m; motor shaft {:.6g} rpm; electrical power mean {:.6g} W\n",
        system.machine.actuators[a].name, mean_i, rms_i, i.cwiseAbs().maxCoeff(),
        m.bodies()[static_cast<size_t>(system.machine.actuators[a].body)].name, torque.mean(),
        body_speed / motor.ratio * to_rpm, motor.voltage * mean_i);
  }
  return text;
}

/// The reduced parameters and a simulation under the actuators, for a one-DOF mechanism: their
/// sections (when they run) and their lines of the summary. The simulation is the steady cycle
/// (plotted against time and, linked to the animation, against the driver's coordinate) or the
/// start-up from rest, as options.dynamics says.
void add_dynamics(const Mechanism& m, const dynamics::MachineSpec& machine, const planar::TimeGrid& grid,
                  const XAxis& x, const ReportOptions& options, ReportData& data) {
  try {
    // Linked to the animation when it runs against the same axis (the driver's coordinate, not time).
    std::vector<Chart> reduced = reduced_plots(m, dynamics::tabulate_reduced_parameters(m, 360));
    for (Chart& p : reduced) p.linked = p.x == x.axis;
    data.sections.push_back({"Reduced parameters", std::move(reduced)});
    if (machine.actuators.empty()) return;
    dynamics::SimulationOptions so;
    so.t0 = grid.t0;
    so.steps = 600;
    so.rel_tol = so.abs_tol = options.rel_tol;
    so.kinematics = true;  // the bodies' speeds (the motors' operating points)
    const dynamics::DynamicSystem system(m, machine);
    std::string note;
    so.method = dynamics::resolve_method(system, so, note);
    if (!note.empty()) data.summary += "direct dynamics by " + note + "\n";
    std::optional<dynamics::SteadyRegime> steady;
    std::string why_not;
    if (options.dynamics != DynamicsRun::start_up) {
      try {
        steady = dynamics::steady_regime(system, so, planar::evaluate(m.drivers()[0].law, grid.t0).qd);
      } catch (const Interrupted&) {
        throw;
      } catch (const std::exception& e) {
        if (options.dynamics == DynamicsRun::steady)
          throw AnalysisError(std::string("report --steady: no steady regime: ") + e.what() +
                              "; use --start-up for the run from rest");
        why_not = e.what();
      }
    }
    if (steady) {
      so.qd0 = steady->qd0;
      so.current0 = steady->current0;
      so.t_end = grid.t0 + steady->period;
    } else {
      so.qd0 = 0.0;
      const double duration = std::isfinite(options.start_up_duration) ? options.start_up_duration
                                                                       : std::max(1.0, 5.0 * (grid.t_end - grid.t0));
      so.t_end = grid.t0 + duration;
    }
    const dynamics::SimulationResult run = dynamics::simulate(system, so);
    if (steady) {
      std::vector<Chart> cycle = cycle_plots(system, run);
      for (Chart& p : cycle) p.linked = p.x == x.axis;
      data.sections.push_back(
          {"Direct dynamics: the steady cycle against " + cycle.front().x.label(), std::move(cycle)});
    }
    std::vector<Chart> timed = simulation_plots(system, run);
    if (!timed.empty())
      data.sections.push_back({steady ? "Direct dynamics: the steady cycle against time"
                                      : "Direct dynamics: the start-up from rest against time",
                               std::move(timed)});
    if (steady) {
      data.summary += steady_summary(system, *steady, run);
    } else {
      if (!why_not.empty()) data.summary += "no steady regime found (" + why_not + "): the start-up is shown\n";
      data.summary += fmt::format("direct dynamics: start-up from rest at t = {:g} s until t = {:g} s{}\n", so.t0,
                                  run.t_final, run.stopped ? " (stopped: " + run.stop_message + ")" : "");
    }
  } catch (const Interrupted&) {
    throw;
  } catch (const std::exception& e) {
    if (options.dynamics != DynamicsRun::automatic) throw;  // asked for: the report fails and says why
    data.summary += std::string("reduced parameters / dynamics not shown: ") + e.what() + "\n";
  }
}

}  // namespace

ReportData report_data(const Mechanism& m, const dynamics::MachineSpec& machine, const planar::TimeGrid& grid,
                       const ReportOptions& options) {
  ReportData data;
  data.title = m.spec().name;
  data.kinetostatics = options.kinetostatics;
  const planar::KinematicsResult kinematics = planar::kinematics(m, grid);
  const XAxis x = x_axis(m, kinematics.t, kinematics.q);
  data.animation = animation(m, machine, grid, kinematics, x, options.max_frames);
  data.summary = sweep_summary(m, grid, kinematics.summary);
  data.summary += io::design_numbers_text(m, planar::design_numbers(m, kinematics));
  data.sections.push_back({"Kinematics", kinematics_plots(m, kinematics, options.along)});
  if (options.kinetostatics) {
    const planar::KinetostaticsResult kinetostatics = planar::kinetostatics(m, grid, options.solver);
    if (kinetostatics.rows() > 0) {
      data.sections.push_back({"Kinetostatics", kinetostatics_plots(m, kinetostatics)});
      data.summary += kinetostatics_summary(m, kinetostatics);
    } else {  // e.g. a grid of one or two steps on a parallelogram's singular positions
      data.kinetostatics = false;
      const std::vector<double>& singular = kinetostatics.summary.unbounded_t;
      data.summary += "kinetostatics not shown: every position of the grid is singular or a dead point";
      if (!singular.empty())
        data.summary += fmt::format(" (reactions unbounded at t = {:.6g} s)", fmt::join(singular, ", "));
      data.summary += "; a grid of more steps passes between them\n";
    }
  }
  if (m.dof() == 1) add_dynamics(m, machine, grid, x, options, data);
  return data;
}

}  // namespace linkdyn::report
