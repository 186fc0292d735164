// P_I: linear first-class mechanism [001 Fig. 1]; the slider's position along its ground guide
// (from the guide point) is the driver coordinate.
#include "planar/groups/group_types.hpp"

namespace linkdyn::planar {
namespace {

class LinearDriver final : public Group {
 public:
  LinearDriver(const Mechanism& m, int driver)
      : Group({m.joints()[m.drivers()[driver].joint].body[1]}, {m.drivers()[driver].joint}),
        driver_(driver) {
    const Joint& j = m.joints()[joints_[0]];
    guide_point_ = j.point[0];
    guide_dir_ = j.guide_dir;
    slider_point_ = j.point[1];
    angle_ = j.angle_offset;
  }
  std::string type() const override { return "P"; }
  int assur_class() const override { return 1; }
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
