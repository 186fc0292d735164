// R_I: rotational first-class mechanism [001 Fig. 1]; its angle is the driver coordinate.
#include "linkdyn/planar/constraints.hpp"
#include "planar/groups/group_types.hpp"

namespace linkdyn::planar {

void place_on_pivot(BodyState& b, const Vec2& pivot, const Vec2& pin_local, double angle) {
  b.set_angle(angle);
  b.r = pivot - b.arm(pin_local);
}
void turn_on_pivot_velocity(BodyState& b, const Vec2& pin_local, double omega) {
  b.omega = omega;
  b.v = -omega * perp(b.arm(pin_local));
}
void turn_on_pivot_acceleration(BodyState& b, const Vec2& pin_local, double alpha) {
  const Vec2 arm = b.arm(pin_local);
  b.alpha = alpha;
  b.a = -alpha * perp(arm) + b.omega * b.omega * arm;
}

namespace {

class RotationalDriver final : public Group {
 public:
  RotationalDriver(const Mechanism& m, int driver) : Group({}, {m.drivers()[driver].joint}), driver_(driver) {
    const Joint& j = m.joints()[joints_[0]];
    const int ground_side = j.body[0] == 0 ? 0 : 1;
    bodies_ = {j.body[1 - ground_side]};
    pivot_ = j.point[ground_side];
    pin_ = j.point[1 - ground_side];
  }
  [[nodiscard]] std::string type() const override { return "R"; }
  [[nodiscard]] int assur_class() const override { return 1; }
  bool solve_position(const Mechanism&, Workspace& ws, int self) const override {
    place_on_pivot(ws.body[bodies_[0]], pivot_, pin_, ws.q[driver_]);
    ws.group[self].conditioning = 1.0;
    return true;
  }
  void solve_velocity(const Mechanism&, Workspace& ws, int) const override {
    turn_on_pivot_velocity(ws.body[bodies_[0]], pin_, ws.qd[driver_]);
  }
  void solve_acceleration(const Mechanism&, Workspace& ws, int) const override {
    turn_on_pivot_acceleration(ws.body[bodies_[0]], pin_, ws.qdd[driver_]);
  }
  void solve_reactions(const Mechanism& m, Workspace& ws, int) const override {
    // [001 Eqs. 14-15]: the pivot force and the driving torque from the body's equilibrium.
    const Joint& j = m.joints()[joints_[0]];
    JointRows rows;
    joint_rows(j, ws, false, rows);
    const int side = j.body[0] == bodies_[0] ? 0 : 1;
    Eigen::Matrix3d A;
    A.leftCols<2>() = rows.jac[side].transpose();
    A.col(2) = Eigen::Vector3d::UnitZ();
    const Eigen::Vector3d x = A.inverse() * (-ws.load[bodies_[0]]);
    store_reaction(j, joints_[0], x.head<2>(), ws);
    push_constraint_force(j, rows, 1 - side, x.head<2>(), ws);
    ws.effort[driver_] = x(2);
  }

 private:
  int driver_;
  Vec2 pivot_, pin_;
};

}  // namespace

std::unique_ptr<Group> make_rotational_driver(const Mechanism& m, int driver) {
  return std::make_unique<RotationalDriver>(m, driver);
}

}  // namespace linkdyn::planar
