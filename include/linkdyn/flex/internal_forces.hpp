#pragma once
// Internal forces along an elastic link from its response: the element-end forces recovered
// from each element's own equation [004 Eq. 20] (consistent mass, damping, stiffness and loads:
// exact at the nodes for the element's loads), mid-element values by equilibrium of the
// half-element, and the extreme-fibre stress of the section.
#include <Eigen/Dense>

#include "linkdyn/flex/beam.hpp"

namespace linkdyn::flex {

/// Normal force N (tension positive), shear force V = dM/ds and bending moment M (positive when
/// it bends the beam towards +y of its frame, M = EI v'') at the stations s: every node and every
/// element's middle, in order along the beam (2 elements + 1 stations).
struct InternalForces {
  Eigen::VectorXd s, normal, shear, moment;
};

/// Buffers sized once for a beam (no allocation per call).
struct InternalForceWorkspace {
  explicit InternalForceWorkspace(const BeamModel& beam);
  BeamOperators operators;
  Eigen::VectorXd acceleration;  ///< free dofs
  Eigen::VectorXd d, v, a;       ///< full dofs (0 where supported)
  InternalForces forces;
};

/// The internal forces at an instant from the displacements and velocities of the free dofs, the
/// frame's motion (loads, axial force) and the accelerations that the equation of motion gives
/// there (m a = load - c v - k d, which Newmark's rule satisfies at its steps).
/// Element e's end forces F = m_e a_e + c_e v_e + k_e d_e - f_e act on it at its nodes:
/// (N, V, M) = -F at its first node, +F at its second; at a node shared by two elements the two
/// agree (nodal equilibrium) and their mean is kept. In the middle, M = (M0 + M1) / 2 - q h^2 / 8
/// with q = (V1 - V0) / h the element's mean transverse load (exact for loads linear along it),
/// V the ends' mean, N the ends' mean corrected by the curvature of the rigid motion's axial
/// force (-h^2 c2 / 4, c2 of AxialForce: exact for a spinning link).
void internal_forces(const BeamModel& beam, const FrameMotion& motion,
                     const Eigen::Ref<const Eigen::VectorXd>& displacement,
                     const Eigen::Ref<const Eigen::VectorXd>& velocity, InternalForceWorkspace& ws);

/// The extreme fibres' normal stresses N / A +- |M| / W of a section of area A and section
/// modulus W = I / c (c the largest distance of a fibre from the neutral axis): {largest,
/// smallest} (Pa).
[[nodiscard]] inline std::pair<double, double> fibre_stresses(double normal, double moment, double area,
                                                              double modulus) {
  const double axial = normal / area, bending = std::abs(moment) / modulus;
  return {axial + bending, axial - bending};
}

}  // namespace linkdyn::flex
