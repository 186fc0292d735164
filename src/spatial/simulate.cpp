#include "linkdyn/spatial/simulate.hpp"

#include <boost/numeric/odeint.hpp>
#include <vector>

namespace linkdyn::spatial {

ChainSimulationResult simulate_chain(const Chain& chain, ChainData& data, VectorIn q0,
                                     VectorIn qd0, VectorIn tau,
                                     const ChainSimulationOptions& o) {
  namespace odeint = boost::numeric::odeint;
  using State = std::vector<double>;
  const int n = chain.dof;
  State y(size_t(2 * n));
  Eigen::Map<Eigen::VectorXd>(y.data(), n) = q0;
  Eigen::Map<Eigen::VectorXd>(y.data() + n, n) = qd0;
  using ConstMap = Eigen::Map<const Eigen::VectorXd>;
  ChainSimulationResult result;
  auto rhs = [&](const State& x, State& dxdt, double) {
    const ConstMap q(x.data(), n), qd(x.data() + n, n);
    forward_dynamics(chain, data, q, qd, tau, o.method, o.terms);
    Eigen::Map<Eigen::VectorXd>(dxdt.data(), n) = qd;
    Eigen::Map<Eigen::VectorXd>(dxdt.data() + n, n) = data.qdd;
    ++result.rhs_evaluations;
  };

  Table& table = result.table;
  table.add_column("t", "s");
  for (const char* what : {"q", "qd", "qdd"})
    for (const ChainJoint& j : chain.spec.joints) {
      const bool rot = j.type == JointType::revolute;
      const std::string w = what;
      table.add_column(j.name + "." + w, w == "q" ? (rot ? "rad" : "m") : w == "qd" ? (rot ? "rad/s" : "m/s")
                                                                         : (rot ? "rad/s^2" : "m/s^2"));
    }
  table.add_column("kinetic_energy", "J");
  table.add_column("potential_energy", "J");
  table.values.reserve(size_t(o.steps + 1) * table.width());

  State row(y.size()), slope(y.size());
  auto emit = [&](double t, const State& x) {
    rhs(x, slope, t);
    table.values.push_back(t);
    table.values.insert(table.values.end(), x.begin(), x.end());
    table.values.insert(table.values.end(), slope.begin() + n, slope.end());
    const ConstMap q(x.data(), n), qd(x.data() + n, n);
    table.values.push_back(kinetic_energy(chain, data, q, qd));
    table.values.push_back(o.terms.gravity ? potential_energy(chain, data, q) : 0.0);
  };
  auto stepper = odeint::make_dense_output(o.abs_tol, o.rel_tol, odeint::runge_kutta_dopri5<State>());
  stepper.initialize(y, 0.0, o.t_end / std::max(o.steps, 1) / 10.0);
  emit(0.0, y);
  int next = 1;
  while (next <= o.steps) {
    stepper.do_step(rhs);
    while (next <= o.steps && o.t_end * next / o.steps <= stepper.current_time()) {
      const double t = o.t_end * next / o.steps;
      stepper.calc_state(t, row);
      emit(t, row);
      ++next;
    }
  }
  return result;
}

}  // namespace linkdyn::spatial
