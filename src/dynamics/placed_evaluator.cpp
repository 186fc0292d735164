// The full and Kane methods' common part: placing the mechanism at a state, loads, actuators,
// pair friction by successive approximations [001 Eqs. 12-13], a machine held at rest, and
// the limits at singular positions.
#include "dynamics/placed_evaluator.hpp"

#include <fmt/format.h>

#include <cmath>

#include "linkdyn/planar/constraints.hpp"
#include "linkdyn/planar/kinetostatics.hpp"

namespace linkdyn::dynamics {

using planar::Workspace;

PlacedEvaluator::PlacedEvaluator(const DynamicSystem& s, const SimulationOptions& o, const double* y0,
                                 int elastic_columns)
    : Evaluator(s, o), coupling_(s, elastic_columns, friction_tolerance_), ws_(m_), limits_(m_) {
  const size_t na = sys_.machine.actuators.size(), ne = sys_.coulomb.size(), nm = sys_.motors.size(),
               nl = m_.spec().loads.size();
  sample_.size_for(sys_, elastic_);
  // Kinds for the limits: accelerations, efforts, speeds, current rates, powers, normal loads.
  auto add = [&](size_t count, int kind) { kinds_.insert(kinds_.end(), count, kind); };
  add(n_, 0), add(na, 1), add(na, 2), add(ne, 1), add(ne, 2), add(nm, 3), add(nl, 4), add(2 * ne, 5), add(ne, 1),
      add(elastic_, 6), add(2, 4);
  bearing_effort_.assign(ne, 0.0);
  held_effort_.assign(ne, 0.0);
  held_previous_.assign(ne, 0.0);
  held_.reserve(ne);
  const auto max_held = static_cast<Eigen::Index>(ne);
  hold_a0_.setZero(max_held), hold_a1_.setZero(max_held), hold_step_.setZero(max_held);
  hold_response_.setZero(max_held, max_held);
  for (Eigen::Index h = 0; h <= max_held; ++h) hold_cod_.emplace_back(h, h);
  loads_.assign(ne, 0.0);
  rest_effort_.assign(ne, 0.0);
  rest_applied_.assign(m_.bodies().size(), planar::Wrench::Zero());
  for (size_t i = 0; i < n_; ++i) ws_.q[i] = y0[i];
  const planar::KinematicStatus st = planar::solve_positions(m_, ws_);
  if (!st.ok()) throw AnalysisError("the mechanism does not assemble at the start: " + planar::describe(m_, ws_, st));
}

std::string PlacedEvaluator::coordinates(const double* y) const {
  if (n_ == 1) return fmt::format("q = {:.9g}", y[0]);
  std::string out;
  for (size_t i = 0; i < n_; ++i) out += fmt::format("{}{} = {:.9g}", i ? ", " : "", m_.drivers()[i].name, y[i]);
  return out;
}

bool PlacedEvaluator::place(const double* y) {
  for (size_t i = 0; i < n_; ++i) ws_.q[i] = y[i], ws_.qd[i] = y[n_ + i];
  const planar::KinematicStatus st = planar::solve_positions(m_, ws_);
  if (!st.ok())
    throw AnalysisError(
        fmt::format("the mechanism does not assemble at {}: {}", coordinates(y), planar::describe(m_, ws_, st)));
  if (planar::near_singular(m_, ws_)) return false;
  return planar::solve_velocities(m_, ws_).ok();
}

void PlacedEvaluator::apply_loads(Workspace& ws, double t, const double* y, const Branches& b, Evaluation& e) {
  hold_segments(b, ws);  // the tables' kinks are events
  planar::evaluate_loads(m_, ws, t);
  const auto& loads = m_.spec().loads;
  for (size_t l = 0; l < loads.size(); ++l) e.load_power[l] = planar::variable_load_power(m_, ws, loads[l], t);
  const auto& acts = sys_.machine.actuators;
  for (size_t k = 0; k < acts.size(); ++k) e.actuator_speed[k] = actuator_speed(m_, ws, acts[k]);
  actuator_efforts(y, b, e);
  // The smooth parts, on the bodies [004 Eq. A42].
  for (size_t k = 0; k < acts.size(); ++k) add_actuator_effort(m_, ws, acts[k], e.actuator[k], ws.applied);
  resistance_efforts(b, e);
  for (size_t k = 0; k < sys_.coulomb.size(); ++k) {
    const CoulombElement& el = sys_.coulomb[k];
    e.coulomb_speed[k] = element_speed(m_, ws, el);
    if (!el.pair_friction()) add_element_effort(m_, ws, el, e.coulomb[k], ws.applied);
  }
  ws.applied[0].setZero();
}

void PlacedEvaluator::friction_loads(Workspace& ws, const Branches& b, int unit) {
  for (auto& w : ws.friction_load) w.setZero();
  for (size_t k = 0; k < sys_.coulomb.size(); ++k) {
    const CoulombElement& el = sys_.coulomb[k];
    const double effort = b.holds(k) ? held_effort_[k] + (static_cast<int>(k) == unit ? 1.0 : 0.0)
                          : el.pair_friction() && o_.friction ? bearing_effort_[k]
                                                              : 0.0;
    if (effort != 0.0) add_element_effort(m_, ws, el, effort, ws.friction_load);
  }
  ws.friction_load[0].setZero();
}

double PlacedEvaluator::static_capacity(const Workspace& ws, size_t k, Evaluation& e) const {
  const CoulombElement& el = sys_.coulomb[k];
  if (!el.pair_friction()) return static_limit(el);
  return o_.friction ? el.static_limit * element_load(m_, ws, el, {0.0, 0.0}, e.normal[k]) : 0.0;
}

void PlacedEvaluator::hold(Workspace& ws, const Branches& b) {
  // The held elements' accelerations are affine in their efforts: one Newton step, on the
  // response of each to a unit effort of each, makes them zero.
  const Eigen::Index h = static_cast<Eigen::Index>(held_.size());
  auto a0 = hold_a0_.head(h), a1 = hold_a1_.head(h), step = hold_step_.head(h);
  auto response = hold_response_.topLeftCorner(h, h);
  for (Eigen::Index i = 0; i < h; ++i)
    a0(i) = element_acceleration(m_, ws, sys_.coulomb[held_[static_cast<size_t>(i)]]);
  for (Eigen::Index j = 0; j < h; ++j) {
    friction_loads(ws, b, held_[static_cast<size_t>(j)]);
    solve(ws, false);
    for (Eigen::Index i = 0; i < h; ++i)
      a1(i) = element_acceleration(m_, ws, sys_.coulomb[held_[static_cast<size_t>(i)]]);
    response.col(j) = a1 - a0;
  }
  Eigen::CompleteOrthogonalDecomposition<Eigen::MatrixXd>& cod = hold_cod_[static_cast<size_t>(h)];
  cod.compute(response);
  // The least-norm step (the held elements may be dependent); up to 16 held elements the
  // solve's temporaries live on the stack.
  using SmallVector = Eigen::Matrix<double, Eigen::Dynamic, 1, 0, 16, 1>;
  if (h <= 16) {
    const SmallVector rhs = -a0;
    SmallVector x(h);
    x = cod.solve(rhs);
    step = x;
  } else {
    step = cod.solve(-a0);
  }
  for (Eigen::Index i = 0; i < h; ++i) held_effort_[held_[static_cast<size_t>(i)]] += step(i);
  friction_loads(ws, b);
  solve(ws, true);
}

void PlacedEvaluator::evaluate_at(Workspace& ws, double t, const double* y, const Branches& b, Evaluation& e) {
  apply_loads(ws, t, y, b, e);
  for (auto& w : ws.friction_load) w.setZero();
  coupling_.set_state(y + elastic_offset(), elastic_);
  prepare(ws);
  held_.clear();
  for (size_t k = 0; k < sys_.coulomb.size(); ++k)
    if (b.holds(k)) held_.push_back(k);
  const bool friction = o_.friction && !m_.bearings().empty();
  if (!friction && held_.empty()) {
    solve(ws, false);
  } else {
    // The bearings' friction with the reactions of the motion it changes [001 Eqs. 12-13], and
    // the efforts that hold the held elements at rest.
    FrictionIteration iteration(friction_tolerance_, effort_scale_);
    double change = INFINITY, size = 0.0;
    bool beyond = false;  // a held element needs far more than it can hold: it slips (an event)
    do {
      friction_loads(ws, b);
      solve(ws, true);
      change = 0.0, size = 0.0;
      if (!held_.empty()) {
        for (size_t k : held_) held_previous_[k] = held_effort_[k];
        hold(ws, b);
        for (size_t k : held_) {
          change = std::max(change, std::abs(held_effort_[k] - held_previous_[k]));
          size = std::max(size, std::abs(held_effort_[k]));
          beyond = beyond || std::abs(held_effort_[k]) > 100.0 * static_capacity(ws, k, e) + 1e-300;
        }
        if (beyond) break;
      }
      for (size_t k = 0; k < sys_.coulomb.size(); ++k) {
        const CoulombElement& el = sys_.coulomb[k];
        if (!el.pair_friction() || !friction || b.holds(k)) continue;
        const double effort = -b.coulomb[k] * el.kinetic * element_load(m_, ws, el, b.normal[k], e.normal[k]);
        change = std::max(change, std::abs(effort - bearing_effort_[k]));
        size = std::max(size, std::abs(effort));
        bearing_effort_[k] = effort;
      }
    } while (!iteration.done(change, size));
    e.iterations = iteration.iterations;
    effort_scale_ = std::max(effort_scale_, size);
    for (size_t k = 0; k < sys_.coulomb.size(); ++k) {
      const CoulombElement& el = sys_.coulomb[k];
      if (b.holds(k)) continue;
      if (el.pair_friction()) e.coulomb[k] = friction ? bearing_effort_[k] : 0.0;
    }
  }
  // A held element: the effort that holds it, and what is left of its static capacity.
  std::fill(e.margin.begin(), e.margin.end(), 0.0);
  for (size_t k : held_) {
    const CoulombElement& el = sys_.coulomb[k];
    e.coulomb[k] = held_effort_[k];
    if (!el.pair_friction()) e.actuator[el.actuator()] += held_effort_[k];
    e.margin[k] = static_capacity(ws, k, e) - std::abs(held_effort_[k]);
  }
  for (size_t i = 0; i < n_; ++i) e.qdd[i] = ws.qdd[i];
  if (!coupling_.empty()) coupling_.rates(e);
}

void PlacedEvaluator::evaluate(double t, const double* y, const Branches& b, Evaluation& e) {
  ++evaluations;
  hold_segments(b, ws_);  // the positions too: on the cam programs' segments held
  if (b.stuck) {
    // Held at rest: no acceleration; the static efforts balance the drive.
    double drive = 0.0, capacity = 0.0;
    std::vector<double>& coefficients = sample_.coulomb_speed;  // scratch
    holding(t, y, b, drive, capacity, coefficients);
    std::fill(e.qdd.begin(), e.qdd.end(), 0.0);
    std::fill(e.actuator_speed.begin(), e.actuator_speed.end(), 0.0);
    std::fill(e.coulomb_speed.begin(), e.coulomb_speed.end(), 0.0);
    std::fill(e.load_power.begin(), e.load_power.end(), 0.0);
    actuator_efforts(y, b, e);
    holding_efforts(drive, loads_, coefficients, e);
    if (!coupling_.empty()) {  // the links vibrate on the machine held at rest
      coupling_.set_state(y + elastic_offset(), elastic_);
      coupling_.accelerate_at_rest(m_, ws_);
      coupling_.rates(e);
    }
    return;
  }
  if (place(y)) {
    evaluate_at(ws_, t, y, b, e);
    limits_.anchor.save(ws_);
    return;
  }
  // At or near a singular position: from regular states on both sides.
  std::fill(ws_.qdd.begin(), ws_.qdd.end(), 0.0);
  Eigen::VectorXd v;
  const bool ok = limits_.evaluate(
      m_, ws_, kinds_,
      [&](Workspace& s, Eigen::Ref<Eigen::VectorXd> out) {
        evaluate_at(s, t, y, b, sample_);
        Eigen::Index c = 0;
        for (const std::vector<double>* part :
             {&sample_.qdd, &sample_.actuator, &sample_.actuator_speed, &sample_.coulomb, &sample_.coulomb_speed,
              &sample_.current_rate, &sample_.load_power})
          for (double x : *part) out(c++) = x;
        for (const auto& n : sample_.normal) out(c++) = n[0], out(c++) = n[1];
        for (double x : sample_.margin) out(c++) = x;
        for (double x : sample_.elastic_acceleration) out(c++) = x;
        out(c++) = sample_.elastic_damping_power, out(c++) = sample_.geometric_power;
      },
      v);
  if (!ok) {
    const planar::KinematicStatus st = planar::solve_velocities(m_, ws_);
    throw AnalysisError(
        fmt::format("the mechanism reaches a dead point at {}: {}", coordinates(y),
                    st.ok() ? "its rates and reactions have no limit there" : planar::describe(m_, ws_, st)));
  }
  Eigen::Index c = 0;
  for (std::vector<double>* part :
       {&e.qdd, &e.actuator, &e.actuator_speed, &e.coulomb, &e.coulomb_speed, &e.current_rate, &e.load_power})
    for (double& x : *part) x = v(c++);
  for (auto& n : e.normal) n[0] = v(c++), n[1] = v(c++);
  for (double& x : e.margin) x = v(c++);
  for (double& x : e.elastic_acceleration) x = v(c++);
  e.elastic_damping_power = v(c++), e.geometric_power = v(c++);
  // The rates at this state too (their limits, where they have them), for the next evaluation's
  // prediction.
  for (size_t i = 0; i < n_; ++i) ws_.qdd[i] = e.qdd[i];
  (void)planar::solve_rates_as_limits(m_, ws_, limits_);
}

void PlacedEvaluator::speeds(double t, const double* y, Speeds& s) {
  if (!place(y)) {
    std::fill(ws_.qdd.begin(), ws_.qdd.end(), 0.0);
    if (!planar::solve_rates_as_limits(m_, ws_, limits_) && !planar::solve_velocities(m_, ws_).ok())
      throw AnalysisError(fmt::format("the mechanism reaches a dead point at {}", coordinates(y)));
  }
  for (size_t k = 0; k < sys_.coulomb.size(); ++k) s.coulomb[k] = element_speed(m_, ws_, sys_.coulomb[k]);
  const auto& acts = sys_.machine.actuators;
  for (size_t k = 0; k < acts.size(); ++k) {
    s.actuator[k] = actuator_speed(m_, ws_, acts[k]);
    s.when[k] = acts[k].condition_body() >= 0 ? ws_.body[acts[k].condition_body()].omega : 0.0;
  }
  const auto& loads = m_.spec().loads;
  for (size_t l = 0; l < loads.size(); ++l)
    if (loads[l].table)
      s.table[l] = planar::table_coordinate(loads[l], planar::coordinate_value(m_, ws_, t, loads[l].table->against));
  // The cam programs' angles (their segments' ends are events).
  const size_t first_cam = s.table.size() - m_.cam_pairs().size();
  for (size_t c = 0; c < m_.cam_pairs().size(); ++c)
    s.table[first_cam + c] = planar::cam_program_angle(m_.joints()[static_cast<size_t>(m_.cam_pairs()[c])], ws_);
}

void PlacedEvaluator::holding(double t, const double* y, const Branches& b, double& drive, double& capacity,
                              std::vector<double>& coefficients) {
  // At rest (qd = 0, qdd = 0): the loads and actuators, then their power per unit qd (the drive),
  // the elements' velocity coefficients, and the static friction against the drive with the
  // reactions it adds, by the kinetostatic walk.
  Workspace& ws = ws_;
  for (size_t i = 0; i < n_; ++i) ws.q[i] = y[i], ws.qd[i] = 0.0, ws.qdd[i] = 0.0;
  const planar::KinematicStatus st = planar::solve_positions(m_, ws);
  if (!st.ok())
    throw AnalysisError(
        fmt::format("the mechanism does not assemble at {}: {}", coordinates(y), planar::describe(m_, ws, st)));
  if (!planar::solve_velocities(m_, ws).ok())
    throw AnalysisError(fmt::format("the machine rests at a dead point at {}", coordinates(y)));
  planar::solve_accelerations(m_, ws);
  Branches rest = b;
  std::fill(rest.coulomb.begin(), rest.coulomb.end(), 0.0);
  apply_loads(ws, t, y, rest, sample_);
  std::vector<planar::Wrench>& applied = rest_applied_;
  applied = ws.applied;
  ws.qd[0] = 1.0;
  (void)planar::solve_velocities(m_, ws);  // at the positions checked above
  drive = 0.0;
  for (size_t k = 1; k < m_.bodies().size(); ++k)
    drive += applied[k].dot(planar::Wrench(ws.body[k].v.x(), ws.body[k].v.y(), ws.body[k].omega));
  coefficients.resize(sys_.coulomb.size());
  for (size_t k = 0; k < sys_.coulomb.size(); ++k) coefficients[k] = element_speed(m_, ws, sys_.coulomb[k]);
  ws.qd[0] = 0.0;
  (void)planar::solve_velocities(m_, ws);
  planar::solve_accelerations(m_, ws);
  const double d = drive >= 0.0 ? 1.0 : -1.0;
  std::vector<double>& effort = rest_effort_;
  std::fill(effort.begin(), effort.end(), 0.0);
  for (size_t k = 0; k < sys_.coulomb.size(); ++k) {
    const CoulombElement& el = sys_.coulomb[k];
    loads_[k] = 1.0;
    if (!el.pair_friction()) effort[k] = -d * sign(coefficients[k]) * static_limit(el);
  }
  if (o_.friction && !m_.bearings().empty()) {
    FrictionIteration iteration(friction_tolerance_, effort_scale_);
    for (;;) {
      ws.applied = applied;
      for (auto& w : ws.friction_load) w.setZero();
      for (size_t k = 0; k < sys_.coulomb.size(); ++k)
        add_element_effort(m_, ws, sys_.coulomb[k], effort[k], ws.friction_load);
      ws.friction_load[0].setZero();
      planar::solve_reactions(m_, ws);
      double change = 0.0, size = 0.0;
      for (size_t k = 0; k < sys_.coulomb.size(); ++k) {
        const CoulombElement& el = sys_.coulomb[k];
        if (!el.pair_friction()) continue;
        loads_[k] = element_load(m_, ws, el);
        const double next = -d * sign(coefficients[k]) * el.static_limit * loads_[k];
        change = std::max(change, std::abs(next - effort[k]));
        size = std::max(size, std::abs(next));
        effort[k] = next;
      }
      if (iteration.done(change, size)) break;
    }
  } else {
    for (size_t k = 0; k < sys_.coulomb.size(); ++k)
      if (sys_.coulomb[k].pair_friction()) loads_[k] = 0.0;
  }
  capacity = 0.0;
  for (size_t k = 0; k < sys_.coulomb.size(); ++k) {
    const CoulombElement& el = sys_.coulomb[k];
    const double limit = static_limit(el);
    capacity += limit * loads_[k] * std::abs(coefficients[k]);
  }
}

}  // namespace linkdyn::dynamics
