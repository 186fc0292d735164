// The rows of a simulation: the arrays sized once (or per chunk), each row from the state and
// its evaluation, the energy balance, and the run's totals.
#include "dynamics/simulation_rows.hpp"

#include <algorithm>

#include "linkdyn/dynamics/reduced.hpp"
#include "linkdyn/planar/kinetostatics.hpp"

namespace linkdyn::dynamics {

using planar::Workspace;

double kinetic_energy(const planar::Mechanism& m, const Workspace& ws) {
  double energy = 0.0;
  for (size_t b = 1; b < m.bodies().size(); ++b) {
    const planar::Body& body = m.bodies()[b];
    energy += 0.5 * (body.mass * ws.body[b].velocity(body.com).squaredNorm() +
                     body.inertia * ws.body[b].omega * ws.body[b].omega);
  }
  return energy;
}

RowWriter::RowWriter(const DynamicSystem& s, const SimulationOptions& o, const StateLayout& layout,
                     SimulationResult& result)
    : sys_(s), m_(*s.mechanism), o_(o), L_(layout), r_(result), ws_(m_), limits_(m_) {
  // The rows: one per output time, and one more for a stop at an output time; or a chunk of
  // about chunk_values values.
  Eigen::Index rows = o.steps + 2;
  if (o.on_rows) {
    allocate(1);
    rows = std::clamp<Eigen::Index>(static_cast<Eigen::Index>(o.chunk_values) / values_per_row(), 1, rows);
  }
  allocate(rows);
  need_reactions_ = o.reactions || !sys_.machine.constraint_actions.empty();
  constant_potential0_.assign(m_.spec().loads.size(), 0.0);
}

void RowWriter::allocate(Eigen::Index rows) {
  const auto n = static_cast<Eigen::Index>(m_.drivers().size());
  const auto actuators = static_cast<Eigen::Index>(sys_.machine.actuators.size());
  const auto loads = static_cast<Eigen::Index>(m_.spec().loads.size());
  r_.t.resize(rows);
  for (Eigen::MatrixXd* per_driver : {&r_.q, &r_.qd, &r_.qdd}) per_driver->resize(rows, n);
  r_.current.resize(rows, static_cast<Eigen::Index>(sys_.motors.size()));
  r_.effort.resize(rows, actuators);
  r_.constraint_action.resize(rows, static_cast<Eigen::Index>(sys_.machine.constraint_actions.size()));
  r_.coulomb_power.resize(rows, static_cast<Eigen::Index>(sys_.coulomb.size()));
  EnergyRows& energy = r_.energy;
  for (Eigen::VectorXd* per_row :
       {&r_.pair_friction_power, &energy.kinetic, &energy.potential, &energy.friction_loss, &energy.residual})
    per_row->resize(rows);
  const Eigen::Index coupled = sys_.elastic.empty() ? 0 : rows;
  energy.elastic_damping_loss.resize(coupled), energy.geometric_work.resize(coupled);
  r_.elastic.resize(sys_.elastic.size());
  for (size_t l = 0; l < sys_.elastic.size(); ++l) {
    const auto nodes = static_cast<Eigen::Index>(sys_.elastic[l].beam.elements) + 1;
    r_.elastic[l].mid_w.resize(rows), r_.elastic[l].node_w.resize(rows, nodes),
        r_.elastic[l].node_u.resize(rows, nodes);
  }
  energy.actuator_work.resize(rows, actuators);
  energy.load_work.resize(rows, loads);
  r_.stuck.resize(rows);
  if (o_.kinematics) planar::allocate_rows(m_, rows, r_.kinematics);
  if (o_.reactions) planar::allocate_rows(m_, rows, r_.reactions);
}

Eigen::Index RowWriter::values_per_row() const {
  Eigen::Index values = 1 + r_.q.cols() + r_.qd.cols() + r_.qdd.cols() + r_.current.cols() + r_.effort.cols() +
                        r_.constraint_action.cols() + r_.coulomb_power.cols() + 5 + r_.energy.actuator_work.cols() +
                        r_.energy.load_work.cols() + 1;
  const planar::KinematicsResult& k = r_.kinematics;
  const planar::PairReactions& p = r_.reactions;
  for (const Eigen::MatrixXd* matrix :
       {&k.q, &k.x0, &k.y0, &k.angle, &k.omega, &k.alpha, &k.x, &k.y, &k.vx, &k.vy, &k.ax, &k.ay, &k.transmission_angle,
        &k.cam, &p.force_x, &p.force_y, &p.moment, &p.normal})
    values += matrix->cols();
  for (const auto* per_pin : {&p.pin_force_x, &p.pin_force_y})
    for (const Eigen::MatrixXd& matrix : *per_pin) values += matrix.cols();
  for (const ElasticRows& link : r_.elastic) values += 1 + link.node_w.cols() + link.node_u.cols();
  if (!sys_.elastic.empty()) values += 2;
  return values;
}

void RowWriter::write(double t, const State& y, const Evaluation& e, const Branches& branches) {
  hold_segments(branches, ws_);
  const bool limit = place(t, y, e);
  const auto& loads = m_.spec().loads;
  const flex::ElasticEnergy elastic = elastic_rows(y);
  if (written_++ == 0) {
    energy0_ = kinetic_energy(m_, ws_) + elastic.kinetic + planar::potential_energy(m_, ws_) + elastic.potential;
    for (size_t l = 0; l < loads.size(); ++l)
      constant_potential0_[l] = planar::constant_load_potential(m_, ws_, loads[l]);
  }
  if (o_.on_rows && row_ == r_.t.size()) {  // a full chunk: handed over, then its room reused
    o_.on_rows(r_);
    row_ = 0;
  }
  const Eigen::Index row = row_++;
  const auto n = static_cast<Eigen::Index>(L_.n);
  r_.t(row) = t;
  for (Eigen::Index i = 0; i < n; ++i) {
    r_.q(row, i) = y[static_cast<size_t>(i)], r_.qd(row, i) = y[L_.n + static_cast<size_t>(i)];
    r_.qdd(row, i) = e.qdd[static_cast<size_t>(i)];
  }
  for (size_t k = 0; k < L_.motors; ++k) r_.current(row, static_cast<Eigen::Index>(k)) = y[L_.current() + k];
  for (size_t k = 0; k < L_.actuators; ++k) r_.effort(row, static_cast<Eigen::Index>(k)) = e.actuator[k];
  const auto& actions = sys_.machine.constraint_actions;
  for (size_t k = 0; k < actions.size(); ++k)
    r_.constraint_action(row, static_cast<Eigen::Index>(k)) = constraint_action(m_, ws_, actions[k]);
  double friction = 0.0, loss = 0.0;
  for (size_t k = 0; k < sys_.coulomb.size(); ++k) {
    const double power = -e.coulomb[k] * e.coulomb_speed[k];
    r_.coulomb_power(row, static_cast<Eigen::Index>(k)) = power;
    if (!sys_.coulomb[k].pair_friction()) continue;
    friction += power;
    loss += y[L_.loss() + k];
  }
  r_.pair_friction_power(row) = friction;
  EnergyRows& energy = r_.energy;
  const double kinetic = kinetic_energy(m_, ws_) + elastic.kinetic,
               potential = planar::potential_energy(m_, ws_) + elastic.potential;
  energy.kinetic(row) = kinetic, energy.potential(row) = potential;
  double input = 0.0;
  for (size_t k = 0; k < L_.actuators; ++k) {
    energy.actuator_work(row, static_cast<Eigen::Index>(k)) = y[L_.actuator_work() + k];
    input += y[L_.actuator_work() + k];
  }
  for (size_t l = 0; l < loads.size(); ++l) {
    const double work = load_work(y, l);
    energy.load_work(row, static_cast<Eigen::Index>(l)) = work;
    if (!planar::conservative(loads[l])) input += work;
  }
  energy.friction_loss(row) = loss;
  if (L_.elastic > 0) {
    const double damping = y[L_.elastic_energy()], geometric = y[L_.elastic_energy() + 1];
    energy.elastic_damping_loss(row) = damping, energy.geometric_work(row) = geometric;
    loss += damping, input += geometric;
    for (size_t l = 0; l < sys_.elastic.size(); ++l) {
      ElasticRows& out = r_.elastic[l];
      const flex::BeamModel& beam = sys_.elastic[l].beam;
      out.mid_w(row) = flex::displacement_at(beam, deflection_[l], 0.5 * beam.length).y();
      for (int node = 0; node <= beam.elements; ++node) {
        const Vec2 at = flex::displacement_at(beam, deflection_[l], beam.node_s[static_cast<size_t>(node)]);
        out.node_w(row, node) = at.y(), out.node_u(row, node) = at.x();
      }
    }
  }
  energy_change_ = kinetic + potential - energy0_;
  residual_ = input - loss - energy_change_;
  energy.residual(row) = residual_;
  r_.stuck(row) = branches.stuck ? 1 : static_cast<int>(std::count(branches.held.begin(), branches.held.end(), 1));
  if (o_.kinematics)
    planar::record_row(m_, ws_, t, limit ? planar::StepStatus::limit : planar::StepStatus::ok, row, r_.kinematics);
  if (o_.reactions) planar::record_row(m_, ws_, row, true, r_.reactions);
}

void RowWriter::finish() {
  const Eigen::Index rows = row_;
  r_.t.conservativeResize(rows);
  for (Eigen::MatrixXd* matrix : {&r_.q, &r_.qd, &r_.qdd, &r_.current, &r_.effort, &r_.constraint_action,
                                  &r_.coulomb_power, &r_.energy.actuator_work, &r_.energy.load_work})
    matrix->conservativeResize(rows, Eigen::NoChange);
  for (Eigen::VectorXd* vector : {&r_.pair_friction_power, &r_.energy.kinetic, &r_.energy.potential,
                                  &r_.energy.friction_loss, &r_.energy.residual})
    vector->conservativeResize(rows);
  r_.stuck.conservativeResize(rows);
  if (!sys_.elastic.empty()) {
    r_.energy.elastic_damping_loss.conservativeResize(rows), r_.energy.geometric_work.conservativeResize(rows);
    for (ElasticRows& link : r_.elastic) {
      link.mid_w.conservativeResize(rows);
      link.node_w.conservativeResize(rows, Eigen::NoChange), link.node_u.conservativeResize(rows, Eigen::NoChange);
    }
  }
  if (o_.kinematics) planar::keep_rows(rows, r_.kinematics);
  if (o_.reactions) planar::keep_rows(rows, r_.reactions);
  if (o_.on_rows) o_.on_rows(r_);
}

void RowWriter::totals(double t, const State& y) {
  r_.t_final = t;
  r_.final_state.assign(y.begin(), y.begin() + static_cast<std::ptrdiff_t>(2 * L_.n + L_.motors));
  r_.actuator_work.assign(y.begin() + static_cast<std::ptrdiff_t>(L_.actuator_work()),
                          y.begin() + static_cast<std::ptrdiff_t>(L_.load_work()));
  r_.load_work.resize(L_.loads);
  for (size_t l = 0; l < L_.loads; ++l) r_.load_work[l] = load_work(y, l);
  r_.friction_loss.assign(y.begin() + static_cast<std::ptrdiff_t>(L_.loss()),
                          y.begin() + static_cast<std::ptrdiff_t>(L_.elastic_energy()));
  r_.energy_residual = residual_;
  if (L_.elastic > 0) r_.elastic_damping_loss = y[L_.elastic_energy()], r_.geometric_work = y[L_.elastic_energy() + 1];
  r_.energy_change = energy_change_;
}

double RowWriter::load_work(const State& y, size_t l) const {
  return y[L_.load_work() + l] + planar::constant_load_potential(m_, ws_, m_.spec().loads[l]) - constant_potential0_[l];
}

flex::ElasticEnergy RowWriter::elastic_rows(const State& y) {
  flex::ElasticEnergy sum;
  deflection_.resize(sys_.elastic.size());
  for (size_t l = 0; l < sys_.elastic.size(); ++l) {
    const flex::ModalLink& link = sys_.elastic[l];
    const flex::ElasticEnergy e =
        flex::elastic_energy(link, flex::frame_state(m_, ws_, link), L_.eta_of(y, l, false), L_.eta_of(y, l, true));
    sum.kinetic += e.kinetic, sum.potential += e.potential;
    flex::nodal_deflections(link, L_.eta_of(y, l, false), deflection_[l]);
  }
  return sum;
}

bool RowWriter::place(double t, const State& y, const Evaluation& e) {
  const size_t n = m_.drivers().size();
  for (size_t i = 0; i < n; ++i) ws_.q[i] = y[i], ws_.qd[i] = y[n + i], ws_.qdd[i] = e.qdd[i];
  const planar::KinematicStatus st = planar::solve_positions(m_, ws_);
  if (!st.ok()) throw AnalysisError(planar::describe(m_, ws_, st));
  const bool limit = planar::near_singular(m_, ws_);
  if (limit) {
    if (!planar::solve_rates_as_limits(m_, ws_, limits_))
      throw AnalysisError(planar::describe(m_, ws_, planar::solve_velocities(m_, ws_)));
  } else {
    const planar::KinematicStatus sv = planar::solve_velocities(m_, ws_);
    if (!sv.ok()) throw AnalysisError(planar::describe(m_, ws_, sv));
    planar::solve_accelerations(m_, ws_);
    limits_.anchor.save(ws_);
  }
  if (need_reactions_) solve_motion_reactions(sys_, L_, ws_, t, y, e);
  return limit;
}

void solve_motion_reactions(const DynamicSystem& sys, const StateLayout& L, planar::Workspace& ws, double t,
                            const State& y, const Evaluation& e) {
  const planar::Mechanism& m = *sys.mechanism;
  // The kinetostatic walk with everything the dynamics applied: its reactions are the
  // motion's (and the drivers' efforts vanish, up to the integrator's accuracy).
  planar::evaluate_loads(m, ws, t);
  const auto& acts = sys.machine.actuators;
  for (auto& w : ws.friction_load) w.setZero();
  for (size_t k = 0; k < sys.coulomb.size(); ++k)
    add_element_effort(m, ws, sys.coulomb[k], e.coulomb[k], ws.friction_load);
  for (size_t k = 0; k < acts.size(); ++k) {
    double smooth = e.actuator[k];
    for (size_t c = 0; c < sys.coulomb.size(); ++c)
      if (sys.coulomb[c].actuator() == static_cast<int>(k)) smooth -= e.coulomb[c];
    add_actuator_effort(m, ws, acts[k], smooth, ws.applied);
  }
  ws.applied[0].setZero();
  ws.friction_load[0].setZero();
  // Coupled elastic links: the loads their deformation adds to their bodies.
  for (size_t l = 0; l < sys.elastic.size(); ++l) {
    const flex::ModalLink& link = sys.elastic[l];
    ws.applied[link.body] += flex::deformation_load(link, ws, flex::frame_state(m, ws, link), L.eta_of(y, l, false),
                                                    L.eta_of(y, l, true), L.eta_acceleration_of(e, l));
  }
  planar::solve_reactions(m, ws);
}

}  // namespace linkdyn::dynamics
