#pragma once
// Limit values at a removable singular position. Where a group is singular (a parallelogram
// whose links all lie on one line, a rhombus whose crank lies on the next pivot) its velocity
// and reaction equations lose rank, but along the branch the motion goes on smoothly: every
// rate, reaction and reduced parameter has a limit there. It is taken from regular states on
// both sides of the position, reached by continuation along the branch, and interpolated to
// it. Where the two sides disagree (a true dead point: rates or reactions without a bound), or
// one side does not assemble, there is no limit. Near such a position (within a group's
// near-singular band) the same interpolation replaces the direct solution, whose rounding
// errors grow as the inverse cube of the distance.
#include <Eigen/Dense>
#include <functional>
#include <vector>

#include "linkdyn/planar/kinematics.hpp"

namespace linkdyn::planar {

/// The poses and tracking state of a workspace: enough to continue a branch from it.
struct TrackingState {
  explicit TrackingState(const Workspace& ws);
  void save(const Workspace& ws);  ///< no allocation
  void restore(Workspace& ws) const;
  std::vector<BodyState> body;
  std::vector<GroupState> group;
  SolvedState solved;
  bool valid = false;
};

/// Fills `out` (sized by the caller's count) with the quantities to take to the limit, for the
/// regular sample state in `sample` (positions, velocities and accelerations solved at the
/// held driver rates).
using LimitValues = std::function<void(Workspace& sample, Eigen::Ref<Eigen::VectorXd> out)>;

/// The machinery of limits, with its own probe workspace (allocated once).
class SingularLimit {
  friend bool solve_rates_as_limits(const Mechanism& m, Workspace& ws, SingularLimit& limits);

 public:
  explicit SingularLimit(const Mechanism& m);
  /// The last regular state along the motion; continuation from it keeps the branch.
  TrackingState anchor;
  /// Values at the (near-)singular position in `ws` (positions solved; ws.qd, ws.qdd the
  /// drivers' rates, held at every sample) of values.size() values, from regular states at
  /// q* + d s, s = +-h .. +-4h, d the drivers' velocity (else acceleration, else the first
  /// coordinate) and h 3 % of a radian or of the mechanism's size; values interpolated to s = 0
  /// (degree 7): at the singular position itself their limit. False when the
  /// values from the two sides do not meet (no limit) or the samples cannot be solved. `kinds`
  /// groups the values of one physical kind (velocities, accelerations, forces): a value is
  /// judged against the size of its kind, so that one that vanishes is not taken for noise.
  [[nodiscard]] bool evaluate(const Mechanism& m, const Workspace& ws, const std::vector<int>& kinds,
                              const LimitValues& values, Eigen::VectorXd& limit);
  /// The mechanism's size (m): moments and angular rates are compared with forces and linear
  /// rates after scaling by it.
  [[nodiscard]] double length_scale() const { return length_scale_; }
  /// The largest disagreement of the one-sided limits in the last evaluate, relative to what
  /// is allowed (1e-4 of the value, 1e-6 of its kind): above 1 there is no limit.
  [[nodiscard]] double spread() const { return spread_; }

 private:
  [[nodiscard]] bool try_step(const Mechanism& m, const Workspace& ws, double h, const std::vector<int>& kinds,
                              const LimitValues& values, Eigen::VectorXd& limit);
  [[nodiscard]] bool sample(const Mechanism& m, double s, int count, const LimitValues& values,
                            Eigen::Ref<Eigen::VectorXd> out);
  Workspace probe_;
  std::vector<int> rate_kinds_;  ///< for solve_rates_as_limits
  std::vector<double> q_star_, qd_star_, qdd_star_, direction_;
  Eigen::MatrixXd values_;  ///< count x 8
  std::vector<double> kind_size_;
  double spread_ = 0.0;
  double length_scale_ = 1.0;
};

/// The body poses and rates (r, theta, v, omega, a, alpha of every body) as limits at a
/// singular position, written into ws; ws.solved is then at the accelerations level. False
/// where there is no limit.
[[nodiscard]] bool solve_rates_as_limits(const Mechanism& m, Workspace& ws, SingularLimit& limits);

}  // namespace linkdyn::planar
