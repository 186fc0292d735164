#pragma once
// The workspace of one chain: poses, spatial vectors and matrices of one evaluation. Built once
// per chain; the algorithms reuse it without allocating.
#include <Eigen/Cholesky>
#include <Eigen/Core>
#include <vector>

#include "linkdyn/spatial/chain.hpp"

namespace linkdyn::spatial {

/// Joint-space inputs (q, qd, qdd, tau): any contiguous vector, a matrix column too, without a copy.
using VectorIn = const Eigen::Ref<const Eigen::VectorXd>&;

struct ChainData {
  explicit ChainData(const Chain& chain);

  // Kinematics (forward_kinematics).
  std::vector<Pose> local;  ///< link i in link i-1 at the current q
  std::vector<Pose> world;  ///< link i in the base
  Pose end_effector;        ///< end effector in the base
  /// World twist of each joint as a 4x4 matrix (the Uicker operator carried to the base frame,
  /// d T_0k / d q_j = S_j T_0k [002 Eq. 71]).
  std::vector<Mat4> joint_twist;
  std::vector<Vec6> joint_screw;  ///< the same as 6-vectors [omega; v] at the base origin
  std::vector<Mat4> transform;  ///< T_0k as 4x4

  // Spatial vectors [omega; v] in link frames (recursive algorithms).
  std::vector<Vec6> v, a, f;
  std::vector<Vec6> bias_acceleration;  ///< v x (s qd): the velocity-product acceleration
  std::vector<Mat6> inertia6;           ///< articulated inertias (ABA)
  std::vector<double> composite_mass;   ///< composite rigid bodies (CRBA), in link frames
  std::vector<Vec3> composite_first_moment;
  std::vector<Mat3> composite_inertia;
  std::vector<Vec6> articulated_bias, U;
  Eigen::VectorXd D, u;

  Eigen::VectorXd tau, qdd, friction, bias, rhs;
  Eigen::VectorXd applied, qdd_trial, friction_previous;  ///< friction iterations
  Eigen::MatrixXd mass_matrix;
  Eigen::LLT<Eigen::MatrixXd> cholesky;
  Eigen::Matrix<double, 6, Eigen::Dynamic> jacobian;  ///< rows [v; omega] of the end effector
};

}  // namespace linkdyn::spatial
