// The follower's program of a cam: unit rises of the standard curves, and the segments of a
// turn (cam_law.hpp).
#include "linkdyn/planar/cam_law.hpp"

#include <fmt/format.h>

#include <Eigen/SparseCore>
#include <Eigen/SparseLU>
#include <algorithm>
#include <boost/math/special_functions/cardinal_b_spline.hpp>
#include <cmath>

namespace linkdyn::planar {
namespace {

constexpr double pi = M_PI;

/// The modified trapezoid's acceleration A sin(4 pi x) over [0, 1/8], A over [1/8, 3/8] and
/// A cos(4 pi (x - 3/8)) over [3/8, 5/8] (Norton, Cam Design Handbook, Sect. 3.9), integrated
/// piece by piece, A = 1; part 0, 1 or 2 (-1: the one that holds x), each continued beyond its
/// ends. Over [5/8, 1] by symmetry, y(x) = 1 - y(1 - x).
UnitRise trapezoid_first_parts(double x, int part) {
  constexpr double k = 4.0 * pi;
  if (part < 0) part = x <= 0.125 ? 0 : x <= 0.375 ? 1 : 2;
  if (part == 0)
    return {x / k - std::sin(k * x) / (k * k), (1.0 - std::cos(k * x)) / k, std::sin(k * x), k * std::cos(k * x)};
  const double v1 = 1.0 / k, s1 = 0.125 / k - 1.0 / (k * k);  // at x = 1/8
  if (part == 1) {
    const double u = x - 0.125;
    return {s1 + v1 * u + 0.5 * u * u, v1 + u, 1.0, 0.0};
  }
  const double v2 = v1 + 0.25, s2 = s1 + v1 * 0.25 + 0.5 * 0.25 * 0.25;  // at x = 3/8
  const double u = x - 0.375;
  return {s2 + v2 * u + (1.0 - std::cos(k * u)) / (k * k), v2 + std::sin(k * u) / k, std::cos(k * u),
          -k * std::sin(k * u)};
}

UnitRise modified_trapezoid(double x, int part) {
  // A such that the rise reaches 1/2 at x = 1/2: 4.888 (Norton's C_a).
  static const double A = 0.5 / trapezoid_first_parts(0.5, 2).y;
  // Parts 3 and 4 (x beyond 5/8) mirror parts 1 and 0; part 2 is symmetric about 1/2 itself.
  const bool mirrored = part < 0 ? x > 0.625 : part > 2;
  UnitRise r = mirrored ? trapezoid_first_parts(1.0 - x, part < 0 ? -1 : 4 - part) : trapezoid_first_parts(x, part);
  r.y *= A, r.dy *= A, r.d2y *= A, r.d3y *= A;
  if (mirrored) r.y = 1.0 - r.y, r.d2y = -r.d2y;
  return r;
}

/// theta - start within the turn centred on a piece of `span` starting at `start`.
double local_angle(double theta, double start, double span) {
  return 0.5 * span + std::remainder(theta - start - 0.5 * span, 2.0 * pi);
}

}  // namespace

int unit_rise_parts(CamCurve curve) { return curve == CamCurve::modified_trapezoid ? 5 : 1; }

double unit_rise_part_start(CamCurve curve, int part) {
  static constexpr double corners[] = {0.0, 0.125, 0.375, 0.625, 0.875, 1.0};
  return curve == CamCurve::modified_trapezoid ? corners[part] : (part > 0 ? 1.0 : 0.0);
}

UnitRise unit_rise(CamCurve curve, double x, int part) {
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
    case CamCurve::modified_trapezoid: return modified_trapezoid(x, part);
    case CamCurve::simple_harmonic: {
      const double w = pi * x;
      return {0.5 * (1.0 - std::cos(w)), 0.5 * pi * std::sin(w), 0.5 * pi * pi * std::cos(w),
              -0.5 * pi * pi * pi * std::sin(w)};
    }
  }
  return {};
}

FollowerMotion CamTable::at(double theta) const {
  // u = theta / h in [0, n); B5 is nonzero on (-3, 3): the rows j = floor(u) - 2 .. floor(u) + 3.
  // Its third derivative is the third central difference of B2 (B_n' (x) = B_n-1(x + 1/2) -
  // B_n-1(x - 1/2)): B2(x + 3/2) - 3 B2(x + 1/2) + 3 B2(x - 1/2) - B2(x - 3/2).
  namespace bm = boost::math;
  const auto n = static_cast<long>(coefficients.size());
  double u = std::fmod(theta / step, static_cast<double>(n));
  if (u < 0.0) u += static_cast<double>(n);
  const auto k0 = static_cast<long>(std::floor(u));
  FollowerMotion m;
  for (long j = k0 - 2; j <= k0 + 3; ++j) {
    const double c = coefficients[static_cast<size_t>(((j % n) + n) % n)], x = u - static_cast<double>(j);
    m.s += c * bm::cardinal_b_spline<5>(x);
    m.ds += c * bm::cardinal_b_spline_prime<5>(x);
    m.d2s += c * bm::cardinal_b_spline_double_prime<5>(x);
    m.d3s += c * (bm::cardinal_b_spline<2>(x + 1.5) - 3.0 * bm::cardinal_b_spline<2>(x + 0.5) +
                  3.0 * bm::cardinal_b_spline<2>(x - 0.5) - bm::cardinal_b_spline<2>(x - 1.5));
  }
  m.ds /= step, m.d2s /= step * step, m.d3s /= step * step * step;
  return m;
}

CamTable cam_table(const std::vector<double>& lift) {
  const auto n = static_cast<Eigen::Index>(lift.size());
  Eigen::SparseMatrix<double> A(n, n);
  std::vector<Eigen::Triplet<double>> entries;
  for (Eigen::Index i = 0; i < n; ++i)
    for (int d = -2; d <= 2; ++d)
      entries.emplace_back(i, ((i + d) % n + n) % n, boost::math::cardinal_b_spline<5>(static_cast<double>(d)));
  A.setFromTriplets(entries.begin(), entries.end());
  Eigen::SparseLU<Eigen::SparseMatrix<double>> lu(A);
  const Eigen::VectorXd c = lu.solve(Eigen::Map<const Eigen::VectorXd>(lift.data(), n));
  return {2.0 * pi / static_cast<double>(n), std::vector<double>(c.data(), c.data() + n)};
}

CamProgram::Piece CamProgram::piece(int i) const {
  if (!table.empty()) return {0, 0, 0.0, 0.0, 2.0 * pi, 0.0};
  Piece out;
  int index = 0;
  for (size_t k = 0; k < segments.size(); ++k) {
    const CamSegment& seg = segments[k];
    const int parts = unit_rise_parts(seg.curve);
    if (i < index + parts) {
      const int part = i - index;
      const double a = unit_rise_part_start(seg.curve, part), b = unit_rise_part_start(seg.curve, part + 1);
      out.segment = static_cast<int>(k), out.part = part;
      out.begin = out.segment_begin + a * seg.span, out.span = (b - a) * seg.span;
      return out;
    }
    index += parts;
    out.segment_begin += seg.span, out.s0 += seg.lift;
  }
  return out;
}

int CamProgram::piece_count() const {
  if (!table.empty()) return 1;
  int count = 0;
  for (const CamSegment& seg : segments) count += unit_rise_parts(seg.curve);
  return count;
}

int CamProgram::piece_of(double theta) const {
  if (!table.empty()) return 0;
  double local = std::fmod(theta, 2.0 * pi);
  if (local < 0.0) local += 2.0 * pi;
  const int count = piece_count();
  if (local == 0.0) return count - 1;  // the turn's start: the last piece ends there
  int index = 0;
  double begin = 0.0;  // the segment's start
  for (const CamSegment& seg : segments) {
    for (int part = 0; part < unit_rise_parts(seg.curve); ++part, ++index)
      if (local <= begin + unit_rise_part_start(seg.curve, part + 1) * seg.span) return index;
    begin += seg.span;
  }
  return count - 1;  // the spans' rounding short of the turn
}

FollowerMotion CamProgram::at(double theta, int i) const {
  if (!table.empty()) {
    FollowerMotion m = table.at(theta);
    m.s += start;
    return m;
  }
  if (segments.empty()) return {start, 0.0, 0.0, 0.0};
  const Piece p = piece(i);
  const double local = local_angle(theta, p.begin, p.span);
  if (local < -0.5 * p.span || local > 1.5 * p.span) return at(theta);  // far from the piece held
  const CamSegment& seg = segments[static_cast<size_t>(p.segment)];
  // s = s_k + h y(x), x its fraction of the segment: ds = h y' / beta, d2s = h y'' / beta^2, ...
  const double beta = seg.span, h = seg.lift;
  const UnitRise r = unit_rise(seg.curve, (p.begin - p.segment_begin + local) / beta, p.part);
  return {start + p.s0 + h * r.y, h * r.dy / beta, h * r.d2y / (beta * beta), h * r.d3y / (beta * beta * beta)};
}

double CamProgram::fraction(int i, double theta) const {
  const Piece p = piece(i);
  return local_angle(theta, p.begin, p.span) / p.span;
}

std::string cam_program_problem(const CamProgram& program) {
  if (!program.table.empty()) return {};  // a whole turn by construction (cam_table)
  if (program.segments.empty()) return "it has no segment";
  double turn = 0.0, lift = 0.0, largest = 0.0;
  for (const CamSegment& seg : program.segments) largest = std::max(largest, std::abs(seg.lift));
  for (size_t k = 0; k < program.segments.size(); ++k) {
    const CamSegment& seg = program.segments[k];
    if (!(seg.span > 0.0)) return fmt::format("segment {} spans {:g} rad: a span must be positive", k + 1, seg.span);
    if (seg.curve == CamCurve::dwell && seg.lift != 0.0)
      return fmt::format("segment {} is a dwell with a lift of {:g}", k + 1, seg.lift);
    turn += seg.span, lift += seg.lift;
    // Each curve is monotonic: the follower is lowest at a segment's end.
    if (lift < -1e-9 * largest)
      return fmt::format(
          "takes the follower {:g} below its start by the end of segment {}: the start is its lowest "
          "place (s = 0, the base circle)",
          -lift, k + 1);
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
