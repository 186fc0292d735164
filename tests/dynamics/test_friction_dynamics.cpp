// Friction in the direct dynamics [001 Eqs. 8-16] against independent solutions:
//  - a block on an inclined guide pushed by a force that varies with time, sticking and
//    slipping (kinetic 0.3, static 0.4): its closed form, piece by piece;
//  - a crank spinning on a pin with friction f' r |F| (|F| from its own acceleration): an
//    independent ODE solved for qdd at each step;
//  - the energy balance of every example with actuators or friction;
//  - the reduced, full and Kane methods with friction on;
//  - the simulated motion fed back to kinetostatics as a table law;
//  - loads tabulated against a slider's position and against a turning body's angle;
//  - a machine whose motor cannot overcome static friction stays at rest (tests/apps).
#include <gtest/gtest.h>

#include <boost/numeric/odeint.hpp>
#include <cmath>
#include <fstream>

#include "linkdyn/dynamics/simulate.hpp"
#include "linkdyn/planar/sweep.hpp"
#include "linkdyn/planar/kinetostatics.hpp"
#include "test_support.hpp"

using namespace linkdyn;
using namespace linkdyn::dynamics;

namespace {

std::string data(const std::string& name) { return std::string(LINKDYN_TEST_DATA_DIR) + "/" + name; }

/// The block on the 15 deg incline (tests/data/incline-block.yaml) in closed form. Within a
/// segment of the force table F(t) = F_i + s (t - t_i) the acceleration is linear in time,
/// m a = F - m g sin(a) - d f N while sliding in direction d; it stops where the quadratic v
/// vanishes, then sticks while |F - m g sin(a)| <= f_s N and breaks away where the linear
/// F - m g sin(a) reaches -+ f_s N.
struct InclineBlock {
  double m = 2.0, g = 9.81, angle = 15.0 * M_PI / 180.0, fk = 0.3, fs = 0.4;
  std::vector<double> t_rows{0, 1, 3, 4.5, 6}, F_rows;  // F along the incline, N
  InclineBlock() {
    const double W = m * g;
    F_rows = {0, 1.5 * W, -1.5 * W, 1.2 * W, 0};
  }
  double N() const { return m * g * std::cos(angle); }
  double pull() const { return m * g * std::sin(angle); }
  /// x(t) at every time of `times` (increasing), from rest at x = 0, t = 0.
  std::vector<double> positions(const std::vector<double>& times) const {
    std::vector<double> out;
    double t = 0.0, x = 0.0, v = 0.0;
    int d = 0;  // 0: stuck, +-1: sliding
    size_t next = 0, seg = 0;
    const double stick_limit = fs * N();
    auto force = [&](double time) {
      const double slope = (F_rows[seg + 1] - F_rows[seg]) / (t_rows[seg + 1] - t_rows[seg]);
      return F_rows[seg] + slope * (time - t_rows[seg]);
    };
    if (std::abs(F_rows[0] - pull()) > stick_limit) d = F_rows[0] - pull() > 0 ? 1 : -1;
    while (next < times.size()) {
      const double slope = (F_rows[seg + 1] - F_rows[seg]) / (t_rows[seg + 1] - t_rows[seg]);
      const double end = t_rows[seg + 1];
      enum { segment_end, stop, break_away } kind = segment_end;
      double t_event = end;
      const double A = (force(t) - pull() - d * fk * N()) / m, B = slope / m;  // a = A + B tau
      if (d != 0) {
        // v + A tau + B tau^2 / 2 = 0: the first root where v changes sign.
        double tau = INFINITY;
        if (B == 0.0) {
          if (A * v < 0) tau = -v / A;
        } else {
          const double disc = A * A - 2.0 * B * v;
          if (disc >= 0)
            for (const double r : {(-A - std::sqrt(disc)) / B, (-A + std::sqrt(disc)) / B})
              if (r > 1e-13) tau = std::min(tau, r);
        }
        if (t + tau < end) t_event = t + tau, kind = stop;
      } else if (slope != 0.0) {
        // F - m g sin(a) reaches +- f_s N.
        for (const double limit : {stick_limit, -stick_limit}) {
          const double tau = (limit + pull() - force(t)) / slope;
          if (tau > 1e-13 && t + tau < t_event) t_event = t + tau, kind = break_away;
        }
      }
      while (next < times.size() && times[next] <= t_event) {
        const double tau = times[next] - t;
        out.push_back(x + (d == 0 ? 0.0 : v * tau + A * tau * tau / 2 + B * tau * tau * tau / 6));
        ++next;
      }
      const double tau = t_event - t;
      if (d != 0) x += v * tau + A * tau * tau / 2 + B * tau * tau * tau / 6, v += A * tau + B * tau * tau / 2;
      t = t_event;
      const double drive = force(t) - pull();
      if (kind == stop) v = 0.0, d = std::abs(drive) <= stick_limit ? 0 : (drive > 0 ? 1 : -1);
      if (kind == break_away) d = drive > 0 ? 1 : -1;
      if (kind == segment_end) {
        if (seg + 2 >= t_rows.size()) break;
        ++seg;
      }
    }
    return out;
  }
};

// Options for a run to 1e-12 from (q0, qd0), rows only.
SimulationOptions accurate(Method method, double t_end, int steps, double q0, double qd0) {
  SimulationOptions o;
  o.method = method;
  o.t_end = t_end;
  o.steps = steps;
  o.q0 = q0, o.qd0 = qd0;
  o.rel_tol = o.abs_tol = 1e-12;
  o.kinematics = false;
  return o;
}

}  // namespace

TEST(FrictionDynamics, BlockOnAnInclineSticksAndSlipsAsItsClosedForm) {
  const io::Model model = io::read_model(data("incline-block.yaml"));
  const planar::Mechanism m = planar::compile(model.mechanism);
  const DynamicSystem system(m, model.machine);
  const InclineBlock block;
  for (const Method method : {Method::reduced, Method::full, Method::kane}) {
    const SimulationResult r = simulate(system, accurate(method, 6.0, 600, 0.0, 0.0));
    ASSERT_FALSE(r.stopped) << r.stop_message;
    const std::vector<double> times(r.t.data(), r.t.data() + r.rows());
    const std::vector<double> x = block.positions(times);
    ASSERT_EQ(x.size(), times.size());
    double worst = 0.0;
    int stuck_rows = 0;
    for (Eigen::Index row = 0; row < r.rows(); ++row) {
      worst = std::max(worst, std::abs(r.q(row, 0) - x[static_cast<size_t>(row)]));
      stuck_rows += r.stuck(row) > 0;
    }
    std::printf(
        "incline block, method %d: |s - closed form| %.2e m over 6 s, %d events, %d rows stuck, s(6) = %.9f m\n",
        static_cast<int>(method), worst, r.events, stuck_rows, r.q(r.rows() - 1, 0));
    EXPECT_LT(worst, 1e-9);
    EXPECT_GT(stuck_rows, 40);  // held at the start (0.43 s) and again later
    EXPECT_LT(std::abs(r.energy_residual), 1e-9);
  }
}

TEST(FrictionDynamics, SpinningBarWithPinFrictionFollowsAnIndependentOde) {
  // I_O theta'' = -m g d cos(theta) - sgn(theta') f' r |F|, F = m a_G - m g the pin's force on
  // the bar, a_G = d (theta'' e_t - theta'^2 e_r): implicit in theta'', solved by Newton's
  // method at each evaluation; integrated to 1e-14 while the bar keeps turning one way.
  const io::Model model = io::read_model(data("pendulum-friction.yaml"));
  const planar::Mechanism m = planar::compile(model.mechanism);
  const DynamicSystem system(m, model.machine);
  const double mass = 1.0, d = 0.2, I_O = 0.005 + mass * d * d, g = 9.81, fr = 0.2 * 0.01;
  auto theta_dd = [&](double th, double w) {
    const Vec2 er(std::cos(th), std::sin(th)), et(-std::sin(th), std::cos(th)), weight(0.0, -mass * g);
    double a = 0.0;
    for (int it = 0; it < 50; ++it) {
      const Vec2 F = mass * d * (a * et - w * w * er) - weight;
      const Vec2 dF = mass * d * et;  // dF/da
      const double res = I_O * a + mass * g * d * std::cos(th) + (w > 0 ? 1.0 : -1.0) * fr * F.norm();
      const double dres = I_O + (w > 0 ? 1.0 : -1.0) * fr * F.dot(dF) / F.norm();
      a -= res / dres;
    }
    return a;
  };
  using State = std::vector<double>;
  namespace odeint = boost::numeric::odeint;
  for (const Method method : {Method::reduced, Method::full, Method::kane}) {
    const SimulationResult r = simulate(system, accurate(method, 2.0, 100, 0.0, 20.0));
    ASSERT_FALSE(r.stopped) << r.stop_message;
    State y{0.0, 20.0};
    double t = 0.0, worst = 0.0;
    for (Eigen::Index row = 1; row < r.rows(); ++row) {
      auto stepper = odeint::make_controlled(1e-14, 1e-14, odeint::runge_kutta_fehlberg78<State>());
      odeint::integrate_adaptive(
          stepper, [&](const State& x, State& dx, double) { dx[0] = x[1], dx[1] = theta_dd(x[0], x[1]); }, y, t,
          r.t(row), 1e-4);
      t = r.t(row);
      worst = std::max(worst, std::abs(y[0] - r.q(row, 0)));
    }
    std::printf(
        "spinning bar with pin friction, method %d: |theta - ODE| %.2e rad over 2 s (speed %.4g -> %.4g rad/s)\n",
        static_cast<int>(method), worst, 20.0, r.qd(r.rows() - 1, 0));
    EXPECT_LT(worst, 1e-9);
    EXPECT_LT(r.qd(r.rows() - 1, 0), 19.0);  // friction slows it
  }
}

TEST(FrictionDynamics, SimulatedMotionFedBackToKinetostaticsGivesTheSameTorquesReactionsAndFriction) {
  // The simulation's rows (t, q, qd, qdd) as a table law: kinetostatics, with its own friction
  // iterations, must need the motor's torque at the crank and find the simulation's reactions
  // and friction powers.
  const DynamicSystem system = io::load_machine(test::example("seed001-fourbar-motor"));
  SimulationOptions o = accurate(Method::kane, 1.0, 200, Table::missing, 10.0);
  o.kinematics = true;
  o.reactions = true;
  const SimulationResult sim = simulate(system, o);
  ASSERT_FALSE(sim.stopped) << sim.stop_message;
  const Table s = io::simulation_table(system, sim);     // matched with kinetostatics' table by column name
  planar::MechanismSpec fed = system.mechanism->spec();  // with the rotor's inertia, without the motor
  planar::TableLaw law;
  for (size_t r = 0; r < s.rows(); ++r) {
    law.t.push_back(s.at(r, 0)), law.q.push_back(s.at(r, 1)), law.qd.push_back(s.at(r, 2)),
        law.qdd.push_back(s.at(r, 3));
  }
  fed.drivers[0].law = law;
  const planar::Mechanism km = planar::compile(fed);
  planar::KinetostaticsOptions ko;
  ko.tolerance = 1e-11;
  const Table k = io::kinetostatics_table(km, planar::kinetostatics(km, km.default_grid(), ko));
  ASSERT_EQ(k.rows(), s.rows());
  double torque = 0.0, reaction = 0.0, friction = 0.0, scale_t = 0.0, scale_r = 0.0, scale_f = 0.0;
  for (size_t r = 0; r < s.rows(); ++r) {
    torque = std::max(torque, std::abs(k.at(r, k.column("crank_drive.torque")) - s.at(r, s.column("motor.torque"))));
    scale_t = std::max(scale_t, std::abs(s.at(r, s.column("motor.torque"))));
    for (const char* j : {"A", "B", "C", "D"}) {
      for (const char* c : {".Fx", ".Fy"}) {
        const std::string n = std::string(j) + c;
        reaction = std::max(reaction, std::abs(k.at(r, k.column(n)) - s.at(r, s.column(n))));
        scale_r = std::max(scale_r, std::abs(s.at(r, s.column(n))));
      }
      const std::string n = std::string(j) + ".friction_power";
      friction = std::max(friction, std::abs(k.at(r, k.column(n)) - s.at(r, s.column(n))));
      scale_f = std::max(scale_f, std::abs(s.at(r, s.column(n))));
    }
  }
  std::printf("motion fed back: driver torque %.1e, reactions %.1e, friction powers %.1e (relative to their largest)\n",
              torque / scale_t, reaction / scale_r, friction / scale_f);
  EXPECT_LT(torque, 1e-6 * scale_t);
  EXPECT_LT(reaction, 1e-6 * scale_r);
  EXPECT_LT(friction, 1e-6 * scale_f);
}

TEST(FrictionDynamics, ReducedFullAndKaneAgreeWithFriction) {
  // Pair friction, with its normal loads' and directions' changes as events, in three machines.
  for (const std::string& name :
       {std::string("seed001-fourbar-motor"), std::string("offset-slider-crank"), std::string("toggle-press")}) {
    SCOPED_TRACE(name);
    const DynamicSystem system = io::load_machine(test::example(name));
    const double qd0 = name == "toggle-press" ? Table::missing : name == "seed001-fourbar-motor" ? 10.0 : 150.0;
    SimulationOptions o =
        accurate(Method::reduced, name == "offset-slider-crank" ? 0.1 : 1.0, 100, Table::missing, qd0);
    SimulationResult r[3];
    for (const Method method : {Method::reduced, Method::full, Method::kane}) {
      o.method = method;
      r[static_cast<int>(method)] = simulate(system, o);
      ASSERT_FALSE(r[static_cast<int>(method)].stopped) << r[static_cast<int>(method)].stop_message;
      EXPECT_GT(r[static_cast<int>(method)].friction_loss[0], 0.0);
    }
    const double reduced = test::largest_difference(r[0].q, r[2].q), full = test::largest_difference(r[1].q, r[2].q);
    std::printf("%s with friction: |q| reduced - Kane %.1e rad, full - Kane %.1e rad\n", name.c_str(), reduced, full);
    EXPECT_LT(reduced, 1e-8);
    EXPECT_LT(full, 1e-8);
  }
}

TEST(FrictionDynamics, EnergyBalanceOfEveryExampleCloses) {
  // Input work (actuators, loads) - friction losses - change of kinetic + potential energy, over
  // 0.3 s at --rtol 1e-10, by the reduced method (one DOF) and by Kane's method: within 1e-8 of
  // the work that flows (or of the largest kinetic energy). A run that stops (a cam that leaves its law's range)
  // balances up to its stop.
  for (const auto& c : test::example_cases()) {
    const DynamicSystem system = io::load_machine(test::example(c.name));
    for (const Method method : {Method::reduced, Method::kane}) {
      // The reduced method takes one DOF and no cam (simulate refuses it with exit 2).
      if (method == Method::reduced &&
          (system.mechanism->drivers().size() != 1 || !system.mechanism->cam_pairs().empty()))
        continue;
      SCOPED_TRACE(c.name + (method == Method::reduced ? " reduced" : " kane"));
      SimulationOptions o = accurate(method, 0.3, 30, Table::missing, Table::missing);
      o.rel_tol = o.abs_tol = 1e-10;
      SimulationResult r;
      try {
        r = simulate(system, o);
      } catch (const AnalysisError& e) {  // the reduced method cannot tabulate a non-Grashof linkage
        EXPECT_EQ(c.name, "non-grashof-fourbar") << e.what();
        continue;
      }
      double flow = std::abs(r.energy_change);
      for (double w : r.actuator_work) flow += std::abs(w);
      for (double w : r.load_work) flow += std::abs(w);
      for (double w : r.friction_loss) flow += w;
      if (r.rows() > 0) flow = std::max(flow, r.energy.kinetic.maxCoeff());
      if (r.stopped) std::printf("%s stopped: %s\n", c.name.c_str(), r.stop_message.c_str());
      std::printf("%-24s %s: energy residual %.1e J of %.3g J flowing\n", c.name.c_str(),
                  method == Method::reduced ? "reduced" : "kane   ", r.energy_residual, flow);
      EXPECT_LE(std::abs(r.energy_residual), 1e-8 * flow + 1e-13);
    }
  }
}

namespace {

/// Writes a load table (x, Fx, Fy) to the test's folder; its file name.
std::string write_table(const std::string& name, const std::vector<double>& x, const std::vector<double>& F) {
  std::ofstream out(testing::TempDir() + "/" + name);
  out << "x,Fx,Fy\n";
  out.precision(17);
  for (size_t k = 0; k < x.size(); ++k) out << x[k] << ',' << F[k] << ",0\n";
  return name;
}

/// The offset slider-crank with its gas force replaced by `table` (a CSV in the test's folder).
planar::Mechanism slider_crank_with_gas(const std::string& table) {
  std::string text = test::read_text(test::example("offset-slider-crank"));
  const size_t from = text.find("table: {"), to = text.find('}', from);
  text.replace(from, to + 1 - from, "table: " + table);
  return planar::compile(io::parse_planar_model(text, testing::TempDir() + "/offset-slider-crank.yaml"));
}

}  // namespace

TEST(FrictionDynamics, LoadAgainstSliderPositionEqualsTheSameLoadAgainstTimeAlongTheMotion) {
  // A gas force tabulated against the piston's position x (23 rows) and, along the prescribed
  // motion, the same force against time (F(x(t_k)) at the kinematic grid): kinetostatics with
  // friction must need the same driver torque and find the same reactions at every grid time.
  std::vector<double> x, F;
  for (int k = 0; k <= 22; ++k)
    x.push_back(0.24 + 0.01 * k), F.push_back(-2000.0 + 3.0e5 * (x.back() - 0.24) * (x.back() - 0.24));
  const planar::Mechanism by_x =
      slider_crank_with_gas("{file: " + write_table("gas-x.csv", x, F) + ", against: piston.P.x}");
  const planar::TimeGrid grid = by_x.default_grid();
  const Table kin = io::kinematics_table(by_x, planar::kinematics(by_x, grid));
  std::vector<double> t, F_t;
  for (size_t r = 0; r < kin.rows(); ++r) {
    const double xp = kin.at(r, kin.column("P.x"));
    const size_t k = std::min<size_t>(static_cast<size_t>((xp - 0.24) / 0.01), 21);
    const double s = (xp - x[k]) / (x[k + 1] - x[k]);
    t.push_back(kin.at(r, 0)), F_t.push_back((1 - s) * F[k] + s * F[k + 1]);
  }
  const planar::Mechanism by_t = slider_crank_with_gas("{file: " + write_table("gas-t.csv", t, F_t) + ", against: t}");
  const Table a = io::kinetostatics_table(by_x, planar::kinetostatics(by_x, grid, {})),
              b = io::kinetostatics_table(by_t, planar::kinetostatics(by_t, grid, {}));
  double torque = 0.0, scale = 0.0, normal = 0.0, normal_scale = 0.0;
  for (size_t r = 0; r < a.rows(); ++r) {
    torque = std::max(torque, std::abs(a.at(r, a.column("motor.torque")) - b.at(r, b.column("motor.torque"))));
    scale = std::max(scale, std::abs(b.at(r, b.column("motor.torque"))));
    normal = std::max(normal, std::abs(a.at(r, a.column("cylinder.N")) - b.at(r, b.column("cylinder.N"))));
    normal_scale = std::max(normal_scale, std::abs(b.at(r, b.column("cylinder.N"))));
  }
  std::printf("gas force against piston x vs against t: driver torque %.1e, cylinder normal %.1e (relative)\n",
              torque / scale, normal / normal_scale);
  EXPECT_LT(torque, 1e-9 * scale);
  EXPECT_LT(normal, 1e-9 * normal_scale);
  // In the dynamics the position table's kinks are events in every method; the reduced method
  // tabulates x(q): reduced and Kane agree.
  const DynamicSystem system(by_x, {});  // the gas force only, no actuator
  const SimulationResult reduced = simulate(system, accurate(Method::reduced, 0.1, 50, Table::missing, 150.0));
  const SimulationResult kane = simulate(system, accurate(Method::kane, 0.1, 50, Table::missing, 150.0));
  ASSERT_FALSE(reduced.stopped || kane.stopped) << reduced.stop_message << kane.stop_message;
  const double q = test::largest_difference(reduced.q, kane.q);
  std::printf("gas force against piston x, 0.1 s: |q| reduced - Kane %.1e rad (%d events)\n", q, kane.events);
  EXPECT_LT(q, 1e-8);
}

TEST(FrictionDynamics, PeriodicTableAgainstATurningBodyAngleEqualsTheSameAgainstTheDriver) {
  // The crank turns with the driver: the gas table against crank.angle (unwrapped over the
  // turns; the reduced method tabulates the angle less its steady advance) is the same force as
  // against the driver coordinate, over turns forwards and then backwards past q = -2 pi.
  const std::string gas =
      "{file: " + std::string(LINKDYN_EXAMPLES_DIR) + "/offset-slider-crank-gas.csv, periodic: true, against: ";
  const DynamicSystem by_driver(slider_crank_with_gas(gas + "motor}"), {});
  const DynamicSystem by_angle(slider_crank_with_gas(gas + "crank.angle}"), {});
  for (const Method method : {Method::reduced, Method::kane}) {
    const SimulationResult a = simulate(by_driver, accurate(method, 0.3, 60, Table::missing, 150.0));
    const SimulationResult b = simulate(by_angle, accurate(method, 0.3, 60, Table::missing, 150.0));
    ASSERT_FALSE(a.stopped || b.stopped) << a.stop_message << b.stop_message;
    const double q = test::largest_difference(a.q, b.q);
    const double q_min = std::min(0.0, a.q.col(0).minCoeff()), q_max = std::max(0.0, a.q.col(0).maxCoeff());
    std::printf("gas table against crank.angle vs the driver, method %d: |q| %.1e rad over q in [%.1f, %.1f] rad\n",
                static_cast<int>(method), q, q_min, q_max);
    EXPECT_LT(q, 1e-9);
    EXPECT_LT(q_min, -2 * M_PI);  // the gas drives it backwards, through the table's period twice
    EXPECT_GT(q_max, 2 * M_PI);
  }
}

namespace {

/// tests/data/crank-spring-block.yaml written out by hand: the crank (I_O theta'' = torque of
/// the spring at C) and the block (m x'' = F_x - sgn(v) f |N|, N = m g - F_y while it slides; held
/// while |F_x| <= f_s |N|), the spring's force on the block F = k (L - L0) (C - B) / L.
struct CrankSpringBlock {
  double I = 0.05, r = 0.1, m = 2.0, g = 9.81, h = -0.3, k = 200.0, L0 = 0.3, f = 0.2, fs = 0.8;
  /// The spring's force on the block and its torque on the crank.
  void spring(double theta, double x, Vec2& F, double& torque) const {
    const Vec2 C(r * std::cos(theta), r * std::sin(theta)), B(x, h), d = C - B;
    const double L = d.norm();
    F = k * (L - L0) / L * d;
    torque = C.x() * (-F.y()) - C.y() * (-F.x());
  }
  double normal(const Vec2& F) const { return std::abs(m * g - F.y()); }  // |N|: the guide holds both ways
  /// s = (theta, omega, x, v); `held`: the block at rest.
  void rates(const std::vector<double>& s, std::vector<double>& ds, bool held, double direction) const {
    Vec2 F;
    double torque = 0.0;
    spring(s[0], s[2], F, torque);
    ds[0] = s[1], ds[1] = torque / I;
    ds[2] = held ? 0.0 : s[3];
    ds[3] = held ? 0.0 : (F.x() - direction * f * normal(F)) / m;
  }
  double margin(const std::vector<double>& s) const {  // held: f_s N - |F_x|
    Vec2 F;
    double torque = 0.0;
    spring(s[0], s[2], F, torque);
    return fs * normal(F) - std::abs(F.x());
  }
  /// The state at each time of `times` from (theta0, omega0, x0, 0), the block held at first if
  /// it can be; events located by bisection on re-integrations (to 1e-14 s).
  std::vector<std::vector<double>> states(const std::vector<double>& times, double theta0, double omega0,
                                          double x0) const {
    namespace odeint = boost::numeric::odeint;
    using State = std::vector<double>;
    State s{theta0, omega0, x0, 0.0};
    bool held = margin(s) >= 0.0;
    double direction = 0.0, t = times.front();
    auto advance = [&](State x, double from, double to) {
      if (to > from) {
        auto stepper = odeint::make_controlled(1e-14, 1e-14, odeint::runge_kutta_fehlberg78<State>());
        odeint::integrate_adaptive(
            stepper, [&](const State& y, State& dy, double) { rates(y, dy, held, direction); }, x, from, to, 1e-4);
      }
      return x;
    };
    // > 0 while the mode lasts; a sliding block's N changing sign ends a mode too (|N| has a
    // kink there, which the integration must not step over).
    double normal_sign = 1.0;
    auto signed_normal = [&](const State& x) {
      Vec2 F;
      double torque = 0.0;
      spring(x[0], x[2], F, torque);
      return m * g - F.y();
    };
    auto event = [&](const State& x) {
      return held ? margin(x) : std::min(direction * x[3], normal_sign * signed_normal(x));
    };
    normal_sign = signed_normal(s) >= 0.0 ? 1.0 : -1.0;
    if (!held) {
      Vec2 F;
      double torque = 0.0;
      spring(s[0], s[2], F, torque);
      direction = F.x() > 0.0 ? 1.0 : -1.0;
    }
    std::vector<State> out{s};
    for (size_t row = 1; row < times.size(); ++row) {
      while (t < times[row]) {
        // March in 1e-3 s probes; a mode's end is bisected between the probes.
        const double probe = std::min(times[row], t + 1e-3);
        const State next = advance(s, t, probe);
        if (event(next) > 0.0) {
          s = next, t = probe;
          continue;
        }
        double a = t, b = probe;
        while (b - a > 1e-14) {
          const double c = 0.5 * (a + b);
          (event(advance(s, t, c)) > 0.0 ? a : b) = c;
        }
        s = advance(s, t, b), t = b;
        Vec2 F;
        double torque = 0.0;
        spring(s[0], s[2], F, torque);
        if (!held && normal_sign * signed_normal(s) <= 0.0 && direction * s[3] > 0.0) {  // N changed sign
          normal_sign = -normal_sign;
        } else if (held) {  // slips in the spring's direction
          held = false;
          direction = F.x() > 0.0 ? 1.0 : -1.0;
        } else {  // stops: held if static friction can, else turns back
          s[3] = 0.0;
          held = fs * normal(F) >= std::abs(F.x());
          direction = F.x() > 0.0 ? 1.0 : -1.0;
        }
        if (!held) normal_sign = signed_normal(s) >= 0.0 ? 1.0 : -1.0;
      }
      out.push_back(s);
    }
    return out;
  }
};

}  // namespace

TEST(FrictionDynamics, ElementOfATwoDofMachineSticksAndSlipsAsAnIndependentModel) {
  // Two DOF, one element held: the block on its guide sticks (static 0.8) and slips (kinetic 0.2)
  // while the crank keeps turning; the full and Kane methods against the model written out by
  // hand and integrated mode by mode with its events bisected.
  const DynamicSystem system = io::load_machine(data("crank-spring-block.yaml"));
  const CrankSpringBlock model;
  for (const Method method : {Method::full, Method::kane}) {
    const SimulationResult r = simulate(system, accurate(method, 2.0, 200, 0.0, 20.0));
    ASSERT_FALSE(r.stopped) << r.stop_message;
    const std::vector<double> times(r.t.data(), r.t.data() + r.rows());
    const auto reference = model.states(times, 0.0, 20.0, 0.05);
    double theta = 0.0, x = 0.0, v_held = 0.0;
    int held_rows = 0;
    ASSERT_EQ(system.mechanism->drivers()[1].name, "x");
    for (Eigen::Index row = 0; row < r.rows(); ++row) {
      const auto k = static_cast<size_t>(row);
      theta = std::max(theta, std::abs(r.q(row, 0) - reference[k][0]));
      x = std::max(x, std::abs(r.q(row, 1) - reference[k][2]));
      if (r.stuck(row) > 0) ++held_rows, v_held = std::max(v_held, std::abs(r.qd(row, 1)));
    }
    std::printf(
        "crank, spring and block, method %d: |theta - model| %.1e rad, |x - model| %.1e m over 2 s; %d events, %d rows "
        "held (|v| there %.0e m/s), energy residual %.1e J\n",
        static_cast<int>(method), theta, x, r.events, held_rows, v_held, r.energy_residual);
    EXPECT_LT(theta, 1e-9);
    EXPECT_LT(x, 1e-10);
    EXPECT_GT(held_rows, 50);
    EXPECT_EQ(r.stuck(0), 1) << "held from the start";
    EXPECT_LT(v_held, 1e-12);
    EXPECT_LT(std::abs(r.energy_residual), 1e-10);
  }
}

TEST(FrictionDynamics, TwoDofPumpWithHeldElementsAgreesByKaneAndTheFullModel) {
  // examples/pump-2dof.yaml coasting down under its pairs' friction: the slider's guide and pins
  // are held and released many times; Kane's equations and the full constrained model agree,
  // and the energy balance closes.
  const DynamicSystem system = io::load_machine(test::example("pump-2dof"));
  const SimulationResult kane = simulate(system, accurate(Method::kane, 3.0, 300, Table::missing, Table::missing));
  const SimulationResult full = simulate(system, accurate(Method::full, 3.0, 300, Table::missing, Table::missing));
  ASSERT_FALSE(kane.stopped || full.stopped) << kane.stop_message << full.stop_message;
  const double q = test::largest_difference(kane.q, full.q);
  const int held_rows = static_cast<int>((kane.stuck.array() > 0).count());
  std::printf(
      "pump-2dof coasting 3 s: |q| Kane - full %.1e, %d events, %d rows with an element held, energy residual %.1e J\n",
      q, kane.events, held_rows, kane.energy_residual);
  EXPECT_LT(q, 1e-8);
  EXPECT_GT(held_rows, 30);
  EXPECT_LT(std::abs(kane.energy_residual), 1e-10);
  EXPECT_LT(std::abs(full.energy_residual), 1e-10);
}

TEST(FrictionDynamics, LoadAgainstASpeedActsAsItsTableWithPairFriction) {
  // A user's shaper (../shared/repro/whitworth): a cutting force of 2 kN tabulated against the
  // ram's speed (flat on the forward stroke, a ramp to 0 at rest). With pair friction the table's
  // segment was located at the switching functions' unit speed instead of the state's, and the
  // ramp's line acted far outside its segment (up to 19.6 kN). The load, recovered from its work
  // column between rows as |dW / dx| of the ram, must never exceed the table's 2 kN, and must be
  // 2 kN where the ram moves forward faster than the ramp's end (0.05 m/s) over the whole row.
  const DynamicSystem system = io::load_machine(data("whitworth-cutting-ramp.yaml"));
  const planar::Mechanism& m = *system.mechanism;
  size_t cutting = 0;
  while (m.spec().loads[cutting].name != "cutting") ++cutting;
  for (const Method method : {Method::reduced, Method::full, Method::kane}) {
    SCOPED_TRACE(static_cast<int>(method));
    SimulationOptions o;
    o.method = method;
    o.t_end = 1.2, o.steps = 2400;
    const SimulationResult r = simulate(system, o);
    ASSERT_FALSE(r.stopped) << r.stop_message;
    ASSERT_TRUE(r.friction);
    const planar::KinematicsResult& k = r.kinematics;
    Eigen::Index ram = 0;
    while (k.points[static_cast<size_t>(ram)].label != "D") ++ram;
    double largest = 0.0, flat_error = 0.0;
    int flat_rows = 0;
    for (Eigen::Index row = 0; row + 1 < r.rows(); ++row) {
      const double dx = k.x(row + 1, ram) - k.x(row, ram);
      if (std::abs(dx) < 1e-9) continue;
      const double load = std::abs((r.energy.load_work(row + 1, static_cast<Eigen::Index>(cutting)) -
                                    r.energy.load_work(row, static_cast<Eigen::Index>(cutting))) /
                                   dx);
      largest = std::max(largest, load);
      if (k.vx(row, ram) < -0.06 && k.vx(row + 1, ram) < -0.06)
        flat_error = std::max(flat_error, std::abs(load - 2000.0)), ++flat_rows;
    }
    std::printf(
        "shaper, method %d, friction: largest cutting force %.6f N, |F - 2 kN| on the flat part %.1e N (%d rows)\n",
        static_cast<int>(method), largest, flat_error, flat_rows);
    EXPECT_LT(largest, 2000.0 * (1.0 + 1e-6));
    EXPECT_GT(flat_rows, 400);
    EXPECT_LT(flat_error, 2000.0 * 1e-6);
  }
}

TEST(FrictionDynamics, ScissorLiftTablesConvergeAtDefaultSettingsAndAgreeWithKaneAndFull) {
  // A user's scissor lift (../shared/repro/scissor-lift), lowered from rest through a throttle:
  // some bearings' reactions to the weights are zero in exact arithmetic, and their tables held
  // the walk's rounding (3e-12 N against 19 kN) to a tolerance on 1e-6 of their row, which no
  // refinement reaches. At default settings the reduced method now converges and agrees with
  // Kane's and the full method.
  const DynamicSystem system = io::load_machine(data("scissor-lift.yaml"));
  SimulationOptions o;
  o.q0 = 0.5, o.qd0 = 0.0, o.t_end = 2.0, o.steps = 200;
  o.kinematics = false;
  SimulationResult r[3];
  for (const Method method : {Method::reduced, Method::full, Method::kane}) {
    o.method = method;
    r[static_cast<int>(method)] = simulate(system, o);
    ASSERT_FALSE(r[static_cast<int>(method)].stopped) << r[static_cast<int>(method)].stop_message;
  }
  const double reduced = test::largest_difference(r[0].q, r[2].q), full = test::largest_difference(r[1].q, r[2].q);
  std::printf("scissor lift, 2 s: |screw| reduced - Kane %.1e m, full - Kane %.1e m (table %d intervals, error %.1e)\n",
              reduced, full, r[0].table_points, r[0].table_error);
  EXPECT_LT(r[0].table_error, 1e-11);
  EXPECT_LT(reduced, 1e-9);
  EXPECT_LT(full, 1e-9);
  EXPECT_GT(r[2].q(r[2].rows() - 1, 0) - 0.5, 0.2);  // it comes down: the roller moves out by 0.27 m
}
