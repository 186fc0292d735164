#pragma once
// A disc cam's geometry from its follower's program (cam_law.hpp): where the follower touches
// the cam at each cam angle, the common normal there, the pressure angle and the radii of
// curvature of the pitch curve and of the profile (Uicker, Pennock and Shigley, Theory of
// Machines and Mechanisms, Sects. 6.8-6.10; Norton, Cam Design and Manufacturing Handbook,
// ch. 7). The cam turns counter-clockwise about its centre O by theta; the follower's guide or
// pivot is fixed. Positions are in the follower's frame (the ground's): O at the origin, the
// translating follower moving along +y, an oscillating follower's pivot on +x (its point left or
// right of the line from O to the pivot).
#include <cmath>
#include <string>

#include "linkdyn/core/geometry.hpp"
#include "linkdyn/planar/cam_law.hpp"

namespace linkdyn::planar {

/// The follower: how it moves, how it touches the cam, and its geometry.
struct CamFollower {
  enum class Motion { translating, oscillating };
  enum class Contact { knife_edge, roller, flat_faced };
  Motion motion = Motion::translating;
  Contact contact = Contact::roller;
  double base_radius = 0.0;     ///< the profile's base circle (m): the follower's start s = 0 touches it
  double roller_radius = 0.0;   ///< a roller's (m)
  double offset = 0.0;          ///< translating: the guide's line x = offset (m)
  double pivot_distance = 0.0;  ///< oscillating: the pivot at (pivot_distance, 0) (m)
  double arm_length = 0.0;      ///< oscillating: pivot to the roller's centre or the knife edge (m)
  /// Oscillating: +1 when the follower's point (or face) lies left of the line from O to the
  /// pivot (on +y), -1 right of it. The arm swings away from the cam as s grows.
  int arm_side = 1;
  /// The radius of the prime circle: base circle plus roller, the pitch curve's smallest radius
  /// where s = 0.
  [[nodiscard]] double prime_radius() const { return base_radius + (contact == Contact::roller ? roller_radius : 0.0); }
};

/// The contact at one cam angle.
struct CamContact {
  Vec2 pitch;                   ///< the follower's point (roller centre, knife edge), follower's frame
  Vec2 contact;                 ///< the contact point, follower's frame
  Vec2 normal;                  ///< the common normal, unit, from the cam towards the follower
  Vec2 pitch_in_cam;            ///< the pitch curve's point in the cam's frame (turned back by theta)
  Vec2 contact_in_cam;          ///< the profile's point in the cam's frame
  double pressure_angle = 0.0;  ///< between the normal and the follower point's path (rad, signed)
  /// Radii of curvature (m), positive where convex: the pitch curve's (the roller centre's path
  /// on the cam) and the profile's (the pitch curve's less the roller; a flat face's envelope).
  double pitch_curvature_radius = 0.0, profile_curvature_radius = 0.0;
};

/// The contact at cam angle theta, the follower at program.at(theta).
[[nodiscard]] CamContact cam_contact(const CamFollower& f, const CamProgram& program, double theta);

/// The pitch curve on the cam's frame at parameter sigma (the cam angle at which the follower
/// reaches that point) and its first two derivatives by sigma. The curve runs clockwise as
/// sigma grows; its outward normal is the quarter turn of dc, its radius of curvature
/// -|dc|^3 / (dc x d2c) (positive where convex).
struct PitchCurvePoint {
  Vec2 c, dc, d2c;
  [[nodiscard]] Vec2 outward_normal() const { return perp(dc).normalized(); }
  [[nodiscard]] double curvature_radius() const { return -std::pow(dc.norm(), 3) / cross(dc, d2c); }
};
/// With `piece` >= 0, on that piece of the program continued beyond its ends (CamProgram::at).
[[nodiscard]] PitchCurvePoint pitch_curve(const CamFollower& f, const CamProgram& program, double sigma,
                                          int piece = -1);

/// Why the cam cannot be made for this follower ("" if it can), at the first cam angle where
/// it happens over a turn sampled every `step` rad: the prime circle inside the offset, an
/// oscillating arm that cannot reach the prime circle, a profile with a cusp or undercut for the
/// roller (the convex pitch curve's radius below the roller's), a flat face's envelope with a
/// cusp (radius <= 0).
[[nodiscard]] std::string cam_profile_problem(const CamFollower& f, const CamProgram& program, double step);

}  // namespace linkdyn::planar
