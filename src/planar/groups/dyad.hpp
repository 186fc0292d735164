#pragma once
// Second-class groups (dyads) [001 Fig. 2]: two bodies i, j with joints i-known, i-j, j-known.
// Each type computes its candidate positions in closed form; this base chooses and tracks the
// assembly mode, and solves velocities and accelerations in closed form for every type: the
// outer joint of each body leaves it one free rate (a particular solution plus a multiple of
// the null vector of its two equations), and the inner joint's two equations fix both
// multiples by Cramer's rule.
#include <array>

#include "planar/groups/closure.hpp"
#include "planar/groups/group_types.hpp"

namespace linkdyn::planar {

class Dyad : public Group {
 public:
  Dyad(const Mechanism& m, int i, int j, int joint_i, int joint_ij, int joint_j);
  [[nodiscard]] int assur_class() const override { return 2; }
  [[nodiscard]] bool solve_position(const Mechanism& m, Workspace& ws, int self) const final;
  void solve_velocity(const Mechanism& m, Workspace& ws, int self) const final;
  void solve_acceleration(const Mechanism& m, Workspace& ws, int self) const final;
  void solve_reactions(const Mechanism& m, Workspace& ws, int self) const final;
  [[nodiscard]] int label_joint() const override { return joints_[1]; }
  /// Within about half a degree of a dead point or bifurcation (sine of the transmission angle
  /// below 1e-2) the closed-form rates carry rounding errors above 1e-9.
  [[nodiscard]] double near_singular_conditioning() const override { return 1e-2; }
  /// Newton buffers for the degenerate positions where the closed form has no answer.
  [[nodiscard]] int newton_unknowns() const override { return 6; }

 protected:
  /// A candidate position: rotations (cos, sin) and origins of bodies i and j.
  struct Candidate {
    Vec2 rot_i = Vec2::UnitX(), rot_j = Vec2::UnitX();
    Vec2 r_i = Vec2::Zero(), r_j = Vec2::Zero();
  };
  struct Candidates {
    int count = 0;  ///< 0: cannot close; 1: unique; 2: two assembly modes
    Candidate c[2];
    double conditioning = 0.0;
  };
  [[nodiscard]] virtual Candidates candidates(const Mechanism& m, const Workspace& ws) const = 0;

  enum Slot { outer_i = 0, inner = 1, outer_j = 2 };
  [[nodiscard]] int i() const { return bodies_[0]; }
  [[nodiscard]] int j() const { return bodies_[1]; }
  [[nodiscard]] const Joint& joint(const Mechanism& m, Slot slot) const { return m.joints()[joints_[slot]]; }

  // Closed-form building blocks.
  /// Local point of joint `jt` in `body`.
  [[nodiscard]] static const Vec2& local_point(const Joint& jt, int body);
  /// Global position of joint `jt`'s point on the body `known`.
  [[nodiscard]] static Vec2 global_point(const Joint& jt, const BodyState& known, int known_index);
  /// Rotation of the body across the prismatic joint in `slot` from the body `known`.
  [[nodiscard]] Vec2 slide_rotation(const Mechanism& m, Slot slot, const Vec2& known_rotation, int known_index) const;
  /// Line on which the origin of the unknown body (at `rotation`) lies by the prismatic joint
  /// `jt` to the body `known`.
  [[nodiscard]] static Line origin_line(const Joint& jt, const BodyState& known, int known_index, const Vec2& rotation);
  /// Origin of a body at `rotation` whose local point `local` is at the global point `at`.
  [[nodiscard]] static Vec2 origin_from(const Vec2& at, const Vec2& local, const Vec2& rotation) {
    return at - rotate(local, rotation);
  }

 private:
  [[nodiscard]] int choose(const Mechanism& m, Workspace& ws, int self, const Candidates& cs) const;
  void solve_rates(const Mechanism& m, Workspace& ws, bool acceleration) const;
  double scale_ = 1.0;                   ///< characteristic length for comparing candidates
  GroupClosure closure_;                 ///< the dyad's equations, for degenerate positions
  std::array<Vec2, 3> offset_rotation_;  ///< rotation by each prismatic joint's angle offset
};

// One constructor per dyad type, with the joints already in the type's order.
[[nodiscard]] std::unique_ptr<Group> make_dyad_rrr(const Mechanism& m, int i, int j, int ji, int jij, int jj);
[[nodiscard]] std::unique_ptr<Group> make_dyad_rrp(const Mechanism& m, int i, int j, int ji, int jij, int jj);
[[nodiscard]] std::unique_ptr<Group> make_dyad_rpr(const Mechanism& m, int i, int j, int ji, int jij, int jj);
[[nodiscard]] std::unique_ptr<Group> make_dyad_prp(const Mechanism& m, int i, int j, int ji, int jij, int jj);
[[nodiscard]] std::unique_ptr<Group> make_dyad_rpp(const Mechanism& m, int i, int j, int ji, int jij, int jj);

}  // namespace linkdyn::planar
