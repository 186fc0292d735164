#pragma once
// Planar beam finite elements on a moving frame [004 Sects. 3-4]: two nodes with axial u,
// transverse v and rotation theta; linear axial and cubic Hermite bending shape functions.
// Element dofs (u1, v1, theta1, u2, v2, theta2), in the beam frame (x along the beam).
// The frame turns with omega and epsilon (planar: [omega]_L = omega J, J = [[0, -1], [1, 0]]),
// its origin (the beam's first end) accelerates with a_O.
#include <Eigen/Dense>
#include <array>
#include <vector>

#include "linkdyn/core/geometry.hpp"

namespace linkdyn::flex {

using Matrix6 = Eigen::Matrix<double, 6, 6>;
using Matrix62 = Eigen::Matrix<double, 6, 2>;
using ShapeMatrix = Eigen::Matrix<double, 2, 6>;

/// How an elastic link's end is held in its frame (docs/elastic-links.md): clamped (u, v, theta
/// fixed), pinned (u, v), sliding (v), free.
enum class BeamSupport { free, pinned, sliding, clamped };

/// Material and cross-section: Young's modulus E (Pa), density rho (kg/m^3), area A (m^2),
/// second moment of area I (m^4), and the section modulus W = I / c of its extreme fibres (m^3;
/// 0: not given, no stresses).
struct BeamSection {
  double E = 0.0, rho = 0.0, A = 0.0, I = 0.0;
  double W = 0.0;
  [[nodiscard]] double mass_per_length() const { return rho * A; }
};

/// A cross-section's area (m^2), second moment of area about its neutral axis (m^4) and section
/// modulus W = I / c (m^3; c the extreme fibre's distance from the neutral axis, in the
/// mechanism's plane).
struct SectionProperties {
  double area = 0.0, second_moment = 0.0, modulus = 0.0;
};
/// A solid rectangle, `height` in the mechanism's plane.
SectionProperties rectangle_section(double width, double height);
/// A round tube of diameters `outer` > `inner` (0: a solid bar).
SectionProperties tube_section(double outer, double inner);
/// A symmetric I of overall `height` (in the mechanism's plane) and `width`, flanges `flange`
/// thick, web `web` thick (2 flange < height, web <= width).
SectionProperties i_section(double height, double width, double flange, double web);

/// A length of uniform section in `elements` equal elements: a beam is one or more of them end
/// to end (a stepped shaft, a tapered link in steps).
struct BeamSegment {
  BeamSection section;
  double length = 0.0;
  int elements = 1;
};

/// [N] at s in [0, h]: row 0 the axial displacement u, row 1 the transverse v [004 Eq. 1].
[[nodiscard]] ShapeMatrix shape_functions(double h, double s);
/// d/ds of the transverse row of [N] (the slope), at s in [0, h].
[[nodiscard]] Eigen::Matrix<double, 1, 6> slope_functions(double h, double s);
/// d^2/ds^2 of the transverse row (the curvature) and d/ds of the axial row (the strain).
[[nodiscard]] Eigen::Matrix<double, 1, 6> curvature_functions(double h, double s);
[[nodiscard]] Eigen::Matrix<double, 1, 6> strain_functions(double h, double s);

// Element matrices in closed form [004 Eq. 18]; tests check them against Gauss quadrature.
/// [m] = int rho [N]^T [N] dV (consistent mass, no rotary inertia).
[[nodiscard]] Matrix6 element_mass(const BeamSection& section, double h);
/// [k] = int EA u'^2 + EI v''^2 (the elastic stiffness of [004 Eq. 19]).
[[nodiscard]] Matrix6 element_stiffness(const BeamSection& section, double h);
/// int rho [N]^T J [N] dV, skew-symmetric: [c(omega)] = 2 omega times it, [k(epsilon)] =
/// epsilon times it [004 Eq. 18].
[[nodiscard]] Matrix6 element_rotation_coupling(const BeamSection& section, double h);
/// [m_O] = int rho [N]^T dV (6x2, columns x and y of the frame) [004 Eq. 18].
[[nodiscard]] Matrix62 element_translation_load(const BeamSection& section, double h);
/// int rho [N]^T s dV, s from the element's first node (6x2): with [m_O] it gives the first
/// moment int rho [N]^T {r}_L dV of Q(epsilon) and Q(omega) [004 Eq. 18].
[[nodiscard]] Matrix62 element_first_moment(const BeamSection& section, double h);
/// Geometric stiffness of the axial force P (tension positive) varying quadratically along the
/// element, P(0) = p0, P(h/2) = pm, P(h) = p1: int P v'^2 ds (not in 004: Kane, Ryan &
/// Banerjee 1987).
[[nodiscard]] Matrix6 element_geometric_stiffness(double h, double p0, double pm, double p1);

/// The motion of a beam's frame at an instant, everything in the beam frame: angular velocity
/// and acceleration, the origin's acceleration a_O, gravity, and the forces that the
/// neighbouring bodies exert on the beam at its two ends (from kinetostatics).
struct FrameMotion {
  double omega = 0.0, epsilon = 0.0;
  Vec2 origin_acceleration = Vec2::Zero();
  Vec2 gravity = Vec2::Zero();
  std::array<Vec2, 2> end_force{Vec2::Zero(), Vec2::Zero()};
};

/// A global vector's components in a beam frame whose x axis is the unit vector `axis` (R^T v,
/// [004 Eq. 2]).
[[nodiscard]] inline Vec2 in_beam_frame(const Vec2& v, const Vec2& axis) {
  return {axis.x() * v.x() + axis.y() * v.y(), -axis.y() * v.x() + axis.x() * v.y()};
}

/// The axial force (tension) along the beam, P(s) = c0 + c1 s + c2 M0(s) + c3 M1(s) with
/// M0(s) = int_0^s rho A and M1(s) = int_0^s rho A x dx (BeamModel::mass_moments): equilibrium of
/// the part [0, s] under the end force and the distributed inertia and weight, blended linearly
/// with the equilibrium of [s, L] so that both end forces are met even when they do not balance
/// the beam's own mass exactly. Quadratic within each element (uniform beam: c0 + c1' s + c2' s^2).
struct AxialForce {
  std::array<double, 4> c{0.0, 0.0, 0.0, 0.0};
};

/// A point mass and rotary inertia attached at a node (a tip mass, a pin's hardware): it adds to
/// the node's u and v the mass and to its rotation the inertia, and rides the frame like the
/// beam's own mass (its translation, first moment and rotation-coupling terms).
struct NodeMass {
  int node = 0;
  double mass = 0.0, inertia = 0.0;  ///< kg, kg m^2
};

/// A beam of one or more uniform segments (n elements in all, equal within a segment) with its
/// supports, assembled once: the matrices restricted to the
/// free dofs (supports remove u, v, theta of an end node as their kind says: clamped u v theta,
/// pinned u v, sliding v, free none). Immutable.
struct BeamModel {
  BeamSection section;  ///< the first segment's (a uniform beam's)
  std::vector<BeamSegment> segments;
  double length = 0.0;
  int elements = 0;
  std::vector<double> node_s;                      ///< each node's distance from the first end
  std::vector<int> element_segment;                ///< each element's segment
  std::vector<double> mass_moment0, mass_moment1;  ///< M0, M1 of AxialForce at each node
  std::array<BeamSupport, 2> supports{BeamSupport::pinned, BeamSupport::pinned};
  bool geometric_stiffness = true;
  std::vector<NodeMass> node_masses;
  /// Rayleigh damping c = alpha [m] + beta [k] (1/s and s): mode k's damping ratio is
  /// alpha / (2 omega_k) + beta omega_k / 2 (rayleigh_damping sets them from a ratio).
  double damping_alpha = 0.0, damping_beta = 0.0;

  int full_dofs = 0;                                   ///< 3 (n + 1)
  std::vector<int> free_dofs;                          ///< full dof of each free dof
  std::vector<int> reduced_of;                         ///< free index of each full dof, -1 when supported
  Eigen::MatrixXd mass, stiffness, rotation_coupling;  ///< on the free dofs
  Eigen::MatrixXd translation_load, first_moment;      ///< n_free x 2
  /// int f_k(s) v'^2 ds over the beam for f = 1, s, M0, M1: the geometric stiffness of P(s)
  /// is sum c_k G_k.
  std::array<Eigen::MatrixXd, 4> geometric;
  /// The attached rotary inertias on their nodes' free rotations (kg m^2): the frame's epsilon
  /// loads them with -epsilon J (the rotation of a node is the frame's plus theta).
  Eigen::VectorXd rotary;
  Eigen::LLT<Eigen::MatrixXd> mass_factor;

  [[nodiscard]] int size() const { return static_cast<int>(free_dofs.size()); }
  [[nodiscard]] double element_length(int e) const {
    const BeamSegment& segment = segments[static_cast<size_t>(element_segment[static_cast<size_t>(e)])];
    return segment.length / segment.elements;
  }
  [[nodiscard]] const BeamSection& element_section(int e) const {
    return segments[static_cast<size_t>(element_segment[static_cast<size_t>(e)])].section;
  }
  /// The element that holds s (the first at a node between two).
  [[nodiscard]] int element_at(double s) const;
  /// rho A L over the segments, without attached masses (kg).
  [[nodiscard]] double beam_mass() const;
};

/// Assembles the beam. Throws InputError (entity "beam") on non-positive data or supports that
/// leave a rigid-body motion (e.g. free-free, pinned-free).
[[nodiscard]] BeamModel make_beam(const std::vector<BeamSegment>& segments, std::array<BeamSupport, 2> supports,
                                  bool geometric_stiffness = true, const std::vector<NodeMass>& node_masses = {});
/// A uniform beam: one segment.
[[nodiscard]] BeamModel make_beam(const BeamSection& section, double length, int elements,
                                  std::array<BeamSupport, 2> supports, bool geometric_stiffness = true,
                                  const std::vector<NodeMass>& node_masses = {});

/// Rayleigh coefficients (alpha, beta) that give the damping ratio `zeta` to the first two
/// modes of the beam at rest (and, between them, slightly less; above them, more).
[[nodiscard]] std::pair<double, double> rayleigh_damping(const BeamModel& beam, double zeta);

/// The operators of [004 Eq. 20] at one instant: m d'' + c d' + k_total d = load, with
/// c = [c(omega)] + alpha [m] + beta [k] (Rayleigh), k_total = [k] + [k(epsilon)] + [k(omega)] (+ the geometric
/// stiffness), load = [m_O] a_O + Q(epsilon) + Q(omega) + weight + the end forces. Sized once by make_workspace.
struct BeamOperators {
  Eigen::MatrixXd damping, stiffness;
  Eigen::VectorXd load;
  AxialForce axial;
};
[[nodiscard]] BeamOperators make_operators(const BeamModel& beam);

[[nodiscard]] AxialForce axial_force(const BeamModel& beam, const FrameMotion& motion);
/// P(s) of the axial force.
[[nodiscard]] double axial_at(const BeamModel& beam, const AxialForce& axial, double s);
/// Fills `out` for the frame motion [004 Eq. 20]; no allocation.
void evaluate_operators(const BeamModel& beam, const FrameMotion& motion, BeamOperators& out);

/// Displacement (u, v) at s along the beam from the free-dof vector.
[[nodiscard]] Vec2 displacement_at(const BeamModel& beam, const Eigen::VectorXd& free_dofs, double s);

/// The support kind's name, as in the model file ("pinned").
[[nodiscard]] const char* support_name(BeamSupport support);

}  // namespace linkdyn::flex
