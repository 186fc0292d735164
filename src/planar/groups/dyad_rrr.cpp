// RRR dyad (second class, first type) [001 Fig. 5]: the inner pin B is where the circles about
// the outer pins A and C meet.
#include <algorithm>
#include <cmath>

#include "planar/groups/dyad.hpp"

namespace linkdyn::planar {
namespace {

class DyadRRR final : public Dyad {
 public:
  using Dyad::Dyad;
  [[nodiscard]] std::string type() const override { return "RRR"; }

  [[nodiscard]] Candidates candidates(const Mechanism& m, const Workspace& ws) const override {
    const Joint &ji = joint(m, outer_i), &jij = joint(m, inner), &jj = joint(m, outer_j);
    const int k1 = ji.other(i()), k2 = jj.other(j());
    const Vec2 A = global_point(ji, ws.body[k1], k1);
    const Vec2 C = global_point(jj, ws.body[k2], k2);
    const Vec2 link_i = local_point(jij, i()) - local_point(ji, i());
    const Vec2 link_j = local_point(jij, j()) - local_point(jj, j());
    const Intersection x = intersect_circles(A, link_i.norm(), C, link_j.norm());
    Candidates out;
    out.count = x.count;
    out.conditioning = x.conditioning;
    for (int k = 0; k < x.count; ++k) {
      const Vec2& B = x.points[k];
      Candidate& c = out.c[k];
      c.rot_i = rotation_between(link_i, B - A);
      c.r_i = origin_from(A, local_point(ji, i()), c.rot_i);
      c.rot_j = rotation_between(link_j, B - C);
      c.r_j = origin_from(C, local_point(jj, j()), c.rot_j);
    }
    return out;
  }

  [[nodiscard]] bool has_transmission_angle() const override { return true; }
  [[nodiscard]] std::optional<double> transmission_angle(const Mechanism& m, const Workspace& ws) const override {
    // Angle between the two links at the inner pin, folded to [0, pi/2].
    const Joint &ji = joint(m, outer_i), &jij = joint(m, inner), &jj = joint(m, outer_j);
    const Vec2 B = global_point(jij, ws.body[i()], i());
    const Vec2 ba = global_point(ji, ws.body[i()], i()) - B;
    const Vec2 bc = global_point(jj, ws.body[j()], j()) - B;
    const double sine = std::abs(cross(ba, bc)) / (ba.norm() * bc.norm());
    return std::asin(std::min(1.0, sine));
  }
};

}  // namespace

std::unique_ptr<Group> make_dyad_rrr(const Mechanism& m, int i, int j, int ji, int jij, int jj) {
  return std::make_unique<DyadRRR>(m, i, j, ji, jij, jj);
}

}  // namespace linkdyn::planar
