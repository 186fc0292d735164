#pragma once
// What the kinematics over the drivers' motion returns (planar::kinematics, sweep.hpp): the rows
// as arrays, the sweep's summary, and the names of their columns (io::kinematics_table makes the
// table).
#include <Eigen/Core>
#include <string>
#include <utility>
#include <vector>

#include "linkdyn/core/table.hpp"
#include "linkdyn/planar/mechanism.hpp"

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

/// A point whose motion the kinematics record: each moving body's named points
/// (Mechanism::output_points, labelled "<body>.<point>"), then each moving body's centre of
/// mass ("<body>.com").
struct TrackedPoint {
  std::string label;
  int body = 0;
  Vec2 local = Vec2::Zero();
};

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
  /// Per cam pair (Mechanism::cam_pairs()), cam_columns columns: the follower's program s, its
  /// velocity, acceleration and jerk (the cam's angular jerk taken as 0), the pressure angle and
  /// the profile's radius of curvature at the contact (cam_profile.hpp).
  Eigen::MatrixXd cam;
  static constexpr int cam_columns = 6;
  std::vector<StepStatus> status;  ///< ok, limit or singular
  SweepSummary summary;
  [[nodiscard]] Eigen::Index rows() const { return t.size(); }
};

/// The names of the kinematics quantities as table columns (io::kinematics_table and the
/// simulation's table): per moving body `<body>.angle`, `.omega`, `.alpha`; per tracked point
/// `<label>.x`, `.y`, `.vx`, `.vy`, `.ax`, `.ay`; per transmission group
/// `<joint>.transmission_angle`; per cam pair `<joint>.s`, `.v`, `.a`, `.jerk`,
/// `.pressure_angle`, `.radius`.
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
