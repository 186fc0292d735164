// The generic (Newton) group must reproduce every closed-form dyad: the same mechanisms
// compiled with every group generic agree to 1e-12 in positions, velocities, accelerations.
#include <gtest/gtest.h>

#include <cmath>

#include "linkdyn/planar/groups/group.hpp"
#include "linkdyn/planar/sweep.hpp"
#include "test_support.hpp"

using namespace linkdyn;
using namespace linkdyn::planar;

TEST(GenericGroup, ReproducesEveryClosedFormDyadTo1e12) {
  const char* dyad_examples[] = {"seed001-fourbar", "offset-slider-crank", "inverted-slider-crank",
                                 "scotch-yoke",     "wedge-cam",           "watt-sixbar",
                                 "pump-2dof"};
  for (const char* name : dyad_examples) {
    SCOPED_TRACE(name);
    const MechanismSpec spec = io::read_planar_model(test::example(name));
    const Mechanism closed = compile(spec);
    const Mechanism generic = compile(spec, {.force_generic = true});
    for (const auto& g : generic.groups())  // no closed form left but the drivers
      if (g->assur_class() >= 2) {
        EXPECT_GT(g->newton_unknowns(), 0);
      }
    Workspace wc(closed), wg(generic);
    std::vector<Workspace> closed_states;
    (void)sweep_kinematics(closed, wc, closed.default_grid(),
                           [&](int, double, StepStatus) { closed_states.push_back(wc); });
    size_t k = 0;
    double worst_pos = 0, worst_vel = 0, worst_acc = 0;
    (void)sweep_kinematics(generic, wg, generic.default_grid(), [&](int, double, StepStatus s) {
      ASSERT_EQ(s, StepStatus::ok);
      const Workspace& ref = closed_states[k++];
      for (size_t b = 1; b < closed.bodies().size(); ++b) {
        const BodyState &x = ref.body[b], &y = wg.body[b];
        worst_pos = std::max({worst_pos, (x.r - y.r).norm(), std::abs(x.theta - y.theta)});
        worst_vel = std::max(
            {worst_vel, (x.v - y.v).norm() / (1 + x.v.norm()), std::abs(x.omega - y.omega) / (1 + std::abs(x.omega))});
        worst_acc = std::max(
            {worst_acc, (x.a - y.a).norm() / (1 + x.a.norm()), std::abs(x.alpha - y.alpha) / (1 + std::abs(x.alpha))});
      }
    });
    EXPECT_EQ(k, closed_states.size());
    EXPECT_LT(worst_pos, 1e-12);
    EXPECT_LT(worst_vel, 1e-12);
    EXPECT_LT(worst_acc, 1e-12);
  }
}

TEST(GenericGroup, ClassThreeGroupIsGenericAndClassified) {
  const Mechanism m = io::load_mechanism(test::example("class3-triad"));
  ASSERT_EQ(m.groups().size(), 2u);
  EXPECT_EQ(m.groups()[1]->assur_class(), 3);
  EXPECT_EQ(m.groups()[1]->newton_unknowns(), 12);
}
