#pragma once
// An elastic link whose deformation acts back on the mechanism's motion (docs/elastic-links.md,
// "Coupled simulation"). The link's points in its frame are p(s) = r(s) + [N] {d} with the
// frame carried by the rigid body (origin at the link's first end, x along it) and the
// deformation on a basis of the beam's modes at rest, {d} = [Phi] {eta} ([Phi]^T [m] [Phi] = 1).
// Kane's equations with the generalized speeds (qd, eta') [004 Eqs. 13-16, A46]: the partial
// velocity of a point for a rigid speed j is V_j + W_j J p (V, W: the frame origin's and the
// frame's partial velocities), for eta'_k it is [N] phi_k; the acceleration of a point is
//   a = a_O + epsilon J p - omega^2 p + 2 omega J [N] d' + [N] d''        [004 Eq. 15]
// and the generalized inertia forces -int rho (partial velocity) . a dV, every term in eta kept
// (the kinetic energy of this kinematics is exact, so an undamped machine keeps its energy).
// The element matrices are those of the prescribed-motion analysis [004 Eq. 18], projected on
// [Phi]. The pairs hold the link's ends at the body's points (the rigid geometry of the
// mechanism), so an end with a pair is held axially too (sliding -> pinned): the pairs'
// reactions do no work on eta, and they drop out of Kane's equations [004 Eq. A45].
#include <Eigen/Dense>
#include <array>

#include "linkdyn/flex/beam.hpp"
#include "linkdyn/flex/elastic_link.hpp"
#include "linkdyn/planar/workspace.hpp"

namespace linkdyn::flex {

/// An elastic link prepared for the coupled simulation: its beam with both ends that carry a
/// pair held in the frame, and the beam's matrices on k modes at rest. Immutable.
struct ModalLink {
  std::string name;
  int body = 0;
  Vec2 origin = Vec2::Zero(), axis = Vec2::UnitX();  ///< the frame's origin and x axis, body frame
  BeamModel beam;                                    ///< the supports of the coupled model
  int modes = 0;                                     ///< k
  Eigen::MatrixXd shapes;                            ///< [Phi], n_free x k
  Eigen::VectorXd frequency_squared;                 ///< [Phi]^T [k] [Phi] = diag(omega_i^2)
  Eigen::MatrixXd rotation_coupling;                 ///< [Phi]^T int rho [N]^T J [N] [Phi] (skew)
  Eigen::MatrixXd translation;                       ///< [Phi]^T [m_O] (k x 2)
  Eigen::VectorXd moment_x, moment_y;                ///< [Phi]^T int rho [N]^T (s, 0) and (0, s)
  Eigen::VectorXd rotary;                            ///< [Phi]^T of the attached rotary inertias
  /// [Phi]^T [m_t] [Phi], [m_t] the mass matrix without the attached rotary inertias: int rho
  /// |delta|^2 dV = eta^T [m_t] eta (the identity when there are none).
  Eigen::MatrixXd translational_mass;
  /// Per mode: its largest nodal displacement (u or v, m per unit eta): sum |eta_k| times it
  /// bounds the link's deflection.
  Eigen::VectorXd peak_displacement;
  std::array<Eigen::MatrixXd, 4> geometric;  ///< [Phi]^T G_p [Phi] (the axial force's c_p)
  /// Per end: the pairs that hold it, (joint, sign) as in ElasticLink.
  std::array<std::vector<std::pair<int, double>>, 2> end_joints;
  SourceLocation where;
};

/// The link on `modes` modes at rest (0: all the beam's free dofs). Throws InputError naming
/// the link when an end that carries a pair is free.
[[nodiscard]] ModalLink make_modal_link(const ElasticLink& link, int modes);

/// The frame's motion as affine functions of the rigid accelerations qdd, in the beam frame:
/// a_O = V qdd + a0, epsilon = W qdd + epsilon0; its angular velocity and gravity.
struct FrameAffine {
  Eigen::Matrix<double, 2, Eigen::Dynamic> V;
  Eigen::RowVectorXd W;
  Vec2 a0 = Vec2::Zero(), gravity = Vec2::Zero();
  double epsilon0 = 0.0, omega = 0.0;
};

/// What one link adds to Kane's equations of the rigid coordinates and what its own equations
/// are, at a state (eta, eta'):
///   rigid:   (M_rigid + S) qdd + D^T eta'' = h_rigid + rigid_force
///   elastic: D qdd + eta'' = elastic_force
/// with elastic_force holding the stiffness, Rayleigh damping, geometric stiffness, Coriolis,
/// centrifugal, Euler and weight terms. Sized once for n rigid coordinates and k modes.
struct CouplingTerms {
  CouplingTerms(int rigid, int modes);
  Eigen::MatrixXd D, S;
  Eigen::VectorXd rigid_force, elastic_force;
  Eigen::VectorXd inertia_arm;  ///< moment_y + rotation_coupling eta + rotary (k)
  Eigen::MatrixXd stiffness;    ///< scratch: the geometric stiffness (k x k)
  Eigen::VectorXd scratch;      ///< k
  Eigen::VectorXd v_ju;         ///< n
};
void coupling_terms(const ModalLink& link, const FrameAffine& frame, const Eigen::Ref<const Eigen::VectorXd>& eta,
                    const Eigen::Ref<const Eigen::VectorXd>& eta_rate, const AxialForce& axial, CouplingTerms& out);

/// Powers of the link's internal forces at a state: dissipated by the Rayleigh damping (>= 0),
/// and of the geometric stiffness -eta'^T [k_G(P)] eta (the axial force's work on the link's
/// shortening, which the rigid geometry of the mechanism does not take up).
struct ElasticPowers {
  double damping = 0.0, geometric = 0.0;
};
[[nodiscard]] ElasticPowers elastic_powers(const ModalLink& link, const Eigen::Ref<const Eigen::VectorXd>& eta,
                                           const Eigen::Ref<const Eigen::VectorXd>& eta_rate, const AxialForce& axial);

/// The link's frame at a solved workspace (positions, velocities, accelerations), in the beam
/// frame: omega, epsilon, the origin's velocity and acceleration, gravity; the x axis (global).
struct FrameState {
  Vec2 axis = Vec2::UnitX(), origin_velocity = Vec2::Zero(), origin_acceleration = Vec2::Zero(), gravity = Vec2::Zero();
  double omega = 0.0, epsilon = 0.0;
};
[[nodiscard]] FrameState frame_state(const planar::Mechanism& m, const planar::Workspace& ws, const ModalLink& link);

/// The axial force along the link (for its geometric stiffness) from the frame's motion and the
/// pairs' reactions in ws [004 Eq. 20], as in the prescribed-motion analysis.
[[nodiscard]] AxialForce coupled_axial_force(const planar::Workspace& ws, const ModalLink& link,
                                             const FrameState& frame);

/// The extra inertia of the deformed link, int rho a dV - (the rigid body's), less the extra
/// moment of the weight: a force (beam frame) and a moment about the frame's origin.
struct DeformationInertia {
  Vec2 force = Vec2::Zero();
  double moment = 0.0;
};
[[nodiscard]] DeformationInertia deformation_inertia(const ModalLink& link, const FrameState& frame,
                                                     const Eigen::Ref<const Eigen::VectorXd>& eta,
                                                     const Eigen::Ref<const Eigen::VectorXd>& eta_rate,
                                                     const Eigen::Ref<const Eigen::VectorXd>& eta_acceleration);

/// The load the deformation adds to its body beyond the rigid body's inertia and weight: minus
/// the extra inertia force int rho a dV - (rigid), plus the extra moment of the weight, as a
/// wrench about the body frame's origin (global components), for the kinetostatic walk.
[[nodiscard]] planar::Wrench deformation_load(const ModalLink& link, const planar::Workspace& ws,
                                              const FrameState& frame, const Eigen::Ref<const Eigen::VectorXd>& eta,
                                              const Eigen::Ref<const Eigen::VectorXd>& eta_rate,
                                              const Eigen::Ref<const Eigen::VectorXd>& eta_acceleration);

/// The kinetic energy the deformation adds to the rigid body's (J), and the strain energy plus
/// the change of the weight's potential (J).
struct ElasticEnergy {
  double kinetic = 0.0, potential = 0.0;
};
[[nodiscard]] ElasticEnergy elastic_energy(const ModalLink& link, const FrameState& frame,
                                           const Eigen::Ref<const Eigen::VectorXd>& eta,
                                           const Eigen::Ref<const Eigen::VectorXd>& eta_rate);

/// Empty while the link's deflection (bounded by its modes' peaks) is under 10 % of its length,
/// else a sentence naming the link and the bound: the small-deformation model no longer holds
/// (a resonance, buckling, a growing vibration).
[[nodiscard]] std::string deflection_problem(const ModalLink& link, const Eigen::Ref<const Eigen::VectorXd>& eta);

/// The nodal deflections {d} = [Phi] eta (free dofs).
void nodal_deflections(const ModalLink& link, const Eigen::Ref<const Eigen::VectorXd>& eta, Eigen::VectorXd& d);

}  // namespace linkdyn::flex
