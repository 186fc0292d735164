#pragma once
// Joint-space control laws for simulate_chain's TorqueLaw (the command line's --kp, --kd).
#include <Eigen/Core>

#include "linkdyn/spatial/data.hpp"

namespace linkdyn::spatial {

/// PD gains per DOF: kp (N m/rad, N/m) and kd (N m s/rad, N s/m); a free-flyer's DOFs are not
/// controlled (their gains are not read).
struct PdGains {
  Eigen::VectorXd kp, kd;
};

/// Adds PD control toward the reference to tau: on each DOF d of a 1-DOF joint (revolute,
/// prismatic), tau_d += kp_d (q*_d - q_d) + kd_d (qd*_d - qd_d), with q_ref and qd_ref per DOF (q*_d:
/// the joint's coordinate). Allocation-free: a TorqueLaw calls it at every right-hand side.
void add_pd_torques(const Chain& chain, const PdGains& gains, VectorIn q_ref, VectorIn qd_ref, VectorIn q, VectorIn qd,
                    Eigen::Ref<Eigen::VectorXd> tau);

}  // namespace linkdyn::spatial
