#include "linkdyn/report/plots.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "linkdyn/core/error.hpp"
#include "linkdyn/dynamics/simulate.hpp"
#include "linkdyn/planar/groups/group.hpp"
#include "linkdyn/planar/motion_law.hpp"
#include "report/axes.hpp"

namespace linkdyn::report {
namespace {

using planar::Mechanism;

/// A result's column as plotted (times `scale`).
std::vector<double> values(const Eigen::Ref<const Eigen::VectorXd>& v, double scale = 1.0) {
  std::vector<double> out(static_cast<size_t>(v.size()));
  for (Eigen::Index r = 0; r < v.size(); ++r) out[static_cast<size_t>(r)] = v(r) * scale;
  return out;
}

/// |(x, y)| row by row, as Vec2::norm (the tables' `.F`).
std::vector<double> magnitudes(const Eigen::Ref<const Eigen::VectorXd>& x, const Eigen::Ref<const Eigen::VectorXd>& y) {
  std::vector<double> out(static_cast<size_t>(x.size()));
  for (Eigen::Index r = 0; r < x.size(); ++r) out[static_cast<size_t>(r)] = Vec2(x(r), y(r)).norm();
  return out;
}

bool moves(const std::vector<double>& v) {
  double lo = INFINITY, hi = -INFINITY;
  for (double x : v)
    if (std::isfinite(x)) lo = std::min(lo, x), hi = std::max(hi, x);
  return hi - lo > 1e-9 * (1.0 + std::abs(hi));
}

}  // namespace
namespace {

/// One-DOF: every turning or swinging body's rate and every slider's velocity per driver rate
/// (the first-order kinematic coefficients), and the sliders' ideal mechanical advantage, the
/// output force per driver effort without friction: q' / v (from the power balance F v = T q').
/// Near a slider's dead centre the advantage grows without bound: shown only where |v / q'|
/// exceeds 2 % of its peak. `subject` names what slider_velocities holds ("Sliders", "Sliders and
/// points").
void add_velocity_ratios(const Mechanism& m, const planar::KinematicsResult& r, const XAxis& x,
                         const Chart& slider_velocities, const std::string& subject, std::vector<Chart>& plots) {
  const planar::Driver& driver = m.drivers()[0];
  const bool rotational = driver.type == planar::DriverType::rotational;
  std::vector<double> rate(static_cast<size_t>(r.rows()));
  double fastest = 0.0;
  for (Eigen::Index row = 0; row < r.rows(); ++row) {
    rate[static_cast<size_t>(row)] = planar::evaluate(driver.law, r.t(row)).qd;
    fastest = std::max(fastest, std::abs(rate[static_cast<size_t>(row)]));
  }
  auto per_rate = [&](const std::vector<double>& v) {
    std::vector<double> out(v.size(), Table::missing);
    for (size_t k = 0; k < v.size(); ++k)
      if (std::abs(rate[k]) > 1e-9 * fastest) out[k] = v[k] / rate[k];
    return out;
  };
  const std::string per = rotational ? "rad" : "m";
  Chart angular{"kinematics-velocity-ratio",
                "Velocity ratios: body rates per driver rate (omega / " + driver.name + "')",
                x.axis,
                {Kind::velocity_ratio, "rad/" + per, "omega / q'"}};
  for (Eigen::Index b = 0; b < r.omega.cols(); ++b) {
    std::vector<double> ratio = per_rate(values(r.omega.col(b)));
    if (moves(ratio))
      angular.series.push_back({m.bodies()[static_cast<size_t>(b + 1)].name, x.values, std::move(ratio), ""});
  }
  if (!angular.series.empty()) plots.push_back(std::move(angular));
  if (slider_velocities.series.empty()) return;
  Chart linear{"kinematics-slider-ratio",
               subject + ": velocity per driver rate (v / " + driver.name + "')",
               x.axis,
               {Kind::velocity_ratio, "m/" + per, "v / q'"}};
  Chart advantage{"kinematics-mechanical-advantage",
                  subject + ": ideal mechanical advantage q' / v (where |v / q'| > 2 % of its peak)", x.axis,
                  rotational ? Axis{Kind::mechanical_advantage, "1/m", "force per driver torque"}
                             : Axis{Kind::mechanical_advantage, "", "force per driver force"}};
  for (const io::PlotSeries& v : slider_velocities.series) {
    std::vector<double> ratio = per_rate(v.y);
    std::vector<double> gain(ratio.size(), Table::missing);
    double peak = 0.0;
    for (double q : ratio)
      if (std::isfinite(q)) peak = std::max(peak, std::abs(q));
    for (size_t k = 0; k < ratio.size(); ++k)
      if (std::abs(ratio[k]) > 0.02 * peak) gain[k] = 1.0 / ratio[k];
    advantage.series.push_back({v.label, x.values, std::move(gain), ""});
    linear.series.push_back({v.label, x.values, std::move(ratio), ""});
  }
  plots.push_back(std::move(linear));
  plots.push_back(std::move(advantage));
}

/// Each cam's follower over the motion: its lift, velocity, acceleration and jerk (the s-v-a-j
/// diagrams, mm or deg and their rates), then every cam's pressure angle and its profile's radius
/// of curvature at the contact (negative where concave).
void add_cam_plots(const Mechanism& m, const planar::KinematicsResult& r, const XAxis& x, std::vector<Chart>& plots) {
  if (m.cam_pairs().empty()) return;
  Chart pressure{"kinematics-cam-pressure-angle", "Cams: pressure angle", x.axis, angle_axis()};
  Chart radius{"kinematics-cam-radius",
               "Cams: the profile's radius of curvature at the contact (gaps: flanks nearly straight)", x.axis,
               Axis{Kind::length, "mm", "rho"}};
  for (size_t c = 0; c < m.cam_pairs().size(); ++c) {
    const planar::Joint& j = m.joints()[static_cast<size_t>(m.cam_pairs()[c])];
    const bool turns = j.as<planar::CamPair>().follower.motion == planar::CamFollower::Motion::oscillating;
    const auto column = [&](int k) {
      return r.cam.col(static_cast<Eigen::Index>(planar::KinematicsResult::cam_columns * c) + k);
    };
    const double scale = turns ? 180.0 / M_PI : 1.0;
    const std::string title = "Cam " + j.name + ": the follower's ";
    const Axis axes[4] = {
        turns ? Axis{Kind::angle, "deg", "s"} : Axis{Kind::length, "mm", "s"},
        turns ? Axis{Kind::angular_velocity, "deg/s", "v"} : Axis{Kind::velocity, "m/s", "v"},
        turns ? Axis{Kind::angular_acceleration, "deg/s^2", "a"} : Axis{Kind::acceleration, "m/s^2", "a"},
        Axis{Kind::jerk, turns ? "deg/s^3" : "m/s^3", "jerk"}};
    const char* names[4] = {"lift", "velocity", "acceleration", "jerk"};
    for (int k = 0; k < 4; ++k)
      plots.push_back({"kinematics-cam-" + j.name + "-" + names[k],
                       title + names[k],
                       x.axis,
                       axes[k],
                       {{j.name, x.values, values(column(k), k == 0 && !turns ? 1e3 : scale), ""}}});
    pressure.series.push_back({j.name, x.values, values(column(4), 180.0 / M_PI), ""});
    // The radius passes through +-infinity between convex and concave flanks: beyond ten prime
    // radii it is left out (a gap), not drawn as a spike.
    std::vector<double> rho = values(column(5), 1e3);
    const double shown = 10e3 * j.as<planar::CamPair>().follower.prime_radius();
    for (double& r : rho)
      if (std::abs(r) > shown) r = Table::missing;
    radius.series.push_back({j.name, x.values, std::move(rho), ""});
  }
  plots.push_back(std::move(pressure));
  plots.push_back(std::move(radius));
}

}  // namespace

void check_along(const Mechanism& m, const std::vector<PointDirection>& along) {
  const std::vector<planar::TrackedPoint> points = planar::tracked_points(m);
  for (const PointDirection& p : along)
    if (std::none_of(points.begin(), points.end(), [&](const auto& t) { return t.label == p.point; })) {
      std::string names;
      for (const planar::TrackedPoint& t : points) names += (names.empty() ? "" : ", ") + t.label;
      throw InputError({}, "--along " + p.point, "is not a tracked point", "name one of: " + names);  // an option
    }
}

std::vector<Chart> kinematics_plots(const Mechanism& m, const planar::KinematicsResult& r,
                                    const std::vector<PointDirection>& along) {
  const XAxis x = x_axis(m, r.t, r.q);
  auto plot = [&](std::string id, std::string title, Axis y) {
    return Chart{std::move(id), std::move(title), x.axis, std::move(y)};
  };
  // Angles in two panels, each on its own scale: the bodies that swing (less than 270 deg) and
  // those that turn (cranks, wheels, flywheels: their ramps would flatten the others); bodies that do
  // not turn (sliders) are left out.
  // The turning bodies apart again: those a driver turns on the ground (their ramps) and the
  // others (wheels, flywheels: a geared flywheel's many turns would flatten the crank's one).
  Chart angles = plot("kinematics-angles", "Body angles: swinging bodies", angle_axis());
  Chart turning = plot("kinematics-turning", "Body angles: driven bodies (the drivers' ramps)", angle_axis());
  Chart wheels = plot("kinematics-wheels", "Body angles: other turning bodies (wheels, flywheels)", angle_axis());
  auto driven = [&](int body) {
    for (const planar::Driver& d : m.drivers()) {
      if (d.type != planar::DriverType::rotational) continue;
      if (d.pin >= 0 ? d.pin_body == body
                     : d.joint >= 0 && m.joints()[d.joint].connects(0) && m.joints()[d.joint].connects(body))
        return true;
    }
    return false;
  };
  Chart omegas = plot("kinematics-omega", "Angular velocities", {Kind::angular_velocity, "rad/s", "omega"});
  Chart alphas = plot("kinematics-alpha", "Angular accelerations", {Kind::angular_acceleration, "rad/s^2", "alpha"});
  for (Eigen::Index b = 0; b < r.angle.cols(); ++b) {
    const std::string& n = m.bodies()[static_cast<size_t>(b + 1)].name;
    const std::vector<double> degrees = values(r.angle.col(b), 180.0 / M_PI);
    if (!moves(degrees)) continue;
    const auto [lo, hi] = std::minmax_element(degrees.begin(), degrees.end());
    (*hi - *lo <= 270.0                ? angles
     : driven(static_cast<int>(b + 1)) ? turning
                                       : wheels)
        .series.push_back({n, x.values, degrees, ""});
    omegas.series.push_back({n, x.values, values(r.omega.col(b)), ""});
    alphas.series.push_back({n, x.values, values(r.alpha.col(b)), ""});
  }
  std::vector<Chart> plots;
  for (Chart* p : {&angles, &turning, &wheels, &omegas, &alphas})
    if (!p->series.empty()) plots.push_back(std::move(*p));
  Chart cylinders = plot("kinematics-cylinders", "Cylinders: length, pin to pin", {Kind::length, "m", "L"});
  for (const planar::Cylinder& c : m.cylinders())
    cylinders.series.push_back({c.name, x.values, values(r.q.col(c.driver)), ""});
  if (!cylinders.series.empty()) plots.push_back(std::move(cylinders));
  // Every slider on a fixed guide: its signed displacement, velocity and acceleration along the
  // guide (a shaper's forward stroke and return told apart); the chosen points along theirs.
  const std::string subject = along.empty() ? "Sliders" : "Sliders and points";
  const std::string what = subject + (along.empty() ? " along their guides" : " along their directions");
  Chart slide = plot("kinematics-sliders", what + ": displacement", {Kind::length, "mm", "s"});
  Chart slide_v = plot("kinematics-sliders-velocity", what + ": velocity", {Kind::velocity, "m/s", "v"});
  Chart slide_a = plot("kinematics-sliders-acceleration", what + ": acceleration", {Kind::acceleration, "m/s^2", "a"});
  /// The tracked point c's motion along dir: displacement from the first row (mm), velocity, acceleration.
  auto add_along = [&](Eigen::Index c, const Vec2& dir, const std::string& label, bool only_if_moving) {
    std::vector<double> s_mm, v, a;
    for (Eigen::Index row = 0; row < r.rows(); ++row) {
      s_mm.push_back(1e3 * (dir.x() * (r.x(row, c) - r.x(0, c)) + dir.y() * (r.y(row, c) - r.y(0, c))));
      v.push_back(dir.x() * r.vx(row, c) + dir.y() * r.vy(row, c));
      a.push_back(dir.x() * r.ax(row, c) + dir.y() * r.ay(row, c));
    }
    if (only_if_moving && !moves(s_mm)) return;
    slide.series.push_back({label, x.values, std::move(s_mm), ""});
    slide_v.series.push_back({label, x.values, std::move(v), ""});
    slide_a.series.push_back({label, x.values, std::move(a), ""});
  };
  for (const planar::Joint& j : m.joints()) {
    const auto* slide = std::get_if<planar::PrismaticPair>(&j.kind);
    if (!slide || j.body[0] != 0) continue;
    const auto& points = m.output_points();
    const auto it = std::find_if(points.begin(), points.end(), [&](const planar::OutputPoint& p) {
      // the slider's point (tracked once for the bodies a pin joins: found by its name too)
      return (p.body == j.body[1] && (p.local - j.point[1]).norm() <= 1e-12 * (1.0 + j.point[1].norm())) ||
             (!j.point_name[1].empty() && p.label == j.point_name[1]);
    });
    if (it == points.end()) continue;
    add_along(static_cast<Eigen::Index>(it - points.begin()), slide->guide_dir,
              j.name + " (" + m.bodies()[static_cast<size_t>(j.body[1])].name + ")", true);
  }
  check_along(m, along);
  for (auto p = along.begin(); p != along.end(); ++p) {
    if (std::find(along.begin(), p, *p) != p) continue;  // given twice
    const std::string label = fmt::format("{} along {:g} deg", p->point, p->angle * 180.0 / M_PI);
    const auto it = std::find_if(r.points.begin(), r.points.end(), [&](const auto& t) { return t.label == p->point; });
    add_along(static_cast<Eigen::Index>(it - r.points.begin()), Vec2(std::cos(p->angle), std::sin(p->angle)), label,
              false);
  }
  std::vector<Chart> ratios;
  if (m.dof() == 1) add_velocity_ratios(m, r, x, slide_v, subject, ratios);
  if (!slide.series.empty())
    for (Chart* p : {&slide, &slide_v, &slide_a}) plots.push_back(std::move(*p));
  for (Chart& p : ratios) plots.push_back(std::move(p));
  // Paths of the moving named points (coupler curves) and their speeds.
  Chart paths{
      "kinematics-paths", "Point paths (coupler curves)", {Kind::length, "m", "x"}, {Kind::length, "m", "y"}, {}, true};
  Chart speeds = plot("kinematics-speeds", "Point speeds", {Kind::velocity, "m/s", "speed"});
  for (size_t k = 0; k < m.output_points().size(); ++k) {  // the first tracked points
    const auto c = static_cast<Eigen::Index>(k);
    const std::string& label = r.points[k].label;
    const std::vector<double> xs = values(r.x.col(c)), ys = values(r.y.col(c));
    if (!moves(xs) && !moves(ys)) continue;
    paths.series.push_back({label, xs, ys, label});
    std::vector<double> speed(xs.size());
    for (Eigen::Index row = 0; row < r.rows(); ++row)
      speed[static_cast<size_t>(row)] = std::hypot(r.vx(row, c), r.vy(row, c));
    speeds.series.push_back({label, x.values, std::move(speed), ""});
  }
  if (!paths.series.empty()) plots.push_back(std::move(paths));
  if (!speeds.series.empty()) plots.push_back(std::move(speeds));
  if (!r.transmission_groups.empty()) {
    Chart transmission = plot("kinematics-transmission", "Transmission angles", angle_axis());
    for (size_t g = 0; g < r.transmission_groups.size(); ++g)
      transmission.series.push_back({m.joints()[m.groups()[r.transmission_groups[g]]->label_joint()].name, x.values,
                                     values(r.transmission_angle.col(static_cast<Eigen::Index>(g)), 180.0 / M_PI), ""});
    plots.push_back(std::move(transmission));
  }
  add_cam_plots(m, r, x, plots);
  return plots;
}

std::vector<Chart> kinetostatics_plots(const Mechanism& m, const planar::KinetostaticsResult& r) {
  const XAxis x = x_axis(m, r.t, r.q);
  std::vector<Chart> plots;
  for (size_t d = 0; d < m.drivers().size(); ++d) {
    const planar::Driver& driver = m.drivers()[d];
    const Axis effort = effort_axis(m, d);
    const auto c = static_cast<Eigen::Index>(d);
    plots.push_back({"kinetostatics-" + driver.name,
                     "Driver " + effort.name + ": " + driver.name,
                     x.axis,
                     effort,
                     {{"with friction", x.values, values(r.effort.col(c)), ""},
                      {"frictionless", x.values, values(r.effort_frictionless.col(c)), ""}}});
  }
  // The pressure each cylinder's force needs (on the piston pushing, the annulus pulling).
  Chart pressures{"kinetostatics-cylinder-pressure", "Cylinders: pressure (piston side pushing, rod side pulling)",
                  x.axis, Axis{Kind::pressure, "bar", "pressure"}};
  for (const planar::Cylinder& c : m.cylinders()) {
    if (!c.has_areas()) continue;
    std::vector<double> bar = values(r.effort.col(c.driver));
    for (double& p : bar) p = std::isfinite(p) ? c.pressure(p) / 1e5 : p;
    pressures.series.push_back({c.name, x.values, std::move(bar), ""});
  }
  if (!pressures.series.empty()) plots.push_back(std::move(pressures));
  Chart reactions{"kinetostatics-reactions", "Pair reactions |F|", x.axis, force_axis()};
  Chart friction{"kinetostatics-friction", "Power lost to friction", x.axis, power_axis()};
  for (size_t k = 0; k < m.spec().joints.size(); ++k) {  // the model's pairs (the pins' own per pin)
    const planar::Joint& j = m.spec().joints[k];
    if (j.is<planar::GearPair>()) continue;
    const auto c = static_cast<Eigen::Index>(k);
    reactions.series.push_back(
        {j.name, x.values, magnitudes(r.reactions.force_x.col(c), r.reactions.force_y.col(c)), ""});
    if (j.friction > 0.0) friction.series.push_back({j.name, x.values, values(r.friction_power.col(c)), ""});
  }
  for (size_t p = 0; p < m.pins().size(); ++p) {  // the force on each member
    const planar::CompoundPin& pin = m.pins()[p];
    for (size_t k = 0; k < pin.bodies.size(); ++k) {
      const auto c = static_cast<Eigen::Index>(k);
      reactions.series.push_back({pin.name + " on " + m.bodies()[pin.bodies[k]].name, x.values,
                                  magnitudes(r.reactions.pin_force_x[p].col(c), r.reactions.pin_force_y[p].col(c)),
                                  ""});
    }
    if (pin.friction > 0.0)
      friction.series.push_back(
          {pin.name, x.values, values(r.pin_friction_power.col(static_cast<Eigen::Index>(p))), ""});
  }
  plots.push_back(std::move(reactions));
  // Each pair's reaction in components (what the first body of the pair exerts on the second);
  // the prismatic pairs' normal forces N and moments M (about the slider point) on their own.
  Chart normals{"kinetostatics-prismatic-normal", "Prismatic pairs: normal force N (signed, along the guide's normal)",
                x.axis, force_axis()};
  Chart moments{"kinetostatics-prismatic-moment",
                "Prismatic pairs: moment M about the slider point",
                x.axis,
                {Kind::moment, "N m", "moment"}};
  for (size_t k = 0; k < m.spec().joints.size(); ++k) {
    const planar::Joint& j = m.spec().joints[k];
    const auto c = static_cast<Eigen::Index>(k);
    if (j.is<planar::PrismaticPair>()) {
      normals.series.push_back({j.name, x.values, values(r.reactions.normal.col(c)), ""});
      moments.series.push_back({j.name, x.values, values(r.reactions.moment.col(c)), ""});
    }
    if (!j.is<planar::RevolutePair>()) continue;
    plots.push_back(
        {"kinetostatics-reaction-" + j.name,
         "Reaction at " + j.name + ": on " + m.bodies()[j.body[1]].name + " from " + m.bodies()[j.body[0]].name,
         x.axis,
         force_axis(),
         {{"Fx", x.values, values(r.reactions.force_x.col(c)), ""},
          {"Fy", x.values, values(r.reactions.force_y.col(c)), ""},
          {"|F|", x.values, magnitudes(r.reactions.force_x.col(c), r.reactions.force_y.col(c)), ""}}});
  }
  if (!normals.series.empty()) {
    plots.push_back(std::move(normals));
    plots.push_back(std::move(moments));
  }
  Chart contacts{"kinetostatics-cam-contact",
                 "Cams: contact force N (signed: below zero the follower would leave the cam)", x.axis, force_axis()};
  for (int k : m.cam_pairs())
    contacts.series.push_back({m.joints()[static_cast<size_t>(k)].name, x.values,
                               values(r.reactions.normal.col(static_cast<Eigen::Index>(k))), ""});
  if (!contacts.series.empty()) plots.push_back(std::move(contacts));
  if (!friction.series.empty()) {
    friction.series.push_back({"total", x.values, values(r.total_friction_power), ""});
    plots.push_back(std::move(friction));
    // Where the driving power nears zero the ratio spikes without meaning: shown only where it
    // exceeds 5 % of its peak over the sweep.
    const double peak = r.driver_power.size() > 0 ? r.driver_power.cwiseAbs().maxCoeff() : 0.0;
    Eigen::VectorXd shown = r.efficiency;
    for (Eigen::Index k = 0; k < shown.size(); ++k)
      if (!(r.driver_power(k) > 0.05 * peak)) shown(k) = Table::missing;
    plots.push_back({"kinetostatics-efficiency",
                     "Instantaneous efficiency (where the driving power exceeds 5 % of its peak)",
                     x.axis,
                     {Kind::efficiency, "", "1 - friction / driver power"},
                     {{"efficiency", x.values, values(shown), ""}}});
  }
  return plots;
}

std::vector<Chart> simulation_plots(const dynamics::DynamicSystem& system, const dynamics::SimulationResult& r) {
  const Mechanism& m = *system.mechanism;
  const dynamics::MachineSpec& machine = system.machine;
  const XAxis x{time_axis(), values(r.t)};
  auto plot = [&](std::string id, std::string title, Axis y) {
    return Chart{std::move(id), std::move(title), x.axis, std::move(y)};
  };
  std::vector<Chart> plots;
  for (size_t d = 0; d < m.drivers().size(); ++d) {
    const planar::Driver& driver = m.drivers()[d];
    plots.push_back(plot("simulation-speed-" + driver.name, "Speed of " + driver.name, rate_axis(m, d)));
    plots.back().series.push_back({driver.name, x.values, values(r.qd.col(static_cast<Eigen::Index>(d))), ""});
  }
  Chart currents = plot("simulation-current", "Motor current", current_axis());
  for (size_t k = 0; k < system.motors.size(); ++k)
    currents.series.push_back({machine.actuators[static_cast<size_t>(system.motors[k])].name, x.values,
                               values(r.current.col(static_cast<Eigen::Index>(k))), ""});
  Chart torques = plot("simulation-torques", "Actuator torques", torque_axis());
  Chart forces = plot("simulation-forces", "Actuator forces in pairs", force_axis());
  for (size_t k = 0; k < machine.actuators.size(); ++k) {
    const dynamics::Actuator& a = machine.actuators[k];
    (a.joint() >= 0 ? forces : torques)
        .series.push_back({a.name, x.values, values(r.effort.col(static_cast<Eigen::Index>(k))), ""});
  }
  Chart actions = plot("simulation-constraint-actions", "Constraint actions", force_axis());
  for (size_t k = 0; k < machine.constraint_actions.size(); ++k)
    actions.series.push_back({machine.constraint_actions[k].name, x.values,
                              values(r.constraint_action.col(static_cast<Eigen::Index>(k))), ""});
  Chart reactions = plot("simulation-reactions", "Pair reactions |F|", force_axis());
  if (r.reactions.force_x.cols() > 0) {  // recorded (SimulationOptions::reactions)
    for (size_t k = 0; k < m.spec().joints.size(); ++k) {
      if (m.joints()[k].is<planar::GearPair>()) continue;
      const auto c = static_cast<Eigen::Index>(k);
      reactions.series.push_back(
          {m.joints()[k].name, x.values, magnitudes(r.reactions.force_x.col(c), r.reactions.force_y.col(c)), ""});
    }
    for (size_t p = 0; p < m.pins().size(); ++p)
      for (size_t k = 0; k < m.pins()[p].bodies.size(); ++k) {
        const auto c = static_cast<Eigen::Index>(k);
        reactions.series.push_back({m.pins()[p].name + "." + m.bodies()[m.pins()[p].bodies[k]].name, x.values,
                                    magnitudes(r.reactions.pin_force_x[p].col(c), r.reactions.pin_force_y[p].col(c)),
                                    ""});
      }
  }
  for (Chart* p : {&currents, &torques, &forces, &actions, &reactions})
    if (!p->series.empty()) plots.push_back(std::move(*p));
  if (!m.bearings().empty()) {
    plots.push_back(plot("simulation-friction", "Friction power in the pairs", power_axis()));
    plots.back().series.push_back({"friction.power", x.values, values(r.pair_friction_power), ""});
  }
  plots.push_back(plot("simulation-energy", "Kinetic and potential energy", {Kind::energy, "J", "energy"}));
  plots.back().series.push_back({"energy.kinetic", x.values, values(r.energy.kinetic), ""});
  plots.back().series.push_back({"energy.potential", x.values, values(r.energy.potential), ""});
  for (Chart& p : plots) p.linked = false;  // against time, not the animation's coordinate
  return plots;
}

std::vector<Chart> cycle_plots(const dynamics::DynamicSystem& system, const dynamics::SimulationResult& r) {
  const Mechanism& m = *system.mechanism;
  const dynamics::MachineSpec& machine = system.machine;
  const XAxis x = driver_axis(m, std::vector<double>(r.q.col(0).begin(), r.q.col(0).end()));
  auto plot = [&](std::string id, std::string title, Axis y) {
    return Chart{std::move(id), std::move(title), x.axis, std::move(y)};
  };
  const planar::Driver& driver = m.drivers()[0];
  Chart speed = plot("cycle-speed", "Speed of " + driver.name + " over the cycle", rate_axis(m, 0));
  speed.series.push_back({driver.name, x.values, values(r.qd.col(0)), ""});
  Chart currents = plot("cycle-current", "Motor current over the cycle", current_axis());
  for (size_t k = 0; k < system.motors.size(); ++k)
    currents.series.push_back({machine.actuators[static_cast<size_t>(system.motors[k])].name, x.values,
                               values(r.current.col(static_cast<Eigen::Index>(k))), ""});
  Chart torques = plot("cycle-torques", "Actuator torques over the cycle", torque_axis());
  for (size_t k = 0; k < machine.actuators.size(); ++k)
    if (machine.actuators[k].joint() < 0)
      torques.series.push_back(
          {machine.actuators[k].name, x.values, values(r.effort.col(static_cast<Eigen::Index>(k))), ""});
  std::vector<Chart> plots;
  for (Chart* p : {&speed, &currents, &torques})
    if (!p->series.empty()) plots.push_back(std::move(*p));
  return plots;
}

std::vector<Chart> reduced_plots(const Mechanism& m, const dynamics::ReducedTable& t) {
  const bool rot = m.drivers()[0].type == planar::DriverType::rotational;
  const XAxis x = driver_axis(m, t.q);
  const std::string unit = rot ? "kg m^2" : "kg";
  std::vector<Chart> plots;
  plots.push_back({"reduced-inertia",
                   "Reduced inertia m(q) [003]",
                   x.axis,
                   {Kind::inertia, unit, "m"},
                   {{"kinetic energy", x.values, t.m, ""}, {"kinetostatics", x.values, t.m_kinetostatic, ""}}});
  plots.push_back({"reduced-inertia-derivative",
                   "dm/dq",
                   x.axis,
                   {Kind::inertia_derivative, unit + (rot ? "/rad" : "/m"), "dm/dq"},
                   {{"kinetic energy", x.values, t.dm, ""}, {"kinetostatics", x.values, t.dm_kinetostatic, ""}}});
  return plots;
}

}  // namespace linkdyn::report
