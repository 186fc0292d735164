// RPP dyad (second class, fifth type): the angles follow the guides, body i is then fixed by
// its pin, and body j's origin is the intersection of the two guide lines.
#include <cmath>

#include "planar/groups/dyad.hpp"

namespace linkdyn::planar {
namespace {

class DyadRPP final : public Dyad {
 public:
  using Dyad::Dyad;
  std::string type() const override { return "RPP"; }

  Candidates candidates(const Mechanism& m, const Workspace& ws) const override {
    const Joint &ji = joint_i(m), &jij = joint_ij(m), &jj = joint_j(m);
    const int k1 = ji.other(i()), k2 = jj.other(j());
    const double theta_j = slide_angle(jj, ws.body[k2], k2);
    BodyState probe_j;
    probe_j.set_angle(theta_j);
    const double theta_i = slide_angle(jij, probe_j, j());
    BodyState body_i;
    body_i.set_angle(theta_i);
    body_i.r = origin_from(global_point(ji, ws.body[k1], k1), local_point(ji, i()), theta_i);
    const Intersection x = intersect_lines(origin_line(jj, ws.body[k2], k2, theta_j),
                                           origin_line(jij, body_i, i(), theta_j));
    Candidates out;
    out.count = x.count;
    out.conditioning = x.conditioning;
    if (x.count == 1) out.c[0] = {theta_i, theta_j, body_i.r, x.points[0]};
    return out;
  }
};

}  // namespace

std::unique_ptr<Group> make_dyad_rpp(const Mechanism& m, int i, int j, int ji, int jij, int jj) {
  return std::make_unique<DyadRPP>(m, i, j, ji, jij, jj);
}

}  // namespace linkdyn::planar
