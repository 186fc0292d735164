#pragma once
// Time simulation of a serial chain under constant driving forces, with Boost.Odeint's
// Dormand-Prince 5(4) and dense output.
#include <Eigen/Core>

#include "linkdyn/core/table.hpp"
#include "linkdyn/spatial/dynamics.hpp"

namespace linkdyn::spatial {

struct ChainSimulationOptions {
  double t_end = 1.0;
  int steps = 100;  ///< output rows after the initial one
  double abs_tol = 1e-10, rel_tol = 1e-10;
  ForwardMethod method = ForwardMethod::articulated_body;
  Terms terms;
};

struct ChainSimulationResult {
  Table table;  ///< t, <joint>.q, <joint>.qd, <joint>.qdd, kinetic_energy, potential_energy
  long rhs_evaluations = 0;
};

/// Integrates M qdd + h + Q_fd = tau from (q0, qd0). The dry friction's sign change is stepped
/// over by the error control (no event location; sgn(0) = 0).
ChainSimulationResult simulate_chain(const Chain& chain, ChainData& data, VectorIn q0,
                                     VectorIn qd0, VectorIn tau,
                                     const ChainSimulationOptions& options);

}  // namespace linkdyn::spatial
