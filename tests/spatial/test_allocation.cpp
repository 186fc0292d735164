// The recursive algorithms of a serial chain allocate nothing once the workspace exists, a
// simulation allocates nothing per step or row, and a model takes memory linear in its joints
// to read and build (malloc counted in this test program only).
#include <gtest/gtest.h>

#include <fstream>

#include "allocation_counter.hpp"
#include "linkdyn/spatial/derivatives.hpp"
#include "linkdyn/spatial/dynamics.hpp"
#include "linkdyn/spatial/higher_order.hpp"
#include "linkdyn/spatial/kinematics.hpp"
#include "linkdyn/spatial/simulate.hpp"
#include "spatial/spatial_test_support.hpp"

using namespace linkdyn;
using namespace linkdyn::spatial;
using linkdyn::test::random_vector;

namespace {
/// A URDF serial chain of `n` continuous joints with inertial links.
std::string long_chain_urdf(int n) {
  const std::string path = ::testing::TempDir() + "/chain" + std::to_string(n) + ".urdf";
  std::ofstream out(path);
  out << "<?xml version=\"1.0\"?>\n<robot name=\"long\">\n<link name=\"l0\"/>\n";
  for (int i = 1; i <= n; ++i)
    out << "<link name=\"l" << i << "\"><inertial><origin xyz=\"0.05 0 0\"/><mass value=\"1\"/>"
        << "<inertia ixx=\"0.01\" ixy=\"0\" ixz=\"0\" iyy=\"0.01\" iyz=\"0\" izz=\"0.01\"/></inertial></link>\n"
        << "<joint name=\"j" << i << "\" type=\"continuous\"><parent link=\"l" << i - 1 << "\"/><child link=\"l" << i
        << "\"/><origin xyz=\"0.1 0 0\"/><axis xyz=\"0 0 1\"/></joint>\n";
  out << "</robot>\n";
  return path;
}

void run_recursive_algorithms(const Chain& c, ChainData& d, const Eigen::VectorXd& q, const Eigen::VectorXd& qd,
                              const Eigen::VectorXd& qdd, const Eigen::VectorXd& tau) {
  inverse_dynamics(c, d, q, qd, qdd);
  mass_matrix(c, d, q);
  bias_forces(c, d, q, qd);
  forward_dynamics(c, d, q, qd, tau, ForwardMethod::articulated_body);
  forward_dynamics(c, d, q, qd, tau, ForwardMethod::mass_matrix_cholesky);
  forward_kinematics(c, d, q);
  end_effector_jacobian(c, d);
}
}  // namespace

TEST(ChainDynamics, RecursiveAlgorithmsDoNotAllocate) {
  ChainSpec spec = io::read_chain_file(std::string(LINKDYN_EXAMPLES_DIR) + "/robots/iiwa14.urdf");
  for (ChainJoint& j : spec.joints) j.friction = {0.3, 0.05, 0.03};
  spec.load = {Vec3(1, 2, 3), Vec3(0.1, 0.2, 0.3), true};
  const Chain c = build_chain(spec);
  ChainData d(c);
  DerivativeData dd(c);
  const Eigen::VectorXd q = random_vector(c.dof, 2.0, 1), qd = random_vector(c.dof, 2.0, 2),
                        qdd = random_vector(c.dof, 2.0, 3), tau = random_vector(c.dof, 10.0, 4);
  Eigen::MatrixXd Q(c.dof, 5);
  Q << q, qd, qdd, qdd, qdd;
  const long before_setup = test::heap_allocations();
  ChainData fresh(c);
  EXPECT_GT(test::heap_allocations(), before_setup) << "the counter sees the set-up";
  run_recursive_algorithms(c, d, q, qd, qdd, tau);  // the first call sizes the dense matrices
  const long before = test::heap_allocations();
  run_recursive_algorithms(c, d, q, qd, qdd, tau);
  torque_derivatives(c, d, dd, Q);
  EXPECT_EQ(test::heap_allocations() - before, 0);
}

TEST(TreeDynamics, TreeAndFloatingBaseAlgorithmsDoNotAllocate) {
  // The dual-arm tree and the floating quadruped (quaternion): every recursive algorithm, the
  // factorisation along the tree, the derivatives, the Coriolis matrix and the frame Jacobians.
  for (const char* file : {"dual-iiwa14.urdf", "quadruped.urdf"}) {
    ChainSpec spec = io::read_chain_file(std::string(LINKDYN_EXAMPLES_DIR) + "/robots/" + file);
    for (ChainJoint& j : spec.joints) j.friction = {0.3, 0.05, 0.03, 0.1};
    spec.load = {Vec3(1, 2, 3), Vec3(0.1, 0.2, 0.3), true};
    const Chain c = build_chain(spec);
    ChainData d(c);
    DerivativeData dd(c);
    Eigen::VectorXd q(c.nq);
    integrate_configuration(c, neutral_configuration(c), random_vector(c.dof, 1.0, 1), q);
    const Eigen::VectorXd qd = random_vector(c.dof, 2.0, 2), qdd = random_vector(c.dof, 2.0, 3),
                          tau = random_vector(c.dof, 10.0, 4);
    Eigen::MatrixXd V(c.dof, 4);
    V << qd, qdd, qdd, qdd;
    Eigen::Matrix<double, 6, Eigen::Dynamic> J(6, c.dof);
    const auto run_all = [&] {
      run_recursive_algorithms(c, d, q, qd, qdd, tau);
      for (int f = 0; f < int(c.frames.size()); ++f) frame_jacobian(c, d, f, J);
      torque_derivatives(c, d, dd, q, V);
      rnea_derivatives(c, d, q, qd, qdd);
      coriolis_matrix(c, d, q, qd);
    };
    run_all();  // the first call sizes the dense matrices
    const long before = test::heap_allocations();
    run_all();
    EXPECT_EQ(test::heap_allocations() - before, 0) << file;
  }
}

TEST(ChainSimulation, AllocatesItsResultArraysOnlyNotPerStepOrRow) {
  // The same set-up and result arrays whatever the number of integrator steps and rows: a run
  // four times as long with forty times the rows allocates as often as a short one.
  const Chain c = build_chain(io::read_chain_file(std::string(LINKDYN_EXAMPLES_DIR) + "/robots/iiwa14.urdf"));
  ChainData d(c);
  const Eigen::VectorXd q0 = random_vector(c.dof, 1.0, 5), qd0 = random_vector(c.dof, 1.0, 6);
  const Eigen::VectorXd tau = Eigen::VectorXd::Zero(c.dof);
  auto allocations = [&](double t_end, int steps) {
    ChainSimulationOptions o;
    o.t_end = t_end;
    o.steps = steps;
    const long before = test::heap_allocations();
    const ChainSimulationResult r = simulate_chain(c, d, q0, qd0, tau, o);
    const long count = test::heap_allocations() - before;
    EXPECT_EQ(r.rows(), steps + 1);
    EXPECT_GT(r.rhs_evaluations, 10 * steps / 40);
    return count;
  };
  const long short_run = allocations(0.25, 10), long_run = allocations(1.0, 400);
  EXPECT_GT(short_run, 0);
  EXPECT_EQ(long_run, short_run);
}

TEST(ChainMemory, ReadingBuildingAndRecursiveDynamicsTakeBytesLinearInTheJoints) {
  // Once 4 GB for 10 000 joints (five dense dof x dof matrices in the workspace); the dense
  // matrices are now made by the algorithms that fill them. Bytes allocated, not RSS.
  auto bytes = [](int n) {
    const std::string path = long_chain_urdf(n);
    const long before = test::heap_bytes();
    const Chain c = build_chain(io::read_chain_file(path));
    ChainData d(c);
    const Eigen::VectorXd q = random_vector(c.dof, 1.0, 1), qd = random_vector(c.dof, 1.0, 2);
    (void)inverse_dynamics(c, d, q, qd, q);
    (void)forward_dynamics(c, d, q, qd, q);
    forward_kinematics(c, d, q);
    EXPECT_EQ(d.mass_matrix.size(), 0) << "no dense matrix unless asked for";
    return test::heap_bytes() - before;
  };
  const long small = bytes(1000), large = bytes(2000);
  EXPECT_LT(large, 2.5 * small) << small << " bytes for 1000 joints, " << large << " for 2000";
  EXPECT_LT(large, 2000L * 20000) << "at most 20 kB a joint";
}

TEST(ChainMemory, TheMassMatrixIsSizedByItsFirstCallOnly) {
  const Chain c = build_chain(io::read_chain_file(long_chain_urdf(50)));
  ChainData d(c);
  const Eigen::VectorXd q = random_vector(c.dof, 1.0, 1);
  (void)mass_matrix(c, d, q);
  ASSERT_EQ(d.mass_matrix.rows(), 50);
  const long before = test::heap_allocations();
  (void)mass_matrix(c, d, q);
  (void)forward_dynamics(c, d, q, q, q, ForwardMethod::mass_matrix_cholesky);
  (void)forward_dynamics(c, d, q, q, q, ForwardMethod::mass_matrix_cholesky);
  EXPECT_EQ(test::heap_allocations() - before, 1) << "the factor's one allocation";
}
