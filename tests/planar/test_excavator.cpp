// examples/excavator.yaml: its working envelope, from linkdyn's kinematics over the three
// cylinders' strokes, against the datasheet it was fitted to (Cat 320, Reach boom 5.7 m, R2.9
// stick; within 3 %), and its cylinders' forces at rest against the moment equilibrium of the
// bucket about B, of stick and bucket about A, and of the whole front about O (massless
// cylinders: each a two-force member along its pins).
#include <gtest/gtest.h>

#include <cmath>

#include "linkdyn/io/model_file.hpp"
#include "linkdyn/planar/kinematics.hpp"
#include "linkdyn/planar/kinetostatics.hpp"
#include "test_support.hpp"

using namespace linkdyn;

namespace {

int body(const planar::Mechanism& m, const std::string& name) { return m.spec().find_body(name); }
Vec2 point(const planar::Mechanism& m, const planar::Workspace& ws, const std::string& b, const std::string& p) {
  const int i = body(m, b);
  return ws.body[i].position(m.bodies()[i].points[m.bodies()[i].find_point(p)].local);
}

}  // namespace

TEST(Excavator, WorkingEnvelopeMeetsTheDatasheetWithin3Percent) {
  // Cat 320, Reach boom, R2.9 stick, HD 1.19 m3 bucket: maximum reach at ground level 32.3 ft,
  // digging depth 22 ft, cutting height 30.7 ft, loading height 21.3 ft (the dealers' listing
  // cited in examples/excavator.yaml).
  const double reach_sheet = 9.845, depth_sheet = 6.706, cutting_sheet = 9.357, loading_sheet = 6.492;
  const planar::Mechanism m = io::load_mechanism(test::example("excavator"));
  ASSERT_EQ(m.cylinders().size(), 3u);
  planar::Workspace ws(m);
  const int n = 41;
  auto stroke = [&](int c, int k) {
    const planar::Cylinder& cyl = m.cylinders()[static_cast<size_t>(c)];
    return cyl.stroke_min + (cyl.stroke_max - cyl.stroke_min) * k / (n - 1);
  };
  const double R = 1.47;  // the bucket's tip radius, B to T
  // Moves the cylinders to q in small steps from where they are, so that every group stays on
  // the branch of the model's assembly.
  auto move_to = [&](const std::vector<double>& q) {
    const std::vector<double> from = ws.q;
    for (int step = 1; step <= 50; ++step) {
      for (size_t c = 0; c < 3; ++c) ws.q[c] = from[c] + (q[c] - from[c]) * step / 50.0;
      if (!planar::solve_positions(m, ws).ok()) return false;
    }
    return true;
  };
  ws.q = {2.6202, 2.3077, 1.9255};  // the model's start, where the hints pick the assembly
  ASSERT_TRUE(planar::solve_positions(m, ws).ok());
  // The bucket's angle to the stick at its cylinder's two ends.
  double bucket_low = 0.0, bucket_high = 0.0;
  for (int end : {0, n - 1}) {
    ASSERT_TRUE(move_to({stroke(0, n / 2), stroke(1, n / 2), stroke(2, end)}));
    const double relative = ws.body[body(m, "bucket")].theta - ws.body[body(m, "stick")].theta;
    (end == 0 ? bucket_low : bucket_high) = relative;
  }
  if (bucket_low > bucket_high) std::swap(bucket_low, bucket_high);
  double reach = 0.0, depth = 0.0, cutting = -1e9, loading = -1e9;
  ASSERT_TRUE(move_to({stroke(0, 0), stroke(1, 0), stroke(2, 0)}));
  // A serpentine walk over the grid: each step moves one cylinder by one cell, so that the
  // assembly followed from step to step stays on its branch.
  for (int i = 0; i < n; ++i)
    for (int jj = 0; jj < n; ++jj) {
      const int j = i % 2 == 0 ? jj : n - 1 - jj;
      for (int kk = 0; kk < n; ++kk) {
        const int k = (i * n + jj) % 2 == 0 ? kk : n - 1 - kk;
        ws.q = {stroke(0, i), stroke(1, j), stroke(2, k)};
        ASSERT_TRUE(planar::solve_positions(m, ws).ok()) << i << " " << j << " " << k;
        const Vec2 tip = point(m, ws, "bucket", "T");
        depth = std::max(depth, -tip.y());
        cutting = std::max(cutting, tip.y());
      }
      // The tip on the ground level ahead of B, where the bucket's range allows it. The loading
      // height as the datasheet draws it: the teeth straight below the highest bucket pin (the
      // real bucket linkage turns the bucket about 170 deg; this direct-acting bucket cylinder
      // turns it 99.5 deg, so it cannot always point its teeth straight down there).
      const Vec2 B = point(m, ws, "bucket", "B");
      const double stick = ws.body[body(m, "stick")].theta;
      auto allowed = [&](double tip_angle) {
        const double relative = std::remainder(tip_angle - stick - (bucket_low + bucket_high) / 2, 2 * M_PI);
        return std::abs(relative) <= (bucket_high - bucket_low) / 2;
      };
      if (std::abs(B.y()) <= R && allowed(std::asin(-B.y() / R)))
        reach = std::max(reach, B.x() + R * std::cos(std::asin(-B.y() / R)));
      loading = std::max(loading, B.y() - R);
    }
  std::printf(
      "excavator envelope (datasheet): reach at ground %.3f m (%.3f), depth %.3f m (%.3f), cutting height "
      "%.3f m (%.3f), loading height %.3f m (%.3f)\n",
      reach, reach_sheet, depth, depth_sheet, cutting, cutting_sheet, loading, loading_sheet);
  EXPECT_NEAR(reach, reach_sheet, 0.03 * reach_sheet);
  EXPECT_NEAR(depth, depth_sheet, 0.03 * depth_sheet);
  EXPECT_NEAR(cutting, cutting_sheet, 0.03 * cutting_sheet);
  EXPECT_NEAR(loading, loading_sheet, 0.03 * loading_sheet);
}

TEST(Excavator, CylinderForcesAtRestBalanceEachBodysMoments) {
  planar::MechanismSpec spec = io::read_planar_model(test::example("excavator"));
  for (planar::Body& part : spec.bodies)
    if (part.name.find("_barrel") != std::string::npos || part.name.find("_rod") != std::string::npos)
      part.mass = 0.0, part.inertia = 0.0;
  const planar::Mechanism m = planar::compile(spec);
  planar::Workspace ws(m);
  const Vec2 g = m.spec().gravity, soil(30e3, -15e3);
  auto weight_moment = [&](const std::string& b, const Vec2& about) {
    const int i = body(m, b);
    return cross(ws.body[i].position(m.bodies()[i].com) - about, m.bodies()[i].mass * g);
  };
  auto cylinder_moment = [&](const std::string& base_body, const std::string& base, const std::string& rod_body,
                             const std::string& rod, const Vec2& about) {  // of a unit push on the rod's body
    const Vec2 from = point(m, ws, base_body, base), to = point(m, ws, rod_body, rod);
    return cross(to - about, (to - from).normalized());
  };
  double worst = 0.0, largest = 0.0;
  for (int k = 0; k <= 20; ++k) {
    const double s = k / 20.0;
    for (size_t c = 0; c < 3; ++c) {
      const planar::Cylinder& cyl = m.cylinders()[c];
      const double u = c == 0 ? s : c == 1 ? 1.0 - s : 0.5 + 0.4 * std::sin(6.0 * s);
      ws.q[c] = cyl.stroke_min + 0.05 + (cyl.stroke_max - cyl.stroke_min - 0.1) * u;
      ws.qd[c] = ws.qdd[c] = 0.0;
    }
    ASSERT_TRUE(planar::solve_kinematics(m, ws).ok());
    (void)planar::solve_kinetostatics(m, ws, 0.0, {});
    const Vec2 O = point(m, ws, "boom", "O"), A = point(m, ws, "stick", "A"), B = point(m, ws, "bucket", "B");
    const Vec2 T = point(m, ws, "bucket", "T");
    // The bucket about B; stick and bucket about A; the whole front about O.
    const double bucket =
        -(weight_moment("bucket", B) + cross(T - B, soil)) / cylinder_moment("stick", "K", "bucket", "F", B);
    const double stick = -(weight_moment("bucket", A) + weight_moment("stick", A) + cross(T - A, soil)) /
                         cylinder_moment("boom", "S", "stick", "E", A);
    const double boom =
        -(weight_moment("bucket", O) + weight_moment("stick", O) + weight_moment("boom", O) + cross(T - O, soil)) /
        cylinder_moment("ground", "CB", "boom", "D", O);
    const double forces[3] = {boom, stick, bucket};
    for (size_t c = 0; c < 3; ++c) {
      worst = std::max(worst, std::abs(ws.effort[c] - forces[c]));
      largest = std::max(largest, std::abs(forces[c]));
    }
  }
  std::printf("excavator at rest: cylinder forces up to %.6g N, |kinetostatics - moment equilibria| %.1e N\n", largest,
              worst);
  EXPECT_GT(largest, 1e5);
  EXPECT_LT(worst, 1e-9 * largest);
}
