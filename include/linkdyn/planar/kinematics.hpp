#pragma once
// Kinematics streamed forward along the structural sequence [001 Fig. 3]:
// free functions over (mechanism, workspace); the driver state is in ws.q / ws.qd / ws.qdd.
#include <string>

#include "linkdyn/planar/mechanism.hpp"
#include "linkdyn/planar/workspace.hpp"

namespace linkdyn::planar {

enum class KinematicFailure { none, cannot_close, singular };

struct KinematicStatus {
  KinematicFailure failure = KinematicFailure::none;
  int group = -1;  ///< the group where it happened
  [[nodiscard]] bool ok() const { return failure == KinematicFailure::none; }
};

/// The prediction of the poses at ws.q from the solved state in ws (see PosePrediction).
[[nodiscard]] PosePrediction predict_poses(const Workspace& ws);

/// Positions of every body from ws.q. Fails with cannot_close when a group has no solution.
/// Each group keeps its assembly mode: the one nearest to the pose predicted from the last
/// solved state (predict_poses), so that a branch is followed through a bifurcation.
[[nodiscard]] KinematicStatus solve_positions(const Mechanism& m, Workspace& ws);
/// Velocities from ws.qd (after positions). Fails with singular at a dead point, where the
/// velocities are not defined; nothing is divided by a vanishing determinant.
[[nodiscard]] KinematicStatus solve_velocities(const Mechanism& m, Workspace& ws);
/// Accelerations from ws.qdd (after velocities).
void solve_accelerations(const Mechanism& m, Workspace& ws);
/// All three in order.
[[nodiscard]] KinematicStatus solve_kinematics(const Mechanism& m, Workspace& ws);

/// True when a group is at or near a singular position (its conditioning below its
/// near-singular band or the workspace's singular tolerance): the rates and reactions there are
/// better taken as limits from both sides (singular.hpp).
[[nodiscard]] bool near_singular(const Mechanism& m, const Workspace& ws);

/// Largest residual of every joint's constraint equations at the current positions, in m
/// (rad for angular equations).
[[nodiscard]] double constraint_residual(const Mechanism& m, const Workspace& ws);

/// Guard after an assembly: the members' points of every compound pin coincide within 1e-9 of
/// the mechanism's size, else InputError naming the joint and the two points. The pairs that
/// the structure finder materialises for a pin form a tree over all its members, so an
/// assembled mechanism always passes; the check stays as a guard of that invariant.
void check_compound_pins(const Mechanism& m, const Workspace& ws);

/// A one-line description of a failure: which group, why, at which driver values.
[[nodiscard]] std::string describe(const Mechanism& m, const Workspace& ws, const KinematicStatus& status);

}  // namespace linkdyn::planar
