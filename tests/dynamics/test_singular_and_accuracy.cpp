// Direct dynamics through singular positions, and accuracy that follows the tolerance:
//  - the chain of rhombus four-bars (examples/parallelogram-chain.yaml) against its closed form,
//    theta'' = -(g/L) ((N+1)/2 + N) / ((N+1)/3 + N) cos(theta), by the reduced, full and Kane
//    methods: released from rest where every crank's tip lies on the next pivot (a degenerate
//    singular position, met again at every turning point), and revolving through such
//    positions for about thirty turns;
//  - a fast, light crank (2.5 turns in 30 ms): the reduced method at --rtol 1e-12 alone (its
//    table refined to the tolerance) against the full model at 1e-13.
#include <gtest/gtest.h>

#include <boost/numeric/odeint.hpp>
#include <cmath>

#include "linkdyn/dynamics/simulate.hpp"
#include "test_support.hpp"

using namespace linkdyn;
using namespace linkdyn::dynamics;

namespace {

/// The chain's closed form integrated to 1e-15, compared with q of a simulation's rows.
double deviation_from_closed_form(const SimulationResult& r, int n) {
  const double L = 0.5, g = 9.81;
  const double k = (g / L) * ((n + 1) / 2.0 + n) / ((n + 1) / 3.0 + n);
  using State = std::vector<double>;
  namespace odeint = boost::numeric::odeint;
  State y{r.q(0, 0), r.qd(0, 0)};
  double time = r.t(0), worst = 0.0;
  for (Eigen::Index row = 1; row < r.rows(); ++row) {
    auto stepper = odeint::make_controlled(1e-15, 1e-15, odeint::runge_kutta_fehlberg78<State>());
    odeint::integrate_adaptive(
        stepper, [&](const State& x, State& d, double) { d[0] = x[1], d[1] = -k * std::cos(x[0]); }, y, time, r.t(row),
        1e-4);
    time = r.t(row);
    worst = std::max(worst, std::abs(y[0] - r.q(row, 0)));
  }
  return worst;
}

SimulationOptions chain_options(Method method, double qd0) {
  SimulationOptions o;
  o.method = method;
  o.t_end = 20.0;
  o.steps = 200;
  o.rel_tol = o.abs_tol = 1e-12;
  o.qd0 = qd0;
  o.kinematics = false;
  return o;
}

}  // namespace

TEST(SingularDynamics, ParallelogramChainReleasedOnItsSingularPositionFollowsTheClosedFormForTwentySeconds) {
  // Released from rest with every bar horizontal: each crank's tip on the next pivot, where
  // the dyads' closed form has a circle of solutions; the chain swings to the other such
  // position and back, ten times.
  const io::Model model = io::read_model(test::example("parallelogram-chain"));
  const planar::Mechanism m = planar::compile(model.mechanism);
  const DynamicSystem system(m, model.machine);
  for (const Method method : {Method::reduced, Method::full, Method::kane}) {
    const SimulationResult r = simulate(system, chain_options(method, 0.0));
    ASSERT_FALSE(r.stopped) << r.stop_message;
    ASSERT_EQ(r.rows(), 201);
    const double d = deviation_from_closed_form(r, 3);
    std::printf("chain released at its singular position, 20 s, method %d: |theta - closed form| %.2e rad\n",
                static_cast<int>(method), d);
    EXPECT_LT(d, 1e-8);
    EXPECT_LT(std::abs(r.energy_residual), 1e-8);
  }
}

TEST(SingularDynamics, ParallelogramChainRevolvesThroughItsSingularPositionsByEveryMethod) {
  // 10 rad/s at theta = 0: over the top, about thirty turns in 20 s, sixty passes through
  // positions where every dyad is singular, each on the parallelogram branch.
  const io::Model model = io::read_model(test::example("parallelogram-chain"));
  const planar::Mechanism m = planar::compile(model.mechanism);
  const DynamicSystem system(m, model.machine);
  for (const Method method : {Method::reduced, Method::full, Method::kane}) {
    const SimulationResult r = simulate(system, chain_options(method, 10.0));
    ASSERT_FALSE(r.stopped) << r.stop_message;
    const double turns = r.q(r.rows() - 1, 0) / (2 * M_PI);
    const double d = deviation_from_closed_form(r, 3);
    std::printf(
        "chain revolving, 20 s (%.1f turns), method %d: |theta - closed form| %.2e rad, energy residual %.1e J\n",
        turns, static_cast<int>(method), d, r.energy_residual);
    EXPECT_GT(turns, 25.0);
    EXPECT_LT(d, 5e-8);  // the rounding of the rates near the singular positions, 60 times
    EXPECT_LT(std::abs(r.energy_residual), 5e-8);
  }
}

TEST(Accuracy, ReducedMethodAtItsToleranceMatchesTheFullModelOnAFastCrank) {
  // The offset slider-crank without its gas load, spun at 7000 rpm: 2.5 turns in 30 ms, its
  // friction and gravity slowing it. --rtol 1e-12 alone: the reduced method refines its table
  // (reported) until the interpolation is below the tolerance.
  planar::MechanismSpec spec = io::read_planar_model(test::example("offset-slider-crank"));
  spec.loads.clear();
  const DynamicSystem system(planar::compile(spec), {});  // the mechanism alone, coasting
  SimulationOptions o;
  o.t_end = 0.03;
  o.steps = 30;
  o.qd0 = 7000.0 * 2 * M_PI / 60.0;
  o.kinematics = false;
  o.rel_tol = o.abs_tol = 1e-12;
  const SimulationResult reduced = simulate(system, o);
  o.method = Method::full;
  o.rel_tol = o.abs_tol = 1e-13;
  const SimulationResult full = simulate(system, o);
  ASSERT_FALSE(reduced.stopped || full.stopped);
  ASSERT_EQ(reduced.rows(), full.rows());
  double worst = 0.0;
  for (Eigen::Index r = 0; r < full.rows(); ++r)
    worst = std::max(worst, std::abs(reduced.q(r, 0) - full.q(r, 0)) / std::abs(full.q(r, 0) + 1e-300));
  const double turns = full.q(full.rows() - 1, 0) / (2 * M_PI);
  std::printf(
      "fast crank, %.2f turns in 30 ms: reduced (rtol 1e-12, %d table intervals) vs full (1e-13): %.2e relative\n",
      turns, reduced.table_points, worst);
  EXPECT_GT(turns, 2.4);
  EXPECT_LT(worst, 1e-10);
  EXPECT_GE(reduced.table_points, 256);  // refined from its start of 32 intervals
}
