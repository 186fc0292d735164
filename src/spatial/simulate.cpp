#include "linkdyn/spatial/simulate.hpp"

#include <fmt/format.h>
#include <algorithm>
#include <memory>
#include <vector>

#include "linkdyn/core/interrupt.hpp"
#include "linkdyn/spatial/kinematics.hpp"

namespace linkdyn::spatial {

ChainSimulationResult simulate_chain(const Chain& chain, ChainData& data, VectorIn q0, VectorIn qd0, VectorIn tau,
                                     const ChainSimulationOptions& o) {
  const Eigen::VectorXd constant = tau;
  return simulate_chain(
      chain, data, q0, qd0,
      [&constant](double, VectorIn, VectorIn, Eigen::Ref<Eigen::VectorXd> out) { out = constant; }, o);
}

ChainSimulationResult simulate_chain(const Chain& chain, ChainData& data, VectorIn q0, VectorIn qd0,
                                     const TorqueLaw& torque, const ChainSimulationOptions& o) {
  using State = Stepper::State;
  if (!(o.t_end > 0.0) || o.steps < 1 || !(o.rel_tol > 0.0) || !(o.abs_tol > 0.0))
    throw InputError(
        {}, "simulation of " + chain.spec.name,
        fmt::format("t_end = {:g} s, {} steps, rtol = {:g}, atol = {:g}", o.t_end, o.steps, o.rel_tol, o.abs_tol),
        "give t_end > 0, at least one step and positive tolerances");
  const int nq = chain.nq, nv = chain.dof;
  State y(size_t(nq + nv));
  Eigen::Map<Eigen::VectorXd>(y.data(), nq) = q0;
  Eigen::Map<Eigen::VectorXd>(y.data() + nq, nv) = qd0;
  using ConstMap = Eigen::Map<const Eigen::VectorXd>;
  ChainSimulationResult result;
  Eigen::VectorXd tau = Eigen::VectorXd::Zero(nv);
  // x = [q; v]: q' from v (free-flyers: quaternion or rotation-vector rates), v' by forward dynamics.
  auto rhs = [&](const State& x, State& dxdt, double t) {
    const ConstMap q(x.data(), nq), qd(x.data() + nq, nv);
    torque(t, q, qd, tau);
    forward_dynamics(chain, data, q, qd, tau, o.method, o.terms);
    configuration_rate(chain, q, qd, Eigen::Map<Eigen::VectorXd>(dxdt.data(), nq));
    Eigen::Map<Eigen::VectorXd>(dxdt.data() + nq, nv) = data.qdd;
    ++result.rhs_evaluations;
  };

  const Eigen::Index rows = o.on_rows ? std::clamp<Eigen::Index>(o.chunk_rows, 1, o.steps + 1) : o.steps + 1;
  result.t.resize(rows);
  result.q.resize(rows, nq);
  for (Eigen::MatrixXd* per_dof : {&result.qd, &result.qdd, &result.tau}) per_dof->resize(rows, nv);
  result.kinetic_energy.resize(rows);
  result.potential_energy.resize(rows);
  State row_state(y.size()), slope(y.size());
  Eigen::Index row = 0;
  long rows_emitted = 0;  // each output row evaluates the right-hand side once (its qdd)
  auto emit = [&](double t, const State& x) {
    rhs(x, slope, t);
    ++rows_emitted;
    if (row == rows) {  // a full chunk: handed over, then its room reused
      o.on_rows(result);
      row = 0;
    }
    const ConstMap q(x.data(), nq), qd(x.data() + nq, nv);
    result.t(row) = t;
    result.q.row(row) = q;
    result.qd.row(row) = qd;
    result.qdd.row(row) = ConstMap(slope.data() + nq, nv);
    result.tau.row(row) = tau;  // the driving forces applied
    result.kinetic_energy(row) = kinetic_energy(chain, data, q, qd);
    result.potential_energy(row) = o.terms.gravity ? potential_energy(chain, data, q) : 0.0;
    ++row;
  };
  const std::unique_ptr<Stepper> stepper = Stepper::make(o.integrator, o.abs_tol, o.rel_tol);
  const Stepper::System system = rhs;
  stepper->initialize(y, 0.0, o.t_end / std::max(o.steps, 1) / 10.0);
  emit(0.0, y);
  int next = 1;
  // Streamed rows: the rows computed so far are handed over at the end, also when the run stops.
  auto hand_over_last_rows = [&] {
    if (!o.on_rows) return;
    result.t.conservativeResize(row);
    for (Eigen::MatrixXd* matrix : {&result.q, &result.qd, &result.qdd, &result.tau})
      matrix->conservativeResize(row, Eigen::NoChange);
    result.kinetic_energy.conservativeResize(row);
    result.potential_energy.conservativeResize(row);
    o.on_rows(result);
  };
  try {
    while (next <= o.steps) {
      throw_if_stop_requested();
      if (result.rhs_evaluations - rows_emitted > o.max_rhs_evaluations)  // the integrator's own
        throw AnalysisError(
            fmt::format("{}: the integration stalls at t = {:.6g} s after {} right-hand sides: dry friction "
                        "switching about qd = 0 (there is no stiction model), or a stiff controller; "
                        "try --no-friction or smaller gains",
                        chain.spec.name, stepper->time(), result.rhs_evaluations - rows_emitted));
      (void)stepper->step(system);  // the interval it took: stepper->time() says where it is
      while (next <= o.steps && o.t_end * next / o.steps <= stepper->time()) {
        const double t = o.t_end * next / o.steps;
        stepper->state_at(system, t, row_state);
        emit(t, row_state);
        ++next;
      }
    }
  } catch (const std::runtime_error&) {  // a stall or Ctrl-C: the rows so far, then the error
    hand_over_last_rows();
    throw;
  }
  hand_over_last_rows();
  return result;
}

}  // namespace linkdyn::spatial
