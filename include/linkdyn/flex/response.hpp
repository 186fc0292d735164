#pragma once
// Elastodynamic response of a beam on a moving frame [004 Eq. 20] by Newmark's average
// acceleration (trapezoidal) rule, and its steady periodic response under a periodic rigid
// motion by shooting on the monodromy matrix of the Newmark map.
#include <Eigen/Dense>
#include <functional>

#include "linkdyn/flex/beam.hpp"

namespace linkdyn::flex {

/// The frame's motion at time t (from the mechanism's kinematics and kinetostatics).
using MotionAt = std::function<void(double t, FrameMotion& out)>;

/// Nodal displacements at t_k = t0 + k dt, k = 0..steps, one column each (free dofs); of every
/// `every`-th step only when the response is asked with `every` > 1 (its memory then 1 / every).
struct Response {
  std::vector<double> t;
  Eigen::MatrixXd displacement, velocity;
  /// Steady response: largest |z(T) - z(0)| over the state z = (d, v) after one period,
  /// relative to max |z|; 0 for a response from rest.
  double periodicity_error = 0.0;
};

/// Buffers of the Newmark map for `columns` simultaneous states (column 0 forced, the others
/// free, for the monodromy); sized once, no allocation per step.
struct NewmarkWorkspace {
  NewmarkWorkspace(const BeamModel& beam, int columns);
  BeamOperators operators;
  Eigen::MatrixXd d, v, a, rhs, effective, next_a, next_d;
  Eigen::PartialPivLU<Eigen::MatrixXd> lu;
};

/// Accelerations at the current time from m a = load - c v - k d (load on column 0 only).
void newmark_initialize(const BeamModel& beam, const FrameMotion& motion, NewmarkWorkspace& ws);
/// One step of length dt to the time whose frame motion is `next` (average acceleration,
/// beta = 1/4, gamma = 1/2: unconditionally stable, no numerical damping).
void newmark_step(const BeamModel& beam, const FrameMotion& next, double dt, NewmarkWorkspace& ws);

/// Receives each kept step's time, displacements and velocities (free dofs) as they are computed.
using StepSink = std::function<void(double t, const Eigen::Ref<const Eigen::VectorXd>& d,
                                    const Eigen::Ref<const Eigen::VectorXd>& v)>;

/// From rest (d = v = 0) over [t0, t0 + duration] in `steps` steps. With a `sink`, the kept
/// steps go to it and the Response holds no history (memory independent of `steps`).
[[nodiscard]] Response transient_response(const BeamModel& beam, const MotionAt& motion_at, double t0, double duration,
                                          int steps, int every = 1, const StepSink& sink = nullptr);
/// The periodic response of period `period`: the initial state z0 = (I - Phi)^-1 z_p with Phi
/// the monodromy of the Newmark map and z_p the response from rest after one period, refined by
/// Newton's correction on the integrated state (at most 3 times) until the state repeats to
/// periodicity_tolerance or the integration's rounding floor is reached (a correction no longer
/// halves the error). Throws AnalysisError when the state then repeats only to worse than
/// periodicity_limit: worse than 1e-3, I - Phi is singular or nearly so (a free vibration of the
/// period, resonance); between, the undamped high modes keep the rounding of very many steps
/// (the fix: damping, or fewer steps).
constexpr double periodicity_tolerance = 1e-9, periodicity_limit = 1e-6;
/// With a `sink`: the passes keep no history, and one more pass from the final initial state
/// hands the kept steps to it.
[[nodiscard]] Response periodic_response(const BeamModel& beam, const MotionAt& motion_at, double t0, double period,
                                         int steps, int every = 1, const StepSink& sink = nullptr);

}  // namespace linkdyn::flex
