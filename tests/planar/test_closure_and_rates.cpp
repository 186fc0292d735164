// For every example (so every dyad type and both drivers): loop closure below 1e-12 m along
// the sweep, and velocities / accelerations equal to central differences of positions /
// velocities within the differences' own error (a two-step study with Richardson's estimate).
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <cstdio>

#include "linkdyn/planar/kinematics.hpp"
#include "linkdyn/planar/sweep.hpp"
#include "test_support.hpp"

using namespace linkdyn;
using namespace linkdyn::planar;

namespace {

/// Positions (and rates when `rates`) at time t, continuing the tracked state of `from`.
Workspace state_at(const Mechanism& m, const Workspace& from, double t) {
  Workspace ws = from;
  set_drivers(m, ws, t);
  EXPECT_TRUE(solve_kinematics(m, ws).ok());
  return ws;
}

enum class Level { position, velocity, acceleration };

/// Every body's origin and angle, and every output point, at one level, flattened.
template <Level level>
std::vector<double> flatten(const Mechanism& m, const Workspace& ws) {
  std::vector<double> out;
  auto point = [&](const BodyState& b, const Vec2& local) {
    const Vec2 x = level == Level::position   ? b.position(local)
                   : level == Level::velocity ? b.velocity(local)
                                              : b.acceleration(local);
    out.insert(out.end(), {x.x(), x.y()});
  };
  for (size_t b = 1; b < m.bodies().size(); ++b) {
    const BodyState& s = ws.body[b];
    point(s, Vec2::Zero());
    out.push_back(level == Level::position ? s.theta : level == Level::velocity ? s.omega : s.alpha);
  }
  for (const OutputPoint& p : m.output_points()) point(ws.body[p.body], p.local);
  return out;
}
constexpr auto positions = flatten<Level::position>;
constexpr auto velocities = flatten<Level::velocity>;
constexpr auto accelerations = flatten<Level::acceleration>;

/// Checks d/dt of `value` against `rate` at t with steps h and h/2.
template <class Value, class Rate>
void step_study(const Mechanism& m, const Workspace& ws, double t, double h, Value value, Rate rate, const char* what) {
  const std::vector<double> exact = rate(m, ws);
  auto central = [&](double step) {
    const std::vector<double> up = value(m, state_at(m, ws, t + step));
    const std::vector<double> down = value(m, state_at(m, ws, t - step));
    std::vector<double> d(up.size());
    for (size_t k = 0; k < d.size(); ++k) d[k] = (up[k] - down[k]) / (2 * step);
    return d;
  };
  const std::vector<double> coarse = central(h), fine = central(h / 2);
  // The values' rounding, relative to the largest of them (a fast cam's speed), over the step.
  double largest = 0.0;
  for (const double v : value(m, ws)) largest = std::max(largest, std::abs(v));
  for (size_t k = 0; k < exact.size(); ++k) {
    // Truncation error of the fine difference, estimated from the two steps (O(h^2)).
    const double estimate = std::abs(coarse[k] - fine[k]) / 3.0;
    const double roundoff =
        std::max(1e-9 * (1.0 + std::abs(exact[k])), 64.0 * std::numeric_limits<double>::epsilon() * largest / h);
    EXPECT_LE(std::abs(fine[k] - exact[k]), 1.5 * estimate + roundoff)
        << what << " component " << k << " at t = " << t << ": exact " << exact[k] << ", differences " << coarse[k]
        << " / " << fine[k];
    const double richardson = (4.0 * fine[k] - coarse[k]) / 3.0;
    EXPECT_NEAR(richardson, exact[k], 1e-6 * (1.0 + std::abs(exact[k]))) << what << " component " << k;
  }
}

}  // namespace

TEST(Kinematics, LoopClosureBelow1e12AlongEverySweep) {
  for (const auto& c : test::example_cases()) {
    SCOPED_TRACE(c.name);
    const Mechanism m = io::load_mechanism(test::example(c.name));
    Workspace ws(m);
    int checked = 0;
    double worst = 0.0;
    (void)sweep_kinematics(m, ws, m.default_grid(), [&](int, double, StepStatus s) {
      if (s == StepStatus::absent) return;
      worst = std::max(worst, constraint_residual(m, ws));
      ++checked;
    });
    EXPECT_GT(checked, 100);
    EXPECT_LT(worst, 1e-12);
    std::printf("%-24s worst loop-closure residual %.2e m over %d positions\n", c.name.c_str(), worst, checked);
  }
}

TEST(Kinematics, RatesMatchCentralDifferencesForEveryExample) {
  for (const auto& c : test::example_cases()) {
    SCOPED_TRACE(c.name);
    const Mechanism m = io::load_mechanism(test::example(c.name));
    const TimeGrid grid = m.default_grid();
    const double h = 1e-4 * (grid.t_end - grid.t0);
    Workspace ws(m);
    std::vector<std::pair<double, Workspace>> samples;
    (void)sweep_kinematics(m, ws, grid, [&](int k, double t, StepStatus s) {
      if (s == StepStatus::ok && k % 37 == 5) samples.emplace_back(t, ws);
    });
    ASSERT_GE(samples.size(), 4u);
    for (const auto& [t, at] : samples) {
      step_study(m, at, t, h, positions, velocities, "velocity");
      step_study(m, at, t, h, velocities, accelerations, "acceleration");
    }
  }
}
