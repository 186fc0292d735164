// Internal forces of an elastic link by element-end force recovery [004 Eqs. 18-20].
#include "linkdyn/flex/internal_forces.hpp"

namespace linkdyn::flex {

InternalForceWorkspace::InternalForceWorkspace(const BeamModel& beam)
    : operators(make_operators(beam)), acceleration(beam.size()), d(Eigen::VectorXd::Zero(beam.full_dofs)), v(d), a(d) {
  const int stations = 2 * beam.elements + 1;
  for (Eigen::VectorXd* per_station : {&forces.s, &forces.normal, &forces.shear, &forces.moment})
    per_station->resize(stations);
  for (int e = 0; e < beam.elements; ++e) {
    forces.s(2 * e) = beam.node_s[static_cast<size_t>(e)];
    forces.s(2 * e + 1) = beam.node_s[static_cast<size_t>(e)] + 0.5 * beam.element_length(e);
  }
  forces.s(stations - 1) = beam.length;
}

void internal_forces(const BeamModel& beam, const FrameMotion& motion,
                     const Eigen::Ref<const Eigen::VectorXd>& displacement,
                     const Eigen::Ref<const Eigen::VectorXd>& velocity, InternalForceWorkspace& ws) {
  // The accelerations of the instant from the equation of motion [004 Eq. 20].
  evaluate_operators(beam, motion, ws.operators);
  ws.acceleration = ws.operators.load;
  ws.acceleration.noalias() -= ws.operators.damping * velocity;
  ws.acceleration.noalias() -= ws.operators.stiffness * displacement;
  beam.mass_factor.solveInPlace(ws.acceleration);
  for (int r = 0; r < beam.size(); ++r) {
    const int full = beam.free_dofs[static_cast<size_t>(r)];
    ws.d(full) = displacement(r), ws.v(full) = velocity(r), ws.a(full) = ws.acceleration(r);
  }
  // The element matrices of [004 Eq. 18], as make_beam and evaluate_operators assemble them.
  const double w = motion.omega, eps = motion.epsilon;
  const Vec2 translation = motion.gravity - motion.origin_acceleration;
  const AxialForce& P = ws.operators.axial;
  InternalForces& out = ws.forces;
  out.normal.setZero(), out.shear.setZero(), out.moment.setZero();
  for (int e = 0; e < beam.elements; ++e) {
    const BeamSection& sec = beam.element_section(e);
    const double h = beam.element_length(e);
    const Matrix6 me = element_mass(sec, h), ke = element_stiffness(sec, h), ge = element_rotation_coupling(sec, h);
    const Matrix62 te = element_translation_load(sec, h), fe = element_first_moment(sec, h);
    const Matrix6 ce = (2.0 * w) * ge + beam.damping_alpha * me + beam.damping_beta * ke;
    const int at = 3 * e;
    const double x0 = beam.node_s[static_cast<size_t>(e)], xm = x0 + 0.5 * h, x1 = x0 + h;
    Matrix6 k = ke + eps * ge - (w * w) * me;
    if (beam.geometric_stiffness)
      k += element_geometric_stiffness(h, axial_at(beam, P, x0), axial_at(beam, P, xm), axial_at(beam, P, x1));
    const Matrix62 moment = fe + x0 * te;  // int rho N^T (x0 + s) dV
    Eigen::Matrix<double, 6, 1> f = te * translation - eps * moment.col(1) + (w * w) * moment.col(0);
    const Eigen::Matrix<double, 6, 1> end =
        me * ws.a.segment<6>(at) + ce * ws.v.segment<6>(at) + k * ws.d.segment<6>(at) - f;
    // The forces (N, T) and moment M on a cut's positive face: -end at the element's first node,
    // +end at its second; a shared node gets half from each side. The shear reported is
    // V = dM/ds = -T (moments about the cut: dM/ds + T = 0).
    const double left = e == 0 ? 1.0 : 0.5, right = e == beam.elements - 1 ? 1.0 : 0.5;
    out.normal(2 * e) -= left * end(0), out.shear(2 * e) += left * end(1), out.moment(2 * e) -= left * end(2);
    out.normal(2 * e + 2) += right * end(3), out.shear(2 * e + 2) -= right * end(4);
    out.moment(2 * e + 2) += right * end(5);
  }
  for (int e = 0; e < beam.elements; ++e) {  // the middles, from their element's ends
    const int i0 = 2 * e, im = i0 + 1, i1 = i0 + 2;
    // A cubic's middle: f(h/2) = (f0 + f1) / 2 - h^2 f''(h/2) / 8. M'' = dV/ds = q, the
    // transverse load per length (its element mean); N'' = -dq_x/ds, whose rigid-motion part is
    // the axial force's c3 M1'' = -rho A omega^2.
    const double h = beam.element_length(e);
    const double q = (out.shear(i1) - out.shear(i0)) / h;
    out.normal(im) =
        0.5 * (out.normal(i0) + out.normal(i1)) - P.c[3] * beam.element_section(e).mass_per_length() * h * h / 8.0;
    out.shear(im) = 0.5 * (out.shear(i0) + out.shear(i1));
    out.moment(im) = 0.5 * (out.moment(i0) + out.moment(i1)) - q * h * h / 8.0;
  }
}

}  // namespace linkdyn::flex
