#pragma once
// Constructors of the group types; each type lives in its own file.
#include <memory>

#include "linkdyn/planar/groups/group.hpp"

namespace linkdyn::planar {

/// R_I: body pinned to the ground by `joint`, angle = driver coordinate.
[[nodiscard]] std::unique_ptr<Group> make_rotational_driver(const Mechanism& m, int driver);
/// P_I: slider on a ground guide, position along the guide = driver coordinate.
[[nodiscard]] std::unique_ptr<Group> make_linear_driver(const Mechanism& m, int driver);
/// A wheel pinned to the ground whose angle follows another body through a gear pair.
[[nodiscard]] std::unique_ptr<Group> make_gear_wheel(const Mechanism& m, int wheel, int pivot, int gear);
/// A dyad of bodies {i, j} with joints {i-known, i-j, j-known}, R or P each (not PPP).
[[nodiscard]] std::unique_ptr<Group> make_dyad(const Mechanism& m, int i, int j, int joint_i, int joint_ij,
                                               int joint_j);
/// Any group: Newton's method on its loop-closure equations; `driven` lists the drivers whose
/// prismatic pairs (between two moving bodies: a cylinder's) are in the group, each pair's
/// displacement one more equation (a driving dyad).
[[nodiscard]] std::unique_ptr<Group> make_generic_group(const Mechanism& m, std::vector<int> bodies,
                                                        std::vector<int> joints, std::vector<int> driven = {});

/// Pose, velocity and acceleration of a body turning about a fixed pivot: the pin point
/// `pin_local` sits on the global point `pivot`.
void place_on_pivot(BodyState& b, const Vec2& pivot, const Vec2& pin_local, double angle);
void turn_on_pivot_velocity(BodyState& b, const Vec2& pin_local, double omega);
void turn_on_pivot_acceleration(BodyState& b, const Vec2& pin_local, double alpha);

}  // namespace linkdyn::planar
