#pragma once
// Direct dynamics of machines with motors, resistances and friction [003], [004 Appendix B]:
//   m(q) qdd + 1/2 m'(q) qd^2 = F(q, qd, t) + sum of actuator and friction efforts x velocity
//                                coefficients                                     [003 Eq. 2]
// plus L di/dt = U - R i - K omega_motor for each DC motor. Three ways to evaluate it:
//  - reduced: the tabulated reduced model (reduced_model.hpp), one DOF, fast;
//  - full: the whole constrained mechanism in body coordinates, M a + Phi_q^T mu = Q,
//    Phi_q a = gamma, the positions and velocities solved from the drivers' coordinates at each
//    evaluation (coordinate partitioning), with a sparse factorisation: the general reference;
//  - kane: Kane's equations [004 Eq. A46] in the drivers' coordinates, from the partial
//    velocities and velocity-product terms of the kinematic walk (kane.hpp); with elastic links
//    coupled (couple_elastic_links), their modal coordinates join the generalized speeds and
//    the deformation acts on the motion (flex/coupled.hpp).
// The full and Kane methods take any number of degrees of freedom (the drivers' coordinates
// are the independent ones; their laws give only the initial state).
//
// Coulomb friction acts in every method: in the pairs' bearings (f' r |F| or f N_p, with the
// reactions the motion itself produces, solved consistently with the accelerations at each
// evaluation by successive approximations [001 Eqs. 12-13]) and in the actuators' Coulomb
// resistances. Each element's friction direction is held over a step and its reversals are
// located as events; a one-DOF machine that comes to rest sticks while static friction holds
// it and breaks away when the driving load exceeds the static limit (both located as events);
// in a machine of several DOF each element that comes to rest is held on its own while the
// others move.
//
// The integrator is Boost.Odeint's Runge-Kutta-Fehlberg 7(8) (rows and events reached by exact
// steps) or Dormand-Prince 5(4) with dense output; events are located by Boost.Math's TOMS 748.
// The run is src/dynamics/simulate.cpp; the state it integrates, state_layout; its rows,
// simulation_rows; its friction events, stick_slip; the right-hand sides, evaluator*.
#include <functional>
#include <string>
#include <vector>

#include "linkdyn/core/integrator.hpp"
#include "linkdyn/core/table.hpp"
#include "linkdyn/dynamics/machine.hpp"
#include "linkdyn/dynamics/simulation_result.hpp"

namespace linkdyn::dynamics {

using linkdyn::Integrator;

struct SimulationOptions {
  Method method = Method::reduced;
  Integrator integrator = Integrator::rkf78;
  double t0 = 0.0, t_end = 1.0;
  int steps = 1000;  ///< output rows - 1 (uniform in time)
  double rel_tol = 1e-10, abs_tol = 1e-12;
  /// Reduced method: the table's relative interpolation error (0: rel_tol / 10), or a fixed
  /// number of intervals (table_points > 0).
  double table_tolerance = 0.0;
  int table_points = 0;
  bool friction = true;    ///< Coulomb friction in the pairs' bearings
  bool reactions = false;  ///< every pair's reaction at every row
  bool kinematics = true;  ///< every body's and point's columns at every row
  /// Initial state of the first coordinate; NaN: q and qd from the driver's motion law at t0
  /// (the other coordinates always start from their laws), currents 0.
  double q0 = Table::missing, qd0 = Table::missing;
  std::vector<double> actuator_scale;  ///< per actuator: multiplies its value / voltage / T0
  std::vector<double> current0;        ///< initial armature currents (default 0)
  /// Stop when q first reaches this value (NaN: run to t_end); the last row is that instant.
  double stop_q = Table::missing;
  long max_events = 100000;  ///< more switching events than this (a table's rows crossed not counted): chatter
  /// The integrator's step budget (0: 10^5 + 100 per output row). A start whose speed needs
  /// more steps (about 16 per turn of a rotational coordinate) is refused (InputError); a run
  /// that exceeds it stops (AnalysisError) with the rows computed so far.
  long max_integrator_steps = 0;
  /// Called after each step with the time reached (progress reports).
  std::function<void(double t)> progress;
  /// When set: the rows are handed over in chunks of about chunk_values values as they are
  /// computed (for output streamed to files, memory independent of `steps`), each chunk in the
  /// arrays of a SimulationResult, the last one at the end of the run (possibly shorter or
  /// empty); the returned result then holds only that last chunk's rows.
  std::function<void(const SimulationResult& rows)> on_rows;
  size_t chunk_values = size_t{1} << 20;
};

/// Integrates from t0 to t_end. A run that cannot go on (a dead point, the mechanism leaves its
/// range, a load table is left) returns what it computed with `stopped` set; bad options
/// throw InputError.
[[nodiscard]] SimulationResult simulate(const DynamicSystem& system, const SimulationOptions& options);
/// The method a run of `options` takes: options.method unless Method::automatic, which takes the
/// reduced method for one DOF and no coupled elastic link, built (and cached) here, and Kane's
/// otherwise or where the reduced method cannot tabulate the machine; `note` then says why
/// (empty when the reduced method, or several DOF, decided).
/// "reduced", "full", "kane", "auto"; method_named is the inverse (InputError for another name).
[[nodiscard]] const char* method_name(Method method);
[[nodiscard]] Method method_named(const std::string& name);
[[nodiscard]] Method resolve_method(const DynamicSystem& system, const SimulationOptions& options, std::string& note);
/// A run that stopped (`stopped`) as the error that stopped it: InputError when bad input caused
/// it (the message names the model line, the entity and the fix), else AnalysisError.
void throw_if_stopped(const SimulationResult& result);

/// The periodic (steady) regime: the speed and currents at q0 that repeat one cycle later
/// (2 pi of a rotational driver), by Newton's method on the cycle map. Throws AnalysisError when
/// Newton's method does not converge.
struct SteadyRegime {
  double qd0 = 0.0;
  std::vector<double> current0;
  double period = 0.0, mean_speed = 0.0;
  double qd_min = 0.0, qd_max = 0.0;
  double fluctuation = 0.0;           ///< (max - min) / mean
  std::vector<double> actuator_work;  ///< per actuator over one cycle (J)
  int iterations = 0;
};
[[nodiscard]] SteadyRegime steady_regime(const DynamicSystem& system, SimulationOptions options, double qd_guess);

/// The common scale of some actuators' parameters (torque value, voltage or T0) that gives a
/// mean speed in the steady regime (Newton's method on scale, speed and currents).
struct ActuatorSolution {
  double scale = 1.0;  ///< multiplies the actuators' values
  double qd0 = 0.0;    ///< the periodic regime's speed at q0
  std::vector<double> current0;
};
[[nodiscard]] ActuatorSolution solve_actuator_for_mean_speed(const DynamicSystem& system, SimulationOptions options,
                                                             const std::vector<int>& actuators, double mean_speed,
                                                             double qd_guess);

/// The moment of inertia to add to `body` (a flywheel) so that the fluctuation is at most
/// `fluctuation`; 0 when it already is.
[[nodiscard]] double flywheel_for_fluctuation(const planar::Mechanism& m, const MachineSpec& machine,
                                              const SimulationOptions& options, int body, double fluctuation,
                                              double qd_guess);

/// Kinetic energy of the mechanism (with rotors) at q, qd (one DOF, or one value per driver).
[[nodiscard]] double kinetic_energy(const DynamicSystem& system, double q, double qd);
[[nodiscard]] double kinetic_energy(const DynamicSystem& system, const std::vector<double>& q,
                                    const std::vector<double>& qd);

}  // namespace linkdyn::dynamics
