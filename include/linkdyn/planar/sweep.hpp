#pragma once
// Kinematics over the drivers' motion: a sweep of the time grid, with the intervals where the
// mechanism exists, its assembly limits and dead points, and the table of results.
#include <functional>
#include <string>
#include <vector>

#include "linkdyn/core/table.hpp"
#include "linkdyn/planar/kinematics.hpp"
#include "linkdyn/planar/singular.hpp"

namespace linkdyn::planar {

/// ok: regular; limit: a removable singular position, the rates in the workspace are their
/// limits there; singular: a dead point, no rates; absent: the mechanism does not assemble.
enum class StepStatus { ok, limit, singular, absent };

/// Something that happened along a sweep, at time t with the drivers at q.
struct SweepEvent {
  enum Kind { assembly_limit, singular } kind = assembly_limit;
  double t = 0.0;
  std::vector<double> q;
  std::string message;
};

struct SweepSummary {
  int steps = 0, absent = 0, singular = 0;
  int limits = 0;  ///< removable singular positions (rates as limits)
  /// Time intervals [t_begin, t_end] (on the grid) where the mechanism exists.
  std::vector<std::pair<double, double>> intervals;
  std::vector<SweepEvent> events;
  bool starts_assembled = true;
};

/// Sets the drivers' state in ws from their motion laws at time t.
void set_drivers(const Mechanism& m, Workspace& ws, double t);

/// Walks the grid: drivers, positions, velocities, accelerations at each time; calls `on_step`
/// with the step index, time and status. Assembly modes are tracked from step to step (through
/// bifurcations, by predicting each pose from the last step's rates); where the mechanism
/// stops existing the limit is refined by bisection and reported. At a singular position the
/// rates are their limits along the branch when they exist (status limit), else the step is a
/// dead point (status singular). `limits` keeps the last regular state, for the caller's own
/// limits at such steps (kinetostatics).
SweepSummary sweep_kinematics(const Mechanism& m, Workspace& ws, const TimeGrid& grid,
                              const std::function<void(int, double, StepStatus)>& on_step, SingularLimit& limits);
SweepSummary sweep_kinematics(const Mechanism& m, Workspace& ws, const TimeGrid& grid,
                              const std::function<void(int, double, StepStatus)>& on_step);

/// The kinematics columns of every moving body (angle, omega, alpha), named point and centre of
/// mass (x, y, vx, vy, ax, ay), and the transmission angles: added to a table, then written
/// from the state in a workspace (kinematics tables, simulation rows).
class KinematicsColumns {
 public:
  explicit KinematicsColumns(const Mechanism& m);
  void add_motion_columns(const Mechanism& m, Table& table) const;
  void add_transmission_columns(const Mechanism& m, Table& table) const;
  /// Writes the columns' values from `out` on; returns the end. Without rates the rates are
  /// missing (a dead point).
  double* write_motion(const Mechanism& m, const Workspace& ws, bool rates, double* out) const;
  double* write_transmission(const Mechanism& m, const Workspace& ws, double* out) const;

 private:
  struct Point {
    std::string label;
    int body;
    Vec2 local;
  };
  std::vector<Point> points_;
  std::vector<int> transmission_groups_;
};

/// The kinematics table of a sweep: t, driver coordinates, then per body angle, omega, alpha;
/// per named point and centre of mass x, y, vx, vy, ax, ay; transmission angles. Rows where
/// the mechanism does not exist are left out. The column `singular` flags the rows at a
/// singular position: 1 where the rates are limits along the branch, 2 at a dead point (rates
/// left empty).
Table kinematics_table(const Mechanism& m, const TimeGrid& grid, SweepSummary* summary = nullptr,
                       double singular_tolerance = default_singular_tolerance);

/// Column name of a driver's coordinate: "<driver>.angle" or "<driver>.position".
std::string driver_column(const Driver& d);

}  // namespace linkdyn::planar
