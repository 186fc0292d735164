// Cylinders between moving links: a boom lifted by a cylinder from the ground. Its angle and
// rate against the triangle's closed form, its force against the boom's moment equilibrium about
// its pivot (an independent statics) and against virtual work (the cylinder's power is the rate
// of the kinetic energy less the loads' and gravity's power), the structure it decomposes into,
// and the bad inputs a user may write.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "linkdyn/core/error.hpp"
#include "linkdyn/io/model_file.hpp"
#include "linkdyn/planar/kinematics.hpp"
#include "linkdyn/planar/kinetostatics.hpp"
#include "linkdyn/planar/loads.hpp"
#include "test_support.hpp"

using namespace linkdyn;

namespace {

const std::string boom_model = std::string(LINKDYN_TEST_DATA_DIR) + "/boom-cylinder.yaml";

struct Boom {
  Vec2 c{1.0, -0.5};  // the barrel's ground pin C
  Vec2 d{1.5, 0.3};   // the rod's pin D in the boom
  Vec2 g{1.5, 0.0};   // the boom's centre of mass
  Vec2 t{3.0, 0.0};   // the payload's point T
  double mass = 200.0;
  Vec2 payload{0.0, -2000.0};
  /// The boom's angle for cylinder length L: |R(theta) d - c| = L, so
  /// c . R(theta) d = A cos(theta) + B sin(theta) = (|c|^2 + |d|^2 - L^2) / 2; the branch near `guess`.
  [[nodiscard]] double angle(double L, double guess) const {
    const double A = c.dot(d), B = c.y() * d.x() - c.x() * d.y();
    const double k = (c.squaredNorm() + d.squaredNorm() - L * L) / 2.0;
    const double phi = std::atan2(B, A), delta = std::acos(k / std::hypot(A, B));
    const double a1 = phi + delta, a2 = phi - delta;
    return std::abs(std::remainder(a1 - guess, 2 * M_PI)) < std::abs(std::remainder(a2 - guess, 2 * M_PI)) ? a1 : a2;
  }
  /// d theta / d L from the same equation: (B cos - A sin) dtheta = -L dL.
  [[nodiscard]] double angle_rate(double L, double theta) const {
    const double A = c.dot(d), B = c.y() * d.x() - c.x() * d.y();
    return -L / (B * std::cos(theta) - A * std::sin(theta));
  }
};

Vec2 rotate(double theta, const Vec2& v) {
  return {std::cos(theta) * v.x() - std::sin(theta) * v.y(), std::sin(theta) * v.x() + std::cos(theta) * v.y()};
}

int body(const planar::Mechanism& m, const std::string& name) { return m.spec().find_body(name); }

}  // namespace

TEST(Cylinder, BoomDecomposesIntoADrivingDyad) {
  const planar::Mechanism m = io::load_mechanism(boom_model);
  EXPECT_EQ(m.dof(), 1);
  EXPECT_EQ(m.structure_string(), "RR[P]R_II(1,2,3)");
  ASSERT_EQ(m.cylinders().size(), 1u);
  const planar::Cylinder& c = m.cylinders()[0];
  EXPECT_EQ(m.bodies()[c.barrel].name, "lift_barrel");
  EXPECT_EQ(m.bodies()[c.rod].name, "lift_rod");
  EXPECT_NEAR(c.piston_area, M_PI * 0.08 * 0.08 / 4, 1e-15);
  EXPECT_NEAR(c.annulus_area, M_PI * (0.08 * 0.08 - 0.045 * 0.045) / 4, 1e-15);
  EXPECT_EQ(planar::driver_column(m.drivers()[0], 0), "lift.length");
  EXPECT_EQ(planar::driver_column(m.drivers()[0], 1), "lift.speed");
}

TEST(Cylinder, BoomAngleAndRateAreTheTrianglesClosedForm) {
  const planar::Mechanism m = io::load_mechanism(boom_model);
  const Boom boom;
  planar::Workspace ws(m);
  const int b = body(m, "boom"), barrel = m.cylinders()[0].barrel, rod = m.cylinders()[0].rod;
  double worst_angle = 0.0, worst_rate = 0.0, worst_axis = 0.0;
  for (int k = 0; k <= 40; ++k) {
    const double L = 1.1 + 0.8 * k / 40.0, Ld = 0.2;
    ws.q[0] = L, ws.qd[0] = Ld, ws.qdd[0] = 0.0;
    ASSERT_TRUE(planar::solve_kinematics(m, ws).ok()) << "L = " << L;
    const double theta = boom.angle(L, ws.body[b].theta);
    worst_angle = std::max(worst_angle, std::abs(std::remainder(ws.body[b].theta - theta, 2 * M_PI)));
    worst_rate = std::max(worst_rate, std::abs(ws.body[b].omega - boom.angle_rate(L, theta) * Ld));
    // The barrel and the rod lie along C D, the rod's pin at D.
    const Vec2 D = rotate(theta, boom.d), axis = (D - boom.c).normalized();
    worst_axis = std::max({worst_axis,
                           std::abs(std::remainder(ws.body[barrel].theta - std::atan2(axis.y(), axis.x()), 2 * M_PI)),
                           std::abs(std::remainder(ws.body[rod].theta - ws.body[barrel].theta, 2 * M_PI)),
                           (ws.body[rod].r - D).norm(), (ws.body[barrel].r - boom.c).norm()});
  }
  std::printf("boom cylinder: |angle - closed form| %.1e rad, |rate - closed form| %.1e rad/s, axis %.1e\n",
              worst_angle, worst_rate, worst_axis);
  EXPECT_LT(worst_angle, 1e-12);
  EXPECT_LT(worst_rate, 1e-11);
  EXPECT_LT(worst_axis, 1e-12);
}

TEST(Cylinder, StaticForceBalancesTheBoomsMomentsAboutItsPivot) {
  // A massless cylinder at rest is a two-force member: its force F along C D on the boom
  // balances the moments of the boom's weight and the payload about O.
  planar::MechanismSpec spec = io::read_planar_model(boom_model);
  for (planar::Body& part : spec.bodies)
    if (part.name == "lift_barrel" || part.name == "lift_rod") part.mass = 0.0, part.inertia = 0.0;
  const planar::Mechanism m = planar::compile(spec);
  const Boom boom;
  planar::Workspace ws(m);
  double worst = 0.0, largest = 0.0;
  for (int k = 0; k <= 40; ++k) {
    ws.q[0] = 1.1 + 0.8 * k / 40.0, ws.qd[0] = 0.0, ws.qdd[0] = 0.0;
    ASSERT_TRUE(planar::solve_kinematics(m, ws).ok());
    (void)planar::solve_kinetostatics(m, ws, 0.0, {});
    const double theta = ws.body[body(m, "boom")].theta;
    const Vec2 D = rotate(theta, boom.d), u = (D - boom.c).normalized();
    const double load_moment =
        cross(rotate(theta, boom.g), boom.mass * m.spec().gravity) + cross(rotate(theta, boom.t), boom.payload);
    const double F = -load_moment / cross(D, u);
    worst = std::max(worst, std::abs(ws.effort[0] - F));
    largest = std::max(largest, std::abs(F));
  }
  std::printf("boom cylinder at rest: force up to %.6g N, |kinetostatics - moment equilibrium| %.1e N\n", largest,
              worst);
  EXPECT_GT(largest, 5000.0);
  EXPECT_LT(worst, 1e-9 * largest);
}

TEST(Cylinder, ForcesPowerIsTheRateOfKineticEnergyLessTheLoadsPower) {
  // Virtual work with the barrel's and the rod's masses, at the law's speed and an acceleration:
  // F dL/dt = dT/dt - (payload and gravity power).
  const planar::Mechanism m = io::load_mechanism(boom_model);
  planar::Workspace ws(m);
  double worst = 0.0, largest = 0.0;
  for (int k = 0; k <= 40; ++k) {
    ws.q[0] = 1.1 + 0.8 * k / 40.0, ws.qd[0] = 0.3 - 0.01 * k, ws.qdd[0] = 0.5 - 0.02 * k;
    ASSERT_TRUE(planar::solve_kinematics(m, ws).ok());
    (void)planar::solve_kinetostatics(m, ws, 0.0, {});
    double kinetic_rate = 0.0, load_power = 0.0;
    for (size_t i = 1; i < m.bodies().size(); ++i) {
      const planar::Body& part = m.bodies()[i];
      const planar::BodyState& s = ws.body[i];
      kinetic_rate += part.mass * s.acceleration(part.com).dot(s.velocity(part.com)) + part.inertia * s.alpha * s.omega;
      load_power += part.mass * m.spec().gravity.dot(s.velocity(part.com));
    }
    const planar::BodyState& boom = ws.body[body(m, "boom")];
    load_power += Vec2(0.0, -2000.0).dot(boom.velocity(Vec2(3.0, 0.0)));
    const double power = ws.effort[0] * ws.qd[0];
    worst = std::max(worst, std::abs(power - (kinetic_rate - load_power)));
    largest = std::max(largest, std::abs(power));
  }
  std::printf("boom cylinder in motion: power up to %.6g W, |F v - (dT/dt - P_loads)| %.1e W\n", largest, worst);
  EXPECT_GT(largest, 1000.0);
  EXPECT_LT(worst, 1e-9 * largest);
}

TEST(Cylinder, SealFrictionAddsItsCoulombForceAgainstTheMotion) {
  const planar::Mechanism dry = io::load_mechanism(boom_model);
  std::string text = test::read_text(boom_model);
  text.replace(text.find("    bore: 80 mm"), 0, "    seal_friction: 1.5 kN\n");
  const planar::Mechanism sealed = planar::compile(io::parse_planar_model(text, boom_model));
  for (double speed : {0.2, -0.2}) {
    planar::Workspace a(dry), b(sealed);
    for (planar::Workspace* ws : {&a, &b}) ws->q[0] = 1.5, ws->qd[0] = speed, ws->qdd[0] = 0.0;
    ASSERT_TRUE(planar::solve_kinematics(dry, a).ok());
    ASSERT_TRUE(planar::solve_kinematics(sealed, b).ok());
    (void)planar::solve_kinetostatics(dry, a, 0.0, {});
    const planar::KinetostaticsStatus st = planar::solve_kinetostatics(sealed, b, 0.0, {});
    EXPECT_TRUE(st.converged);
    EXPECT_NEAR(b.effort[0] - a.effort[0], speed > 0 ? 1500.0 : -1500.0, 1e-9 * std::abs(a.effort[0]));
    EXPECT_NEAR(b.effort_frictionless[0], a.effort[0], 1e-9 * std::abs(a.effort[0]));
    EXPECT_NEAR(planar::total_friction_power(sealed, b), 1500.0 * std::abs(speed), 1e-9);
    // Without friction the seals lose nothing either.
    (void)planar::solve_kinetostatics(sealed, b, 0.0, {.friction = false});
    EXPECT_EQ(planar::total_friction_power(sealed, b), 0.0);
    EXPECT_EQ(planar::friction_power(sealed, b, sealed.cylinders()[0].slide_joint), 0.0);
    EXPECT_EQ(b.effort[0], b.effort_frictionless[0]);
  }
}

namespace {
/// The message of the InputError that `text` (the boom model with `from` replaced by `to`) raises.
std::string error_of(const std::string& from, const std::string& to) {
  std::string text = test::read_text(boom_model);
  const size_t at = text.find(from);
  if (at == std::string::npos) return "the test's text is not in the model: " + from;
  text.replace(at, from.size(), to);
  try {
    (void)planar::compile(io::parse_planar_model(text, "m.yaml"));
  } catch (const InputError& e) {
    return e.what();
  }
  return "no error";
}
}  // namespace

TEST(Cylinder, BadInputNamesTheLineTheCylinderAndTheFix) {
  struct Case {
    std::string from, to;               // the edit of the boom model
    std::vector<std::string> expected;  // what its message must say
  };
  const std::vector<Case> cases{
      {"between: [ground.C, boom.D]", "between: [boom.O, boom.D]", {"m.yaml:19:", "driver 'lift'", "to itself"}},
      {"between: [ground.C, boom.D]", "between: [ground.O, boom.O]", {"always coincide"}},
      {"to: 1.9 m", "to: 2.2 m", {"m.yaml:20:", "2.2 m at t = 5.5 s, beyond the extended length 2 m"}},
      {"from: 1.1 m", "from: 0.9 m", {"below the retracted length 1 m"}},
      {"extended: 2.0 m", "extended: 0.9 m", {"is not above the retracted one"}},
      {"rod_diameter: 45 mm", "rod_diameter: 90 mm", {"not between 0 and the bore"}},
      {"    bore: 80 mm\n    rod_diameter: 45 mm\n",
       "    force: {pressure: 30 bar}\n",
       {"a pressure needs the cylinder's areas"}},
      {"    bore: 80 mm\n", "    force: {pressure: 30 bar, side: top}\n    bore: 80 mm\n", {"unknown side 'top'"}},
      // The law is within its limits over its own span (4 s), not over the analysis's 5 s.
      {"gravity: [0, -9.81]",
       "analysis: {duration: 5, steps: 50}\ngravity: [0, -9.81]",
       {"m.yaml:17: driver 'lift': its law takes the length to 2.1 m at t = 5 s, beyond the extended length 2 m, "
        "within the analysis's time span [0, 5] s"}},
      // A cylinder's pin on another joint's pin.
      {"between: [ground.C, boom.D]",
       "between: [ground.C, boom.O]",
       {"its pin on body 'boom' sits on joint 'O': a cylinder's end cannot share a pin"}},
      {"  boom:\n", "  lift_rod:\n    mass: 1\n  boom:\n", {"a body of the model"}},
      // The force laws of the direct dynamics.
      {"    bore: 80 mm\n",
       "    force: {against: length, table: [[1.0 m, 9 kN], [1.5 m, 9 kN], [1.4 m, 8 kN], [2 m, 7 kN]]}\n"
       "    bore: 80 mm\n",
       {"m.yaml:22:", "driver 'lift'", "the length 1.4 is not above the previous row's 1.5", "increasing length"}},
      {"    bore: 80 mm\n",
       "    force: {against: length, table: [[1.2 m, 9 kN], [2 m, 7 kN]]}\n    bore: 80 mm\n",
       {"covers lengths [1.2, 2] m, not the stroke [1, 2] m", "extend the table"}},
      {"    bore: 80 mm\n",
       "    force: {against: stroke, table: [[1 m, 9 kN], [2 m, 7 kN]]}\n    bore: 80 mm\n",
       {"unknown coordinate 'stroke'", "against: speed"}},
      {"    bore: 80 mm\n", "    force: {against: speed, table: [[0, 1 kN]]}\n    bore: 80 mm\n", {"two rows or more"}},
      {"    bore: 80 mm\n",
       "    force: {pressure: 30 bar, back_pressure: 40 bar}\n    bore: 80 mm\n",
       {"the back pressure must be between 0 and the pressure"}},
      {"    bore: 80 mm\n    rod_diameter: 45 mm\n",
       "    relief: 200 bar\n",
       {"a relief pressure needs the cylinder's areas"}},
      {"    bore: 80 mm\n", "    relief: -2 bar\n    bore: 80 mm\n", {"the relief pressure must be positive"}},
  };
  for (const Case& c : cases) {
    const std::string message = error_of(c.from, c.to);
    for (const std::string& part : c.expected) EXPECT_NE(message.find(part), std::string::npos) << message;
  }
}
