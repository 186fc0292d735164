// A cam pair in a mechanism (tests/data/cam-roller.yaml): a disc cam driving an offset roller
// follower on a vertical guide against a spring. The follower's motion against the program's
// closed forms, the contact force's direction against the pressure angle's closed form, the
// guide's side thrust, and the driving torque against virtual work.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "linkdyn/core/error.hpp"
#include "linkdyn/io/model_file.hpp"
#include "linkdyn/planar/kinematics.hpp"
#include "linkdyn/planar/design_numbers.hpp"
#include "linkdyn/planar/kinetostatics.hpp"
#include "linkdyn/planar/sweep.hpp"
#include "test_support.hpp"

using namespace linkdyn;

namespace {

const std::string cam_model = std::string(LINKDYN_TEST_DATA_DIR) + "/cam-roller.yaml";
const double deg = M_PI / 180.0;

/// The program of cam-roller.yaml from the closed forms: s, ds/dtheta, d2s/dtheta2.
struct Program {
  double s, ds, d2s;
};
Program program(double theta) {
  theta = std::fmod(theta, 2 * M_PI);
  const double h = 0.010;
  if (theta < 120 * deg) {  // cycloidal rise: h (x - sin(2 pi x) / 2 pi), x = theta / beta
    const double b = 120 * deg, x = theta / b;
    return {h * (x - std::sin(2 * M_PI * x) / (2 * M_PI)), h * (1 - std::cos(2 * M_PI * x)) / b,
            h * 2 * M_PI * std::sin(2 * M_PI * x) / (b * b)};
  }
  if (theta < 160 * deg) return {h, 0.0, 0.0};
  if (theta < 300 * deg) {  // 3-4-5 return: h (1 - (10 x^3 - 15 x^4 + 6 x^5))
    const double b = 140 * deg, x = (theta - 160 * deg) / b;
    return {h * (1 - (10 * std::pow(x, 3) - 15 * std::pow(x, 4) + 6 * std::pow(x, 5))),
            -h * (30 * x * x - 60 * x * x * x + 30 * std::pow(x, 4)) / b,
            -h * (60 * x - 180 * x * x + 120 * x * x * x) / (b * b)};
  }
  return {0.0, 0.0, 0.0};
}

int index_of(const planar::Mechanism& m, const std::string& body) { return m.spec().find_body(body); }

}  // namespace

TEST(CamMechanism, FollowerRisesAndReturnsAsItsProgramAtTheCamsSpeed) {
  // R = (e, s0 + s), v = s' w, a = s'' w^2 + s' alpha (the cam speeding up), s0 = sqrt(rp^2 - e^2).
  const planar::Mechanism m = io::load_mechanism(cam_model);
  planar::Workspace ws(m);
  const double s0 = std::sqrt(0.038 * 0.038 - 0.006 * 0.006), w = 20 * M_PI, alpha = 150.0;
  const int follower = index_of(m, "follower");
  double worst_s = 0, worst_v = 0, worst_a = 0;
  for (int k = 0; k < 720; ++k) {
    const double theta = k * 0.5 * deg + 0.1 * deg;
    ws.q[0] = theta, ws.qd[0] = w, ws.qdd[0] = alpha;
    ASSERT_TRUE(planar::solve_kinematics(m, ws).ok()) << theta / deg;
    const Program p = program(theta);
    const planar::BodyState& f = ws.body[follower];
    worst_s = std::max(worst_s, std::abs(f.r.y() - (s0 + p.s)) + std::abs(f.r.x() - 0.006));
    worst_v = std::max(worst_v, std::abs(f.v.y() - p.ds * w));
    worst_a = std::max(worst_a, std::abs(f.a.y() - (p.d2s * w * w + p.ds * alpha)));
  }
  std::printf(
      "cam follower over a turn: |s - program| %.1e m, |v - s' w| %.1e m/s, |a - (s'' w^2 + s' alpha)| %.1e m/s^2\n",
      worst_s, worst_v, worst_a);
  EXPECT_LT(worst_s, 1e-14);
  EXPECT_LT(worst_v, 1e-12);
  EXPECT_LT(worst_a, 1e-9);
}

TEST(CamMechanism, ContactForceLeansByThePressureAngleAndTheTorqueIsVirtualWorks) {
  // The contact force on the follower along the common normal, tan(phi) = (s' - e) / (s0 + s)
  // from the guide's line; its vertical part carries the spring, the weight and the follower's
  // inertia, its horizontal part is the guide's side thrust; the cam's torque times w is the
  // rate of the follower's energy (the cam turning steadily, its own energy constant).
  const planar::Mechanism m = io::load_mechanism(cam_model);
  planar::Workspace ws(m);
  const double s0 = std::sqrt(0.038 * 0.038 - 0.006 * 0.006), w = 20 * M_PI, mass = 0.25, k = 2000.0;
  const int follower = index_of(m, "follower"), lobe = m.spec().find_joint("lobe"),
            guide = m.spec().find_joint("guide");
  double worst_angle = 0, worst_vertical = 0, worst_thrust = 0, worst_power = 0, largest = 0;
  for (int j = 0; j < 720; ++j) {
    const double theta = j * 0.5 * deg + 0.1 * deg;
    ws.q[0] = theta, ws.qd[0] = w, ws.qdd[0] = 0.0;
    ASSERT_TRUE(planar::solve_kinematics(m, ws).ok());
    (void)planar::solve_kinetostatics(m, ws, 0.0, {});
    const Program p = program(theta);
    const Vec2 F = ws.reaction[lobe].force;  // the cam on the follower
    const double phi = std::atan((p.ds - 0.006) / (s0 + p.s));
    worst_angle = std::max(worst_angle, std::abs(std::atan2(-F.x(), F.y()) - phi));
    const planar::BodyState& f = ws.body[follower];
    // The spring pushes the follower down by k (L0 - L), L = 0.2 - (T_y): T 0.06 above R.
    const double spring = k * (0.16 - (0.2 - (f.r.y() + 0.06)));
    worst_vertical = std::max(worst_vertical, std::abs(F.y() - (mass * f.a.y() + mass * 9.81 + spring)));
    worst_thrust = std::max(worst_thrust, std::abs((ws.reaction[guide].force + F).x()));
    const double energy_rate = mass * f.a.y() * f.v.y() + mass * 9.81 * f.v.y() + spring * f.v.y();
    worst_power = std::max(worst_power, std::abs(ws.effort[0] * w - energy_rate));
    largest = std::max(largest, std::abs(F.norm()));
    EXPECT_NEAR(ws.reaction[lobe].normal, F.norm(), 1e-9 * F.norm());  // compressed: it touches
  }
  std::printf(
      "cam contact: force up to %.6g N; |direction - pressure angle| %.1e rad, |vertical balance| %.1e N, |side "
      "thrust| %.1e N, |T w - energy rate| %.1e W\n",
      largest, worst_angle, worst_vertical, worst_thrust, worst_power);
  EXPECT_GT(largest, 100.0);
  EXPECT_LT(worst_angle, 1e-12);
  EXPECT_LT(worst_vertical, 1e-9 * largest);
  EXPECT_LT(worst_thrust, 1e-9 * largest);
  EXPECT_LT(worst_power, 1e-9 * largest * 0.1 * w);
}

TEST(CamMechanism, BadInputNamesTheLineTheCamAndTheFix) {
  struct Case {
    std::string from, to;               // the edit of the model
    std::vector<std::string> expected;  // what its message must say
  };
  const std::vector<Case> cases{
      {"bodies: [cam, follower]", "bodies: [ground, follower]", {"joint 'lobe'", "must turn on a revolute joint"}},
      {"{dwell: 60 deg}", "{dwell: 50 deg}", {"m.yaml:", "span 350 deg, not one turn"}},
      {"{return: 10 mm, over: 140 deg", "{return: 9 mm, over: 140 deg", {"add up to 0.001, not 0"}},
      {"curve: 3-4-5", "curve: parabolic", {"unknown curve 'parabolic'", "modified_trapezoid"}},
      {"roller_radius: 8 mm", "roller_radius: 8 mm\n    side: left", {"a translating follower has no side"}},
      // A knife edge on a 5 mm base circle cannot reach a guide 6 mm off the cam's centre.
      {"roller_radius: 8 mm\n    base_radius: 30 mm",
       "base_radius: 5 mm",
       {"no cam can be made", "does not reach the guide's line at offset 0.006 m"}},
      {"bodies: [cam, follower]\n    follower_point: R",
       "bodies: [cam, follower]\n    follower_point: Q",
       {"body 'follower' has no point 'Q'"}},
      {"roller_radius: 8 mm", "roller_radius: 8 mm\n    turning: backwards", {"unknown turning 'backwards'"}},
      {"roller_radius: 8 mm",
       "roller_radius: 8 mm\n    friction: {coefficient: 0.1}",
       {"m.yaml:", "joint 'lobe'", "its friction acts in its pin", "radius: 4 mm"}},
      {"roller_radius: 8 mm",
       "roller_radius: 8 mm\n    friction: {coefficient: 0.1, radius: 9 mm}",
       {"pin radius 0.009 m is not below the roller's 0.008 m"}},
  };
  for (const Case& c : cases) {
    std::string text = test::read_text(cam_model);
    ASSERT_NE(text.find(c.from), std::string::npos) << c.from;
    text.replace(text.find(c.from), c.from.size(), c.to);
    std::string message;
    try {
      (void)io::parse_model(text, "m.yaml");
    } catch (const InputError& e) {
      message = e.what();
    }
    for (const std::string& part : c.expected) EXPECT_NE(message.find(part), std::string::npos) << message;
  }
}

TEST(CamMechanism, AnOscillatingRollerFollowsItsProgramOnItsSideForEitherTurning) {
  // tests/data/cam-rocker.yaml, without an assembly hint: the rocker's angle is its start's less
  // side x s(program angle), the program read in the cam's running direction, the roller on its
  // declared side of the line from O to the pivot, at the prime circle's radius at s = 0.
  const std::string model = std::string(LINKDYN_TEST_DATA_DIR) + "/cam-rocker.yaml";
  for (const bool clockwise : {false, true}) {
    for (const int side : {1, -1}) {
      std::string text = test::read_text(model);
      text.replace(
          text.find("side: left"), 10,
          std::string(side > 0 ? "side: left" : "side: right") + (clockwise ? "\n    turning: clockwise" : ""));
      const planar::Mechanism m = planar::compile(io::parse_model(text, model).mechanism);
      planar::Workspace ws(m);
      const int rocker = index_of(m, "rocker");
      double start = 0.0, worst = 0.0;
      for (int k = 0; k <= 72; ++k) {
        const double cam = (clockwise ? -1.0 : 1.0) * k * 5 * deg;
        ws.q[0] = cam, ws.qd[0] = 0.0, ws.qdd[0] = 0.0;
        ASSERT_TRUE(planar::solve_kinematics(m, ws).ok()) << cam / deg;
        const planar::BodyState& r = ws.body[rocker];
        if (k == 0) {
          start = r.theta;
          const Vec2 R = r.position(Vec2(-0.06, 0.0));
          EXPECT_NEAR(R.norm(), 0.038, 1e-12);
          EXPECT_GT(side * R.y(), 0.0) << "the roller on its side";
        }
        // The program of cam-roller.yaml's shape, 12 deg: the same closed forms, scaled.
        const double s = program(clockwise ? -cam : cam).s * (12 * deg / 0.010);
        worst = std::max(worst, std::abs(std::remainder(r.theta - (start - side * s), 2 * M_PI)));
      }
      std::printf("rocker, %s, %s: |angle - (start - side s)| %.1e rad\n", clockwise ? "clockwise" : "counterclockwise",
                  side > 0 ? "left" : "right", worst);
      EXPECT_LT(worst, 1e-13);
    }
  }
}

TEST(CamMechanism, KinematicsColumnsAndDesignNumbersAreTheProgramsClosedForms) {
  // The cam at 600 rpm: the columns s, v = s' w, a = s'' w^2, jerk = s''' w^3, the pressure angle
  // tan(phi) = (s' - e) / (s0 + s) and the profile's radius rho_pitch - r_roller, where the pitch
  // curve's radius is |C'|^3 / (C' x C''), C = R(-theta) (e, s0 + s) (Uicker, Pennock and Shigley,
  // Sect. 6.9); the design numbers are their extremes (the rise's peaks on the 1 deg grid).
  const planar::Mechanism m = io::load_mechanism(cam_model);
  const planar::KinematicsResult k = planar::kinematics(m, m.default_grid());
  ASSERT_EQ(k.cam.cols(), planar::KinematicsResult::cam_columns);
  const double s0 = std::sqrt(0.038 * 0.038 - 0.006 * 0.006), e = 0.006, w = 20 * M_PI, h = 0.010, b = 120 * deg;
  double worst[6] = {0, 0, 0, 0, 0, 0};
  for (Eigen::Index row = 0; row < k.rows(); ++row) {
    const double theta = k.q(row, 0);
    const Program p = program(theta);
    // The jerk of the rise only (its closed form here): h (2 pi)^2 cos(2 pi x) / b^3.
    const double x = std::fmod(theta, 2 * M_PI) / b;
    const double d3s = x > 0.0 && x < 1.0 ? h * 4 * M_PI * M_PI * std::cos(2 * M_PI * x) / (b * b * b) : NAN;
    // The pitch curve C(theta) = R(-theta) P, P = (e, s0 + s): C' = R(-theta)(P' - J P),
    // C'' = R(-theta)(P'' - 2 J P' - P); |C'|^3 / (C' x C'') in the follower's frame.
    const Vec2 P{e, s0 + p.s}, dP{0, p.ds}, d2P{0, p.d2s};
    const Vec2 T = dP - perp(P), U = d2P - 2.0 * perp(dP) - P;
    const double rho = -std::pow(T.norm(), 3) / cross(T, U) - 0.008;
    const double expected[6] = {p.s, p.ds * w, p.d2s * w * w, d3s * w * w * w, std::atan((p.ds - e) / (s0 + p.s)), rho};
    const double scale[6] = {h, h / b * w, h / (b * b) * w * w, h / (b * b * b) * w * w * w, 1.0, 0.03};
    for (int c = 0; c < 6; ++c)
      if (std::isfinite(expected[c])) worst[c] = std::max(worst[c], std::abs(k.cam(row, c) - expected[c]) / scale[c]);
  }
  std::printf("cam columns against the closed forms (relative): s %.1e v %.1e a %.1e jerk %.1e phi %.1e rho %.1e\n",
              worst[0], worst[1], worst[2], worst[3], worst[4], worst[5]);
  for (const double error : worst) EXPECT_LT(error, 1e-12);
  const planar::DesignNumbers d = planar::design_numbers(m, k);
  ASSERT_EQ(d.cams.size(), 1u);
  const planar::CamNumbers& n = d.cams[0];
  EXPECT_EQ(n.joint, "lobe");
  EXPECT_NEAR(n.lift, h, 1e-15);
  EXPECT_NEAR(n.v_max, 2 * h / b * w, 1e-12);                                    // the cycloid's peak, at 60 deg
  EXPECT_NEAR(n.a_max, 2 * M_PI * h / (b * b) * w * w, 1e-10);                   // at 30 deg
  EXPECT_NEAR(n.a_min, -2 * M_PI * h / (b * b) * w * w, 1e-10);                  // at 90 deg
  EXPECT_NEAR(n.jerk_max, 4 * M_PI * M_PI * h / (b * b * b) * w * w * w, 1e-6);  // the rise's ends
  EXPECT_GT(n.pressure_angle_max, 10 * deg);
  EXPECT_LT(n.pressure_angle_max, n.pressure_angle_limit());
  EXPECT_GT(n.convex_radius_min, 0.0);
}

TEST(CamMechanism, FrictionAtAKnifeEdgeAndInARollersPinIsTheirClosedForm) {
  // The follower on a frictionless guide carries W = m a + m g + spring along it. The contact
  // force on it is N n + T t, n at the pressure angle phi, tan(phi) = (s' - e) / (s0 + s), t
  // along the follower's motion over the cam, (cos phi, sin phi):
  //   knife edge sliding:   |T| = f N,                            slip speed w sqrt((s0+s)^2 + (s'-e)^2)
  //   roller, pin radius r: |T| = mu N / sqrt(1 - mu^2), mu = f r / r_roller (the pin carries
  //                         |F| = sqrt(N^2 + T^2)), the contact point's slip w (sqrt(..) - r_roller)
  // so N (cos phi - (|T| / N) sin phi) = W, and the cam's torque by power, M w = W s' w + |T| slip.
  struct Case {
    const char* name;
    std::string from, to;
    double rim, mu;  // the contact point below the follower's point; |T| / N
  };
  const double f = 0.15, pin = 0.004, roller = 0.008, lever = f * pin / roller;
  const std::vector<Case> cases{
      {"knife edge", "roller_radius: 8 mm", "friction: {coefficient: 0.15}", 0.0, f},
      {"roller", "roller_radius: 8 mm", "roller_radius: 8 mm\n    friction: {coefficient: 0.15, radius: 4 mm}", roller,
       lever / std::sqrt(1.0 - lever * lever)},
  };
  for (const Case& c : cases) {
    std::string text = test::read_text(cam_model);
    text.replace(text.find(c.from), c.from.size(), c.to);
    const planar::Mechanism m = planar::compile(io::parse_model(text, "m.yaml").mechanism);
    ASSERT_EQ(m.bearings().size(), 1u) << c.name;
    planar::Workspace ws(m);
    const double e = 0.006, s0 = std::sqrt(std::pow(0.030 + c.rim, 2) - e * e), w = 20 * M_PI, mass = 0.25;
    const int follower = index_of(m, "follower"), lobe = m.spec().find_joint("lobe");
    planar::KinetostaticsOptions options;
    options.tolerance = 1e-11;
    double worst_normal = 0, worst_torque = 0, worst_loss = 0, largest = 0, least = INFINITY;
    for (int j = 0; j < 360; ++j) {
      const double theta = j * deg + 0.1 * deg;
      ws.q[0] = theta, ws.qd[0] = w, ws.qdd[0] = 0.0;
      ASSERT_TRUE(planar::solve_kinematics(m, ws).ok());
      ASSERT_TRUE(planar::solve_kinetostatics(m, ws, 0.0, options).converged) << c.name << " " << theta / deg;
      const Program p = program(theta);
      const planar::BodyState& b = ws.body[follower];
      const double spring = 2000.0 * (0.16 - (0.2 - (b.r.y() + 0.06)));
      const double W = mass * (b.a.y() + 9.81) + spring;
      const double phi = std::atan((p.ds - e) / (s0 + p.s)), slip = std::hypot(s0 + p.s, p.ds - e) - c.rim;
      const double N = W / (std::cos(phi) - c.mu * std::sin(phi));
      const double torque = W * p.ds + c.mu * N * slip;
      worst_normal = std::max(worst_normal, std::abs(ws.reaction[lobe].normal - N));
      worst_torque = std::max(worst_torque, std::abs(ws.effort[0] - torque));
      // The pair's friction power is the loss |T| slip w.
      worst_loss = std::max(worst_loss, std::abs(planar::friction_power(m, ws, lobe) - c.mu * N * slip * w));
      largest = std::max(largest, N), least = std::min(least, N);
    }
    std::printf(
        "cam friction, %s: N %.4g..%.4g N; |N - closed form| %.1e N, |M - closed form| %.1e N m, |loss| %.1e W\n",
        c.name, least, largest, worst_normal, worst_torque, worst_loss);
    EXPECT_GT(least, 0.0) << c.name;  // the closed form takes the follower on the cam
    EXPECT_LT(worst_normal, 1e-9 * largest) << c.name;
    EXPECT_LT(worst_torque, 1e-9 * largest * 0.04) << c.name;
    EXPECT_LT(worst_loss, 1e-9 * largest * 0.04 * w) << c.name;
  }
}

TEST(CamMechanism, TheClosingSpringsLeastPreloadIsItsClosedFormAndHoldsTheFollowerJustOn) {
  // At 3000 rpm the spring of cam-roller.yaml is too weak: the contact force N = W / cos(phi),
  // W = m (a + g) + F the load along the guide, F the spring's push. More push dF raises W by
  // dF: the least push that keeps N >= 0 is F + max(-W) over the turn. Its free length made
  // longer by max(-W) / k, the least contact force over the turn is 0.
  std::string text = test::read_text(cam_model);
  text.replace(text.find("speed: 600 rpm"), 14, "speed: 3000 rpm");
  const double s0 = std::sqrt(0.038 * 0.038 - 0.006 * 0.006), w = 100 * M_PI, mass = 0.25, k = 2000.0;
  const auto push = [&](double s, double free) { return k * (free - (0.2 - (s0 + s + 0.06))); };
  const planar::Mechanism m = planar::compile(io::parse_model(text, "m.yaml").mechanism);
  const planar::KinetostaticsResult r = planar::kinetostatics(m, m.default_grid(), {});
  ASSERT_EQ(r.summary.closing.size(), 1u);
  const planar::CamClosing& c = r.summary.closing[0];
  double most = -INFINITY;
  for (Eigen::Index row = 0; row < r.t.size(); ++row) {
    const Program p = program(r.q(row, 0));
    most = std::max(most, -(mass * (p.d2s * w * w + 9.81) + push(p.s, 0.16)));
  }
  std::printf("closing spring at 3000 rpm: %.6g N at the base circle, %+.6g N needed (closed form %+.6g N)\n",
              c.base_force, c.extra, most);
  EXPECT_EQ(c.spring, 0);
  EXPECT_TRUE(c.closes);
  EXPECT_EQ(c.sense, -1);  // a compression spring: less tension presses the follower on
  EXPECT_NEAR(c.base_force, push(0.0, 0.16), 1e-9 * push(0.0, 0.16));
  EXPECT_GT(most, 50.0);  // the follower would jump
  EXPECT_NEAR(c.extra, most, 1e-9 * most);
  EXPECT_LT(r.summary.least_contact[static_cast<size_t>(m.spec().find_joint("lobe"))], 0.0);

  const std::string free = "free_length: 0.16";
  char longer[64];
  std::snprintf(longer, sizeof longer, "free_length: %.17g", 0.16 + most / k);
  text.replace(text.find(free), free.size(), longer);
  const planar::Mechanism held = planar::compile(io::parse_model(text, "m.yaml").mechanism);
  const planar::KinetostaticsResult h = planar::kinetostatics(held, held.default_grid(), {});
  const double least = h.summary.least_contact[static_cast<size_t>(held.spec().find_joint("lobe"))];
  std::printf("  the spring made so: least contact force %.2e N; still needed %+.2e N\n", least,
              h.summary.closing[0].extra);
  EXPECT_NEAR(least, 0.0, 1e-9 * most);
  EXPECT_NEAR(h.summary.closing[0].extra, 0.0, 1e-9 * most);
}

namespace {
/// A table's row "theta,s" to the last digit.
std::string row(double theta, double s) {
  char text[64];
  std::snprintf(text, sizeof text, "%.17g,%.17g\n", theta, s);
  return text;
}
/// cam-roller.yaml with its program from `table`.
std::string table_cam_model(const std::string& table, std::string& path) {
  return test::cam_roller_from_table(table, "linkdyn-cam-table", path);
}
}  // namespace

TEST(CamMechanism, AProgramFromATableOfPointsMovesTheFollowerAsItsSplineAndBadTablesAreNamed) {
  // s = h (1 - cos theta) / 2 every 1 deg: the follower at s0 + s and its velocity s' w, to the
  // quintic spline's accuracy; the contact force along the pressure angle's closed form.
  const double h = 0.008, s0 = std::sqrt(0.038 * 0.038 - 0.006 * 0.006), w = 20 * M_PI;
  std::string table = "theta,s\n";
  for (int k = 0; k <= 360; ++k) table += row(k * deg, 0.5 * h * (1 - std::cos(k * deg)));
  std::string path;
  const std::string text = table_cam_model(table, path);
  const planar::Mechanism m = planar::compile(io::parse_model(text, path).mechanism);
  planar::Workspace ws(m);
  const int follower = index_of(m, "follower"), lobe = m.spec().find_joint("lobe");
  double worst_s = 0, worst_v = 0, worst_angle = 0;
  for (int j = 0; j < 720; ++j) {
    const double theta = j * 0.5 * deg + 0.1 * deg;
    ws.q[0] = theta, ws.qd[0] = w, ws.qdd[0] = 0.0;
    ASSERT_TRUE(planar::solve_kinematics(m, ws).ok());
    (void)planar::solve_kinetostatics(m, ws, 0.0, {});
    const double s = 0.5 * h * (1 - std::cos(theta)), ds = 0.5 * h * std::sin(theta);
    worst_s = std::max(worst_s, std::abs(ws.body[follower].r.y() - (s0 + s)));
    worst_v = std::max(worst_v, std::abs(ws.body[follower].v.y() - ds * w));
    const Vec2 F = ws.reaction[lobe].force;
    worst_angle = std::max(worst_angle, std::abs(std::atan2(-F.x(), F.y()) - std::atan((ds - 0.006) / (s0 + s))));
  }
  std::printf("cam from a table: |s - closed form| %.1e m, |v| %.1e m/s, |pressure angle| %.1e rad\n", worst_s, worst_v,
              worst_angle);
  EXPECT_LT(worst_s, 1e-14);
  EXPECT_LT(worst_v, 1e-10);
  EXPECT_LT(worst_angle, 1e-10);

  // Rows every 30 deg but one; rows that end at 2 pi away from the start; a row below the base circle.
  std::string uneven = "theta,s\n", open = "theta,s\n";
  for (int k = 0; k < 12; ++k) uneven += row(k * 30 * deg + (k == 5 ? 0.01 : 0.0), 0.0);
  for (int k = 0; k <= 12; ++k) open += row(k * 30 * deg, k == 12 ? 0.001 : 0.0);
  std::string short_turn = "theta,s\n";
  for (int k = 0; k < 11; ++k) short_turn += row(k * 30 * deg, 0.0);
  std::string below = "theta,s\n";
  for (int k = 0; k < 12; ++k) below += row(k * 30 * deg, k == 3 ? -0.001 : 0.002 * k);
  struct Case {
    std::string table;
    std::vector<std::string> expected;
  };
  const std::vector<Case> cases{
      {uneven, {"lift.csv:7", "not evenly spaced"}},
      {open, {"lift.csv:14", "not the first row's"}},
      {short_turn, {"lift.csv:12", "11 rows every 0.523598776 rad end at 5.23598776 rad: they do not make one turn"}},
      {below, {"lift.csv:5", "s = -0.001 is below 0, the base circle", "least value is 0"}},
      {"theta,s\n0,0\n0.1,0\n0.25,0\n", {"lift.csv:4", "fewer than"}},
      {"theta,lift\n0,0\n", {"lift.csv:1", "the header is 'theta,lift'", "theta,s"}},
      {"theta,s\n0.1,0\n0.2,0\n", {"lift.csv:2", "the first angle is 0.1 rad, not 0"}},
  };
  for (const Case& c : cases) {
    std::string bad_path;
    const std::string bad = table_cam_model(c.table, bad_path);
    std::string message;
    try {
      (void)io::parse_model(bad, bad_path);
    } catch (const InputError& e) {
      message = e.what();
    }
    for (const std::string& part : c.expected) EXPECT_NE(message.find(part), std::string::npos) << message;
  }
}

TEST(CamMechanism, TheLeastPreloadWithTheContactsFrictionIsStillMinusTheLeastGuideLoad) {
  // A knife edge sliding with f = 0.15 at 3000 rpm: N = W / (cos phi - f sin phi), the
  // denominator positive, so N >= 0 wherever W + dF >= 0: the least extra push is max(-W) as
  // without friction (the contact's friction grows with N: held fixed, it would give
  // -W cos phi / (cos phi - f sin phi)).
  std::string text = test::read_text(cam_model);
  text.replace(text.find("speed: 600 rpm"), 14, "speed: 3000 rpm");
  text.replace(text.find("roller_radius: 8 mm"), 19, "friction: {coefficient: 0.15}");
  const double s0 = std::sqrt(0.030 * 0.030 - 0.006 * 0.006), w = 100 * M_PI, mass = 0.25, k = 2000.0;
  const planar::Mechanism m = planar::compile(io::parse_model(text, "m.yaml").mechanism);
  planar::KinetostaticsOptions options;
  options.tolerance = 1e-11;
  const planar::KinetostaticsResult r = planar::kinetostatics(m, m.default_grid(), options);
  double most = -INFINITY;
  for (Eigen::Index row = 0; row < r.t.size(); ++row) {
    const Program p = program(r.q(row, 0));
    most = std::max(most, -(mass * (p.d2s * w * w + 9.81) + k * (0.16 - (0.2 - (s0 + p.s + 0.06)))));
  }
  const planar::CamClosing& c = r.summary.closing[0];
  std::printf("closing spring with the knife edge's friction: %+.9g N needed (closed form %+.9g N)\n", c.extra, most);
  EXPECT_GT(most, 50.0);
  EXPECT_NEAR(c.extra, most, 1e-9 * most);
}
