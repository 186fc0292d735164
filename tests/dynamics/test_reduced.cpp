// Reduced parameters [003]: the two independent ways agree, the interpolants converge at
// fourth order, the constraint-action parameters reproduce kinetostatics, and the equation of
// motion with the reduced force matches a full kinetostatic analysis.
#include <gtest/gtest.h>

#include <cmath>

#include "linkdyn/dynamics/reduced.hpp"
#include "test_support.hpp"

using namespace linkdyn;
using namespace linkdyn::dynamics;

namespace {
const char* one_dof_examples[] = {"seed001-fourbar", "offset-slider-crank", "inverted-slider-crank", "scotch-yoke",
                                  "wedge-cam",       "watt-sixbar",         "class3-triad",          "fourbar-flywheel",
                                  "fourbar-table"};

double max_abs(const std::vector<double>& v) {
  double x = 0.0;
  for (double y : v) x = std::max(x, std::abs(y));
  return x;
}
}  // namespace

TEST(ReducedParameters, KineticEnergyAndKinetostaticsAgreeTo1e9) {
  for (const char* name : one_dof_examples) {
    SCOPED_TRACE(name);
    const planar::Mechanism m = io::load_mechanism(test::example(name));
    const ReducedTable t = tabulate_reduced_parameters(m, 72);
    ASSERT_EQ(t.q.size(), 73u);
    const double m_scale = max_abs(t.m), dm_scale = max_abs(t.dm) + 1e-12 * m_scale;
    for (size_t k = 0; k < t.q.size(); ++k) {
      EXPECT_GT(t.m[k], 0.0);
      EXPECT_NEAR(t.m_kinetostatic[k], t.m[k], 1e-9 * m_scale);
      EXPECT_NEAR(t.dm_kinetostatic[k], t.dm[k], 1e-9 * dm_scale);
    }
    if (t.periodic) {
      EXPECT_NEAR(t.m.back(), t.m.front(), 1e-12 * m_scale);
    }
  }
}

TEST(ReducedParameters, DerivativeIsTheSlopeOfTheReducedInertia) {
  // dm/dq from the acceleration analysis against central differences of m(q).
  const planar::Mechanism m = io::load_mechanism(test::example("seed001-fourbar"));
  planar::Workspace ws(m);
  for (double q : {0.3, 1.7, 4.0}) {
    auto m_at = [&](double x) {
      ws.q[0] = x;
      EXPECT_TRUE(planar::solve_positions(m, ws).ok());
      return reduced_inertia_from_energy(m, ws);
    };
    const double h = 1e-4;
    const double fd = (m_at(q + h).m - m_at(q - h).m) / (2 * h);
    EXPECT_NEAR(m_at(q).dm, fd, 1e-6 * (1 + std::abs(fd)));
  }
}

TEST(ReducedParameters, InterpolantsConvergeAtFourthOrder) {
  // Error at the midpoints between table points, against direct evaluation, for N and 2N.
  const planar::Mechanism m = io::load_mechanism(test::example("seed001-fourbar"));
  planar::Workspace ws(m);
  auto worst_error = [&](int points) {
    const ReducedTable t = tabulate_reduced_parameters(m, points);
    const ReducedInterpolant f(t);
    double worst_m = 0.0, worst_me = 0.0;
    for (int k = 0; k < points; k += std::max(1, points / 48)) {
      const double q = 0.5 * (t.q[k] + t.q[k + 1]);
      ws.q[0] = q;
      EXPECT_TRUE(planar::solve_positions(m, ws).ok());
      const ReducedInertia direct = reduced_inertia_from_energy(m, ws);
      const KinetostaticReduction kin = reduced_parameters_by_kinetostatics(m, ws);
      worst_m = std::max(worst_m, std::abs(f.m(q) - direct.m) / direct.m);
      worst_me = std::max(worst_me, std::abs(f.me1(0, q) - kin.me1[0]) / (1 + std::abs(kin.me1[0])));
    }
    return std::pair{worst_m, worst_me};
  };
  const auto [m90, me90] = worst_error(90);
  const auto [m180, me180] = worst_error(180);
  const auto [m360, me360] = worst_error(360);
  std::printf("relative error of m(q) at midpoints: %.2e (90), %.2e (180), %.2e (360 points)\n", m90, m180, m360);
  EXPECT_LT(m360, 1e-6);
  EXPECT_GT(m90 / m180, 10.0);  // about 16 for a fourth-order interpolant
  EXPECT_GT(m180 / m360, 10.0);
  EXPECT_LT(me360, 1e-4);
  EXPECT_GT(me180 / me360, 6.0);
}

TEST(ReducedParameters, ConstraintActionsReproduceKinetostatics) {
  // Frictionless, inertial loads only: the action at any (qd, qdd) is m_e1 qdd + m_e1q qd^2.
  for (const char* name : {"seed001-fourbar", "offset-slider-crank"}) {
    SCOPED_TRACE(name);
    const planar::Mechanism m = io::load_mechanism(test::example(name));
    planar::Workspace ws(m);
    for (double q : {0.2, 2.5, 5.0}) {
      ws.q[0] = q;
      ASSERT_TRUE(planar::solve_positions(m, ws).ok());
      const KinetostaticReduction r = reduced_parameters_by_kinetostatics(m, ws);
      for (auto [qd, qdd] : {std::pair{7.0, -30.0}, std::pair{-3.0, 12.0}}) {
        ws.qd[0] = qd, ws.qdd[0] = qdd;
        ASSERT_TRUE(planar::solve_velocities(m, ws).ok());
        planar::solve_accelerations(m, ws);
        for (auto& w : ws.applied) w.setZero();
        for (auto& w : ws.friction_load) w.setZero();
        planar::solve_reactions(m, ws);
        const double expected = r.me1[0] * qdd + r.me1q[0] * qd * qd;
        EXPECT_NEAR(constraint_action(m, ws, m.spec().constraint_actions[0]), expected, 1e-9 * (1 + std::abs(expected)));
        EXPECT_NEAR(ws.effort[0], r.inertia.m * qdd + 0.5 * r.inertia.dm * qd * qd, 1e-9 * (1 + std::abs(ws.effort[0])));
      }
    }
  }
}

TEST(ReducedParameters, EquationOfMotionWithTheReducedForceMatchesKinetostatics) {
  // The frictionless driver effort with all loads equals m qdd + 1/2 m' qd^2 - F(q, qd, t).
  for (const char* name : one_dof_examples) {
    SCOPED_TRACE(name);
    const planar::Mechanism m = io::load_mechanism(test::example(name));
    planar::Workspace ws(m);
    const planar::TimeGrid grid = m.default_grid();
    for (int k = 3; k < grid.steps; k += grid.steps / 5) {
      const double t = grid.time(k);
      planar::set_drivers(m, ws, t);
      ASSERT_TRUE(planar::solve_positions(m, ws).ok());
      const double q = ws.q[0], qd = ws.qd[0], qdd = ws.qdd[0];
      const ReducedInertia ri = reduced_inertia_from_energy(m, ws);
      ws.qd[0] = qd;
      const double F = reduced_force(m, ws, t);
      planar::set_drivers(m, ws, t);
      ASSERT_TRUE(planar::solve_kinematics(m, ws).ok());
      planar::solve_kinetostatics(m, ws, t, {.friction = false});
      const double expected = ri.m * qdd + 0.5 * ri.dm * qd * qd - F;
      EXPECT_NEAR(ws.effort[0], expected, 1e-9 * (std::abs(ws.effort[0]) + std::abs(F) + ri.m * std::abs(qdd) + 1.0))
          << "q = " << q;
    }
  }
}

TEST(ReducedParameters, MultiDofMechanismIsRefused) {
  const planar::Mechanism m = io::load_mechanism(test::example("pump-2dof"));
  EXPECT_THROW(tabulate_reduced_parameters(m, 36), InputError);
}
