#include "planar/groups/dyad.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "linkdyn/planar/constraints.hpp"

namespace linkdyn::planar {

Dyad::Dyad(const Mechanism& m, int i, int j, int joint_i, int joint_ij, int joint_j)
    : Group({i, j}, {joint_i, joint_ij, joint_j}), closure_(m, {i, j}, {joint_i, joint_ij, joint_j}) {
  double scale = 0.0;
  for (int k = 0; k < 3; ++k) {
    const Joint& jt = m.joints()[joints_[k]];
    for (const Vec2& p : jt.point) scale = std::max(scale, p.norm());
    const auto* slide = std::get_if<PrismaticPair>(&jt.kind);
    offset_rotation_[k] = rotation_of(slide ? slide->angle_offset : 0.0);
  }
  scale_ = std::max(scale, 1e-3);
}

const Vec2& Dyad::local_point(const Joint& jt, int body) { return jt.body[0] == body ? jt.point[0] : jt.point[1]; }

Vec2 Dyad::global_point(const Joint& jt, const BodyState& known, int known_index) {
  return known.position(local_point(jt, known_index));
}

Vec2 Dyad::slide_rotation(const Mechanism& m, Slot slot, const Vec2& known_rotation, int known_index) const {
  // theta1 - theta0 = offset.
  const Vec2& offset = offset_rotation_[slot];
  return joint(m, slot).body[0] == known_index ? compose(known_rotation, offset)
                                               : compose(known_rotation, Vec2(offset.x(), -offset.y()));
}

Line Dyad::origin_line(const Joint& jt, const BodyState& known, int known_index, const Vec2& rotation) {
  const Vec2& guide = jt.as<PrismaticPair>().guide_dir;
  if (jt.body[0] == known_index) {
    // Guide in the known body: the slider point of the unknown body runs on it.
    return {known.position(jt.point[0]) - rotate(jt.point[1], rotation), known.arm(guide)};
  }
  // Guide in the unknown body: it passes through the known body's point.
  return {known.position(jt.point[1]) - rotate(jt.point[0], rotation), rotate(guide, rotation)};
}

int Dyad::choose(const Mechanism& m, Workspace& ws, int self, const Candidates& cs) const {
  ws.group[self].ambiguity = 0.0;
  if (cs.count == 1) return 0;
  if (ws.group[self].tracked) {
    // Continue the tracked assembly mode: the candidate nearest to the pose predicted along
    // the drivers' path (at a bifurcation both modes meet; only the prediction tells which
    // one continues the motion).
    const BodyState bi = ws.prediction.of(ws.body[i()]), bj = ws.prediction.of(ws.body[j()]);
    auto distance = [&](const Candidate& c, const Vec2& ri, const Vec2& rj, const Vec2& si, const Vec2& sj) {
      return (c.r_i - ri).squaredNorm() + (c.r_j - rj).squaredNorm() +
             scale_ * scale_ * ((c.rot_i - si).squaredNorm() + (c.rot_j - sj).squaredNorm());
    };
    const double d0 = distance(cs.c[0], bi.r, bj.r, bi.rotation(), bj.rotation());
    const double d1 = distance(cs.c[1], bi.r, bj.r, bi.rotation(), bj.rotation());
    // How clearly the prediction tells them apart: the nearer's distance over the farther's,
    // 0 when the two candidates are one pose (at the bifurcation itself).
    const double separation = distance(cs.c[0], cs.c[1].r_i, cs.c[1].r_j, cs.c[1].rot_i, cs.c[1].rot_j);
    if (separation > 1e-18 * scale_ * scale_) ws.group[self].ambiguity = std::sqrt(std::min(d0, d1) / std::max(d0, d1));
    return d0 <= d1 ? 0 : 1;
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
  if (cs.count == 0) {
    // The closed form fails where it degenerates (e.g. both outer pins at one point, a
    // parallelogram's crank on the rocker's pivot): while tracking, Newton's method from the
    // predicted pose finds the solution that continues the branch, if there is one.
    if (!state.tracked) return false;
    closure_.predict(ws);
    GenericScratch& s = ws.scratch[self];
    if (!closure_.newton(m, ws, s)) return false;
    state.conditioning = 0.0;  // degenerate: rates only as limits
    return true;
  }
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

namespace {

/// An outer joint's two equations on its dyad body (J, 2 x 3): their null vector (the body's
/// one free rate) and the two columns whose 2 x 2 determinant, the largest null component, is
/// used for Cramer's rule.
struct OuterJoint {
  Eigen::Matrix<double, 2, 3> J;
  Eigen::Vector3d null;
  int c0 = 0, c1 = 1;
  double det = 1.0;
  OuterJoint(const JointRows& rows, int side) : J(rows.jac[side]) {
    null = J.row(0).cross(J.row(1)).transpose();
    int k = 0;
    null.cwiseAbs().maxCoeff(&k);
    c0 = k == 0 ? 1 : 0;
    c1 = k == 2 ? 1 : 2;
    det = J(0, c0) * J(1, c1) - J(0, c1) * J(1, c0);
  }
  /// A solution x of J x = rhs (with x_k = 0).
  [[nodiscard]] Eigen::Vector3d particular(const Eigen::Vector2d& rhs) const {
    Eigen::Vector3d x = Eigen::Vector3d::Zero();
    x(c0) = (rhs(0) * J(1, c1) - J(0, c1) * rhs(1)) / det;
    x(c1) = (J(0, c0) * rhs(1) - rhs(0) * J(1, c0)) / det;
    return x;
  }
  /// lambda with J^T lambda = g, for g in the range of J^T (rows c0, c1).
  [[nodiscard]] Eigen::Vector2d transposed(const Eigen::Vector3d& g) const {
    return {(g(c0) * J(1, c1) - J(1, c0) * g(c1)) / det, (J(0, c0) * g(c1) - g(c0) * J(0, c1)) / det};
  }
};

}  // namespace

void Dyad::solve_rates(const Mechanism& m, Workspace& ws, bool acceleration) const {
  using Rates = Eigen::Vector3d;  // (vx, vy, omega) or (ax, ay, alpha) of a body origin
  auto rates_of = [&](int b) {
    const BodyState& s = ws.body[b];
    return acceleration ? Rates(s.a.x(), s.a.y(), s.alpha) : Rates(s.v.x(), s.v.y(), s.omega);
  };
  JointRows rows[3];
  for (int k = 0; k < 3; ++k) joint_rows(m.joints()[joints_[k]], ws, acceleration, rows[k]);
  auto side_of = [&](int slot, int body) { return m.joints()[joints_[slot]].body[0] == body ? 0 : 1; };

  // The outer joint of each body leaves x = particular + lambda * null.
  auto free_rate = [&](int slot, int body, Rates& particular) {
    const Joint& jt = m.joints()[joints_[slot]];
    const int side = side_of(slot, body);
    const OuterJoint outer(rows[slot], side);
    Eigen::Vector2d rhs = acceleration ? rows[slot].gamma : Eigen::Vector2d::Zero();
    rhs -= rows[slot].jac[1 - side] * rates_of(jt.body[1 - side]);
    particular = outer.particular(rhs);
    return outer.null;
  };
  Rates p_i, p_j;
  const Rates n_i = free_rate(outer_i, i(), p_i);
  const Rates n_j = free_rate(outer_j, j(), p_j);

  // The inner joint fixes both parameters: 2 x 2 by Cramer's rule.
  const int side_i = side_of(inner, i());
  const auto& A_i = rows[inner].jac[side_i];
  const auto& A_j = rows[inner].jac[1 - side_i];
  Eigen::Matrix2d M;
  M.col(0) = A_i * n_i;
  M.col(1) = A_j * n_j;
  const Eigen::Vector2d rhs = (acceleration ? rows[inner].gamma : Eigen::Vector2d::Zero()) - A_i * p_i - A_j * p_j;
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

void Dyad::solve_reactions(const Mechanism& m, Workspace& ws, int) const {
  // Equilibrium of each body [001 Eqs. 2-7] in closed form, the transpose of the rates:
  // body i: J_oi^T l_oi + A_i^T l_in + Q_i = 0, body j likewise. The null vector of each outer
  // joint (a rotation about the outer pin, or a slide along the outer guide) removes the outer
  // reaction: n_i . (A_i^T l_in + Q_i) = 0 and n_j . (A_j^T l_in + Q_j) = 0 give the inner
  // reaction; each body's equations then give its outer reaction.
  JointRows rows[3];
  for (int k = 0; k < 3; ++k) joint_rows(m.joints()[joints_[k]], ws, false, rows[k]);
  auto side_of = [&](int slot, int body) { return m.joints()[joints_[slot]].body[0] == body ? 0 : 1; };
  const int si = side_of(outer_i, i()), sj = side_of(outer_j, j()), s_in = side_of(inner, i());
  const OuterJoint oi(rows[outer_i], si), oj(rows[outer_j], sj);
  const auto& A_i = rows[inner].jac[s_in];
  const auto& A_j = rows[inner].jac[1 - s_in];
  const Wrench &Q_i = ws.load[i()], &Q_j = ws.load[j()];
  Eigen::Matrix2d Mt;  // rows: (A_i n_i)^T, (A_j n_j)^T
  Mt.row(0) = (A_i * oi.null).transpose();
  Mt.row(1) = (A_j * oj.null).transpose();
  const Eigen::Vector2d rhs(-oi.null.dot(Q_i), -oj.null.dot(Q_j));
  const double det = Mt(0, 0) * Mt(1, 1) - Mt(0, 1) * Mt(1, 0);
  const Eigen::Vector2d l_in((rhs(0) * Mt(1, 1) - Mt(0, 1) * rhs(1)) / det,
                             (Mt(0, 0) * rhs(1) - rhs(0) * Mt(1, 0)) / det);
  const Eigen::Vector2d l_oi = oi.transposed(-Q_i - A_i.transpose() * l_in);
  const Eigen::Vector2d l_oj = oj.transposed(-Q_j - A_j.transpose() * l_in);
  const Eigen::Vector2d* lambda[3] = {&l_oi, &l_in, &l_oj};
  for (int k = 0; k < 3; ++k) store_reaction(m.joints()[joints_[k]], joints_[k], *lambda[k], ws);
  push_constraint_force(m.joints()[joints_[outer_i]], rows[outer_i], 1 - si, l_oi, ws);
  push_constraint_force(m.joints()[joints_[outer_j]], rows[outer_j], 1 - sj, l_oj, ws);
}

std::unique_ptr<Group> make_dyad(const Mechanism& m, int i, int j, int joint_i, int joint_ij, int joint_j) {
  auto letter = [&](int jn) { return m.joints()[jn].is<PrismaticPair>() ? 'P' : 'R'; };
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
