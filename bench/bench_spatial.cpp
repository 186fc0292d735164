// Robots: recursive algorithms against the trace forms of [002], per call; serial arms (PUMA 560,
// iiwa14), a tree (two iiwa14 on a turning torso) and a floating quadruped.
#include <benchmark/benchmark.h>

#include <string>

#include "linkdyn/io/chain_file.hpp"
#include "linkdyn/spatial/derivatives.hpp"
#include "linkdyn/spatial/dynamics.hpp"
#include "linkdyn/spatial/energy.hpp"
#include "linkdyn/spatial/higher_order.hpp"
#include "linkdyn/spatial/kinematics.hpp"
#include "linkdyn/spatial/simulate.hpp"
#include "linkdyn/spatial/trace_dynamics.hpp"

namespace {
using namespace linkdyn::spatial;

const char* const robot_files[] = {"puma560.yaml", "iiwa14.urdf", "dual-iiwa14.urdf", "quadruped.urdf"};

struct Setup {
  explicit Setup(int which)
      : chain(build_chain(
            linkdyn::io::read_chain_file(std::string(LINKDYN_EXAMPLES_DIR) + "/robots/" + robot_files[which]))),
        data(chain),
        derivatives(chain) {
    const int n = chain.dof;
    Q = Eigen::MatrixXd(n, 5);
    for (int i = 0; i < n; ++i)
      for (int r = 0; r < 5; ++r) Q(i, r) = 0.3 + 0.1 * i - 0.2 * r + 0.05 * i * r;
    q = Eigen::VectorXd(chain.nq);  // the free-flyers moved and turned by Q's first column
    integrate_configuration(chain, neutral_configuration(chain), Q.col(0), q);
    V = Q.rightCols(4);
    qd = Q.col(1), qdd = Q.col(2);
    tau = Eigen::VectorXd::LinSpaced(n, -5.0, 5.0);
  }
  Chain chain;
  ChainData data;
  DerivativeData derivatives;
  Eigen::MatrixXd Q, V;
  Eigen::VectorXd q, qd, qdd, tau;
};

Terms frictionless() {
  Terms t;
  t.friction = false;
  return t;
}

void label(benchmark::State& state, const Setup& s) {
  state.SetLabel(s.chain.spec.name + ", " + std::to_string(s.chain.dof) + " DOF");
}
/// The serial arms only: the trace forms are the paper's checks, not meant for large trees.
void serial_arms(benchmark::internal::Benchmark* b) { b->DenseRange(0, 1); }
void every_robot(benchmark::internal::Benchmark* b) { b->DenseRange(0, 3); }

void BM_InverseDynamics_RNEA(benchmark::State& state) {
  Setup s(int(state.range(0)));
  for (auto _ : state)
    benchmark::DoNotOptimize(inverse_dynamics(s.chain, s.data, s.q, s.qd, s.qdd, frictionless()).data());
  label(state, s);
}
void BM_InverseDynamics_RNEA_WithJointFriction(benchmark::State& state) {
  ChainSpec spec =
      linkdyn::io::read_chain_file(std::string(LINKDYN_EXAMPLES_DIR) + "/robots/" + robot_files[state.range(0)]);
  for (ChainJoint& j : spec.joints) j.friction = {0.3, 0.05, 0.03, 0.0};
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
    benchmark::DoNotOptimize(
        forward_dynamics(s.chain, s.data, s.q, s.qd, s.tau, ForwardMethod::articulated_body, frictionless()).data());
  label(state, s);
}
void BM_ForwardDynamics_CRBA_Cholesky(benchmark::State& state) {
  Setup s(int(state.range(0)));
  for (auto _ : state)
    benchmark::DoNotOptimize(
        forward_dynamics(s.chain, s.data, s.q, s.qd, s.tau, ForwardMethod::mass_matrix_cholesky, frictionless())
            .data());
  label(state, s);
}
void BM_TorqueDerivatives(benchmark::State& state) {
  Setup s(int(state.range(0)));
  for (auto _ : state) {
    torque_derivatives(s.chain, s.data, s.derivatives, s.q, s.V, frictionless());
    benchmark::DoNotOptimize(s.derivatives.ddtau.data());
  }
  label(state, s);
}
void BM_AccelerationEnergy_EA1(benchmark::State& state) {
  Setup s(int(state.range(0)));
  for (auto _ : state) benchmark::DoNotOptimize(acceleration_energy(s.chain, s.q, s.V, 1));
  label(state, s);
}
void BM_InverseDynamicsDerivatives(benchmark::State& state) {
  Setup s(int(state.range(0)));
  for (auto _ : state) {
    rnea_derivatives(s.chain, s.data, s.q, s.qd, s.qdd, frictionless());
    benchmark::DoNotOptimize(s.data.dtau_dq.data());
  }
  label(state, s);
}
void BM_CoriolisMatrix(benchmark::State& state) {
  Setup s(int(state.range(0)));
  for (auto _ : state) {
    coriolis_matrix(s.chain, s.data, s.q, s.qd);
    benchmark::DoNotOptimize(s.data.coriolis.data());
  }
  label(state, s);
}
/// Inverse dynamics over 10^5 different states, as a C++ program loops over a trajectory (states
/// and results in row-major arrays, the results array allocated once): time per state, the
/// reference of the Python package's batched call (bench/python_bench.py).
void BM_InverseDynamics_RNEA_Batch(benchmark::State& state) {
  Setup s(int(state.range(0)));
  const Eigen::Index n = s.chain.dof, rows = 100000;
  using RowMajor = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
  const RowMajor Q = RowMajor::Random(rows, n), V = RowMajor::Random(rows, n), A = RowMajor::Random(rows, n);
  RowMajor tau(rows, n);
  using Row = Eigen::Map<const Eigen::VectorXd>;
  for (auto _ : state) {
    for (Eigen::Index r = 0; r < rows; ++r)
      tau.row(r) = inverse_dynamics(s.chain, s.data, Row(Q.row(r).data(), n), Row(V.row(r).data(), n),
                                    Row(A.row(r).data(), n), frictionless())
                       .transpose();
    benchmark::DoNotOptimize(tau.data());
  }
  state.SetItemsProcessed(state.iterations() * rows);
  label(state, s);
}

/// One second of free motion under gravity (Dormand-Prince 5(4), tolerances 1e-10, 100 rows):
/// time per simulated second, and per right-hand side (one forward dynamics each).
void BM_SimulateOneSecond(benchmark::State& state) {
  Setup s(int(state.range(0)));
  ChainSimulationOptions o;
  o.t_end = 1.0;
  o.steps = 100;
  o.terms.friction = false;
  long evaluations = 0;
  for (auto _ : state) {
    const ChainSimulationResult r = simulate_chain(s.chain, s.data, s.q, s.qd, Eigen::VectorXd::Zero(s.chain.dof), o);
    evaluations = r.rhs_evaluations;
    benchmark::DoNotOptimize(r.q.data());
  }
  // Seconds per right-hand side (shown with its SI prefix).
  state.counters["s_per_rhs"] = benchmark::Counter(
      static_cast<double>(evaluations), benchmark::Counter::kIsIterationInvariantRate | benchmark::Counter::kInvert);
  label(state, s);
}
}  // namespace

BENCHMARK(BM_InverseDynamics_RNEA)->Apply(every_robot);
BENCHMARK(BM_InverseDynamics_RNEA_WithJointFriction)->Apply(every_robot);
BENCHMARK(BM_InverseDynamics_Trace)->Apply(serial_arms);
BENCHMARK(BM_MassMatrix_CRBA)->Apply(every_robot);
BENCHMARK(BM_MassMatrix_Trace)->Apply(serial_arms);
BENCHMARK(BM_ForwardDynamics_ABA)->Apply(every_robot);
BENCHMARK(BM_ForwardDynamics_CRBA_Cholesky)->Apply(every_robot);
BENCHMARK(BM_TorqueDerivatives)->Apply(every_robot);
BENCHMARK(BM_AccelerationEnergy_EA1)->Apply(serial_arms);
BENCHMARK(BM_InverseDynamicsDerivatives)->Apply(every_robot);
BENCHMARK(BM_CoriolisMatrix)->Apply(every_robot);
BENCHMARK(BM_InverseDynamics_RNEA_Batch)->Arg(1)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_SimulateOneSecond)->Apply(every_robot)->Unit(benchmark::kMillisecond);
