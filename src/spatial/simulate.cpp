#include "linkdyn/spatial/simulate.hpp"

#include <fmt/format.h>
#include <memory>
#include <vector>

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

  Table& table = result.table;
  table.add_column("t", "s");
  auto unit = [&](int dof, int order) {
    const bool rot = chain.joint(chain.dof_link[size_t(dof)]).type == JointType::revolute ||
                     (chain.joint(chain.dof_link[size_t(dof)]).type == JointType::free_flyer &&
                      dof - chain.v_index[size_t(chain.dof_link[size_t(dof)])] >= 3);
    static const char* r[] = {"rad", "rad/s", "rad/s^2"};
    static const char* l[] = {"m", "m/s", "m/s^2"};
    return std::string(rot ? r[order] : l[order]);
  };
  for (int i = 0; i < nq; ++i) {
    const int link = [&] {
      int k = 0;
      while (k + 1 < chain.links && chain.q_index[size_t(k) + 1] <= i) ++k;
      return k;
    }();
    const bool ff = chain.joint(link).type == JointType::free_flyer;
    const int local = i - chain.q_index[size_t(link)];
    table.add_column(
        chain.q_names[size_t(i)] + ".q",
        ff ? (local < 3 ? "m"
                        : (nq > 0 && chain.spec.rotation_coordinates == RotationCoordinates::quaternion ? "" : "rad"))
           : unit(chain.v_index[size_t(link)], 0));
  }
  for (const char* what : {"qd", "qdd"})
    for (int d = 0; d < nv; ++d)
      table.add_column(chain.v_names[size_t(d)] + "." + what, unit(d, what[2] == 'd' ? 2 : 1));
  for (int d = 0; d < nv; ++d) table.add_column(chain.v_names[size_t(d)] + ".tau", unit(d, 0) == "rad" ? "N m" : "N");
  table.add_column("kinetic_energy", "J");
  table.add_column("potential_energy", "J");
  table.values.reserve(size_t(o.steps + 1) * table.width());

  State row(y.size()), slope(y.size());
  auto emit = [&](double t, const State& x) {
    rhs(x, slope, t);
    table.values.push_back(t);
    table.values.insert(table.values.end(), x.begin(), x.end());
    table.values.insert(table.values.end(), slope.begin() + nq, slope.end());
    table.values.insert(table.values.end(), tau.begin(), tau.end());  // the driving forces applied
    const ConstMap q(x.data(), nq), qd(x.data() + nq, nv);
    table.values.push_back(kinetic_energy(chain, data, q, qd));
    table.values.push_back(o.terms.gravity ? potential_energy(chain, data, q) : 0.0);
  };
  const std::unique_ptr<Stepper> stepper = Stepper::make(o.integrator, o.abs_tol, o.rel_tol);
  const Stepper::System system = rhs;
  stepper->initialize(y, 0.0, o.t_end / std::max(o.steps, 1) / 10.0);
  emit(0.0, y);
  int next = 1;
  while (next <= o.steps) {
    if (result.rhs_evaluations > o.max_rhs_evaluations)
      throw AnalysisError(
          fmt::format("{}: the integration stalls at t = {:.6g} s after {} right-hand sides: dry friction "
                      "switching about qd = 0 (there is no stiction model), or a stiff controller; "
                      "try --no-friction or smaller gains",
                      chain.spec.name, stepper->time(), result.rhs_evaluations));
    stepper->step(system);
    while (next <= o.steps && o.t_end * next / o.steps <= stepper->time()) {
      const double t = o.t_end * next / o.steps;
      stepper->state_at(system, t, row);
      emit(t, row);
      ++next;
    }
  }
  return result;
}

}  // namespace linkdyn::spatial
