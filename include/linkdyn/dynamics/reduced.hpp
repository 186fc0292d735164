#pragma once
// Reduced parameters of a one-degree-of-freedom mechanism by Eksergian's method [003]:
// the reduced inertia m(q) and its derivative, the reduced force F(q, qd, t), and for each
// requested constraint action its reduced parameters m_e1(q) and m_e1q(q), in the equations
//   m(q) qdd + 1/2 m'(q) qd^2 = F(q, qd, t)          [003 Eq. 2]
//   m_e1(q) qdd + m_e1q(q) qd^2 = F_2*               [003 Eq. 6]
// Two independent ways give m and m' [003 Sect. 2]: the kinetic energy through the velocity
// coefficients, and two kinetostatic analyses at (qd = 1, qdd = 0) and (qd = 0, qdd = 1).
#include <memory>
#include <string>
#include <vector>

#include "linkdyn/core/table.hpp"
#include "linkdyn/dynamics/machine_spec.hpp"
#include "linkdyn/planar/kinetostatics.hpp"

namespace linkdyn::dynamics {

struct ReducedInertia {
  double m = 0.0;   ///< kg m^2 (rotational driver) or kg (linear)
  double dm = 0.0;  ///< dm/dq
};

/// m = sum m_i |dv_Gi/dqd|^2 + J_i (domega_i/dqd)^2 and dm/dq = 2 sum (m_i v_Gi . a_Gi +
/// J_i omega_i alpha_i) at qd = 1, qdd = 0. ws.q holds the position; the rates are overwritten.
[[nodiscard]] ReducedInertia reduced_inertia_from_energy(const planar::Mechanism& m, planar::Workspace& ws);

struct KinetostaticReduction {
  ReducedInertia inertia;
  std::vector<double> me1, me1q;  ///< per constraint action asked
};

/// [003 Sect. 2]: frictionless kinetostatics of the inertial loads alone, (i) at qd = 1,
/// qdd = 0: driver effort = m'/2 and each constraint action = m_e1q; (ii) at qd = 0, qdd = 1:
/// driver effort = m and each constraint action = m_e1. The constraint action is read from the
/// pair's reaction, which is what a constraint actuator [003 Fig. 1] would carry.
[[nodiscard]] KinetostaticReduction reduced_parameters_by_kinetostatics(
    const planar::Mechanism& m, planar::Workspace& ws, const std::vector<ConstraintAction>& actions = {});

/// A constraint action's value from the reactions in ws (after a kinetostatic walk).
[[nodiscard]] double constraint_action(const planar::Mechanism& m, const planar::Workspace& ws,
                                       const ConstraintAction& a);

/// Reduced force of every load and force element [003 Eqs. 7-9]: F = sum_b Q_b . (twist_b /
/// qd), the loads taken at the state (ws.q, ws.qd) and time t, the velocity coefficients at
/// qd = 1. The kinematics are overwritten.
[[nodiscard]] double reduced_force(const planar::Mechanism& m, planar::Workspace& ws, double t);

/// The tabulated parameters over the driver's range: a full turn of a rotational driver
/// (periodic) when its motion law covers one or stands still, else the law's range.
struct ReducedTable {
  bool periodic = false;
  std::vector<double> q;
  std::vector<double> m, dm;  ///< from the kinetic energy
  std::vector<double> m_kinetostatic, dm_kinetostatic;
  std::vector<std::string> actions;            ///< the constraint actions' names
  std::vector<std::vector<double>> me1, me1q;  ///< [action][point]
};

/// Tabulates `points` intervals (points + 1 values, the last equal to the first when periodic).
/// Throws InputError for a mechanism with more than one degree of freedom, AnalysisError where
/// it does not assemble.
[[nodiscard]] ReducedTable tabulate_reduced_parameters(const planar::Mechanism& m, int points = 360,
                                                       const std::vector<ConstraintAction>& actions = {});

/// The table as columns q, m, dm_dq, m_kinetostatic, dm_dq_kinetostatic, <action>.me1,
/// <action>.me1q.
[[nodiscard]] Table reduced_table(const planar::Mechanism& m, const ReducedTable& t);

}  // namespace linkdyn::dynamics
