// Mass distribution [002 Sect. 2]: primitives against closed forms, composite bodies with
// subtracted parts, the laws of the inertia and pseudo-inertia tensors under change of frame.
#include <gtest/gtest.h>

#include <cmath>

#include "linkdyn/spatial/mass.hpp"

using namespace linkdyn::spatial;

namespace {
Primitive make(Shape s, double density) {
  Primitive p;
  p.shape = s;
  p.density = density;
  return p;
}
void expect_near(const Mat3& a, const Mat3& b, double tol) {
  EXPECT_LE((a - b).cwiseAbs().maxCoeff(), tol) << "\n" << a << "\nvs\n" << b;
}
}  // namespace

TEST(Mass, HollowCylinderEqualsCylinderMinusCylinder) {
  Primitive tube = make(Shape::hollow_cylinder, 7850);
  tube.radius = 0.05, tube.inner_radius = 0.03, tube.length = 0.4;
  Primitive outer = make(Shape::cylinder, 7850), inner = make(Shape::cylinder, 7850);
  outer.radius = 0.05, inner.radius = 0.03, outer.length = inner.length = 0.4;
  inner.sign = -1;
  const MassProperties a = primitive_mass_properties(tube);
  const MassProperties b = composite_mass_properties({outer, inner});
  EXPECT_NEAR(a.mass, b.mass, 1e-12 * a.mass);
  EXPECT_NEAR(a.mass, 7850 * M_PI * (0.05 * 0.05 - 0.03 * 0.03) * 0.4, 1e-12 * a.mass);
  expect_near(a.inertia_com, b.inertia_com, 1e-14);
  EXPECT_LE(b.com.norm(), 1e-15);
}

TEST(Mass, HollowSphereAndHollowBoxEqualDifferencesOfSolids) {
  Primitive shell = make(Shape::hollow_sphere, 1000), big = make(Shape::sphere, 1000),
            small = make(Shape::sphere, 1000);
  shell.radius = big.radius = 0.2;
  shell.inner_radius = small.radius = 0.15;
  small.sign = -1;
  const MassProperties a = primitive_mass_properties(shell), b = composite_mass_properties({big, small});
  EXPECT_NEAR(a.mass, b.mass, 1e-12 * a.mass);
  expect_near(a.inertia_com, b.inertia_com, 1e-14);
  Primitive hb = make(Shape::hollow_box, 2700), outer = make(Shape::box, 2700), cavity = make(Shape::box, 2700);
  hb.size = outer.size = Vec3(0.3, 0.2, 0.1);
  hb.inner_size = cavity.size = Vec3(0.25, 0.15, 0.06);
  cavity.sign = -1;
  const MassProperties c = primitive_mass_properties(hb), d = composite_mass_properties({outer, cavity});
  EXPECT_NEAR(c.mass, d.mass, 1e-12 * c.mass);
  expect_near(c.inertia_com, d.inertia_com, 1e-14);
}

TEST(Mass, PrimitivesMatchClosedForms) {
  // Cone about its apex axis and base: I_z = 3/10 m R^2, centroid at h/4 above the base.
  Primitive cone = make(Shape::cone, 1000);
  cone.radius = 0.1, cone.length = 0.3;
  const MassProperties c = primitive_mass_properties(cone);
  EXPECT_NEAR(c.mass, 1000 * M_PI * 0.01 * 0.3 / 3, 1e-12);
  EXPECT_NEAR(c.com.z(), 0.075, 1e-15);
  EXPECT_NEAR(c.inertia_com(2, 2), 0.3 * c.mass * 0.01, 1e-15);
  // Transverse moment about the apex: 3/5 m h^2 + 3/20 m R^2 (parallel axes from the centroid).
  const double about_apex = c.inertia_com(0, 0) + c.mass * std::pow(0.75 * 0.3, 2);
  EXPECT_NEAR(about_apex, c.mass * (0.6 * 0.09 + 0.15 * 0.01), 1e-14);
  // A thin ring's axial moment m R^2; a disk's m R^2 / 2; a rod's m L^2 / 12; plate's diagonal.
  Primitive ring = make(Shape::ring, 2.0), disk = make(Shape::disk, 3.0), rod = make(Shape::rod, 1.5),
            plate = make(Shape::plate, 4.0);
  ring.radius = disk.radius = 0.2;
  rod.length = 0.8;
  plate.size = Vec3(0.3, 0.2, 0);
  EXPECT_NEAR(primitive_mass_properties(ring).inertia_com(2, 2), 2.0 * 2 * M_PI * 0.2 * 0.04, 1e-15);
  EXPECT_NEAR(primitive_mass_properties(disk).inertia_com(2, 2), 3.0 * M_PI * 0.04 * 0.04 / 2, 1e-15);
  EXPECT_NEAR(primitive_mass_properties(rod).inertia_com(0, 0), 1.5 * 0.8 * 0.64 / 12, 1e-15);
  const MassProperties pl = primitive_mass_properties(plate);
  EXPECT_NEAR(pl.inertia_com(2, 2), pl.inertia_com(0, 0) + pl.inertia_com(1, 1), 1e-15);  // perpendicular axes
}

TEST(Mass, RotationAndParallelAxesLawsAgreeWithPseudoInertiaTransform) {
  // A box placed by a general pose: its pseudo-inertia about the body origin equals
  // T J T^T [002 Eqs. 53, 62]; the inertia about the origin is I_C + m [c x][c x]^T [Eq. 58].
  Primitive box = make(Shape::box, 7850);
  box.size = Vec3(0.3, 0.1, 0.05);
  box.pose = {rpy_rotation(Vec3(0.3, -0.7, 1.1)), Vec3(0.2, -0.1, 0.4)};
  const MassProperties local = primitive_mass_properties(box);
  const MassProperties placed = transformed(local, box.pose);
  const Mat4 T = box.pose.matrix();
  EXPECT_LE((pseudo_inertia(placed) - T * pseudo_inertia(local) * T.transpose()).cwiseAbs().maxCoeff(), 1e-13);
  // Axial moment about a unit axis u through the centre of mass: u^T I u [002 Eq. 35], and the
  // planar moment u^T I_p u [Eq. 46]; their sum over the axes of a frame is tr(I_p) * 2 / ... :
  const Vec3 u = Vec3(1, 2, -0.5).normalized();
  const Mat3 Ip = second_moment_com(placed);
  EXPECT_NEAR(u.dot(placed.inertia_com * u), Ip.trace() - u.dot(Ip * u), 1e-15);  // [002 Eq. 32]
  const Mat3 Io = inertia_about_origin(placed);
  const Mat3 expected = placed.inertia_com + placed.mass * (placed.com.squaredNorm() * Mat3::Identity() -
                                                            placed.com * placed.com.transpose());
  expect_near(Io, expected, 1e-14);
  // Round trip through the pseudo-inertia.
  const MassProperties back = from_pseudo_inertia(pseudo_inertia(placed));
  EXPECT_NEAR(back.mass, placed.mass, 1e-13);
  EXPECT_LE((back.com - placed.com).norm(), 1e-15);
  expect_near(back.inertia_com, placed.inertia_com, 1e-15);
}

TEST(Mass, PrincipalAxesDiagonaliseTheInertia) {
  Primitive box = make(Shape::box, 1000);
  box.size = Vec3(0.4, 0.2, 0.1);
  box.pose.R = rpy_rotation(Vec3(0.2, 0.4, -0.3));
  const MassProperties b = transformed(primitive_mass_properties(box), box.pose);
  const PrincipalAxes pa = principal_axes(b);
  const Mat3 D = pa.axes.transpose() * b.inertia_com * pa.axes;
  EXPECT_LE((D - Mat3(pa.moments.asDiagonal())).cwiseAbs().maxCoeff(), 1e-15);
  EXPECT_NEAR(pa.axes.determinant(), 1.0, 1e-14);
  const double m = b.mass;
  EXPECT_NEAR(pa.moments(0), m * (0.04 + 0.01) / 12, 1e-15);
  EXPECT_NEAR(pa.moments(2), m * (0.16 + 0.04) / 12, 1e-15);
}

TEST(Mass, ConsistencyChecksRejectImpossibleBodies) {
  Primitive plate = make(Shape::box, 1000), hole = make(Shape::cylinder, 1000);
  plate.size = Vec3(0.1, 0.1, 0.01);
  hole.radius = 0.02, hole.length = 0.01, hole.sign = -1;
  EXPECT_EQ(physical_consistency_problem(composite_mass_properties({plate, hole})), "");
  hole.radius = 0.2;  // a hole larger than the plate: negative mass
  EXPECT_NE(physical_consistency_problem(composite_mass_properties({plate, hole})).find("mass"), std::string::npos);
  // Positive mass but an impossible inertia: a hole far outside the plate's material.
  hole.radius = 0.01;
  hole.pose.p = Vec3(1.0, 0, 0);
  EXPECT_NE(physical_consistency_problem(composite_mass_properties({plate, hole})).find("pseudo-inertia"),
            std::string::npos);
  MassProperties bad{1.0, Vec3::Zero(), Vec3(1.0, 1.0, 3.0).asDiagonal()};
  EXPECT_NE(physical_consistency_problem(bad), "");
}

TEST(Mass, PrimitiveWithImpossibleDimensionsIsRefusedNotNaN) {
  Primitive hb = make(Shape::hollow_box, 1000);
  hb.size = hb.inner_size = Vec3(0.1, 0.1, 0.1);  // no material left
  EXPECT_THROW((void)primitive_mass_properties(hb), std::invalid_argument);
  Primitive tube = make(Shape::hollow_cylinder, 1000);
  tube.radius = 0.01, tube.inner_radius = 0.02, tube.length = 0.1;
  EXPECT_THROW((void)primitive_mass_properties(tube), std::invalid_argument);
  Primitive none = make(Shape::sphere, -1.0);
  none.radius = 0.1;
  EXPECT_THROW((void)primitive_mass_properties(none), std::invalid_argument);
}
