// Kinetostatics over a sweep: the table of efforts, reactions, friction power and efficiency,
// and the cycle summary.
#include <algorithm>
#include <cmath>

#include "linkdyn/planar/kinetostatics.hpp"

namespace linkdyn::planar {

void add_reaction_columns(const Joint& j, Table& table) {
  if (j.type == JointType::gear) {
    table.add_column(j.name + ".torque", "N m");
    return;
  }
  table.add_column(j.name + ".Fx", "N");
  table.add_column(j.name + ".Fy", "N");
  table.add_column(j.name + ".F", "N");
  if (j.type == JointType::prismatic) {
    table.add_column(j.name + ".N", "N");
    table.add_column(j.name + ".M", "N m");
  }
}

void add_pin_reaction_columns(const Mechanism& m, const CompoundPin& pin, Table& table) {
  for (int b : pin.bodies) {
    const std::string prefix = pin.name + "." + m.bodies()[b].name;
    table.add_column(prefix + ".Fx", "N");
    table.add_column(prefix + ".Fy", "N");
    table.add_column(prefix + ".F", "N");
  }
}

Table kinetostatics_table(const Mechanism& m, const TimeGrid& grid, const KinetostaticsOptions& options,
                          KinetostaticsSummary* summary) {
  Table table;
  table.add_column("t", "s");
  for (const Driver& d : m.drivers())
    table.add_column(driver_column(d), d.type == DriverType::rotational ? "rad" : "m");
  for (const Driver& d : m.drivers()) {
    const bool rot = d.type == DriverType::rotational;
    table.add_column(d.name + (rot ? ".torque" : ".force"), rot ? "N m" : "N");
    table.add_column(d.name + (rot ? ".torque_frictionless" : ".force_frictionless"), rot ? "N m" : "N");
  }
  for (const Joint& j : m.spec().joints) {  // the pins' own pairs are reported per pin
    add_reaction_columns(j, table);
    if (j.type != JointType::gear) table.add_column(j.name + ".friction_power", "W");
  }
  for (const CompoundPin& pin : m.pins()) {
    add_pin_reaction_columns(m, pin, table);
    table.add_column(pin.name + ".friction_power", "W");
  }
  table.add_column("friction.power", "W");
  table.add_column("driver.power", "W");
  table.add_column("efficiency", "1");
  table.add_column("iterations", "1");
  table.add_column("self_locking", "1");
  table.add_column("singular", "1");

  KinetostaticsSummary sum;
  const size_t n_joints = m.joints().size();
  sum.friction_energy.assign(n_joints, 0.0);
  const size_t n_loads = m.spec().loads.size();
  sum.load_activity.assign(n_loads, 0.0);
  std::vector<double> activity(n_loads), activity_prev(n_loads);
  sum.max_reaction.assign(n_joints, 0.0);
  sum.max_reaction_t.assign(n_joints, grid.t0);
  const size_t n_pins = m.pins().size();
  sum.pin_friction_energy.assign(n_pins, 0.0);
  sum.pin_max_force.assign(n_pins, 0.0);
  sum.pin_max_force_t.assign(n_pins, grid.t0);
  std::vector<double> pin_friction(n_pins), pin_friction_prev(n_pins);
  sum.has_useful_loads =
      std::any_of(m.spec().loads.begin(), m.spec().loads.end(), [](const Load& l) { return l.useful; });
  std::vector<double> row(table.width()), friction(n_joints), friction_prev(n_joints);
  table.values.reserve(static_cast<size_t>(grid.steps + 1) * table.width());
  Workspace ws(m);
  bool have_prev = false;
  double t_prev = 0, p_drive_prev = 0, p_useful_prev = 0, p_friction_prev = 0;
  long total_iterations = 0;

  SingularLimit limits(m);
  sum.sweep = sweep_kinematics(
      m, ws, grid,
      [&](int, double t, StepStatus step) {
        KinetostaticsStatus status;
        if (step == StepStatus::ok) {
          status = solve_kinetostatics(m, ws, t, options);
        } else if (step != StepStatus::limit || !solve_kinetostatics_as_limits(m, ws, t, options, limits, status)) {
          if (step == StepStatus::limit) sum.unbounded_t.push_back(t);
          have_prev = false;  // no integration across a gap or a dead point
          return;
        }
        // Near self-locking the reactions with friction are not defined: their cells stay empty.
        const bool valid = !status.self_locking;
        size_t c = 0;
        auto put = [&](double value) { row[c++] = valid ? value : Table::missing; };
        row[c++] = t;
        for (size_t d = 0; d < m.drivers().size(); ++d) row[c++] = ws.q[d];
        for (size_t d = 0; d < m.drivers().size(); ++d) {
          put(ws.effort[d]);
          row[c++] = ws.effort_frictionless[d];
        }
        double p_friction = 0.0;
        for (size_t k = 0; k < n_joints; ++k) {
          const Joint& j = m.joints()[k];
          const JointReaction& r = ws.reaction[k];
          friction[k] = 0.0;
          if (j.pin < 0) put_reaction(j, r, put);
          if (j.type == JointType::gear) continue;
          friction[k] = friction_power(m, ws, static_cast<int>(k));
          if (j.pin < 0) put(friction[k]);
          p_friction += friction[k];
          if (valid && r.force.norm() > sum.max_reaction[k])
            sum.max_reaction[k] = r.force.norm(), sum.max_reaction_t[k] = t;
        }
        for (size_t p = 0; p < n_pins; ++p) {
          put_pin_reaction(m, ws, static_cast<int>(p), put);
          pin_friction[p] = pin_friction_power(m, ws, static_cast<int>(p));
          put(pin_friction[p]);
          p_friction += pin_friction[p];
          for (size_t k = 0; valid && k < m.pins()[p].bodies.size(); ++k) {
            const double F = pin_force(m, ws, static_cast<int>(p), static_cast<int>(k)).norm();
            if (F > sum.pin_max_force[p]) sum.pin_max_force[p] = F, sum.pin_max_force_t[p] = t;
          }
        }
        const double p_drive = driver_power(m, ws);
        const double p_useful = load_power(m, ws, t, true);
        for (size_t k = 0; k < n_loads; ++k) activity[k] = std::abs(load_power(m, ws, m.spec().loads[k], t));
        put(p_friction);
        put(p_drive);
        // Instantaneous efficiency while the drivers deliver power: the share not lost to friction.
        put(p_drive > 0.0 ? 1.0 - p_friction / p_drive : Table::missing);
        row[c++] = status.iterations;
        row[c++] = status.self_locking ? 1.0 : 0.0;
        row[c++] = step == StepStatus::limit ? 1.0 : 0.0;
        table.values.insert(table.values.end(), row.begin(), row.end());
        if (!valid) {
          ++sum.flagged;
          sum.flagged_t.push_back(t);
          have_prev = false;  // not integrated
          return;
        }

        ++sum.rows;
        if (step == StepStatus::limit) ++sum.limit_rows;
        total_iterations += status.iterations;
        sum.max_iterations = std::max(sum.max_iterations, status.iterations);
        if (have_prev) {
          const double h = t - t_prev;  // trapezoidal rule
          sum.driver_work += 0.5 * h * (p_drive + p_drive_prev);
          sum.useful_work -= 0.5 * h * (p_useful + p_useful_prev);
          sum.friction_work += 0.5 * h * (p_friction + p_friction_prev);
          for (size_t k = 0; k < n_joints; ++k) sum.friction_energy[k] += 0.5 * h * (friction[k] + friction_prev[k]);
          for (size_t p = 0; p < n_pins; ++p)
            sum.pin_friction_energy[p] += 0.5 * h * (pin_friction[p] + pin_friction_prev[p]);
          for (size_t k = 0; k < n_loads; ++k) sum.load_activity[k] += 0.5 * h * (activity[k] + activity_prev[k]);
          sum.duration += h;
        }
        have_prev = true;
        t_prev = t, p_drive_prev = p_drive, p_useful_prev = p_useful, p_friction_prev = p_friction;
        friction_prev = friction;
        pin_friction_prev = pin_friction;
        activity_prev = activity;
      },
      limits);
  sum.mean_driver_power = sum.duration > 0.0 ? sum.driver_work / sum.duration : 0.0;
  sum.mean_iterations = sum.rows > 0 ? static_cast<double>(total_iterations) / sum.rows : 0.0;
  if (summary) *summary = std::move(sum);
  return table;
}

}  // namespace linkdyn::planar
