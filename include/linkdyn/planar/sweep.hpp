#pragma once
// Kinematics over the drivers' motion: a sweep of the time grid, with the intervals where the
// mechanism exists, its assembly limits and dead points, and the table of results.
#include <functional>
#include <string>
#include <vector>

#include "linkdyn/core/table.hpp"
#include "linkdyn/planar/kinematics.hpp"

namespace linkdyn::planar {

enum class StepStatus { ok, singular, absent };

/// Something that happened along a sweep, at time t with the drivers at q.
struct SweepEvent {
  enum Kind { assembly_limit, singular } kind = assembly_limit;
  double t = 0.0;
  std::vector<double> q;
  std::string message;
};

struct SweepSummary {
  int steps = 0, absent = 0, singular = 0;
  /// Time intervals [t_begin, t_end] (on the grid) where the mechanism exists.
  std::vector<std::pair<double, double>> intervals;
  std::vector<SweepEvent> events;
  bool starts_assembled = true;
};

/// Sets the drivers' state in ws from their motion laws at time t.
void set_drivers(const Mechanism& m, Workspace& ws, double t);

/// Walks the grid: drivers, positions, velocities, accelerations at each time; calls `on_step`
/// with the step index, time and status. Assembly modes are tracked from step to step; where
/// the mechanism stops existing the limit is refined by bisection and reported.
SweepSummary sweep_kinematics(const Mechanism& m, Workspace& ws, const TimeGrid& grid,
                              const std::function<void(int, double, StepStatus)>& on_step);

/// The kinematics table of a sweep: t, driver coordinates, then per body angle, omega, alpha;
/// per named point and centre of mass x, y, vx, vy, ax, ay; transmission angles. Rows where
/// the mechanism does not exist are left out.
Table kinematics_table(const Mechanism& m, const TimeGrid& grid, SweepSummary* summary = nullptr,
                       double singular_tolerance = default_singular_tolerance);

/// Column name of a driver's coordinate: "<driver>.angle" or "<driver>.position".
std::string driver_column(const Driver& d);

}  // namespace linkdyn::planar
