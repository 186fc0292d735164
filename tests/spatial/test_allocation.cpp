// The recursive algorithms of a serial chain allocate nothing once the workspace exists (malloc
// counted in this test program only).
#include <gtest/gtest.h>

#include "allocation_counter.hpp"
#include "linkdyn/spatial/dynamics.hpp"
#include "linkdyn/spatial/higher_order.hpp"
#include "linkdyn/spatial/kinematics.hpp"
#include "spatial/spatial_test_support.hpp"

using namespace linkdyn;
using namespace linkdyn::spatial;
using linkdyn::test::random_vector;

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
  const long before = test::heap_allocations();
  inverse_dynamics(c, d, q, qd, qdd);
  mass_matrix(c, d, q);
  bias_forces(c, d, q, qd);
  forward_dynamics(c, d, q, qd, tau, ForwardMethod::articulated_body);
  forward_dynamics(c, d, q, qd, tau, ForwardMethod::mass_matrix_cholesky);
  forward_kinematics(c, d, q);
  end_effector_jacobian(c, d);
  torque_derivatives(c, d, dd, Q);
  EXPECT_EQ(test::heap_allocations() - before, 0);
}
