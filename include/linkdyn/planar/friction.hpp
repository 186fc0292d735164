#pragma once
// Coulomb friction in the pairs [001 Eqs. 8-11]: every bearing where two bodies slide on each
// other under a normal load from the pair's reaction. A bearing is a revolute pair, one member
// of a compound pin turning on the pin (which is fixed in the pin's first member), or a
// prismatic pair. Its friction effort opposes its relative speed:
//   revolute / pin member: M = -sgn(omega_rel) f' r |F|  (a moment on the second body)
//   prismatic:             F = -sgn(v_rel) f N_p         (a force along the guide, at the slider
//                          point, on the second body; N_p = |N|, or |N1| + |N2| for a slider of
//                          length b carried at its ends, N1 + N2 = N, (b/2)(N2 - N1) = M)
//   cam contact:           T = -sgn(v_slide) f |N|       (knife edge sliding on the cam), or
//                          T = -sgn(v_slide) f' (r / r_roller) |F| (a roller rolling on the cam
//                          and turning on its pin of radius r), a force along the common
//                          tangent at the contact point, on the follower
// and the opposite acts on the first body.
#include <string>
#include <vector>

#include "linkdyn/planar/mechanism.hpp"
#include "linkdyn/planar/workspace.hpp"

namespace linkdyn::planar {

/// The bearings of a mechanism with friction (coefficient > 0 and, for revolute pairs and
/// rollers, r > 0),
/// in the order of the model's joints, then each pin's members (Mechanism::bearings()).
[[nodiscard]] std::vector<Bearing> find_bearings(const Mechanism& m);

/// True where the friction effort is a force (a prismatic pair, a cam's contact), false where it
/// is a moment.
[[nodiscard]] bool bearing_slides(const Bearing& b);
/// The relative speed of a bearing: omega_second - omega_first, the slider point's velocity
/// relative to the guide, along the guide, or the follower's contact point (a roller held on
/// its pin) sliding over the cam, along the common tangent.
[[nodiscard]] double bearing_speed(const Mechanism& m, const Workspace& ws, const Bearing& b);
/// The relative acceleration, d/dt of bearing_speed, from the workspace's accelerations.
[[nodiscard]] double bearing_acceleration(const Mechanism& m, const Workspace& ws, const Bearing& b);
/// The pin's radius r of a revolute bearing or a pin member; 0 for a prismatic bearing or a
/// cam's contact.
[[nodiscard]] double bearing_radius(const Bearing& b);
/// The load that friction multiplies from the current reactions: r |F| (revolute, pin member),
/// N_p (prismatic), |N| (knife edge) or (r / r_roller) |F| (roller).
[[nodiscard]] double bearing_load(const Mechanism& m, const Workspace& ws, const Bearing& b);
/// The load of a cam pair's contact bearing `b` (joint `j`) under the contact force `normal`.
[[nodiscard]] double contact_load(const Joint& j, double normal, const Bearing& b);
/// The signed normal loads whose magnitudes make a prismatic bearing's load N_p: N (a short
/// slider) or the end loads N1 = N/2 - M/b, N2 = N/2 + M/b; returns how many (0 for revolute
/// bearings and pin members).
[[nodiscard]] int bearing_normals(const Mechanism& m, const Workspace& ws, const Bearing& b, double normals[2]);
/// The same from a pair's normal force and moment.
[[nodiscard]] int slider_normals(const Joint& j, double normal, double moment, double normals[2]);
/// An effort along the bearing's speed (moment, guide force or contact force on its second
/// body, the opposite on its first) added to `loads` as wrenches about the body frames' origins.
void add_bearing_effort(const Mechanism& m, const Workspace& ws, const Bearing& b, double effort,
                        std::vector<Wrench>& loads);

}  // namespace linkdyn::planar
