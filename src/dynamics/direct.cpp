// Direct dynamics of one-DOF machines: reduced [003] and full-model right-hand sides, one
// integrator (Boost.Odeint dense-output Dormand-Prince) with event location.
#include "linkdyn/dynamics/direct.hpp"

#include <fmt/format.h>

#include <Eigen/Dense>
#include <boost/math/tools/toms748_solve.hpp>
#include <boost/numeric/odeint.hpp>
#include <cmath>
#include <mutex>

#include "linkdyn/dynamics/kane.hpp"
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

/// Torque of an actuator on its body. `branch` is the sign of its switching function (the
/// Coulomb term's speed, the condition's speed, the motor's power) on the branch being
/// integrated: it is held fixed over a step, so every step integrates a smooth right-hand side.
double actuator_torque(const Actuator& a, double scale, double omega, double current, double branch) {
  switch (a.type) {
    case Actuator::torque:
      if (a.when_body >= 0 && branch != a.when_sign) return 0.0;
      return scale * a.value;
    case Actuator::resistance: return -scale * a.T0 * branch - a.c * omega;
    case Actuator::dc_motor: {
      const double eta = branch >= 0.0 ? a.efficiency : 1.0 / a.efficiency;
      return eta * a.constant * current / a.ratio;
    }
  }
  return 0.0;
}

/// The right-hand side, as the reduced model, the full model or Kane's equations. The state is
/// q (n independent coordinates, the drivers'), qd (n), the motors' currents, the actuators' work.
class Evaluator {
 public:
  Evaluator(const DynamicSystem& s, const SimulationOptions& o)
      : sys_(s), m_(*s.mechanism), n_(m_.drivers().size()), qdd_(n_) {
    scale_.assign(m_.spec().actuators.size(), 1.0);
    for (size_t k = 0; k < o.actuator_scale.size() && k < scale_.size(); ++k) scale_[k] = o.actuator_scale[k];
  }
  virtual ~Evaluator() = default;
  /// Angular velocity of a body at state y.
  virtual double omega(int body, const State& y) = 0;
  /// Sliding speed of a prismatic pair at state y.
  virtual double sliding(int joint, const State& y) = 0;
  /// The n accelerations qdd at (t, y) into qdd_, with the actuator torques set in torque_.
  virtual void accelerations(double t, const State& y) = 0;
  /// Constraint actions after accelerations() at the same state.
  virtual void actions(const State& y, std::vector<double>& out) = 0;
  /// Pair reactions (columns as add_reaction_columns) after actions(); none by default.
  virtual void reactions(std::vector<double>&) {}

  /// The speed of actuator k: its body's angular velocity, or its pair's sliding speed.
  double speed(size_t k, const State& y) {
    const Actuator& a = m_.spec().actuators[k];
    return a.joint >= 0 ? sliding(a.joint, y) : omega(a.body, y);
  }
  void rhs(double t, const State& y, State& dydt) {
    ++evaluations;
    accelerations(t, y);
    for (size_t i = 0; i < n_; ++i) dydt[i] = y[n_ + i], dydt[n_ + i] = qdd_[i];
    const size_t nm = sys_.motors.size();
    for (size_t k = 0; k < nm; ++k) {
      const Actuator& a = m_.spec().actuators[sys_.motors[k]];
      const double omega_motor = omega(a.body, y) / a.ratio;
      dydt[2 * n_ + k] = (scale_[sys_.motors[k]] * a.voltage - a.resistance_ohm * y[2 * n_ + k] - a.constant * omega_motor) / a.inductance;
    }
    // The work of each actuator is integrated with the motion.
    for (size_t k = 0; k < torque_.size(); ++k) dydt[2 * n_ + nm + k] = torque_[k] * speed(k, y);
  }
  /// Torques (forces for a pair's resistance) of all actuators at state y (into torque_), on
  /// the locked branches.
  void actuator_torques(const State& y) {
    const auto& acts = m_.spec().actuators;
    torque_.resize(acts.size());
    size_t motor = 0;
    for (size_t k = 0; k < acts.size(); ++k) {
      const Actuator& a = acts[k];
      const double current = a.type == Actuator::dc_motor ? y[2 * n_ + motor++] : 0.0;
      torque_[k] = actuator_torque(a, scale_[k], speed(k, y), current, branch_[k]);
    }
  }
  /// The switching function of actuator k: its Coulomb speed, condition speed or motor power.
  double switching(size_t k, const State& y) {
    const Actuator& a = m_.spec().actuators[k];
    switch (a.type) {
      case Actuator::resistance: return a.T0 > 0.0 ? speed(k, y) : 1.0;
      case Actuator::torque: return a.when_body >= 0 ? omega(a.when_body, y) : 1.0;
      case Actuator::dc_motor: {
        size_t motor = 0;
        while (sys_.motors[motor] != static_cast<int>(k)) ++motor;
        return a.efficiency < 1.0 ? y[2 * n_ + motor] * omega(a.body, y) : 1.0;
      }
    }
    return 1.0;
  }
  /// Locks every branch to the signs at state y; where a function is exactly zero there, to its
  /// sign at `ahead` (the end of the step), else the old branch (sgn 0 = 0 for a Coulomb term
  /// that starts at rest: it stays 0 until the speed leaves zero).
  void lock(const State& y, const State* ahead = nullptr) {
    branch_.resize(m_.spec().actuators.size(), 0.0);
    for (size_t k = 0; k < branch_.size(); ++k) {
      double s = sign(switching(k, y));
      if (s == 0.0 && ahead) s = sign(switching(k, *ahead));
      if (s != 0.0) branch_[k] = s;
    }
  }
  /// True when switching function k (or any, k = -1) at y has left its locked branch.
  bool left_branch(const State& y, int only = -1) {
    for (size_t k = 0; k < branch_.size(); ++k) {
      if (only >= 0 && static_cast<int>(k) != only) continue;
      const double s = sign(switching(k, y));
      if (s != 0.0 && s != branch_[k]) return true;
    }
    return false;
  }
  size_t branches() const { return branch_.size(); }
  const std::vector<double>& torques() const { return torque_; }
  const std::vector<double>& qdd() const { return qdd_; }
  long evaluations = 0;

 protected:
  const DynamicSystem& sys_;
  const Mechanism& m_;
  size_t n_;
  std::vector<double> scale_, torque_, branch_, qdd_;
};

/// An evaluator that places the whole mechanism at each state (positions and velocities from
/// the independent coordinates by the kinematic walk) and applies the loads and actuators as
/// wrenches on the bodies: the common part of the full model and Kane's equations.
class PlacedEvaluator : public Evaluator {
 public:
  PlacedEvaluator(const DynamicSystem& s, const SimulationOptions& o, const State& y0)
      : Evaluator(s, o), ws_(m_), placed_(2 * n_, NAN) {
    for (size_t i = 0; i < n_; ++i) ws_.q[i] = y0[i];
    if (!planar::solve_positions(m_, ws_).ok()) throw AnalysisError("the mechanism does not assemble at the start");
  }
  double omega(int body, const State& y) override {
    place(y);
    return ws_.body[body].omega;
  }
  double sliding(int joint, const State& y) override {
    place(y);
    Vec2 point;
    return planar::sliding_speed(m_.joints()[joint], ws_, point);
  }

 protected:
  /// ws_.applied: the model's loads at t and the actuators at state y [004 Eq. A42].
  void apply_loads(double t, const State& y) {
    place(y);
    actuator_torques(y);
    planar::evaluate_loads(m_, ws_, t);
    for (size_t k = 0; k < torque_.size(); ++k) {
      const Actuator& a = m_.spec().actuators[k];
      if (a.joint < 0) {
        ws_.applied[a.body](2) += torque_[k];
        continue;
      }
      const planar::Joint& j = m_.joints()[a.joint];
      Vec2 point;
      planar::sliding_speed(j, ws_, point);
      planar::add_guide_force(j, ws_, point, torque_[k], ws_.applied);
    }
  }
  void place(const State& y) {
    if (std::equal(placed_.begin(), placed_.end(), y.begin())) return;
    for (size_t i = 0; i < n_; ++i) ws_.q[i] = y[i], ws_.qd[i] = y[n_ + i];
    if (!planar::solve_positions(m_, ws_).ok())
      throw AnalysisError(fmt::format("the mechanism does not assemble at {}", coordinates(y)));
    if (!planar::solve_velocities(m_, ws_).ok())
      throw AnalysisError(fmt::format("the mechanism is at a dead point at {}", coordinates(y)));
    std::copy(y.begin(), y.begin() + 2 * n_, placed_.begin());
  }
  /// "q = 0.1" (one DOF) or "alpha = 0.1, x_D = 0.48" for a message.
  std::string coordinates(const State& y) const {
    if (n_ == 1) return fmt::format("q = {:.9g}", y[0]);
    std::string out;
    for (size_t i = 0; i < n_; ++i) out += fmt::format("{}{} = {:.9g}", i ? ", " : "", m_.drivers()[i].name, y[i]);
    return out;
  }
  Workspace ws_;
  std::vector<double> placed_;
};

}  // namespace

/// The tabulated reduced model [003]: parameters, reduced force of the loads F0(q) + F1(q) qd,
/// the bodies' velocity coefficients, and the load and actuator parts of each constraint action.
struct ReducedTables {
  std::unique_ptr<ReducedInterpolant> interp;
  TabulatedCurve F0, F1;
  std::vector<TabulatedCurve> c, L0, L1;
  std::vector<std::vector<TabulatedCurve>> unit;  ///< [actuator][action]: reaction per unit torque
  int points = 0;
  double t0 = 0.0;
};

namespace {

std::shared_ptr<const ReducedTables> build_reduced_tables(const Mechanism& m, int points, double t0) {
  for (const planar::Load& l : m.spec().loads)
    if (l.table && l.table->against.kind == planar::Coordinate::time)
      throw InputError(l.where, "load '" + l.name + "'",
                       "is tabulated against time, and the reduced method needs loads of the position and velocity",
                       "use the full method (--method full), or tabulate the load against the driver");
  auto out = std::make_shared<ReducedTables>();
  out->points = points;
  out->t0 = t0;
  const ReducedTable t = tabulate_reduced_parameters(m, points);
  out->interp = std::make_unique<ReducedInterpolant>(t);
  const size_t nb = m.bodies().size(), na = m.spec().constraint_actions.size(), nact = m.spec().actuators.size();
  std::vector<double> F0, F1;
  std::vector<std::vector<double>> c(nb), L0(na), L1(na);
  std::vector<std::vector<std::vector<double>>> unit(nact, std::vector<std::vector<double>>(na));
  Workspace ws(m);
  for (size_t p = 0; p < t.q.size(); ++p) {
    ws.q[0] = t.q[p];
    if (!planar::solve_positions(m, ws).ok()) throw AnalysisError(fmt::format("the mechanism does not assemble at q = {:.9g}", t.q[p]));
    ws.qd[0] = 0.0;
    const double f0 = reduced_force(m, ws, t0);
    ws.qd[0] = 1.0;
    const double f1 = reduced_force(m, ws, t0) - f0;
    F0.push_back(f0), F1.push_back(f1);
    for (size_t b = 1; b < nb; ++b) c[b].push_back(ws.body[b].omega);  // kinematics left at qd = 1
    for (int pass = 0; pass < 2; ++pass) {  // reactions of the loads at qd = 0 and qd = 1, qdd = 0
      ws.qd[0] = pass, ws.qdd[0] = 0.0;
      planar::solve_velocities(m, ws);
      planar::solve_accelerations(m, ws);
      planar::evaluate_loads(m, ws, t0);
      for (auto& w : ws.friction_load) w.setZero();
      planar::solve_reactions(m, ws);
      for (size_t k = 0; k < na; ++k) {
        const double r = constraint_action(m, ws, m.spec().constraint_actions[k]);
        if (pass == 0) L0[k].push_back(r);
        else L1[k].push_back(r - L0[k].back() - t.me1q[k][p]);
      }
    }
    for (size_t a = 0; a < nact; ++a) {  // reactions per unit actuator torque, at rest
      ws.qd[0] = 0.0, ws.qdd[0] = 0.0;
      planar::solve_velocities(m, ws);
      planar::solve_accelerations(m, ws);
      for (auto& w : ws.applied) w.setZero();
      ws.applied[m.spec().actuators[a].body](2) = 1.0;
      planar::solve_reactions(m, ws);
      for (size_t k = 0; k < na; ++k) unit[a][k].push_back(constraint_action(m, ws, m.spec().constraint_actions[k]));
    }
  }
  out->F0 = TabulatedCurve(t.q, F0, t.periodic);
  out->F1 = TabulatedCurve(t.q, F1, t.periodic);
  out->c.resize(nb);
  for (size_t b = 1; b < nb; ++b) out->c[b] = TabulatedCurve(t.q, c[b], t.periodic);
  for (size_t k = 0; k < na; ++k) out->L0.emplace_back(t.q, L0[k], t.periodic), out->L1.emplace_back(t.q, L1[k], t.periodic);
  out->unit.resize(nact);
  for (size_t a = 0; a < nact; ++a)
    for (size_t k = 0; k < na; ++k) out->unit[a].emplace_back(t.q, unit[a][k], t.periodic);
  return out;
}

/// [003 Eq. 2] with tabulated parameters.
class ReducedEvaluator final : public Evaluator {
 public:
  ReducedEvaluator(const DynamicSystem& s, const SimulationOptions& o) : Evaluator(s, o) {
    if (n_ != 1)
      throw InputError(m_.spec().where, "drivers",
                       fmt::format("the reduced method needs one degree of freedom, and the mechanism has {}", n_),
                       "use --method kane (or full) for several degrees of freedom");
    for (const Actuator& a : m_.spec().actuators)
      if (a.joint >= 0)
        throw InputError(a.where, "actuator '" + a.name + "'", "acts in a prismatic pair, which the reduced method does not tabulate",
                         "use --method kane (or full)");
    std::lock_guard<std::mutex> lock(*s.cache_mutex);
    if (!s.reduced_cache || s.reduced_cache->points != o.table_points || s.reduced_cache->t0 != o.t0)
      s.reduced_cache = build_reduced_tables(m_, o.table_points, o.t0);
    T_ = s.reduced_cache;
    cached_.assign(T_->c.size(), NAN);
  }
  double omega(int body, const State& y) override { return coefficient(body, y[0]) * y[1]; }
  double sliding(int, const State&) override { return 0.0; }  // refused in the constructor
  void accelerations(double, const State& y) override {
    const double q = y[0], qd = y[1];
    actuator_torques(y);
    double F = T_->F0(q) + T_->F1(q) * qd;
    for (size_t k = 0; k < torque_.size(); ++k) F += torque_[k] * coefficient(m_.spec().actuators[k].body, q);
    qdd_[0] = (F - 0.5 * T_->interp->dm(q) * qd * qd) / T_->interp->m(q);
  }
  void actions(const State& y, std::vector<double>& out) override {
    // [003 Eq. 6]: m_e1 qdd + m_e1q qd^2, plus the loads' and actuators' parts.
    const double q = y[0], qd = y[1], qdd = qdd_[0];
    out.resize(T_->L0.size());
    for (size_t k = 0; k < T_->L0.size(); ++k) {
      out[k] = T_->interp->me1(k, q) * qdd + T_->interp->me1q(k, q) * qd * qd + T_->L0[k](q) + T_->L1[k](q) * qd;
      for (size_t a = 0; a < T_->unit.size(); ++a) out[k] += torque_[a] * T_->unit[a][k](q);
    }
  }

 private:
  /// The velocity coefficient omega_body / qd, evaluated once per position.
  double coefficient(int body, double q) {
    if (q != cached_q_) {
      cached_q_ = q;
      std::fill(cached_.begin(), cached_.end(), NAN);
    }
    if (std::isnan(cached_[body])) cached_[body] = T_->c[body](q);
    return cached_[body];
  }
  std::shared_ptr<const ReducedTables> T_;
  double cached_q_ = NAN;
  std::vector<double> cached_;
};

/// The whole constrained mechanism: M a + Phi_q^T mu = Q, Phi_q a = gamma, in body coordinates,
/// with the positions and velocities solved from (q, qd).
class FullEvaluator final : public PlacedEvaluator {
 public:
  FullEvaluator(const DynamicSystem& s, const SimulationOptions& o, const State& y0) : PlacedEvaluator(s, o, y0) {
    nb_ = 3 * static_cast<int>(m_.bodies().size() - 1);
    for (const planar::Joint& j : m_.joints()) nc_ += j.constraint_count();
    kkt_.setZero(nb_ + nc_, nb_ + nc_);
    rhs_.setZero(nb_ + nc_);
    lu_ = Eigen::PartialPivLU<Eigen::MatrixXd>(nb_ + nc_);
  }
  void accelerations(double t, const State& y) override {
    apply_loads(t, y);
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
    int r = nb_;
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
    for (size_t d = 0; d < n_; ++d) {
      const planar::Driver& driver = m_.drivers()[d];
      const planar::Joint& dj = m_.joints()[driver.joint];
      const int i = 3 * (dj.other(0) - 1);
      qdd_[d] = driver.type == planar::DriverType::rotational
                    ? solution_(i + 2)
                    : dj.guide_dir.dot(Vec2(solution_(i), solution_(i + 1)));  // a slider on a ground guide
    }
  }
  void actions(const State&, std::vector<double>& out) override {
    // Multipliers mu of the last solve: the reactions are lambda = -mu.
    int r = nb_;
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
  int nb_ = 0, nc_ = 0;
  Eigen::MatrixXd kkt_;
  Eigen::VectorXd rhs_, solution_;
  Eigen::PartialPivLU<Eigen::MatrixXd> lu_;
};

/// Kane's equations [004 Appendix B]: A^T m A qdd = A^T (Q_ext - m B), the liaison forces
/// from m a = Q_ext + Q_liaison.
class KaneEvaluator final : public PlacedEvaluator {
 public:
  KaneEvaluator(const DynamicSystem& s, const SimulationOptions& o, const State& y0) : PlacedEvaluator(s, o, y0), kw_(m_) {}
  void accelerations(double t, const State& y) override {
    apply_loads(t, y);
    solve_kane(m_, ws_, kw_);
    for (size_t i = 0; i < n_; ++i) qdd_[i] = kw_.qdd(static_cast<Eigen::Index>(i));
  }
  void actions(const State&, std::vector<double>& out) override {
    liaison_forces(m_, ws_, kw_);
    out.resize(m_.spec().constraint_actions.size());
    for (size_t k = 0; k < out.size(); ++k) out[k] = constraint_action(m_, ws_, m_.spec().constraint_actions[k]);
  }
  void reactions(std::vector<double>& out) override {
    out.clear();
    auto put = [&](double v) { out.push_back(v); };
    for (size_t k = 0; k < m_.spec().joints.size(); ++k) planar::put_reaction(m_.joints()[k], ws_.reaction[k], put);
    for (size_t p = 0; p < m_.pins().size(); ++p) planar::put_pin_reaction(m_, ws_, static_cast<int>(p), put);
  }

 private:
  KaneWorkspace kw_;
};

}  // namespace

DynamicSystem::DynamicSystem(const Mechanism& m)
    : mechanism(std::make_shared<const Mechanism>(planar::compile(with_rotors(m.spec())))) {
  for (size_t k = 0; k < m.spec().actuators.size(); ++k)
    if (m.spec().actuators[k].type == Actuator::dc_motor) motors.push_back(static_cast<int>(k));
}

double kinetic_energy(const DynamicSystem& system, double q, double qd) {
  return kinetic_energy(system, std::vector<double>{q}, std::vector<double>{qd});
}

double kinetic_energy(const DynamicSystem& system, const std::vector<double>& q, const std::vector<double>& qd) {
  const Mechanism& m = *system.mechanism;
  Workspace ws(m);
  ws.q = q;
  ws.qd = qd;
  if (!planar::solve_positions(m, ws).ok() || !planar::solve_velocities(m, ws).ok())
    throw AnalysisError(fmt::format("no kinetic energy at q = {:.9g}: the mechanism does not assemble", q[0]));
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
  const size_t n = m.drivers().size(), nm = system.motors.size(), nact = m.spec().actuators.size();
  // Initial state: q0 / qd0 override the first coordinate; the others from the drivers' laws.
  State y(2 * n + nm + nact, 0.0);
  for (size_t i = 0; i < n; ++i) {
    const planar::MotionSample start = planar::evaluate(m.drivers()[i].law, o.t0);
    y[i] = start.q, y[n + i] = start.qd;
  }
  if (std::isfinite(o.q0)) y[0] = o.q0;
  if (std::isfinite(o.qd0)) y[n] = o.qd0;
  for (size_t k = 0; k < nm && k < o.current0.size(); ++k) y[2 * n + k] = o.current0[k];
  const bool stop_at_q = std::isfinite(o.stop_q);
  const double stop_dir = stop_at_q && o.stop_q < y[0] ? -1.0 : 1.0;

  std::unique_ptr<Evaluator> eval;
  if (o.method == Method::reduced) eval = std::make_unique<ReducedEvaluator>(system, o);
  else if (o.method == Method::full) eval = std::make_unique<FullEvaluator>(system, o, y);
  else eval = std::make_unique<KaneEvaluator>(system, o, y);

  SimulationResult result;
  Table& table = result.table;
  // t, then the coordinates, their rates, their accelerations: q, qd, qdd for one DOF;
  // <driver>.q for each driver, then each <driver>.qd, then each <driver>.qdd for several.
  table.add_column("t", "s");
  const char* const suffix[] = {"", "d", "dd"};
  const char* const rot_units[] = {"rad", "rad/s", "rad/s^2"};
  const char* const lin_units[] = {"m", "m/s", "m/s^2"};
  for (int order = 0; order < 3; ++order)
    for (const planar::Driver& d : m.drivers())
      table.add_column((n == 1 ? std::string("q") : d.name + ".q") + suffix[order],
                       (d.type == planar::DriverType::rotational ? rot_units : lin_units)[order]);
  for (int k : system.motors) table.add_column(m.spec().actuators[k].name + ".current", "A");
  for (const Actuator& a : m.spec().actuators) {
    if (a.joint >= 0) table.add_column(a.name + ".force", "N");
    else table.add_column(a.name + ".torque", "N m");
  }
  for (const auto& a : m.spec().constraint_actions)
    table.add_column(a.name, a.kind == planar::ConstraintAction::pair_moment ? "N m" : "N");
  if (o.method == Method::kane) {
    for (const planar::Joint& j : m.spec().joints) planar::add_reaction_columns(j, table);
    for (const planar::CompoundPin& pin : m.pins()) planar::add_pin_reaction_columns(m, pin, table);
  }
  table.values.reserve(static_cast<size_t>(o.steps + 1) * table.width());

  auto system_fn = [&](const State& x, State& dxdt, double t) { eval->rhs(t, x, dxdt); };
  State dydt(y.size()), row_state(y.size());
  std::vector<double> actions, reactions;
  auto emit = [&](double t, const State& x) {
    eval->rhs(t, x, dydt);
    eval->actions(x, actions);
    eval->reactions(reactions);
    table.values.push_back(t);
    table.values.insert(table.values.end(), x.begin(), x.begin() + 2 * n);
    table.values.insert(table.values.end(), eval->qdd().begin(), eval->qdd().end());
    for (size_t k = 0; k < system.motors.size(); ++k) table.values.push_back(x[2 * n + k]);
    for (double torque : eval->torques()) table.values.push_back(torque);
    for (double a : actions) table.values.push_back(a);
    for (double r : reactions) table.values.push_back(r);
  };

  auto stepper = odeint::make_dense_output(o.abs_tol, o.rel_tol, odeint::runge_kutta_dopri5<State>());
  const double span = o.t_end - o.t0;
  stepper.initialize(y, o.t0, span / std::max(o.steps, 1) / 10.0);
  int next = 0;
  auto out_time = [&](int k) { return o.t0 + span * k / o.steps; };
  // The instant in [a, b] where f changes sign, on the far side of the change (Boost's TOMS 748).
  auto locate = [](double a, double b, auto&& f) {
    const double fa = f(a), fb = f(b);
    if (fa == 0.0 || fa * fb > 0.0) return a;
    if (fb == 0.0) return b;
    std::uintmax_t iterations = 100;
    const auto bracket = boost::math::tools::toms748_solve(f, a, b, fa, fb, boost::math::tools::eps_tolerance<double>(50), iterations);
    return bracket.second;
  };
  eval->lock(y);
  State y_stop(y.size());
  result.qd_min = result.qd_max = y[n];
  bool finished = false;
  while (next <= o.steps && !finished) {
    const auto [ta, tb] = stepper.do_step(system_fn);
    double t_stop = tb;
    y_stop = stepper.current_state();  // same size: no allocation in the loop
    if (stop_at_q && stop_dir * (y_stop[0] - o.stop_q) >= 0.0) {
      // The end of the cycle: q reaches stop_q (bisection on the dense output).
      const double hi = locate(ta, tb, [&](double t) {
        stepper.calc_state(t, row_state);
        return row_state[0] - o.stop_q;
      });
      stepper.calc_state(hi, y_stop);
      if (!eval->left_branch(y_stop)) {
        while (next <= o.steps && out_time(next) < hi) {
          stepper.calc_state(out_time(next), row_state);
          emit(out_time(next++), row_state);
        }
        result.qd_min = std::min(result.qd_min, y_stop[n]), result.qd_max = std::max(result.qd_max, y_stop[n]);
        emit(hi, y_stop);
        result.t_final = hi;
        result.final_state.assign(y_stop.begin(), y_stop.begin() + 2 * n + nm);
        result.actuator_work.assign(y_stop.begin() + 2 * n + nm, y_stop.end());
        finished = true;
        break;
      }
    }
    const bool event = eval->left_branch(y_stop);
    if (event) {
      // The step ran on the locked (smooth) branch: locate on its dense output the first
      // instant where a switching function changes sign, and restart there.
      // The earliest crossing among the functions that left their branch (TOMS 748 on each).
      t_stop = tb;
      for (size_t k = 0; k < eval->branches(); ++k) {
        if (!eval->left_branch(y_stop, static_cast<int>(k))) continue;
        t_stop = std::min(t_stop, locate(ta, tb, [&](double t) {
                            stepper.calc_state(t, row_state);
                            return eval->switching(k, row_state);
                          }));
      }
      stepper.calc_state(t_stop, y_stop);
      ++result.events;
    }
    while (next <= o.steps && out_time(next) <= t_stop + 1e-14 * (1 + std::abs(t_stop))) {
      stepper.calc_state(std::min(out_time(next), t_stop), row_state);
      emit(out_time(next), row_state);
      ++next;
    }
    result.qd_min = std::min(result.qd_min, y_stop[n]), result.qd_max = std::max(result.qd_max, y_stop[n]);
    if (event) {
      if (result.events > 1000000) throw AnalysisError("more than a million switching events: the model chatters (sticking?)");
      eval->lock(y_stop, &stepper.current_state());  // the branch just past the switch
      stepper.initialize(y_stop, t_stop, stepper.current_time_step());
    }
  }
  if (!finished) {
    if (stop_at_q)
      throw AnalysisError(fmt::format("q did not reach {:.9g} by t = {:.9g} s (the machine stalls or runs backwards)", o.stop_q, o.t_end));
    const State& last = stepper.current_state();
    result.t_final = o.t_end;
    result.final_state.assign(last.begin(), last.begin() + 2 * n + nm);
    result.actuator_work.assign(last.begin() + 2 * n + nm, last.end());
  }
  result.rhs_evaluations = static_cast<int>(eval->evaluations);
  return result;
}

namespace {
void require_one_dof(const Mechanism& m, const char* what) {
  if (m.drivers().size() != 1)
    throw InputError(m.spec().where, "drivers",
                     fmt::format("{} needs one degree of freedom, and the mechanism has {}", what, m.drivers().size()),
                     "simulate a given time span (--t-end) instead");
}
}  // namespace

SteadyRegime steady_regime(const DynamicSystem& system, SimulationOptions o, double qd_guess) {
  const Mechanism& m = *system.mechanism;
  require_one_dof(m, "the steady regime");
  const planar::Driver& d = m.drivers()[0];
  if (d.type != planar::DriverType::rotational)
    throw InputError(d.where, "driver '" + d.name + "'", "a steady regime needs a cyclic (rotational) coordinate", "drive a crank");
  const double q0 = std::isfinite(o.q0) ? o.q0 : planar::evaluate(d.law, o.t0).q;
  const size_t nm = system.motors.size(), n = 1 + nm;
  o.q0 = q0;
  o.steps = 1;
  // The cycle map: (qd, currents) at q0 -> the same one turn later.
  auto cycle = [&](const Eigen::VectorXd& x, SimulationResult& r) {
    o.qd0 = x(0);
    o.current0.assign(x.data() + 1, x.data() + n);
    o.stop_q = q0 + 2.0 * M_PI * (x(0) >= 0 ? 1.0 : -1.0);
    o.t_end = o.t0 + 50.0 * 2.0 * M_PI / std::max(std::abs(x(0)), 1e-3);
    r = simulate(system, o);
    Eigen::VectorXd out(n);
    out(0) = r.final_state[1];
    for (size_t k = 0; k < nm; ++k) out(1 + k) = r.final_state[2 + k];
    return out;
  };
  Eigen::VectorXd x = Eigen::VectorXd::Zero(n);
  x(0) = qd_guess;
  SteadyRegime s;
  SimulationResult r;
  for (s.iterations = 1; s.iterations <= 30; ++s.iterations) {
    const Eigen::VectorXd g = cycle(x, r) - x;
    if (g.lpNorm<Eigen::Infinity>() < 1e-10 * (1.0 + x.lpNorm<Eigen::Infinity>())) break;
    Eigen::MatrixXd J(n, n);
    SimulationResult probe;
    for (size_t k = 0; k < n; ++k) {
      Eigen::VectorXd xp = x;
      const double h = 1e-6 * (1.0 + std::abs(x(k)));
      xp(k) += h;
      J.col(k) = (cycle(xp, probe) - xp - g) / h;
    }
    Eigen::VectorXd step = J.partialPivLu().solve(g);
    if (!step.allFinite()) throw AnalysisError("no steady regime found: the cycle map is singular");
    // Damped: the speed changes by at most half of itself per iteration.
    const double limit = 0.5 * std::abs(x(0));
    if (std::abs(step(0)) > limit) step *= limit / std::abs(step(0));
    x -= step;
  }
  cycle(x, r);
  s.qd0 = x(0);
  s.current0.assign(x.data() + 1, x.data() + n);
  s.period = r.t_final - o.t0;
  s.mean_speed = 2.0 * M_PI / s.period * (x(0) >= 0 ? 1.0 : -1.0);
  s.qd_min = r.qd_min, s.qd_max = r.qd_max;
  s.fluctuation = (s.qd_max - s.qd_min) / std::abs(s.mean_speed);
  s.actuator_work = r.actuator_work;
  return s;
}

ActuatorSolution solve_actuator_for_mean_speed(const DynamicSystem& system, SimulationOptions o,
                                               const std::vector<int>& actuators, double mean_speed, double qd_guess) {
  // Newton on (scale, qd0, currents): the cycle repeats and lasts 2 pi / mean speed. Solved
  // jointly, so that machines whose steady speed is neutral (driving and resisting work both
  // independent of the speed, as in pedalling) are handled as well as dissipative ones.
  const Mechanism& m = *system.mechanism;
  require_one_dof(m, "solving an actuator for a mean speed");
  const size_t nm = system.motors.size(), n = 2 + nm;
  const double q0 = std::isfinite(o.q0) ? o.q0 : planar::evaluate(m.drivers()[0].law, o.t0).q;
  o.q0 = q0;
  o.steps = 1;
  o.actuator_scale.assign(m.spec().actuators.size(), 1.0);
  const double direction = mean_speed >= 0 ? 1.0 : -1.0, period = 2.0 * M_PI / std::abs(mean_speed);
  auto residual = [&](const Eigen::VectorXd& z) {
    for (int a : actuators) o.actuator_scale[a] = z(0);
    o.qd0 = z(1);
    o.current0.assign(z.data() + 2, z.data() + n);
    o.stop_q = q0 + direction * 2.0 * M_PI;
    o.t_end = o.t0 + 50.0 * period;
    const SimulationResult r = simulate(system, o);
    Eigen::VectorXd out(n);
    out(0) = (r.t_final - o.t0 - period) / period * std::abs(mean_speed);  // in speed units
    out(1) = r.final_state[1] - z(1);
    for (size_t k = 0; k < nm; ++k) out(2 + k) = r.final_state[2 + k] - z(2 + k);
    return out;
  };
  Eigen::VectorXd z = Eigen::VectorXd::Zero(n);
  z(0) = 1.0;
  z(1) = qd_guess;
  for (int it = 0; it < 40; ++it) {
    const Eigen::VectorXd g = residual(z);
    if (g.lpNorm<Eigen::Infinity>() < 1e-9 * std::abs(mean_speed))
      return {z(0), z(1), std::vector<double>(z.data() + 2, z.data() + n)};
    Eigen::MatrixXd J(n, n);
    for (size_t k = 0; k < n; ++k) {
      Eigen::VectorXd zp = z;
      const double h = 1e-6 * (1.0 + std::abs(z(k)));
      zp(k) += h;
      J.col(k) = (residual(zp) - g) / h;
    }
    Eigen::VectorXd step = J.fullPivLu().solve(g);
    if (!step.allFinite()) throw AnalysisError("no actuator value found for that mean speed: the cycle map is singular");
    const double limit = 0.5 * std::max(std::abs(z(0)), 0.1);
    if (std::abs(step(0)) > limit) step *= limit / std::abs(step(0));
    z -= step;
  }
  throw AnalysisError(fmt::format("no actuator value found for a mean speed of {:.6g} in 40 iterations", mean_speed));
}

double flywheel_for_fluctuation(const Mechanism& m, const SimulationOptions& o, int body, double fluctuation, double qd_guess) {
  auto fluct = [&](double added) {
    planar::MechanismSpec spec = m.spec();
    spec.bodies[body].inertia += added;
    const DynamicSystem system(planar::compile(spec));
    return steady_regime(system, o, qd_guess).fluctuation;
  };
  if (fluct(0.0) <= fluctuation) return 0.0;
  // Bracket, then bisect (the fluctuation falls as the inertia grows).
  double lo = 0.0, hi = 1e-3 * (1.0 + m.bodies()[body].inertia);
  while (fluct(hi) > fluctuation) lo = hi, hi *= 4.0;
  for (int it = 0; it < 40 && hi - lo > 1e-6 * hi; ++it) {
    const double mid = 0.5 * (lo + hi);
    (fluct(mid) > fluctuation ? lo : hi) = mid;
  }
  return hi;
}

}  // namespace linkdyn::dynamics
