// The one scatter of the pairs' constraint rows (planar::scatter_rows) on a mechanism with
// revolute, prismatic (one guide on the ground, one in a moving body) and gear pairs:
//  - the assembled Phi_q equals the pairs' rows placed by hand, exactly (the same numbers copied);
//  - it equals central differences of the stacked residual Phi over each body coordinate within
//    1e-8 (step 1e-6: truncation ~1e-12, rounding ~1e-11 at lengths of 0.1 m);
//  - with the solved rates, Phi_q qd = 0 and Phi_q qdd = gamma within 1e-10 (1 + |gamma|), over
//    every moving body and over each group's bodies with the known bodies' rates left out.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>

#include "linkdyn/planar/constraints.hpp"
#include "linkdyn/planar/groups/group.hpp"
#include "linkdyn/planar/kinematics.hpp"
#include "linkdyn/planar/sweep.hpp"
#include "test_support.hpp"

using namespace linkdyn;
using namespace linkdyn::planar;

namespace {

// The scotch yoke (examples/scotch-yoke.yaml) with a flywheel geared to the crank.
const char* yoke_with_flywheel = R"(
name: yoke-with-flywheel
ground:
  A: [0, 0]
  F: [0, -0.15]
bodies:
  crank: {mass: 1.0, inertia: 0.003, com: [0.05, 0], points: {A: [0, 0], B: [0.1, 0]}}
  yoke: {mass: 2.5, inertia: 0.02, points: {Y: [0, 0]}}
  block: {mass: 0.3, points: {B: [0, 0]}}
  flywheel: {mass: 5.0, inertia: 0.05, points: {F: [0, 0]}}
joints:
  A: {type: revolute, bodies: [ground, crank]}
  B: {type: revolute, bodies: [crank, block]}
  slot: {type: prismatic, bodies: [yoke, block], guide: {point: Y, direction: 90 deg}, slider_point: B}
  rail: {type: prismatic, bodies: [ground, yoke], guide: {point: A, direction: 0 deg}, slider_point: Y}
  F: {type: revolute, bodies: [ground, flywheel]}
  mesh: {type: gear, bodies: [crank, flywheel], ratio: -3, phase: 12 deg}
drivers:
  motor:
    type: rotational
    joint: A
    law: {type: harmonic, c: [0.3, 2.0, 0.5, 3.0, 0.2], duration: 2, steps: 40}
)";

struct Stacked {
  Eigen::MatrixXd jac;
  Eigen::VectorXd phi, gamma;
};

/// Phi_q over every moving body, Phi and gamma, by the scatter.
Stacked scatter_all(const Mechanism& m, const Workspace& ws) {
  int rows = 0;
  for (const Joint& j : m.joints()) rows += j.constraint_count();
  Stacked s{Eigen::MatrixXd::Zero(rows, 3 * (static_cast<int>(m.bodies().size()) - 1)), Eigen::VectorXd::Zero(rows),
            Eigen::VectorXd::Zero(rows)};
  const int count = scatter_rows(
      m, ws, all_joints(m), true, body_column,
      [&](int i, const Joint&, const JointRows& r, int k) { s.phi(i) = r.phi(k), s.gamma(i) = r.gamma(k); },
      [&](int i, int col, const auto& J) { s.jac.block<1, 3>(i, col) = J; });
  EXPECT_EQ(count, rows);
  return s;
}

/// The bodies' rates (x, y, theta per moving body) at the velocity or acceleration level.
Eigen::VectorXd rates(const Workspace& ws, bool accelerations) {
  Eigen::VectorXd x(3 * (static_cast<int>(ws.body.size()) - 1));
  for (size_t b = 1; b < ws.body.size(); ++b) {
    const BodyState& s = ws.body[b];
    x.segment<3>(3 * static_cast<int>(b - 1)) << (accelerations ? s.a : s.v), accelerations ? s.alpha : s.omega;
  }
  return x;
}

Mechanism yoke() { return compile(io::parse_planar_model(yoke_with_flywheel, "yoke-with-flywheel.yaml")); }

}  // namespace

TEST(ConstraintScatter, EqualsThePairsRowsPlacedByHandAndTheDifferencesOfTheResidual) {
  const Mechanism m = yoke();
  ASSERT_EQ(m.structure_string(), "R_I(0,1) -> G_I(1,4) -> RPP_II(3,2)");
  Workspace ws(m);
  double worst_difference = 0.0;
  for (double t : {0.0, 0.37, 1.3}) {
    SCOPED_TRACE(t);
    set_drivers(m, ws, t);
    ASSERT_TRUE(solve_kinematics(m, ws).ok());
    const Stacked s = scatter_all(m, ws);

    Eigen::MatrixXd by_hand = Eigen::MatrixXd::Zero(s.jac.rows(), s.jac.cols());
    JointRows rows;
    int row = 0;
    for (const Joint& j : m.joints()) {
      joint_rows(j, ws, true, rows);
      for (int side = 0; side < 2; ++side)
        if (j.body[side] != 0)
          by_hand.block(row, 3 * (j.body[side] - 1), rows.count, 3) = rows.jac[side].topRows(rows.count);
      row += rows.count;
    }
    EXPECT_EQ(s.jac, by_hand);
    EXPECT_LT(s.phi.lpNorm<Eigen::Infinity>(), 1e-12);  // assembled

    const double h = 1e-6;
    for (int b = 1; b < static_cast<int>(m.bodies().size()); ++b)
      for (int c = 0; c < 3; ++c) {
        auto moved = [&](double step) {
          Workspace p = ws;
          BodyState& body = p.body[b];
          if (c < 2)
            body.r(c) += step;
          else
            body.set_angle(body.theta + step);
          return scatter_all(m, p).phi;
        };
        const Eigen::VectorXd difference = (moved(h) - moved(-h)) / (2.0 * h);
        const double error = (difference - s.jac.col(3 * (b - 1) + c)).lpNorm<Eigen::Infinity>();
        EXPECT_LT(error, 1e-8) << m.bodies()[b].name << " coordinate " << c;
        worst_difference = std::max(worst_difference, error);
      }

    const double tol = 1e-10 * (1.0 + s.gamma.lpNorm<Eigen::Infinity>());
    EXPECT_LT((s.jac * rates(ws, false)).lpNorm<Eigen::Infinity>(), tol);
    EXPECT_LT((s.jac * rates(ws, true) - s.gamma).lpNorm<Eigen::Infinity>(), tol);
    EXPECT_GT(s.gamma.lpNorm<Eigen::Infinity>(), 1e-3);  // the check sees the velocity terms

    // Phi_q^T through the transpose of a matrix (as Kane's method assembles it).
    Eigen::MatrixXd transposed = Eigen::MatrixXd::Zero(s.jac.cols(), s.jac.rows());
    assemble_jacobian(m, ws, all_joints(m), body_column, transposed.transpose());
    EXPECT_EQ(transposed, s.jac.transpose());

    // Each group over its own bodies, the bodies solved before it left out with their rates.
    for (const auto& g : m.groups()) {
      const int n = 3 * static_cast<int>(g->bodies().size());
      Eigen::MatrixXd jac = Eigen::MatrixXd::Zero(n, n);
      Eigen::VectorXd gamma = Eigen::VectorXd::Zero(n), known = Eigen::VectorXd::Zero(n);
      const int count = scatter_rows(
          m, ws, g->joints(), true, [&](int body) { return group_column(g->bodies(), body); },
          [&](int i, const Joint&, const JointRows& r, int k) { gamma(i) = r.gamma(k); },
          [&](int i, int col, const auto& J) { jac.block<1, 3>(i, col) = J; },
          [&](int i, int body, const auto& J) {
            const BodyState& kb = ws.body[body];
            known(i) += J.dot(Eigen::Vector3d(kb.a.x(), kb.a.y(), kb.alpha));
          });
      Eigen::VectorXd a(n);
      for (size_t k = 0; k < g->bodies().size(); ++k) {
        const BodyState& bs = ws.body[g->bodies()[k]];
        a.segment<3>(3 * static_cast<int>(k)) << bs.a, bs.alpha;
      }
      EXPECT_LT((jac * a + known - gamma).head(count).lpNorm<Eigen::Infinity>(), tol) << g->type();
    }
  }
  std::printf("Phi_q against central differences of Phi: largest difference %.1e\n", worst_difference);
}
