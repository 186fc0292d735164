// The simulation of a machine: the integration with its events (friction reversals, sticking
// and breaking away, conditional torques, motors turning brakes), the rows of results and the
// energy balance.
#include <fmt/format.h>

#include <Eigen/Dense>
#include <algorithm>
#include <cmath>

#include "dynamics/evaluator.hpp"
#include "linkdyn/core/integrator.hpp"
#include "linkdyn/core/interrupt.hpp"
#include "linkdyn/planar/kinetostatics.hpp"
#include "linkdyn/planar/singular.hpp"

namespace linkdyn::dynamics {

using planar::Mechanism;
using planar::Workspace;
using State = Stepper::State;

namespace {

double sign(double x) { return x > 0.0 ? 1.0 : (x < 0.0 ? -1.0 : 0.0); }

/// The layout of the state vector.
struct Layout {
  size_t n = 0, motors = 0, actuators = 0, loads = 0, elements = 0;
  size_t elastic = 0;               ///< the coupled elastic links' modal coordinates
  std::vector<size_t> link_offset;  ///< per coupled link: where its eta starts in the eta block
  std::vector<Eigen::Index> modes;  ///< per coupled link
  size_t current() const { return 2 * n; }
  size_t eta() const { return current() + motors; }
  size_t eta_rate() const { return eta() + elastic; }
  size_t actuator_work() const { return eta_rate() + elastic; }
  size_t load_work() const { return actuator_work() + actuators; }
  size_t loss() const { return load_work() + loads; }
  /// With elastic links: the energy their damping dissipated, then their geometric stiffness's work.
  size_t elastic_energy() const { return loss() + elements; }
  size_t size() const { return elastic_energy() + (elastic > 0 ? 2 : 0); }
  /// Coupled link l's eta (or eta') in a state, or its eta'' in an evaluation.
  Eigen::Map<const Eigen::VectorXd> eta_of(const State& y, size_t l, bool rate) const {
    return {y.data() + (rate ? eta_rate() : eta()) + link_offset[l], modes[l]};
  }
  Eigen::Map<const Eigen::VectorXd> eta_acceleration_of(const Evaluation& e, size_t l) const {
    return {e.elastic_acceleration.data() + link_offset[l], modes[l]};
  }
};

/// The rows of results: the arrays sized once, each row from the state and its evaluation.
class RowWriter {
 public:
  RowWriter(const DynamicSystem& s, const SimulationOptions& o, SimulationResult& result)
      : sys_(s), m_(*s.mechanism), o_(o), r_(result), ws_(m_), limits_(m_) {
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

  /// Room for `rows` rows in the result.
  void allocate(Eigen::Index rows) {
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

  /// The values a row holds, over all arrays (as allocated).
  Eigen::Index values_per_row() const {
    Eigen::Index values = 1 + r_.q.cols() + r_.qd.cols() + r_.qdd.cols() + r_.current.cols() + r_.effort.cols() +
                          r_.constraint_action.cols() + r_.coulomb_power.cols() + 5 + r_.energy.actuator_work.cols() +
                          r_.energy.load_work.cols() + 1;
    const planar::KinematicsResult& k = r_.kinematics;
    const planar::PairReactions& p = r_.reactions;
    for (const Eigen::MatrixXd* matrix :
         {&k.q, &k.x0, &k.y0, &k.angle, &k.omega, &k.alpha, &k.x, &k.y, &k.vx, &k.vy, &k.ax, &k.ay,
          &k.transmission_angle, &p.force_x, &p.force_y, &p.moment, &p.normal})
      values += matrix->cols();
    for (const auto* per_pin : {&p.pin_force_x, &p.pin_force_y})
      for (const Eigen::MatrixXd& matrix : *per_pin) values += matrix.cols();
    for (const ElasticRows& link : r_.elastic) values += 1 + link.node_w.cols() + link.node_u.cols();
    if (!sys_.elastic.empty()) values += 2;
    return values;
  }

  /// The row at (t, y) with its evaluation; the first row sets the energies' origin.
  void write(double t, const State& y, const Evaluation& e, const Layout& L, const Branches& branches) {
    std::copy(branches.segment.begin(), branches.segment.end(), ws_.load_segment.begin());
    const bool limit = place(t, y, e, L);
    const auto& loads = m_.spec().loads;
    const flex::ElasticEnergy elastic = elastic_rows(y, L);
    if (written_++ == 0) {
      energy0_ = kinetic() + elastic.kinetic + planar::potential_energy(m_, ws_) + elastic.potential;
      for (size_t l = 0; l < loads.size(); ++l)
        constant_potential0_[l] = planar::constant_load_potential(m_, ws_, loads[l]);
    }
    if (o_.on_rows && row_ == r_.t.size()) {  // a full chunk: handed over, then its room reused
      o_.on_rows(r_);
      row_ = 0;
    }
    const Eigen::Index row = row_++;
    const auto n = static_cast<Eigen::Index>(L.n);
    r_.t(row) = t;
    for (Eigen::Index i = 0; i < n; ++i) {
      r_.q(row, i) = y[static_cast<size_t>(i)], r_.qd(row, i) = y[L.n + static_cast<size_t>(i)];
      r_.qdd(row, i) = e.qdd[static_cast<size_t>(i)];
    }
    for (size_t k = 0; k < L.motors; ++k) r_.current(row, static_cast<Eigen::Index>(k)) = y[L.current() + k];
    for (size_t k = 0; k < L.actuators; ++k) r_.effort(row, static_cast<Eigen::Index>(k)) = e.actuator[k];
    const auto& actions = sys_.machine.constraint_actions;
    for (size_t k = 0; k < actions.size(); ++k)
      r_.constraint_action(row, static_cast<Eigen::Index>(k)) = constraint_action(m_, ws_, actions[k]);
    double friction = 0.0, loss = 0.0;
    for (size_t k = 0; k < sys_.coulomb.size(); ++k) {
      const double power = -e.coulomb[k] * e.coulomb_speed[k];
      r_.coulomb_power(row, static_cast<Eigen::Index>(k)) = power;
      if (sys_.coulomb[k].kind != CoulombElement::pair_friction) continue;
      friction += power;
      loss += y[L.loss() + k];
    }
    r_.pair_friction_power(row) = friction;
    EnergyRows& energy = r_.energy;
    const double kinetic_energy = kinetic() + elastic.kinetic,
                 potential = planar::potential_energy(m_, ws_) + elastic.potential;
    energy.kinetic(row) = kinetic_energy, energy.potential(row) = potential;
    double input = 0.0;
    for (size_t k = 0; k < L.actuators; ++k) {
      energy.actuator_work(row, static_cast<Eigen::Index>(k)) = y[L.actuator_work() + k];
      input += y[L.actuator_work() + k];
    }
    for (size_t l = 0; l < loads.size(); ++l) {
      const double work = load_work(y, L, l);
      energy.load_work(row, static_cast<Eigen::Index>(l)) = work;
      if (!planar::conservative(loads[l])) input += work;
    }
    energy.friction_loss(row) = loss;
    if (L.elastic > 0) {
      const double damping = y[L.elastic_energy()], geometric = y[L.elastic_energy() + 1];
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
    energy_change_ = kinetic_energy + potential - energy0_;
    residual_ = input - loss - energy_change_;
    energy.residual(row) = residual_;
    r_.stuck(row) = branches.stuck ? 1 : static_cast<int>(std::count(branches.held.begin(), branches.held.end(), 1));
    if (o_.kinematics)
      planar::record_row(m_, ws_, t, limit ? planar::StepStatus::limit : planar::StepStatus::ok, row, r_.kinematics);
    if (o_.reactions) planar::record_row(m_, ws_, row, true, r_.reactions);
  }

  /// Keeps the rows written (with SimulationOptions::on_rows: hands them over as the last chunk).
  void finish() {
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

  /// A load's work: its variable parts' integrated power and its constant parts' change of
  /// potential.
  double load_work(const State& y, const Layout& L, size_t l) const {
    return y[L.load_work() + l] + planar::constant_load_potential(m_, ws_, m_.spec().loads[l]) -
           constant_potential0_[l];
  }
  double residual() const { return residual_; }
  double energy_change() const { return energy_change_; }
  const Workspace& workspace() const { return ws_; }

 private:
  /// The coupled links' deflections at y into deflection_, and the energy they add.
  flex::ElasticEnergy elastic_rows(const State& y, const Layout& L) {
    flex::ElasticEnergy sum;
    deflection_.resize(sys_.elastic.size());
    for (size_t l = 0; l < sys_.elastic.size(); ++l) {
      const flex::ModalLink& link = sys_.elastic[l];
      const flex::ElasticEnergy e =
          flex::elastic_energy(link, flex::frame_state(m_, ws_, link), L.eta_of(y, l, false), L.eta_of(y, l, true));
      sum.kinetic += e.kinetic, sum.potential += e.potential;
      flex::nodal_deflections(link, L.eta_of(y, l, false), deflection_[l]);
    }
    return sum;
  }

  double kinetic() const {
    double energy = 0.0;
    for (size_t b = 1; b < m_.bodies().size(); ++b) {
      const planar::Body& body = m_.bodies()[b];
      energy += 0.5 * (body.mass * ws_.body[b].velocity(body.com).squaredNorm() +
                       body.inertia * ws_.body[b].omega * ws_.body[b].omega);
    }
    return energy;
  }

  /// The mechanism at the row's state: positions tracked from the last row, rates (limits at a
  /// singular position: true), accelerations from the evaluation, and the reactions of the
  /// loads, actuators and friction of the evaluation when asked.
  bool place(double t, const State& y, const Evaluation& e, const Layout& L) {
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
    if (!need_reactions_) return limit;
    // The kinetostatic walk with everything the dynamics applied: its reactions are the
    // motion's (and the drivers' efforts vanish, up to the integrator's accuracy).
    planar::evaluate_loads(m_, ws_, t);
    const auto& acts = sys_.machine.actuators;
    for (auto& w : ws_.friction_load) w.setZero();
    for (size_t k = 0; k < sys_.coulomb.size(); ++k)
      add_element_effort(m_, ws_, sys_.coulomb[k], e.coulomb[k], ws_.friction_load);
    for (size_t k = 0; k < acts.size(); ++k) {
      double smooth = e.actuator[k];
      for (size_t c = 0; c < sys_.coulomb.size(); ++c)
        if (sys_.coulomb[c].actuator == static_cast<int>(k)) smooth -= e.coulomb[c];
      add_actuator_effort(m_, ws_, acts[k], smooth, ws_.applied);
    }
    ws_.applied[0].setZero();
    ws_.friction_load[0].setZero();
    // Coupled elastic links: the loads their deformation adds to their bodies.
    for (size_t l = 0; l < sys_.elastic.size(); ++l) {
      const flex::ModalLink& link = sys_.elastic[l];
      ws_.applied[link.body] +=
          flex::deformation_load(link, ws_, flex::frame_state(m_, ws_, link), L.eta_of(y, l, false),
                                 L.eta_of(y, l, true), L.eta_acceleration_of(e, l));
    }
    planar::solve_reactions(m_, ws_);
    return limit;
  }

  const DynamicSystem& sys_;
  const Mechanism& m_;
  const SimulationOptions& o_;
  SimulationResult& r_;
  Workspace ws_;
  planar::SingularLimit limits_;
  std::vector<double> constant_potential0_;
  Eigen::Index row_ = 0, written_ = 0;
  std::vector<Eigen::VectorXd> deflection_;  ///< per coupled link: its nodal deflections (free dofs)
  bool need_reactions_ = false;
  double energy0_ = 0.0, residual_ = 0.0, energy_change_ = 0.0;
};

/// The switching functions of the locked branches and what to do when one changes sign.
class Switches {
 public:
  Switches(const DynamicSystem& s, const SimulationOptions& o, Evaluator& eval, const Layout& L)
      : sys_(s), m_(*s.mechanism), eval_(eval), L_(L) {
    const size_t na = sys_.machine.actuators.size(), ne = s.coulomb.size();
    speeds_.coulomb.assign(ne, 0.0), speeds_.when.assign(na, 0.0), speeds_.actuator.assign(na, 0.0);
    speeds_.table.assign(m_.spec().loads.size(), NAN);
    branches.coulomb.assign(ne, 0.0), branches.when.assign(na, 0.0), branches.motor.assign(na, 0.0);
    branches.segment.assign(m_.spec().loads.size(), planar::no_segment);
    branches.normal.assign(ne, {0.0, 0.0});
    // Pair friction switched off: its elements act nowhere and switch nothing.
    for (const CoulombElement& e : s.coulomb) {
      const bool active = o.friction || e.kind != CoulombElement::pair_friction;
      active_.push_back(active);
      // A prismatic pair's normal loads change sign: |N| has a kink there.
      int normals = 0;
      if (active && e.kind == CoulombElement::pair_friction) {
        const planar::Bearing& b = m_.bearings()[e.bearing];
        if (b.kind == planar::Bearing::prismatic) normals = m_.joints()[b.joint].slider_length > 0.0 ? 2 : 1;
      }
      normals_.push_back(normals);
      any_normals_ = any_normals_ || normals > 0;
    }
    one_dof_stick_ = L.n == 1 && std::find(active_.begin(), active_.end(), true) != active_.end();
    // Several DOF: each Coulomb element may be held at rest on its own while the others move.
    element_stick_ = L.n > 1 && std::find(active_.begin(), active_.end(), true) != active_.end();
    if (element_stick_) branches.held.assign(ne, 0);
    if (any_normals_ || element_stick_) {
      probe_.qdd.assign(L.n, 0.0);
      probe_.actuator.assign(na, 0.0), probe_.actuator_speed.assign(na, 0.0);
      probe_.coulomb.assign(ne, 0.0), probe_.coulomb_speed.assign(ne, 0.0);
      probe_.current_rate.assign(L.motors, 0.0), probe_.load_power.assign(m_.spec().loads.size(), 0.0);
      probe_.normal.assign(ne, {0.0, 0.0});
      probe_.margin.assign(ne, 0.0);
      probe_.elastic_acceleration.assign(L.elastic, 0.0);
    }
  }
  Branches branches;

  /// The functions' values at (t, y): Coulomb speeds, condition speeds, motor powers, then
  /// (one DOF with Coulomb elements) the machine's speed, or while stuck its break-away margin.
  /// With one DOF and Coulomb elements the speeds are taken per unit speed in the machine's
  /// direction: their zeros as the machine stops belong to the machine's own function.
  void values(double t, const State& y, std::vector<double>& g) {
    g.assign(count(), 0.0);
    double factor = 1.0;
    if (one_dof_stick_) {
      unit_ = y;
      unit_[1] = 1.0;
      eval_.speeds(t, unit_.data(), speeds_);
      factor = machine_sign_;
    } else {
      eval_.speeds(t, y.data(), speeds_);
    }
    size_t c = 0;
    // A held element's function is its margin (from an evaluation at the state, below).
    const bool any_held = std::find(branches.held.begin(), branches.held.end(), 1) != branches.held.end();
    for (size_t k = 0; k < speeds_.coulomb.size(); ++k)
      g[c++] = branches.stuck || !active_[k] || branches.holds(k) ? 0.0 : factor * speeds_.coulomb[k];
    for (double v : speeds_.when) g[c++] = branches.stuck ? 0.0 : factor * v;
    const auto& acts = sys_.machine.actuators;
    for (size_t k = 0; k < acts.size(); ++k) {
      const bool brake_matters = acts[k].is<DcMotor>() && acts[k].as<DcMotor>().efficiency < 1.0;
      g[c++] = brake_matters && !branches.stuck ? y[L_.current() + motor_index(k)] * factor * speeds_.actuator[k] : 0.0;
    }
    // A table's kink: the coordinate leaves the segment held, (x - x_k)(x_k+1 - x) < 0.
    const auto& loads = m_.spec().loads;
    for (size_t l = 0; l < loads.size(); ++l) {
      const int k = branches.segment[l];
      if (!loads[l].table || k == planar::no_segment) {
        g[c++] = 0.0;
        continue;
      }
      const auto [a, b] = planar::table_segment_ends(loads[l], k);
      g[c++] = (speeds_.table[l] - a) * (b - speeds_.table[l]) / ((b - a) * (b - a));
    }
    // A prismatic pair's normal loads and the held elements' margins, from an evaluation at the
    // state.
    if ((any_normals_ || any_held) && !branches.stuck) eval_.evaluate(t, y.data(), branches, probe_);
    for (size_t k = 0; k < sys_.coulomb.size(); ++k)
      if (branches.holds(k)) g[k] = probe_.margin[k];
    for (size_t k = 0; k < normals_.size(); ++k)
      for (int i = 0; i < 2; ++i) g[c++] = (i < normals_[k] && !branches.stuck) ? probe_.normal[k][i] : 0.0;
    if (one_dof_stick_) g[c++] = branches.stuck ? margin(t, y) : y[1];
  }
  size_t count() const {
    return sys_.coulomb.size() + 2 * sys_.machine.actuators.size() + m_.spec().loads.size() + 2 * sys_.coulomb.size() +
           (one_dof_stick_ ? 1 : 0);
  }
  /// The locked sign of function k (0: none yet).
  double locked(size_t k) const {
    const size_t ne = sys_.coulomb.size(), na = sys_.machine.actuators.size();
    if (k < ne) return branches.stuck ? 0.0 : branches.holds(k) ? 1.0 : branches.coulomb[k];
    if (k < ne + na) return branches.when[k - ne];
    if (k < ne + 2 * na) return branches.motor[k - ne - na];
    if (k < ne + 2 * na + nl()) return branches.segment[k - ne - 2 * na] != planar::no_segment ? 1.0 : 0.0;
    if (k < ne + 2 * na + nl() + 2 * ne) {
      const size_t i = k - ne - 2 * na - nl();
      return branches.stuck ? 0.0 : branches.normal[i / 2][i % 2];
    }
    return branches.stuck ? -1.0 : machine_sign_;
  }
  /// Locks every function (or only those without a sign yet) to its sign at (t, y); a function
  /// at zero keeps its branch. After the event of function `event`, a table whose coordinate
  /// left its segment takes the neighbouring segment on that side (at the node itself, the
  /// segment that holds x may be the one just left).
  void lock(double t, const State& y, bool only_unlocked = false, int event = -1) {
    // The machine's direction first: the other functions are taken along it.
    if (one_dof_stick_ && !branches.stuck && y[1] != 0.0 && !(only_unlocked && machine_sign_ != 0.0))
      machine_sign_ = sign(y[1]);
    std::vector<double>& g = scratch_;
    values(t, y, g);
    const size_t ne = sys_.coulomb.size(), na = sys_.machine.actuators.size();
    const auto& loads = m_.spec().loads;
    for (size_t l = 0; l < loads.size(); ++l) {  // the segments that hold the tables' coordinates
      if (!loads[l].table || !std::isfinite(speeds_.table[l])) continue;
      int& segment = branches.segment[l];
      if (event == static_cast<int>(ne + 2 * na + l) && segment != planar::no_segment) {
        const auto [a, b] = planar::table_segment_ends(loads[l], segment);
        segment += std::abs(speeds_.table[l] - a) < std::abs(speeds_.table[l] - b) ? -1 : 1;
        // Past either end of a non-periodic table: none held, so the next evaluation beyond it
        // stops the run with the table's error (InputError).
        if (!loads[l].table->periodic && (segment < 0 || segment > static_cast<int>(loads[l].table->x.size()) - 2))
          segment = planar::no_segment;
      } else if (!only_unlocked || segment == planar::no_segment) {
        segment = planar::table_segment(loads[l], speeds_.table[l]);
      }
    }
    for (size_t k = 0; k < g.size(); ++k) {
      double s = sign(g[k]);
      // A normal load's own event: it has changed sign (at the crossing its value is ~0 either way).
      const bool normal_event =
          static_cast<int>(k) == event && k >= ne + 2 * na + loads.size() && k < ne + 2 * na + loads.size() + 2 * ne;
      if (normal_event && locked(k) != 0.0) s = -locked(k);
      if (s == 0.0 || (only_unlocked && locked(k) != 0.0)) continue;
      if (k < ne) {
        // (an element's own event in a machine of several DOF was settled by element_event)
        if (!branches.stuck && !branches.holds(k) && !(element_stick_ && static_cast<int>(k) == event))
          branches.coulomb[k] = s;
      } else if (k < ne + na)
        branches.when[k - ne] = s;
      else if (k < ne + 2 * na)
        branches.motor[k - ne - na] = s;
      else if (k < ne + 2 * na + loads.size())
        continue;
      else if (k < ne + 2 * na + loads.size() + 2 * ne) {
        const size_t i = k - ne - 2 * na - loads.size();
        if (!branches.stuck) branches.normal[i / 2][i % 2] = s;
      } else if (!branches.stuck)
        machine_sign_ = s;
    }
  }
  /// A one-DOF machine at rest at (t, y): it sticks if static friction holds it, else it starts
  /// in the drive's direction. Sets y's speed to 0. True if it sticks.
  bool stop_or_start(double t, State& y) {
    y[1] = 0.0;
    double drive = 0.0, capacity = 0.0;
    eval_.holding(t, y.data(), branches, drive, capacity, coefficients_);
    if (std::abs(drive) <= capacity) {
      branches.stuck = true;
      std::fill(branches.when.begin(), branches.when.end(), 0.0);
      std::fill(branches.motor.begin(), branches.motor.end(), 0.0);
      return true;
    }
    start(drive);
    return false;
  }
  /// Leaves the stuck mode in the drive's direction.
  void break_away(double t, State& y) {
    double drive = 0.0, capacity = 0.0;
    y[1] = 0.0;
    eval_.holding(t, y.data(), branches, drive, capacity, coefficients_);
    start(drive);
  }
  bool one_dof_stick() const { return one_dof_stick_; }
  /// Several DOF at the start: each element at rest is held if static friction can hold it.
  void hold_at_start(double t, State& y) {
    if (!element_stick_) return;
    eval_.speeds(t, y.data(), speeds_);
    std::vector<double>& at_rest = scratch_;
    at_rest = speeds_.coulomb;
    for (size_t k = 0; k < at_rest.size(); ++k)
      if (active_[k] && at_rest[k] == 0.0) element_event(t, y, k);
  }
  /// Several DOF: element k's function changed sign at (t, y). A held element slips, opposite
  /// to the effort that held it; a sliding one that stops is held if its static capacity holds
  /// it (its speed set to 0 exactly, the coordinates' rates projected), else it reverses.
  /// False when element k is not such an element (the other branches are locked as usual).
  bool element_event(double t, State& y, size_t k) {
    if (!element_stick_ || k >= sys_.coulomb.size() || !active_[k]) return false;
    if (branches.holds(k)) {
      eval_.evaluate(t, y.data(), branches, probe_);
      branches.held[k] = 0;
      branches.coulomb[k] = -sign(probe_.coulomb[k]);
      return true;
    }
    // The held elements' speeds (k's too) per unit rate of each coordinate, C, and the rates
    // projected onto C qd = 0. Holding k is consistent only if that projection barely changes
    // them: where k's speed is zero because the geometry makes it stationary (its coefficients
    // vanish, or with the others held it would stop the machine) it does not stop, it turns.
    const size_t n = L_.n;
    branches.held[k] = 1;
    std::vector<size_t> rows;
    for (size_t j = 0; j < sys_.coulomb.size(); ++j)
      if (branches.holds(j)) rows.push_back(j);
    Eigen::MatrixXd C(static_cast<Eigen::Index>(rows.size()), static_cast<Eigen::Index>(n));
    unit_ = y;
    for (size_t i = 0; i < n; ++i) {
      for (size_t j = 0; j < n; ++j) unit_[n + j] = i == j ? 1.0 : 0.0;
      eval_.speeds(t, unit_.data(), speeds_);
      for (size_t r = 0; r < rows.size(); ++r)
        C(static_cast<Eigen::Index>(r), static_cast<Eigen::Index>(i)) = speeds_.coulomb[rows[r]];
    }
    const Eigen::Map<const Eigen::VectorXd> qd(y.data() + n, static_cast<Eigen::Index>(n));
    const Eigen::VectorXd correction = C.completeOrthogonalDecomposition().solve(C * qd);
    bool holds = correction.norm() <= 1e-6 * qd.norm() + 1e-300;
    if (holds) {
      held_state_ = y;
      for (size_t i = 0; i < n; ++i) held_state_[n + i] -= correction(static_cast<Eigen::Index>(i));
      try {
        eval_.evaluate(t, held_state_.data(), branches, probe_);
        holds = probe_.margin[k] >= 0.0;
      } catch (const AnalysisError&) {
        holds = false;  // its holding effort does not settle: it cannot be held
      }
    }
    if (holds) {
      y = held_state_;
      return true;
    }
    branches.held[k] = 0;
    // It slips (or turns) in the direction the drive takes it: the probe step decides.
    branches.coulomb[k] = 0.0;
    return true;
  }
  size_t machine_function() const { return count() - 1; }

 private:
  void start(double drive) {
    // Every friction opposes the motion that starts; the conditions and motors' directions are
    // found by the next (probe) step.
    branches.stuck = false;
    const double d = drive >= 0.0 ? 1.0 : -1.0;
    machine_sign_ = d;
    for (size_t k = 0; k < sys_.coulomb.size(); ++k) branches.coulomb[k] = sign(coefficients_[k]) * d;
    std::fill(branches.when.begin(), branches.when.end(), 0.0);
    std::fill(branches.motor.begin(), branches.motor.end(), 0.0);
  }
  double margin(double t, const State& y) {
    double drive = 0.0, capacity = 0.0;
    eval_.holding(t, y.data(), branches, drive, capacity, coefficients_);
    return std::abs(drive) - capacity;
  }
  size_t nl() const { return m_.spec().loads.size(); }
  size_t motor_index(size_t actuator) const {
    return static_cast<size_t>(std::find(sys_.motors.begin(), sys_.motors.end(), static_cast<int>(actuator)) -
                               sys_.motors.begin());
  }
  const DynamicSystem& sys_;
  const Mechanism& m_;
  Evaluator& eval_;
  const Layout& L_;
  Speeds speeds_;
  std::vector<double> scratch_, coefficients_;
  State unit_;
  std::vector<bool> active_;
  std::vector<int> normals_;  ///< per Coulomb element: how many normal loads switch (0, 1, 2)
  bool any_normals_ = false;
  Evaluation probe_;
  double machine_sign_ = 0.0;
  bool one_dof_stick_ = false;
  bool element_stick_ = false;
  State held_state_;
};

std::string where_text(const Mechanism& m, double t, const State& y) {
  std::string out = fmt::format("t = {:.9g} s", t);
  for (size_t d = 0; d < m.drivers().size(); ++d) {
    const planar::Driver& drv = m.drivers()[d];
    out += drv.type == planar::DriverType::rotational
               ? fmt::format(", {} = {:.6g} rad ({:.4f} deg)", drv.name, y[d], y[d] * 180.0 / M_PI)
               : fmt::format(", {} = {:.6g} m", drv.name, y[d]);
  }
  return out;
}

}  // namespace

SimulationResult simulate(const DynamicSystem& system, const SimulationOptions& o) {
  const Mechanism& m = *system.mechanism;
  Layout L;
  L.n = m.drivers().size(), L.motors = system.motors.size(), L.actuators = system.machine.actuators.size();
  L.loads = m.spec().loads.size(), L.elements = system.coulomb.size();
  for (const flex::ModalLink& link : system.elastic) {
    L.link_offset.push_back(L.elastic);
    L.modes.push_back(link.modes);
    L.elastic += static_cast<size_t>(link.modes);
  }
  if (L.elastic > 0 && o.method == Method::reduced)
    throw InputError(system.elastic.front().where, "elastic link '" + system.elastic.front().name + "'",
                     "is coupled with the motion, which the reduced (one-coordinate) method cannot integrate",
                     "use --method kane or full, or treat the links as rigid (--rigid-links)");
  if (!(o.t_end > o.t0) || o.steps < 1)
    throw InputError(m.spec().where, "simulation",
                     fmt::format("the time span [{:g}, {:g}] s with {} rows is empty", o.t0, o.t_end, o.steps),
                     "give an end time after the start and at least one step");
  if (!(o.rel_tol > 0.0) || !(o.abs_tol > 0.0))
    throw InputError(m.spec().where, "simulation",
                     fmt::format("the tolerances rtol = {:g}, atol = {:g} are not positive", o.rel_tol, o.abs_tol),
                     "give positive tolerances (e.g. rtol 1e-10, atol 1e-12)");
  if (!(o.table_tolerance >= 0.0) || o.table_points < 0 || o.table_points > 10000000)
    throw InputError(m.spec().where, "simulation",
                     fmt::format("the reduced table's tolerance {:g} or its {} points are out of range",
                                 o.table_tolerance, o.table_points),
                     "give a tolerance >= 0 and 0 to 10^7 points (0: refined to the tolerance)");
  if (o.current0.size() > L.motors || (!o.actuator_scale.empty() && o.actuator_scale.size() != L.actuators))
    throw InputError(m.spec().where, "simulation",
                     fmt::format("{} initial currents for {} DC motors, {} actuator scales for {} actuators",
                                 o.current0.size(), L.motors, o.actuator_scale.size(), L.actuators),
                     "give at most one current per motor and one scale per actuator (or none)");
  // Initial state: q0 / qd0 override the first coordinate; the others from the drivers' laws.
  State y(L.size(), 0.0);
  for (size_t i = 0; i < L.n; ++i) {
    const planar::MotionSample start = planar::evaluate(m.drivers()[i].law, o.t0);
    y[i] = start.q, y[L.n + i] = start.qd;
  }
  if (std::isfinite(o.q0)) y[0] = o.q0;
  if (std::isfinite(o.qd0)) y[L.n] = o.qd0;
  for (size_t k = 0; k < L.motors && k < o.current0.size(); ++k) y[L.current() + k] = o.current0[k];

  SimulationResult result;
  std::unique_ptr<Evaluator> eval = o.method == Method::reduced ? make_reduced_evaluator(system, o)
                                    : o.method == Method::full  ? make_full_evaluator(system, o, y.data())
                                                                : make_kane_evaluator(system, o, y.data());
  eval->report(result);
  result.friction = o.friction && !m.bearings().empty();
  RowWriter rows(system, o, result);
  Switches switches(system, o, *eval, L);

  Evaluation e;
  e.qdd.assign(L.n, 0.0);
  e.actuator.assign(L.actuators, 0.0), e.actuator_speed.assign(L.actuators, 0.0);
  e.coulomb.assign(L.elements, 0.0), e.coulomb_speed.assign(L.elements, 0.0);
  e.current_rate.assign(L.motors, 0.0), e.load_power.assign(L.loads, 0.0);
  e.normal.assign(L.elements, {0.0, 0.0});
  e.margin.assign(L.elements, 0.0);
  e.elastic_acceleration.assign(L.elastic, 0.0);
  const Stepper::System f = [&](const State& x, State& dx, double t) {
    eval->evaluate(t, x.data(), switches.branches, e);
    for (size_t i = 0; i < L.n; ++i) dx[i] = switches.branches.stuck ? 0.0 : x[L.n + i], dx[L.n + i] = e.qdd[i];
    for (size_t k = 0; k < L.motors; ++k) dx[L.current() + k] = e.current_rate[k];
    for (size_t k = 0; k < L.actuators; ++k) dx[L.actuator_work() + k] = e.actuator[k] * e.actuator_speed[k];
    for (size_t l = 0; l < L.loads; ++l) dx[L.load_work() + l] = e.load_power[l];
    for (size_t k = 0; k < L.elements; ++k) dx[L.loss() + k] = -e.coulomb[k] * e.coulomb_speed[k];
    for (size_t k = 0; k < L.elastic; ++k)
      dx[L.eta() + k] = x[L.eta_rate() + k], dx[L.eta_rate() + k] = e.elastic_acceleration[k];
    if (L.elastic > 0) dx[L.elastic_energy()] = e.elastic_damping_power, dx[L.elastic_energy() + 1] = e.geometric_power;
  };
  const bool stop_at_q = std::isfinite(o.stop_q);
  const double stop_dir = stop_at_q && o.stop_q < y[0] ? -1.0 : 1.0;
  const double span = o.t_end - o.t0;
  auto out_time = [&](int k) { return k == o.steps ? o.t_end : o.t0 + span * k / o.steps; };
  State dy(y.size()), row_state(y.size()), y_event(y.size());
  std::vector<double> g_end, g_probe;
  auto emit = [&](double t, const State& x) {
    f(x, dy, t);
    rows.write(t, x, e, L, switches.branches);
  };
  auto finish = [&](double t, const State& x) {
    result.t_final = t;
    result.final_state.assign(x.begin(), x.begin() + static_cast<std::ptrdiff_t>(2 * L.n + L.motors));
    result.actuator_work.assign(x.begin() + static_cast<std::ptrdiff_t>(L.actuator_work()),
                                x.begin() + static_cast<std::ptrdiff_t>(L.load_work()));
    result.load_work.resize(L.loads);
    for (size_t l = 0; l < L.loads; ++l) result.load_work[l] = rows.load_work(x, L, l);
    result.friction_loss.assign(x.begin() + static_cast<std::ptrdiff_t>(L.loss()),
                                x.begin() + static_cast<std::ptrdiff_t>(L.elastic_energy()));
    result.energy_residual = rows.residual();
    if (L.elastic > 0)
      result.elastic_damping_loss = x[L.elastic_energy()], result.geometric_work = x[L.elastic_energy() + 1];
    result.energy_change = rows.energy_change();
  };

  // Steps no longer than the rows' spacing: a switching function that changes sign twice within
  // a step would go unseen.
  std::unique_ptr<Stepper> stepper = Stepper::make(o.integrator, o.abs_tol, o.rel_tol, span / o.steps);
  const long step_budget = o.max_integrator_steps > 0 ? o.max_integrator_steps : 100'000 + 100L * o.steps;
  // The functions whose sign changes are located, made once: function `located`, its locked
  // sign taken as positive, and the distance to the stop at q.
  size_t located = 0;
  double located_sign = 1.0;
  const std::function<double(double)> switching_function = [&](double s) {
    stepper->state_at(f, s, row_state);
    switches.values(s, row_state, g_probe);
    return g_probe[located] * located_sign;
  };
  const std::function<double(double)> distance_to_stop = [&](double s) {
    stepper->state_at(f, s, row_state);
    return row_state[0] - o.stop_q;
  };
  double t = o.t0;
  int next = 0;
  result.qd_min = result.qd_max = y[L.n];
  double speed = 0.0;
  for (size_t i = 0; i < L.n; ++i) speed = std::max(speed, std::abs(y[L.n + i]));
  if (const double needed = 16.0 * speed * span / (2.0 * M_PI); needed > static_cast<double>(step_budget))
    throw InputError({}, "the start",
                     fmt::format("a speed of {:.3g} over {:.3g} s needs about {:.3g} integrator steps (16 per turn), "
                                 "more than the budget of {}",
                                 speed, span, needed, step_budget),
                     "check the speeds and the time span, or raise --max-integrator-steps");
  try {
    // The branches at the start; a one-DOF machine starting at rest sticks or starts.
    switches.lock(t, y);
    if (switches.one_dof_stick() && y[1] == 0.0) switches.stop_or_start(t, y);
    switches.hold_at_start(t, y);
    // A first step that turns the coordinates by about 1e-3 (the controller adapts it).
    stepper->initialize(y, t, std::min(span / o.steps / 10.0, 1e-3 / (1.0 + speed)));
    emit(t, y);
    ++next;
    bool finished = false;
    int probes = 0;
    State start(y.size());
    while (!finished && next <= o.steps) {
      throw_if_stop_requested();
      std::copy(stepper->state().begin(), stepper->state().end(), start.begin());  // to redo a probe step (below)
      const auto [ta, tb] = stepper->step(f);
      if (++result.steps > step_budget)
        throw AnalysisError(fmt::format(
            "more than {} integrator steps by t = {:.9g} s: the motion needs steps far shorter than expected (a stiff "
            "spring or motor, or friction that switches back and forth); lower the stiffness, loosen --rtol, or raise "
            "--max-integrator-steps",
            step_budget, tb));
      // Functions that had no sign yet (at rest, or a speed exactly zero) take the sign the
      // step found, and the step is redone on that branch.
      switches.values(tb, stepper->state(), g_end);
      bool unlocked = false;
      for (size_t k = 0; k < g_end.size(); ++k)
        if (switches.locked(k) == 0.0 && g_end[k] != 0.0 && !(switches.branches.stuck && k < L.elements))
          unlocked = true;
      if (unlocked && probes++ < 100) {
        switches.lock(tb, stepper->state(), true);
        stepper->initialize(start, ta, tb - ta);
        continue;
      }
      probes = 0;
      // The first function to leave its branch in this step, located on the step's states.
      double t_event = tb;
      int which = -1;
      for (size_t k = 0; k < g_end.size(); ++k) {
        const double locked = switches.locked(k);
        if (locked == 0.0 || sign(g_end[k]) == 0.0 || sign(g_end[k]) == locked) continue;
        located = k, located_sign = locked;
        const double tk = locate_sign_change(ta, tb, switching_function);
        if (tk <= t_event) t_event = tk, which = static_cast<int>(k);
      }
      // The stop at q, on the same footing.
      bool stop_here = false;
      if (stop_at_q && stop_dir * (stepper->state()[0] - o.stop_q) >= 0.0) {
        const double ts = locate_sign_change(ta, tb, distance_to_stop);
        if (ts <= t_event) t_event = ts, which = -1, stop_here = true;
      }
      while (next <= o.steps && out_time(next) <= t_event + 1e-14 * (1.0 + std::abs(t_event))) {
        const double tr = std::min(out_time(next), t_event);
        stepper->state_at(f, tr, row_state);
        emit(out_time(next), row_state);
        ++next;
      }
      stepper->state_at(f, t_event, y_event);
      eval->check(y_event.data());
      for (size_t l = 0; l < system.elastic.size(); ++l)
        if (const std::string problem = flex::deflection_problem(system.elastic[l], L.eta_of(y_event, l, false));
            !problem.empty())
          throw AnalysisError(problem);
      result.qd_min = std::min(result.qd_min, y_event[L.n]), result.qd_max = std::max(result.qd_max, y_event[L.n]);
      t = t_event;
      if (o.progress) o.progress(t);
      if (stop_here) {
        emit(t, y_event);
        finish(t, y_event);
        finished = true;
        break;
      }
      if (which < 0) continue;
      // An event: a friction direction reverses, a machine stops (and sticks or turns back),
      // a stuck machine breaks away, a condition or a motor's power changes sign.
      if (++result.events > o.max_events)
        throw AnalysisError(
            fmt::format("more than {} switching events by t = {:.9g} s: the model chatters (an element that "
                        "should stick in a machine of several DOF?)",
                        o.max_events, t));
      double restart_step = stepper->step_size();
      if (switches.one_dof_stick() && static_cast<size_t>(which) == switches.machine_function()) {
        if (switches.branches.stuck)
          switches.break_away(t, y_event);
        else
          switches.stop_or_start(t, y_event);
        restart_step = std::min(restart_step, span / o.steps / 10.0);  // the motion changes its kind
      } else {
        switches.element_event(t, y_event, static_cast<size_t>(which));
        switches.lock(t, y_event, false, which);
      }
      stepper->initialize(y_event, t, restart_step);
    }
    if (!finished) {
      if (stop_at_q)
        throw AnalysisError(fmt::format("q did not reach {:.9g} by t = {:.9g} s (the machine stalls or runs backwards)",
                                        o.stop_q, o.t_end));
      stepper->state_at(f, o.t_end, row_state);
      finish(o.t_end, row_state);
    }
  } catch (const AnalysisError& error) {
    result.stopped = true;
    result.stop_message =
        fmt::format("the simulation stops at {}: {}", where_text(m, t, stepper->state()), error.what());
    finish(t, stepper->state());
  } catch (const Interrupted&) {
    result.stopped = true;
    result.stop_exit_code = Interrupted::exit_code;
    result.stop_message = fmt::format("the simulation stopped at {}", where_text(m, t, stepper->state()));
    finish(t, stepper->state());
  } catch (const InputError& error) {
    result.stopped = true;
    result.stop_exit_code = InputError::exit_code;
    result.stop_message =
        fmt::format("the simulation stops at {}: {}", where_text(m, t, stepper->state()), error.what());
    finish(t, stepper->state());
  }
  rows.finish();
  result.rhs_evaluations = static_cast<int>(eval->evaluations);
  return result;
}

void throw_if_stopped(const SimulationResult& r) {
  if (!r.stopped) return;
  if (r.stop_exit_code == InputError::exit_code) throw InputError({}, "", r.stop_message, "");
  if (r.stop_exit_code == Interrupted::exit_code) throw Interrupted(r.stop_message);
  throw AnalysisError(r.stop_message);
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
    e += 0.5 *
         (body.mass * ws.body[b].velocity(body.com).squaredNorm() + body.inertia * ws.body[b].omega * ws.body[b].omega);
  }
  return e;
}

}  // namespace linkdyn::dynamics
