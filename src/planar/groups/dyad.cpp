#include "planar/groups/dyad.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "planar/constraints.hpp"

namespace linkdyn::planar {

Dyad::Dyad(const Mechanism& m, int i, int j, int joint_i, int joint_ij, int joint_j)
    : Group({i, j}, {joint_i, joint_ij, joint_j}) {
  double scale = 0.0;
  for (int k = 0; k < 3; ++k) {
    const Joint& jt = m.joints()[joints_[k]];
    for (const Vec2& p : jt.point) scale = std::max(scale, p.norm());
    offset_rotation_[k] = rotation_of(jt.angle_offset);
  }
  scale_ = std::max(scale, 1e-3);
}

const Vec2& Dyad::local_point(const Joint& jt, int body) {
  return jt.body[0] == body ? jt.point[0] : jt.point[1];
}

Vec2 Dyad::global_point(const Joint& jt, const BodyState& known, int known_index) {
  return known.position(local_point(jt, known_index));
}

Vec2 Dyad::slide_rotation(const Mechanism& m, Slot slot, const Vec2& known_rotation,
                          int known_index) const {
  // theta1 - theta0 = offset.
  const Vec2& offset = offset_rotation_[slot];
  return joint(m, slot).body[0] == known_index ? compose(known_rotation, offset)
                                               : compose(known_rotation, Vec2(offset.x(), -offset.y()));
}

Line Dyad::origin_line(const Joint& jt, const BodyState& known, int known_index, const Vec2& rotation) {
  if (jt.body[0] == known_index) {
    // Guide in the known body: the slider point of the unknown body runs on it.
    return {known.position(jt.point[0]) - rotate(jt.point[1], rotation), known.arm(jt.guide_dir)};
  }
  // Guide in the unknown body: it passes through the known body's point.
  return {known.position(jt.point[1]) - rotate(jt.point[0], rotation), rotate(jt.guide_dir, rotation)};
}

int Dyad::choose(const Mechanism& m, const Workspace& ws, int self, const Candidates& cs) const {
  if (cs.count == 1) return 0;
  if (ws.group[self].tracked) {
    // Continue the tracked assembly mode: the candidate nearest to the previous position.
    const BodyState &bi = ws.body[i()], &bj = ws.body[j()];
    double best = std::numeric_limits<double>::infinity();
    int pick = ws.group[self].branch;
    for (int k = 0; k < 2; ++k) {
      const Candidate& c = cs.c[k];
      const double d = (c.r_i - bi.r).squaredNorm() + (c.r_j - bj.r).squaredNorm() +
                       scale_ * scale_ * ((c.rot_i - bi.rotation()).squaredNorm() +
                                          (c.rot_j - bj.rotation()).squaredNorm());
      if (d < best) best = d, pick = k;
    }
    return pick;
  }
  // Start of a sweep or re-entry: the model's assembly hint, else the first mode.
  for (const AssemblyHint& hint : m.spec().assembly) {
    for (const auto& [body, local] : hint.anchors) {
      if (body != i() && body != j()) continue;
      if (hint.sign != 0) return hint.sign > 0 ? 0 : 1;
      double best = std::numeric_limits<double>::infinity();
      int pick = 0;
      for (int k = 0; k < 2; ++k) {
        const Candidate& c = cs.c[k];
        const Vec2 point = body == i() ? c.r_i + rotate(local, c.rot_i) : c.r_j + rotate(local, c.rot_j);
        const double d = (point - *hint.near).squaredNorm();
        if (d < best) best = d, pick = k;
      }
      return pick;
    }
  }
  return 0;
}

bool Dyad::solve_position(const Mechanism& m, Workspace& ws, int self) const {
  const Candidates cs = candidates(m, ws);
  GroupState& state = ws.group[self];
  state.conditioning = cs.conditioning;
  if (cs.count == 0) return false;
  const int k = choose(m, ws, self, cs);
  state.branch = k;
  state.tracked = true;
  const Candidate& c = cs.c[k];
  BodyState& bi = ws.body[i()];
  BodyState& bj = ws.body[j()];
  // Angles stay continuous along a sweep (unwrapped against the previous position).
  bi.set_rotation(c.rot_i, bi.theta);
  bi.r = c.r_i;
  bj.set_rotation(c.rot_j, bj.theta);
  bj.r = c.r_j;
  return true;
}

void Dyad::solve_rates(const Mechanism& m, Workspace& ws, bool acceleration) const {
  using Row3 = Eigen::Matrix<double, 1, 3>;
  using Rates = Eigen::Vector3d;  // (vx, vy, omega) or (ax, ay, alpha) of a body origin
  auto rates_of = [&](int b) {
    const BodyState& s = ws.body[b];
    return acceleration ? Rates(s.a.x(), s.a.y(), s.alpha) : Rates(s.v.x(), s.v.y(), s.omega);
  };
  JointRows rows[3];
  for (int k = 0; k < 3; ++k) joint_rows(m.joints()[joints_[k]], ws, acceleration, rows[k]);

  // The outer joint of `body` (slot 0 or 2): x = particular + lambda * null.
  auto one_parameter = [&](int slot, int body, Rates& particular, Rates& null) {
    const Joint& jt = m.joints()[joints_[slot]];
    const int side = jt.body[0] == body ? 0 : 1;
    const Eigen::Matrix<double, 2, 3>& J = rows[slot].jac[side];
    Eigen::Vector2d rhs = acceleration ? rows[slot].gamma : Eigen::Vector2d::Zero();
    rhs -= rows[slot].jac[1 - side] * rates_of(jt.body[1 - side]);
    const Row3 a = J.row(0), b = J.row(1);
    null = a.cross(b).transpose();
    // A particular solution with the component of largest |null| set to zero: the other two
    // columns form a 2 x 2 whose determinant is that null component (Cramer's rule).
    int k = 0;
    null.cwiseAbs().maxCoeff(&k);
    const int c0 = k == 0 ? 1 : 0, c1 = k == 2 ? 1 : 2;
    const double det = J(0, c0) * J(1, c1) - J(0, c1) * J(1, c0);
    particular.setZero();
    particular(c0) = (rhs(0) * J(1, c1) - J(0, c1) * rhs(1)) / det;
    particular(c1) = (J(0, c0) * rhs(1) - rhs(0) * J(1, c0)) / det;
  };
  Rates p_i, n_i, p_j, n_j;
  one_parameter(outer_i, i(), p_i, n_i);
  one_parameter(outer_j, j(), p_j, n_j);

  // The inner joint fixes both parameters: 2 x 2 by Cramer's rule.
  const Joint& jt = m.joints()[joints_[inner]];
  const int side_i = jt.body[0] == i() ? 0 : 1;
  const auto& A_i = rows[inner].jac[side_i];
  const auto& A_j = rows[inner].jac[1 - side_i];
  Eigen::Matrix2d M;
  M.col(0) = A_i * n_i;
  M.col(1) = A_j * n_j;
  const Eigen::Vector2d rhs =
      (acceleration ? rows[inner].gamma : Eigen::Vector2d::Zero()) - A_i * p_i - A_j * p_j;
  const double det = M(0, 0) * M(1, 1) - M(0, 1) * M(1, 0);
  const double lambda_i = (rhs(0) * M(1, 1) - M(0, 1) * rhs(1)) / det;
  const double lambda_j = (M(0, 0) * rhs(1) - rhs(0) * M(1, 0)) / det;
  const Rates x_i = p_i + lambda_i * n_i, x_j = p_j + lambda_j * n_j;
  BodyState& bi = ws.body[i()];
  BodyState& bj = ws.body[j()];
  if (acceleration) {
    bi.a = x_i.head<2>(), bi.alpha = x_i(2);
    bj.a = x_j.head<2>(), bj.alpha = x_j(2);
  } else {
    bi.v = x_i.head<2>(), bi.omega = x_i(2);
    bj.v = x_j.head<2>(), bj.omega = x_j(2);
  }
}

void Dyad::solve_velocity(const Mechanism& m, Workspace& ws, int) const { solve_rates(m, ws, false); }

void Dyad::solve_acceleration(const Mechanism& m, Workspace& ws, int) const { solve_rates(m, ws, true); }

std::unique_ptr<Group> make_dyad(const Mechanism& m, int i, int j, int joint_i, int joint_ij,
                                 int joint_j) {
  auto letter = [&](int jn) { return m.joints()[jn].type == JointType::prismatic ? 'P' : 'R'; };
  std::string letters{letter(joint_i), letter(joint_ij), letter(joint_j)};
  // PRR and PPR are RRP and RPP read from the other end.
  if (letters == "PRR" || letters == "PPR") {
    std::swap(i, j);
    std::swap(joint_i, joint_j);
    std::reverse(letters.begin(), letters.end());
  }
  if (letters == "RRR") return make_dyad_rrr(m, i, j, joint_i, joint_ij, joint_j);
  if (letters == "RRP") return make_dyad_rrp(m, i, j, joint_i, joint_ij, joint_j);
  if (letters == "RPR") return make_dyad_rpr(m, i, j, joint_i, joint_ij, joint_j);
  if (letters == "PRP") return make_dyad_prp(m, i, j, joint_i, joint_ij, joint_j);
  if (letters == "RPP") return make_dyad_rpp(m, i, j, joint_i, joint_ij, joint_j);
  return nullptr;  // PPP: not a rigid group
}

}  // namespace linkdyn::planar
