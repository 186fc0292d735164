// Instruction counts of the robot algorithms, for valgrind's callgrind (bench/spatial_instructions.sh).
// Each count_* function runs one algorithm `calls` times on one state; callgrind's inclusive
// count of the function divided by `calls` is the instructions per call. Timings on shared
// machines vary 1.5x; these counts do not. Usage: linkdyn_spatial_instructions [ROBOT [ALGORITHM]].
#include <cstdio>
#include <string>

#include "linkdyn/io/chain_file.hpp"
#include "linkdyn/spatial/derivatives.hpp"
#include "linkdyn/spatial/dynamics.hpp"
#include "linkdyn/spatial/higher_order.hpp"
#include "linkdyn/spatial/kinematics.hpp"

using namespace linkdyn::spatial;

namespace {
constexpr int calls = 1000;

/// The benchmarks' state (bench_spatial.cpp): q_i^(r) = 0.3 + 0.1 i - 0.2 r + 0.05 i r.
struct Setup {
  explicit Setup(const std::string& file)
      : chain(build_chain(linkdyn::io::read_chain_file(std::string(LINKDYN_EXAMPLES_DIR) + "/robots/" + file))),
        data(chain),
        derivatives(chain) {
    const int n = chain.dof;
    Eigen::MatrixXd Q(n, 5);
    for (int i = 0; i < n; ++i)
      for (int r = 0; r < 5; ++r) Q(i, r) = 0.3 + 0.1 * i - 0.2 * r + 0.05 * i * r;
    q = Eigen::VectorXd(chain.nq);
    integrate_configuration(chain, neutral_configuration(chain), Q.col(0), q);
    V = Q.rightCols(4);
    tau = Eigen::VectorXd::LinSpaced(n, -5.0, 5.0);
    terms.friction = false;
  }
  Chain chain;
  ChainData data;
  DerivativeData derivatives;
  Eigen::VectorXd q, tau;
  Eigen::MatrixXd V;
  Terms terms;
};

__attribute__((noinline)) double count_inverse_dynamics(Setup& s) {
  double sum = 0;
  for (int k = 0; k < calls; ++k) sum += inverse_dynamics(s.chain, s.data, s.q, s.V.col(0), s.V.col(1), s.terms)(0);
  return sum;
}
__attribute__((noinline)) double count_mass_matrix(Setup& s) {
  double sum = 0;
  for (int k = 0; k < calls; ++k) sum += mass_matrix(s.chain, s.data, s.q)(0, 0);
  return sum;
}
__attribute__((noinline)) double count_forward_dynamics_aba(Setup& s) {
  double sum = 0;
  for (int k = 0; k < calls; ++k)
    sum += forward_dynamics(s.chain, s.data, s.q, s.V.col(0), s.tau, ForwardMethod::articulated_body, s.terms)(0);
  return sum;
}
__attribute__((noinline)) double count_forward_dynamics_crba_cholesky(Setup& s) {
  double sum = 0;
  for (int k = 0; k < calls; ++k)
    sum += forward_dynamics(s.chain, s.data, s.q, s.V.col(0), s.tau, ForwardMethod::mass_matrix_cholesky, s.terms)(0);
  return sum;
}
__attribute__((noinline)) double count_torque_derivatives(Setup& s) {
  double sum = 0;
  for (int k = 0; k < calls; ++k) {
    torque_derivatives(s.chain, s.data, s.derivatives, s.q, s.V, s.terms);
    sum += s.derivatives.ddtau(0);
  }
  return sum;
}
__attribute__((noinline)) double count_rnea_derivatives(Setup& s) {
  double sum = 0;
  for (int k = 0; k < calls; ++k) {
    rnea_derivatives(s.chain, s.data, s.q, s.V.col(0), s.V.col(1), s.terms);
    sum += s.data.dtau_dq(0, 0);
  }
  return sum;
}
}  // namespace

int main(int argc, char** argv) {
  const std::string file = argc > 1 ? argv[1] : "iiwa14.urdf", only = argc > 2 ? argv[2] : "";
  Setup s(file);
  double sum = 0;
  if (only.empty() || only == "id") sum += count_inverse_dynamics(s);
  if (only.empty() || only == "crba") sum += count_mass_matrix(s);
  if (only.empty() || only == "aba") sum += count_forward_dynamics_aba(s);
  if (only.empty() || only == "cholesky") sum += count_forward_dynamics_crba_cholesky(s);
  if (only.empty() || only == "jerk") sum += count_torque_derivatives(s);
  if (only.empty() || only == "derivatives") sum += count_rnea_derivatives(s);
  std::printf("%s: %d calls per algorithm (checksum %.6g)\n", file.c_str(), calls, sum);
}
