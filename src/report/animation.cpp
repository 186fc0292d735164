// The report's animation: each moving body's points in every frame (decimated from the
// kinematic sweep), and the machine's elements drawn on it: guides and slider blocks, springs and
// dampers, load arrows, gears' and motors' wheels, cams and their rollers, ground pivots.
#include "report/animation.hpp"

#include <algorithm>
#include <cmath>
#include <optional>

#include "linkdyn/planar/loads.hpp"

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

/// A body-fixed point in the global frame at a row of the kinematics.
Vec2 global_point(const planar::KinematicsResult& r, Eigen::Index row, const AnchoredPoint& p) {
  if (p.body == 0) return p.local;
  const auto c = static_cast<Eigen::Index>(p.body - 1);
  return Vec2(r.x0(row, c), r.y0(row, c)) + rotate(p.local, r.angle(row, c));
}

/// Every moving body's named points in the global frame (its frame's origin if it has none), in
/// the order of animated_bodies, at a row of the kinematics.
void append_pose(const Mechanism& m, const planar::KinematicsResult& r, Eigen::Index row, std::vector<double>& out) {
  for (size_t b = 1; b < m.bodies().size(); ++b) {
    const int body = static_cast<int>(b);
    for (const planar::NamedPoint& p : m.bodies()[b].points) {
      const Vec2 g = global_point(r, row, {body, p.local});
      out.push_back(g.x()), out.push_back(g.y());
    }
    if (m.bodies()[b].points.empty()) {
      const Vec2 origin = global_point(r, row, {body, Vec2::Zero()});
      out.push_back(origin.x()), out.push_back(origin.y());
    }
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
    for (const CamOutline& cam : a.cams)  // every turn of the profile
      for (size_t k = 0; k < a.frames.size(); ++k)
        for (const Vec2& p : cam.profile) grow(point_in_frame(a, k, {cam.body, p}));
    for (const LoadArrow& l : a.loads)
      for (size_t k = 0; k < a.frames.size(); ++k)
        grow(point_in_frame(a, k, l.at) - a.load_scale * Vec2(l.force[2 * k], l.force[2 * k + 1]));
  }
  if (!(x0 <= x1)) x0 = -1, x1 = 1, y0 = -1, y1 = 1;
  if (a.size == 0) a.size = std::max({x1 - x0, y1 - y0, 1e-6});
  const double width = 1.12 * std::max({x1 - x0, (y1 - y0) * 4.0 / 3.0, 1e-6}), height = 0.75 * width;
  a.view = {0.5 * (x0 + x1) - 0.5 * width, -0.5 * (y0 + y1) - 0.5 * height, width, height};
}

/// The point (in body `b`'s frame) where b turns on the ground, if it does.
std::optional<Vec2> ground_pivot(const Mechanism& m, int b, Vec2* on_ground = nullptr) {
  for (const planar::Joint& j : m.joints())
    if (j.is<planar::RevolutePair>() && j.connects(0) && j.connects(b) && b != 0) {
      const int side = j.body[0] == b ? 0 : 1;
      if (on_ground) *on_ground = j.point[1 - side];
      return j.point[side];
    }
  return std::nullopt;
}

/// Each prismatic pair's guide (over the slider's travel) and the slider's block on it; a
/// cylinder's slide is drawn with the cylinder.
void add_guides(const Mechanism& m, const planar::KinematicsResult& r, Animation& a) {
  for (const planar::Joint& j : m.joints()) {
    const auto* slide = std::get_if<planar::PrismaticPair>(&j.kind);
    const auto index = static_cast<int>(&j - m.joints().data());
    if (!slide || std::any_of(m.cylinders().begin(), m.cylinders().end(),
                              [&](const planar::Cylinder& c) { return c.slide_joint == index; }))
      continue;
    const double length = slide->slider_length > 0 ? slide->slider_length : 0.08 * a.size;
    GuideLine guide{{j.body[0], j.point[0]}, slide->guide_dir.normalized(), INFINITY, -INFINITY};
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
    const auto* gear = std::get_if<planar::GearPair>(&j.kind);
    if (!gear) continue;
    Vec2 g0 = Vec2::Zero(), g1 = Vec2::Zero();
    const std::optional<Vec2> c0 = ground_pivot(m, j.body[0], &g0), c1 = ground_pivot(m, j.body[1], &g1);
    // Equal pitch-line speeds: r0 = |ratio| r1; r0 + r1 = d (external, ratio < 0) or
    // |r0 - r1| = d (internal).
    const double ratio = std::abs(gear->ratio), d = (g1 - g0).norm();
    double r1 = 0.06 * a.size;
    if (c0 && c1 && d > 0) {
      const double sum = gear->ratio < 0 ? 1.0 + ratio : std::abs(ratio - 1.0);
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

/// Each cam's profile on its body's frame, from its pitch curve less the roller (cam_profile.hpp),
/// at `samples` points over the turn, and its follower's roller.
void add_cams(const Mechanism& m, Animation& a, int samples = 360) {
  for (int joint : m.cam_pairs()) {
    const planar::Joint& j = m.joints()[static_cast<size_t>(joint)];
    const planar::CamPair& cam = j.as<planar::CamPair>();
    const double roller =
        cam.follower.contact == planar::CamFollower::Contact::roller ? cam.follower.roller_radius : 0.0;
    CamOutline outline{j.body[0], {}, {j.body[1], j.point[1]}, roller};
    for (int k = 0; k < samples; ++k) {
      const planar::PitchCurvePoint p =
          planar::pitch_curve(cam.follower, cam.program, 2.0 * M_PI * k / static_cast<double>(samples));
      outline.profile.push_back(j.point[0] + cam.frame * (p.c - roller * p.outward_normal()));
    }
    a.cams.push_back(std::move(outline));
  }
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
  // The frames' rows count the assembled steps, as planar::kinematics records them (its summary
  // is the kinematics' own).
  (void)planar::sweep_kinematics(m, ws, grid, [&](int, double t, planar::StepStatus status) {
    if (status == planar::StepStatus::absent) return;
    if (next >= rows.size() || row++ != rows[next]) return;
    ++next;
    for (size_t f = 0; f < forces.size(); ++f) {
      Vec2 force = Vec2::Zero();
      try {
        for (const planar::LoadPart& part : forces[f]->parts)
          if (const auto* pull = std::get_if<planar::LoadPart::Force>(&part.pattern))
            force += planar::part_magnitude(m, ws, *forces[f], part, t) * pull->direction;
      } catch (const InputError&) {
        force = Vec2::Constant(NAN);  // outside its table: not drawn (the kinetostatics says why)
      }
      if (force.allFinite()) largest = std::max(largest, force.norm());
      a.loads[f].force.push_back(force.x()), a.loads[f].force.push_back(force.y());
    }
  });
  a.load_scale = largest > 0 ? 0.2 * a.size / largest : 0.0;
}

}  // namespace

Animation animation(const Mechanism& m, const dynamics::MachineSpec& machine, const planar::TimeGrid& grid,
                    const planar::KinematicsResult& r, const XAxis& x, size_t max_frames) {
  Animation a;
  a.x_label = x.axis.label();
  a.bodies = animated_bodies(m);
  for (const planar::NamedPoint& g : m.bodies()[0].points) a.ground.push_back(g.local);
  for (const planar::Joint& j : m.joints())
    for (int side : {0, 1})
      if (j.is<planar::RevolutePair>() && j.body[side] == 0 &&
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
  for (const planar::Cylinder& c : m.cylinders()) {
    // Drawn from its pins: a barrel about as long as the shortest length (the retracted one, or
    // the shortest the sweep reaches), a rod that stays in it at the longest.
    double shortest = c.stroke_min, longest = c.stroke_max;
    if (!(c.stroke_max > 0.0)) {
      const Eigen::VectorXd length = r.q.col(c.driver);
      shortest = length.minCoeff(), longest = length.maxCoeff();
    }
    const double barrel = 0.9 * shortest, rod = std::max(longest - 0.8 * shortest, 0.1 * shortest);
    a.elements.push_back({"cylinder", {{c.barrel, Vec2::Zero()}, {c.rod, Vec2::Zero()}}, {barrel, rod}});
  }
  add_wheels(m, machine, a);
  add_cams(m, a);
  add_load_arrows(m, grid, rows, a);
  frame_the_view(a);
  return a;
}

}  // namespace linkdyn::report
