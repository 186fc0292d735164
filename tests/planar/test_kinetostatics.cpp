// Kinetostatics [001]: independent checks on every example.
//  (a) frictionless: driver power = dE_kin/dt - power of all other loads;
//  (b) with friction: driver power = frictionless driver power + friction power;
//  (c) every body's Newton-Euler equations hold with the computed reactions;
//  (d) the converged friction solution is a root of the whole mechanism's nonlinear
//      equilibrium, solved here directly by Newton's method;
//  (e) with f = 0 the friction path gives the frictionless reactions exactly.
#include <gtest/gtest.h>

#include <Eigen/Dense>
#include <cmath>

#include "linkdyn/io/model_file.hpp"
#include "linkdyn/planar/kinetostatics.hpp"
#include "linkdyn/planar/constraints.hpp"
#include "test_support.hpp"

using namespace linkdyn;
using namespace linkdyn::planar;

namespace {

/// Calls `check` at every assembled, non-singular step of the example's sweep, with the
/// kinematics solved and the time.
template <class Check>
void for_each_position(const Mechanism& m, Check check, int stride = 7) {
  Workspace ws(m);
  (void)sweep_kinematics(m, ws, m.default_grid(), [&](int k, double t, StepStatus s) {
    if (s == StepStatus::ok && k % stride == 0) check(ws, t);
  });
}

double kinetic_energy_rate(const Mechanism& m, const Workspace& ws) {
  double rate = 0.0;
  for (size_t b = 1; b < m.bodies().size(); ++b) {
    const Body& body = m.bodies()[b];
    const BodyState& s = ws.body[b];
    rate += body.mass * s.velocity(body.com).dot(s.acceleration(body.com)) + body.inertia * s.omega * s.alpha;
  }
  return rate;
}

/// Sum of the wrenches on a body (moments about its origin) from the physical reactions.
Wrench reaction_wrench(const Mechanism& m, const Workspace& ws, int body) {
  Wrench w = Wrench::Zero();
  const BodyState& s = ws.body[body];
  for (size_t k = 0; k < m.joints().size(); ++k) {
    const Joint& j = m.joints()[k];
    if (!j.connects(body)) continue;
    const JointReaction& r = ws.reaction[k];
    if (j.is<GearPair>()) {
      // Torque r.moment on the wheel, -ratio times it on the body driving it.
      w(2) += j.body[1] == body ? r.moment : -j.as<GearPair>().ratio * r.moment;
      continue;
    }
    const double sign = j.body[1] == body ? 1.0 : -1.0;       // the reaction acts on body[1]
    const Vec2 at = ws.body[j.body[1]].position(j.point[1]);  // the pin, or the slider point
    const Vec2 F = sign * r.force;
    w += Wrench(F.x(), F.y(), cross(at - s.r, F) + sign * r.moment);
  }
  for (size_t d = 0; d < m.drivers().size(); ++d) {
    const Driver& drv = m.drivers()[d];
    const Joint& j = m.joints()[drv.joint];
    if (m.relative_driver(static_cast<int>(d))) {  // a cylinder: its force on the rod, the opposite on the barrel
      if (!j.connects(body)) continue;
      std::vector<Wrench> loads(m.bodies().size(), Wrench::Zero());
      add_guide_force(j, ws, ws.effort[d], loads);
      w += loads[static_cast<size_t>(body)];
      continue;
    }
    if (j.other(0) != body) continue;
    if (drv.type == DriverType::rotational) {
      w(2) += ws.effort[d];
    } else {
      const Vec2 F = ws.effort[d] * j.as<PrismaticPair>().guide_dir;
      w += Wrench(F.x(), F.y(), cross(s.arm(j.point[1]), F));
    }
  }
  return w;
}

Wrench inertial(const Mechanism& m, const Workspace& ws, int b) {
  const Body& body = m.bodies()[b];
  const BodyState& s = ws.body[b];
  const Vec2 F = -body.mass * s.acceleration(body.com);
  return {F.x(), F.y(), cross(s.arm(body.com), F) - body.inertia * s.alpha};
}

const KinetostaticsOptions frictionless{.friction = false};

}  // namespace

TEST(Kinetostatics, FrictionlessDriverPowerEqualsKineticEnergyRateMinusLoadPower) {
  for (const auto& c : test::example_cases()) {
    SCOPED_TRACE(c.name);
    const Mechanism m = io::load_mechanism(test::example(c.name));
    int checked = 0;
    for_each_position(m, [&](Workspace& ws, double t) {
      (void)solve_kinetostatics(m, ws, t, frictionless);
      const double p_driver = driver_power(m, ws), dE = kinetic_energy_rate(m, ws);
      const double p_loads = load_power(m, ws, t, false);
      EXPECT_NEAR(p_driver, dE - p_loads, 1e-9 * (std::abs(dE) + std::abs(p_loads) + std::abs(p_driver)) + 1e-12)
          << "t = " << t;
      ++checked;
    });
    EXPECT_GT(checked, 10);
  }
}

TEST(Kinetostatics, WithFrictionDriverPowerIsFrictionlessPlusFrictionPower) {
  for (const auto& c : test::example_cases()) {
    SCOPED_TRACE(c.name);
    const Mechanism m = io::load_mechanism(test::example(c.name));
    for_each_position(m, [&](Workspace& ws, double t) {
      const KinetostaticsStatus status = solve_kinetostatics(m, ws, t);
      EXPECT_TRUE(status.converged) << "t = " << t;
      double p_friction = 0.0;  // every pair's and every compound pin's
      for (size_t k = 0; k < m.joints().size(); ++k) {
        const double p = friction_power(m, ws, static_cast<int>(k));
        EXPECT_GE(p, 0.0);
        p_friction += p;
      }
      for (size_t k = 0; k < m.spec().pins.size(); ++k) {
        const double p = pin_friction_power(m, ws, static_cast<int>(k));
        EXPECT_GE(p, 0.0);
        p_friction += p;
      }
      EXPECT_NEAR(p_friction, total_friction_power(m, ws), 1e-12 * (1.0 + p_friction));
      double p_frictionless = 0.0;
      for (size_t d = 0; d < m.drivers().size(); ++d) p_frictionless += ws.effort_frictionless[d] * ws.qd[d];
      const double p_driver = driver_power(m, ws);
      EXPECT_NEAR(p_driver, p_frictionless + p_friction,
                  1e-9 * (std::abs(p_driver) + std::abs(p_frictionless) + p_friction) + 1e-12)
          << "t = " << t;
    });
  }
}

TEST(Kinetostatics, ReactionsThatOverflowAreSelfLockingNeverConverged) {
  // A pin radius of 1e11 m makes the friction moments overflow: the successive approximations
  // must not report convergence on infinite reactions (std::max dropped the NaN change).
  MechanismSpec spec = io::read_planar_model(test::example("seed001-fourbar"));
  for (Joint& j : spec.joints) j.as<RevolutePair>().pin_radius = 1e11;
  const Mechanism m = compile(spec);
  for_each_position(m, [&](Workspace& ws, double t) {
    const KinetostaticsStatus status = solve_kinetostatics(m, ws, t);
    bool finite = true;
    for (const JointReaction& r : ws.reaction) finite = finite && r.force.allFinite() && std::isfinite(r.moment);
    if (status.converged) {
      EXPECT_TRUE(finite) << "t = " << t;
    }
    EXPECT_EQ(status.self_locking, !status.converged);
  });
}

TEST(Kinetostatics, NewtonEulerEquationsHoldForEveryBody) {
  for (const auto& c : test::example_cases()) {
    SCOPED_TRACE(c.name);
    const Mechanism m = io::load_mechanism(test::example(c.name));
    for_each_position(m, [&](Workspace& ws, double t) {
      (void)solve_kinetostatics(m, ws, t);
      for (size_t b = 1; b < m.bodies().size(); ++b) {
        const Wrench in = inertial(m, ws, static_cast<int>(b));
        const Wrench rw = reaction_wrench(m, ws, static_cast<int>(b));
        const Wrench total = ws.applied[b] + in + ws.friction_load[b] + rw;
        const double scale = ws.applied[b].norm() + in.norm() + ws.friction_load[b].norm() + rw.norm();
        EXPECT_LT(total.norm(), 1e-9 * scale + 1e-9) << m.bodies()[b].name << " at t = " << t;
      }
    });
  }
}

namespace {

/// The whole mechanism's equilibrium with friction as a function of all multipliers and
/// efforts z: one block of three equations per moving body.
struct Equilibrium {
  const Mechanism& m;
  Workspace& ws;
  int unknowns() const {
    int n = static_cast<int>(m.drivers().size());
    for (const Joint& j : m.joints()) n += j.constraint_count();
    return n;
  }
  void set(const Eigen::VectorXd& z) {
    int k = 0;
    for (size_t jn = 0; jn < m.joints().size(); ++jn) {
      const Joint& j = m.joints()[jn];
      Eigen::Vector2d l = Eigen::Vector2d::Zero();
      for (int r = 0; r < j.constraint_count(); ++r) l(r) = z(k++);
      store_reaction(j, static_cast<int>(jn), l, ws);
    }
    for (size_t d = 0; d < m.drivers().size(); ++d) ws.effort[d] = z(k++);
  }
  Eigen::VectorXd get() const {
    Eigen::VectorXd z(unknowns());
    int k = 0;
    for (size_t jn = 0; jn < m.joints().size(); ++jn)
      for (int r = 0; r < m.joints()[jn].constraint_count(); ++r) z(k++) = ws.reaction[jn].lambda(r);
    for (size_t d = 0; d < m.drivers().size(); ++d) z(k++) = ws.effort[d];
    return z;
  }
  Eigen::VectorXd residual(const Eigen::VectorXd& z) {
    set(z);
    update_friction(m, ws);  // friction from these reactions
    Eigen::VectorXd out(3 * (m.bodies().size() - 1));
    for (size_t b = 1; b < m.bodies().size(); ++b)
      out.segment<3>(3 * (b - 1)) = ws.applied[b] + inertial(m, ws, static_cast<int>(b)) + ws.friction_load[b] +
                                    reaction_wrench(m, ws, static_cast<int>(b));
    return out;
  }
};

}  // namespace

TEST(Kinetostatics, FrictionSolutionIsARootOfTheFullEquilibriumByNewton) {
  for (const char* name : {"seed001-fourbar", "offset-slider-crank", "inverted-slider-crank", "scotch-yoke",
                           "wedge-cam", "watt-sixbar", "class3-triad", "pump-2dof", "fourbar-flywheel"}) {
    SCOPED_TRACE(name);
    const Mechanism m = io::load_mechanism(test::example(name));
    for_each_position(
        m,
        [&](Workspace& ws, double t) {
          ASSERT_TRUE(solve_kinetostatics(m, ws, t).converged);  // the default tolerance, 1e-3 N
          const Eigen::VectorXd iterated_default = Equilibrium{m, ws}.get();
          KinetostaticsOptions tight;
          tight.tolerance = 1e-9;
          ASSERT_TRUE(solve_kinetostatics(m, ws, t, tight).converged);
          const Eigen::VectorXd iterated = Equilibrium{m, ws}.get();
          // Newton from the frictionless solution, finite-difference Jacobian.
          (void)solve_kinetostatics(m, ws, t, frictionless);
          Equilibrium eq{m, ws};
          Eigen::VectorXd z = eq.get();
          ASSERT_EQ(z.size(), static_cast<Eigen::Index>(3 * (m.bodies().size() - 1)));
          double scale = 1.0 + z.lpNorm<Eigen::Infinity>();
          for (int it = 0; it < 30; ++it) {
            const Eigen::VectorXd r = eq.residual(z);
            if (r.lpNorm<Eigen::Infinity>() < 1e-11 * scale) break;
            Eigen::MatrixXd J(z.size(), z.size());
            for (Eigen::Index k = 0; k < z.size(); ++k) {
              Eigen::VectorXd dz = z;
              const double h = 1e-7 * (1.0 + std::abs(z(k)));
              dz(k) += h;
              J.col(k) = (eq.residual(dz) - r) / h;
            }
            z -= J.partialPivLu().solve(r);
          }
          EXPECT_LT(eq.residual(z).lpNorm<Eigen::Infinity>(), 1e-8 * scale) << "t = " << t;
          EXPECT_LT((z - iterated).lpNorm<Eigen::Infinity>(), 1e-6 * scale) << "t = " << t;
          // The default stopping rule leaves an error of the order of its tolerance.
          EXPECT_LT((z - iterated_default).lpNorm<Eigen::Infinity>(), 2e-3) << "t = " << t;
        },
        31);
  }
}

TEST(Kinetostatics, ZeroFrictionPathEqualsFrictionlessExactly) {
  for (const auto& c : test::example_cases()) {
    SCOPED_TRACE(c.name);
    MechanismSpec spec = io::read_planar_model(test::example(c.name));
    for (Joint& j : spec.joints) j.friction = 0.0;
    for (CompoundPin& p : spec.pins) p.friction = 0.0;
    for (Cylinder& cyl : spec.cylinders) cyl.seal_friction = 0.0;
    const Mechanism m = compile(spec);
    for_each_position(m, [&](Workspace& ws, double t) {
      (void)solve_kinetostatics(m, ws, t, frictionless);
      const std::vector<JointReaction> reference = ws.reaction;
      const std::vector<double> efforts = ws.effort;
      update_friction(m, ws);
      solve_reactions(m, ws);
      for (size_t k = 0; k < reference.size(); ++k) {
        EXPECT_EQ(ws.reaction[k].lambda, reference[k].lambda);
      }
      EXPECT_EQ(ws.effort, efforts);
    });
  }
}

TEST(Kinetostatics, SeedFourBarEfficiencyAndEnergyBalanceOverTheCycle) {
  // Constant load and moment are conservative over a closed cycle and the kinetic energy is
  // periodic, so all the driving work over one revolution is lost to friction.
  const Mechanism m = io::load_mechanism(test::example("seed001-fourbar"));
  const KinetostaticsResult s_result = kinetostatics(m, m.default_grid(), {});
  const KinetostaticsSummary& s = s_result.summary;
  const Table table = io::kinetostatics_table(m, s_result);
  ASSERT_EQ(table.rows(), 361u);
  EXPECT_EQ(s.flagged, 0);
  EXPECT_NEAR(s.driver_work, s.friction_work, 1e-3 * s.friction_work);
  double pairs = 0.0;
  for (double e : s.friction_energy) pairs += e;
  EXPECT_NEAR(pairs, s.friction_work, 1e-9 * s.friction_work);
}

TEST(Kinetostatics, SelfLockingNearADeadCentreIsFlaggedWithEmptyCells) {
  // Driven from the piston with heavy pin friction, the slider-crank locks as it nears the
  // outer dead centre: the successive approximations stop converging there and only there.
  const Mechanism m = io::load_mechanism(std::string(LINKDYN_TEST_DATA_DIR) + "/piston-driven-slider-crank.yaml");
  const KinetostaticsResult s_result = kinetostatics(m, m.default_grid(), {});
  const KinetostaticsSummary& s = s_result.summary;
  const Table table = io::kinetostatics_table(m, s_result);
  ASSERT_EQ(table.rows(), 101u);
  ASSERT_GE(s.flagged, 1);
  EXPECT_LE(s.flagged, 3);
  EXPECT_GT(s.flagged_t.front(), 0.28);  // the last steps, at 0.447-0.4485 m of a 0.449 m stroke
  const size_t last = table.rows() - 1;
  EXPECT_EQ(table.at(last, table.column("self_locking")), 1.0);
  EXPECT_TRUE(std::isnan(table.at(last, table.column("push.force"))));  // written as an empty cell
  EXPECT_TRUE(std::isfinite(table.at(last, table.column("push.force_frictionless"))));
  EXPECT_EQ(table.at(0, table.column("self_locking")), 0.0);
  EXPECT_EQ(s.rows + s.flagged, 101);
}

TEST(Kinetostatics, DriverEffortsPeakAndRmsAreThoseOfTheScotchYokesClosedForm) {
  // The Scotch yoke (no gravity) at w = 2 rad/s: the yoke (2.5 kg) moves as x = r cos(theta),
  // r = 0.1 m, against a pump's -150 v; the crank and the block keep their kinetic energy. The
  // power balance gives T = A (1 - cos 2 theta) + B sin 2 theta with A = 75 r^2 w and
  // B = m r^2 w^2 / 2: its peak A + sqrt(A^2 + B^2) and, over the turn, its RMS
  // sqrt(A^2 + (A^2 + B^2) / 2) (the trapezoidal rule is exact for it on the uniform grid).
  const Mechanism m = io::load_mechanism(test::example("scotch-yoke"));
  const KinetostaticsResult with_friction = kinetostatics(m, m.default_grid(), {});
  const double r = 0.1, w = 2.0, A = 75.0 * r * r * w, B = 2.5 * r * r * w * w / 2.0;
  const double peak = A + std::hypot(A, B), rms = std::sqrt(A * A + (A * A + B * B) / 2.0);
  const EffortStatistics& frictionless = with_friction.summary.effort_frictionless[0];
  std::printf("Scotch yoke driver torque: RMS %.15f (closed form %.15f), peak %.9f (%.9f, on a 1 deg grid)\n",
              frictionless.rms, rms, frictionless.peak, peak);
  EXPECT_NEAR(frictionless.rms, rms, 1e-12 * rms);
  EXPECT_LE(frictionless.peak, peak * (1.0 + 1e-12));
  EXPECT_NEAR(frictionless.peak, peak, 1e-3 * peak);
  // Friction in the slot and the rail costs torque: more of it, and the same again when the
  // sweep itself runs without friction.
  EXPECT_GT(with_friction.summary.effort[0].rms, 1.01 * rms);
  KinetostaticsOptions off;
  off.friction = false;
  const KinetostaticsResult frictionless_sweep = kinetostatics(m, m.default_grid(), off);
  const EffortStatistics& without = frictionless_sweep.summary.effort[0];
  EXPECT_NEAR(without.rms, rms, 1e-12 * rms);
  EXPECT_EQ(without.peak, frictionless.peak);
}
