// P_I: linear first-class mechanism [001 Fig. 1]; the slider's position along its ground guide
// (from the guide point) is the driver coordinate.
#include "linkdyn/planar/constraints.hpp"
#include "planar/groups/group_types.hpp"

namespace linkdyn::planar {
namespace {

class LinearDriver final : public Group {
 public:
  LinearDriver(const Mechanism& m, int driver)
      : Group({m.joints()[m.drivers()[driver].joint].body[1]}, {m.drivers()[driver].joint}), driver_(driver) {
    const Joint& j = m.joints()[joints_[0]];
    guide_point_ = j.point[0];
    const PrismaticPair& slide = j.as<PrismaticPair>();
    guide_dir_ = slide.guide_dir;
    slider_point_ = j.point[1];
    angle_ = slide.angle_offset;
  }
  [[nodiscard]] std::string type() const override { return "P"; }
  [[nodiscard]] int assur_class() const override { return 1; }
  bool solve_position(const Mechanism&, Workspace& ws, int self) const override {
    BodyState& b = ws.body[bodies_[0]];
    b.set_angle(angle_);
    b.r = guide_point_ + ws.q[driver_] * guide_dir_ - b.arm(slider_point_);
    ws.group[self].conditioning = 1.0;
    return true;
  }
  void solve_velocity(const Mechanism&, Workspace& ws, int) const override {
    BodyState& b = ws.body[bodies_[0]];
    b.omega = 0.0;
    b.v = ws.qd[driver_] * guide_dir_;
  }
  void solve_acceleration(const Mechanism&, Workspace& ws, int) const override {
    BodyState& b = ws.body[bodies_[0]];
    b.alpha = 0.0;
    b.a = ws.qdd[driver_] * guide_dir_;
  }
  void solve_reactions(const Mechanism& m, Workspace& ws, int) const override {
    // The guide's reaction and the driving force along the guide at the slider point.
    const Joint& j = m.joints()[joints_[0]];
    JointRows rows;
    joint_rows(j, ws, false, rows);
    const BodyState& b = ws.body[bodies_[0]];
    Eigen::Matrix3d A;
    A.leftCols<2>() = rows.jac[1].transpose();
    A.col(2) << guide_dir_.x(), guide_dir_.y(), cross(b.arm(slider_point_), guide_dir_);
    const Eigen::Vector3d x = A.inverse() * (-ws.load[bodies_[0]]);
    store_reaction(j, joints_[0], x.head<2>(), ws);
    push_constraint_force(j, rows, 0, x.head<2>(), ws);
    ws.effort[driver_] = x(2);
  }

 private:
  int driver_;
  Vec2 guide_point_, guide_dir_, slider_point_;
  double angle_ = 0.0;
};

}  // namespace

std::unique_ptr<Group> make_linear_driver(const Mechanism& m, int driver) {
  return std::make_unique<LinearDriver>(m, driver);
}

}  // namespace linkdyn::planar
