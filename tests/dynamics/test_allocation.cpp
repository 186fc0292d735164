// A simulation of a machine allocates its result arrays and buffers once: nothing per
// integrator step, row or located event (malloc counted in this test program only).
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>

#include "allocation_counter.hpp"
#include "linkdyn/dynamics/simulate.hpp"
#include "linkdyn/io/model_file.hpp"
#include "test_support.hpp"

using namespace linkdyn;
using namespace linkdyn::dynamics;

namespace {

/// The heap allocations of one simulation with every pair's reactions (the run must end at t_end
/// with steps + 1 rows).
long run_allocations(const DynamicSystem& system, Method method, double t_end, int steps) {
  SimulationOptions o;
  o.method = method;
  o.t_end = t_end;
  o.steps = steps;
  o.reactions = true;
  const long before = test::heap_allocations();
  const SimulationResult r = simulate(system, o);
  const long count = test::heap_allocations() - before;
  EXPECT_FALSE(r.stopped) << r.stop_message;
  EXPECT_EQ(r.rows(), steps + 1);
  std::printf("method %d, %g s, %d rows: %d steps, %d events, %ld allocations\n", static_cast<int>(method), t_end,
              steps + 1, r.steps, r.events, count);
  return count;
}

}  // namespace

TEST(SimulationAllocation, NothingPerStepRowOrEvent) {
  // The motor-driven four-bar with friction in its pins, by each method: 0.1 s (6 rows, some 55
  // steps, 3 events), 1 s with 21 rows (about 360 steps, 11 events) and 1 s with 401 rows
  // (about 450 steps) allocate alike.
  const DynamicSystem system = io::load_machine(test::example("seed001-fourbar-motor"));
  for (const Method method : {Method::reduced, Method::full, Method::kane}) {
    SCOPED_TRACE(static_cast<int>(method));
    auto allocations = [&](double t_end, int steps) { return run_allocations(system, method, t_end, steps); };
    allocations(0.1, 5);  // the reduced method's table is built at the system's first simulation
    const long short_run = allocations(0.1, 5);
    EXPECT_EQ(allocations(1.0, 20), short_run);
    EXPECT_EQ(allocations(1.0, 400), short_run);
  }
}

TEST(SimulationAllocation, NothingPerStepOrRowWhileElementsAreHeld) {
  // The two-DOF pump coasting down, its guide and pins held and released many times, over 3 s
  // with 31 and with 301 rows (some 90 steps more, each no longer than a row's spacing): the
  // same allocations but for deciding whether an element holds, at an event (at most 16 each;
  // the two runs may differ by an event).
  const DynamicSystem system = io::load_machine(test::example("pump-2dof"));
  for (const Method method : {Method::full, Method::kane}) {
    SCOPED_TRACE(static_cast<int>(method));
    auto allocations = [&](int steps, int& events) {
      SimulationOptions o;
      o.method = method;
      o.t_end = 3.0;
      o.steps = steps;
      const long before = test::heap_allocations();
      const SimulationResult r = simulate(system, o);
      const long count = test::heap_allocations() - before;
      EXPECT_FALSE(r.stopped) << r.stop_message;
      std::printf("pump-2dof, method %d, %d rows: %d steps, %d events, %ld allocations\n", static_cast<int>(method),
                  steps + 1, r.steps, r.events, count);
      events = r.events;
      return count;
    };
    int few_events = 0, many_events = 0;
    const long few_rows = allocations(30, few_events), many_rows = allocations(300, many_events);
    EXPECT_GT(few_events, 50);
    EXPECT_LE(std::abs(many_events - few_events), 2);
    EXPECT_LE(std::abs(many_rows - few_rows), 16 * std::abs(many_events - few_events));
  }
}

TEST(SimulationAllocation, NothingPerStepOrRowWithCoupledElasticLinks) {
  // The slider-crank with its elastic rod coupled (friction, damping, geometric stiffness), by
  // Kane's and the full method: 0.01 s with 6 rows and 0.05 s with 101 rows (about 2000 steps
  // and 20 events) allocate alike.
  const io::Model model = io::read_model(test::example("fast-slider-crank-elastic"));
  DynamicSystem system(planar::compile(model.mechanism), model.machine);
  couple_elastic_links(system, model.elastic_links, 4);
  for (const Method method : {Method::full, Method::kane}) {
    SCOPED_TRACE(static_cast<int>(method));
    auto allocations = [&](double t_end, int steps) { return run_allocations(system, method, t_end, steps); };
    const long short_run = allocations(0.01, 5);
    EXPECT_EQ(allocations(0.05, 100), short_run);
  }
}
