#pragma once
// The loop-closure equations of a group of bodies, solved by damped Newton's method from the
// poses in the workspace: the generic group's solver, and the dyads' fallback where their closed
// form degenerates (both outer pins at one point: a circle of solutions, of which the one
// nearest to the predicted pose is wanted).
#include <vector>

#include "linkdyn/planar/mechanism.hpp"
#include "linkdyn/planar/workspace.hpp"

namespace linkdyn::planar {

class GroupClosure {
 public:
  /// `driven`: the drivers whose prismatic pairs' displacements are equations of the group.
  GroupClosure(const Mechanism& m, std::vector<int> bodies, std::vector<int> joints, std::vector<int> driven = {});
  /// Residual and Jacobian of the group's equations at the workspace poses (angular rows
  /// scaled to lengths); returns max |residual|.
  double evaluate(const Mechanism& m, const Workspace& ws, GenericScratch& s) const;
  /// Damped Newton from the poses in the workspace; true when the equations close. Where the
  /// Jacobian is singular the step is the least-norm one, so the solution reached is the
  /// nearest to the start.
  [[nodiscard]] bool newton(const Mechanism& m, Workspace& ws, GenericScratch& s) const;
  /// The poses x (x, y, theta per body) into the workspace, and back.
  void apply(Workspace& ws, const Eigen::VectorXd& x) const;
  void gather(const Workspace& ws, Eigen::VectorXd& x) const;
  /// Moves the group's bodies to their predicted poses (ws.prediction).
  void predict(Workspace& ws) const;
  [[nodiscard]] double scale() const { return scale_; }
  /// Reciprocal condition estimate of the (length-scaled) Jacobian at the last evaluation.
  [[nodiscard]] static double conditioning(GenericScratch& s);

 private:
  [[nodiscard]] int column(int body) const;
  std::vector<int> bodies_, joints_, driven_;
  double scale_ = 1.0;
};

}  // namespace linkdyn::planar
