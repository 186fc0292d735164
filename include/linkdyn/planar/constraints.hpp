#pragma once
// Constraint equations of the pairs in body coordinates (x, y, theta per body): residual,
// Jacobian blocks and the acceleration right-hand side gamma, with Phi_q qdd = gamma.
#include <Eigen/Dense>
#include <span>
#include <vector>

#include "linkdyn/planar/mechanism.hpp"
#include "linkdyn/planar/workspace.hpp"

namespace linkdyn::planar {

struct JointRows {
  int count = 2;
  Eigen::Matrix<double, 2, 3> jac[2];  ///< d Phi / d(x, y, theta) of body[0] and body[1]
  Eigen::Vector2d phi = Eigen::Vector2d::Zero();
  Eigen::Vector2d gamma = Eigen::Vector2d::Zero();
};

/// A cam pair's follower point against the cam's pitch curve: the foot of the normal from it
/// (parameter sigma, the curve's point and rates there, on the canonical layout), its signed
/// distance along the outward normal, and the normal and tangent on the world's axes.
struct CamCurveFoot {
  double sigma = 0.0, distance = 0.0;
  PitchCurvePoint curve;
  Vec2 normal = Vec2::Zero(), tangent = Vec2::Zero();
};
/// On the program's piece ws.cam_piece holds for it, if any.
[[nodiscard]] CamCurveFoot cam_curve_foot(const Joint& joint, const Workspace& ws);
/// A cam pair's program angle: the cam body's turn from its phase (the program's sense).
[[nodiscard]] double cam_program_angle(const Joint& joint, const Workspace& ws);

/// Residual and Jacobian at the current poses; gamma too when `with_gamma` (needs velocities).
void joint_rows(const Joint& joint, const Workspace& ws, bool with_gamma, JointRows& rows);

/// The displacement s = u . (P_slider - P_guide) of a prismatic pair (u its guide direction,
/// turning with body[0]) as the equation of a driver, s = q: its value, ds/d(x, y, theta) of
/// each side's body, and the terms of s'' in the velocities alone (s'' = J a + velocity_terms).
struct DisplacementRow {
  Eigen::Matrix<double, 1, 3> jac[2];
  double value = 0.0;
  double velocity_terms = 0.0;
};
void displacement_row(const Joint& joint, const Workspace& ws, bool with_gamma, DisplacementRow& row);

/// The pair's constraint force on its body `side`, J_side^T lambda, added to ws.load.
void push_constraint_force(const Joint& joint, const JointRows& rows, int side, const Eigen::Vector2d& lambda,
                           Workspace& ws);
/// Stores the multipliers and the physical reaction (what body[0] exerts on body[1]).
void store_reaction(const Joint& joint, int joint_index, const Eigen::Vector2d& lambda, Workspace& ws);

/// Column of `body` among a group's bodies (3 per body), or -1 for a known body.
[[nodiscard]] inline int group_column(const std::vector<int>& bodies, int body) {
  for (size_t k = 0; k < bodies.size(); ++k)
    if (bodies[k] == body) return static_cast<int>(3 * k);
  return -1;
}

/// Column of `body` among every moving body (body b at 3 (b - 1)), or -1 for the ground.
inline int body_column(int body) { return body == 0 ? -1 : 3 * (body - 1); }

/// The indices 0 .. n - 1 for a range-for (std::views::iota, which clang 14 cannot compile with
/// libstdc++ 12's <ranges>: the sanitizer build).
struct IndexRange {
  struct Iterator {
    int i;
    int operator*() const { return i; }
    Iterator& operator++() { return ++i, *this; }
    bool operator!=(const Iterator& other) const { return i != other.i; }
  };
  int n = 0;
  [[nodiscard]] Iterator begin() const { return {0}; }
  [[nodiscard]] Iterator end() const { return {n}; }
};

/// Every pair of `m`, in order (Mechanism::joints()).
inline IndexRange all_joints(const Mechanism& m) { return {static_cast<int>(m.joints().size())}; }

/// A callback that does nothing.
struct Skip {
  template <class... Args>
  void operator()(const Args&...) const {}
};

/// The one scatter of pairs' constraint rows over the bodies' coordinates, Phi_q (Phi_q qd = 0,
/// Phi_q qdd = gamma). Pair by pair in the order of `joints`, for row i of the stack (from 0):
/// first `value(i, joint, rows, r)`, the row being rows' r-th (its Phi, and gamma when
/// `with_gamma`); then, per side, J = d Phi_i / d(x, y, theta) of the side's body (a 1x3 row)
/// goes to `block(i, col, J)` with col = column(body) its first column, or to
/// `left_out(i, body, J)` where column(body) is -1 (the ground, a body whose rates are known).
/// Returns the number of rows; allocates nothing.
template <class Joints, class Column, class Value, class Block, class LeftOut = Skip>
int scatter_rows(const Mechanism& m, const Workspace& ws, const Joints& joints, bool with_gamma, const Column& column,
                 Value&& value, Block&& block, LeftOut&& left_out = {}) {
  JointRows rows;
  int i = 0;
  for (int jn : joints) {
    const Joint& joint = m.joints()[jn];
    joint_rows(joint, ws, with_gamma, rows);
    for (int r = 0; r < rows.count; ++r, ++i) {
      value(i, joint, rows, r);
      for (int side = 0; side < 2; ++side) {
        const int col = column(joint.body[side]);
        if (col >= 0)
          block(i, col, rows.jac[side].row(r));
        else
          left_out(i, joint.body[side], rows.jac[side].row(r));
      }
    }
  }
  return i;
}

/// Phi_q of `joints` (scatter_rows) into `jac`, not zeroed first: a matrix, a block of one, or
/// the transpose of one for Phi_q^T.
template <class Joints, class Column, class Jac>
void assemble_jacobian(const Mechanism& m, const Workspace& ws, const Joints& joints, const Column& column, Jac&& jac) {
  scatter_rows(m, ws, joints, false, column, Skip{},
               [&](int i, int col, const auto& J) { jac.template block<1, 3>(i, col) = J; });
}

enum class Rate { velocity, acceleration };

/// A known body's velocity (x, y, theta rates) or acceleration.
[[nodiscard]] inline Eigen::Vector3d body_rates(const BodyState& b, Rate rate) {
  return rate == Rate::velocity ? Eigen::Vector3d(b.v.x(), b.v.y(), b.omega)
                                : Eigen::Vector3d(b.a.x(), b.a.y(), b.alpha);
}

/// The rows of the drivers `driven` (each a prismatic pair's displacement, DisplacementRow)
/// after the pairs' `first_row` rows: `block(i, col, J)` for a body of the group (col =
/// column(body) >= 0), `known(i, body, J)` for the others; `value(i, d, row)` first.
template <class Column, class Value, class Block, class Known>
void scatter_driver_rows(const Mechanism& m, const Workspace& ws, std::span<const int> driven, int first_row,
                         bool with_gamma, const Column& column, Value&& value, Block&& block, Known&& known) {
  DisplacementRow row;
  int i = first_row;
  for (int d : driven) {
    const Joint& joint = m.joints()[m.drivers()[d].joint];
    displacement_row(joint, ws, with_gamma, row);
    value(i, d, row);
    for (int side = 0; side < 2; ++side) {
      const int col = column(joint.body[side]);
      if (col >= 0)
        block(i, col, row.jac[side]);
      else
        known(i, joint.body[side], row.jac[side]);
    }
    ++i;
  }
}

/// Velocities or accelerations of a group's bodies from the linear equations
/// Phi_u x_u = rhs - Phi_k x_k, with the known bodies' rates on the right; the rows of the
/// drivers `driven` (a driving dyad's, DisplacementRow) after the pairs' rows, with the drivers'
/// rates on the right. Jac is a fixed-size or dynamic matrix; `lu` must accept it.
template <class Matrix, class Vector, class Solver>
void solve_group_rates(const Mechanism& m, Workspace& ws, const std::vector<int>& bodies,
                       const std::vector<int>& joints, Rate rate, Matrix& jac, Vector& rhs, Solver& lu,
                       std::span<const int> driven = {}) {
  jac.setZero();
  rhs.setZero();
  const auto column = [&](int body) { return group_column(bodies, body); };
  const auto block = [&](int i, int col, const auto& J) { jac.template block<1, 3>(i, col) = J; };
  const auto known = [&](int i, int body, const auto& J) {  // a known body's rates to the right-hand side
    rhs(i) -= J.dot(body_rates(ws.body[body], rate));
  };
  const int rows = scatter_rows(
      m, ws, joints, rate == Rate::acceleration, column,
      [&](int i, const Joint&, const JointRows& rows, int r) {
        if (rate == Rate::acceleration) rhs(i) = rows.gamma(r);
      },
      block, known);
  scatter_driver_rows(
      m, ws, driven, rows, rate == Rate::acceleration, column,
      [&](int i, int d, const DisplacementRow& row) {
        rhs(i) = rate == Rate::velocity ? ws.qd[d] : ws.qdd[d] - row.velocity_terms;
      },
      block, known);
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

/// Kinetostatics of a group by its linear system: Phi_u^T lambda = -load_u, then the
/// reactions are stored and pushed onto the known bodies. Jac is sized 3n x 3n. A driver's row
/// (`driven`) gives its effort: the force along its pair's guide on the slider.
template <class Matrix, class Vector, class Solver>
void solve_group_reactions(const Mechanism& m, Workspace& ws, const std::vector<int>& bodies,
                           const std::vector<int>& joints, Matrix& jac, Vector& rhs, Solver& lu,
                           std::span<const int> driven = {}) {
  jac.setZero();
  const auto column = [&](int body) { return group_column(bodies, body); };
  const auto block = [&](int i, int col, const auto& J) { jac.template block<1, 3>(i, col) = J; };
  const int pair_rows = scatter_rows(m, ws, joints, false, column, Skip{}, block);
  scatter_driver_rows(m, ws, driven, pair_rows, false, column, Skip{}, block, Skip{});
  for (size_t k = 0; k < bodies.size(); ++k) rhs.template segment<3>(3 * k) = -ws.load[bodies[k]];
  lu.compute(jac.transpose());
  const auto lambda = lu.solve(rhs).eval();
  JointRows rows;
  int row = 0;
  for (int jn : joints) {
    const Joint& joint = m.joints()[jn];
    joint_rows(joint, ws, false, rows);
    Eigen::Vector2d l = Eigen::Vector2d::Zero();
    l.head(rows.count) = lambda.segment(row, rows.count);
    store_reaction(joint, jn, l, ws);
    for (int side = 0; side < 2; ++side)
      if (group_column(bodies, joint.body[side]) < 0) push_constraint_force(joint, rows, side, l, ws);
    row += rows.count;
  }
  scatter_driver_rows(
      m, ws, driven, row, false, column, [&](int i, int d, const DisplacementRow&) { ws.effort[d] = lambda(i); },
      Skip{}, [&](int i, int body, const auto& J) { ws.load[body] += J.transpose() * lambda(i); });
}

}  // namespace linkdyn::planar
