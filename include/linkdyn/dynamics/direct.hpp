#pragma once
// Direct dynamics of machines with motors and resistances [003], [004 Appendix B]:
//   m(q) qdd + 1/2 m'(q) qd^2 = F(q, qd, t) + sum of actuator torques x velocity coefficients
// plus L di/dt = U - R i - K omega_motor for each DC motor, integrated by Boost.Odeint's
// dense-output Dormand-Prince method with the sign changes of the Coulomb and conditional
// terms located as events. Two ways to evaluate the right-hand side:
//  - reduced: tabulated reduced parameters and interpolants (fast; [003]);
//  - full: the whole constrained mechanism in body coordinates with Lagrange multipliers, the
//    dependent coordinates solved from the driver coordinate at each evaluation (coordinate
//    partitioning), general and slower; the reference for the reduced method;
//  - kane: Kane's equations [004 Eq. A46] in the drivers' coordinates, from the partial
//    velocities and velocity-product terms of the kinematic walk (kane.hpp), with every pair's
//    reaction recovered from m a = Q_ext + Q_liaison [004 Eq. A43].
// The full and Kane methods take any number of degrees of freedom: the drivers' coordinates
// are the independent coordinates (their motion laws give only the initial state); the reduced
// method and the steady-regime searches take one.
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "linkdyn/core/table.hpp"
#include "linkdyn/dynamics/reduced.hpp"

namespace linkdyn::dynamics {

enum class Method { reduced, full, kane };

struct SimulationOptions {
  Method method = Method::reduced;
  double t0 = 0.0, t_end = 1.0;
  int steps = 1000;                   ///< output rows - 1 (uniform in time)
  double rel_tol = 1e-10, abs_tol = 1e-12;
  int table_points = 720;             ///< reduced method: points per cycle (or range)
  /// Initial state of the first coordinate; NaN: q and qd from the driver's motion law at t0
  /// (the other coordinates always start from their laws), currents 0.
  double q0 = Table::missing, qd0 = Table::missing;
  /// Optional overrides of actuator parameters and extra inertia (steady-regime searches).
  std::vector<double> actuator_scale;  ///< per actuator: multiplies its value / voltage / T0
  std::vector<double> current0;        ///< initial armature currents (default 0)
  /// Stop when q first reaches this value (NaN: run to t_end); the last row is that instant.
  double stop_q = Table::missing;
};

struct ReducedTables;

/// The mechanism prepared for direct dynamics: the rotors' inertias added to their bodies; the
/// reduced method's tables are built on first use and kept.
struct DynamicSystem {
  explicit DynamicSystem(const planar::Mechanism& m);
  std::shared_ptr<const planar::Mechanism> mechanism;  ///< with rotor inertias
  std::vector<int> motors;  ///< indices of DC motors in spec().actuators
  mutable std::shared_ptr<const ReducedTables> reduced_cache;
  std::shared_ptr<std::mutex> cache_mutex = std::make_shared<std::mutex>();
};

struct SimulationResult {
  /// t, q, qd, qdd (several DOF: <driver>.q for each driver, then .qd, then .qdd),
  /// <motor>.current, <actuator>.torque (.force in a pair), <action> ...; Kane: then every
  /// pair's reaction (<joint>.Fx, .Fy, .F, prismatic .N, .M, gear .torque).
  Table table;
  int events = 0;
  int rhs_evaluations = 0;
  double t_final = 0.0;
  std::vector<double> final_state;  ///< q (n), qd (n), currents
  double qd_min = 0.0, qd_max = 0.0;  ///< of the first coordinate, over the accepted steps
  std::vector<double> actuator_work;  ///< per actuator: integral of its power (J)
};

/// The periodic (steady) regime: the speed and currents at q0 that repeat one cycle later
/// (2 pi of a rotational driver), by Newton's method on the cycle map.
struct SteadyRegime {
  double qd0 = 0.0;
  std::vector<double> current0;
  double period = 0.0, mean_speed = 0.0;
  double qd_min = 0.0, qd_max = 0.0;
  double fluctuation = 0.0;  ///< (max - min) / mean
  std::vector<double> actuator_work;  ///< per actuator over one cycle (J)
  int iterations = 0;
};
SteadyRegime steady_regime(const DynamicSystem& system, SimulationOptions options, double qd_guess);

/// The common scale of some actuators' parameters (torque value, voltage or T0) that gives a
/// mean speed in the steady regime (secant method).
struct ActuatorSolution {
  double scale = 1.0;  ///< multiplies the actuators' values
  double qd0 = 0.0;    ///< the periodic regime's speed at q0
  std::vector<double> current0;
};
ActuatorSolution solve_actuator_for_mean_speed(const DynamicSystem& system, SimulationOptions options,
                                               const std::vector<int>& actuators, double mean_speed, double qd_guess);

/// The moment of inertia to add to `body` (a flywheel) so that the fluctuation is at most
/// `fluctuation`; 0 when it already is.
double flywheel_for_fluctuation(const planar::Mechanism& m, const SimulationOptions& options, int body,
                                double fluctuation, double qd_guess);

/// Integrates from t0 to t_end. Throws AnalysisError where the mechanism leaves its range.
SimulationResult simulate(const DynamicSystem& system, const SimulationOptions& options);

/// Kinetic energy of the mechanism (with rotors) at q, qd (one DOF, or one value per driver).
double kinetic_energy(const DynamicSystem& system, double q, double qd);
double kinetic_energy(const DynamicSystem& system, const std::vector<double>& q, const std::vector<double>& qd);

}  // namespace linkdyn::dynamics
