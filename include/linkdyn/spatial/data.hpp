#pragma once
// The workspace of one tree: poses, spatial vectors and matrices of one evaluation. Built once
// per model in O(n) memory; the algorithms reuse it without allocating, except that the dense
// dof x dof matrices are sized (zero) by the first call of the algorithm that fills them, so a
// model whose mass matrix nobody asks for never holds one. Sizes: "per link" = Chain::links,
// "per DOF" = Chain::dof (nv).
#include <Eigen/Core>
#include <vector>

#include "linkdyn/spatial/chain.hpp"

namespace linkdyn::spatial {

/// Joint-space inputs (q, qd, qdd, tau): any contiguous vector, a matrix column too, without a copy.
using VectorIn = const Eigen::Ref<const Eigen::VectorXd>&;
/// Matrix inputs (columns of derivatives): a block of a larger matrix too, without a copy.
using MatrixIn = const Eigen::Ref<const Eigen::MatrixXd>&;

struct ChainData {
  explicit ChainData(const Chain& chain);

  // Kinematics (forward_kinematics).
  std::vector<Pose> local;  ///< per link: link i in its parent link at the current q
  std::vector<Pose> world;  ///< per link: link i in the base
  Pose end_effector;        ///< end effector in the base
  /// Per DOF: the world twist of the DOF as a 4x4 matrix (the Uicker operator carried to the
  /// base frame, d T_0k / d q_j = S_j T_0k [002 Eq. 71]).
  std::vector<Mat4> joint_twist;
  std::vector<Vec6> joint_screw;  ///< per DOF: the same as 6-vectors [omega; v] at the base origin
  std::vector<Mat4> transform;    ///< per link: T_0k as 4x4
  std::vector<int> parent;        ///< per link: the model's parent array (for differential_matrix)
  std::vector<int> dof_link;      ///< per DOF: the link its joint moves

  // Spatial vectors [omega; v] (motion) and [n; f] (force) in link frames, per link.
  std::vector<Vec6> v, a, f;
  std::vector<Vec6> bias_acceleration;  ///< v x (S qd): the velocity-product acceleration
  std::vector<Mat6> inertia6;           ///< articulated inertias (ABA)
  std::vector<double> composite_mass;   ///< composite rigid bodies (CRBA), in link frames
  std::vector<Vec3> composite_first_moment;
  std::vector<Mat3> composite_inertia;
  std::vector<Vec6> articulated_bias;  ///< per link
  std::vector<Vec6> U;                 ///< per DOF: articulated inertia times the DOF's subspace
  Eigen::VectorXd D, u;                ///< per DOF

  Eigen::VectorXd tau, qdd, friction, bias, rhs;          ///< per DOF
  Eigen::VectorXd applied, qdd_trial, friction_previous;  ///< friction iterations, per DOF
  Eigen::MatrixXd mass_matrix;                            ///< dof x dof, sized by mass_matrix
  /// The mass matrix factored as L^T D L along the tree (Featherstone's LTDL, RBDA Sect. 6.5):
  /// unit L below the diagonal (nonzero only where a DOF supports another), D on the diagonal.
  Eigen::MatrixXd mass_matrix_factor;
  Eigen::Matrix<double, 6, Eigen::Dynamic> jacobian;  ///< rows [v; omega] of the end effector

  // Derivatives of the inverse dynamics and the Coriolis matrix (rnea_derivatives, coriolis_matrix).
  Eigen::MatrixXd dtau_dq, dtau_dqd, coriolis;                        ///< dof x dof, sized on use
  std::vector<Vec6> world_velocity, world_acceleration, world_force;  ///< per link, at the base origin
  std::vector<Mat6> world_inertia, world_variation;  ///< per link: composite I and B (see rnea_derivatives)
  std::vector<Vec6> dof_rate;                        ///< per DOF: d S / dt at the base origin
};

/// `m` as a zero dof x dof matrix on the first call, as it is on the next ones: the dense
/// matrices' one allocation, made by the algorithm that fills them.
[[nodiscard]] Eigen::MatrixXd& dof_matrix(const Chain& chain, Eigen::MatrixXd& m);

/// True when `data` was made for `chain` (every buffer sized for its links and DOFs), as
/// Pinocchio's model.check(data); the algorithms assert it in debug builds.
[[nodiscard]] bool check(const Chain& chain, const ChainData& data);

}  // namespace linkdyn::spatial
