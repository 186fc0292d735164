// A wheel on a fixed axis geared to a known body: theta_w = ratio * theta_o + phase.
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
    ratio_ = g.ratio;
    phase_ = g.phase;
  }
  std::string type() const override { return "G"; }
  int assur_class() const override { return 1; }
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
  int label_joint() const override { return joints_[1]; }

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
