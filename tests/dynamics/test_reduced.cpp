// Reduced parameters [003]: the two independent ways agree, the interpolants converge at
// fourth order, the constraint-action parameters reproduce kinetostatics, and the equation of
// motion with the reduced force matches a full kinetostatic analysis.
#include <gtest/gtest.h>

#include <cmath>

#include "linkdyn/dynamics/reduced.hpp"
#include "linkdyn/dynamics/reduced_model.hpp"
#include "test_support.hpp"

using namespace linkdyn;
using namespace linkdyn::dynamics;

namespace {
const char* one_dof_examples[] = {"seed001-fourbar", "offset-slider-crank", "inverted-slider-crank",
                                  "scotch-yoke",     "wedge-cam",           "watt-sixbar",
                                  "class3-triad",    "fourbar-flywheel",    "fourbar-table"};

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

TEST(ReducedModel, CurvesConvergeAtEighthOrderAndMeetTheirTolerance) {
  // m(q) of the seed four-bar from the reduced model against its direct evaluation at 97 points
  // between the nodes: tables of 64, 128, 256 intervals (Hermite-Birkhoff, degree 7: each halving
  // of h divides the error of m by 2^8 and that of m' by 2^7), and the adaptive table within its
  // tolerance.
  const io::Model model = io::read_model(test::example("seed001-fourbar"));
  const planar::Mechanism m = planar::compile(model.mechanism);
  const DynamicSystem system(m, model.machine);
  planar::Workspace ws(*system.mechanism);
  auto worst_error = [&](const ReducedModel& model) {
    double worst = 0.0;
    for (int k = 0; k < 97; ++k) {
      const double q = 2 * M_PI * (k + 0.37) / 97;
      ws.q[0] = q;
      EXPECT_TRUE(planar::solve_positions(*system.mechanism, ws).ok());
      const ReducedInertia direct = reduced_inertia_from_energy(*system.mechanism, ws);
      const CurveBundle::Where w = model.curves.locate(q);
      worst = std::max(worst, std::abs(model.curves.value(w, 0) - direct.m) / direct.m);
      worst = std::max(worst, std::abs(model.curves.slope(w, 0) - direct.dm) / direct.m);
    }
    return worst;
  };
  ReducedModelOptions o;
  double e[3];
  for (int k = 0; k < 3; ++k) {
    o.intervals = 64 << k;
    e[k] = worst_error(ReducedModel(system, o));
  }
  std::printf("relative error of m(q) and m'(q) between nodes: %.2e (64), %.2e (128), %.2e (256 intervals)\n", e[0],
              e[1], e[2]);
  EXPECT_GT(e[0] / e[1], 100.0);
  EXPECT_GT(e[1] / e[2], 100.0);
  // (m' from the interpolant carries the nodes' rounding divided by h: about 1e-12 of m at
  // h = 0.003, so tolerances are taken above that floor.)
  for (const double tolerance : {1e-8, 1e-11}) {
    o.intervals = 0;
    o.tolerance = tolerance;
    const ReducedModel adaptive(system, o);
    const double error = worst_error(adaptive);
    std::printf("tolerance %.0e: %d intervals, estimated %.2e, measured %.2e\n", tolerance, adaptive.curves.intervals(),
                adaptive.estimated_error, error);
    EXPECT_LT(error, tolerance);
  }
}

TEST(ReducedParameters, ConstraintActionsReproduceKinetostatics) {
  // Frictionless, inertial loads only: the action at any (qd, qdd) is m_e1 qdd + m_e1q qd^2.
  for (const char* name : {"seed001-fourbar", "offset-slider-crank"}) {
    SCOPED_TRACE(name);
    const io::Model model = io::read_model(test::example(name));
    const planar::Mechanism m = planar::compile(model.mechanism);
    const std::vector<ConstraintAction>& actions = model.machine.constraint_actions;
    planar::Workspace ws(m);
    for (double q : {0.2, 2.5, 5.0}) {
      ws.q[0] = q;
      ASSERT_TRUE(planar::solve_positions(m, ws).ok());
      const KinetostaticReduction r = reduced_parameters_by_kinetostatics(m, ws, actions);
      for (auto [qd, qdd] : {std::pair{7.0, -30.0}, std::pair{-3.0, 12.0}}) {
        ws.qd[0] = qd, ws.qdd[0] = qdd;
        ASSERT_TRUE(planar::solve_velocities(m, ws).ok());
        planar::solve_accelerations(m, ws);
        for (auto& w : ws.applied) w.setZero();
        for (auto& w : ws.friction_load) w.setZero();
        planar::solve_reactions(m, ws);
        const double expected = r.me1[0] * qdd + r.me1q[0] * qd * qd;
        EXPECT_NEAR(constraint_action(m, ws, actions[0]), expected, 1e-9 * (1 + std::abs(expected)));
        EXPECT_NEAR(ws.effort[0], r.inertia.m * qdd + 0.5 * r.inertia.dm * qd * qd,
                    1e-9 * (1 + std::abs(ws.effort[0])));
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
      (void)planar::solve_kinetostatics(m, ws, t, {.friction = false});
      const double expected = ri.m * qdd + 0.5 * ri.dm * qd * qd - F;
      EXPECT_NEAR(ws.effort[0], expected, 1e-9 * (std::abs(ws.effort[0]) + std::abs(F) + ri.m * std::abs(qdd) + 1.0))
          << "q = " << q;
    }
  }
}

TEST(ReducedParameters, MultiDofMechanismIsRefused) {
  const planar::Mechanism m = io::load_mechanism(test::example("pump-2dof"));
  EXPECT_THROW((void)tabulate_reduced_parameters(m, 36), InputError);
}
