// The eigen-analysis per position (full and on a basis of modes), the Newmark step and the
// internal forces allocate nothing once their workspaces are sized (malloc counted in this test
// program only).
#include <gtest/gtest.h>

#include "allocation_counter.hpp"
#include "linkdyn/flex/internal_forces.hpp"
#include "linkdyn/flex/modal.hpp"
#include "linkdyn/flex/response.hpp"

namespace linkdyn::flex {
namespace {

TEST(FlexAllocation, EigenAnalysisNewmarkStepsAndInternalForcesAllocateNothingPerCall) {
  const long before_setup = test::heap_allocations();
  const BeamModel beam =
      make_beam({210e9, 7850.0, 1.2e-4, 3.6e-10}, 0.5, 10, {BeamSupport::pinned, BeamSupport::sliding});
  ModalWorkspace modal(beam), projected(beam, 8);
  NewmarkWorkspace newmark(beam, 2 * beam.size() + 1);
  InternalForceWorkspace forces(beam);
  EXPECT_GT(test::heap_allocations(), before_setup) << "the counter sees the set-up";
  FrameMotion f;
  f.omega = 2.0;
  f.epsilon = 30.0;
  f.end_force = {Vec2(-100.0, 3.0), Vec2(90.0, 1.0)};
  analyze_modes(beam, f, modal, true);  // first call may size internal buffers
  analyze_modes(beam, f, projected, true);
  newmark_initialize(beam, f, newmark);
  newmark_step(beam, f, 1e-4, newmark);
  internal_forces(beam, f, newmark.d.col(0), newmark.v.col(0), forces);
  const long before = test::heap_allocations();
  for (int k = 0; k < 20; ++k) {
    f.omega += 0.1;
    analyze_modes(beam, f, modal, true);
    analyze_modes(beam, f, projected, true);
    newmark_step(beam, f, 1e-4, newmark);
    internal_forces(beam, f, newmark.d.col(0), newmark.v.col(0), forces);
  }
  EXPECT_EQ(test::heap_allocations() - before, 0);
}

}  // namespace
}  // namespace linkdyn::flex
