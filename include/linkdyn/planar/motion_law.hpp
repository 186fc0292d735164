#pragma once
// Motion laws of drivers: q(t), qd(t), qdd(t).
#include <array>
#include <string>
#include <variant>
#include <vector>

namespace linkdyn::planar {

struct MotionSample {
  double q = 0.0, qd = 0.0, qdd = 0.0;
};

/// q goes from `from` to `to` at constant |speed| (default 1 unit/s, so velocities are the
/// velocity coefficients dx/dq); `steps` intervals.
struct SweepLaw {
  double from = 0.0, to = 0.0, speed = 1.0;
  int steps = 360;
};
/// q = q0 + speed t over `duration` (a full turn by default for a rotational driver).
struct ConstantSpeedLaw {
  double q0 = 0.0, speed = 0.0, duration = 0.0;
  int steps = 360;
};
/// q = sum c_k t^k over [0, duration].
struct PolynomialLaw {
  std::vector<double> coeffs;
  double duration = 0.0;
  int steps = 360;
};
/// q = c1 + c2 t + c3 cos(c4 t + c5) [003 Sect. 2] over [0, duration].
struct HarmonicLaw {
  std::array<double, 5> c{};
  double duration = 0.0;
  int steps = 360;
};
/// Rows (t, q, qd, qdd) from a CSV file; between rows q is the cubic Hermite interpolant of
/// (q, qd), qd that of (qd, qdd), and qdd is linear.
struct TableLaw {
  std::vector<double> t, q, qd, qdd;
  std::string file;
};

using MotionLaw = std::variant<SweepLaw, ConstantSpeedLaw, PolynomialLaw, HarmonicLaw, TableLaw>;

/// The times of an analysis: t_k = t0 + k (t_end - t0) / steps, k = 0..steps.
struct TimeGrid {
  double t0 = 0.0, t_end = 0.0;
  int steps = 0;
  [[nodiscard]] double time(int k) const { return steps == 0 ? t0 : t0 + (t_end - t0) * k / steps; }
};

[[nodiscard]] MotionSample evaluate(const MotionLaw& law, double t);
/// The grid a law naturally runs over (its own duration and step count).
[[nodiscard]] TimeGrid natural_grid(const MotionLaw& law);
/// Human name of the law kind ("sweep", "table", ...).
[[nodiscard]] const char* law_name(const MotionLaw& law);

}  // namespace linkdyn::planar
