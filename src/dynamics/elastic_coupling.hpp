#pragma once
// The coupled elastic links of a machine at one evaluation of the right-hand side, shared by
// the Kane and full methods (flex/coupled.hpp has the equations): each link's frame as affine
// functions of some rigid accelerations x (Kane: the drivers' qdd; full: its body's origin
// acceleration and alpha), its terms D, S and forces, its modal accelerations
// eta'' = elastic_force - D x, and the axial forces of the geometric stiffness taken from the
// reactions by successive approximations.
#include <vector>

#include "linkdyn/dynamics/machine.hpp"
#include "linkdyn/flex/coupled.hpp"

namespace linkdyn::dynamics {

struct Evaluation;

class ElasticCoupling {
 public:
  /// `columns`: the rigid accelerations each link's frame depends on; `tolerance`: relative,
  /// of the axial forces' successive approximations.
  ElasticCoupling(const DynamicSystem& system, int columns, double tolerance);
  [[nodiscard]] bool empty() const { return links_.empty(); }
  [[nodiscard]] size_t size() const { return links_.size(); }
  [[nodiscard]] const flex::ModalLink& link(size_t l) const { return links_[l]; }
  /// Whether any link has a geometric stiffness (its axial forces need the reactions).
  [[nodiscard]] bool geometric() const { return geometric_; }

  /// The state: eta of every link at `eta`, their rates at `eta + coordinates`.
  void set_state(const double* eta, size_t coordinates) { eta_ = eta, coordinates_ = coordinates; }
  [[nodiscard]] flex::FrameAffine& frame(size_t l) { return frames_[l]; }
  /// Every link's terms at its frame, the state and the current axial forces.
  void couple();
  [[nodiscard]] const flex::CouplingTerms& terms(size_t l) const { return terms_[l]; }
  /// eta'' of link l from the rigid accelerations its frame depends on.
  void accelerate(size_t l, const Eigen::Ref<const Eigen::VectorXd>& x);
  /// Held at rest (qd = qdd = 0, positions in ws): eta'' from the weight, stiffness and damping.
  void accelerate_at_rest(const planar::Mechanism& m, const planar::Workspace& ws);
  /// The axial forces from the reactions and accelerations in ws; true when they change the
  /// elastic forces by at most the tolerance of their size. Throws AnalysisError after 50
  /// passes of one evaluation (`pass`).
  [[nodiscard]] bool settle_axial_forces(const planar::Mechanism& m, const planar::Workspace& ws, int pass);
  /// The load the deformation of link l adds to its body (for the kinetostatic walk).
  [[nodiscard]] planar::Wrench deformation_load(const planar::Mechanism& m, const planar::Workspace& ws,
                                                size_t l) const;
  /// eta'' of every link and the powers of their damping and geometric stiffness, into e.
  void rates(Evaluation& e) const;

 private:
  [[nodiscard]] Eigen::Map<const Eigen::VectorXd> eta(size_t l, bool rate) const {
    return {eta_ + offset_[l] + (rate ? coordinates_ : 0), links_[l].modes};
  }
  const std::vector<flex::ModalLink>& links_;
  std::vector<size_t> offset_;
  std::vector<flex::FrameAffine> frames_;
  std::vector<flex::CouplingTerms> terms_;
  std::vector<flex::AxialForce> axial_;
  Eigen::VectorXd eta_acceleration_, change_;
  const double* eta_ = nullptr;
  size_t coordinates_ = 0;
  double tolerance_;
  bool geometric_ = false;
};

}  // namespace linkdyn::dynamics
