#pragma once
// Constraint equations of the pairs in body coordinates (x, y, theta per body): residual,
// Jacobian blocks and the acceleration right-hand side gamma, with Phi_q qdd = gamma.
#include <Eigen/Dense>

#include "linkdyn/planar/mechanism.hpp"
#include "linkdyn/planar/workspace.hpp"

namespace linkdyn::planar {

struct JointRows {
  int count = 2;
  Eigen::Matrix<double, 2, 3> jac[2];  ///< d Phi / d(x, y, theta) of body[0] and body[1]
  Eigen::Vector2d phi = Eigen::Vector2d::Zero();
  Eigen::Vector2d gamma = Eigen::Vector2d::Zero();
};

/// Residual and Jacobian at the current poses; gamma too when `with_gamma` (needs velocities).
void joint_rows(const Joint& joint, const Workspace& ws, bool with_gamma, JointRows& rows);

enum class Rate { velocity, acceleration };

/// Velocities or accelerations of a group's bodies from the linear equations
/// Phi_u x_u = rhs - Phi_k x_k, with the known bodies' rates on the right.
/// Jac is a fixed-size (dyads) or dynamic matrix; `lu` must accept it.
template <class Matrix, class Vector, class Solver>
void solve_group_rates(const Mechanism& m, Workspace& ws, const std::vector<int>& bodies,
                       const std::vector<int>& joints, Rate rate, Matrix& jac, Vector& rhs,
                       Solver& lu) {
  jac.setZero();
  rhs.setZero();
  JointRows rows;
  int row = 0;
  for (int jn : joints) {
    const Joint& joint = m.joints()[jn];
    joint_rows(joint, ws, rate == Rate::acceleration, rows);
    for (int r = 0; r < rows.count; ++r) {
      if (rate == Rate::acceleration) rhs(row + r) = rows.gamma(r);
      for (int side = 0; side < 2; ++side) {
        const int b = joint.body[side];
        int col = -1;
        for (size_t k = 0; k < bodies.size(); ++k)
          if (bodies[k] == b) col = static_cast<int>(3 * k);
        if (col >= 0) {
          jac.template block<1, 3>(row + r, col) = rows.jac[side].row(r);
        } else {
          const BodyState& kb = ws.body[b];
          const Eigen::Vector3d known = rate == Rate::velocity
                                            ? Eigen::Vector3d(kb.v.x(), kb.v.y(), kb.omega)
                                            : Eigen::Vector3d(kb.a.x(), kb.a.y(), kb.alpha);
          rhs(row + r) -= rows.jac[side].row(r).dot(known);
        }
      }
    }
    row += rows.count;
  }
  lu.compute(jac);
  const auto x = lu.solve(rhs).eval();
  for (size_t k = 0; k < bodies.size(); ++k) {
    BodyState& b = ws.body[bodies[k]];
    if (rate == Rate::velocity) {
      b.v = Vec2(x(3 * k), x(3 * k + 1));
      b.omega = x(3 * k + 2);
    } else {
      b.a = Vec2(x(3 * k), x(3 * k + 1));
      b.alpha = x(3 * k + 2);
    }
  }
}

}  // namespace linkdyn::planar
