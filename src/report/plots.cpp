#include "linkdyn/report/plots.hpp"

#include <algorithm>
#include <cmath>

#include "linkdyn/dynamics/direct.hpp"
#include "report/x_axis.hpp"

namespace linkdyn::report {
namespace {

using planar::Mechanism;

std::vector<double> column(const Table& table, int c, double scale = 1.0) {
  std::vector<double> out(table.rows());
  for (size_t r = 0; r < table.rows(); ++r) out[r] = table.at(r, static_cast<size_t>(c)) * scale;
  return out;
}

/// A plot of the named columns (those that exist) against the x axis.
Plot columns_plot(const Table& table, const XAxis& x, std::string id, std::string title, std::string y_label,
                  const std::vector<std::pair<std::string, std::string>>& columns, double scale = 1.0) {
  Plot p{std::move(id), std::move(title), x.label, std::move(y_label), {}, false};
  for (const auto& [name, label] : columns) {
    const int c = table.column(name);
    if (c >= 0) p.series.push_back({label, x.values, column(table, c, scale), ""});
  }
  return p;
}

bool moves(const std::vector<double>& v) {
  double lo = INFINITY, hi = -INFINITY;
  for (double x : v)
    if (std::isfinite(x)) lo = std::min(lo, x), hi = std::max(hi, x);
  return hi - lo > 1e-9 * (1.0 + std::abs(hi));
}

}  // namespace
std::vector<Plot> kinematics_plots(const Mechanism& m, const Table& table) {
  const XAxis x = x_axis(m, table);
  std::vector<std::pair<std::string, std::string>> angles, omegas, alphas, transmission, speeds_cols;
  for (size_t b = 1; b < m.bodies().size(); ++b) {
    const std::string& n = m.bodies()[b].name;
    angles.emplace_back(n + ".angle", n);
    omegas.emplace_back(n + ".omega", n);
    alphas.emplace_back(n + ".alpha", n);
  }
  for (const std::string& c : table.columns)
    if (c.size() > 19 && c.compare(c.size() - 19, 19, ".transmission_angle") == 0)
      transmission.emplace_back(c, c.substr(0, c.size() - 19));
  std::vector<Plot> plots;
  plots.push_back(columns_plot(table, x, "kinematics-angles", "Body angles", "angle (deg)", angles, 180.0 / M_PI));
  plots.push_back(columns_plot(table, x, "kinematics-omega", "Angular velocities", "omega (rad/s)", omegas));
  plots.push_back(columns_plot(table, x, "kinematics-alpha", "Angular accelerations", "alpha (rad/s^2)", alphas));
  // Paths of the moving named points (coupler curves) and their speeds.
  Plot paths{"kinematics-paths", "Point paths (coupler curves)", "x (m)", "y (m)", {}, true};
  Plot speeds{"kinematics-speeds", "Point speeds", x.label, "speed (m/s)", {}, false};
  for (const planar::OutputPoint& p : m.output_points()) {
    const int cx = table.column(p.label + ".x"), cy = table.column(p.label + ".y");
    const int cvx = table.column(p.label + ".vx"), cvy = table.column(p.label + ".vy");
    const std::vector<double> xs = column(table, cx), ys = column(table, cy);
    if (!moves(xs) && !moves(ys)) continue;
    paths.series.push_back({p.label, xs, ys, p.label});
    std::vector<double> v(table.rows());
    for (size_t r = 0; r < table.rows(); ++r) v[r] = std::hypot(table.at(r, cvx), table.at(r, cvy));
    speeds.series.push_back({p.label, x.values, v, ""});
  }
  if (!paths.series.empty()) plots.push_back(std::move(paths));
  if (!speeds.series.empty()) plots.push_back(std::move(speeds));
  if (!transmission.empty())
    plots.push_back(columns_plot(table, x, "kinematics-transmission", "Transmission angles", "angle (deg)",
                                 transmission, 180.0 / M_PI));
  return plots;
}

std::vector<Plot> kinetostatics_plots(const Mechanism& m, const Table& table) {
  const XAxis x = x_axis(m, table);
  std::vector<Plot> plots;
  for (const planar::Driver& d : m.drivers()) {
    const bool rot = d.type == planar::DriverType::rotational;
    const std::string effort = rot ? ".torque" : ".force";
    plots.push_back(columns_plot(
        table, x, "kinetostatics-" + d.name, std::string("Driver ") + (rot ? "torque" : "force") + ": " + d.name,
        rot ? "torque (N m)" : "force (N)",
        {{d.name + effort, "with friction"}, {d.name + effort + "_frictionless", "frictionless"}}));
  }
  std::vector<std::pair<std::string, std::string>> reactions, friction;
  for (const planar::Joint& j : m.spec().joints) {
    if (j.type == planar::JointType::gear) continue;
    reactions.emplace_back(j.name + ".F", j.name);
    if (j.friction > 0.0) friction.emplace_back(j.name + ".friction_power", j.name);
  }
  for (const planar::CompoundPin& pin : m.pins()) {  // the force on each member
    for (int b : pin.bodies)
      reactions.emplace_back(pin.name + "." + m.bodies()[b].name + ".F", pin.name + " on " + m.bodies()[b].name);
    if (pin.friction > 0.0) friction.emplace_back(pin.name + ".friction_power", pin.name);
  }
  plots.push_back(columns_plot(table, x, "kinetostatics-reactions", "Pair reactions |F|", "force (N)", reactions));
  if (!friction.empty()) {
    friction.emplace_back("friction.power", "total");
    plots.push_back(columns_plot(table, x, "kinetostatics-friction", "Power lost to friction", "power (W)", friction));
    plots.push_back(columns_plot(table, x, "kinetostatics-efficiency", "Instantaneous efficiency",
                                 "1 - friction / driver power", {{"efficiency", "efficiency"}}));
  }
  return plots;
}

std::vector<Plot> simulation_plots(const Mechanism& m, const dynamics::MachineSpec& machine, const Table& table) {
  XAxis x{"t (s)", column(table, 0)};
  std::vector<Plot> plots;
  // The columns of a simulation (dynamics::SimulationResult), by their names.
  auto series = [&](const std::vector<std::string>& names, size_t strip) {
    std::vector<std::pair<std::string, std::string>> out;
    for (const std::string& n : names)
      if (table.column(n) >= 0) out.emplace_back(n, n.substr(0, n.size() - strip));
    return out;
  };
  for (const planar::Driver& d : m.drivers()) {
    const std::string n = dynamics::driver_rate_column(d, 1);
    const bool rot = d.type == planar::DriverType::rotational;
    plots.push_back(columns_plot(table, x, "simulation-speed-" + d.name, "Speed of " + d.name,
                                 n + (rot ? " (rad/s)" : " (m/s)"), {{n, d.name}}));
  }
  std::vector<std::string> currents, torques, forces, actions, reactions;
  for (const dynamics::Actuator& a : machine.actuators) {
    if (a.is<dynamics::DcMotor>()) currents.push_back(a.name + ".current");
    (a.joint() >= 0 ? forces : torques).push_back(a.name + (a.joint() >= 0 ? ".force" : ".torque"));
  }
  for (const auto& a : machine.constraint_actions) actions.push_back(a.name);
  for (size_t k = 0; k < m.spec().joints.size(); ++k)
    if (m.joints()[k].type != planar::JointType::gear) reactions.push_back(m.joints()[k].name + ".F");
  for (const planar::CompoundPin& pin : m.pins())
    for (int b : pin.bodies) reactions.push_back(pin.name + "." + m.bodies()[b].name + ".F");
  auto add = [&](const char* id, const char* title, const char* axis,
                 const std::vector<std::pair<std::string, std::string>>& s) {
    if (!s.empty()) plots.push_back(columns_plot(table, x, id, title, axis, s));
  };
  add("simulation-current", "Motor current", "current (A)", series(currents, 8));
  add("simulation-torques", "Actuator torques", "torque (N m)", series(torques, 7));
  add("simulation-forces", "Actuator forces in pairs", "force (N)", series(forces, 6));
  add("simulation-constraint-actions", "Constraint actions", "force (N)", series(actions, 0));
  add("simulation-reactions", "Pair reactions |F|", "force (N)", series(reactions, 2));
  if (!m.bearings().empty())
    add("simulation-friction", "Friction power in the pairs", "power (W)", series({"friction.power"}, 0));
  add("simulation-energy", "Kinetic and potential energy", "energy (J)",
      series({"energy.kinetic", "energy.potential"}, 0));
  for (Plot& p : plots) p.linked = false;  // against time, not the animation's coordinate
  return plots;
}

std::vector<Plot> reduced_plots(const Mechanism& m, const dynamics::ReducedTable& t) {
  const bool rot = m.drivers()[0].type == planar::DriverType::rotational;
  const XAxis x = driver_axis(m, t.q);
  const std::string unit = rot ? "kg m^2" : "kg";
  std::vector<Plot> plots;
  plots.push_back({"reduced-inertia",
                   "Reduced inertia m(q) [003]",
                   x.label,
                   "m (" + unit + ")",
                   {{"kinetic energy", x.values, t.m, ""}, {"kinetostatics", x.values, t.m_kinetostatic, ""}},
                   false});
  plots.push_back({"reduced-inertia-derivative",
                   "dm/dq",
                   x.label,
                   std::string("dm/dq (") + unit + (rot ? "/rad)" : "/m)"),
                   {{"kinetic energy", x.values, t.dm, ""}, {"kinetostatics", x.values, t.dm_kinetostatic, ""}},
                   false});
  return plots;
}

}  // namespace linkdyn::report
