// PRP dyad (second class, fourth type): both bodies keep their guides' angles, so the inner
// pin is the intersection of two known lines.
#include <cmath>

#include "planar/groups/dyad.hpp"

namespace linkdyn::planar {
namespace {

class DyadPRP final : public Dyad {
 public:
  using Dyad::Dyad;
  [[nodiscard]] std::string type() const override { return "PRP"; }

  [[nodiscard]] Candidates candidates(const Mechanism& m, const Workspace& ws) const override {
    const Joint &ji = joint(m, outer_i), &jij = joint(m, inner), &jj = joint(m, outer_j);
    const int k1 = ji.other(i()), k2 = jj.other(j());
    const Vec2 rot_i = slide_rotation(m, outer_i, ws.body[k1].rotation(), k1);
    const Vec2 rot_j = slide_rotation(m, outer_j, ws.body[k2].rotation(), k2);
    const Vec2 arm_i = rotate(local_point(jij, i()), rot_i);
    const Vec2 arm_j = rotate(local_point(jij, j()), rot_j);
    const Line li = origin_line(ji, ws.body[k1], k1, rot_i);
    const Line lj = origin_line(jj, ws.body[k2], k2, rot_j);
    const Intersection x = intersect_lines({li.point + arm_i, li.dir}, {lj.point + arm_j, lj.dir});
    Candidates out;
    out.count = x.count;
    out.conditioning = x.conditioning;
    if (x.count == 1) out.c[0] = {rot_i, rot_j, x.points[0] - arm_i, x.points[0] - arm_j};
    return out;
  }
};

}  // namespace

std::unique_ptr<Group> make_dyad_prp(const Mechanism& m, int i, int j, int ji, int jij, int jj) {
  return std::make_unique<DyadPRP>(m, i, j, ji, jij, jj);
}

}  // namespace linkdyn::planar
