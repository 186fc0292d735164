// The coupled elastic links at one evaluation (flex/coupled.hpp; the Kane and full methods).
#include "dynamics/elastic_coupling.hpp"

#include "dynamics/evaluator.hpp"

namespace linkdyn::dynamics {

ElasticCoupling::ElasticCoupling(const DynamicSystem& system, int columns, double tolerance)
    : links_(system.elastic), tolerance_(tolerance) {
  size_t at = 0;
  int largest = 0;
  for (const flex::ModalLink& link : links_) {
    offset_.push_back(at);
    at += static_cast<size_t>(link.modes);
    largest = std::max(largest, link.modes);
    terms_.emplace_back(columns, link.modes);
    flex::FrameAffine& frame = frames_.emplace_back();
    frame.V.setZero(2, columns), frame.W.setZero(columns);
    axial_.emplace_back();
    geometric_ = geometric_ || link.beam.geometric_stiffness;
  }
  eta_acceleration_.setZero(static_cast<Eigen::Index>(at));
  change_.setZero(largest);
}

void ElasticCoupling::couple() {
  for (size_t l = 0; l < links_.size(); ++l)
    flex::coupling_terms(links_[l], frames_[l], eta(l, false), eta(l, true), axial_[l], terms_[l]);
}

void ElasticCoupling::accelerate(size_t l, const Eigen::Ref<const Eigen::VectorXd>& x) {
  auto acceleration = eta_acceleration_.segment(static_cast<Eigen::Index>(offset_[l]), links_[l].modes);
  acceleration = terms_[l].elastic_force;
  acceleration.noalias() -= terms_[l].D * x;
}

void ElasticCoupling::accelerate_at_rest(const planar::Mechanism& m, const planar::Workspace& ws) {
  for (size_t l = 0; l < links_.size(); ++l) {
    flex::FrameAffine& f = frames_[l];
    f.V.setZero(), f.W.setZero(), f.a0.setZero();
    f.epsilon0 = 0.0, f.omega = 0.0;
    f.gravity = flex::frame_state(m, ws, links_[l]).gravity;
  }
  couple();
  for (size_t l = 0; l < links_.size(); ++l)
    eta_acceleration_.segment(static_cast<Eigen::Index>(offset_[l]), links_[l].modes) = terms_[l].elastic_force;
}

bool ElasticCoupling::settle_axial_forces(const planar::Mechanism& m, const planar::Workspace& ws, int pass) {
  // Settled when the new axial forces change the elastic forces, k_G(P) eta, by at most the
  // tolerance of their size.
  double change = 0.0, size = 0.0;
  for (size_t l = 0; l < links_.size(); ++l) {
    const flex::ModalLink& link = links_[l];
    if (!link.beam.geometric_stiffness) continue;
    const flex::AxialForce next = flex::coupled_axial_force(ws, link, flex::frame_state(m, ws, link));
    auto delta = change_.head(link.modes);
    delta.setZero();
    for (int p = 0; p < 4; ++p) delta.noalias() += (next.c[p] - axial_[l].c[p]) * (link.geometric[p] * eta(l, false));
    change = std::max(change, delta.lpNorm<Eigen::Infinity>());
    size = std::max(size, terms_[l].elastic_force.lpNorm<Eigen::Infinity>());
    axial_[l] = next;
  }
  if (change <= tolerance_ * size) return true;
  if (pass >= 50)
    throw AnalysisError(
        "the elastic links' axial forces do not settle (their geometric stiffness and the reactions feed each other: "
        "the link buckles?)");
  return false;
}

planar::Wrench ElasticCoupling::deformation_load(const planar::Mechanism& m, const planar::Workspace& ws,
                                                 size_t l) const {
  const flex::ModalLink& link = links_[l];
  return flex::deformation_load(link, ws, flex::frame_state(m, ws, link), eta(l, false), eta(l, true),
                                eta_acceleration_.segment(static_cast<Eigen::Index>(offset_[l]), link.modes));
}

void ElasticCoupling::rates(Evaluation& e) const {
  for (Eigen::Index i = 0; i < eta_acceleration_.size(); ++i)
    e.elastic_acceleration[static_cast<size_t>(i)] = eta_acceleration_(i);
  e.elastic_damping_power = e.geometric_power = 0.0;
  for (size_t l = 0; l < links_.size(); ++l) {
    const flex::ElasticPowers p = flex::elastic_powers(links_[l], eta(l, false), eta(l, true), axial_[l]);
    e.elastic_damping_power += p.damping, e.geometric_power += p.geometric;
  }
}

}  // namespace linkdyn::dynamics
