#pragma once
// The charts of each analysis, against the first driver's coordinate (or time): the report's
// and the command line's (--plot).
#include <vector>

#include "linkdyn/dynamics/reduced.hpp"
#include "linkdyn/dynamics/simulate.hpp"
#include "linkdyn/planar/kinetostatics.hpp"
#include "linkdyn/planar/mechanism.hpp"
#include "linkdyn/planar/sweep.hpp"
#include "linkdyn/report/chart.hpp"

namespace linkdyn::report {

/// A tracked point whose signed motion along a fixed direction is plotted (as a slider's along
/// its guide).
struct PointDirection {
  std::string point;   ///< a tracked point's label (Mechanism::output_points)
  double angle = 0.0;  ///< the direction from the x axis (rad)
  bool operator==(const PointDirection&) const = default;
};

/// InputError unless every point of `along` is one of m's tracked points (their names listed).
void check_along(const planar::Mechanism& m, const std::vector<PointDirection>& along);

/// Body angles, angular velocities and accelerations, the signed motion of every slider along its
/// guide and of the `along` points along their directions, velocity ratios and mechanical
/// advantage (one DOF), point paths (coupler curves), point speeds and transmission angles,
/// against the first driver's coordinate (or time). A point of `along` that is not tracked is an
/// InputError naming the tracked points.
[[nodiscard]] std::vector<Chart> kinematics_plots(const planar::Mechanism& m,
                                                  const planar::KinematicsResult& kinematics,
                                                  const std::vector<PointDirection>& along = {});
/// Driver efforts with and without friction, pair reactions, friction power, efficiency.
[[nodiscard]] std::vector<Chart> kinetostatics_plots(const planar::Mechanism& m,
                                                     const planar::KinetostaticsResult& kinetostatics);

/// The reduced inertia m(q) and dm/dq by both methods of [003], against the coordinate.
[[nodiscard]] std::vector<Chart> reduced_plots(const planar::Mechanism& m, const dynamics::ReducedTable& table);
/// Speed of each coordinate against time, and the motors' currents, actuator torques and
/// forces, constraint actions and (Kane) the pairs' reactions |F|.
[[nodiscard]] std::vector<Chart> simulation_plots(const dynamics::DynamicSystem& system,
                                                  const dynamics::SimulationResult& simulation);
/// The same run's speed, motor currents and actuator torques against the first driver's
/// coordinate (a steady cycle: linked to the animation when its x is that coordinate too).
[[nodiscard]] std::vector<Chart> cycle_plots(const dynamics::DynamicSystem& system,
                                             const dynamics::SimulationResult& simulation);

}  // namespace linkdyn::report
