#pragma once
// What a simulation of a machine returns (dynamics::simulate, simulate.hpp): its rows as arrays
// and the run's totals. io::simulation_table makes the table.
#include <Eigen/Core>
#include <string>
#include <vector>

#include "linkdyn/core/error.hpp"
#include "linkdyn/planar/kinematics_result.hpp"
#include "linkdyn/planar/kinetostatics_result.hpp"

namespace linkdyn::dynamics {

/// The energies at each row of a simulation (J): kinetic and potential; the work done so far by
/// each actuator and each load; the energy lost so far to the pairs' friction; and the balance's
/// residual, input work - friction losses - change of kinetic + potential energy (input: the
/// actuators and the non-conservative loads).
struct EnergyRows {
  Eigen::VectorXd kinetic, potential;
  Eigen::MatrixXd actuator_work;  ///< per actuator
  Eigen::MatrixXd load_work;      ///< per load
  Eigen::VectorXd friction_loss, residual;
  /// With coupled elastic links (else empty): the energy their damping dissipated so far, and
  /// the work of their geometric stiffness so far (the axial forces' work on the links'
  /// shortening, which the rigid geometry does not take up); both enter the residual.
  Eigen::VectorXd elastic_damping_loss, geometric_work;
};

/// A coupled elastic link's deflections at each row (beam frame, m): transverse w at mid-span,
/// and w and axial u at every node from its first end.
struct ElasticRows {
  Eigen::VectorXd mid_w;
  Eigen::MatrixXd node_w, node_u;  ///< rows x nodes
};

/// automatic: the reduced method for one DOF where its tables converge (TabulationError
/// otherwise), else Kane's: what a run takes when its caller does not choose.
enum class Method { reduced, full, kane, automatic };

/// A simulation's results as arrays: one row per output time (uniform from t0; the last row is
/// where the run ended: t_end, the stop at q, or a stop), one column per driver, DC motor,
/// actuator, constraint action or Coulomb element. io::simulation_table makes the table.
struct SimulationResult {
  Eigen::VectorXd t;
  Eigen::MatrixXd q, qd, qdd;           ///< per driver: angle (rad) or position (m), and its rates
  Eigen::MatrixXd current;              ///< per DC motor, in the order of DynamicSystem::motors (A)
  Eigen::MatrixXd effort;               ///< per actuator: torque (N m) or force (N)
  Eigen::MatrixXd constraint_action;    ///< per constraint action: force (N) or moment (N m)
  Eigen::MatrixXd coulomb_power;        ///< per DynamicSystem::coulomb element: power dissipated (W, >= 0)
  Eigen::VectorXd pair_friction_power;  ///< the sum over the pairs' friction elements (W)
  EnergyRows energy;
  /// One DOF: 1 while the machine is held at rest by static friction, else 0; several DOF: how
  /// many Coulomb elements are held.
  Eigen::VectorXi stuck;
  /// With SimulationOptions::kinematics: every body's pose and rates and every tracked point's
  /// motion at each row (status limit where the rates are limits at a singular position; the
  /// summary is not set).
  planar::KinematicsResult kinematics;
  planar::PairReactions reactions;   ///< with SimulationOptions::reactions: every pair's reaction at each row
  std::vector<ElasticRows> elastic;  ///< per coupled elastic link (DynamicSystem::elastic)
  [[nodiscard]] Eigen::Index rows() const { return t.size(); }

  int events = 0;
  int rhs_evaluations = 0;
  int steps = 0;                                            ///< accepted integrator steps
  double t_final = 0.0;                                     ///< where the run ended (t_end, stop_q, or a stop)
  std::vector<double> final_state;                          ///< q (n), qd (n), currents, at t_final (rigid part)
  double qd_min = 0.0, qd_max = 0.0;                        ///< of the first coordinate, over the accepted steps
  std::vector<double> actuator_work;                        ///< per actuator: integral of its power (J)
  std::vector<double> load_work;                            ///< per load (J)
  std::vector<double> friction_loss;                        ///< per Coulomb element: energy dissipated (J, >= 0)
  double energy_change = 0.0;                               ///< kinetic + potential, final - initial (J)
  double energy_residual = 0.0;                             ///< input work - friction losses - energy change (J)
  double elastic_damping_loss = 0.0, geometric_work = 0.0;  ///< coupled elastic links, over the run (J)
  int table_points = 0;                                     ///< reduced method: the intervals of its table
  double table_error = 0.0;                                 ///< reduced method: the table's estimated relative error
  bool friction = false;                                    ///< pair friction acted
  Method method = Method::reduced;                          ///< the method that ran
  std::string method_note;   ///< Method::automatic took Kane's method where the reduced one failed: why
  bool stopped = false;      ///< the run stopped before t_end: see stop_message
  std::string stop_message;  ///< t, the driver values, the group and the reason
  int stop_exit_code = AnalysisError::exit_code;  ///< 2: bad input caused it (a load table left); 130: Ctrl-C
};

}  // namespace linkdyn::dynamics
