#pragma once
// Second-class groups (dyads) [001 Fig. 2]: two bodies i, j with joints i-known, i-j, j-known.
// Each type computes its candidate positions in closed form; this base chooses and tracks the
// assembly mode, and solves velocities and accelerations from the dyad's six linear
// constraint equations (fixed size, no allocation).
#include "planar/groups/group_types.hpp"

namespace linkdyn::planar {

class Dyad : public Group {
 public:
  Dyad(const Mechanism& m, int i, int j, int joint_i, int joint_ij, int joint_j);
  int assur_class() const override { return 2; }
  bool solve_position(const Mechanism& m, Workspace& ws, int self) const final;
  void solve_velocity(const Mechanism& m, Workspace& ws, int self) const final;
  void solve_acceleration(const Mechanism& m, Workspace& ws, int self) const final;
  int label_joint() const override { return joints_[1]; }

 protected:
  struct Candidate {
    double theta_i = 0.0, theta_j = 0.0;
    Vec2 r_i = Vec2::Zero(), r_j = Vec2::Zero();
  };
  struct Candidates {
    int count = 0;  ///< 0: cannot close; 1: unique; 2: two assembly modes
    Candidate c[2];
    double conditioning = 0.0;
  };
  virtual Candidates candidates(const Mechanism& m, const Workspace& ws) const = 0;

  int i() const { return bodies_[0]; }
  int j() const { return bodies_[1]; }
  const Joint& joint_i(const Mechanism& m) const { return m.joints()[joints_[0]]; }
  const Joint& joint_ij(const Mechanism& m) const { return m.joints()[joints_[1]]; }
  const Joint& joint_j(const Mechanism& m) const { return m.joints()[joints_[2]]; }

  // Closed-form building blocks.
  /// Local point of joint `jt` in `body`.
  static const Vec2& local_point(const Joint& jt, int body);
  /// Global position of joint `jt`'s point on the body `known`.
  static Vec2 global_point(const Joint& jt, const BodyState& known, int known_index);
  /// Angle of `unknown` fixed by the prismatic joint `jt` to the body `known`.
  static double slide_angle(const Joint& jt, const BodyState& known, int known_index);
  /// Line on which the origin of `unknown` (at angle theta) lies by the prismatic joint `jt`.
  static Line origin_line(const Joint& jt, const BodyState& known, int known_index,
                          double theta_unknown);
  /// Origin of a body at `angle` whose local point `local` is at the global point `at`.
  static Vec2 origin_from(const Vec2& at, const Vec2& local, double angle);
  /// Angle of a body whose local points p, q are at the global points P, Q.
  static double angle_from(const Vec2& p, const Vec2& q, const Vec2& P, const Vec2& Q);

 private:
  int choose(const Mechanism& m, const Workspace& ws, int self, const Candidates& cs) const;
  double scale_ = 1.0;  ///< characteristic length for comparing candidates
};

// One constructor per dyad type, with the joints already in the type's order.
std::unique_ptr<Group> make_dyad_rrr(const Mechanism& m, int i, int j, int ji, int jij, int jj);
std::unique_ptr<Group> make_dyad_rrp(const Mechanism& m, int i, int j, int ji, int jij, int jj);
std::unique_ptr<Group> make_dyad_rpr(const Mechanism& m, int i, int j, int ji, int jij, int jj);
std::unique_ptr<Group> make_dyad_prp(const Mechanism& m, int i, int j, int ji, int jij, int jj);
std::unique_ptr<Group> make_dyad_rpp(const Mechanism& m, int i, int j, int ji, int jij, int jj);

}  // namespace linkdyn::planar
