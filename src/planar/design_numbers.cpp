// The design numbers of a one-DOF mechanism: outputs' travel between limit positions located to
// the rounding level, time ratios, Grashof types and transmission-angle extremes.
#include "linkdyn/planar/design_numbers.hpp"

#include <Eigen/Eigenvalues>
#include <algorithm>
#include <boost/math/tools/toms748_solve.hpp>
#include <cmath>
#include <limits>
#include <exception>

#include "linkdyn/planar/groups/group.hpp"
#include "linkdyn/planar/kinematics.hpp"
#include "linkdyn/planar/sweep.hpp"

namespace linkdyn::planar {
namespace {

/// An output as a function of the pose: a body's angle, or a point's position along a direction.
struct Output {
  OutputTravel travel;
  int body = 0;
  Vec2 local = Vec2::Zero();
  [[nodiscard]] double position(const Workspace& ws) const {
    const BodyState& s = ws.body[static_cast<size_t>(body)];
    return travel.kind == OutputTravel::Kind::swing ? s.theta : s.position(local).dot(travel.direction);
  }
  /// The velocity coefficient (the rate per unit rate of the driver: ws.qd = 1).
  [[nodiscard]] double rate(const Workspace& ws) const {
    const BodyState& s = ws.body[static_cast<size_t>(body)];
    return travel.kind == OutputTravel::Kind::swing ? s.omega : s.velocity(local).dot(travel.direction);
  }
  /// The same from the sweep's row (rates at the sweep's driver speed: their sign changes there).
  [[nodiscard]] double position(const KinematicsResult& k, Eigen::Index row, Eigen::Index column) const {
    if (travel.kind == OutputTravel::Kind::swing) return k.angle(row, column);
    if (column < 0) return Vec2(k.x0(row, body - 1), k.y0(row, body - 1)).dot(travel.direction);
    return Vec2(k.x(row, column), k.y(row, column)).dot(travel.direction);
  }
};

/// A unit direction without the rounding of an axis's zero component.
Vec2 snapped(Vec2 d) {
  for (int i = 0; i < 2; ++i)
    if (std::abs(d(i)) < 1e-12) d(i) = 0.0;
  return d.normalized();
}

/// The principal direction of a point's path (the covariance's largest eigenvector), x >= 0.
Vec2 principal_direction(const Eigen::VectorXd& x, const Eigen::VectorXd& y) {
  const double mx = x.mean(), my = y.mean();
  Eigen::Matrix2d c;
  c(0, 0) = (x.array() - mx).square().sum();
  c(1, 1) = (y.array() - my).square().sum();
  c(0, 1) = c(1, 0) = ((x.array() - mx) * (y.array() - my)).sum();
  const Eigen::SelfAdjointEigenSolver<Eigen::Matrix2d> eigen(c);
  Vec2 d = eigen.eigenvectors().col(1);
  if (d.x() < -1e-12 || (std::abs(d.x()) <= 1e-12 && d.y() < 0.0)) d = -d;
  return snapped(d);
}

/// Locates the limit positions of `o` between the sweep's rows where its rate changes sign
/// (TOMS 748 on the velocity coefficient at the positions solved there), and sets its travel
/// (and its time ratio when `time_ratio`: a crank turning once at constant speed).
void locate_limits(const Mechanism& m, const KinematicsResult& k, Eigen::Index column, bool time_ratio, Workspace& ws,
                   Output& o) {
  const Eigen::Index rows = k.rows();
  OutputTravel& out = o.travel;
  double low = INFINITY, high = -INFINITY;
  auto consider = [&](double value, double q) {
    if (value < low) low = value, out.q_low = q;
    if (value > high) high = value, out.q_high = q;
  };
  auto rate_at_row = [&](Eigen::Index row) {
    if (out.kind == OutputTravel::Kind::swing) return k.omega(row, o.body - 1);
    if (column >= 0) return Vec2(k.vx(row, column), k.vy(row, column)).dot(out.direction);
    ws.q[0] = k.q(row, 0), ws.qd[0] = 1.0;  // a slider body: its frame's rate, solved at the row
    if (!solve_positions(m, ws).ok() || !solve_velocities(m, ws).ok()) return std::numeric_limits<double>::quiet_NaN();
    return o.rate(ws);
  };
  for (Eigen::Index row = 0; row < rows; ++row) consider(o.position(k, row, column), k.q(row, 0));
  // The workspace follows the sweep row by row (the same assembly branch), and refines between.
  ws.reset_tracking();
  for (Eigen::Index row = 0; row + 1 < rows; ++row) {
    const double qa = k.q(row, 0), qb = k.q(row + 1, 0);
    ws.q[0] = qa;
    const bool placed = solve_positions(m, ws).ok() &&
                        std::abs(o.position(ws) - o.position(k, row, column)) <= 1e-9 * (1.0 + std::abs(high - low));
    const double r0 = rate_at_row(row), r1 = rate_at_row(row + 1);
    if (!placed || !(r0 * r1 < 0.0) || k.status[static_cast<size_t>(row)] != StepStatus::ok ||
        k.status[static_cast<size_t>(row + 1)] != StepStatus::ok)
      continue;
    auto coefficient = [&](double q) {
      ws.q[0] = q, ws.qd[0] = 1.0;
      if (!solve_positions(m, ws).ok() || !solve_velocities(m, ws).ok())
        return std::numeric_limits<double>::quiet_NaN();
      return o.rate(ws);
    };
    // (ascending: the driver may run backwards along the grid)
    const double lo = std::min(qa, qb), hi = std::max(qa, qb);
    const double g_lo = coefficient(lo), g_hi = coefficient(hi);
    if (!(g_lo * g_hi < 0.0)) continue;
    std::uintmax_t iterations = 100;
    double q = 0.0;
    try {
      const auto [a, b] = boost::math::tools::toms748_solve(coefficient, lo, hi, g_lo, g_hi,
                                                            boost::math::tools::eps_tolerance<double>(52), iterations);
      q = 0.5 * (a + b);
    } catch (const std::exception&) {  // Boost's domain or evaluation error
      continue;  // a rate that is not finite inside the interval (a dead point): the rows' values stand
    }
    ws.q[0] = q;
    if (solve_positions(m, ws).ok()) consider(o.position(ws), q);
  }
  out.low = low, out.high = high, out.travel = high - low;
  if (time_ratio && out.travel > 0.0) {
    const double forward = std::fmod(std::abs(out.q_high - out.q_low), 2.0 * M_PI);
    const double slow = std::max(forward, 2.0 * M_PI - forward), fast = std::min(forward, 2.0 * M_PI - forward);
    if (fast > 0.0) out.time_ratio = slow / fast;
  }
}

/// The point of joint j on body b (body frame).
Vec2 joint_point(const Joint& j, int b) { return j.body[0] == b ? j.point[0] : j.point[1]; }

std::vector<FourBarLoop> four_bar_loops(const Mechanism& m) {
  std::vector<FourBarLoop> loops;
  const auto& joints = m.joints();
  const int driven = m.drivers().empty() ? -1 : m.drivers()[0].joint;
  std::vector<int> pinned;  // revolute pairs with the ground
  for (size_t j = 0; j < joints.size(); ++j)
    if (joints[j].is<RevolutePair>() && joints[j].connects(0) && joints[j].other(0) != 0)
      pinned.push_back(static_cast<int>(j));
  // The revolute pair between bodies a and b, or -1.
  auto pair_between = [&](int a, int b) {
    for (size_t j = 0; j < joints.size(); ++j)
      if (joints[j].is<RevolutePair>() && joints[j].connects(a) && joints[j].other(a) == b) return static_cast<int>(j);
    return -1;
  };
  for (size_t i = 0; i < pinned.size(); ++i)
    for (size_t k = i + 1; k < pinned.size(); ++k) {
      int j1 = pinned[i], j2 = pinned[k];
      if (j2 == driven) std::swap(j1, j2);  // the driven link is the input
      const int input = joints[j1].other(0), output = joints[j2].other(0);
      if (input == output) continue;
      for (size_t c = 1; c < m.bodies().size(); ++c) {
        const int coupler = static_cast<int>(c);
        if (coupler == input || coupler == output) continue;
        const int jc1 = pair_between(input, coupler), jc2 = pair_between(coupler, output);
        if (jc1 < 0 || jc2 < 0) continue;
        FourBarLoop loop;
        loop.links = {"ground", m.bodies()[input].name, m.bodies()[coupler].name, m.bodies()[output].name};
        loop.lengths = {(joint_point(joints[j1], 0) - joint_point(joints[j2], 0)).norm(),
                        (joint_point(joints[j1], input) - joint_point(joints[jc1], input)).norm(),
                        (joint_point(joints[jc1], coupler) - joint_point(joints[jc2], coupler)).norm(),
                        (joint_point(joints[jc2], output) - joint_point(joints[j2], output)).norm()};
        loop.type = grashof_type(loop.lengths, loop.grashof);
        loops.push_back(loop);
      }
    }
  return loops;
}

}  // namespace

std::string grashof_type(const std::array<double, 4>& lengths, bool& grashof) {
  const auto shortest = static_cast<size_t>(std::min_element(lengths.begin(), lengths.end()) - lengths.begin());
  const double s = lengths[shortest], l = *std::max_element(lengths.begin(), lengths.end());
  const double pq = lengths[0] + lengths[1] + lengths[2] + lengths[3] - s - l;
  grashof = s + l <= pq * (1.0 + 1e-12);
  if (std::abs(s + l - pq) <= 1e-12 * l) return "change-point";
  if (!grashof) return "triple-rocker";
  static constexpr std::array<const char*, 4> by_shortest{"double-crank", "crank-rocker", "double-rocker",
                                                          "rocker-crank"};
  return by_shortest[shortest];
}

DesignNumbers design_numbers(const Mechanism& m, const KinematicsResult& k) {
  DesignNumbers d;
  d.four_bars = four_bar_loops(m);
  if (m.drivers().size() != 1 || k.rows() < 2) return d;
  const Eigen::Index rows = k.rows();
  const bool full_turn = m.drivers()[0].type == DriverType::rotational &&
                         std::abs(k.q(rows - 1, 0) - k.q(0, 0)) >= 2.0 * M_PI * (1.0 - 1e-9);
  // A crank turning once at constant speed: the time ratio is that of the crank angles.
  bool constant_speed = full_turn;
  const double speed = (k.q(rows - 1, 0) - k.q(0, 0)) / (k.t(rows - 1) - k.t(0));
  for (Eigen::Index row = 0; row < rows && constant_speed; ++row)
    constant_speed = std::abs(k.q(row, 0) - k.q(0, 0) - speed * (k.t(row) - k.t(0))) <= 1e-9 * 2.0 * M_PI;
  const int driven = m.drivers()[0].joint;
  Workspace ws(m);
  // Bodies pinned to or sliding on the ground (other than the driven one).
  std::vector<int> seen;
  for (size_t j = 0; j < m.joints().size(); ++j) {
    const Joint& joint = m.joints()[j];
    const int body = joint.other(0);
    if (!joint.connects(0) || body == 0 || static_cast<int>(j) == driven || joint.is<GearPair>() ||
        std::find(seen.begin(), seen.end(), body) != seen.end())
      continue;
    if (m.joints()[static_cast<size_t>(driven)].connects(body)) continue;  // the driven body itself
    Output o;
    o.body = body;
    o.travel.name = m.bodies()[body].name;
    if (joint.is<PrismaticPair>()) {
      if (joint.body[0] != 0) continue;  // a guide on the moving body: its direction turns
      o.travel.kind = OutputTravel::Kind::stroke;
      o.travel.direction = snapped(joint.as<PrismaticPair>().guide_dir);
    }
    seen.push_back(body);
    const Eigen::Index column = o.travel.kind == OutputTravel::Kind::swing ? body - 1 : -1;
    if (o.travel.kind == OutputTravel::Kind::swing && full_turn &&
        std::abs(k.angle(rows - 1, body - 1) - k.angle(0, body - 1)) > M_PI) {
      o.travel.revolves = true;  // it turns with the crank
    } else {
      locate_limits(m, k, column, constant_speed, ws, o);
    }
    d.outputs.push_back(o.travel);
  }
  // The named points, along the principal directions of their paths.
  double size = 0.0;
  std::vector<double> extent(m.output_points().size(), 0.0);
  for (size_t p = 0; p < m.output_points().size(); ++p) {
    const auto c = static_cast<Eigen::Index>(p);
    extent[p] =
        std::hypot(k.x.col(c).maxCoeff() - k.x.col(c).minCoeff(), k.y.col(c).maxCoeff() - k.y.col(c).minCoeff());
    size = std::max(size, extent[p]);
  }
  for (size_t p = 0; p < m.output_points().size(); ++p) {
    if (extent[p] <= 1e-9 * size) continue;  // a pivot
    const auto c = static_cast<Eigen::Index>(p);
    Output o;
    o.body = m.output_points()[p].body, o.local = m.output_points()[p].local;
    o.travel.name = m.output_points()[p].label;
    o.travel.kind = OutputTravel::Kind::stroke;
    o.travel.direction = principal_direction(k.x.col(c), k.y.col(c));
    locate_limits(m, k, c, constant_speed, ws, o);
    d.outputs.push_back(o.travel);
  }
  for (size_t g = 0; g < k.transmission_groups.size(); ++g) {
    TransmissionExtremes e;
    e.joint =
        m.joints()[static_cast<size_t>(m.groups()[static_cast<size_t>(k.transmission_groups[g])]->label_joint())].name;
    e.min = INFINITY, e.max = -INFINITY;
    for (Eigen::Index row = 0; row < rows; ++row) {
      const double angle = k.transmission_angle(row, static_cast<Eigen::Index>(g));
      if (!std::isfinite(angle)) continue;
      if (angle < e.min) e.min = angle, e.q_at_min = k.q(row, 0);
      if (angle > e.max) e.max = angle, e.q_at_max = k.q(row, 0);
    }
    if (std::isfinite(e.min)) d.transmission.push_back(e);
  }
  for (size_t c = 0; c < m.cam_pairs().size(); ++c) {
    const Joint& joint = m.joints()[static_cast<size_t>(m.cam_pairs()[c])];
    CamNumbers n;
    n.joint = joint.name;
    n.oscillating = joint.as<CamPair>().follower.motion == CamFollower::Motion::oscillating;
    const Eigen::Index col = KinematicsResult::cam_columns * static_cast<Eigen::Index>(c);
    double s_min = INFINITY, s_max = -INFINITY;
    for (Eigen::Index row = 0; row < rows; ++row) {
      const double q = k.q(row, 0), s = k.cam(row, col), v = k.cam(row, col + 1), a = k.cam(row, col + 2),
                   jerk = k.cam(row, col + 3), phi = std::abs(k.cam(row, col + 4)), rho = k.cam(row, col + 5);
      s_min = std::min(s_min, s), s_max = std::max(s_max, s);
      if (std::isfinite(v)) n.v_max = std::max(n.v_max, std::abs(v));
      if (std::isfinite(a)) n.a_min = std::min(n.a_min, a), n.a_max = std::max(n.a_max, a);
      if (std::isfinite(jerk)) n.jerk_max = std::max(n.jerk_max, std::abs(jerk));
      if (phi > n.pressure_angle_max) n.pressure_angle_max = phi, n.q_at_pressure_angle_max = q;
      if (rho > 0.0 && rho < n.convex_radius_min) n.convex_radius_min = rho, n.q_at_convex_radius_min = q;
      if (rho < 0.0 && -rho < n.concave_radius_min) n.concave_radius_min = -rho, n.q_at_concave_radius_min = q;
    }
    n.lift = rows > 0 ? s_max - s_min : 0.0;
    d.cams.push_back(n);
  }
  return d;
}

DesignNumbers design_numbers(const Mechanism& m, const TimeGrid& grid) {
  TimeGrid coarse = grid;
  coarse.steps = std::min(grid.steps, 3600);
  return design_numbers(m, kinematics(m, coarse));
}

}  // namespace linkdyn::planar
