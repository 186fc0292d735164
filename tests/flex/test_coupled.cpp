// The coupled elastic link's terms (flex/coupled.hpp) against independent computations: the
// prescribed-motion operators of [004 Eq. 20] projected on the modes, and the inertia and kinetic
// energy of the deformed beam integrated point by point along it (Gauss quadrature).
#include <gtest/gtest.h>

#include "linkdyn/flex/coupled.hpp"

using namespace linkdyn;
using namespace linkdyn::flex;

namespace {

/// A 0.4 m steel bar of 6 elements pinned at both ends in its frame, with a point mass and a
/// rotary inertia at node 2, as the coupled simulation holds it (every mode kept).
ModalLink test_link(int modes = 0) {
  ElasticLink link;
  link.name = "bar";
  link.body = 1;
  link.beam = make_beam({210e9, 7850, 1.2e-4, 1.0e-9}, 0.4, 6, {BeamSupport::pinned, BeamSupport::pinned}, true,
                        {NodeMass{2, 0.3, 2e-4}});
  link.beam.damping_alpha = 3.0, link.beam.damping_beta = 2e-5;
  return make_modal_link(link, modes);
}

/// A deformation state: eta, eta', eta'' of distinct sizes per mode.
Eigen::VectorXd state(int k, double scale, double phase) {
  Eigen::VectorXd x(k);
  for (int i = 0; i < k; ++i) x(i) = scale * std::sin(1.0 + phase + 0.7 * i) / (1.0 + i);
  return x;
}

/// The full dof vector (supported dofs 0) of the free-dof vector d.
Eigen::VectorXd full(const BeamModel& beam, const Eigen::VectorXd& d) {
  Eigen::VectorXd out = Eigen::VectorXd::Zero(beam.full_dofs);
  for (int r = 0; r < beam.size(); ++r) out(beam.free_dofs[static_cast<size_t>(r)]) = d(r);
  return out;
}

/// Visits every mass point of the beam (Gauss points of each element with their mass, then the
/// attached masses) with its position s, mass, and (u, v) and rotation theta of the deformation
/// from the full dof vectors of d, d', d''.
template <typename Visit>
void along_beam(const BeamModel& beam, const Eigen::VectorXd& d, const Eigen::VectorXd& dv, const Eigen::VectorXd& da,
                Visit visit) {
  const double x[4] = {-0.861136311594053, -0.339981043584856, 0.339981043584856, 0.861136311594053};
  const double wg[4] = {0.347854845137454, 0.652145154862546, 0.652145154862546, 0.347854845137454};
  for (int e = 0; e < beam.elements; ++e)
    for (int g = 0; g < 4; ++g) {
      const double h = beam.element_length(e), mu = beam.element_section(e).mass_per_length();
      const double local = 0.5 * h * (1.0 + x[g]);
      const ShapeMatrix N = shape_functions(h, local);
      visit(beam.node_s[static_cast<size_t>(e)] + local, 0.5 * h * wg[g] * mu, N * d.segment<6>(3 * e),
            N * dv.segment<6>(3 * e), N * da.segment<6>(3 * e), 0.0, 0.0, 0.0);
    }
  for (const NodeMass& p : beam.node_masses) {
    const int u = 3 * p.node;
    visit(beam.node_s[static_cast<size_t>(p.node)], p.mass, Vec2(d(u), d(u + 1)), Vec2(dv(u), dv(u + 1)),
          Vec2(da(u), da(u + 1)), p.inertia, dv(u + 2), da(u + 2));
  }
}

}  // namespace

TEST(CoupledLink, ItsElasticEquationsAreThePrescribedMotionOperatorsProjectedOnTheModes) {
  // With every mode kept, eta'' = elastic_force - D qdd must equal [Phi]^T (load - c d' - k d)
  // of evaluate_operators at the frame motion a_O = V qdd + a0, epsilon = W qdd + epsilon0, and
  // the same axial force (1e-12 of the terms' size).
  const ModalLink link = test_link();
  const int k = link.modes, n = 2;
  FrameAffine frame;
  frame.V.resize(2, n);
  frame.V << 0.3, -1.2, 0.8, 0.25;
  frame.W.resize(n);
  frame.W << 1.1, -0.4;
  frame.a0 = Vec2(40.0, -25.0), frame.epsilon0 = 150.0, frame.omega = 210.0, frame.gravity = Vec2(3.0, -9.3);
  const Eigen::Vector2d qdd(900.0, -300.0);
  FrameMotion motion;
  motion.omega = frame.omega;
  motion.epsilon = frame.W.dot(qdd) + frame.epsilon0;
  motion.origin_acceleration = frame.V * qdd + frame.a0;
  motion.gravity = frame.gravity;
  const AxialForce axial = axial_force(link.beam, motion);
  const Eigen::VectorXd eta = state(k, 1e-4, 0.0), rate = state(k, 3e-2, 1.0);
  CouplingTerms terms(n, k);
  coupling_terms(link, frame, eta, rate, axial, terms);
  const Eigen::VectorXd coupled = terms.elastic_force - terms.D * qdd;

  BeamOperators op = make_operators(link.beam);
  evaluate_operators(link.beam, motion, op);
  const Eigen::VectorXd d = link.shapes * eta, dv = link.shapes * rate;
  const Eigen::VectorXd projected = link.shapes.transpose() * (op.load - op.damping * dv - op.stiffness * d);
  EXPECT_LT((coupled - projected).cwiseAbs().maxCoeff(), 1e-12 * projected.cwiseAbs().maxCoeff());
}

TEST(CoupledLink, ItsExtraInertiaAndKineticEnergyAreTheDeformedBeamsIntegratedPointByPoint) {
  // int rho (a - a_rigid) dV, the moment about the origin int rho p x a - (rigid) less the
  // weight's extra moment, and 1/2 int rho (|v|^2 - |v_rigid|^2) dV, with
  // a = a_O + epsilon J p - omega^2 p + 2 omega J delta' + delta'' [004 Eq. 15] and
  // v = v_O + omega J p + delta' at 4 Gauss points per element plus the attached mass (its
  // rotary inertia turning at omega + theta'): 1e-12 of the rigid terms.
  const ModalLink link = test_link(5);
  const BeamModel& beam = link.beam;
  const int k = link.modes;
  FrameState f;
  f.omega = 180.0, f.epsilon = -2400.0;
  f.origin_velocity = Vec2(3.0, -1.5), f.origin_acceleration = Vec2(-500.0, 260.0), f.gravity = Vec2(-4.0, -8.9);
  const Eigen::VectorXd eta = state(k, 2e-4, 0.3), rate = state(k, 5e-2, 1.3), acc = state(k, 40.0, 2.1);
  const Eigen::VectorXd d = full(beam, link.shapes * eta), dv = full(beam, link.shapes * rate),
                        da = full(beam, link.shapes * acc);
  Vec2 force = Vec2::Zero();
  double moment = 0.0, kinetic = 0.0, rigid_size = 0.0, energy_size = 0.0;
  const double w = f.omega, e = f.epsilon;
  along_beam(beam, d, dv, da,
             [&](double s, double m, const Vec2& delta, const Vec2& delta_v, const Vec2& delta_a, double J,
                 double theta_v, double theta_a) {
               const Vec2 r(s, 0.0), p = r + delta;
               const Vec2 a = f.origin_acceleration + e * perp(p) - w * w * p + 2.0 * w * perp(delta_v) + delta_a;
               const Vec2 a_rigid = f.origin_acceleration + e * perp(r) - w * w * r;
               force += m * (a - a_rigid);
               moment += m * (cross(p, a) - cross(r, a_rigid) - cross(delta, f.gravity)) + J * theta_a;
               const Vec2 v = f.origin_velocity + w * perp(p) + delta_v, v_rigid = f.origin_velocity + w * perp(r);
               kinetic += 0.5 * m * (v.squaredNorm() - v_rigid.squaredNorm()) +
                          0.5 * J * ((w + theta_v) * (w + theta_v) - w * w);
               rigid_size += m * a_rigid.norm();
               energy_size += 0.5 * m * v_rigid.squaredNorm();
             });
  const DeformationInertia inertia = deformation_inertia(link, f, eta, rate, acc);
  EXPECT_LT((inertia.force - force).norm(), 1e-12 * rigid_size);
  EXPECT_LT(std::abs(inertia.moment - moment), 1e-12 * rigid_size * beam.length);
  EXPECT_GT(force.norm(), 1e-3 * rigid_size);  // the deformation's terms are not negligible here
  const ElasticEnergy energy = elastic_energy(link, f, eta, rate);
  EXPECT_LT(std::abs(energy.kinetic - kinetic), 1e-12 * energy_size);
  EXPECT_GT(std::abs(kinetic), 1e-4 * energy_size);
}

TEST(CoupledLink, ItsModesAreMassNormalisedWithTheBeamsFrequencies) {
  // [Phi]^T [m] [Phi] = 1, [Phi]^T [k] [Phi] = diag(omega^2) ascending; the first of a
  // pinned-pinned bar without its point mass: (pi / L)^2 sqrt(EI / rho A) within 1e-5.
  ElasticLink plain;
  plain.name = "bar";
  plain.beam = make_beam({210e9, 7850, 1.2e-4, 1.0e-9}, 0.4, 12, {BeamSupport::pinned, BeamSupport::pinned});
  const ModalLink link = make_modal_link(plain, 4);
  const BeamModel& beam = link.beam;
  EXPECT_LT((link.shapes.transpose() * beam.mass * link.shapes - Eigen::MatrixXd::Identity(4, 4)).norm(), 1e-12);
  const Eigen::MatrixXd k = link.shapes.transpose() * beam.stiffness * link.shapes;
  EXPECT_LT((k - Eigen::MatrixXd(link.frequency_squared.asDiagonal())).norm(), 1e-9 * link.frequency_squared(3));
  const double omega1 = std::pow(M_PI / 0.4, 2) * std::sqrt(210e9 * 1e-9 / (7850 * 1.2e-4));
  EXPECT_NEAR(std::sqrt(link.frequency_squared(0)), omega1, 1e-5 * omega1);
}
