// Generic group (third class and higher, or any group without a closed form): Newton's method
// on the group's loop-closure equations, continued from the previous position along a sweep.
#include <algorithm>
#include <cmath>
#include <limits>

#include "linkdyn/planar/constraints.hpp"
#include "planar/groups/closure.hpp"
#include "planar/groups/group_types.hpp"

namespace linkdyn::planar {
namespace {

constexpr int max_starts = 96;

class GenericGroup final : public Group {
 public:
  GenericGroup(const Mechanism& m, std::vector<int> bodies, std::vector<int> joints, std::vector<int> driven)
      : Group(std::move(bodies), std::move(joints)),
        driven_(std::move(driven)),
        closure_(m, bodies_, joints_, driven_) {
    for (int jn : joints_) {
      const bool is_driven =
          std::any_of(driven_.begin(), driven_.end(), [&](int d) { return m.drivers()[d].joint == jn; });
      // A driven pair (a cylinder's) in brackets: the group is a driving dyad.
      letters_ += is_driven                            ? "[P]"
                  : m.joints()[jn].is<PrismaticPair>() ? "P"
                  : m.joints()[jn].is<GearPair>()      ? "G"
                  : m.joints()[jn].is<CamPair>()       ? "H"  // a higher pair
                                                       : "R";
    }
    // A driven cylinder (barrel and rod) counts as one link of given length.
    assur_class_ = driven_.empty() ? classify(m) : std::max(2, static_cast<int>(bodies_.size() - driven_.size()));
  }

  [[nodiscard]] std::string type() const override { return letters_; }
  [[nodiscard]] int assur_class() const override { return assur_class_; }
  [[nodiscard]] int newton_unknowns() const override { return 3 * static_cast<int>(bodies_.size()); }

  bool solve_position(const Mechanism& m, Workspace& ws, int self) const override {
    GroupState& state = ws.group[self];
    GenericScratch& s = ws.scratch[self];
    if (state.tracked) {
      // Continue the branch: Newton from the predicted poses (a cam's follower on its program,
      // not on the pitch curve's mirrored crossing).
      closure_.predict(ws);
      if (closure_.newton(m, ws, s) && on_cam_programs(m, ws)) {
        state.conditioning = GroupClosure::conditioning(s);
        return true;
      }
      state.tracked = false;  // lost: look for an assembly again from the hints
    }
    if (ws.branch_only || !search(m, ws, s)) return false;
    state.tracked = true;
    state.conditioning = GroupClosure::conditioning(s);
    return true;
  }

  void solve_velocity(const Mechanism& m, Workspace& ws, int self) const override {
    GenericScratch& s = ws.scratch[self];
    solve_group_rates(m, ws, bodies_, joints_, Rate::velocity, s.jacobian, s.residual, s.lu, driven_);
  }
  void solve_acceleration(const Mechanism& m, Workspace& ws, int self) const override {
    GenericScratch& s = ws.scratch[self];
    solve_group_rates(m, ws, bodies_, joints_, Rate::acceleration, s.jacobian, s.residual, s.lu, driven_);
  }
  void solve_reactions(const Mechanism& m, Workspace& ws, int self) const override {
    GenericScratch& s = ws.scratch[self];
    solve_group_reactions(m, ws, bodies_, joints_, s.jacobian, s.residual, s.lu, driven_);
  }

 private:
  [[nodiscard]] int column(int body) const { return group_column(bodies_, body); }

  /// Every cam pair of the group touches where its program puts the follower: the foot of the
  /// normal at the program's angle, not where the follower's path crosses the pitch curve again.
  [[nodiscard]] bool on_cam_programs(const Mechanism& m, const Workspace& ws) const {
    for (int jn : joints_) {
      const Joint& j = m.joints()[jn];
      if (!j.is<CamPair>()) continue;
      if (std::abs(std::remainder(cam_curve_foot(j, ws).sigma - cam_program_angle(j, ws), 2.0 * M_PI)) > 1e-6)
        return false;
    }
    return true;
  }

  /// Assembly from scratch: deterministic starts, every distinct solution kept; the model's
  /// hint (a joint near a point) picks among them, else the first found.
  bool search(const Mechanism& m, Workspace& ws, GenericScratch& s) const {
    // Hints naming points of this group's bodies.
    std::vector<std::pair<const AssemblyHint*, std::pair<int, Vec2>>> hints;
    for (const AssemblyHint& h : m.spec().assembly)
      for (const auto& anchor : h.anchors)
        if (h.near && column(anchor.first) >= 0) {
          hints.push_back({&h, anchor});
          break;
        }
    const bool hinted = !hints.empty();
    Eigen::VectorXd best;
    double best_score = std::numeric_limits<double>::infinity();
    for (int start = 0; start < max_starts; ++start) {
      seed(m, ws, start);
      if (!closure_.newton(m, ws, s) || !on_cam_programs(m, ws)) continue;
      double score = 0.0;
      for (const auto& [h, anchor] : hints)
        score += (ws.body[anchor.first].position(anchor.second) - *h->near).squaredNorm();
      if (score < best_score) {
        best_score = score;
        best = s.unknowns;
      }
      if (!hinted) break;
    }
    if (best.size() == 0) return false;
    for (size_t k = 0; k < bodies_.size(); ++k) best(3 * k + 2) = wrap_angle(best(3 * k + 2));
    closure_.apply(ws, best);
    closure_.evaluate(m, ws, s);
    return true;
  }

  /// A starting pose: quasi-random angles; bodies pinned to a known body placed on the pin.
  void seed(const Mechanism& m, Workspace& ws, int start) const {
    Vec2 centre = Vec2::Zero();
    int known_pins = 0;
    for (int jn : joints_) {
      const Joint& jt = m.joints()[jn];
      for (int side = 0; side < 2; ++side)
        if (column(jt.body[side]) < 0 && !jt.is<GearPair>() && !jt.is<CamPair>())
          centre += ws.body[jt.body[side]].position(jt.point[side]), ++known_pins;
    }
    if (known_pins > 0) centre /= known_pins;
    for (size_t k = 0; k < bodies_.size(); ++k) {
      const double u =
          std::fmod(0.5 + (start + 1) * 0.6180339887498949 * (k + 1) + start * 0.7548776662466927 * (k * k + 1), 1.0);
      BodyState& b = ws.body[bodies_[k]];
      b.set_angle(2.0 * M_PI * u);
      b.r = centre;
      for (int jn : joints_) {
        const Joint& jt = m.joints()[jn];
        if (!jt.is<RevolutePair>() || !jt.connects(bodies_[k])) continue;
        const int side = jt.body[0] == bodies_[k] ? 0 : 1;
        if (column(jt.body[1 - side]) >= 0) continue;
        b.r = ws.body[jt.body[1 - side]].position(jt.point[1 - side]) - b.arm(jt.point[side]);
        break;
      }
    }
  }

  [[nodiscard]] int classify(const Mechanism& m) const {
    // Assur's class: a link with three inner pairs makes class III; otherwise the size of the
    // closed contour of inner pairs.
    const int n = static_cast<int>(bodies_.size());
    if (n <= 2) return n;
    int max_inner = 0;
    for (int b : bodies_) {
      int inner = 0;
      for (int jn : joints_) {
        const Joint& jt = m.joints()[jn];
        if (jt.connects(b) && column(jt.other(b)) >= 0) ++inner;
      }
      max_inner = std::max(max_inner, inner);
    }
    return max_inner >= 3 ? 3 : n;
  }

  std::vector<int> driven_;  ///< drivers of the group's prismatic pairs (a driving dyad's)
  GroupClosure closure_;
  std::string letters_;
  int assur_class_ = 3;
};

}  // namespace

std::unique_ptr<Group> make_generic_group(const Mechanism& m, std::vector<int> bodies, std::vector<int> joints,
                                          std::vector<int> driven) {
  return std::make_unique<GenericGroup>(m, std::move(bodies), std::move(joints), std::move(driven));
}

}  // namespace linkdyn::planar
