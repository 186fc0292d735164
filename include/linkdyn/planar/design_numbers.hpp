#pragma once
// The numbers a designer sizes a one-DOF mechanism by, from its kinematic sweep: the swing or
// stroke of every output with its limit positions and the driver values there, the time ratio
// of a crank-driven reciprocating or oscillating output, the Grashof type of every four-bar
// loop and the extremes of the transmission angles. One implementation for the console, the
// JSON metadata, the report and Python.
#include <array>
#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "linkdyn/planar/kinematics_result.hpp"
#include "linkdyn/planar/mechanism.hpp"
#include "linkdyn/planar/motion_law.hpp"

namespace linkdyn::planar {

/// The travel of an output between its limit positions: a body pinned to the ground swings
/// (its angle), a body sliding on the ground and a tracked point have a stroke along a
/// direction (the guide's, or the principal direction of the point's path).
struct OutputTravel {
  enum class Kind { swing, stroke };
  std::string name;  ///< the body's name, or the tracked point's column label
  Kind kind = Kind::swing;
  bool revolves = false;             ///< a body that turns all the way round: no limit positions
  Vec2 direction = Vec2::UnitX();    ///< a stroke's direction (unit, ground frame)
  double low = 0.0, high = 0.0;      ///< the limit positions: angle (rad) or position along the direction (m)
  double travel = 0.0;               ///< high - low
  double q_low = 0.0, q_high = 0.0;  ///< the first driver's value at each limit position
  /// The sweep turns a crank once at constant speed: the crank angle (and time) of the slower
  /// stroke over the faster's (>= 1; 1 for a symmetric output); NaN otherwise.
  double time_ratio = std::numeric_limits<double>::quiet_NaN();
};

/// A loop of four revolute pairs: the ground, the link pinned to it that the driver turns (or
/// the first), the coupler and the other link pinned to the ground [Grashof: s + l vs p + q].
struct FourBarLoop {
  std::array<std::string, 4> links;  ///< ground, input, coupler, output
  std::array<double, 4> lengths{};   ///< between each link's two pairs (m)
  bool grashof = false;              ///< s + l <= p + q: a link turns all the way round
  /// "crank-rocker", "rocker-crank" (the output turns), "double-crank", "double-rocker",
  /// "triple-rocker" (non-Grashof) or "change-point" (s + l = p + q).
  std::string type;
};

/// A transmission angle's extremes over the sweep, with the first driver's values there.
struct TransmissionExtremes {
  std::string joint;
  double min = 0.0, max = 0.0, q_at_min = 0.0, q_at_max = 0.0;
};

/// A cam pair's numbers over the sweep's rows: the follower's lift, its velocity, acceleration
/// and jerk extremes (m or rad), the largest pressure angle and the profile's smallest radius
/// of curvature where convex and where concave, with the first driver's values there.
struct CamNumbers {
  std::string joint;
  bool oscillating = false;  ///< the follower swings: s in rad
  double lift = 0.0, v_max = 0.0, a_min = 0.0, a_max = 0.0, jerk_max = 0.0;
  double pressure_angle_max = 0.0, q_at_pressure_angle_max = 0.0;
  double convex_radius_min = std::numeric_limits<double>::infinity(), q_at_convex_radius_min = 0.0;
  double concave_radius_min = std::numeric_limits<double>::infinity(), q_at_concave_radius_min = 0.0;
  /// The pressure angle designers keep below: 30 deg for a translating follower, 35 deg for an
  /// oscillating one (Norton, Cam Design and Manufacturing Handbook, Sect. 7.2).
  [[nodiscard]] double pressure_angle_limit() const { return (oscillating ? 35.0 : 30.0) * M_PI / 180.0; }
};

struct DesignNumbers {
  std::vector<OutputTravel> outputs;  ///< bodies pinned to or sliding on the ground, then the named points
  std::vector<FourBarLoop> four_bars;
  std::vector<TransmissionExtremes> transmission;
  std::vector<CamNumbers> cams;
};

/// The design numbers of a one-DOF mechanism from its sweep `k` (planar::kinematics). The limit
/// positions are located between the sweep's rows where the output's velocity coefficient
/// changes sign, to the rounding level (TOMS 748 on the positions solved there). Several DOF:
/// the four-bar loops only.
[[nodiscard]] DesignNumbers design_numbers(const Mechanism& m, const KinematicsResult& k);

/// The same from a sweep of `grid` (of at most 3600 steps: the limit positions are located
/// between the rows anyway).
[[nodiscard]] DesignNumbers design_numbers(const Mechanism& m, const TimeGrid& grid);

/// The Grashof type of a four-bar with these lengths (ground, input, coupler, output).
[[nodiscard]] std::string grashof_type(const std::array<double, 4>& lengths, bool& grashof);

}  // namespace linkdyn::planar
