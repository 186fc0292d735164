// The stick-slip switches of a simulation: the switching functions' values and locked signs, and
// the events of Coulomb friction (a reversal, a stop that sticks or turns back, a break-away, an
// element of a machine of several DOF held or slipping).
#include "dynamics/stick_slip.hpp"

#include <Eigen/Dense>
#include <algorithm>
#include <cmath>

#include "linkdyn/planar/friction.hpp"
#include "linkdyn/planar/loads.hpp"

namespace linkdyn::dynamics {

Switches::Switches(const DynamicSystem& s, const SimulationOptions& o, Evaluator& eval, const StateLayout& L)
    : sys_(s), m_(*s.mechanism), eval_(eval), L_(L) {
  const size_t na = sys_.machine.actuators.size(), ne = s.coulomb.size();
  speeds_.coulomb.assign(ne, 0.0), speeds_.when.assign(na, 0.0), speeds_.actuator.assign(na, 0.0);
  speeds_.table.assign(nt(), NAN);
  at_state_ = speeds_;
  for (const auto& load : m_.spec().loads) any_table_ = any_table_ || load.table.has_value();
  branches.coulomb.assign(ne, 0.0), branches.when.assign(na, 0.0), branches.motor.assign(na, 0.0);
  branches.segment.assign(nt(), planar::no_segment);
  branches.normal.assign(ne, {0.0, 0.0});
  // A cam machine: a follower in a dwell does not move over an interval, and its pairs' speeds
  // per unit qd are rounding, whose sign means nothing. Below 1e-12 (of the mechanism's size, for a
  // sliding element) an element is idle there. Elsewhere a speed is zero only where it reverses:
  // no element is ever idle.
  double size = 1e-3;
  for (const planar::Body& body : m_.bodies())
    for (const planar::NamedPoint& p : body.points) size = std::max(size, p.local.norm());
  for (const CoulombElement& e : s.coulomb) {
    // Pair friction switched off: its elements act nowhere and switch nothing.
    const bool active = o.friction || !e.pair_friction();
    active_.push_back(active);
    const bool slides =
        e.pair_friction() && planar::bearing_slides(m_.bearings()[std::get<PairFriction>(e.site).bearing]);
    idle_speed_.push_back(m_.cam_pairs().empty() ? 0.0 : 1e-12 * (slides ? size : 1.0));
    // A prismatic pair's normal loads change sign: |N| has a kink there.
    int normals = 0;
    if (active && e.pair_friction()) {
      const planar::Bearing& b = m_.bearings()[std::get<PairFriction>(e.site).bearing];
      if (const auto* slide = std::get_if<planar::Bearing::Prismatic>(&b.kind))
        normals = m_.joints()[slide->joint].as<planar::PrismaticPair>().slider_length > 0.0 ? 2 : 1;
    }
    normals_.push_back(normals);
    any_normals_ = any_normals_ || normals > 0;
  }
  one_dof_stick_ = L.n == 1 && std::find(active_.begin(), active_.end(), true) != active_.end();
  // Several DOF: each Coulomb element may be held at rest on its own while the others move.
  element_stick_ = L.n > 1 && std::find(active_.begin(), active_.end(), true) != active_.end();
  if (element_stick_) branches.held.assign(ne, 0);
  if (any_normals_ || element_stick_) probe_.size_for(s, L.elastic);
}

void Switches::values(double t, const State& y, std::vector<double>& g) {
  g.assign(count(), 0.0);
  double factor = 1.0;
  if (one_dof_stick_) {
    unit_ = y;
    unit_[1] = 1.0;
    eval_.speeds(t, unit_.data(), speeds_);
    factor = machine_sign_;
    // A table's coordinate (a speed perhaps) at the state itself, not per unit qd.
    if (any_table_) {
      eval_.speeds(t, y.data(), at_state_);
      speeds_.table = at_state_.table;
    }
  } else {
    eval_.speeds(t, y.data(), speeds_);
  }
  size_t c = 0;
  // A held element's function is its margin (from an evaluation at the state, below).
  const bool any_held = std::find(branches.held.begin(), branches.held.end(), 1) != branches.held.end();
  for (size_t k = 0; k < speeds_.coulomb.size(); ++k)
    g[c++] = branches.stuck || !active_[k] || branches.holds(k) || idle(k) ? 0.0 : factor * speeds_.coulomb[k];
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
  // A cylinder's force table: its length, or its speed (per unit qd above, for one DOF).
  for (size_t k = 0; k < acts.size(); ++k) {
    const CylinderForce* f = force_table(k);
    double& x = speeds_.table[loads.size() + k];
    x = !f                                             ? NAN
        : f->against == CylinderForce::Against::length ? y[static_cast<size_t>(f->driver)]
        : one_dof_stick_                               ? speeds_.actuator[k] * y[1]
                                                       : speeds_.actuator[k];
    const int segment = branches.segment[loads.size() + k];
    g[c++] = f && segment != planar::no_segment ? f->inside(segment, x) : 0.0;
  }
  // A cam program's piece: its angle (at the state).
  for (size_t p = 0; p < m_.cam_pairs().size(); ++p) {
    const size_t k = loads.size() + acts.size() + p;
    const double x = speeds_.table[k];  // positions only: the same per unit qd
    g[c++] = branches.segment[k] != planar::no_segment && std::isfinite(x)
                 ? cam_program(p).inside(branches.segment[k], x)
                 : 0.0;
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

size_t Switches::count() const {
  return sys_.coulomb.size() + 2 * sys_.machine.actuators.size() + nt() + 2 * sys_.coulomb.size() +
         (one_dof_stick_ ? 1 : 0);
}

double Switches::locked(size_t k) const {
  const size_t ne = sys_.coulomb.size(), na = sys_.machine.actuators.size();
  if (k < ne) return branches.stuck ? 0.0 : branches.holds(k) ? 1.0 : branches.coulomb[k];
  if (k < ne + na) return branches.when[k - ne];
  if (k < ne + 2 * na) return branches.motor[k - ne - na];
  if (k < ne + 2 * na + nt()) return branches.segment[k - ne - 2 * na] != planar::no_segment ? 1.0 : 0.0;
  if (k < ne + 2 * na + nt() + 2 * ne) {
    const size_t i = k - ne - 2 * na - nt();
    return branches.stuck ? 0.0 : branches.normal[i / 2][i % 2];
  }
  return branches.stuck ? -1.0 : machine_sign_;
}

void Switches::lock(double t, const State& y, bool only_unlocked, int event) {
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
  for (size_t k = 0; k < na; ++k) {  // the segments of the cylinders' force tables
    const CylinderForce* f = force_table(k);
    const double x = speeds_.table[loads.size() + k];
    if (!f || !std::isfinite(x)) continue;
    int& segment = branches.segment[loads.size() + k];
    const int last = static_cast<int>(f->x.size()) - 1;
    if (event == static_cast<int>(ne + 2 * na + loads.size() + k) && segment != planar::no_segment) {
      // Into the neighbouring segment on the side of the row crossed.
      const bool below = segment >= 0 && (segment >= last || std::abs(x - f->x[static_cast<size_t>(segment)]) <
                                                                 std::abs(x - f->x[static_cast<size_t>(segment) + 1]));
      segment += below ? -1 : 1;
    } else if (!only_unlocked || segment == planar::no_segment) {
      segment = f->segment_of(x);
    }
  }
  for (size_t c = 0; c < m_.cam_pairs().size(); ++c) {  // the cam programs' pieces
    const size_t k = loads.size() + na + c;
    const double x = speeds_.table[k];
    if (!std::isfinite(x)) continue;
    int& segment = branches.segment[k];
    const int count = cam_program(c).piece_count();
    if (event == static_cast<int>(ne + 2 * na + k) && segment != planar::no_segment) {
      // Into the neighbouring piece on the side of the end crossed (the program repeats).
      segment = (segment + (cam_program(c).fraction(segment, x) < 0.5 ? count - 1 : 1)) % count;
    } else if (!only_unlocked || segment == planar::no_segment) {
      segment = cam_program(c).piece_of(x);
    }
  }
  // One DOF: an element that does not move at this position (a cam's follower in a dwell) has no
  // friction direction; it takes one where it moves again (Run::redo_on_new_branches).
  if (one_dof_stick_ && !branches.stuck)
    for (size_t k = 0; k < ne; ++k)
      if (active_[k] && idle(k) && !(only_unlocked && locked(k) != 0.0)) branches.coulomb[k] = 0.0;
  for (size_t k = 0; k < g.size(); ++k) {
    double s = sign(g[k]);
    // A normal load's own event: it has changed sign (at the crossing its value is ~0 either way).
    const bool normal_event =
        static_cast<int>(k) == event && k >= ne + 2 * na + nt() && k < ne + 2 * na + nt() + 2 * ne;
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
    else if (k < ne + 2 * na + nt())
      continue;
    else if (k < ne + 2 * na + nt() + 2 * ne) {
      const size_t i = k - ne - 2 * na - nt();
      if (!branches.stuck) branches.normal[i / 2][i % 2] = s;
    } else if (!branches.stuck)
      machine_sign_ = s;
  }
}

bool Switches::stop_or_start(double t, State& y) {
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

void Switches::break_away(double t, State& y) {
  double drive = 0.0, capacity = 0.0;
  y[1] = 0.0;
  eval_.holding(t, y.data(), branches, drive, capacity, coefficients_);
  start(drive);
}

void Switches::hold_at_start(double t, State& y) {
  if (!element_stick_) return;
  eval_.speeds(t, y.data(), speeds_);
  std::vector<double>& at_rest = scratch_;
  at_rest = speeds_.coulomb;
  for (size_t k = 0; k < at_rest.size(); ++k)
    if (active_[k] && at_rest[k] == 0.0) element_event(t, y, k);
}

bool Switches::element_event(double t, State& y, size_t k) {
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

void Switches::start(double drive) {
  // Every friction opposes the motion that starts; the conditions and motors' directions are
  // found by the next (probe) step.
  branches.stuck = false;
  const double d = drive >= 0.0 ? 1.0 : -1.0;
  machine_sign_ = d;
  for (size_t k = 0; k < sys_.coulomb.size(); ++k) branches.coulomb[k] = sign(coefficients_[k]) * d;
  std::fill(branches.when.begin(), branches.when.end(), 0.0);
  std::fill(branches.motor.begin(), branches.motor.end(), 0.0);
}

double Switches::margin(double t, const State& y) {
  double drive = 0.0, capacity = 0.0;
  eval_.holding(t, y.data(), branches, drive, capacity, coefficients_);
  return std::abs(drive) - capacity;
}

size_t Switches::motor_index(size_t actuator) const {
  return static_cast<size_t>(std::find(sys_.motors.begin(), sys_.motors.end(), static_cast<int>(actuator)) -
                             sys_.motors.begin());
}

}  // namespace linkdyn::dynamics
