// RPP dyad (second class, fifth type): the angles follow the guides, body i is then fixed by
// its pin, and body j's origin is the intersection of the two guide lines.
#include <cmath>

#include "planar/groups/dyad.hpp"

namespace linkdyn::planar {
namespace {

class DyadRPP final : public Dyad {
 public:
  using Dyad::Dyad;
  [[nodiscard]] std::string type() const override { return "RPP"; }

  [[nodiscard]] Candidates candidates(const Mechanism& m, const Workspace& ws) const override {
    const Joint &ji = joint(m, outer_i), &jij = joint(m, inner), &jj = joint(m, outer_j);
    const int k1 = ji.other(i()), k2 = jj.other(j());
    const Vec2 rot_j = slide_rotation(m, outer_j, ws.body[k2].rotation(), k2);
    const Vec2 rot_i = slide_rotation(m, inner, rot_j, j());
    BodyState body_i;  // fixed by its pin once its angle is known
    body_i.c = rot_i.x();
    body_i.s = rot_i.y();
    body_i.r = origin_from(global_point(ji, ws.body[k1], k1), local_point(ji, i()), rot_i);
    const Intersection x =
        intersect_lines(origin_line(jj, ws.body[k2], k2, rot_j), origin_line(jij, body_i, i(), rot_j));
    Candidates out;
    out.count = x.count;
    out.conditioning = x.conditioning;
    if (x.count == 1) out.c[0] = {rot_i, rot_j, body_i.r, x.points[0]};
    return out;
  }
};

}  // namespace

std::unique_ptr<Group> make_dyad_rpp(const Mechanism& m, int i, int j, int ji, int jij, int jj) {
  return std::make_unique<DyadRPP>(m, i, j, ji, jij, jj);
}

}  // namespace linkdyn::planar
