// RRP dyad (second class, second type): the slider body j keeps the guide's angle, so the inner
// pin B runs on a known line and on the circle about the outer pin A.
#include <cmath>

#include "planar/groups/dyad.hpp"

namespace linkdyn::planar {
namespace {

class DyadRRP final : public Dyad {
 public:
  using Dyad::Dyad;
  [[nodiscard]] std::string type() const override { return "RRP"; }

  [[nodiscard]] Candidates candidates(const Mechanism& m, const Workspace& ws) const override {
    const Joint &ji = joint(m, outer_i), &jij = joint(m, inner), &jj = joint(m, outer_j);
    const int k1 = ji.other(i()), k2 = jj.other(j());
    const Vec2 A = global_point(ji, ws.body[k1], k1);
    const Vec2 link_i = local_point(jij, i()) - local_point(ji, i());
    const Vec2 rot_j = slide_rotation(m, outer_j, ws.body[k2].rotation(), k2);
    const Line origins = origin_line(jj, ws.body[k2], k2, rot_j);
    const Vec2 b_arm = rotate(local_point(jij, j()), rot_j);
    const Intersection x = intersect_line_circle({origins.point + b_arm, origins.dir}, A, link_i.norm());
    Candidates out;
    out.count = x.count;
    out.conditioning = x.conditioning;
    for (int k = 0; k < x.count; ++k) {
      const Vec2& B = x.points[k];
      Candidate& c = out.c[k];
      c.rot_i = rotation_between(link_i, B - A);
      c.r_i = origin_from(A, local_point(ji, i()), c.rot_i);
      c.rot_j = rot_j;
      c.r_j = B - b_arm;
    }
    return out;
  }

  [[nodiscard]] bool has_transmission_angle() const override { return true; }
  [[nodiscard]] std::optional<double> transmission_angle(const Mechanism& m, const Workspace& ws) const override {
    // Angle between the link i and the normal of the guide, folded to [0, pi/2].
    const Joint &ji = joint(m, outer_i), &jij = joint(m, inner), &jj = joint(m, outer_j);
    const int k2 = jj.other(j());
    const Vec2 rod = global_point(jij, ws.body[i()], i()) - global_point(ji, ws.body[i()], i());
    const Vec2& dir = jj.as<PrismaticPair>().guide_dir;
    const Vec2 guide = jj.body[0] == k2 ? ws.body[k2].arm(dir) : ws.body[j()].arm(dir);
    return std::acos(std::min(1.0, std::abs(cross(guide, rod)) / rod.norm()));
  }
};

}  // namespace

std::unique_ptr<Group> make_dyad_rrp(const Mechanism& m, int i, int j, int ji, int jij, int jj) {
  return std::make_unique<DyadRRP>(m, i, j, ji, jij, jj);
}

}  // namespace linkdyn::planar
