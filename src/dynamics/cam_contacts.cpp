// A cam machine's contacts during a run (cam_contacts.hpp).
#include "dynamics/cam_contacts.hpp"

#include <algorithm>
#include <cmath>

#include "linkdyn/planar/kinematics.hpp"

namespace linkdyn::dynamics {

CamContacts::CamContacts(const DynamicSystem& system, const StateLayout& layout)
    : sys_(system), L_(layout), ws_(*system.mechanism), turn_per_step_(INFINITY) {
  const planar::Mechanism& m = *system.mechanism;
  for (const int j : m.cam_pairs()) {
    const planar::CamProgram& program = m.joints()[static_cast<size_t>(j)].as<planar::CamPair>().program;
    for (int i = 0; i < program.piece_count(); ++i)
      turn_per_step_ = std::min(turn_per_step_, 0.5 * program.piece(i).span);
    // A table is one piece (its spline smooth to the jerk's rate), whose lobes are a few rows wide.
    if (!program.table.empty()) turn_per_step_ = std::min(turn_per_step_, 2.0 * program.table.step);
  }
}

std::pair<double, size_t> CamContacts::least(double t, const State& y, const Evaluation& e, const Branches& b) {
  const planar::Mechanism& m = *sys_.mechanism;
  hold_segments(b, ws_);
  const size_t n = m.drivers().size();
  for (size_t i = 0; i < n; ++i) ws_.q[i] = y[i], ws_.qd[i] = y[n + i], ws_.qdd[i] = e.qdd[i];
  if (const planar::KinematicStatus st = planar::solve_positions(m, ws_); !st.ok())
    throw AnalysisError(planar::describe(m, ws_, st));
  if (const planar::KinematicStatus sv = planar::solve_velocities(m, ws_); !sv.ok())
    throw AnalysisError(planar::describe(m, ws_, sv));
  planar::solve_accelerations(m, ws_);
  solve_motion_reactions(sys_, L_, ws_, t, y, e);
  std::pair<double, size_t> out{INFINITY, 0};
  cam_speed_ = 0.0;
  for (const int j : m.cam_pairs()) {
    const auto joint = static_cast<size_t>(j);
    if (ws_.reaction[joint].normal < out.first) out = {ws_.reaction[joint].normal, joint};
    cam_speed_ = std::max(cam_speed_, std::abs(ws_.body[m.joints()[joint].body[0]].omega));
  }
  return out;
}

}  // namespace linkdyn::dynamics
