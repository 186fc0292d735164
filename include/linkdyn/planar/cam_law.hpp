#pragma once
// A cam's follower motion over the cam's turn: segments of rise, dwell and return, each a
// standard curve of the normalized angle x in [0, 1] (Norton, Cam Design and Manufacturing
// Handbook, ch. 3; Uicker, Pennock and Shigley, Theory of Machines and Mechanisms, Sect. 6.6).
#include <string>
#include <vector>

namespace linkdyn::planar {

enum class CamCurve { dwell, cycloidal, polynomial_345, modified_trapezoid, simple_harmonic };

/// y(x) of a unit rise over a unit interval and its first three derivatives, x in [0, 1].
struct UnitRise {
  double y = 0.0, dy = 0.0, d2y = 0.0, d3y = 0.0;
};
/// With `part` >= 0, on that analytic part of the curve continued beyond its ends (the modified
/// trapezoid has five, between the corners of its acceleration; the others one).
[[nodiscard]] UnitRise unit_rise(CamCurve curve, double x, int part = -1);
/// The analytic parts of a curve (1, or 5 for the modified trapezoid) and where part p starts
/// (x; p = parts: 1).
[[nodiscard]] int unit_rise_parts(CamCurve curve);
[[nodiscard]] double unit_rise_part_start(CamCurve curve, int part);

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

/// A program tabulated at evenly spaced cam angles over a turn, theta_k = k h (k = 0 .. n - 1,
/// h = 2 pi / n), and the periodic quintic spline through its rows: s(theta) = sum c_j
/// B5(theta / h - j), B5 the centred cardinal B-spline of degree 5 (Boost.Math), continuous to
/// its fourth derivative, so the jerk is smooth (de Boor, A Practical Guide to Splines, ch. IX).
struct CamTable {
  double step = 0.0;                 ///< h (rad)
  std::vector<double> coefficients;  ///< c_j, one per row
  [[nodiscard]] bool empty() const { return coefficients.empty(); }
  /// s and its three derivatives by theta at any angle (the table repeats every turn).
  [[nodiscard]] FollowerMotion at(double theta) const;
};
/// The spline through `lift` at n evenly spaced angles over a turn (n >= 6): the cyclic
/// banded system sum_j c_j B5(i - j) = s_i solved by Eigen's sparse LU.
[[nodiscard]] CamTable cam_table(const std::vector<double>& lift);

/// The segments over one turn from theta = 0, the follower at `start` there, or a table of
/// the turn. Its pieces are the analytic parts of its segments' curves, in order: where one ends
/// the jerk (or, inside a modified trapezoid, the jerk's rate) jumps; the direct dynamics hold a
/// piece over a step and its ends are events. A table is one piece over the whole turn.
struct CamProgram {
  double start = 0.0;
  std::vector<CamSegment> segments;
  CamTable table;  ///< when not empty, the program (and `segments` are none)
  /// s and its derivatives at theta (any angle: the program repeats every turn).
  [[nodiscard]] FollowerMotion at(double theta) const { return at(theta, piece_of(theta)); }
  /// s and its derivatives at theta on piece i's curve, continued beyond the piece's ends by up
  /// to half its span (farther, on the piece that holds theta).
  [[nodiscard]] FollowerMotion at(double theta, int piece) const;
  [[nodiscard]] int piece_count() const;
  /// The piece that holds theta (at a boundary, the one that ends there).
  [[nodiscard]] int piece_of(double theta) const;
  /// Where theta is on piece i: x (1 - x), x its fraction of the piece (theta taken within the
  /// turn centred on the piece); negative outside it.
  [[nodiscard]] double inside(int piece, double theta) const {
    const double x = fraction(piece, theta);
    return x * (1.0 - x);
  }
  /// theta's fraction x of piece i (within the turn centred on the piece).
  [[nodiscard]] double fraction(int piece, double theta) const;
  /// Piece i: its segment and the curve's part, the start angles (in [0, 2 pi)) of the
  /// segment and of the piece, the piece's span, the follower's displacement at the segment's start.
  struct Piece {
    int segment = 0, part = 0;
    double segment_begin = 0.0, begin = 0.0, span = 0.0, s0 = 0.0;
  };
  [[nodiscard]] Piece piece(int i) const;
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
