// The follower's program of a cam: each standard curve against its closed form and the peak
// coefficients the cam literature tabulates, and a turn of segments against the chain rule.
#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <cstdio>
#include <vector>

#include "linkdyn/planar/cam_law.hpp"

using namespace linkdyn::planar;

namespace {

const CamCurve rises[] = {CamCurve::cycloidal, CamCurve::polynomial_345, CamCurve::modified_trapezoid,
                          CamCurve::simple_harmonic};

/// The largest |dy|, |d2y| and |d3y| over [0, 1] on a fine grid (and at the ends).
UnitRise peaks(CamCurve curve) {
  UnitRise p;
  for (int k = 0; k <= 80000; ++k) {
    const UnitRise r = unit_rise(curve, k / 80000.0);
    p.dy = std::max(p.dy, std::abs(r.dy)), p.d2y = std::max(p.d2y, std::abs(r.d2y));
    p.d3y = std::max(p.d3y, std::abs(r.d3y));
  }
  return p;
}

}  // namespace

TEST(CamLaw, EachRiseGoesFromZeroToOneAndItsDerivativesAreItsSlopes) {
  // y(0) = 0, y(1) = 1, dy = 0 at both ends; each derivative is the central difference of the
  // one before (step 1e-5: error h^2/6 y''' below 1e-7 of the size).
  for (CamCurve c : rises) {
    EXPECT_NEAR(unit_rise(c, 0.0).y, 0.0, 1e-15);
    EXPECT_NEAR(unit_rise(c, 1.0).y, 1.0, 1e-14);
    EXPECT_NEAR(unit_rise(c, 0.0).dy, 0.0, 1e-15);
    EXPECT_NEAR(unit_rise(c, 1.0).dy, 0.0, 1e-14);
    const double h = 1e-5;
    for (double x : {0.03, 0.1, 0.2, 0.3, 0.45, 0.5, 0.55, 0.7, 0.8, 0.9, 0.97}) {
      const UnitRise lo = unit_rise(c, x - h), mid = unit_rise(c, x), hi = unit_rise(c, x + h);
      EXPECT_NEAR((hi.y - lo.y) / (2 * h), mid.dy, 1e-7 * 10) << static_cast<int>(c) << " x " << x;
      EXPECT_NEAR((hi.dy - lo.dy) / (2 * h), mid.d2y, 1e-7 * 100) << static_cast<int>(c) << " x " << x;
      EXPECT_NEAR((hi.d2y - lo.d2y) / (2 * h), mid.d3y, 1e-7 * 1000) << static_cast<int>(c) << " x " << x;
    }
  }
}

TEST(CamLaw, PeakCoefficientsAreTheTabulatedOnes) {
  // Norton, Cam Design and Manufacturing Handbook, Table 3-2 (velocity, acceleration and jerk of
  // a unit rise over a unit interval): cycloidal 2, 2 pi, 4 pi^2; 3-4-5 1.875, 10/sqrt(3), 60;
  // modified trapezoid 2.000, 4.888, 61.43; simple harmonic pi/2, pi^2/2 (its jerk pi^3/2 at
  // the ends, where the acceleration jumps from 0).
  const struct {
    CamCurve curve;
    double v, a, j, tolerance;
  } cases[] = {
      {CamCurve::cycloidal, 2.0, 2 * M_PI, 4 * M_PI * M_PI, 1e-12},
      {CamCurve::polynomial_345, 1.875, 10 / std::sqrt(3.0), 60.0, 1e-8},
      {CamCurve::modified_trapezoid, 2.0, 4.888, 61.43, 5e-4},  // tabulated to 4 digits
      {CamCurve::simple_harmonic, M_PI / 2, M_PI * M_PI / 2, M_PI * M_PI * M_PI / 2, 1e-9},
  };
  for (const auto& c : cases) {
    const UnitRise p = peaks(c.curve);
    std::printf("curve %d: C_v %.6f, C_a %.6f, C_j %.6f\n", static_cast<int>(c.curve), p.dy, p.d2y, p.d3y);
    EXPECT_NEAR(p.dy, c.v, c.tolerance * c.v);
    EXPECT_NEAR(p.d2y, c.a, c.tolerance * c.a);
    EXPECT_NEAR(p.d3y, c.j, c.tolerance * c.j);
  }
}

TEST(CamLaw, ATurnOfSegmentsFollowsEachCurveScaledToItsSpanAndLift) {
  // Rise 12 mm cycloidal over 120 deg, dwell 60 deg, return 3-4-5 over 150 deg, dwell 30 deg.
  const double deg = M_PI / 180.0;
  CamProgram p;
  p.start = 0.005;
  p.segments = {{CamCurve::cycloidal, 120 * deg, 0.012},
                {CamCurve::dwell, 60 * deg, 0.0},
                {CamCurve::polynomial_345, 150 * deg, -0.012},
                {CamCurve::dwell, 30 * deg, 0.0}};
  EXPECT_EQ(cam_program_problem(p), "");
  // In the rise, at 40 deg: s = s0 + h (x - sin(2 pi x) / 2 pi), x = 1/3.
  const double x = 1.0 / 3.0, beta = 120 * deg;
  const FollowerMotion rise = p.at(40 * deg);
  EXPECT_NEAR(rise.s, 0.005 + 0.012 * (x - std::sin(2 * M_PI * x) / (2 * M_PI)), 1e-16);
  EXPECT_NEAR(rise.ds, 0.012 * (1 - std::cos(2 * M_PI * x)) / beta, 1e-15);
  EXPECT_NEAR(rise.d2s, 0.012 * 2 * M_PI * std::sin(2 * M_PI * x) / (beta * beta), 1e-14);
  EXPECT_NEAR(rise.d3s, 0.012 * 4 * M_PI * M_PI * std::cos(2 * M_PI * x) / (beta * beta * beta), 1e-13);
  // The dwell holds the top; the return's middle is halfway down; a turn later, the same.
  EXPECT_NEAR(p.at(150 * deg).s, 0.017, 1e-16);
  EXPECT_EQ(p.at(150 * deg).ds, 0.0);
  EXPECT_NEAR(p.at(255 * deg).s, 0.011, 1e-15);
  EXPECT_NEAR(p.at(255 * deg + 2 * M_PI).s, 0.011, 1e-15);
  EXPECT_NEAR(p.at(-105 * deg).s, 0.011, 1e-15);
  EXPECT_NEAR(p.at(345 * deg).s, 0.005, 1e-16);
  // At 600 rpm with the cam accelerating: v = s' w, a = s'' w^2 + s' alpha.
  const FollowerRates r = follower_rates(rise, 20 * M_PI, 5.0, 0.0);
  EXPECT_NEAR(r.v, rise.ds * 20 * M_PI, 1e-15);
  EXPECT_NEAR(r.a, rise.d2s * 400 * M_PI * M_PI + rise.ds * 5.0, 1e-12);
}

TEST(CamLaw, AProgramThatIsNotOneTurnIsNamed) {
  const double deg = M_PI / 180.0;
  CamProgram p;
  p.segments = {{CamCurve::cycloidal, 120 * deg, 0.01}, {CamCurve::cycloidal, 200 * deg, -0.01}};
  EXPECT_NE(cam_program_problem(p).find("span 320 deg, not one turn"), std::string::npos) << cam_program_problem(p);
  p.segments = {{CamCurve::cycloidal, 180 * deg, 0.01}, {CamCurve::cycloidal, 180 * deg, -0.008}};
  EXPECT_NE(cam_program_problem(p).find("add up to 0.002, not 0"), std::string::npos) << cam_program_problem(p);
  p.segments = {{CamCurve::dwell, 180 * deg, 0.01}, {CamCurve::cycloidal, 180 * deg, -0.01}};
  EXPECT_NE(cam_program_problem(p).find("segment 1 is a dwell with a lift"), std::string::npos);
  p.segments = {
      {CamCurve::dwell, 90 * deg, 0.0}, {CamCurve::cycloidal, 90 * deg, -0.01}, {CamCurve::cycloidal, 180 * deg, 0.01}};
  EXPECT_NE(cam_program_problem(p).find("0.01 below its start by the end of segment 2"), std::string::npos)
      << cam_program_problem(p);
}

TEST(CamLaw, AHeldPieceContinuesItsCurveSmoothlyPastItsEndsWhereTheNextOneTakesOver) {
  // The direct dynamics evaluate a piece of the program held over a step, beyond its ends: the
  // pieces are the segments, the modified trapezoid split at its acceleration's four corners.
  // At each end two pieces agree in s, s' and s'' (the jerk may jump; a simple harmonic's
  // acceleration would jump too, which the events take as well), and past it the held one is
  // its own curve's continuation (Taylor to fourth order).
  CamProgram p;
  p.start = 0.002;
  p.segments = {{CamCurve::cycloidal, 2.0, 0.01},
                {CamCurve::dwell, 0.5, 0.0},
                {CamCurve::modified_trapezoid, 1.5, -0.01},
                {CamCurve::polynomial_345, 0.8, 0.004},
                {CamCurve::cycloidal, 2.0 * M_PI - 4.8, -0.004}};
  ASSERT_EQ(p.piece_count(), 9);
  EXPECT_NEAR(p.piece(3).begin, 2.5 + 0.125 * 1.5, 1e-15);
  EXPECT_NEAR(p.piece(4).span, 0.25 * 1.5, 1e-15);
  for (int i = 0; i < 9; ++i) {
    const double end = p.piece(i).begin + p.piece(i).span;
    const int next = (i + 1) % 9;
    EXPECT_EQ(p.piece_of(end - 1e-9), i);
    EXPECT_EQ(p.piece_of(end + 1e-9), next);
    EXPECT_NEAR(p.fraction(i, end), 1.0, 1e-12);
    EXPECT_NEAR(p.fraction(next, end), 0.0, 1e-12);
    EXPECT_LT(p.inside(i, end + 1e-6), 0.0);
    const FollowerMotion a = p.at(end, i), b = p.at(end, next);
    EXPECT_NEAR(a.s, b.s, 1e-15) << i;
    EXPECT_NEAR(a.ds, b.ds, 1e-14) << i;
    EXPECT_NEAR(a.d2s, b.d2s, 1e-12) << i;
    for (const double h : {1e-3, -1e-3}) {
      const FollowerMotion c = p.at(end + h, i);
      const double taylor = a.s + h * (a.ds + h / 2.0 * (a.d2s + h / 3.0 * a.d3s));
      EXPECT_NEAR(c.s, taylor, 1e-11) << i;  // h^4 s / 24 with |s| below 2.4e2 m/rad^4
      EXPECT_NEAR(c.ds, a.ds + h * (a.d2s + h / 2.0 * a.d3s), 1e-8) << i;
    }
  }
  // Unheld, the program picks the piece that holds the angle, over any turn; held far away (a
  // step much longer than the piece), too.
  for (double theta = -7.0; theta < 14.0; theta += 0.37) {
    const FollowerMotion a = p.at(theta), b = p.at(theta, p.piece_of(theta));
    EXPECT_EQ(a.s, b.s);
    EXPECT_EQ(a.d3s, b.d3s);
  }
  EXPECT_EQ(p.at(4.0, 0).s, p.at(4.0).s);
  EXPECT_EQ(p.piece_of(0.0), 8);          // the turn's start: the last piece ends there
  EXPECT_EQ(p.piece_of(-2.0 * M_PI), 8);  // 2 rad past the cycloid of 2 rad
}

namespace {
/// A smooth periodic program and its derivatives: s = a (1 - cos t) + b (1 - cos 2t) + c sin 3t.
FollowerMotion smooth_program(double t) {
  const double a = 0.005, b = 0.001, c = 0.0004;
  return {a * (1 - std::cos(t)) + b * (1 - std::cos(2 * t)) + c * std::sin(3 * t),
          a * std::sin(t) + 2 * b * std::sin(2 * t) + 3 * c * std::cos(3 * t),
          a * std::cos(t) + 4 * b * std::cos(2 * t) - 9 * c * std::sin(3 * t),
          -a * std::sin(t) - 8 * b * std::sin(2 * t) - 27 * c * std::cos(3 * t)};
}
/// The largest errors of s, s', s'', s''' of the table of smooth_program at n rows, relative to
/// each quantity's largest value, over 10 points between each pair of rows.
std::array<double, 4> table_errors(int n) {
  std::vector<double> lift(static_cast<size_t>(n));
  for (int k = 0; k < n; ++k) lift[static_cast<size_t>(k)] = smooth_program(2 * M_PI * k / n).s;
  CamProgram program;
  program.table = cam_table(lift);
  std::array<double, 4> worst{}, largest{};
  for (int k = 0; k < 10 * n; ++k) {
    const double t = 2 * M_PI * (k + 0.37) / (10 * n);
    const FollowerMotion m = program.at(t), e = smooth_program(t);
    const double got[4] = {m.s, m.ds, m.d2s, m.d3s}, want[4] = {e.s, e.ds, e.d2s, e.d3s};
    for (int d = 0; d < 4; ++d)
      worst[d] = std::max(worst[d], std::abs(got[d] - want[d])), largest[d] = std::max(largest[d], std::abs(want[d]));
  }
  for (int d = 0; d < 4; ++d) worst[d] /= largest[d];
  return worst;
}
}  // namespace

TEST(CamLaw, ATableOfASmoothProgramIsItsClosedFormToTheQuinticSplinesOrder) {
  // The periodic quintic spline through 360 rows (every 1 deg) of a smooth program: s to 1e-12,
  // the jerk to 2e-6 of their largest values; halving the step divides the errors of s, s',
  // s'', s''' by 2^6, 2^5, 2^4, 2^3 (the spline's orders).
  const std::array<double, 4> coarse = table_errors(180), fine = table_errors(360);
  std::printf(
      "cam table, 360 rows: |s| %.1e |s'| %.1e |s''| %.1e |s'''| %.1e (relative); from 180 rows: x%.0f x%.0f "
      "x%.0f x%.0f\n",
      fine[0], fine[1], fine[2], fine[3], coarse[0] / fine[0], coarse[1] / fine[1], coarse[2] / fine[2],
      coarse[3] / fine[3]);
  EXPECT_LT(fine[0], 1e-12);
  EXPECT_LT(fine[3], 2e-6);
  EXPECT_GT(coarse[0] / fine[0], 56.0);
  EXPECT_GT(coarse[3] / fine[3], 7.5);
  // The jerk is continuous across the rows: at a row and 1e-10 rad either side.
  std::vector<double> lift{0, 0.001, 0.004, 0.008, 0.010, 0.009, 0.006, 0.003, 0.001, 0.0002, 0, 0};
  CamProgram program;
  program.table = cam_table(lift);
  const double h = 2 * M_PI / 12;
  for (int k = 0; k < 12; ++k) {
    EXPECT_NEAR(program.at(k * h).s, lift[static_cast<size_t>(k)], 1e-15);  // through its rows
    const double before = program.at(k * h - 1e-10).d3s, after = program.at(k * h + 1e-10).d3s;
    EXPECT_NEAR(before, after, 1e-7 * (1.0 + std::abs(after))) << k;
  }
  EXPECT_EQ(program.piece_count(), 1);
  EXPECT_NEAR(program.at(-h).s, program.at(11 * h).s, 1e-15);  // one turn repeats
}
