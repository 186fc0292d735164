#include "linkdyn/planar/motion_law.hpp"

#include <algorithm>
#include <cmath>

#include "linkdyn/core/variant.hpp"

namespace linkdyn::planar {
namespace {

MotionSample eval_polynomial(const std::vector<double>& c, double t) {
  // Horner for q and its first two derivatives.
  MotionSample s;
  for (size_t k = c.size(); k-- > 0;) {
    s.qdd = s.qdd * t + 2.0 * s.qd;
    s.qd = s.qd * t + s.q;
    s.q = s.q * t + c[k];
  }
  return s;
}

MotionSample eval_table(const TableLaw& law, double t) {
  const auto& T = law.t;
  const size_t n = T.size();
  if (n == 1) return {law.q[0], law.qd[0], law.qdd[0]};
  size_t k = static_cast<size_t>(std::upper_bound(T.begin(), T.end(), t) - T.begin());
  k = std::clamp<size_t>(k, 1, n - 1);
  const size_t i = k - 1;
  const double h = T[k] - T[i];
  const double s = (t - T[i]) / h;
  // Cubic Hermite basis.
  const double h00 = (1 + 2 * s) * (1 - s) * (1 - s), h10 = s * (1 - s) * (1 - s);
  const double h01 = s * s * (3 - 2 * s), h11 = s * s * (s - 1);
  MotionSample out;
  out.q = h00 * law.q[i] + h10 * h * law.qd[i] + h01 * law.q[k] + h11 * h * law.qd[k];
  out.qd = h00 * law.qd[i] + h10 * h * law.qdd[i] + h01 * law.qd[k] + h11 * h * law.qdd[k];
  out.qdd = (1 - s) * law.qdd[i] + s * law.qdd[k];
  return out;
}

}  // namespace

MotionSample evaluate(const MotionLaw& law, double t) {
  return std::visit(overloaded{
                        [t](const SweepLaw& l) {
                          const double dir = l.to >= l.from ? 1.0 : -1.0;
                          return MotionSample{l.from + dir * std::abs(l.speed) * t, dir * std::abs(l.speed), 0.0};
                        },
                        [t](const ConstantSpeedLaw& l) {
                          return MotionSample{l.q0 + l.speed * t, l.speed, 0.0};
                        },
                        [t](const PolynomialLaw& l) { return eval_polynomial(l.coeffs, t); },
                        [t](const HarmonicLaw& l) {
                          const auto& c = l.c;
                          const double arg = c[3] * t + c[4];
                          return MotionSample{c[0] + c[1] * t + c[2] * std::cos(arg),
                                              c[1] - c[2] * c[3] * std::sin(arg), -c[2] * c[3] * c[3] * std::cos(arg)};
                        },
                        [t](const TableLaw& l) { return eval_table(l, t); },
                    },
                    law);
}

TimeGrid natural_grid(const MotionLaw& law) {
  return std::visit(overloaded{
                        [](const SweepLaw& l) {
                          return TimeGrid{0.0, std::abs(l.to - l.from) / std::abs(l.speed), l.steps};
                        },
                        [](const ConstantSpeedLaw& l) {
                          return TimeGrid{0.0, l.duration, l.steps};
                        },
                        [](const PolynomialLaw& l) {
                          return TimeGrid{0.0, l.duration, l.steps};
                        },
                        [](const HarmonicLaw& l) {
                          return TimeGrid{0.0, l.duration, l.steps};
                        },
                        [](const TableLaw& l) {
                          return TimeGrid{l.t.front(), l.t.back(), static_cast<int>(l.t.size()) - 1};
                        },
                    },
                    law);
}

const char* law_name(const MotionLaw& law) {
  static const char* names[] = {"sweep", "constant_speed", "polynomial", "harmonic", "table"};
  return names[law.index()];
}

}  // namespace linkdyn::planar
