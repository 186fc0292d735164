#pragma once
// Kinematics of a tree: poses by products of matrix exponentials, Jacobians of any frame and
// their time derivatives, and the differential matrices of any order [002 Sect. 3.1]; the
// configuration of free-flyer joints (rates and integration on the rotation group).
#include <Eigen/Core>
#include <initializer_list>
#include <vector>

#include "linkdyn/spatial/data.hpp"

namespace linkdyn::spatial {

/// The motion of free-flyer joint `link` at q: (R, p) of the link in its joint frame.
[[nodiscard]] Pose free_flyer_motion(const Chain& chain, VectorIn q, int link);

/// Poses of the links in their parents' frames (data.local): all the recursive algorithms need.
void update_link_poses(const Chain& chain, ChainData& data, VectorIn q);

/// Poses of all link frames and of the end effector, and the DOFs' world twists.
void forward_kinematics(const Chain& chain, ChainData& data, VectorIn q);

/// Pose of frame `frame` (an index into Chain::frames) in the base; needs forward_kinematics.
[[nodiscard]] Pose frame_placement(const Chain& chain, const ChainData& data, int frame);
/// Jacobian of frame `frame`: rows [v; omega] of its origin's velocity and its angular velocity,
/// in the base axes, one column per DOF (zero for DOFs that do not move it); needs
/// forward_kinematics. J must be 6 x dof.
void frame_jacobian(const Chain& chain, const ChainData& data, int frame,
                    Eigen::Ref<Eigen::Matrix<double, 6, Eigen::Dynamic>> J);

/// dq/dt from the velocity v (length dof): v itself for 1-DOF joints; for a free-flyer, the
/// position rate R v_lin and the rate of the quaternion (q' = q (0, omega) / 2) or of the rotation
/// vector (r' = J_r(r)^-1 omega).
void configuration_rate(const Chain& chain, VectorIn q, VectorIn v, Eigen::Ref<Eigen::VectorXd> q_rate);
/// q (+) v: q + v for 1-DOF joints; a free-flyer moves by R v_lin and turns by R exp([omega x]).
/// With v = dt times a velocity this is one explicit step; finite differences use it.
void integrate_configuration(const Chain& chain, VectorIn q, VectorIn v, Eigen::Ref<Eigen::VectorXd> q_out);
/// q = 0 with unit quaternions (the free-flyers at their placement).
[[nodiscard]] Eigen::VectorXd neutral_configuration(const Chain& chain);

/// The 4x4 matrix of a joint motion: exp([k x] q) for a revolute joint, a slide by k q for a
/// prismatic one, and its generator U (the Uicker operator in the joint frame) [002 Eqs. 71, 90].
[[nodiscard]] Mat4 joint_motion(const ChainJoint& joint, double q);
[[nodiscard]] Mat4 joint_generator(const ChainJoint& joint);

/// End-effector Jacobian, rows [v; omega] in the base frame [002 Eqs. 117-124] (frame_jacobian
/// of the end effector); needs forward_kinematics. Stored in data.jacobian.
void end_effector_jacobian(const Chain& chain, ChainData& data);
/// Jacobian of a point fixed in link `link` (coordinates `point` in the link frame), 3 x n.
[[nodiscard]] Eigen::Matrix<double, 3, Eigen::Dynamic> point_jacobian(const Chain& chain, const ChainData& data,
                                                                      int link, const Vec3& point);
/// Time derivative of the end-effector Jacobian at (q, qd); needs forward_kinematics at q.
[[nodiscard]] Eigen::Matrix<double, 6, Eigen::Dynamic> end_effector_jacobian_derivative(const Chain& chain,
                                                                                        const ChainData& data,
                                                                                        VectorIn qd);

/// The differential matrix A_{k j1 j2 ...} = d^r T_0k / (d q_j1 ... d q_jr) for any order r
/// [002 Eqs. 71, 76, 80, 83]: S_a S_b ... T_0k with the indices sorted ascending, zero if any
/// index's link does not support link k. Indices are DOFs, 0-based; needs forward_kinematics.
/// Indices within one free-flyer are symmetrised (its DOFs' twists do not commute).
[[nodiscard]] Mat4 differential_matrix(const ChainData& data, int k, std::initializer_list<int> joints);
[[nodiscard]] Mat4 differential_matrix(const ChainData& data, int k, const std::vector<int>& joints);

/// Time derivatives T_0k^(0..order) of every link's transform, from the configuration q and the
/// velocity's derivatives: column r of `v_derivatives` is v^(r) (r = 0..order-1). Leibniz's rule
/// on the product of joint exponentials, E' = E W(v). Result: [link][r].
[[nodiscard]] std::vector<std::vector<Mat4>> transform_time_derivatives(const Chain& chain, VectorIn q,
                                                                        const Eigen::MatrixXd& v_derivatives,
                                                                        int order);
/// The same when q and v have one size (no quaternion): column r of `q_derivatives` is q^(r).
[[nodiscard]] std::vector<std::vector<Mat4>> transform_time_derivatives(const Chain& chain,
                                                                        const Eigen::MatrixXd& q_derivatives,
                                                                        int order);

}  // namespace linkdyn::spatial
