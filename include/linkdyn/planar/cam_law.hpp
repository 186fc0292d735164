#pragma once
// A cam's follower motion over the cam's turn: segments of rise, dwell and return, each a
// standard curve of the normalized angle x in [0, 1] (Norton, Cam Design and Manufacturing
// Handbook, ch. 3; Uicker, Pennock and Shigley, Theory of Machines and Mechanisms, Sect. 6.6).
#include <string>
#include <utility>
#include <vector>

namespace linkdyn::planar {

enum class CamCurve { dwell, cycloidal, polynomial_345, modified_trapezoid, simple_harmonic };

/// y(x) of a unit rise over a unit interval and its first three derivatives, x in [0, 1].
struct UnitRise {
  double y = 0.0, dy = 0.0, d2y = 0.0, d3y = 0.0;
};
[[nodiscard]] UnitRise unit_rise(CamCurve curve, double x);

/// One segment of the follower's program.
struct CamSegment {
  CamCurve curve = CamCurve::dwell;
  double span = 0.0;  ///< the cam angle it takes (rad, > 0)
  double lift = 0.0;  ///< the follower's change over it: + rise, - return, 0 dwell (m or rad)
};

/// The follower's displacement s by the cam angle theta and its derivatives by theta.
struct FollowerMotion {
  double s = 0.0, ds = 0.0, d2s = 0.0, d3s = 0.0;
};

/// The segments over one turn from theta = 0, the follower at `start` there.
struct CamProgram {
  double start = 0.0;
  std::vector<CamSegment> segments;
  /// s and its derivatives at theta (any angle: the program repeats every turn).
  [[nodiscard]] FollowerMotion at(double theta) const { return at(theta, segment_of(theta)); }
  /// s and its derivatives at theta on segment k's curve, continued beyond the segment's ends:
  /// the direct dynamics hold a segment over a step (the jerk jumps at its ends, which are
  /// events).
  [[nodiscard]] FollowerMotion at(double theta, int segment) const;
  /// The segment that holds theta (at a boundary, the one that ends there).
  [[nodiscard]] int segment_of(double theta) const;
  /// Where theta is on segment k: x (1 - x), x its fraction of the segment (theta taken within
  /// the turn centred on the segment); negative outside it.
  [[nodiscard]] double inside(int segment, double theta) const {
    const double x = fraction(segment, theta);
    return x * (1.0 - x);
  }
  /// theta's fraction x of segment k (within the turn centred on the segment).
  [[nodiscard]] double fraction(int segment, double theta) const;

 private:
  /// Segment k's start angle (in [0, 2 pi)) and the follower's displacement there.
  [[nodiscard]] std::pair<double, double> segment_start(int segment) const;
};

/// Why `program` is not one turn of a cam ("" if it is): a segment's span not positive, a dwell
/// with a lift, the spans not adding up to one turn, or the lifts not coming back to the start.
[[nodiscard]] std::string cam_program_problem(const CamProgram& program);

/// The follower's velocity, acceleration and jerk when the cam turns at omega with angular
/// acceleration alpha and its rate alpha_dot: the chain rule on s(theta(t)).
struct FollowerRates {
  double v = 0.0, a = 0.0, j = 0.0;
};
[[nodiscard]] FollowerRates follower_rates(const FollowerMotion& m, double omega, double alpha = 0.0,
                                           double alpha_dot = 0.0);

}  // namespace linkdyn::planar
