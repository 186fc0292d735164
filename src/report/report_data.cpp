#include "report/report_data.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <optional>

#include "linkdyn/core/interrupt.hpp"
#include "linkdyn/dynamics/direct.hpp"
#include "linkdyn/planar/loads.hpp"
#include "linkdyn/planar/motion_law.hpp"
#include "report/x_axis.hpp"

namespace linkdyn::report {
namespace {

using planar::Mechanism;

/// Where each moving body's points lie in a pose (x, y of each, body after body).
std::vector<AnimatedBody> animated_bodies(const Mechanism& m) {
  std::vector<AnimatedBody> bodies;
  size_t offset = 0;
  for (size_t b = 1; b < m.bodies().size(); ++b) {
    const size_t points = std::max<size_t>(1, m.bodies()[b].points.size());
    bodies.push_back({m.bodies()[b].name, offset, points});
    offset += 2 * points;
  }
  return bodies;
}

/// Every moving body's named points in the global frame (its frame's origin if it has none), in
/// the order of animated_bodies, at a row of the kinematics.
void append_pose(const Mechanism& m, const planar::KinematicsResult& r, Eigen::Index row, std::vector<double>& out) {
  for (size_t b = 1; b < m.bodies().size(); ++b) {
    const auto c = static_cast<Eigen::Index>(b - 1);
    const Vec2 origin(r.x0(row, c), r.y0(row, c));
    const double angle = r.angle(row, c), cosine = std::cos(angle), sine = std::sin(angle);
    for (const planar::NamedPoint& p : m.bodies()[b].points) {
      const Vec2 g = origin + rotate(p.local, cosine, sine);
      out.push_back(g.x()), out.push_back(g.y());
    }
    if (m.bodies()[b].points.empty()) out.push_back(origin.x()), out.push_back(origin.y());
  }
}

/// Rows 0, stride, 2 stride ... and the last: at most about max_frames + 1.
std::vector<size_t> frame_rows(size_t rows, size_t max_frames) {
  const size_t stride = std::max<size_t>(1, (rows + max_frames - 1) / max_frames);
  std::vector<size_t> out;
  for (size_t r = 0; r < rows; r += stride) out.push_back(r);
  if (!out.empty() && out.back() != rows - 1) out.push_back(rows - 1);
  return out;
}

/// A body-fixed point in the global frame in frame k of the animation.
Vec2 point_in_frame(const Animation& a, size_t k, const AnchoredPoint& p) {
  if (p.body == 0) return p.local;
  const double* pose = &a.poses[k][3 * static_cast<size_t>(p.body - 1)];
  return Vec2(pose[0], pose[1]) + rotate(p.local, pose[2]);
}

/// A 4:3 view centred on everything the mechanism sweeps (every frame and the ground points),
/// and the drawing's size (the marks' scale); once the guides, wheels and load arrows are
/// placed (at that size), the view grows to hold them too.
void frame_the_view(Animation& a) {
  double x0 = INFINITY, x1 = -INFINITY, y0 = INFINITY, y1 = -INFINITY;
  auto grow = [&](const Vec2& p) {
    if (!p.allFinite()) return;
    x0 = std::min(x0, p.x()), x1 = std::max(x1, p.x()), y0 = std::min(y0, p.y()), y1 = std::max(y1, p.y());
  };
  for (const auto& f : a.frames)
    for (size_t k = 0; k + 1 < f.size(); k += 2) grow({f[k], f[k + 1]});
  for (const Vec2& g : a.ground) grow(g);
  if (a.size > 0 && !a.frames.empty()) {
    for (const GuideLine& g : a.guides)
      if (g.anchor.body == 0) grow(g.anchor.local + g.from * g.direction), grow(g.anchor.local + g.to * g.direction);
    for (const Wheel& w : a.wheels) {
      const Vec2 c = point_in_frame(a, 0, w.centre);
      grow(c - Vec2::Constant(w.radius)), grow(c + Vec2::Constant(w.radius));
    }
    for (const LoadArrow& l : a.loads)
      for (size_t k = 0; k < a.frames.size(); ++k)
        grow(point_in_frame(a, k, l.at) - a.load_scale * Vec2(l.force[2 * k], l.force[2 * k + 1]));
  }
  if (!(x0 <= x1)) x0 = -1, x1 = 1, y0 = -1, y1 = 1;
  if (a.size == 0) a.size = std::max({x1 - x0, y1 - y0, 1e-6});
  const double width = 1.12 * std::max({x1 - x0, (y1 - y0) * 4.0 / 3.0, 1e-6}), height = 0.75 * width;
  a.view = {0.5 * (x0 + x1) - 0.5 * width, -0.5 * (y0 + y1) - 0.5 * height, width, height};
}

/// A body-fixed point in the global frame at a row of the kinematics.
Vec2 global_point(const planar::KinematicsResult& r, Eigen::Index row, const AnchoredPoint& p) {
  if (p.body == 0) return p.local;
  const auto c = static_cast<Eigen::Index>(p.body - 1);
  return Vec2(r.x0(row, c), r.y0(row, c)) + rotate(p.local, r.angle(row, c));
}

/// The point (in body `b`'s frame) where b turns on the ground, if it does.
std::optional<Vec2> ground_pivot(const Mechanism& m, int b, Vec2* on_ground = nullptr) {
  for (const planar::Joint& j : m.joints())
    if (j.type == planar::JointType::revolute && j.connects(0) && j.connects(b) && b != 0) {
      const int side = j.body[0] == b ? 0 : 1;
      if (on_ground) *on_ground = j.point[1 - side];
      return j.point[side];
    }
  return std::nullopt;
}

/// Each prismatic pair's guide (over the slider's travel) and the slider's block on it.
void add_guides(const Mechanism& m, const planar::KinematicsResult& r, Animation& a) {
  for (const planar::Joint& j : m.joints()) {
    if (j.type != planar::JointType::prismatic) continue;
    const double length = j.slider_length > 0 ? j.slider_length : 0.08 * a.size;
    GuideLine guide{{j.body[0], j.point[0]}, j.guide_dir.normalized(), INFINITY, -INFINITY};
    for (Eigen::Index row = 0; row < r.rows(); ++row) {
      // The slider's point along the guide, in the guide body's frame.
      const Vec2 slider = global_point(r, row, {j.body[1], j.point[1]});
      const Vec2 origin = global_point(r, row, {j.body[0], Vec2::Zero()});
      const double angle = j.body[0] == 0 ? 0.0 : r.angle(row, j.body[0] - 1);
      const double along = (rotate(slider - origin, -angle) - j.point[0]).dot(guide.direction);
      if (std::isfinite(along)) guide.from = std::min(guide.from, along), guide.to = std::max(guide.to, along);
    }
    if (!(guide.from <= guide.to)) guide.from = guide.to = 0.0;
    guide.from -= 0.75 * length, guide.to += 0.75 * length;
    a.blocks.push_back({{j.body[1], j.point[1]}, a.guides.size(), length, 0.45 * length});
    a.guides.push_back(guide);
  }
}

/// Gears' pitch circles (radii from the centre distance and the ratio when both wheels turn on
/// the ground) and the wheels of motors' shafts.
void add_wheels(const Mechanism& m, const dynamics::MachineSpec& machine, Animation& a) {
  auto has_wheel = [&](int b) {
    return std::any_of(a.wheels.begin(), a.wheels.end(), [b](const Wheel& w) { return w.centre.body == b; });
  };
  for (const planar::Joint& j : m.joints()) {
    if (j.type != planar::JointType::gear) continue;
    Vec2 g0 = Vec2::Zero(), g1 = Vec2::Zero();
    const std::optional<Vec2> c0 = ground_pivot(m, j.body[0], &g0), c1 = ground_pivot(m, j.body[1], &g1);
    // Equal pitch-line speeds: r0 = |ratio| r1; r0 + r1 = d (external, ratio < 0) or
    // |r0 - r1| = d (internal).
    const double ratio = std::abs(j.ratio), d = (g1 - g0).norm();
    double r1 = 0.06 * a.size;
    if (c0 && c1 && d > 0) {
      const double sum = j.ratio < 0 ? 1.0 + ratio : std::abs(ratio - 1.0);
      if (sum > 1e-9) r1 = d / sum;
    }
    if (c0 && !has_wheel(j.body[0])) a.wheels.push_back({"gear", {j.body[0], *c0}, ratio * r1});
    if (c1 && !has_wheel(j.body[1])) a.wheels.push_back({"gear", {j.body[1], *c1}, r1});
  }
  for (const dynamics::Actuator& actuator : machine.actuators)
    if (actuator.is<dynamics::DcMotor>() && !has_wheel(actuator.body))
      if (const std::optional<Vec2> c = ground_pivot(m, actuator.body))
        a.wheels.push_back({"motor", {actuator.body, *c}, 0.07 * a.size});
}

/// The applied point forces at each frame (a second sweep: the loads at the solved state), and
/// the arrows' scale.
void add_load_arrows(const Mechanism& m, const planar::TimeGrid& grid, const std::vector<size_t>& rows, Animation& a) {
  std::vector<const planar::Load*> forces;
  for (const planar::Load& load : m.spec().loads)
    if (load.is<planar::PointForce>()) {
      forces.push_back(&load);
      const planar::BodyPoint& at = load.as<planar::PointForce>().at;
      a.loads.push_back({load.name, {at.body, at.local}, {}});
    }
  if (forces.empty()) return;
  planar::Workspace ws(m);
  size_t next = 0, row = 0;
  double largest = 0.0;
  // The frames' rows count the assembled steps, as planar::kinematics records them.
  planar::sweep_kinematics(m, ws, grid, [&](int, double t, planar::StepStatus status) {
    if (status == planar::StepStatus::absent) return;
    if (next >= rows.size() || row++ != rows[next]) return;
    ++next;
    for (size_t f = 0; f < forces.size(); ++f) {
      Vec2 force = Vec2::Zero();
      try {
        for (const planar::LoadPart& part : forces[f]->parts)
          if (part.pattern == planar::LoadPart::force)
            force += planar::part_magnitude(m, ws, *forces[f], part, t) * part.direction;
      } catch (const InputError&) {
        force = Vec2::Constant(NAN);  // outside its table: not drawn (the kinetostatics says why)
      }
      if (force.allFinite()) largest = std::max(largest, force.norm());
      a.loads[f].force.push_back(force.x()), a.loads[f].force.push_back(force.y());
    }
  });
  a.load_scale = largest > 0 ? 0.2 * a.size / largest : 0.0;
}

/// The animation at decimated rows of the kinematics.
Animation animation(const Mechanism& m, const dynamics::MachineSpec& machine, const planar::TimeGrid& grid,
                    const planar::KinematicsResult& r, const XAxis& x, size_t max_frames) {
  Animation a;
  a.x_label = x.label;
  a.bodies = animated_bodies(m);
  for (const planar::NamedPoint& g : m.bodies()[0].points) a.ground.push_back(g.local);
  for (const planar::Joint& j : m.joints())
    for (int side : {0, 1})
      if (j.type == planar::JointType::revolute && j.body[side] == 0 &&
          std::none_of(a.pivots.begin(), a.pivots.end(), [&](const Vec2& p) { return p == j.point[side]; }))
        a.pivots.push_back(j.point[side]);
  for (size_t k = 0; k < m.output_points().size(); ++k) a.paths.push_back({r.points[k].label, {}});
  const std::vector<size_t> rows = frame_rows(static_cast<size_t>(r.rows()), max_frames);
  for (size_t row : rows) {
    const auto i = static_cast<Eigen::Index>(row);
    a.x.push_back(x.values[row]);
    a.frames.emplace_back();
    append_pose(m, r, i, a.frames.back());
    a.poses.emplace_back();
    for (Eigen::Index c = 0; c < r.angle.cols(); ++c)
      a.poses.back().insert(a.poses.back().end(), {r.x0(i, c), r.y0(i, c), r.angle(i, c)});
    for (size_t k = 0; k < a.paths.size(); ++k) {
      a.paths[k].second.push_back(r.x(i, static_cast<Eigen::Index>(k)));
      a.paths[k].second.push_back(r.y(i, static_cast<Eigen::Index>(k)));
    }
  }
  frame_the_view(a);
  add_guides(m, r, a);
  for (const planar::Load& load : m.spec().loads) {
    const planar::BodyPoint* ends = load.is<planar::Spring>()   ? load.as<planar::Spring>().between.data()
                                    : load.is<planar::Damper>() ? load.as<planar::Damper>().between.data()
                                                                : nullptr;
    if (ends)
      a.elements.push_back({load.is<planar::Spring>() ? "spring" : "damper",
                            {{ends[0].body, ends[0].local}, {ends[1].body, ends[1].local}}});
  }
  add_wheels(m, machine, a);
  add_load_arrows(m, grid, rows, a);
  frame_the_view(a);
  return a;
}

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
  for (size_t d = 0; d < m.drivers().size(); ++d) {
    const planar::Driver& driver = m.drivers()[d];
    const char* unit = driver.type == planar::DriverType::rotational ? "N m" : "N";
    for (const bool with_friction : {true, false}) {
      const Eigen::MatrixXd& effort = with_friction ? r.effort : r.effort_frictionless;
      double peak = 0.0, sum = 0.0;
      Eigen::Index at = 0, count = 0;
      for (Eigen::Index k = 0; k < effort.rows(); ++k) {
        const double v = effort(k, static_cast<Eigen::Index>(d));
        if (!std::isfinite(v)) continue;
        if (std::abs(v) > std::abs(peak)) peak = v, at = k;
        sum += v * v, ++count;
      }
      if (count == 0) continue;
      text += fmt::format("driver {} effort{}: peak {:.6g} {} at {} (t = {:.6g} s), RMS {:.6g} {}\n", driver.name,
                          with_friction ? "" : " without friction", peak, unit, driver_values_at(m, r, at), r.t(at),
                          std::sqrt(sum / static_cast<double>(count)), unit);
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
    if (m.joints()[k].type != planar::JointType::gear)
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
    if (system.coulomb[k].kind == dynamics::CoulombElement::pair_friction) friction += cycle.friction_loss[k];
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
  const bool against_driver = x.label.rfind(m.drivers()[0].name, 0) == 0;  // else the animation runs against time
  try {
    std::vector<Plot> reduced = reduced_plots(m, dynamics::tabulate_reduced_parameters(m, 360));
    if (!against_driver)
      for (Plot& p : reduced) p.linked = false;
    data.sections.push_back({"Reduced parameters", std::move(reduced)});
    if (machine.actuators.empty()) return;
    dynamics::SimulationOptions so;
    so.t0 = grid.t0;
    so.steps = 600;
    so.rel_tol = so.abs_tol = 1e-9;
    so.kinematics = true;  // the bodies' speeds (the motors' operating points)
    const dynamics::DynamicSystem system(m, machine);
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
      std::vector<Plot> cycle = cycle_plots(system, run);
      for (Plot& p : cycle) p.linked = against_driver && p.x_label == x.label;
      data.sections.push_back({"Direct dynamics: the steady cycle against " + cycle.front().x_label, std::move(cycle)});
    }
    std::vector<Plot> timed = simulation_plots(system, run);
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
  data.sections.push_back({"Kinematics", kinematics_plots(m, kinematics, options.along)});
  if (options.kinetostatics) {
    const planar::KinetostaticsResult kinetostatics = planar::kinetostatics(m, grid, options.solver);
    data.sections.push_back({"Kinetostatics", kinetostatics_plots(m, kinetostatics)});
    data.summary += kinetostatics_summary(m, kinetostatics);
  }
  if (m.dof() == 1) add_dynamics(m, machine, grid, x, options, data);
  return data;
}

}  // namespace linkdyn::report
