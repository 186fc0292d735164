// RPR dyad (second class, third type): both outer pins are known; the guide body's angle
// solves a cos(theta) + b sin(theta) = c, with two assembly modes.
#include <algorithm>
#include <cmath>

#include "planar/groups/dyad.hpp"

namespace linkdyn::planar {
namespace {

class DyadRPR final : public Dyad {
 public:
  using Dyad::Dyad;
  [[nodiscard]] std::string type() const override { return "RPR"; }

  [[nodiscard]] Candidates candidates(const Mechanism& m, const Workspace& ws) const override {
    const Joint &ji = joint(m, outer_i), &jij = joint(m, inner), &jj = joint(m, outer_j);
    const int k1 = ji.other(i()), k2 = jj.other(j());
    const int g = jij.body[0], s = jij.body[1];  // guide body, slider body
    const Joint& jg = g == i() ? ji : jj;
    const Joint& js = g == i() ? jj : ji;
    const int kg = g == i() ? k1 : k2, ks = g == i() ? k2 : k1;
    const Vec2 pin_g = global_point(jg, ws.body[kg], kg), pin_s = global_point(js, ws.body[ks], ks);
    const Vec2 &rg = local_point(jg, g), &rs = local_point(js, s);
    // Slider point minus guide point = D + A_g w; its normal component must vanish:
    // (A_g m) . D = -m . w, with m the guide normal in the guide body.
    const Vec2 D = pin_s - pin_g;
    const PrismaticPair& slide = jij.as<PrismaticPair>();
    const Vec2 normal = perp(slide.guide_dir);
    const Vec2 w = rotate(jij.point[1] - rs, rotation_of(slide.angle_offset)) - (jij.point[0] - rg);
    const double dist = D.norm();
    Candidates out;
    if (dist == 0.0) return out;
    const double ratio = -normal.dot(w) / dist;
    if (std::abs(ratio) > 1.0 + 1e-13) return out;
    // theta_g = heading(D) - heading(m) +- acos(ratio), as a rotation.
    const double cos_spread = std::clamp(ratio, -1.0, 1.0);
    const double sin_spread = std::sqrt(std::max(0.0, 1.0 - cos_spread * cos_spread));
    const Vec2 base = compose(D / dist, Vec2(normal.x(), -normal.y()));
    out.count = 2;
    out.conditioning = sin_spread;
    for (int k = 0; k < 2; ++k) {
      const Vec2 rot_g = compose(base, Vec2(cos_spread, k == 0 ? sin_spread : -sin_spread));
      const Vec2 rot_s = slide_rotation(m, inner, rot_g, g);
      const Vec2 r_g = origin_from(pin_g, rg, rot_g), r_s = origin_from(pin_s, rs, rot_s);
      Candidate& c = out.c[k];
      c.rot_i = g == i() ? rot_g : rot_s;
      c.rot_j = g == i() ? rot_s : rot_g;
      c.r_i = g == i() ? r_g : r_s;
      c.r_j = g == i() ? r_s : r_g;
    }
    return out;
  }

  [[nodiscard]] bool has_transmission_angle() const override { return true; }
  [[nodiscard]] std::optional<double> transmission_angle(const Mechanism& m, const Workspace& ws) const override {
    // The guide body as the output (inverted slider-crank, crank shaper): the frictionless force
    // of the slider is normal to the guide at the slider's point P, whose velocity on the guide
    // body is normal to P - pin_g. mu = pi/2 - the angle between them = acos(|guide x (P -
    // pin_g)| / |P - pin_g|), folded to [0, pi/2]: pi/2 (ideal) whenever the guide passes through
    // the guide body's pin.
    const Joint &ji = joint(m, outer_i), &jij = joint(m, inner), &jj = joint(m, outer_j);
    const int g = jij.body[0], s = jij.body[1];
    const Joint& jg = g == i() ? ji : jj;
    const Vec2 arm = global_point(jij, ws.body[s], s) - global_point(jg, ws.body[g], g);
    const double length = arm.norm();
    if (length == 0.0) return std::nullopt;  // the slider on the pin: no arm to turn the guide
    const Vec2 guide = ws.body[g].arm(jij.as<PrismaticPair>().guide_dir);
    return std::acos(std::min(1.0, std::abs(cross(guide, arm)) / length));
  }
};

}  // namespace

std::unique_ptr<Group> make_dyad_rpr(const Mechanism& m, int i, int j, int ji, int jij, int jj) {
  return std::make_unique<DyadRPR>(m, i, j, ji, jij, jj);
}

}  // namespace linkdyn::planar
