// The follower's program of a cam: unit rises of the standard curves, and the segments of a
// turn (cam_law.hpp).
#include "linkdyn/planar/cam_law.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

namespace linkdyn::planar {
namespace {

constexpr double pi = M_PI;

/// The modified trapezoid's acceleration A sin(4 pi x) over [0, 1/8], A over [1/8, 3/8] and
/// A cos(4 pi (x - 3/8)) over [3/8, 1/2] (Norton, Cam Design Handbook, Sect. 3.9), integrated
/// piece by piece, A = 1; the second half by symmetry, y(x) = 1 - y(1 - x).
UnitRise trapezoid_first_half(double x) {
  constexpr double k = 4.0 * pi;
  if (x <= 0.125)
    return {x / k - std::sin(k * x) / (k * k), (1.0 - std::cos(k * x)) / k, std::sin(k * x), k * std::cos(k * x)};
  const double v1 = 1.0 / k, s1 = 0.125 / k - 1.0 / (k * k);  // at x = 1/8
  if (x <= 0.375) {
    const double u = x - 0.125;
    return {s1 + v1 * u + 0.5 * u * u, v1 + u, 1.0, 0.0};
  }
  const double v2 = v1 + 0.25, s2 = s1 + v1 * 0.25 + 0.5 * 0.25 * 0.25;  // at x = 3/8
  const double u = x - 0.375;
  return {s2 + v2 * u + (1.0 - std::cos(k * u)) / (k * k), v2 + std::sin(k * u) / k, std::cos(k * u),
          -k * std::sin(k * u)};
}

UnitRise modified_trapezoid(double x) {
  // A such that the rise reaches 1/2 at x = 1/2: 4.888 (Norton's C_a).
  static const double A = 0.5 / trapezoid_first_half(0.5).y;
  const bool second = x > 0.5;
  UnitRise r = trapezoid_first_half(second ? 1.0 - x : x);
  r.y *= A, r.dy *= A, r.d2y *= A, r.d3y *= A;
  if (second) r.y = 1.0 - r.y, r.d2y = -r.d2y;
  return r;
}

}  // namespace

UnitRise unit_rise(CamCurve curve, double x) {
  switch (curve) {
    case CamCurve::dwell: return {};
    case CamCurve::cycloidal: {
      const double w = 2.0 * pi * x;
      return {x - std::sin(w) / (2.0 * pi), 1.0 - std::cos(w), 2.0 * pi * std::sin(w), 4.0 * pi * pi * std::cos(w)};
    }
    case CamCurve::polynomial_345: {
      const double x2 = x * x, x3 = x2 * x;
      return {x3 * (10.0 - 15.0 * x + 6.0 * x2), 30.0 * x2 * (1.0 - 2.0 * x + x2),
              60.0 * x * (1.0 - 3.0 * x + 2.0 * x2), 60.0 - 360.0 * x + 360.0 * x2};
    }
    case CamCurve::modified_trapezoid: return modified_trapezoid(x);
    case CamCurve::simple_harmonic: {
      const double w = pi * x;
      return {0.5 * (1.0 - std::cos(w)), 0.5 * pi * std::sin(w), 0.5 * pi * pi * std::cos(w),
              -0.5 * pi * pi * pi * std::sin(w)};
    }
  }
  return {};
}

namespace {
/// theta - start within the turn centred on a segment of `span` starting at `start`.
double local_angle(double theta, double start, double span) {
  return 0.5 * span + std::remainder(theta - start - 0.5 * span, 2.0 * pi);
}
}  // namespace

std::pair<double, double> CamProgram::segment_start(int segment) const {
  double angle = 0.0, s = start;
  for (int k = 0; k < segment; ++k)
    angle += segments[static_cast<size_t>(k)].span, s += segments[static_cast<size_t>(k)].lift;
  return {angle, s};
}

int CamProgram::segment_of(double theta) const {
  double local = std::fmod(theta, 2.0 * pi);
  if (local < 0.0) local += 2.0 * pi;
  for (size_t k = 0; k + 1 < segments.size(); ++k) {
    if (local <= segments[k].span) return static_cast<int>(k);
    local -= segments[k].span;
  }
  return static_cast<int>(segments.size()) - 1;
}

FollowerMotion CamProgram::at(double theta, int segment) const {
  if (segments.empty()) return {start, 0.0, 0.0, 0.0};
  const auto [begin, s] = segment_start(segment);
  const CamSegment& seg = segments[static_cast<size_t>(segment)];
  // s = s_k + h y(x), x = local / beta: ds = h y' / beta, d2s = h y'' / beta^2, ...
  const double beta = seg.span, h = seg.lift;
  const UnitRise r = unit_rise(seg.curve, local_angle(theta, begin, beta) / beta);
  return {s + h * r.y, h * r.dy / beta, h * r.d2y / (beta * beta), h * r.d3y / (beta * beta * beta)};
}

double CamProgram::fraction(int segment, double theta) const {
  const double begin = segment_start(segment).first, beta = segments[static_cast<size_t>(segment)].span;
  return local_angle(theta, begin, beta) / beta;
}

std::string cam_program_problem(const CamProgram& program) {
  if (program.segments.empty()) return "it has no segment";
  double turn = 0.0, lift = 0.0, largest = 0.0;
  for (size_t k = 0; k < program.segments.size(); ++k) {
    const CamSegment& seg = program.segments[k];
    if (!(seg.span > 0.0)) return fmt::format("segment {} spans {:g} rad: a span must be positive", k + 1, seg.span);
    if (seg.curve == CamCurve::dwell && seg.lift != 0.0)
      return fmt::format("segment {} is a dwell with a lift of {:g}", k + 1, seg.lift);
    turn += seg.span, lift += seg.lift;
    largest = std::max(largest, std::abs(seg.lift));
  }
  if (std::abs(turn - 2.0 * pi) > 1e-9 * 2.0 * pi)
    return fmt::format("its segments span {:.9g} deg, not one turn (360 deg)", turn * 180.0 / pi);
  if (std::abs(lift) > 1e-9 * std::max(largest, 1e-300))
    return fmt::format("its lifts add up to {:.9g}, not 0: the follower does not come back to its start", lift);
  return {};
}

FollowerRates follower_rates(const FollowerMotion& m, double omega, double alpha, double alpha_dot) {
  // v = s' w; a = s'' w^2 + s' alpha; j = s''' w^3 + 3 s'' w alpha + s' alpha'.
  return {m.ds * omega, m.d2s * omega * omega + m.ds * alpha,
          m.d3s * omega * omega * omega + 3.0 * m.d2s * omega * alpha + m.ds * alpha_dot};
}

}  // namespace linkdyn::planar
