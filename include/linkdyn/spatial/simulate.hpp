#pragma once
// Time simulation of a tree under driving forces that are constant or given by a law (a torque
// trajectory, a controller), with the Runge-Kutta schemes of core/integrator.hpp (Dormand-Prince
// 5(4) and its dense output by default).
#include <Eigen/Core>
#include <functional>

#include "linkdyn/core/integrator.hpp"
#include "linkdyn/spatial/chain_simulation_result.hpp"
#include "linkdyn/spatial/dynamics.hpp"

namespace linkdyn::spatial {

struct ChainSimulationOptions {
  double t_end = 1.0;
  int steps = 100;  ///< output rows after the initial one
  double abs_tol = 1e-10, rel_tol = 1e-10;
  Integrator integrator = Integrator::dopri5;  ///< the scheme (core/integrator.hpp)
  ForwardMethod method = ForwardMethod::articulated_body;
  long max_rhs_evaluations = 500000;  ///< the integrator's (rows' excluded); beyond: AnalysisError (steps collapsed)
  Terms terms;
  /// When set: the rows are handed over in chunks of at most chunk_rows rows as they are
  /// computed (output streamed, memory independent of `steps`), the last one at the end (possibly
  /// shorter), also before an error stops the run; the returned result then holds only that last
  /// chunk's rows.
  std::function<void(const ChainSimulationResult& rows)> on_rows;
  Eigen::Index chunk_rows = 4096;
};

/// The driving forces at time t in state (q, qd), written into tau (length dof): the controller
/// hook. Called at every right-hand side, so it must not allocate to keep the loop allocation-free.
using TorqueLaw = std::function<void(double t, VectorIn q, VectorIn qd, Eigen::Ref<Eigen::VectorXd> tau)>;

/// Integrates M qdd + h + Q_fd = tau from (q0, qd0), q' from qd (configuration_rate). The dry
/// friction's sign change is stepped over by the error control (no event location; sgn(0) = 0).
[[nodiscard]] ChainSimulationResult simulate_chain(const Chain& chain, ChainData& data, VectorIn q0, VectorIn qd0,
                                                   VectorIn tau, const ChainSimulationOptions& options);
/// The same with tau from a law of time and state.
[[nodiscard]] ChainSimulationResult simulate_chain(const Chain& chain, ChainData& data, VectorIn q0, VectorIn qd0,
                                                   const TorqueLaw& torque, const ChainSimulationOptions& options);

}  // namespace linkdyn::spatial
