#pragma once
// Kinematics over the drivers' motion: a sweep of the time grid, with the intervals where the
// mechanism exists, its assembly limits and dead points, and the results as arrays
// (KinematicsResult; io::kinematics_table makes the table).
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

/// A point whose motion the kinematics record: each moving body's named points
/// (Mechanism::output_points, labelled "<body>.<point>"), then each moving body's centre of
/// mass ("<body>.com").
struct TrackedPoint {
  std::string label;
  int body = 0;
  Vec2 local = Vec2::Zero();
};
[[nodiscard]] std::vector<TrackedPoint> tracked_points(const Mechanism& m);
/// The groups with a transmission angle (dyads RRR, RRP, RPR), in structural order.
[[nodiscard]] std::vector<int> transmission_groups(const Mechanism& m);

/// The kinematics of a sweep as arrays: one row per position where the mechanism exists (the
/// grid's times in order), one column per driver, moving body (column b - 1 for body b),
/// tracked point or transmission group. Rates at a dead point are NaN (status singular); at a
/// removable singular position they are the limits along the branch (status limit).
struct KinematicsResult {
  Eigen::VectorXd t;
  Eigen::MatrixXd q;                    ///< per driver: angle (rad) or position (m)
  Eigen::MatrixXd x0, y0;               ///< per moving body: its frame's origin (m)
  Eigen::MatrixXd angle, omega, alpha;  ///< per moving body (rad, rad/s, rad/s^2)
  std::vector<TrackedPoint> points;
  Eigen::MatrixXd x, y, vx, vy, ax, ay;  ///< per tracked point (m, m/s, m/s^2)
  std::vector<int> transmission_groups;
  Eigen::MatrixXd transmission_angle;  ///< per transmission group (rad)
  std::vector<StepStatus> status;      ///< ok, limit or singular
  SweepSummary summary;
  [[nodiscard]] Eigen::Index rows() const { return t.size(); }
};

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

/// The names of the kinematics quantities as table columns (io::kinematics_table and the
/// simulation's table): per moving body `<body>.angle`, `.omega`, `.alpha`; per tracked point
/// `<label>.x`, `.y`, `.vx`, `.vy`, `.ax`, `.ay`; per transmission group
/// `<joint>.transmission_angle`.
class KinematicsColumns {
 public:
  explicit KinematicsColumns(const Mechanism& m);
  void add_motion_columns(const Mechanism& m, Table& table) const;
  void add_transmission_columns(const Mechanism& m, Table& table) const;

 private:
  std::vector<TrackedPoint> points_;
  std::vector<int> transmission_groups_;
};

/// Column name of a driver's coordinate (order 0: "<driver>.angle" | ".position"), rate (1:
/// ".omega" | ".velocity") or acceleration (2: ".alpha" | ".acceleration").
[[nodiscard]] std::string driver_column(const Driver& d, int order = 0);

}  // namespace linkdyn::planar
