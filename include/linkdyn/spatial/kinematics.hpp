#pragma once
// Kinematics of a serial chain: poses by products of matrix exponentials, Jacobians and their
// time derivatives, and the differential matrices of any order [002 Sect. 3.1].
#include <Eigen/Core>
#include <initializer_list>
#include <vector>

#include "linkdyn/spatial/data.hpp"

namespace linkdyn::spatial {

/// Poses of the links in their parents' frames (data.local): all the recursive algorithms need.
void update_link_poses(const Chain& chain, ChainData& data, VectorIn q);

/// Poses of all link frames and of the end effector, and the joints' world twists.
void forward_kinematics(const Chain& chain, ChainData& data, VectorIn q);

/// The 4x4 matrix of a joint motion: exp([k x] q) for a revolute joint, a slide by k q for a
/// prismatic one, and its generator U (the Uicker operator in the joint frame) [002 Eqs. 71, 90].
Mat4 joint_motion(const ChainJoint& joint, double q);
Mat4 joint_generator(const ChainJoint& joint);

/// End-effector Jacobian, rows [v; omega] in the base frame [002 Eqs. 117-124]; needs
/// forward_kinematics. Stored in data.jacobian.
void end_effector_jacobian(const Chain& chain, ChainData& data);
/// Jacobian of a point fixed in link `link` (coordinates `point` in the link frame), 3 x n.
Eigen::Matrix<double, 3, Eigen::Dynamic> point_jacobian(const Chain& chain, const ChainData& data, int link,
                                                        const Vec3& point);
/// Time derivative of the end-effector Jacobian at (q, qd); needs forward_kinematics at q.
Eigen::Matrix<double, 6, Eigen::Dynamic> end_effector_jacobian_derivative(const Chain& chain, const ChainData& data,
                                                                          VectorIn qd);

/// The differential matrix A_{k j1 j2 ...} = d^r T_0k / (d q_j1 ... d q_jr) for any order r
/// [002 Eqs. 71, 76, 80, 83]: S_a S_b ... T_0k with the indices sorted ascending, zero if any
/// index exceeds k. Indices are 0-based; needs forward_kinematics.
Mat4 differential_matrix(const ChainData& data, int k, std::initializer_list<int> joints);
Mat4 differential_matrix(const ChainData& data, int k, const std::vector<int>& joints);

/// Time derivatives T_0k^(0..order) of every link's transform, from the joint trajectory's
/// derivatives: column r of `q_derivatives` is q^(r) (r = 0..order). Leibniz's rule on the
/// product of joint exponentials. Result: [link][r].
std::vector<std::vector<Mat4>> transform_time_derivatives(const Chain& chain, const Eigen::MatrixXd& q_derivatives,
                                                          int order);

}  // namespace linkdyn::spatial
