#pragma once
// The right-hand side of the machine's equations of motion, by the reduced, full or Kane
// method, on locked branches (the friction directions, the actuators' conditions and the
// motors' power directions held fixed over a step, so that every step integrates a smooth
// function; their changes are the integrator's events). The state y is laid out as
// state_layout.hpp says: q (n), qd (n), the DC motors' currents, the elastic links' eta and eta'.
#include <array>
#include <algorithm>
#include <cmath>
#include <memory>
#include <vector>

#include "linkdyn/dynamics/simulate.hpp"

namespace linkdyn::dynamics {

/// -1, 0 or 1: the branch of a value.
inline double sign(double x) { return x > 0.0 ? 1.0 : (x < 0.0 ? -1.0 : 0.0); }

/// The locked branches.
struct Branches {
  std::vector<double> coulomb;  ///< per Coulomb element: the sign of its speed (friction opposes it)
  std::vector<double> when;     ///< per actuator: the sign of its condition body's omega
  std::vector<double> motor;    ///< per actuator: the sign of a DC motor's power (motor or brake)
  /// Per load, then per actuator (a cylinder's force table), then per cam pair (its program):
  /// the segment of its table (the piece of its program) held (planar::no_segment: none or not
  /// yet).
  std::vector<int> segment;
  /// Per Coulomb element: the signs of a prismatic pair's normal loads (N, or N1 and N2) held,
  /// 0 where none yet.
  std::vector<std::array<double, 2>> normal;
  bool stuck = false;  ///< one DOF at rest, held by static friction
  /// Several DOF, per Coulomb element: held at rest by static friction while the others move
  /// (its speed is a constraint, its effort the force that holds it).
  std::vector<char> held;
  [[nodiscard]] bool holds(size_t element) const { return !held.empty() && held[element]; }
};

/// The tables' segments and the cam programs' pieces that b holds, into ws (the loads and the
/// positions are evaluated on them: their ends are events).
void hold_segments(const Branches& b, planar::Workspace& ws);

/// One evaluation's results.
struct Evaluation {
  std::vector<double> qdd;                    ///< n
  std::vector<double> actuator;               ///< per actuator: torque (N m) or force (N), Coulomb part included
  std::vector<double> actuator_speed;         ///< per actuator: its body's omega or its pair's sliding speed
  std::vector<double> coulomb;                ///< per Coulomb element: its effort
  std::vector<double> coulomb_speed;          ///< per Coulomb element: its speed
  std::vector<double> current_rate;           ///< per motor: di/dt
  std::vector<double> load_power;             ///< per load
  std::vector<std::array<double, 2>> normal;  ///< per Coulomb element: a prismatic pair's signed normal loads
  /// Per Coulomb element held at rest: its static capacity less the effort that holds it (it
  /// slips where this reaches 0); 0 for the others.
  std::vector<double> margin;
  /// Coupled elastic links: their modal accelerations eta'' (per link, in DynamicSystem::elastic's
  /// order), the power their Rayleigh damping dissipates (>= 0) and their geometric stiffness's
  /// power (flex::ElasticPowers).
  std::vector<double> elastic_acceleration;
  double elastic_damping_power = 0.0, geometric_power = 0.0;
  int iterations = 0;  ///< friction iterations
  /// Every array sized for the system with `elastic` modal coordinates, zero.
  void size_for(const DynamicSystem& system, size_t elastic);
};

/// The quantities whose signs the branches lock, at a state.
struct Speeds {
  std::vector<double> coulomb;   ///< per Coulomb element
  std::vector<double> when;      ///< per actuator: its condition body's omega (0 if none)
  std::vector<double> actuator;  ///< per actuator: its speed
  std::vector<double> table;     ///< per load, then per actuator: its table's coordinate (NaN without a table)
};

/// The successive approximations of the pairs' friction [001 Eqs. 12-13]: done when the
/// efforts change by less than `tolerance` of their size (or have settled at the rounding level
/// of their size or of `scale`, the largest effort met before: where the loads pass through zero,
/// as a cam's contact force where the follower leaves the cam, the size alone has no rounding
/// level); AnalysisError after 200 iterations (near self-locking the feedback's gain nears 1).
class FrictionIteration {
 public:
  explicit FrictionIteration(double tolerance, double scale = 0.0) : tolerance_(tolerance), scale_(scale) {}
  [[nodiscard]] bool done(double change, double size) {
    ++iterations;
    const bool settled = iterations > 4 && change >= 0.5 * last_ && change <= 1e-11 * std::max(size, scale_);
    last_ = change;
    if (change <= tolerance_ * size || settled) return true;
    if (iterations >= 200 || !std::isfinite(change))
      throw AnalysisError(
          "the friction in the pairs does not converge (the successive approximations' gain is near 1: "
          "self-locking?)");
    return false;
  }
  int iterations = 0;

 private:
  double tolerance_, scale_;
  double last_ = INFINITY;
};

class Evaluator {
 public:
  Evaluator(const DynamicSystem& system, const SimulationOptions& options);
  virtual ~Evaluator() = default;
  /// qdd, efforts and powers at (t, y) on the branches. In the stuck mode qdd = 0 and the
  /// Coulomb efforts are the static ones that hold the machine.
  virtual void evaluate(double t, const double* y, const Branches& branches, Evaluation& e) = 0;
  /// The switching speeds at (t, y).
  virtual void speeds(double t, const double* y, Speeds& s) = 0;
  /// One DOF at rest at (t, y): the generalized force of the loads and actuators without Coulomb
  /// friction (`drive`), and the largest static friction's (`capacity` >= 0) against motion in
  /// the drive's direction, with the reactions that this friction itself adds; and the Coulomb
  /// elements' velocity coefficients (their speeds per unit qd), into `coefficients`.
  virtual void holding(double t, const double* y, const Branches& branches, double& drive, double& capacity,
                       std::vector<double>& coefficients) = 0;

  /// Throws AnalysisError where an accepted state lies outside what the method covers (the
  /// reduced method's tabulated range).
  virtual void check(const double*) const {}
  /// What the method adds to a result (the reduced method: its table's size and error).
  virtual void report(SimulationResult&) const {}

  [[nodiscard]] size_t dof() const { return n_; }
  /// The coupled elastic links' modal coordinates (all links), and where eta starts in y (eta'
  /// follows it).
  [[nodiscard]] size_t elastic_coordinates() const { return elastic_; }
  [[nodiscard]] size_t elastic_offset() const { return 2 * n_ + sys_.motors.size(); }
  [[nodiscard]] size_t motors() const { return sys_.motors.size(); }
  long evaluations = 0;

 protected:
  /// Actuator efforts without their Coulomb parts, from their speeds and the motors' currents
  /// in y, on the branches; and the motors' di/dt.
  void actuator_efforts(const double* y, const Branches& branches, Evaluation& e) const;
  /// The efforts of the Coulomb resistances (constant loads), on the branches.
  void resistance_efforts(const Branches& branches, Evaluation& e) const;
  /// The static efforts holding a one-DOF machine at rest: the generalized force `drive` shared
  /// among the elements in proportion to their capacity (static limit x load x |coefficient|).
  void holding_efforts(double drive, const std::vector<double>& loads, const std::vector<double>& coefficients,
                       Evaluation& e) const;
  /// A Coulomb element's static limit: a resistance's scaled as its actuator.
  [[nodiscard]] double static_limit(const CoulombElement& el) const {
    return el.pair_friction() ? el.static_limit : scale_[el.actuator()] * el.static_limit;
  }

  const DynamicSystem& sys_;
  const planar::Mechanism& m_;
  const SimulationOptions& o_;
  double friction_tolerance_;  ///< relative, for FrictionIteration
  size_t n_;
  std::vector<double> scale_;  ///< per actuator
  std::vector<int> motor_of_;  ///< per actuator: its motor index, or -1
  size_t elastic_ = 0;
};

[[nodiscard]] std::unique_ptr<Evaluator> make_reduced_evaluator(const DynamicSystem& system,
                                                                const SimulationOptions& options);
[[nodiscard]] std::unique_ptr<Evaluator> make_full_evaluator(const DynamicSystem& system,
                                                             const SimulationOptions& options, const double* y0);
[[nodiscard]] std::unique_ptr<Evaluator> make_kane_evaluator(const DynamicSystem& system,
                                                             const SimulationOptions& options, const double* y0);

}  // namespace linkdyn::dynamics
