#pragma once
// A cam machine's watch over its contacts during a run: the least contact force (where it turns
// negative the follower leaves its cam and the run stops) and the turn a step may take.
#include <utility>

#include "dynamics/simulation_rows.hpp"

namespace linkdyn::dynamics {

/// The cam pairs' contact forces along a run, from the kinetostatic walk at each state with
/// everything the evaluation applies (solve_motion_reactions), in a workspace of its own.
class CamContacts {
 public:
  CamContacts(const DynamicSystem& system, const StateLayout& layout);
  [[nodiscard]] bool empty() const { return sys_.mechanism->cam_pairs().empty(); }
  /// The least contact force over the cam pairs at (t, y) with its evaluation e on the branches
  /// b (N), and its joint's index.
  [[nodiscard]] std::pair<double, size_t> least(double t, const State& y, const Evaluation& e, const Branches& b);
  /// The largest |omega| of the cams' bodies at the last least().
  [[nodiscard]] double cam_speed() const { return cam_speed_; }
  /// The turn a step may take: half the shortest piece of any cam's program (rad). A longer step
  /// could pass a piece, or a short spell of negative contact force, unseen.
  [[nodiscard]] double turn_per_step() const { return turn_per_step_; }

 private:
  const DynamicSystem& sys_;
  const StateLayout& L_;
  planar::Workspace ws_;
  double cam_speed_ = 0.0, turn_per_step_;
};

}  // namespace linkdyn::dynamics
