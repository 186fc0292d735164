// A wheel on a fixed axis geared to a known body: theta_w = ratio * theta_o + phase.
#include "linkdyn/planar/constraints.hpp"
#include "planar/groups/group_types.hpp"

namespace linkdyn::planar {
namespace {

class GearWheel final : public Group {
 public:
  GearWheel(const Mechanism& m, int wheel, int pivot, int gear) : Group({wheel}, {pivot, gear}) {
    const Joint& p = m.joints()[pivot];
    const int ground_side = p.body[0] == 0 ? 0 : 1;
    pivot_ = p.point[ground_side];
    pin_ = p.point[1 - ground_side];
    const Joint& g = m.joints()[gear];
    source_ = g.body[0];
    ratio_ = g.as<GearPair>().ratio;
    phase_ = g.as<GearPair>().phase;
  }
  [[nodiscard]] std::string type() const override { return "G"; }
  [[nodiscard]] int assur_class() const override { return 1; }
  bool solve_position(const Mechanism&, Workspace& ws, int self) const override {
    place_on_pivot(ws.body[bodies_[0]], pivot_, pin_, ratio_ * ws.body[source_].theta + phase_);
    ws.group[self].conditioning = 1.0;
    return true;
  }
  void solve_velocity(const Mechanism&, Workspace& ws, int) const override {
    turn_on_pivot_velocity(ws.body[bodies_[0]], pin_, ratio_ * ws.body[source_].omega);
  }
  void solve_acceleration(const Mechanism&, Workspace& ws, int) const override {
    turn_on_pivot_acceleration(ws.body[bodies_[0]], pin_, ratio_ * ws.body[source_].alpha);
  }
  void solve_reactions(const Mechanism& m, Workspace& ws, int) const override {
    // Pivot force and gear torque from the wheel's equilibrium; the gear's reaction torque
    // goes to the body that drives the wheel.
    const Joint &pivot = m.joints()[joints_[0]], &gear = m.joints()[joints_[1]];
    JointRows pr, gr;
    joint_rows(pivot, ws, false, pr);
    joint_rows(gear, ws, false, gr);
    const int side = pivot.body[0] == bodies_[0] ? 0 : 1;
    Eigen::Matrix3d A;
    A.leftCols<2>() = pr.jac[side].transpose();
    A.col(2) = gr.jac[1].row(0).transpose();
    const Eigen::Vector3d x = A.inverse() * (-ws.load[bodies_[0]]);
    const Eigen::Vector2d gear_lambda(x(2), 0.0);
    store_reaction(pivot, joints_[0], x.head<2>(), ws);
    store_reaction(gear, joints_[1], gear_lambda, ws);
    push_constraint_force(pivot, pr, 1 - side, x.head<2>(), ws);
    push_constraint_force(gear, gr, 0, gear_lambda, ws);
  }
  [[nodiscard]] int label_joint() const override { return joints_[1]; }

 private:
  Vec2 pivot_, pin_;
  int source_ = 0;
  double ratio_ = 1.0, phase_ = 0.0;
};

}  // namespace

std::unique_ptr<Group> make_gear_wheel(const Mechanism& m, int wheel, int pivot, int gear) {
  return std::make_unique<GearWheel>(m, wheel, pivot, gear);
}

}  // namespace linkdyn::planar
