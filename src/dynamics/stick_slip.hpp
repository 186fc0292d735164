#pragma once
// The switches of a simulation: the functions whose signs the locked branches hold over a step
// (Coulomb speeds, conditions, motor powers, tables' segments (loads', cylinders' forces), prismatic pairs' normal
// loads, a one-DOF machine's speed or break-away margin), and what happens when one changes sign: a friction reverses,
// a machine stops and sticks or turns back, a stuck machine breaks away, an element of a machine of several DOF is held
// at rest or slips.
#include <cmath>
#include <vector>

#include "dynamics/state_layout.hpp"

namespace linkdyn::dynamics {

/// The switching functions of the locked branches and what to do when one changes sign.
class Switches {
 public:
  Switches(const DynamicSystem& system, const SimulationOptions& options, Evaluator& eval, const StateLayout& layout);
  Branches branches;

  /// The functions' values at (t, y): Coulomb speeds, condition speeds, motor powers, then
  /// (one DOF with Coulomb elements) the machine's speed, or while stuck its break-away margin.
  /// With one DOF and Coulomb elements the speeds are taken per unit speed in the machine's
  /// direction: their zeros as the machine stops belong to the machine's own function.
  void values(double t, const State& y, std::vector<double>& g);
  [[nodiscard]] size_t count() const;
  /// The locked sign of function k (0: none yet).
  [[nodiscard]] double locked(size_t k) const;
  /// Locks every function (or only those without a sign yet) to its sign at (t, y); a function
  /// at zero keeps its branch. After the event of function `event`, a table whose coordinate
  /// left its segment takes the neighbouring segment on that side (at the node itself, the
  /// segment that holds x may be the one just left).
  void lock(double t, const State& y, bool only_unlocked = false, int event = -1);
  /// A one-DOF machine at rest at (t, y): it sticks if static friction holds it, else it starts
  /// in the drive's direction. Sets y's speed to 0. True if it sticks.
  bool stop_or_start(double t, State& y);
  /// Leaves the stuck mode in the drive's direction.
  void break_away(double t, State& y);
  /// One DOF with Coulomb elements: the machine sticks as a whole (its own function, the last).
  [[nodiscard]] bool one_dof_stick() const { return one_dof_stick_; }
  [[nodiscard]] size_t machine_function() const { return count() - 1; }
  /// Function k is a load table's, a cylinder's force table's or a cam program's: its event is
  /// a row (a segment's end) crossed, not a switch.
  [[nodiscard]] bool table_row(size_t k) const {
    const size_t first = sys_.coulomb.size() + 2 * sys_.machine.actuators.size();
    return k >= first && k < first + nt();
  }
  /// Several DOF at the start: each element at rest is held if static friction can hold it.
  void hold_at_start(double t, State& y);
  /// Several DOF: element k's function changed sign at (t, y). A held element slips, opposite
  /// to the effort that held it; a sliding one that stops is held if its static capacity holds
  /// it (its speed set to 0 exactly, the coordinates' rates projected), else it reverses.
  /// False when element k is not such an element (the other branches are locked as usual).
  bool element_event(double t, State& y, size_t k);

 private:
  void start(double drive);
  [[nodiscard]] double margin(double t, const State& y);
  /// The tables' functions: one per load, then one per actuator (a cylinder's force table), then
  /// one per cam pair (its program's pieces).
  [[nodiscard]] size_t nt() const {
    return m_.spec().loads.size() + sys_.machine.actuators.size() + m_.cam_pairs().size();
  }
  /// Cam pair c's program.
  [[nodiscard]] const planar::CamProgram& cam_program(size_t c) const {
    return m_.joints()[static_cast<size_t>(m_.cam_pairs()[c])].as<planar::CamPair>().program;
  }
  /// Actuator k's force table, or nullptr.
  [[nodiscard]] const CylinderForce* force_table(size_t k) const {
    const Actuator& a = sys_.machine.actuators[k];
    return a.is<CylinderForce>() && a.as<CylinderForce>().tabulated() ? &a.as<CylinderForce>() : nullptr;
  }
  [[nodiscard]] size_t motor_index(size_t actuator) const;

  const DynamicSystem& sys_;
  const planar::Mechanism& m_;
  Evaluator& eval_;
  const StateLayout& L_;
  Speeds speeds_;
  Speeds at_state_;  ///< a one-DOF machine's speeds at the state itself (speeds_ is per unit qd)
  bool any_table_ = false;
  std::vector<double> scratch_, coefficients_;
  State unit_;
  std::vector<bool> active_;
  std::vector<double> idle_speed_;  ///< per Coulomb element: below this speed per unit qd, it is idle
  /// One DOF: Coulomb element k does not move at this position (its speed per unit qd is
  /// rounding), from the last values().
  [[nodiscard]] bool idle(size_t k) const { return one_dof_stick_ && std::abs(speeds_.coulomb[k]) < idle_speed_[k]; }
  std::vector<int> normals_;  ///< per Coulomb element: how many normal loads switch (0, 1, 2)
  bool any_normals_ = false;
  Evaluation probe_;
  double machine_sign_ = 0.0;
  bool one_dof_stick_ = false;
  bool element_stick_ = false;
  State held_state_;
};

}  // namespace linkdyn::dynamics
