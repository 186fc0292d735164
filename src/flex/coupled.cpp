// An elastic link coupled with the mechanism's motion: its beam on modes at rest and its terms
// in Kane's equations [004 Eqs. 13-18, A46] (the derivation: docs/elastic-links.md).
#include "linkdyn/flex/coupled.hpp"

#include <fmt/core.h>

#include "linkdyn/core/error.hpp"

namespace linkdyn::flex {

ModalLink make_modal_link(const ElasticLink& link, int modes) {
  ModalLink out;
  out.name = link.name;
  out.body = link.body;
  out.origin = link.point[0];
  out.axis = link.axis;
  out.end_joints = link.end_joints;
  out.where = link.where;
  std::array<BeamSupport, 2> supports = link.beam.supports;
  for (int end = 0; end < 2; ++end) {
    if (link.end_joints[end].empty()) continue;
    if (supports[end] == BeamSupport::free)
      throw InputError(link.where, "elastic link '" + link.name + "'",
                       fmt::format("its {} end is free but carries a pair", end == 0 ? "first" : "second"),
                       "give that end's support as pinned, sliding or clamped");
    // The pair holds the end at the body's point: axially too (its reaction does no work on eta).
    if (supports[end] == BeamSupport::sliding) supports[end] = BeamSupport::pinned;
  }
  const BeamModel& b = link.beam;
  try {
    out.beam = make_beam(b.segments, supports, b.geometric_stiffness, b.node_masses);
  } catch (const InputError& e) {
    throw InputError(link.where, "elastic link '" + link.name + "'", e.what(), "fix the link's supports");
  }
  out.beam.damping_alpha = b.damping_alpha, out.beam.damping_beta = b.damping_beta;
  const BeamModel& beam = out.beam;
  const int k = modes <= 0 ? beam.size() : std::min(modes, beam.size());
  out.modes = k;
  // K phi = omega^2 M phi, phi^T M phi = 1.
  const Eigen::GeneralizedSelfAdjointEigenSolver<Eigen::MatrixXd> modal(beam.stiffness, beam.mass);
  if (modal.info() != Eigen::Success)
    throw AnalysisError("elastic link '" + link.name + "': the modes at rest do not converge");
  const Eigen::MatrixXd& phi = out.shapes = modal.eigenvectors().leftCols(k);
  out.frequency_squared = modal.eigenvalues().head(k);
  out.rotation_coupling = phi.transpose() * beam.rotation_coupling * phi;
  out.translation = phi.transpose() * beam.translation_load;
  out.moment_x = phi.transpose() * beam.first_moment.col(0);
  out.moment_y = phi.transpose() * beam.first_moment.col(1);
  out.rotary = phi.transpose() * beam.rotary;
  out.translational_mass = phi.transpose() * (beam.mass - Eigen::MatrixXd(beam.rotary.asDiagonal())) * phi;
  for (int p = 0; p < 4; ++p) out.geometric[p] = phi.transpose() * beam.geometric[p] * phi;
  out.peak_displacement = Eigen::VectorXd::Zero(k);
  for (int r = 0; r < beam.size(); ++r)
    if (beam.free_dofs[static_cast<size_t>(r)] % 3 != 2)  // u or v, not a rotation
      out.peak_displacement = out.peak_displacement.cwiseMax(phi.row(r).transpose().cwiseAbs());
  return out;
}

CouplingTerms::CouplingTerms(int rigid, int modes)
    : D(Eigen::MatrixXd::Zero(modes, rigid)),
      S(Eigen::MatrixXd::Zero(rigid, rigid)),
      rigid_force(Eigen::VectorXd::Zero(rigid)),
      elastic_force(Eigen::VectorXd::Zero(modes)),
      inertia_arm(Eigen::VectorXd::Zero(modes)),
      stiffness(Eigen::MatrixXd::Zero(modes, modes)),
      scratch(Eigen::VectorXd::Zero(modes)),
      v_ju(Eigen::VectorXd::Zero(rigid)) {}

namespace {

/// The geometric stiffness on the modes: sum c_p G_p.
void geometric_stiffness(const ModalLink& link, const AxialForce& axial, Eigen::MatrixXd& out) {
  out = axial.c[0] * link.geometric[0];
  for (int p = 1; p < 4; ++p) out += axial.c[p] * link.geometric[p];
}

/// a^T M b without a temporary (the integrator's steps allocate nothing).
double bilinear(const Eigen::Ref<const Eigen::VectorXd>& a, const Eigen::MatrixXd& M,
                const Eigen::Ref<const Eigen::VectorXd>& b) {
  double sum = 0.0;
  for (Eigen::Index j = 0; j < M.cols(); ++j) sum += b(j) * M.col(j).dot(a);
  return sum;
}

}  // namespace

void coupling_terms(const ModalLink& link, const FrameAffine& f, const Eigen::Ref<const Eigen::VectorXd>& eta,
                    const Eigen::Ref<const Eigen::VectorXd>& eta_rate, const AxialForce& axial, CouplingTerms& out) {
  const double w = f.omega, w2 = w * w;
  // u = int rho delta dV and its rate (beam frame).
  const Vec2 u = link.translation.transpose() * eta, u_rate = link.translation.transpose() * eta_rate;
  const Vec2 ju = perp(u);
  // e = int rho [N]^T J p dV's part in eta plus the rotary inertias: [004 Eq. 18]'s
  // Q(epsilon) + [k(epsilon)] d per unit epsilon.
  out.inertia_arm = link.moment_y + link.rotary;
  out.inertia_arm.noalias() += link.rotation_coupling * eta;
  // Coupling of the accelerations: D = [Phi]^T [m_O] V + e W.
  out.D.noalias() = link.translation * f.V;
  out.D.noalias() += out.inertia_arm * f.W;
  // The rigid coordinates' extra mass: the deformation's moment of inertia about the origin,
  // 2 int rho r.delta + int rho |delta|^2, and the first moment int rho delta crossed with
  // the origin's acceleration (symmetric).
  const double polar = 2.0 * link.moment_x.dot(eta) + bilinear(eta, link.translational_mass, eta);
  out.v_ju.noalias() = f.V.transpose() * ju;
  out.S.noalias() = out.v_ju * f.W;
  out.S.noalias() += f.W.transpose() * out.v_ju.transpose();
  out.S.noalias() += polar * (f.W.transpose() * f.W);
  // Velocity-product and weight terms on the rigid coordinates: -V^T F_v - W^T M_v + W^T (Ju).g
  // with F_v = epsilon0 J u - omega^2 u + 2 omega J u', M_v = epsilon0 polar
  // + 2 omega (int rho r.delta' + int rho delta.delta') - u . J a0.
  const Vec2 force = f.epsilon0 * ju - w2 * u + 2.0 * w * perp(u_rate);
  const double moment = f.epsilon0 * polar +
                        2.0 * w * (link.moment_x.dot(eta_rate) + bilinear(eta, link.translational_mass, eta_rate)) -
                        u.dot(perp(f.a0)) - ju.dot(f.gravity);
  out.rigid_force.noalias() = -f.V.transpose() * force;
  out.rigid_force.noalias() -= moment * f.W.transpose();
  // The link's own equations [004 Eq. 20] on the modes, less D qdd.
  out.elastic_force.noalias() = link.translation * (f.gravity - f.a0);
  out.elastic_force.noalias() -= f.epsilon0 * out.inertia_arm;
  out.scratch.noalias() = link.translational_mass * eta;
  out.elastic_force.noalias() += w2 * (link.moment_x + out.scratch);
  out.scratch.noalias() = link.rotation_coupling * eta_rate;
  out.elastic_force.noalias() -= (2.0 * w) * out.scratch;
  out.elastic_force -= link.beam.damping_alpha * eta_rate;
  out.elastic_force.noalias() -= link.frequency_squared.cwiseProduct(link.beam.damping_beta * eta_rate + eta);
  if (link.beam.geometric_stiffness) {
    geometric_stiffness(link, axial, out.stiffness);
    out.elastic_force.noalias() -= out.stiffness * eta;
  }
}

ElasticPowers elastic_powers(const ModalLink& link, const Eigen::Ref<const Eigen::VectorXd>& eta,
                             const Eigen::Ref<const Eigen::VectorXd>& eta_rate, const AxialForce& axial) {
  ElasticPowers p;
  const BeamModel& b = link.beam;
  p.damping = b.damping_alpha * eta_rate.squaredNorm() +
              b.damping_beta * eta_rate.dot(link.frequency_squared.cwiseProduct(eta_rate));
  if (b.geometric_stiffness) {
    // -eta'^T (sum c_q G_q) eta, without a scratch matrix.
    for (int q = 0; q < 4; ++q)
      if (axial.c[q] != 0.0) p.geometric -= axial.c[q] * bilinear(eta_rate, link.geometric[q], eta);
  }
  return p;
}

FrameState frame_state(const planar::Mechanism& m, const planar::Workspace& ws, const ModalLink& link) {
  const planar::BodyState& body = ws.body[link.body];
  FrameState f;
  f.axis = body.arm(link.axis);
  auto to_beam = [&](const Vec2& g) { return in_beam_frame(g, f.axis); };
  f.omega = body.omega, f.epsilon = body.alpha;
  f.origin_velocity = to_beam(body.velocity(link.origin));
  f.origin_acceleration = to_beam(body.acceleration(link.origin));
  f.gravity = to_beam(m.spec().gravity);
  return f;
}

AxialForce coupled_axial_force(const planar::Workspace& ws, const ModalLink& link, const FrameState& frame) {
  FrameMotion motion;
  motion.omega = frame.omega, motion.epsilon = frame.epsilon;
  motion.origin_acceleration = frame.origin_acceleration, motion.gravity = frame.gravity;
  for (int end = 0; end < 2; ++end) {
    Vec2 force = Vec2::Zero();
    for (const auto& [joint, sign] : link.end_joints[end]) force += sign * ws.reaction[joint].force;
    motion.end_force[end] = in_beam_frame(force, frame.axis);
  }
  return axial_force(link.beam, motion);
}

DeformationInertia deformation_inertia(const ModalLink& link, const FrameState& f,
                                       const Eigen::Ref<const Eigen::VectorXd>& eta,
                                       const Eigen::Ref<const Eigen::VectorXd>& eta_rate,
                                       const Eigen::Ref<const Eigen::VectorXd>& eta_acceleration) {
  const double w = f.omega, e = f.epsilon;
  const Vec2 u = link.translation.transpose() * eta, u_rate = link.translation.transpose() * eta_rate,
             u_acc = link.translation.transpose() * eta_acceleration;
  const Vec2 ju = perp(u);
  const double polar = 2.0 * link.moment_x.dot(eta) + bilinear(eta, link.translational_mass, eta);
  const double arm_acc =
      (link.moment_y + link.rotary).dot(eta_acceleration) + bilinear(eta, link.rotation_coupling, eta_acceleration);
  return {e * ju - w * w * u + 2.0 * w * perp(u_rate) + u_acc,
          e * polar + arm_acc +
              2.0 * w * (link.moment_x.dot(eta_rate) + bilinear(eta, link.translational_mass, eta_rate)) -
              u.dot(perp(f.origin_acceleration)) - ju.dot(f.gravity)};
}

planar::Wrench deformation_load(const ModalLink& link, const planar::Workspace& ws, const FrameState& f,
                                const Eigen::Ref<const Eigen::VectorXd>& eta,
                                const Eigen::Ref<const Eigen::VectorXd>& eta_rate,
                                const Eigen::Ref<const Eigen::VectorXd>& eta_acceleration) {
  const DeformationInertia inertia = deformation_inertia(link, f, eta, eta_rate, eta_acceleration);
  // Minus the inertia, in global components, about the body frame's origin.
  const Vec2 force = rotate(inertia.force, f.axis), arm = ws.body[link.body].arm(link.origin);
  return {-force.x(), -force.y(), -inertia.moment - cross(arm, force)};
}

ElasticEnergy elastic_energy(const ModalLink& link, const FrameState& f, const Eigen::Ref<const Eigen::VectorXd>& eta,
                             const Eigen::Ref<const Eigen::VectorXd>& eta_rate) {
  // 1/2 int rho |v|^2 dV less the rigid body's, v = v_O + omega J p + [N] d' (beam frame).
  const double w = f.omega;
  const Vec2 u = link.translation.transpose() * eta, u_rate = link.translation.transpose() * eta_rate;
  ElasticEnergy out;
  out.kinetic = w * f.origin_velocity.dot(perp(u)) + f.origin_velocity.dot(u_rate) + w * w * link.moment_x.dot(eta) +
                w * (link.moment_y + link.rotary).dot(eta_rate) +
                0.5 * w * w * bilinear(eta, link.translational_mass, eta) -
                w * bilinear(eta, link.rotation_coupling, eta_rate) + 0.5 * eta_rate.squaredNorm();
  out.potential = 0.5 * eta.dot(link.frequency_squared.cwiseProduct(eta)) - f.gravity.dot(u);
  return out;
}

std::string deflection_problem(const ModalLink& link, const Eigen::Ref<const Eigen::VectorXd>& eta) {
  const double bound = eta.cwiseAbs().dot(link.peak_displacement);
  if (bound <= 0.1 * link.beam.length) return {};
  return fmt::format(
      "elastic link '{}' deflects by up to {:.3g} m, more than 10 % of its {:.3g} m length: the small-deformation "
      "model no longer holds (a resonance, buckling or a growing vibration); stiffen or damp the link, or check its "
      "section",
      link.name, bound, link.beam.length);
}

void nodal_deflections(const ModalLink& link, const Eigen::Ref<const Eigen::VectorXd>& eta, Eigen::VectorXd& d) {
  d.noalias() = link.shapes * eta;
}

}  // namespace linkdyn::flex
