#pragma once
// Constraint equations of the pairs in body coordinates (x, y, theta per body): residual,
// Jacobian blocks and the acceleration right-hand side gamma, with Phi_q qdd = gamma.
#include <Eigen/Dense>
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

/// Residual and Jacobian at the current poses; gamma too when `with_gamma` (needs velocities).
void joint_rows(const Joint& joint, const Workspace& ws, bool with_gamma, JointRows& rows);

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

/// Velocities or accelerations of a group's bodies from the linear equations
/// Phi_u x_u = rhs - Phi_k x_k, with the known bodies' rates on the right.
/// Jac is a fixed-size or dynamic matrix; `lu` must accept it.
template <class Matrix, class Vector, class Solver>
void solve_group_rates(const Mechanism& m, Workspace& ws, const std::vector<int>& bodies,
                       const std::vector<int>& joints, Rate rate, Matrix& jac, Vector& rhs, Solver& lu) {
  jac.setZero();
  rhs.setZero();
  scatter_rows(
      m, ws, joints, rate == Rate::acceleration, [&](int body) { return group_column(bodies, body); },
      [&](int i, const Joint&, const JointRows& rows, int r) {
        if (rate == Rate::acceleration) rhs(i) = rows.gamma(r);
      },
      [&](int i, int col, const auto& J) { jac.template block<1, 3>(i, col) = J; },
      [&](int i, int body, const auto& J) {  // a known body's rates to the right-hand side
        const BodyState& kb = ws.body[body];
        const Eigen::Vector3d known = rate == Rate::velocity ? Eigen::Vector3d(kb.v.x(), kb.v.y(), kb.omega)
                                                             : Eigen::Vector3d(kb.a.x(), kb.a.y(), kb.alpha);
        rhs(i) -= J.dot(known);
      });
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
/// reactions are stored and pushed onto the known bodies. Jac is sized 3n x 3n.
template <class Matrix, class Vector, class Solver>
void solve_group_reactions(const Mechanism& m, Workspace& ws, const std::vector<int>& bodies,
                           const std::vector<int>& joints, Matrix& jac, Vector& rhs, Solver& lu) {
  jac.setZero();
  assemble_jacobian(
      m, ws, joints, [&](int body) { return group_column(bodies, body); }, jac);
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
}

}  // namespace linkdyn::planar
