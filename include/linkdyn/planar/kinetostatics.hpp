#pragma once
// Kinetostatics [001]: the drivers' efforts and the pairs' reactions for a given motion, walking
// the structural sequence backwards (Fig. 3), with Coulomb friction in the pairs solved by
// successive approximations (Eqs. 8-13). Free functions over (mechanism, workspace); the
// kinematics must be solved first.
#include <functional>
#include <string>
#include <vector>

#include "linkdyn/planar/kinetostatics_result.hpp"
#include "linkdyn/planar/loads.hpp"
#include "linkdyn/planar/sweep.hpp"

namespace linkdyn::planar {

struct KinetostaticsOptions {
  bool friction = true;
  double tolerance = 1e-3;   ///< N: stop when no reaction changes more than this [001]
  int max_iterations = 100;  ///< not converged by then: self-locking (KinetostaticsStatus)
};

struct KinetostaticsStatus {
  int iterations = 0;  ///< friction iterations (0 without friction)
  bool converged = true;
  double contraction = 0.0;  ///< last ratio of successive reaction changes
  bool self_locking = false;
};

/// Relative sliding speed of a prismatic pair along its guide (the slider point's velocity
/// relative to the guide body).
[[nodiscard]] double sliding_speed(const Joint& j, const Workspace& ws);
/// Its time derivative from the workspace's accelerations.
[[nodiscard]] double sliding_acceleration(const Joint& j, const Workspace& ws);
/// A force along a prismatic pair's guide at the slider point: `force` on its second body, the
/// opposite on its first, added to loads (wrenches about the body frames' origins).
void add_guide_force(const Joint& j, const Workspace& ws, double force, std::vector<Wrench>& loads);
/// A pair's action and reaction at a point (global): `force` on its second body, the opposite
/// on its first, added to loads (wrenches about the body frames' origins).
void add_pair_force(const Joint& j, const Workspace& ws, const Vec2& point, const Vec2& force,
                    std::vector<Wrench>& loads);
/// The velocity and acceleration of the point of body `b` that lies at `point` (global).
[[nodiscard]] inline Vec2 carried_velocity(const BodyState& b, const Vec2& point) {
  return b.v + b.omega * perp(Vec2(point - b.r));
}
[[nodiscard]] inline Vec2 carried_acceleration(const BodyState& b, const Vec2& point) {
  const Vec2 arm = point - b.r;
  return b.a + b.alpha * perp(arm) - b.omega * b.omega * arm;
}

/// One backward walk with the current friction loads: ws.reaction and ws.effort.
void solve_reactions(const Mechanism& m, Workspace& ws);
/// Friction loads from the current reactions and relative velocities, into ws.friction_load:
/// revolute M_f = -sgn(omega_rel) f' r |F| [001 Eqs. 9-11, 16]; prismatic F_f = -sgn(v_rel)
/// f |N| (short slider) or f (|N1| + |N2|) for a slider of length b carried at its ends; a
/// compound pin, fixed in its first member, M_b = -sgn(omega_b - omega_first) f' r |F_b| on each
/// other member b (F_b = pin_force) and -M_b on the first. At zero relative velocity the
/// friction is zero.
void update_friction(const Mechanism& m, Workspace& ws);
/// Friction power lost in a pair (W, >= 0), of the friction applied in the last walk.
[[nodiscard]] double friction_power(const Mechanism& m, const Workspace& ws, int joint);
/// The force that compound pin `pin` exerts on its member `member` (index in the listed
/// order): the sum of the reactions of the pin's pairs on that body. They sum to zero over the
/// members (the pin is massless).
[[nodiscard]] Vec2 pin_force(const Mechanism& m, const Workspace& ws, int pin, int member);
/// Friction power lost in a compound pin (W, >= 0): sum over the members b after the first of
/// -M_b (omega_b - omega_first), of the friction applied in the last walk.
[[nodiscard]] double pin_friction_power(const Mechanism& m, const Workspace& ws, int pin);
/// Friction power lost in every pair and compound pin (W).
[[nodiscard]] double total_friction_power(const Mechanism& m, const Workspace& ws);
/// Sum of the drivers' powers (W).
[[nodiscard]] double driver_power(const Mechanism& m, const Workspace& ws);

/// Loads, frictionless walk, then successive approximations with friction [001 Eqs. 12-13].
[[nodiscard]] KinetostaticsStatus solve_kinetostatics(const Mechanism& m, Workspace& ws, double t,
                                                      const KinetostaticsOptions& options = {});
/// The friction's successive approximations from the reactions in ws (ws.applied as it is):
/// friction loads from the reactions, the reactions again, until they settle [001 Eqs. 12-13].
[[nodiscard]] KinetostaticsStatus solve_friction(const Mechanism& m, Workspace& ws,
                                                 const KinetostaticsOptions& options);

/// Kinetostatics at a removable singular position (the rates in ws are limits): the reactions,
/// efforts and friction as their limits from regular states on both sides (SingularLimit).
/// False where they have none: the reactions grow without bound there (the loads cannot be
/// carried at that position).
[[nodiscard]] bool solve_kinetostatics_as_limits(const Mechanism& m, Workspace& ws, double t,
                                                 const KinetostaticsOptions& options, SingularLimit& limits,
                                                 KinetostaticsStatus& status);

/// Room for `rows` rows of m's reactions.
void allocate_rows(const Mechanism& m, Eigen::Index rows, PairReactions& r);
/// Row `row` from the workspace's reactions (solve_reactions); NaN everywhere unless `valid`.
void record_row(const Mechanism& m, const Workspace& ws, Eigen::Index row, bool valid, PairReactions& r);
/// Keeps the first `rows` rows.
void keep_rows(Eigen::Index rows, PairReactions& r);

/// Kinetostatics at every position of the grid (sweep_kinematics, then solve_kinetostatics), with
/// the cycle's integrals in the summary.
[[nodiscard]] KinetostaticsResult kinetostatics(const Mechanism& m, const TimeGrid& grid,
                                                const KinetostaticsOptions& options);
/// A sweep with something to show, else: AnalysisError when the friction iterations converged
/// at no position (self-locking over the whole sweep), InputError when a load marked useful
/// does no work over it.
void check_kinetostatics(const Mechanism& m, const KinetostaticsResult& result);
void check_kinetostatics(const Mechanism& m, const KinetostaticsSummary& summary);
/// The same rows in chunks of at most `chunk_rows` rows, for output streamed as it is computed
/// (memory independent of the grid's length): `on_chunk` gets each chunk in order, the last one
/// possibly shorter or empty, and may take it over (move from it). Returns the summary of the
/// whole sweep.
[[nodiscard]] KinetostaticsSummary kinetostatics(const Mechanism& m, const TimeGrid& grid,
                                                 const KinetostaticsOptions& options, Eigen::Index chunk_rows,
                                                 const std::function<void(KinetostaticsResult&)>& on_chunk);

}  // namespace linkdyn::planar
