#pragma once
// Kinematics over the drivers' motion: a sweep of the time grid, with the intervals where the
// mechanism exists, its assembly limits and dead points, and the results as arrays
// (KinematicsResult, kinematics_result.hpp).
#include <functional>
#include <string>
#include <vector>

#include "linkdyn/planar/kinematics.hpp"
#include "linkdyn/planar/kinematics_result.hpp"
#include "linkdyn/planar/singular.hpp"

namespace linkdyn::planar {

/// Sets the drivers' state in ws from their motion laws at time t.
void set_drivers(const Mechanism& m, Workspace& ws, double t);

/// Assembles ws at the grid's start (drivers, then positions); throws AnalysisError (naming the
/// model file, the group and the driver values) when the mechanism does not assemble there.
void require_start_assembly(const Mechanism& m, const TimeGrid& grid, Workspace& ws);
/// The same check, in a workspace of its own.
void require_start_assembly(const Mechanism& m, const TimeGrid& grid);
/// The grid of an analysis: the model's (Mechanism::default_grid), with `steps` (if > 0)
/// instead of its step count; checked to assemble at its start.
[[nodiscard]] TimeGrid analysis_grid(const Mechanism& m, int steps);

/// Walks the grid: drivers, positions, velocities, accelerations at each time; calls `on_step`
/// with the step index, time and status. Assembly modes are tracked from step to step (through
/// bifurcations, by predicting each pose from the last step's rates); where the mechanism
/// stops existing the limit is refined by bisection and reported. At a singular position the
/// rates are their limits along the branch when they exist (status limit), else the step is a
/// dead point (status singular). `limits` keeps the last regular state, for the caller's own
/// limits at such steps (kinetostatics).
[[nodiscard]] SweepSummary sweep_kinematics(const Mechanism& m, Workspace& ws, const TimeGrid& grid,
                                            const std::function<void(int, double, StepStatus)>& on_step,
                                            SingularLimit& limits);
[[nodiscard]] SweepSummary sweep_kinematics(const Mechanism& m, Workspace& ws, const TimeGrid& grid,
                                            const std::function<void(int, double, StepStatus)>& on_step);

/// The points whose motion the kinematics record (TrackedPoint), in order.
[[nodiscard]] std::vector<TrackedPoint> tracked_points(const Mechanism& m);
/// The groups with a transmission angle (dyads RRR, RRP, RPR), in structural order.
[[nodiscard]] std::vector<int> transmission_groups(const Mechanism& m);

/// The kinematics over the grid (sweep_kinematics), every row kept.
[[nodiscard]] KinematicsResult kinematics(const Mechanism& m, const TimeGrid& grid,
                                          double singular_tolerance = default_singular_tolerance);
/// The same rows in chunks of at most `chunk_rows` rows, for output streamed as it is computed
/// (memory independent of the grid's length): `on_chunk` gets each chunk in order, the last one
/// possibly shorter or empty, and may take it over (move from it). Returns the sweep's summary.
[[nodiscard]] SweepSummary kinematics(const Mechanism& m, const TimeGrid& grid, double singular_tolerance,
                                      Eigen::Index chunk_rows, const std::function<void(KinematicsResult&)>& on_chunk);

/// Room for `rows` rows of m's kinematics in r (its points and transmission groups set): the
/// sweeps and simulations that fill r row by row allocate nothing more.
void allocate_rows(const Mechanism& m, Eigen::Index rows, KinematicsResult& r);
/// Row `row` of r from the solved workspace: the drivers, every body's pose and rates, every
/// tracked point's motion, the transmission angles (rates NaN when status is singular).
void record_row(const Mechanism& m, const Workspace& ws, double t, StepStatus status, Eigen::Index row,
                KinematicsResult& r);
/// Keeps the first `rows` rows of r.
void keep_rows(Eigen::Index rows, KinematicsResult& r);

}  // namespace linkdyn::planar
