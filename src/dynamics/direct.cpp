// Direct dynamics of one-DOF machines: reduced [003] and full-model right-hand sides, one
// integrator (Boost.Odeint dense-output Dormand-Prince) with event location.
#include "linkdyn/dynamics/direct.hpp"

#include <fmt/format.h>

#include <Eigen/Dense>
#include <boost/numeric/odeint.hpp>
#include <cmath>

#include "planar/constraints.hpp"

namespace linkdyn::dynamics {

using planar::Actuator;
using planar::Mechanism;
using planar::Workspace;
using State = std::vector<double>;  // q, qd, then one armature current per DC motor

namespace {

double sign(double x) { return x > 0.0 ? 1.0 : (x < 0.0 ? -1.0 : 0.0); }

planar::MechanismSpec with_rotors(planar::MechanismSpec spec) {
  for (const Actuator& a : spec.actuators) spec.bodies[a.body].inertia += a.added_inertia();
  return spec;
}

/// Torque of an actuator on its body, from its body's and condition body's angular velocities
/// and (for a motor) its current.
double actuator_torque(const Actuator& a, double scale, double omega, double omega_when, double current) {
  switch (a.type) {
    case Actuator::torque:
      if (a.when_body >= 0 && sign(omega_when) != a.when_sign) return 0.0;
      return scale * a.value;
    case Actuator::resistance: return -scale * a.T0 * sign(omega) - a.c * omega;
    case Actuator::dc_motor: {
      const double motor_torque = a.constant * current, omega_motor = omega / a.ratio;
      const double eta = motor_torque * omega_motor >= 0.0 ? a.efficiency : 1.0 / a.efficiency;
      return eta * motor_torque / a.ratio;
    }
  }
  return 0.0;
}

/// The right-hand side, as the reduced model or the full model.
class Evaluator {
 public:
  Evaluator(const DynamicSystem& s, const SimulationOptions& o) : sys_(s), m_(*s.mechanism), opt_(o) {
    scale_.assign(m_.spec().actuators.size(), 1.0);
    for (size_t k = 0; k < o.actuator_scale.size() && k < scale_.size(); ++k) scale_[k] = o.actuator_scale[k];
  }
  virtual ~Evaluator() = default;
  /// Angular velocity of a body at state y.
  virtual double omega(int body, const State& y) = 0;
  /// qdd at (t, y), with the actuator torques set in torque_.
  virtual double acceleration(double t, const State& y) = 0;
  /// Constraint actions after acceleration() at the same state.
  virtual void actions(const State& y, double qdd, std::vector<double>& out) = 0;

  void rhs(double t, const State& y, State& dydt) {
    ++evaluations;
    dydt[0] = y[1];
    dydt[1] = acceleration(t, y);
    for (size_t k = 0; k < sys_.motors.size(); ++k) {
      const Actuator& a = m_.spec().actuators[sys_.motors[k]];
      const double omega_motor = omega(a.body, y) / a.ratio;
      dydt[2 + k] = (scale_[sys_.motors[k]] * a.voltage - a.resistance_ohm * y[2 + k] - a.constant * omega_motor) / a.inductance;
    }
  }
  /// Torques of all actuators at state y (into torque_).
  void actuator_torques(const State& y) {
    const auto& acts = m_.spec().actuators;
    torque_.resize(acts.size());
    size_t motor = 0;
    for (size_t k = 0; k < acts.size(); ++k) {
      const Actuator& a = acts[k];
      const double current = a.type == Actuator::dc_motor ? y[2 + motor++] : 0.0;
      const double w = omega(a.body, y);
      const double w_when = a.when_body >= 0 ? omega(a.when_body, y) : 0.0;
      torque_[k] = actuator_torque(a, scale_[k], w, w_when, current);
    }
  }
  /// Switching functions of the discontinuous terms: Coulomb resistances, conditional torques,
  /// motor efficiency.
  void switching(const State& y, std::vector<double>& s) {
    s.clear();
    size_t motor = 0;
    for (const Actuator& a : m_.spec().actuators) {
      if (a.type == Actuator::resistance && a.T0 > 0.0) s.push_back(omega(a.body, y));
      if (a.type == Actuator::torque && a.when_body >= 0) s.push_back(omega(a.when_body, y));
      if (a.type == Actuator::dc_motor) {
        if (a.efficiency < 1.0) s.push_back(y[2 + motor] * omega(a.body, y));
        ++motor;
      }
    }
  }
  const std::vector<double>& torques() const { return torque_; }
  long evaluations = 0;

 protected:
  const DynamicSystem& sys_;
  const Mechanism& m_;
  const SimulationOptions& opt_;
  std::vector<double> scale_, torque_;
};

/// [003 Eq. 2] with tabulated parameters.
class ReducedEvaluator final : public Evaluator {
 public:
  ReducedEvaluator(const DynamicSystem& s, const SimulationOptions& o) : Evaluator(s, o) {
    for (const planar::Load& l : m_.spec().loads)
      if (l.table && l.table->driver < 0)
        throw InputError(l.where, "load '" + l.name + "'",
                         "is tabulated against time, and the reduced method needs loads of the position and velocity",
                         "use the full method (--method full), or tabulate the load against the driver");
    const ReducedTable t = tabulate_reduced_parameters(m_, o.table_points);
    interp_ = std::make_unique<ReducedInterpolant>(t);
    // Reduced force of the loads F0(q) + F1(q) qd, the bodies' velocity coefficients, and the
    // load and actuator parts of each constraint action.
    const size_t nb = m_.bodies().size(), na = m_.spec().constraint_actions.size(), nact = m_.spec().actuators.size();
    std::vector<double> F0, F1;
    std::vector<std::vector<double>> c(nb), L0(na), L1(na);
    std::vector<std::vector<std::vector<double>>> unit(nact, std::vector<std::vector<double>>(na));
    Workspace ws(m_);
    const double t0 = o.t0;
    for (double q : t.q) {
      ws.q[0] = q;
      if (!planar::solve_positions(m_, ws).ok()) throw AnalysisError(fmt::format("the mechanism does not assemble at q = {:.9g}", q));
      ws.qd[0] = 0.0;
      const double f0 = reduced_force(m_, ws, t0);
      ws.qd[0] = 1.0;
      const double f1 = reduced_force(m_, ws, t0) - f0;
      F0.push_back(f0), F1.push_back(f1);
      for (size_t b = 1; b < nb; ++b) c[b].push_back(ws.body[b].omega);  // reduced_force left qd = 1 kinematics
      for (int pass = 0; pass < 2; ++pass) {  // reactions of the loads at qd = 0 and qd = 1, qdd = 0
        ws.qd[0] = pass, ws.qdd[0] = 0.0;
        planar::solve_velocities(m_, ws);
        planar::solve_accelerations(m_, ws);
        planar::evaluate_loads(m_, ws, t0);
        for (auto& w : ws.friction_load) w.setZero();
        planar::solve_reactions(m_, ws);
        for (size_t k = 0; k < na; ++k) {
          const double r = constraint_action(m_, ws, m_.spec().constraint_actions[k]);
          if (pass == 0) L0[k].push_back(r);
          else L1[k].push_back(r - L0[k].back() - t.me1q[k][L1[k].size()]);
        }
      }
      for (size_t a = 0; a < nact; ++a) {  // reactions per unit actuator torque, at rest
        ws.qd[0] = 0.0, ws.qdd[0] = 0.0;
        planar::solve_velocities(m_, ws);
        planar::solve_accelerations(m_, ws);
        for (auto& w : ws.applied) w.setZero();
        ws.applied[m_.spec().actuators[a].body](2) = 1.0;
        planar::solve_reactions(m_, ws);
        for (size_t k = 0; k < na; ++k) unit[a][k].push_back(constraint_action(m_, ws, m_.spec().constraint_actions[k]));
      }
    }
    F0_ = TabulatedCurve(t.q, F0, t.periodic);
    F1_ = TabulatedCurve(t.q, F1, t.periodic);
    c_.resize(nb);
    for (size_t b = 1; b < nb; ++b) c_[b] = TabulatedCurve(t.q, c[b], t.periodic);
    for (size_t k = 0; k < na; ++k) L0_.emplace_back(t.q, L0[k], t.periodic), L1_.emplace_back(t.q, L1[k], t.periodic);
    unit_.resize(nact);
    for (size_t a = 0; a < nact; ++a)
      for (size_t k = 0; k < na; ++k) unit_[a].emplace_back(t.q, unit[a][k], t.periodic);
  }
  double omega(int body, const State& y) override { return c_[body](y[0]) * y[1]; }
  double acceleration(double, const State& y) override {
    const double q = y[0], qd = y[1];
    actuator_torques(y);
    double F = F0_(q) + F1_(q) * qd;
    for (size_t k = 0; k < torque_.size(); ++k) F += torque_[k] * c_[m_.spec().actuators[k].body](q);
    return (F - 0.5 * interp_->dm(q) * qd * qd) / interp_->m(q);
  }
  void actions(const State& y, double qdd, std::vector<double>& out) override {
    // [003 Eq. 6]: m_e1 qdd + m_e1q qd^2, plus the loads' and actuators' parts.
    const double q = y[0], qd = y[1];
    out.resize(L0_.size());
    for (size_t k = 0; k < L0_.size(); ++k) {
      out[k] = interp_->me1(k, q) * qdd + interp_->me1q(k, q) * qd * qd + L0_[k](q) + L1_[k](q) * qd;
      for (size_t a = 0; a < unit_.size(); ++a) out[k] += torque_[a] * unit_[a][k](q);
    }
  }

 private:
  std::unique_ptr<ReducedInterpolant> interp_;
  TabulatedCurve F0_, F1_;
  std::vector<TabulatedCurve> c_, L0_, L1_;
  std::vector<std::vector<TabulatedCurve>> unit_;
};

/// The whole constrained mechanism: M a + Phi_q^T mu = Q, Phi_q a = gamma, in body coordinates,
/// with the positions and velocities solved from (q, qd).
class FullEvaluator final : public Evaluator {
 public:
  FullEvaluator(const DynamicSystem& s, const SimulationOptions& o) : Evaluator(s, o), ws_(m_) {
    n_ = 3 * static_cast<int>(m_.bodies().size() - 1);
    for (const planar::Joint& j : m_.joints()) nc_ += j.constraint_count();
    kkt_.setZero(n_ + nc_, n_ + nc_);
    rhs_.setZero(n_ + nc_);
    lu_ = Eigen::PartialPivLU<Eigen::MatrixXd>(n_ + nc_);
    ws_.q[0] = std::isfinite(o.q0) ? o.q0 : planar::evaluate(m_.drivers()[0].law, o.t0).q;
    if (!planar::solve_positions(m_, ws_).ok()) throw AnalysisError("the mechanism does not assemble at the start");
  }
  double omega(int body, const State& y) override {
    place(y);
    return ws_.body[body].omega;
  }
  double acceleration(double t, const State& y) override {
    place(y);
    actuator_torques(y);
    planar::evaluate_loads(m_, ws_, t);
    for (size_t k = 0; k < torque_.size(); ++k) ws_.applied[m_.spec().actuators[k].body](2) += torque_[k];
    kkt_.setZero();
    rhs_.setZero();
    for (size_t b = 1; b < m_.bodies().size(); ++b) {  // M_b (a_O, alpha) = Q_b + m omega^2 r_c
      const planar::Body& body = m_.bodies()[b];
      const planar::BodyState& s = ws_.body[b];
      const Vec2 rc = s.arm(body.com);
      const int i = 3 * static_cast<int>(b - 1);
      kkt_(i, i) = kkt_(i + 1, i + 1) = body.mass;
      kkt_(i, i + 2) = kkt_(i + 2, i) = -body.mass * rc.y();
      kkt_(i + 1, i + 2) = kkt_(i + 2, i + 1) = body.mass * rc.x();
      kkt_(i + 2, i + 2) = body.inertia + body.mass * rc.squaredNorm();
      rhs_.segment<3>(i) = ws_.applied[b] + planar::Wrench(body.mass * s.omega * s.omega * rc.x(),
                                                          body.mass * s.omega * s.omega * rc.y(), 0.0);
    }
    planar::JointRows rows;
    int r = n_;
    for (const planar::Joint& j : m_.joints()) {
      planar::joint_rows(j, ws_, true, rows);
      for (int k = 0; k < rows.count; ++k) {
        for (int side = 0; side < 2; ++side) {
          if (j.body[side] == 0) continue;
          const int col = 3 * (j.body[side] - 1);
          kkt_.block<1, 3>(r + k, col) = rows.jac[side].row(k);
          kkt_.block<3, 1>(col, r + k) = rows.jac[side].row(k).transpose();
        }
        rhs_(r + k) = rows.gamma(k);
      }
      r += rows.count;
    }
    lu_.compute(kkt_);
    solution_ = lu_.solve(rhs_);
    const planar::Driver& d = m_.drivers()[0];
    const planar::Joint& dj = m_.joints()[d.joint];
    const int driven = dj.other(0), i = 3 * (driven - 1);
    if (d.type == planar::DriverType::rotational) return solution_(i + 2);
    return dj.guide_dir.dot(Vec2(solution_(i), solution_(i + 1)));  // a slider on a ground guide
  }
  void actions(const State&, double, std::vector<double>& out) override {
    // Multipliers mu of the last solve: the reactions are lambda = -mu.
    int r = n_;
    for (size_t k = 0; k < m_.joints().size(); ++k) {
      const planar::Joint& j = m_.joints()[k];
      Eigen::Vector2d lambda = Eigen::Vector2d::Zero();
      for (int c = 0; c < j.constraint_count(); ++c) lambda(c) = -solution_(r + c);
      planar::store_reaction(j, static_cast<int>(k), lambda, ws_);
      r += j.constraint_count();
    }
    out.resize(m_.spec().constraint_actions.size());
    for (size_t k = 0; k < out.size(); ++k) out[k] = constraint_action(m_, ws_, m_.spec().constraint_actions[k]);
  }

 private:
  void place(const State& y) {
    if (y[0] == placed_q_ && y[1] == placed_qd_) return;
    ws_.q[0] = y[0];
    if (!planar::solve_positions(m_, ws_).ok())
      throw AnalysisError(fmt::format("the mechanism does not assemble at q = {:.9g}", y[0]));
    ws_.qd[0] = y[1];
    if (!planar::solve_velocities(m_, ws_).ok())
      throw AnalysisError(fmt::format("the mechanism is at a dead point at q = {:.9g}", y[0]));
    placed_q_ = y[0], placed_qd_ = y[1];
  }
  Workspace ws_;
  int n_ = 0, nc_ = 0;
  Eigen::MatrixXd kkt_;
  Eigen::VectorXd rhs_, solution_;
  Eigen::PartialPivLU<Eigen::MatrixXd> lu_;
  double placed_q_ = NAN, placed_qd_ = NAN;
};

}  // namespace

DynamicSystem::DynamicSystem(const Mechanism& m)
    : mechanism(std::make_shared<const Mechanism>(planar::compile(with_rotors(m.spec())))) {
  if (m.drivers().size() != 1)
    throw InputError(m.spec().where, "drivers", fmt::format("direct dynamics needs one degree of freedom, and the mechanism has {}", m.drivers().size()),
                     "use a mechanism with one driver (its coordinate is the one integrated)");
  for (size_t k = 0; k < m.spec().actuators.size(); ++k)
    if (m.spec().actuators[k].type == Actuator::dc_motor) motors.push_back(static_cast<int>(k));
}

double kinetic_energy(const DynamicSystem& system, double q, double qd) {
  const Mechanism& m = *system.mechanism;
  Workspace ws(m);
  ws.q[0] = q;
  ws.qd[0] = qd;
  if (!planar::solve_positions(m, ws).ok() || !planar::solve_velocities(m, ws).ok())
    throw AnalysisError(fmt::format("no kinetic energy at q = {:.9g}: the mechanism does not assemble", q));
  double e = 0.0;
  for (size_t b = 1; b < m.bodies().size(); ++b) {
    const planar::Body& body = m.bodies()[b];
    e += 0.5 * (body.mass * ws.body[b].velocity(body.com).squaredNorm() + body.inertia * ws.body[b].omega * ws.body[b].omega);
  }
  return e;
}

SimulationResult simulate(const DynamicSystem& system, const SimulationOptions& o) {
  namespace odeint = boost::numeric::odeint;
  const Mechanism& m = *system.mechanism;
  std::unique_ptr<Evaluator> eval;
  if (o.method == Method::reduced) eval = std::make_unique<ReducedEvaluator>(system, o);
  else eval = std::make_unique<FullEvaluator>(system, o);

  const planar::MotionSample start = planar::evaluate(m.drivers()[0].law, o.t0);
  State y(2 + system.motors.size(), 0.0);
  y[0] = std::isfinite(o.q0) ? o.q0 : start.q;
  y[1] = std::isfinite(o.qd0) ? o.qd0 : start.qd;

  SimulationResult result;
  Table& table = result.table;
  const bool rot = m.drivers()[0].type == planar::DriverType::rotational;
  table.add_column("t", "s");
  table.add_column("q", rot ? "rad" : "m");
  table.add_column("qd", rot ? "rad/s" : "m/s");
  table.add_column("qdd", rot ? "rad/s^2" : "m/s^2");
  for (int k : system.motors) table.add_column(m.spec().actuators[k].name + ".current", "A");
  for (const Actuator& a : m.spec().actuators) table.add_column(a.name + ".torque", "N m");
  for (const auto& a : m.spec().constraint_actions)
    table.add_column(a.name, a.kind == planar::ConstraintAction::pair_moment ? "N m" : "N");
  table.values.reserve(static_cast<size_t>(o.steps + 1) * table.width());

  auto system_fn = [&](const State& x, State& dxdt, double t) { eval->rhs(t, x, dxdt); };
  State dydt(y.size()), row_state(y.size());
  std::vector<double> actions;
  auto emit = [&](double t, const State& x) {
    eval->rhs(t, x, dydt);
    eval->actions(x, dydt[1], actions);
    table.values.insert(table.values.end(), {t, x[0], x[1], dydt[1]});
    for (size_t k = 0; k < system.motors.size(); ++k) table.values.push_back(x[2 + k]);
    for (double torque : eval->torques()) table.values.push_back(torque);
    for (double a : actions) table.values.push_back(a);
  };

  auto stepper = odeint::make_dense_output(o.abs_tol, o.rel_tol, odeint::runge_kutta_dopri5<State>());
  const double span = o.t_end - o.t0;
  stepper.initialize(y, o.t0, span / std::max(o.steps, 1) / 10.0);
  int next = 0;
  auto out_time = [&](int k) { return o.t0 + span * k / o.steps; };
  std::vector<double> s_prev, s_now, s_mid;
  eval->switching(y, s_prev);
  while (next <= o.steps) {
    const auto [ta, tb] = stepper.do_step(system_fn);
    double t_stop = tb;
    State y_stop = stepper.current_state();
    eval->switching(y_stop, s_now);
    bool event = false;
    for (size_t k = 0; k < s_now.size(); ++k) event = event || s_prev[k] * s_now[k] < 0.0;
    if (event) {
      // Locate the first sign change on the dense output by bisection.
      double lo = ta, hi = tb;
      for (int it = 0; it < 60; ++it) {
        const double mid = 0.5 * (lo + hi);
        stepper.calc_state(mid, row_state);
        eval->switching(row_state, s_mid);
        bool changed = false;
        for (size_t k = 0; k < s_mid.size(); ++k) changed = changed || s_prev[k] * s_mid[k] < 0.0;
        (changed ? hi : lo) = mid;
      }
      t_stop = hi;
      stepper.calc_state(t_stop, y_stop);
      ++result.events;
    }
    while (next <= o.steps && out_time(next) <= t_stop + 1e-14 * (1 + std::abs(t_stop))) {
      stepper.calc_state(std::min(out_time(next), tb), row_state);
      emit(out_time(next), row_state);
      ++next;
    }
    if (event) {
      eval->switching(y_stop, s_prev);
      // Restart on the far side of the switch, so the step does not straddle it.
      stepper.initialize(y_stop, t_stop, stepper.current_time_step());
      for (size_t k = 0; k < s_prev.size(); ++k)
        if (s_prev[k] == 0.0) s_prev[k] = s_now[k];
    } else {
      s_prev = s_now;
    }
  }
  result.rhs_evaluations = static_cast<int>(eval->evaluations);
  return result;
}

}  // namespace linkdyn::dynamics
