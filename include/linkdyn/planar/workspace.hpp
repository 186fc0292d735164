#pragma once
// The reusable buffers and results of one kinematic evaluation of a Mechanism.
#include <Eigen/Dense>
#include <vector>

#include "linkdyn/core/geometry.hpp"
#include "linkdyn/planar/mechanism.hpp"

namespace linkdyn::planar {

/// Pose and motion of a body frame: origin r, angle theta (with its cosine and sine).
struct BodyState {
  Vec2 r = Vec2::Zero(), v = Vec2::Zero(), a = Vec2::Zero();
  double theta = 0.0, c = 1.0, s = 0.0;
  double omega = 0.0, alpha = 0.0;
  void set_angle(double angle);
  /// Sets the rotation (cos, sin); theta is the angle of it nearest to `near` (continuous).
  void set_rotation(const Vec2& rotation, double near);
  [[nodiscard]] Vec2 rotation() const { return {c, s}; }
  /// Global position / velocity / acceleration of a point given in the body frame.
  [[nodiscard]] Vec2 arm(const Vec2& local) const { return rotate(local, c, s); }
  [[nodiscard]] Vec2 position(const Vec2& local) const { return r + arm(local); }
  [[nodiscard]] Vec2 velocity(const Vec2& local) const { return v + omega * perp(arm(local)); }
  [[nodiscard]] Vec2 acceleration(const Vec2& local) const {
    const Vec2 arm_g = arm(local);
    return a + alpha * perp(arm_g) - omega * omega * arm_g;
  }
};

/// How far the body states in a workspace have been solved, and for which driver state: the
/// next position solve predicts every body's pose from them.
struct SolvedState {
  enum Level { nothing = 0, positions = 1, velocities = 2, accelerations = 3 };
  Level level = nothing;
  std::vector<double> q, qd, qdd;  ///< the drivers' state the bodies were solved for
};

/// The step along the drivers' path from the solved state to the new coordinates, used to
/// predict each body's pose by Taylor's formula, pose + rate s + accel s^2 / 2 (order 2), or
/// pose + rate s (order 1); order 0: no prediction (the previous pose itself). Groups choose
/// the assembly mode nearest to the predicted pose, which keeps them on their branch through a
/// bifurcation (where both modes meet, only the prediction tells them apart).
struct PosePrediction {
  int order = 0;
  double s = 0.0;
  double turn = 0.0;  ///< the largest body rotation the step was estimated to make (rad)
  /// The predicted pose of a body from its last solved state.
  [[nodiscard]] BodyState of(const BodyState& b) const {
    BodyState p = b;
    if (order >= 1) {
      const double h = order >= 2 ? 0.5 * s * s : 0.0;
      p.r = b.r + s * b.v + h * b.a;
      p.set_angle(b.theta + s * b.omega + h * b.alpha);
    }
    return p;
  }
};

/// A generalized force on a body: (Fx, Fy, moment about the body frame's origin).
using Wrench = Eigen::Vector3d;

/// The reaction in a pair: what its first body exerts on its second.
struct JointReaction {
  /// Revolute: the pin force. Prismatic: the normal force, acting at the slider point.
  Vec2 force = Vec2::Zero();
  /// The moment the pair transmits to its second body: a prismatic pair's moment about the
  /// slider point (the normal force acts at moment / normal along the guide from it), a gear's
  /// torque on the wheel; 0 in a revolute pair.
  double moment = 0.0;
  /// Prismatic: the signed normal force along the guide's normal.
  double normal = 0.0;
  Eigen::Vector2d lambda = Eigen::Vector2d::Zero();  ///< the pair's Lagrange multipliers
};

/// Per group: the tracked assembly mode and how far from singular the last position was.
struct GroupState {
  int branch = 0;
  bool tracked = false;       ///< false: the next position solve starts from the model's hints
  double conditioning = 1.0;  ///< 0 at a singular (dead) position, ~1 far from it
  /// How unclear the last choice of assembly mode was: the chosen mode's distance to the
  /// predicted pose over the other's (0: clear, or a single mode; near 1: the prediction did
  /// not tell them apart, and solve_positions takes smaller steps).
  double ambiguity = 0.0;
};

/// Newton buffers of a group's closure equations (generic groups, dyads' fallback), sized once.
struct GenericScratch {
  Eigen::MatrixXd jacobian;
  Eigen::VectorXd residual, step, unknowns;
  Eigen::PartialPivLU<Eigen::MatrixXd> lu;
  Eigen::CompleteOrthogonalDecomposition<Eigen::MatrixXd> cod;  ///< least-norm steps where singular
};

/// Conditioning below which a group is at a dead point (the sine of the transmission angle for
/// the RRR and RRP dyads).
inline constexpr double default_singular_tolerance = 1e-7;

class Workspace {
 public:
  explicit Workspace(const Mechanism& mechanism);
  std::vector<double> q, qd, qdd;  ///< driver coordinates and their rates
  std::vector<BodyState> body;
  std::vector<GroupState> group;
  std::vector<GenericScratch> scratch;  ///< per group; sized only for generic groups
  SolvedState solved;                   ///< what `body` holds (set by the kinematic solves)
  /// The state a position solve starts from, kept to walk it again in smaller steps.
  std::vector<BodyState> start_body;
  SolvedState start_solved;
  SolvedState walk_target;    ///< the drivers' state a walk in smaller steps goes to
  PosePrediction prediction;  ///< set by solve_positions for the groups

  // Kinetostatics (see kinetostatics.hpp).
  std::vector<Wrench> applied;  ///< external loads, gravity and force elements per body
  /// Per load: the table segment held (direct dynamics, over a step), or -1: the one that holds x.
  std::vector<int> load_segment;
  /// Per cam pair (CamPair::index): the program's piece held (direct dynamics, over a step), or
  /// -1: the one that holds the contact's angle.
  std::vector<int> cam_piece;
  std::vector<Wrench> friction_load;  ///< friction in the pairs, per body
  /// Per bearing (Mechanism::bearings()), the friction applied in the last walk: a moment on
  /// its second body (revolute pair, pin member) or a force along the guide (prismatic pair).
  std::vector<double> bearing_effort;
  /// Per cylinder (Mechanism::cylinders()), its seals' friction applied in the last walk: a force
  /// along it on the rod, the opposite on the barrel.
  std::vector<double> seal_effort;
  std::vector<Wrench> load;                      ///< the backward walk's running load per body
  std::vector<JointReaction> reaction;           ///< per pair of Mechanism::joints()
  std::vector<JointReaction> reaction_previous;  ///< the previous friction iteration's
  std::vector<double> effort;                    ///< driver torque (N m) or force (N), per driver
  std::vector<double> effort_frictionless;
  /// Groups with conditioning below this are at a dead point: velocities are not defined.
  double singular_tolerance = default_singular_tolerance;
  /// A group that loses its branch fails rather than being assembled again (a Newton-solved
  /// group's search, a degenerate dyad's detour): an assembly limit is refined along the
  /// branch it ends, and a search at every trial of the bisection would cost 96 Newton solves.
  bool branch_only = false;
  /// Forget the tracked assembly modes: the next solve starts again from the hints.
  void reset_tracking();
};

/// True when `ws` was made for `m`: every buffer sized for its drivers, bodies, groups, pairs,
/// bearings and loads (as Pinocchio's model.check(data)). The solves assert it in debug builds;
/// a workspace of another mechanism would otherwise read past its buffers.
[[nodiscard]] bool check(const Mechanism& m, const Workspace& ws);

}  // namespace linkdyn::planar
