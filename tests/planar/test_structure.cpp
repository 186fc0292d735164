// Structural analysis: DOF by Gruebler-Kutzbach and the decomposition of every example.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "linkdyn/planar/groups/group.hpp"
#include "linkdyn/core/progress.hpp"
#include "linkdyn/planar/kinematics.hpp"
#include "linkdyn/planar/sweep.hpp"
#include "test_support.hpp"

using namespace linkdyn;

TEST(Structure, EveryExampleDecomposesIntoItsSequence) {
  for (const auto& c : test::example_cases()) {
    SCOPED_TRACE(c.name);
    const planar::Mechanism m = io::load_mechanism(test::example(c.name));
    EXPECT_EQ(m.structure_string(), c.structure);
    EXPECT_EQ(m.dof(), static_cast<int>(m.drivers().size()));
    // Every moving body is placed by exactly one group.
    std::vector<int> placed(m.bodies().size(), 0);
    for (const auto& g : m.groups())
      for (int b : g->bodies()) ++placed[b];
    for (size_t b = 1; b < placed.size(); ++b) EXPECT_EQ(placed[b], 1) << m.bodies()[b].name;
  }
}

TEST(Structure, EveryShippedExampleIsInTheTestedList) {
  // Every examples/*.yaml (the planar models; robots live in examples/robots/).
  for (const auto& entry : std::filesystem::directory_iterator(LINKDYN_EXAMPLES_DIR)) {
    if (entry.path().extension() != ".yaml") continue;
    const std::string name = entry.path().stem().string();
    const auto& cases = test::example_cases();
    EXPECT_TRUE(std::any_of(cases.begin(), cases.end(), [&](const test::ExampleCase& c) { return c.name == name; }))
        << name << " is not in test::example_cases()";
  }
}

TEST(Structure, GrueblerCountsLowerAndGearPairs) {
  // pump-2dof: 4 moving bodies, 5 lower pairs: 12 - 10 = 2.
  EXPECT_EQ(io::load_mechanism(test::example("pump-2dof")).dof(), 2);
  // Flywheel: 4 moving bodies, 5 revolute + 1 gear: 12 - 10 - 1 = 1.
  EXPECT_EQ(io::load_mechanism(test::example("fourbar-flywheel")).dof(), 1);
}

TEST(Structure, ExplicitSequenceIsFollowedAndChecked) {
  const std::string seed = test::read_text(test::example("seed001-fourbar"));
  const planar::Mechanism m =
      planar::compile(io::parse_planar_model(seed + "structure: [[crank], [coupler, rocker]]\n", "explicit.yaml"));
  EXPECT_EQ(m.structure_string(), "R_I(0,1) -> RRR_II(2,3)");
  try {
    (void)planar::compile(io::parse_planar_model(seed + "structure: [[coupler]]\n", "explicit.yaml"));
    FAIL() << "a single coupler cannot be a group";
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find("2 equations for 3 unknowns"), std::string::npos) << e.what();
    EXPECT_EQ(e.where().line, static_cast<int>(std::count(seed.begin(), seed.end(), '\n')) + 1);
  }
}

TEST(Workspace, CheckTellsTheMechanismItWasMadeFor) {
  // As Pinocchio's model.check(data): a workspace fits the mechanism it was made for, and not
  // one with other bodies and groups (the solves assert this in debug builds).
  const planar::Mechanism fourbar = io::load_mechanism(test::example("seed001-fourbar"));
  const planar::Mechanism sixbar = io::load_mechanism(test::example("watt-sixbar"));
  EXPECT_TRUE(planar::check(fourbar, planar::Workspace(fourbar)));
  EXPECT_TRUE(planar::check(sixbar, planar::Workspace(sixbar)));
  EXPECT_FALSE(planar::check(sixbar, planar::Workspace(fourbar)));
  EXPECT_FALSE(planar::check(fourbar, planar::Workspace(sixbar)));
#ifndef NDEBUG
  planar::Workspace wrong(fourbar);
  EXPECT_DEATH((void)planar::solve_kinematics(sixbar, wrong), "another mechanism");
#endif
}

#ifdef LINKDYN_TEST_MODELS_DIR
TEST(Structure, ChainOf500FourBarsIsOneDyadPerFourBarInOrder) {
  // examples/tools/parallelogram_chain.py 500: cranks 0..500 are bodies 1..501, couplers 1..500
  // bodies 502..1001. After the driven crank0, four-bar k is the dyad (crank k, coupler k).
  const int n = 500;
  const planar::Mechanism m =
      io::load_mechanism(std::string(LINKDYN_TEST_MODELS_DIR) + "/parallelogram-chain-" + std::to_string(n) + ".yaml");
  std::string expected = "R_I(0,1)";
  for (int k = 1; k <= n; ++k)
    expected += " -> RRR_II(" + std::to_string(k + 1) + "," + std::to_string(n + 1 + k) + ")";
  EXPECT_EQ(m.structure_string(), expected);
  // Parallelogram mode: every crank at the driver's angle, every coupler translating
  // (closed form), to 1e-9 rad through the 500 groups.
  planar::Workspace ws(m);
  ws.q[0] = 40.0 * M_PI / 180.0, ws.qd[0] = 1.0, ws.qdd[0] = 0.0;
  ASSERT_TRUE(planar::solve_kinematics(m, ws).ok());
  for (int k = 0; k <= n; ++k) {
    EXPECT_NEAR(ws.body[k + 1].theta, ws.q[0], 1e-9) << "crank" << k;
    EXPECT_NEAR(ws.body[k + 1].omega, 1.0, 1e-9) << "crank" << k;
  }
  for (int k = 1; k <= n; ++k) EXPECT_NEAR(std::remainder(ws.body[n + 1 + k].theta, 2 * M_PI), 0.0, 1e-9);
}
#endif

TEST(Sweep, EveryRowIsReportedToTheThreadsProgressSinkWhileItsScopeLives) {
  const planar::Mechanism m = io::load_mechanism(test::example("seed001-fourbar"));
  planar::TimeGrid grid = m.default_grid();
  grid.steps = 50;
  std::vector<long> done;
  long total = 0;
  {
    const ProgressScope scope([&](long d, long t) { done.push_back(d), total = t; });
    (void)planar::kinematics(m, grid);
  }
  ASSERT_EQ(done.size(), 51u);
  EXPECT_EQ(total, 51);
  for (long k = 0; k <= 50; ++k) EXPECT_EQ(done[static_cast<size_t>(k)], k);
  (void)planar::kinematics(m, grid);  // the scope is gone: nothing more reported
  EXPECT_EQ(done.size(), 51u);
}
