// Serial chains: recursive algorithms against the trace forms of [002], per call.
#include <benchmark/benchmark.h>

#include <string>

#include "linkdyn/io/chain_file.hpp"
#include "linkdyn/spatial/dynamics.hpp"
#include "linkdyn/spatial/energy.hpp"
#include "linkdyn/spatial/higher_order.hpp"
#include "linkdyn/spatial/trace_dynamics.hpp"

namespace {
using namespace linkdyn::spatial;

const char* const robot_files[] = {"puma560.yaml", "iiwa14.urdf"};

struct Setup {
  explicit Setup(int which)
      : chain(build_chain(linkdyn::io::read_chain_file(std::string(LINKDYN_EXAMPLES_DIR) + "/robots/" + robot_files[which]))),
        data(chain),
        derivatives(chain) {
    const int n = chain.dof;
    Q = Eigen::MatrixXd(n, 5);
    for (int i = 0; i < n; ++i)
      for (int r = 0; r < 5; ++r) Q(i, r) = 0.3 + 0.1 * i - 0.2 * r + 0.05 * i * r;
    q = Q.col(0), qd = Q.col(1), qdd = Q.col(2);
    tau = Eigen::VectorXd::LinSpaced(n, -5.0, 5.0);
  }
  Chain chain;
  ChainData data;
  DerivativeData derivatives;
  Eigen::MatrixXd Q;
  Eigen::VectorXd q, qd, qdd, tau;
};

Terms frictionless() {
  Terms t;
  t.friction = false;
  return t;
}

void label(benchmark::State& state, const Setup& s) { state.SetLabel(s.chain.spec.name + ", " + std::to_string(s.chain.dof) + " DOF"); }

void BM_InverseDynamics_RNEA(benchmark::State& state) {
  Setup s(int(state.range(0)));
  for (auto _ : state) benchmark::DoNotOptimize(inverse_dynamics(s.chain, s.data, s.q, s.qd, s.qdd, frictionless()).data());
  label(state, s);
}
void BM_InverseDynamics_RNEA_WithJointFriction(benchmark::State& state) {
  ChainSpec spec = linkdyn::io::read_chain_file(std::string(LINKDYN_EXAMPLES_DIR) + "/robots/" + robot_files[state.range(0)]);
  for (ChainJoint& j : spec.joints) j.friction = {0.3, 0.05, 0.03};
  Setup s(int(state.range(0)));
  const Chain c = build_chain(spec);
  ChainData d(c);
  for (auto _ : state) benchmark::DoNotOptimize(inverse_dynamics(c, d, s.q, s.qd, s.qdd).data());
  label(state, s);
}
void BM_InverseDynamics_Trace(benchmark::State& state) {
  Setup s(int(state.range(0)));
  for (auto _ : state) benchmark::DoNotOptimize(inverse_dynamics_trace(s.chain, s.data, s.q, s.qd, s.qdd).data());
  label(state, s);
}
void BM_MassMatrix_CRBA(benchmark::State& state) {
  Setup s(int(state.range(0)));
  for (auto _ : state) benchmark::DoNotOptimize(mass_matrix(s.chain, s.data, s.q).data());
  label(state, s);
}
void BM_MassMatrix_Trace(benchmark::State& state) {
  Setup s(int(state.range(0)));
  for (auto _ : state) benchmark::DoNotOptimize(mass_matrix_trace(s.chain, s.data, s.q).data());
  label(state, s);
}
void BM_ForwardDynamics_ABA(benchmark::State& state) {
  Setup s(int(state.range(0)));
  for (auto _ : state)
    benchmark::DoNotOptimize(forward_dynamics(s.chain, s.data, s.q, s.qd, s.tau, ForwardMethod::articulated_body, frictionless()).data());
  label(state, s);
}
void BM_ForwardDynamics_CRBA_Cholesky(benchmark::State& state) {
  Setup s(int(state.range(0)));
  for (auto _ : state)
    benchmark::DoNotOptimize(
        forward_dynamics(s.chain, s.data, s.q, s.qd, s.tau, ForwardMethod::mass_matrix_cholesky, frictionless()).data());
  label(state, s);
}
void BM_TorqueDerivatives(benchmark::State& state) {
  Setup s(int(state.range(0)));
  for (auto _ : state) {
    torque_derivatives(s.chain, s.data, s.derivatives, s.Q, frictionless());
    benchmark::DoNotOptimize(s.derivatives.ddtau.data());
  }
  label(state, s);
}
void BM_AccelerationEnergy_EA1(benchmark::State& state) {
  Setup s(int(state.range(0)));
  for (auto _ : state) benchmark::DoNotOptimize(acceleration_energy(s.chain, s.Q, 1));
  label(state, s);
}
}  // namespace

BENCHMARK(BM_InverseDynamics_RNEA)->DenseRange(0, 1);
BENCHMARK(BM_InverseDynamics_RNEA_WithJointFriction)->DenseRange(0, 1);
BENCHMARK(BM_InverseDynamics_Trace)->DenseRange(0, 1);
BENCHMARK(BM_MassMatrix_CRBA)->DenseRange(0, 1);
BENCHMARK(BM_MassMatrix_Trace)->DenseRange(0, 1);
BENCHMARK(BM_ForwardDynamics_ABA)->DenseRange(0, 1);
BENCHMARK(BM_ForwardDynamics_CRBA_Cholesky)->DenseRange(0, 1);
BENCHMARK(BM_TorqueDerivatives)->DenseRange(0, 1);
BENCHMARK(BM_AccelerationEnergy_EA1)->DenseRange(0, 1);
