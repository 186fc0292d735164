#pragma once
// Scalars of the mechanism's motion (Coordinate in mechanism.hpp): their value and rate at the
// workspace's solved state, and the second derivative of a coordinate along the drivers' path.
#include "linkdyn/planar/mechanism.hpp"
#include "linkdyn/planar/workspace.hpp"

namespace linkdyn::planar {

struct CoordinateValue {
  double value = 0.0;
  double rate = 0.0;          ///< d value / dt at the workspace's velocities
  double acceleration = 0.0;  ///< d rate / dt at its accelerations (when asked)
};

/// The coordinate at time t and the positions and velocities in ws; with `accelerations`, its
/// second derivative from ws's accelerations too.
[[nodiscard]] CoordinateValue coordinate_value(const Mechanism& m, const Workspace& ws, double t, const Coordinate& c,
                                               bool accelerations = false);

}  // namespace linkdyn::planar
