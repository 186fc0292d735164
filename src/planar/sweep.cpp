#include "linkdyn/planar/sweep.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <limits>

#include "linkdyn/core/interrupt.hpp"
#include "linkdyn/core/progress.hpp"
#include "linkdyn/planar/cam_profile.hpp"
#include "linkdyn/planar/constraints.hpp"
#include "linkdyn/planar/groups/group.hpp"

namespace linkdyn::planar {

void set_drivers(const Mechanism& m, Workspace& ws, double t) {
  for (size_t d = 0; d < m.drivers().size(); ++d) {
    const MotionSample s = evaluate(m.drivers()[d].law, t);
    ws.q[d] = s.q;
    ws.qd[d] = s.qd;
    ws.qdd[d] = s.qdd;
  }
}

namespace {

/// Bisection between a time where the mechanism assembles (with the tracked state `ok`) and
/// one where it does not.
double refine_limit(const Mechanism& m, const Workspace& ws, const TrackingState& ok, double t_ok, double t_bad) {
  Workspace probe = ws;
  ok.restore(probe);
  probe.branch_only = true;
  for (int it = 0; it < 60 && std::abs(t_bad - t_ok) > 1e-13 * (1.0 + std::abs(t_ok)); ++it) {
    const double mid = 0.5 * (t_ok + t_bad);
    Workspace trial = probe;
    set_drivers(m, trial, mid);
    if (solve_positions(m, trial).ok()) {
      t_ok = mid;
      probe = std::move(trial);
    } else {
      t_bad = mid;
    }
  }
  return t_ok;
}

}  // namespace

SweepSummary sweep_kinematics(const Mechanism& m, Workspace& ws, const TimeGrid& grid,
                              const std::function<void(int, double, StepStatus)>& on_step) {
  SingularLimit limits(m);
  return sweep_kinematics(m, ws, grid, on_step, limits);
}

SweepSummary sweep_kinematics(const Mechanism& m, Workspace& ws, const TimeGrid& grid,
                              const std::function<void(int, double, StepStatus)>& on_step, SingularLimit& limits) {
  SweepSummary summary;
  ws.reset_tracking();
  limits.anchor.valid = false;
  bool inside = false, assembled_once = false;
  double t_prev = grid.t0, t_absent = grid.t0;
  // The last assembled state, for refining an assembly limit (copied without allocating).
  TrackingState last(ws);
  for (int k = 0; k <= grid.steps; ++k) {
    throw_if_stop_requested();
    report_progress(k, grid.steps + 1);
    const double t = grid.time(k);
    set_drivers(m, ws, t);
    StepStatus status = StepStatus::ok;
    KinematicStatus ks = solve_positions(m, ws);
    if (!ks.ok()) {
      status = StepStatus::absent;
      if (k == 0) summary.starts_assembled = false;
      if (inside) {
        const double t_limit = refine_limit(m, ws, last, t_prev, t);
        Workspace at_limit = ws;
        set_drivers(m, at_limit, t_limit);
        summary.intervals.back().second = t_prev;
        const Group& g = *m.groups()[ks.group];
        summary.events.push_back(
            {SweepEvent::assembly_limit, t_limit, at_limit.q,
             "assembly limit (dead point): group " + g.type() + " cannot close beyond this driver value"});
      }
      inside = false;
      t_absent = t;
      ws.reset_tracking();
      limits.anchor.valid = false;
      ++summary.absent;
    } else {
      if (!inside) {
        if (k > 0) {
          const double t_limit = refine_limit(m, ws, TrackingState(ws), t, t_absent);
          Workspace at_limit = ws;
          set_drivers(m, at_limit, t_limit);
          summary.events.push_back(
              {SweepEvent::assembly_limit, t_limit, at_limit.q,
               "assembly limit (dead point): the mechanism assembles again from this driver value"});
        }
        summary.intervals.emplace_back(t, t);
      }
      if (!assembled_once) check_compound_pins(m, ws);
      assembled_once = true;
      inside = true;
      summary.intervals.back().second = t;
      // At or near a singular position the rates are taken from both sides; where they have
      // no common limit the position is solved directly if it can be (approaching an assembly
      // limit), else it is a dead point.
      if (near_singular(m, ws) && solve_rates_as_limits(m, ws, limits)) {
        status = StepStatus::limit;
        ++summary.limits;
      } else if ((ks = solve_velocities(m, ws)).ok()) {
        solve_accelerations(m, ws);
        limits.anchor.save(ws);
      } else {
        status = StepStatus::singular;
        ++summary.singular;
        summary.events.push_back({SweepEvent::singular, t, ws.q, describe(m, ws, ks)});
      }
      last.save(ws);
      t_prev = t;
    }
    ++summary.steps;
    on_step(k, t, status);
  }
  return summary;
}

void require_start_assembly(const Mechanism& m, const TimeGrid& grid) {
  Workspace ws(m);
  require_start_assembly(m, grid, ws);
}

void require_start_assembly(const Mechanism& m, const TimeGrid& grid, Workspace& ws) {
  set_drivers(m, ws, grid.t0);
  const KinematicStatus status = solve_positions(m, ws);
  if (!status.ok())
    throw AnalysisError(m.spec().where.file + ": " + describe(m, ws, status) +
                        "; change the dimensions, the drivers' start values or the assembly hints");
  // An assembly whose loops do not close (to 1e-6 of the smallest body) has lost its digits:
  // coordinates far larger than the links.
  double smallest = 0.0;
  for (size_t b = 1; b < m.bodies().size(); ++b) {
    double size = 0.0;
    for (const NamedPoint& p : m.bodies()[b].points)
      for (const NamedPoint& q : m.bodies()[b].points) size = std::max(size, (p.local - q.local).norm());
    if (size > 0.0) smallest = smallest > 0.0 ? std::min(smallest, size) : size;
  }
  const double allowed = smallest > 0.0 ? 1e-6 * smallest : std::numeric_limits<double>::infinity();
  if (const double residual = constraint_residual(m, ws); !(residual <= allowed))
    throw InputError(m.spec().where, "model",
                     fmt::format("at {} the loops do not close: residual {:.3g} m, more than 1e-6 of the smallest "
                                 "body ({:.3g} m); coordinates far larger than the links leave too few digits",
                                 driver_values(m, ws.q), residual, smallest),
                     "place the mechanism near the origin, its coordinates a few link lengths");
}

TimeGrid analysis_grid(const Mechanism& m, int steps) {
  TimeGrid grid = m.default_grid();
  if (steps > 0) grid.steps = steps;
  require_start_assembly(m, grid);
  return grid;
}

std::string driver_column(const Driver& d, int order) {
  static const char* const rotational[] = {".angle", ".omega", ".alpha"};
  static const char* const linear[] = {".position", ".velocity", ".acceleration"};
  static const char* const cylinder[] = {".length", ".speed", ".acceleration"};
  return d.name + (d.type == DriverType::rotational ? rotational : d.cylinder >= 0 ? cylinder : linear)[order];
}

std::vector<TrackedPoint> tracked_points(const Mechanism& m) {
  std::vector<TrackedPoint> points;
  for (const OutputPoint& p : m.output_points()) points.push_back({p.label, p.body, p.local});
  for (size_t b = 1; b < m.bodies().size(); ++b)
    points.push_back({m.bodies()[b].name + ".com", static_cast<int>(b), m.bodies()[b].com});
  return points;
}

std::vector<int> transmission_groups(const Mechanism& m) {
  std::vector<int> groups;
  for (size_t g = 0; g < m.groups().size(); ++g)
    if (m.groups()[g]->has_transmission_angle()) groups.push_back(static_cast<int>(g));
  return groups;
}

KinematicsColumns::KinematicsColumns(const Mechanism& m)
    : points_(tracked_points(m)), transmission_groups_(transmission_groups(m)) {}

void KinematicsColumns::add_motion_columns(const Mechanism& m, Table& table) const {
  for (size_t b = 1; b < m.bodies().size(); ++b) {
    table.add_column(m.bodies()[b].name + ".angle", "rad");
    table.add_column(m.bodies()[b].name + ".omega", "rad/s");
    table.add_column(m.bodies()[b].name + ".alpha", "rad/s^2");
  }
  for (const TrackedPoint& p : points_) {
    for (const char* q : {".x", ".y"}) table.add_column(p.label + q, "m");
    for (const char* q : {".vx", ".vy"}) table.add_column(p.label + q, "m/s");
    for (const char* q : {".ax", ".ay"}) table.add_column(p.label + q, "m/s^2");
  }
}

void KinematicsColumns::add_transmission_columns(const Mechanism& m, Table& table) const {
  for (int g : transmission_groups_)
    table.add_column(m.joints()[m.groups()[g]->label_joint()].name + ".transmission_angle", "rad");
  for (const int j : m.cam_pairs()) {
    const Joint& joint = m.joints()[static_cast<size_t>(j)];
    const bool turns = joint.as<CamPair>().follower.motion == CamFollower::Motion::oscillating;
    table.add_column(joint.name + ".s", turns ? "rad" : "m");
    table.add_column(joint.name + ".v", turns ? "rad/s" : "m/s");
    table.add_column(joint.name + ".a", turns ? "rad/s^2" : "m/s^2");
    table.add_column(joint.name + ".jerk", turns ? "rad/s^3" : "m/s^3");
    table.add_column(joint.name + ".pressure_angle", "rad");
    table.add_column(joint.name + ".radius", "m");
  }
}

void allocate_rows(const Mechanism& m, Eigen::Index rows, KinematicsResult& r) {
  r.points = tracked_points(m);
  r.transmission_groups = transmission_groups(m);
  const auto nb = static_cast<Eigen::Index>(m.bodies().size()) - 1, np = static_cast<Eigen::Index>(r.points.size());
  r.t.resize(rows);
  r.q.resize(rows, static_cast<Eigen::Index>(m.drivers().size()));
  for (Eigen::MatrixXd* per_body : {&r.x0, &r.y0, &r.angle, &r.omega, &r.alpha}) per_body->resize(rows, nb);
  for (Eigen::MatrixXd* per_point : {&r.x, &r.y, &r.vx, &r.vy, &r.ax, &r.ay}) per_point->resize(rows, np);
  r.transmission_angle.resize(rows, static_cast<Eigen::Index>(r.transmission_groups.size()));
  r.cam.resize(rows, KinematicsResult::cam_columns * static_cast<Eigen::Index>(m.cam_pairs().size()));
  r.status.assign(static_cast<size_t>(rows), StepStatus::ok);
}

void record_row(const Mechanism& m, const Workspace& ws, double t, StepStatus status, Eigen::Index row,
                KinematicsResult& r) {
  const bool rates = status != StepStatus::singular;
  const double none = Table::missing;
  r.t(row) = t;
  for (size_t d = 0; d < m.drivers().size(); ++d) r.q(row, static_cast<Eigen::Index>(d)) = ws.q[d];
  for (Eigen::Index b = 0; b < r.angle.cols(); ++b) {
    const BodyState& s = ws.body[static_cast<size_t>(b + 1)];
    r.x0(row, b) = s.r.x(), r.y0(row, b) = s.r.y();
    r.angle(row, b) = s.theta;
    r.omega(row, b) = rates ? s.omega : none;
    r.alpha(row, b) = rates ? s.alpha : none;
  }
  for (Eigen::Index k = 0; k < r.x.cols(); ++k) {
    const TrackedPoint& p = r.points[static_cast<size_t>(k)];
    const BodyState& s = ws.body[static_cast<size_t>(p.body)];
    const Vec2 x = s.position(p.local);
    const Vec2 v = rates ? s.velocity(p.local) : Vec2(none, none);
    const Vec2 a = rates ? s.acceleration(p.local) : Vec2(none, none);
    r.x(row, k) = x.x(), r.y(row, k) = x.y(), r.vx(row, k) = v.x(), r.vy(row, k) = v.y();
    r.ax(row, k) = a.x(), r.ay(row, k) = a.y();
  }
  for (size_t g = 0; g < r.transmission_groups.size(); ++g)
    r.transmission_angle(row, static_cast<Eigen::Index>(g)) =
        m.groups()[r.transmission_groups[g]]->transmission_angle(m, ws).value_or(none);
  for (size_t c = 0; c < m.cam_pairs().size(); ++c) {
    const Joint& joint = m.joints()[static_cast<size_t>(m.cam_pairs()[c])];
    const CamPair& cam = joint.as<CamPair>();
    // The program's angle turns with the cam (the other way when mirrored) [s = s(theta)].
    const double theta = cam_program_angle(joint, ws), sense = cam.mirrored ? -1.0 : 1.0;
    const FollowerMotion motion = cam.program.at(theta);
    const CamContact contact = cam_contact(cam.follower, cam.program, theta);
    const BodyState& body = ws.body[static_cast<size_t>(joint.body[0])];
    const FollowerRates f = follower_rates(motion, sense * body.omega, sense * body.alpha);
    const Eigen::Index col = KinematicsResult::cam_columns * static_cast<Eigen::Index>(c);
    r.cam(row, col) = motion.s;
    r.cam(row, col + 1) = rates ? f.v : none;
    r.cam(row, col + 2) = rates ? f.a : none;
    r.cam(row, col + 3) = rates ? f.j : none;
    r.cam(row, col + 4) = contact.pressure_angle;
    r.cam(row, col + 5) = contact.profile_curvature_radius;
  }
  r.status[static_cast<size_t>(row)] = status;
}

void keep_rows(Eigen::Index rows, KinematicsResult& r) {
  r.t.conservativeResize(rows);
  for (Eigen::MatrixXd* matrix : {&r.q, &r.x0, &r.y0, &r.angle, &r.omega, &r.alpha, &r.x, &r.y, &r.vx, &r.vy, &r.ax,
                                  &r.ay, &r.transmission_angle, &r.cam})
    matrix->conservativeResize(rows, Eigen::NoChange);
  r.status.resize(static_cast<size_t>(rows));
}

SweepSummary kinematics(const Mechanism& m, const TimeGrid& grid, double singular_tolerance, Eigen::Index chunk_rows,
                        const std::function<void(KinematicsResult&)>& on_chunk) {
  const Eigen::Index capacity = std::clamp<Eigen::Index>(chunk_rows, 1, grid.steps + 1);
  KinematicsResult r;
  allocate_rows(m, capacity, r);
  Workspace ws(m);
  ws.singular_tolerance = singular_tolerance;
  Eigen::Index row = 0;
  SweepSummary summary = sweep_kinematics(m, ws, grid, [&](int, double t, StepStatus status) {
    if (status == StepStatus::absent) return;
    if (row == r.rows()) {  // a full chunk: handed over, then its room reused
      on_chunk(r);
      if (r.rows() != capacity) allocate_rows(m, capacity, r);
      row = 0;
    }
    record_row(m, ws, t, status, row++, r);
  });
  keep_rows(row, r);
  on_chunk(r);
  return summary;
}

KinematicsResult kinematics(const Mechanism& m, const TimeGrid& grid, double singular_tolerance) {
  KinematicsResult all;
  SweepSummary summary =
      kinematics(m, grid, singular_tolerance, grid.steps + 1, [&](KinematicsResult& chunk) { all = std::move(chunk); });
  all.summary = std::move(summary);
  return all;
}

}  // namespace linkdyn::planar
