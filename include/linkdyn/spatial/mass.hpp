#pragma once
// Mass distribution of rigid bodies [002 Sect. 2]: primitives, composite bodies of added and
// subtracted parts, inertia, planar second-moment and pseudo-inertia tensors, their laws of
// variation with the frame, principal axes and physical-consistency checks.
#include <string>
#include <vector>

#include "linkdyn/spatial/pose.hpp"

namespace linkdyn::spatial {

/// Mass, centre of mass and inertia tensor at the centre of mass, all in one frame.
struct MassProperties {
  double mass = 0.0;
  Vec3 com = Vec3::Zero();
  Mat3 inertia_com = Mat3::Zero();  ///< axial moments on the diagonal, minus products off it [002 Eq. 34]
};

/// The same body seen from a frame in which the body's frame has pose `pose`: the rotation law
/// of the inertia tensor R I R^T [002 Eq. 42] and the centre of mass carried along [002 Eq. 15].
[[nodiscard]] MassProperties transformed(const MassProperties& body, const Pose& pose);

/// Inertia tensor about the frame origin: I_C + m [c x][c x]^T [002 Eqs. 58-59].
[[nodiscard]] Mat3 inertia_about_origin(const MassProperties& body);
/// Planar (second-moment) tensor at the centre of mass, integral of r r^T dm [002 Eq. 45]:
/// tr(I)/2 * 1 - I.
[[nodiscard]] Mat3 second_moment_com(const MassProperties& body);
/// Planar tensor about the frame origin: I_p* + m c c^T [002 Eqs. 60-61].
[[nodiscard]] Mat3 second_moment_about_origin(const MassProperties& body);
/// Pseudo-inertia tensor about the frame origin, integral of [r;1][r;1]^T dm [002 Eqs. 62, 70].
[[nodiscard]] Mat4 pseudo_inertia(const MassProperties& body);
/// The body whose pseudo-inertia about the frame origin is J (inverse of pseudo_inertia).
[[nodiscard]] MassProperties from_pseudo_inertia(const Mat4& J);
/// Two bodies rigidly joined (both in one frame): the sum of their pseudo-inertias [002 Eqs. 5, 6].
[[nodiscard]] MassProperties merged(const MassProperties& a, const MassProperties& b);

struct PrincipalAxes {
  Vec3 moments;  ///< ascending
  Mat3 axes;     ///< columns: unit axes in the body frame, right-handed
};
[[nodiscard]] PrincipalAxes principal_axes(const MassProperties& body);

/// Empty when the body is physically possible: positive mass, positive semi-definite
/// pseudo-inertia (a density >= 0 can produce it; slender rods and points are degenerate but
/// allowed), and principal moments satisfying the triangle inequality. Otherwise the problem.
[[nodiscard]] std::string physical_consistency_problem(const MassProperties& body);

enum class Shape {
  box,
  hollow_box,
  cylinder,
  hollow_cylinder,
  sphere,
  hollow_sphere,
  cone,
  rod,
  plate,
  disk,
  ring,
  point
};
/// "box", "hollow_cylinder", ...; and the reverse (false when unknown).
[[nodiscard]] const char* shape_name(Shape s);
[[nodiscard]] bool shape_from_name(const std::string& name, Shape& s);
/// Which density applies: 3 volume (kg/m^3), 2 area (kg/m^2), 1 length (kg/m), 0 none (point).
[[nodiscard]] int shape_dimension(Shape s);

/// A homogeneous primitive in its own frame: centred at its centroid with z the axis of
/// symmetry (cylinders, rods, disks, rings: z; plates and disks lie in x-y), except the cone,
/// whose frame is at the centre of its base with the apex at z = height.
struct Primitive {
  std::string name;
  Shape shape = Shape::box;
  Vec3 size = Vec3::Zero();        ///< box / hollow_box outer edges (x, y, z); plate (x, y)
  Vec3 inner_size = Vec3::Zero();  ///< hollow_box cavity edges (centred)
  double radius = 0.0;             ///< cylinder, sphere, cone, disk, ring (outer radius)
  double inner_radius = 0.0;       ///< hollow_cylinder, hollow_sphere
  double length = 0.0;             ///< cylinder, rod length; cone height
  double mass = -1.0;              ///< given mass, or < 0 to use density
  double density = -1.0;           ///< per volume, area or length (shape_dimension)
  Pose pose;                       ///< the primitive's frame in the body frame
  int sign = +1;                   ///< sigma_j: +1 added, -1 subtracted (hole, cavity) [002 Eq. 5]
};

/// Volume, area or length of the primitive (the measure its density multiplies) [002 Eq. 3].
[[nodiscard]] double measure(const Primitive& p);
/// Mass properties of one primitive in its own frame (closed forms). A dimension that is not
/// positive, or neither mass nor density: std::invalid_argument (io reports these in a body
/// file as InputError with the line before calling this).
[[nodiscard]] MassProperties primitive_mass_properties(const Primitive& p);
/// Sum of sigma_j times the parts' pseudo-inertias, in the body frame [002 Eqs. 5, 6, 66-70].
[[nodiscard]] MassProperties composite_mass_properties(const std::vector<Primitive>& parts);

}  // namespace linkdyn::spatial
