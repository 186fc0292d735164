// Compound pins (one revolute joint of three or more bodies) against an independent
// formulation: the constrained body-coordinate model (x, y, theta per body) written here from
// the model description alone, each pin as k - 1 two-body coincidence constraints chained
// member to member (linkdyn's structure finder makes a different tree), all constraints and
// the driver's solved together: positions by Newton's method, rates from the constraint
// Jacobian, the reactions and the driver torque from the square equilibrium system, friction by
// successive approximations on that system. Three mechanisms: the toggle press (the pin is a
// dyad's inner joint and another's outer joint), a crank whose tip pin carries two links, and a
// ground pin shared by the driven crank and a rocker.
#include <gtest/gtest.h>

#include <Eigen/Dense>
#include <algorithm>
#include <cmath>

#include "linkdyn/planar/groups/group.hpp"
#include "linkdyn/planar/kinetostatics.hpp"
#include "test_support.hpp"

using namespace linkdyn;
using namespace linkdyn::planar;

namespace {

std::string test_model(const std::string& name) { return std::string(LINKDYN_TEST_DATA_DIR) + "/" + name + ".yaml"; }

struct Case {
  std::string path;
  std::string structure;
};
const std::vector<Case>& compound_cases() {
  static const std::vector<Case> cases{
      {test::example("toggle-press"), "R_I(0,1) -> RRR_II(2,3) -> RRP_II(4,5)"},
      {test_model("compound-crank-tip"), "R_I(0,1) -> RRR_II(2,3) -> RRP_II(4,5)"},
      {test_model("compound-ground-pin"), "R_I(0,1) -> RRR_II(2,3) -> RRR_II(4,5)"},
  };
  return cases;
}

double sgn(double x) { return x > 0.0 ? 1.0 : (x < 0.0 ? -1.0 : 0.0); }
Vec2 rot(double theta, const Vec2& p) {
  return {std::cos(theta) * p.x() - std::sin(theta) * p.y(), std::sin(theta) * p.x() + std::cos(theta) * p.y()};
}
Vec2 perpendicular(const Vec2& v) { return {-v.y(), v.x()}; }
double cross2(const Vec2& a, const Vec2& b) { return a.x() * b.y() - a.y() * b.x(); }

/// The constrained body-coordinate model of a mechanism, built from its description only.
class BodyCoordinates {
 public:
  /// A constraint: two bodies at a point (2 rows), a slider on a ground guide (2 rows: its angle,
  /// then its point on the line), or the driven angle (1 row).
  struct Constraint {
    enum Kind { coincide, ground_guide, driven_angle } kind = coincide;
    int a = 0, b = 0;  // coincide: bodies a, b; ground_guide and driven_angle: body b
    Vec2 pa = Vec2::Zero(), pb = Vec2::Zero();
    Vec2 guide_point = Vec2::Zero(), guide_dir = Vec2::UnitX();
    double angle = 0.0, friction = 0.0, radius = 0.0, slider_length = 0.0;
    int pin = -1;  // coincide: the compound pin it belongs to
    int row = 0;
  };

  explicit BodyCoordinates(const MechanismSpec& spec) : spec_(spec), n_(static_cast<int>(spec.bodies.size()) - 1) {
    for (const Joint& j : spec.joints) {
      Constraint c;
      if (j.is<RevolutePair>()) {
        c = {Constraint::coincide, j.body[0], j.body[1], j.point[0], j.point[1]};
        c.friction = j.friction, c.radius = j.as<RevolutePair>().pin_radius;
      } else {
        EXPECT_EQ(j.type(), JointType::prismatic);
        const PrismaticPair& slide = j.as<PrismaticPair>();
        EXPECT_EQ(j.body[0], 0) << "the test model handles ground guides only";
        c.kind = Constraint::ground_guide;
        c.b = j.body[1], c.pb = j.point[1], c.guide_point = j.point[0], c.guide_dir = slide.guide_dir,
        c.angle = slide.angle_offset;
        c.friction = j.friction, c.slider_length = slide.slider_length;
      }
      add(c);
    }
    for (size_t p = 0; p < spec.pins.size(); ++p) {
      const CompoundPin& pin = spec.pins[p];
      for (size_t k = 1; k < pin.bodies.size(); ++k) {  // a chain: member k - 1 to member k
        Constraint c{Constraint::coincide, pin.bodies[k - 1], pin.bodies[k], pin.points[k - 1], pin.points[k]};
        c.pin = static_cast<int>(p);
        add(c);
      }
    }
    EXPECT_EQ(spec.drivers.size(), 1u);
    const Driver& d = spec.drivers[0];
    Constraint drive;
    drive.kind = Constraint::driven_angle;
    drive.b = d.pin >= 0 ? d.pin_body : spec.joints[d.joint].other(0);
    add(drive);
    driver_row_ = rows_ - 1;
    EXPECT_EQ(rows_, 3 * n_) << "a square system";
    z_.setZero(3 * n_), zd_.setZero(3 * n_), zdd_.setZero(3 * n_), lambda_.setZero(3 * n_);
  }

  int size() const { return 3 * n_; }
  const Eigen::VectorXd& z() const { return z_; }
  const Eigen::VectorXd& zd() const { return zd_; }
  const Eigen::VectorXd& zdd() const { return zdd_; }
  double driver_torque() const { return lambda_(driver_row_); }

  /// Positions by Newton's method on every equation from the pose z0; false if it fails.
  bool solve_positions(const Eigen::VectorXd& z0, double q) {
    z_ = z0;
    for (int it = 0; it < 60; ++it) {
      const Eigen::VectorXd phi = residual(q);
      if (phi.lpNorm<Eigen::Infinity>() < 1e-15 && it > 0) return true;
      const Eigen::VectorXd step = jacobian().fullPivLu().solve(phi);
      z_ -= step;
      if (step.lpNorm<Eigen::Infinity>() < 1e-15) return residual(q).lpNorm<Eigen::Infinity>() < 1e-13;
    }
    return residual(q).lpNorm<Eigen::Infinity>() < 1e-13;
  }
  /// Phi_z zd = (0, ..., qd), Phi_z zdd = gamma.
  void solve_rates(double qd, double qdd) {
    const auto lu = jacobian().fullPivLu();
    Eigen::VectorXd rhs = Eigen::VectorXd::Zero(rows_);
    rhs(driver_row_) = qd;
    zd_ = lu.solve(rhs);
    zdd_ = lu.solve(gamma(qdd));
  }

  /// The reactions and driver torque, frictionless or with friction by successive
  /// approximations; returns the number of iterations.
  int solve_reactions(bool with_friction, double q) {
    const Eigen::MatrixXd JT = jacobian().transpose();
    const auto lu = JT.fullPivLu();
    const Eigen::VectorXd base = external_and_inertial(q);
    lambda_ = lu.solve(-base);
    if (!with_friction) {
      friction_.setZero(3 * n_);
      return 0;
    }
    for (int it = 1; it <= 500; ++it) {
      friction_ = friction_wrenches();
      const Eigen::VectorXd next = lu.solve(-(base + friction_));
      const double change = (next - lambda_).lpNorm<Eigen::Infinity>();
      lambda_ = next;
      if (change <= 1e-14 * lambda_.lpNorm<Eigen::Infinity>()) return it;
    }
    ADD_FAILURE() << "friction iterations did not converge";
    return -1;
  }

  /// The force that compound pin `pin` exerts on its member `member`: the sum of its chain
  /// constraints' forces on that body (force lambda on body a, -lambda on body b).
  Vec2 pin_force(int pin, int member) const {
    const int body = spec_.pins[pin].bodies[member];
    Vec2 f = Vec2::Zero();
    for (const Constraint& c : constraints_) {
      if (c.kind != Constraint::coincide || c.pin != pin) continue;
      const Vec2 l = lambda_.segment<2>(c.row);
      if (c.a == body) f += l;
      if (c.b == body) f -= l;
    }
    return f;
  }

  /// Friction power of every pair and pin (W), of the friction in the last solve.
  double friction_power() const {
    double p = 0.0;
    for (const Constraint& c : constraints_) {
      if (c.kind == Constraint::coincide && c.pin < 0 && c.friction > 0.0)
        p += revolute_friction(c) * -(omega(c.b) - omega(c.a));
      else if (c.kind == Constraint::ground_guide && c.friction > 0.0)
        p += -slider_friction(c) * slider_speed(c);
    }
    for (size_t pin = 0; pin < spec_.pins.size(); ++pin) {
      const CompoundPin& cp = spec_.pins[pin];
      for (size_t k = 1; k < cp.bodies.size(); ++k)
        p += -pin_bearing_friction(static_cast<int>(pin), static_cast<int>(k)) *
             (omega(cp.bodies[k]) - omega(cp.bodies[0]));
    }
    return p;
  }

 private:
  void add(Constraint c) {
    c.row = rows_;
    rows_ += c.kind == Constraint::driven_angle ? 1 : 2;
    constraints_.push_back(c);
  }
  int col(int body) const { return 3 * (body - 1); }
  Vec2 origin(int b) const { return b == 0 ? Vec2::Zero() : Vec2(z_.segment<2>(col(b))); }
  double theta(int b) const { return b == 0 ? 0.0 : z_(col(b) + 2); }
  double omega(int b) const { return b == 0 ? 0.0 : zd_(col(b) + 2); }
  Vec2 velocity(int b) const { return b == 0 ? Vec2::Zero() : Vec2(zd_.segment<2>(col(b))); }
  Vec2 acceleration(int b) const { return b == 0 ? Vec2::Zero() : Vec2(zdd_.segment<2>(col(b))); }
  double alpha(int b) const { return b == 0 ? 0.0 : zdd_(col(b) + 2); }
  Vec2 arm(int b, const Vec2& local) const { return rot(theta(b), local); }
  Vec2 point_velocity(int b, const Vec2& local) const { return velocity(b) + omega(b) * perpendicular(arm(b, local)); }
  Vec2 point_acceleration(int b, const Vec2& local) const {
    return acceleration(b) + alpha(b) * perpendicular(arm(b, local)) - omega(b) * omega(b) * arm(b, local);
  }

  Eigen::VectorXd residual(double q) const {
    Eigen::VectorXd phi(rows_);
    for (const Constraint& c : constraints_) {
      switch (c.kind) {
        case Constraint::coincide:  // r_a + A_a p_a - r_b - A_b p_b
          phi.segment<2>(c.row) = origin(c.a) + arm(c.a, c.pa) - origin(c.b) - arm(c.b, c.pb);
          break;
        case Constraint::ground_guide:  // theta_b - angle; n . (r_b + A_b p_b - G)
          phi(c.row) = theta(c.b) - c.angle;
          phi(c.row + 1) = perpendicular(c.guide_dir).dot(origin(c.b) + arm(c.b, c.pb) - c.guide_point);
          break;
        case Constraint::driven_angle: phi(c.row) = theta(c.b) - q; break;
      }
    }
    return phi;
  }

  Eigen::MatrixXd jacobian() const {
    Eigen::MatrixXd J = Eigen::MatrixXd::Zero(rows_, 3 * n_);
    for (const Constraint& c : constraints_) {
      switch (c.kind) {
        case Constraint::coincide:
          if (c.a != 0) {
            J.block<2, 2>(c.row, col(c.a)).setIdentity();
            J.block<2, 1>(c.row, col(c.a) + 2) = perpendicular(arm(c.a, c.pa));
          }
          if (c.b != 0) {
            J.block<2, 2>(c.row, col(c.b)) = -Eigen::Matrix2d::Identity();
            J.block<2, 1>(c.row, col(c.b) + 2) = -perpendicular(arm(c.b, c.pb));
          }
          break;
        case Constraint::ground_guide: {
          const Vec2 n = perpendicular(c.guide_dir);
          J(c.row, col(c.b) + 2) = 1.0;
          J.block<1, 2>(c.row + 1, col(c.b)) = n.transpose();
          J(c.row + 1, col(c.b) + 2) = n.dot(perpendicular(arm(c.b, c.pb)));
          break;
        }
        case Constraint::driven_angle: J(c.row, col(c.b) + 2) = 1.0; break;
      }
    }
    return J;
  }

  /// Phi_z zdd = gamma: the terms of the second derivative that do not hold zdd.
  Eigen::VectorXd gamma(double qdd) const {
    Eigen::VectorXd g = Eigen::VectorXd::Zero(rows_);
    for (const Constraint& c : constraints_) {
      switch (c.kind) {
        case Constraint::coincide:
          g.segment<2>(c.row) = omega(c.a) * omega(c.a) * arm(c.a, c.pa) - omega(c.b) * omega(c.b) * arm(c.b, c.pb);
          break;
        case Constraint::ground_guide:
          g(c.row + 1) = omega(c.b) * omega(c.b) * perpendicular(c.guide_dir).dot(arm(c.b, c.pb));
          break;
        case Constraint::driven_angle: g(c.row) = qdd; break;
      }
    }
    return g;
  }

  /// Wrench (Fx, Fy, moment about the body frame's origin) of a force at a body's local point.
  Eigen::Vector3d wrench(int b, const Vec2& local, const Vec2& F) const {
    return {F.x(), F.y(), cross2(arm(b, local), F)};
  }

  /// Gravity, the model's forces and moments, and D'Alembert's inertial loads, per body.
  Eigen::VectorXd external_and_inertial(double q) const {
    Eigen::VectorXd Q = Eigen::VectorXd::Zero(3 * n_);
    for (int b = 1; b <= n_; ++b) {
      const Body& body = spec_.bodies[b];
      const Vec2 F = body.mass * (spec_.gravity - point_acceleration(b, body.com));
      Q.segment<3>(col(b)) += wrench(b, body.com, F) - Eigen::Vector3d(0, 0, body.inertia * alpha(b));
    }
    for (const Load& l : spec_.loads) {
      const bool force = l.is<PointForce>();
      if (!force && !l.is<BodyMoment>()) ADD_FAILURE() << "the test model handles forces and moments only";
      Vec2 value = force ? l.as<PointForce>().value : Vec2(l.as<BodyMoment>().value, 0.0);
      if (l.table) {  // linear in the driver coordinate between rows
        EXPECT_TRUE(l.table->against.is<Coordinate::DriverValue>());
        EXPECT_EQ(l.table->against.as<Coordinate::DriverValue>().driver, 0);
        const std::vector<double>& x = l.table->x;
        const size_t k = std::clamp<size_t>(std::upper_bound(x.begin(), x.end(), q) - x.begin(), 1, x.size() - 1);
        const double s = (q - x[k - 1]) / (x[k] - x[k - 1]);
        value = (1 - s) * l.table->value[k - 1] + s * l.table->value[k];
      }
      if (force)
        Q.segment<3>(col(l.as<PointForce>().at.body)) +=
            wrench(l.as<PointForce>().at.body, l.as<PointForce>().at.local, value);
      else
        Q(col(l.as<BodyMoment>().body) + 2) += value.x();
    }
    return Q;
  }

  // Friction: revolute pairs M = -sgn(omega_b - omega_a) f' r |F| on b; sliders F = -sgn(v) f N.
  double revolute_friction(const Constraint& c) const {
    return -sgn(omega(c.b) - omega(c.a)) * c.friction * c.radius * Vec2(lambda_.segment<2>(c.row)).norm();
  }
  double slider_speed(const Constraint& c) const { return c.guide_dir.dot(point_velocity(c.b, c.pb)); }
  double slider_friction(const Constraint& c) const {
    const double N = lambda_(c.row + 1), M = lambda_(c.row);  // normal force at the slider point, moment
    const double load = c.slider_length > 0.0
                            ? std::abs(N / 2 - M / c.slider_length) + std::abs(N / 2 + M / c.slider_length)
                            : std::abs(N);
    return -sgn(slider_speed(c)) * c.friction * load;
  }
  /// A compound pin fixed in its first member: the bearing of member k.
  double pin_bearing_friction(int pin, int k) const {
    const CompoundPin& p = spec_.pins[pin];
    return -sgn(omega(p.bodies[k]) - omega(p.bodies[0])) * p.friction * p.pin_radius * pin_force(pin, k).norm();
  }

  Eigen::VectorXd friction_wrenches() const {
    Eigen::VectorXd Q = Eigen::VectorXd::Zero(3 * n_);
    auto moment = [&](int b, double M) {
      if (b != 0) Q(col(b) + 2) += M;
    };
    for (const Constraint& c : constraints_) {
      if (c.kind == Constraint::coincide && c.pin < 0 && c.friction > 0.0) {
        const double M = revolute_friction(c);
        moment(c.b, M);
        moment(c.a, -M);
      } else if (c.kind == Constraint::ground_guide && c.friction > 0.0) {
        Q.segment<3>(col(c.b)) += wrench(c.b, c.pb, slider_friction(c) * c.guide_dir);
      }
    }
    for (size_t pin = 0; pin < spec_.pins.size(); ++pin) {
      const CompoundPin& p = spec_.pins[pin];
      for (size_t k = 1; k < p.bodies.size(); ++k) {
        const double M = pin_bearing_friction(static_cast<int>(pin), static_cast<int>(k));
        moment(p.bodies[k], M);
        moment(p.bodies[0], -M);
      }
    }
    return Q;
  }

  const MechanismSpec& spec_;
  int n_;
  int rows_ = 0, driver_row_ = 0;
  std::vector<Constraint> constraints_;
  Eigen::VectorXd z_, zd_, zdd_, lambda_, friction_;
};

/// The body coordinates of linkdyn's workspace, in the same order.
void gather(const Workspace& ws, Eigen::VectorXd& z, Eigen::VectorXd& zd, Eigen::VectorXd& zdd) {
  const int n = static_cast<int>(ws.body.size()) - 1;
  z.resize(3 * n), zd.resize(3 * n), zdd.resize(3 * n);
  for (int b = 1; b <= n; ++b) {
    const BodyState& s = ws.body[b];
    z.segment<3>(3 * (b - 1)) << s.r.x(), s.r.y(), s.theta;
    zd.segment<3>(3 * (b - 1)) << s.v.x(), s.v.y(), s.omega;
    zdd.segment<3>(3 * (b - 1)) << s.a.x(), s.a.y(), s.alpha;
  }
}

/// |a - b| <= rel * max(|a|, |b|) over all entries.
void expect_relative(const Eigen::VectorXd& a, const Eigen::VectorXd& b, double rel, const std::string& what) {
  const double scale = std::max(a.lpNorm<Eigen::Infinity>(), b.lpNorm<Eigen::Infinity>());
  EXPECT_LE((a - b).lpNorm<Eigen::Infinity>(), rel * scale) << what << ": scale " << scale;
}

/// Times of the driver's grid shifted off the grid (no sample at an exact dead centre).
std::vector<double> sample_times(const Mechanism& m, int samples) {
  const TimeGrid g = m.default_grid();
  std::vector<double> t;
  for (int k = 0; k < samples; ++k) t.push_back(g.t0 + (k + 0.37) * (g.t_end - g.t0) / samples);
  return t;
}

}  // namespace

TEST(CompoundPin, StructureStringsAndGrueblerCountKMinusOnePairs) {
  for (const Case& c : compound_cases()) {
    SCOPED_TRACE(c.path);
    const Mechanism m = io::load_mechanism(c.path);
    EXPECT_EQ(m.structure_string(), c.structure);
    EXPECT_EQ(m.dof(), 1);
    ASSERT_EQ(m.pins().size(), 1u);
    // The pin's pairs follow the model's joints: k - 1 of them, a tree over its members.
    const CompoundPin& pin = m.pins()[0];
    ASSERT_EQ(m.joints().size(), m.spec().joints.size() + pin.bodies.size() - 1);
    for (size_t k = 0; k < m.spec().joints.size(); ++k) EXPECT_EQ(m.joints()[k].pin, -1);
    std::vector<int> reached{m.joints()[m.spec().joints.size()].body[0]};
    for (size_t k = m.spec().joints.size(); k < m.joints().size(); ++k) {
      const Joint& pair = m.joints()[k];
      EXPECT_EQ(pair.pin, 0);
      EXPECT_EQ(pair.name, pin.name);
      EXPECT_EQ(pair.friction, 0.0);
      EXPECT_TRUE(std::count(reached.begin(), reached.end(), pair.body[0]) == 1)
          << "pairs grow a tree from placed members";
      EXPECT_TRUE(std::count(reached.begin(), reached.end(), pair.body[1]) == 0);
      reached.push_back(pair.body[1]);
    }
    std::sort(reached.begin(), reached.end());
    std::vector<int> members = pin.bodies;
    std::sort(members.begin(), members.end());
    EXPECT_EQ(reached, members);
  }
}

TEST(CompoundPin, DriverOnAGroundPinTurnsItsMemberAndTheRockerHangsOnTheGround) {
  const Mechanism m = io::load_mechanism(test_model("compound-ground-pin"));
  const int crank = m.spec().find_body("crank"), rocker = m.spec().find_body("rocker");
  const Joint& driven = m.joints()[m.drivers()[0].joint];
  EXPECT_EQ(driven.pin, 0);
  EXPECT_EQ(driven.body[0], 0);
  EXPECT_EQ(driven.body[1], crank);
  EXPECT_EQ(m.drivers()[0].joint, static_cast<int>(m.spec().joints.size()));  // materialised first
  const Joint& other = m.joints().back();
  EXPECT_EQ(other.body[0], 0) << "a placed ground member anchors the pin";
  EXPECT_EQ(other.body[1], rocker);
}

TEST(CompoundPin, ExplicitSequenceWithAPinGivesTheSameStructure) {
  const std::string text = test::read_text(test::example("toggle-press"));
  const Mechanism m = compile(
      io::parse_planar_model(text + "structure: [[rod, upper], [lower, ram]]\n", test::example("toggle-press")));
  EXPECT_EQ(m.structure_string(), "R_I(0,1) -> RRR_II(2,3) -> RRP_II(4,5)");
}

TEST(CompoundPin, KinematicsReactionsAndFrictionAgreeWithTheBodyCoordinateModel) {
  for (const Case& c : compound_cases()) {
    SCOPED_TRACE(c.path);
    const MechanismSpec spec = io::read_planar_model(c.path);
    const Mechanism m = compile(spec);
    BodyCoordinates model(spec);
    Workspace ws(m);
    KinetostaticsOptions tight;
    tight.tolerance = 1e-9;
    tight.max_iterations = 200;
    const int members = static_cast<int>(m.pins()[0].bodies.size());
    std::vector<double> torque, torque_frictionless, friction, torque_ref, torque_frictionless_ref, friction_ref;
    std::vector<double> forces, forces_ref;
    Eigen::VectorXd z, zd, zdd, start;
    bool first = true;
    int checked = 0;
    for (double t : sample_times(m, 48)) {
      set_drivers(m, ws, t);
      ASSERT_TRUE(solve_kinematics(m, ws).ok()) << "t = " << t;
      gather(ws, z, zd, zdd);
      // Newton from a pose 0.02 rad and 5 mm off linkdyn's at the first sample, then from the
      // model's own previous solution.
      if (first)
        start = z + Eigen::VectorXd::Constant(z.size(), 0.005) + 0.015 * Eigen::VectorXd::LinSpaced(z.size(), 0.0, 1.0);
      else
        start = model.z();
      first = false;
      ASSERT_TRUE(model.solve_positions(start, ws.q[0])) << "t = " << t;
      model.solve_rates(ws.qd[0], ws.qdd[0]);
      expect_relative(z, model.z(), 1e-9, "positions");
      expect_relative(zd, model.zd(), 1e-9, "velocities");
      expect_relative(zdd, model.zdd(), 1e-9, "accelerations");

      // Frictionless, then with friction.
      (void)solve_kinetostatics(m, ws, t, {.friction = false});
      model.solve_reactions(false, ws.q[0]);
      torque_frictionless.push_back(ws.effort[0]);
      torque_frictionless_ref.push_back(model.driver_torque());
      const KinetostaticsStatus status = solve_kinetostatics(m, ws, t, tight);
      ASSERT_TRUE(status.converged) << "t = " << t;
      EXPECT_GT(model.solve_reactions(true, ws.q[0]), 0);
      torque.push_back(ws.effort[0]);
      torque_ref.push_back(model.driver_torque());
      friction.push_back(total_friction_power(m, ws));
      friction_ref.push_back(model.friction_power());
      Vec2 sum = Vec2::Zero();
      double largest = 0.0;
      for (int k = 0; k < members; ++k) {
        const Vec2 F = pin_force(m, ws, 0, k), F_ref = model.pin_force(0, k);
        forces.insert(forces.end(), {F.x(), F.y()});
        forces_ref.insert(forces_ref.end(), {F_ref.x(), F_ref.y()});
        sum += F;
        largest = std::max(largest, F.norm());
      }
      EXPECT_LE(sum.norm(), 1e-12 * largest) << "the massless pin's forces sum to zero, t = " << t;
      ++checked;
    }
    EXPECT_EQ(checked, 48);
    auto vec = [](const std::vector<double>& v) {
      return Eigen::Map<const Eigen::VectorXd>(v.data(), static_cast<Eigen::Index>(v.size()));
    };
    expect_relative(vec(torque_frictionless), vec(torque_frictionless_ref), 1e-9, "driver torque without friction");
    expect_relative(vec(torque), vec(torque_ref), 1e-9, "driver torque with friction");
    expect_relative(vec(forces), vec(forces_ref), 1e-9, "forces of the pin on its members");
    expect_relative(vec(friction), vec(friction_ref), 1e-9, "friction power");
    EXPECT_GT(vec(friction).minCoeff(), 0.0);
    // Friction matters here: it changes the torque by more than the tolerance, many times over.
    EXPECT_GT((vec(torque) - vec(torque_frictionless)).lpNorm<Eigen::Infinity>(),
              1e-3 * vec(torque).lpNorm<Eigen::Infinity>());
  }
}

TEST(CompoundPin, TogglePressPowerBalanceWithFrictionOverTheCycle) {
  // Driver power = friction power + rate of kinetic energy - power of the loads (gravity and
  // the forming force), at every position of the sweep.
  const Mechanism m = io::load_mechanism(test::example("toggle-press"));
  Workspace ws(m);
  int checked = 0;
  double worst = 0.0;
  (void)sweep_kinematics(m, ws, m.default_grid(), [&](int, double t, StepStatus s) {
    ASSERT_EQ(s, StepStatus::ok);
    const KinetostaticsStatus status = solve_kinetostatics(m, ws, t);
    EXPECT_TRUE(status.converged);
    double dE = 0.0;
    for (size_t b = 1; b < m.bodies().size(); ++b) {
      const Body& body = m.bodies()[b];
      const BodyState& st = ws.body[b];
      dE += body.mass * st.velocity(body.com).dot(st.acceleration(body.com)) + body.inertia * st.omega * st.alpha;
    }
    const double p_driver = driver_power(m, ws), p_friction = total_friction_power(m, ws),
                 p_loads = load_power(m, ws, t, false);
    const double scale = std::abs(p_driver) + p_friction + std::abs(dE) + std::abs(p_loads);
    EXPECT_NEAR(p_driver, p_friction + dE - p_loads, 1e-9 * scale) << "t = " << t;
    worst = std::max(worst, std::abs(p_driver - (p_friction + dE - p_loads)) / scale);
    ++checked;
  });
  EXPECT_EQ(checked, 721);
  EXPECT_LT(worst, 1e-9);
}

TEST(CompoundPin, KinetostaticsTableHasPerMemberColumnsAndTheSummaryCountsThePin) {
  const Mechanism m = io::load_mechanism(test::example("toggle-press"));
  const KinetostaticsResult s_result = kinetostatics(m, m.default_grid(), {});
  const KinetostaticsSummary& s = s_result.summary;
  const Table table = io::kinetostatics_table(m, s_result);
  ASSERT_EQ(table.rows(), 721u);
  EXPECT_EQ(s.flagged, 0);
  // After the model's joints: K.upper.*, K.lower.*, K.rod.*, K.friction_power.
  const int first = table.column("K.upper.Fx");
  ASSERT_GE(first, 0);
  EXPECT_EQ(table.column("guide.friction_power") + 1, first);
  const char* expected[] = {"K.upper.Fx", "K.upper.Fy", "K.upper.F", "K.lower.Fx",       "K.lower.Fy",    "K.lower.F",
                            "K.rod.Fx",   "K.rod.Fy",   "K.rod.F",   "K.friction_power", "friction.power"};
  for (int k = 0; k < 11; ++k) EXPECT_EQ(table.columns[first + k], expected[k]);
  EXPECT_EQ(table.column("K.Fx"), -1) << "the pin's own pairs have no columns";
  double pin_energy = 0.0, largest = 0.0;
  for (size_t r = 0; r < table.rows(); ++r) {
    double fx = 0.0, fy = 0.0, total = 0.0;
    for (int k = 0; k < 3; ++k) {
      fx += table.at(r, first + 3 * k);
      fy += table.at(r, first + 3 * k + 1);
      largest = std::max(largest, table.at(r, first + 3 * k + 2));
    }
    EXPECT_LE(std::hypot(fx, fy), 1e-12 * largest);
    for (const char* pair : {"A", "B", "O", "R", "guide", "K"})
      total += table.at(r, table.column(std::string(pair) + ".friction_power"));
    EXPECT_NEAR(total, table.at(r, table.column("friction.power")), 1e-12 * (1 + total));
    if (r > 0) {
      const double h = table.at(r, 0) - table.at(r - 1, 0);
      pin_energy += 0.5 * h * (table.at(r, first + 9) + table.at(r - 1, first + 9));
    }
  }
  EXPECT_GT(largest, 9e4);  // the forming force goes through the knuckle
  ASSERT_EQ(s.pin_friction_energy.size(), 1u);
  EXPECT_NEAR(s.pin_friction_energy[0], pin_energy, 1e-12 * pin_energy);
  EXPECT_NEAR(s.pin_max_force[0], largest, 1e-12 * largest);
  // Over one turn the kinetic energy comes back and gravity does no work: the driving work is
  // the forming work plus the friction losses, pins included.
  double joints = 0.0;
  for (double e : s.friction_energy) joints += e;
  EXPECT_NEAR(s.friction_work, joints + s.pin_friction_energy[0], 1e-9 * s.friction_work);
  EXPECT_NEAR(s.driver_work, s.useful_work + s.friction_work,
              1e-9 * s.driver_work);  // trapezoids of periodic integrands
}

TEST(CompoundPin, GenericGroupsAgreeWithTheClosedFormDyadsThroughThePin) {
  for (const Case& c : compound_cases()) {
    SCOPED_TRACE(c.path);
    const MechanismSpec spec = io::read_planar_model(c.path);
    const Mechanism closed = compile(spec), generic = compile(spec, {.force_generic = true});
    for (const auto& g : generic.groups())
      EXPECT_TRUE(g->assur_class() == 1 || g->newton_unknowns() > 0) << "solved by Newton";
    Workspace a(closed), b(generic);
    Eigen::VectorXd za, zda, zdda, zb, zdb, zddb;
    for (double t : sample_times(closed, 12)) {
      for (auto [m, ws] : {std::pair{&closed, &a}, std::pair{&generic, &b}}) {
        set_drivers(*m, *ws, t);
        ASSERT_TRUE(solve_kinematics(*m, *ws).ok());
        (void)solve_kinetostatics(*m, *ws, t, {.tolerance = 1e-9});
      }
      gather(a, za, zda, zdda);
      gather(b, zb, zdb, zddb);
      expect_relative(za, zb, 1e-9, "positions");
      expect_relative(zda, zdb, 1e-9, "velocities");
      expect_relative(zdda, zddb, 1e-9, "accelerations");
      EXPECT_NEAR(a.effort[0], b.effort[0], 1e-9 * std::abs(a.effort[0]) + 1e-12);
      for (size_t k = 0; k < closed.pins()[0].bodies.size(); ++k) {
        const Vec2 Fa = pin_force(closed, a, 0, static_cast<int>(k)),
                   Fb = pin_force(generic, b, 0, static_cast<int>(k));
        EXPECT_LE((Fa - Fb).norm(), 1e-9 * Fa.norm() + 1e-9);
      }
    }
  }
}

TEST(CompoundPin, OnePointPerPinInTheKinematicsTable) {
  const Mechanism m = io::load_mechanism(test::example("toggle-press"));
  int named_k = 0;
  for (const OutputPoint& p : m.output_points()) named_k += p.label == "K";
  EXPECT_EQ(named_k, 1);
  for (const OutputPoint& p : m.output_points()) EXPECT_EQ(p.label.find(".K"), std::string::npos) << p.label;
}

TEST(CompoundPin, CoincidenceGuardPassesEveryAssemblyAndNamesTheJointAndPointsOtherwise) {
  // No model reaches the guard's error: the pin's pairs form a tree over its members, so the
  // groups that place them make the points coincide. Here it is checked on an assembled
  // workspace, and on one whose rod is moved off the pin by hand.
  const Mechanism m = io::load_mechanism(test::example("toggle-press"));
  Workspace ws(m);
  for (double t : sample_times(m, 24)) {
    set_drivers(m, ws, t);
    ASSERT_TRUE(solve_positions(m, ws).ok());
    EXPECT_NO_THROW(check_compound_pins(m, ws));
  }
  ws.body[m.spec().find_body("rod")].r.x() += 1e-3;
  try {
    check_compound_pins(m, ws);
    FAIL() << "a rod 1 mm off the pin passed";
  } catch (const InputError& e) {
    const std::string msg = e.what();
    const std::string text = test::read_text(test::example("toggle-press"));
    const auto at = text.find("\n  K: {type: revolute");
    EXPECT_EQ(e.where().line, 2 + std::count(text.begin(), text.begin() + static_cast<std::ptrdiff_t>(at), '\n'))
        << msg;
    for (const char* f : {"toggle-press.yaml", "joint 'K'", "upper.K and rod.K", "do not coincide", "0.001 m apart"})
      EXPECT_NE(msg.find(f), std::string::npos) << "'" << f << "' not in: " << msg;
  }
}
