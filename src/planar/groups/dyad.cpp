#include "planar/groups/dyad.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "planar/constraints.hpp"

namespace linkdyn::planar {

Dyad::Dyad(const Mechanism& m, int i, int j, int joint_i, int joint_ij, int joint_j)
    : Group({i, j}, {joint_i, joint_ij, joint_j}) {
  double scale = 0.0;
  for (int jn : joints_)
    for (const Vec2& p : m.joints()[jn].point) scale = std::max(scale, p.norm());
  scale_ = std::max(scale, 1e-3);
}

const Vec2& Dyad::local_point(const Joint& jt, int body) {
  return jt.body[0] == body ? jt.point[0] : jt.point[1];
}

Vec2 Dyad::global_point(const Joint& jt, const BodyState& known, int known_index) {
  return known.position(local_point(jt, known_index));
}

double Dyad::slide_angle(const Joint& jt, const BodyState& known, int known_index) {
  // theta1 - theta0 = offset.
  return jt.body[0] == known_index ? known.theta + jt.angle_offset
                                   : known.theta - jt.angle_offset;
}

Line Dyad::origin_line(const Joint& jt, const BodyState& known, int known_index,
                       double theta_unknown) {
  const double c = std::cos(theta_unknown), s = std::sin(theta_unknown);
  if (jt.body[0] == known_index) {
    // Guide in the known body: the slider point of the unknown body runs on it.
    return {known.position(jt.point[0]) - rotate(jt.point[1], c, s), known.arm(jt.guide_dir)};
  }
  // Guide in the unknown body: it passes through the known body's point.
  return {known.position(jt.point[1]) - rotate(jt.point[0], c, s), rotate(jt.guide_dir, c, s)};
}

Vec2 Dyad::origin_from(const Vec2& at, const Vec2& local, double angle) {
  return at - rotate(local, angle);
}

double Dyad::angle_from(const Vec2& p, const Vec2& q, const Vec2& P, const Vec2& Q) {
  return heading(Q - P) - heading(q - p);
}

int Dyad::choose(const Mechanism& m, const Workspace& ws, int self, const Candidates& cs) const {
  if (cs.count == 1) return 0;
  auto frame_points = [this](const Vec2& r, double theta) {
    return std::pair<Vec2, Vec2>{r, r + scale_ * Vec2(std::cos(theta), std::sin(theta))};
  };
  if (ws.group[self].tracked) {
    // Continue the tracked assembly mode: the candidate nearest to the previous position.
    double best = std::numeric_limits<double>::infinity();
    int pick = ws.group[self].branch;
    for (int k = 0; k < 2; ++k) {
      const Candidate& c = cs.c[k];
      const auto [oi, xi] = frame_points(c.r_i, c.theta_i);
      const auto [oj, xj] = frame_points(c.r_j, c.theta_j);
      const auto [pi, pxi] = frame_points(ws.body[i()].r, ws.body[i()].theta);
      const auto [pj, pxj] = frame_points(ws.body[j()].r, ws.body[j()].theta);
      const double d = (oi - pi).squaredNorm() + (xi - pxi).squaredNorm() +
                       (oj - pj).squaredNorm() + (xj - pxj).squaredNorm();
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
        const bool on_i = body == i();
        const Vec2 point = (on_i ? c.r_i : c.r_j) + rotate(local, on_i ? c.theta_i : c.theta_j);
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
  bi.set_angle(bi.theta + wrap_angle(c.theta_i - bi.theta));
  bi.r = c.r_i;
  bj.set_angle(bj.theta + wrap_angle(c.theta_j - bj.theta));
  bj.r = c.r_j;
  return true;
}

void Dyad::solve_velocity(const Mechanism& m, Workspace& ws, int) const {
  Eigen::Matrix<double, 6, 6> jac;
  Eigen::Matrix<double, 6, 1> rhs;
  Eigen::PartialPivLU<Eigen::Matrix<double, 6, 6>> lu;
  solve_group_rates(m, ws, bodies_, joints_, Rate::velocity, jac, rhs, lu);
}

void Dyad::solve_acceleration(const Mechanism& m, Workspace& ws, int) const {
  Eigen::Matrix<double, 6, 6> jac;
  Eigen::Matrix<double, 6, 1> rhs;
  Eigen::PartialPivLU<Eigen::Matrix<double, 6, 6>> lu;
  solve_group_rates(m, ws, bodies_, joints_, Rate::acceleration, jac, rhs, lu);
}

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
