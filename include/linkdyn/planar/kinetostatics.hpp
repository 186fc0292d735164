#pragma once
// Kinetostatics [001]: the drivers' efforts and the pairs' reactions for a given motion, walking
// the structural sequence backwards (Fig. 3), with Coulomb friction in the pairs solved by
// successive approximations (Eqs. 8-13). Free functions over (mechanism, workspace); the
// kinematics must be solved first.
#include <functional>
#include <string>
#include <vector>

#include "linkdyn/core/table.hpp"
#include "linkdyn/planar/loads.hpp"
#include "linkdyn/planar/sweep.hpp"

namespace linkdyn::planar {

struct KinetostaticsOptions {
  bool friction = true;
  double tolerance = 1e-3;   ///< N: stop when no reaction changes more than this [001]
  int max_iterations = 100;  ///< not converged by then: self-locking (KinetostaticsStatus)
};

struct KinetostaticsStatus {
  int iterations = 0;  ///< friction iterations (0 without friction)
  bool converged = true;
  double contraction = 0.0;  ///< last ratio of successive reaction changes
  bool self_locking = false;
};

/// Relative sliding speed of a prismatic pair along its guide (the slider point's velocity
/// relative to the guide body), and the slider point (global).
double sliding_speed(const Joint& j, const Workspace& ws, Vec2& point);
/// A force along a prismatic pair's guide at `point`: `force` on its second body, the opposite
/// on its first, added to loads (wrenches about the body frames' origins).
void add_guide_force(const Joint& j, const Workspace& ws, const Vec2& point, double force, std::vector<Wrench>& loads);

/// One backward walk with the current friction loads: ws.reaction and ws.effort.
void solve_reactions(const Mechanism& m, Workspace& ws);
/// Friction loads from the current reactions and relative velocities, into ws.friction_load:
/// revolute M_f = -sgn(omega_rel) f' r |F| [001 Eqs. 9-11, 16]; prismatic F_f = -sgn(v_rel)
/// f |N| (short slider) or f (|N1| + |N2|) for a slider of length b carried at its ends; a
/// compound pin, fixed in its first member, M_b = -sgn(omega_b - omega_first) f' r |F_b| on each
/// other member b (F_b = pin_force) and -M_b on the first. At zero relative velocity the
/// friction is zero.
void update_friction(const Mechanism& m, Workspace& ws);
/// Friction power lost in a pair (W, >= 0), of the friction applied in the last walk.
[[nodiscard]] double friction_power(const Mechanism& m, const Workspace& ws, int joint);
/// The force that compound pin `pin` exerts on its member `member` (index in the listed
/// order): the sum of the reactions of the pin's pairs on that body. They sum to zero over the
/// members (the pin is massless).
[[nodiscard]] Vec2 pin_force(const Mechanism& m, const Workspace& ws, int pin, int member);
/// Friction power lost in a compound pin (W, >= 0): sum over the members b after the first of
/// -M_b (omega_b - omega_first), of the friction applied in the last walk.
[[nodiscard]] double pin_friction_power(const Mechanism& m, const Workspace& ws, int pin);
/// Friction power lost in every pair and compound pin (W).
[[nodiscard]] double total_friction_power(const Mechanism& m, const Workspace& ws);
/// Sum of the drivers' powers (W).
[[nodiscard]] double driver_power(const Mechanism& m, const Workspace& ws);

/// Loads, frictionless walk, then successive approximations with friction [001 Eqs. 12-13].
[[nodiscard]] KinetostaticsStatus solve_kinetostatics(const Mechanism& m, Workspace& ws, double t,
                                                      const KinetostaticsOptions& options = {});

/// Kinetostatics at a removable singular position (the rates in ws are limits): the reactions,
/// efforts and friction as their limits from regular states on both sides (SingularLimit).
/// False where they have none: the reactions grow without bound there (the loads cannot be
/// carried at that position).
[[nodiscard]] bool solve_kinetostatics_as_limits(const Mechanism& m, Workspace& ws, double t,
                                                 const KinetostaticsOptions& options, SingularLimit& limits,
                                                 KinetostaticsStatus& status);

struct KinetostaticsSummary {
  SweepSummary sweep;
  double duration = 0.0;
  double mean_driver_power = 0.0;
  double driver_work = 0.0, useful_work = 0.0, friction_work = 0.0;  ///< over the sweep (J)
  bool has_useful_loads = false;
  std::vector<double> friction_energy;      ///< per pair of m.joints() (J)
  std::vector<double> load_activity;        ///< per load: integral of |power| (J); 0 if it does no work
  std::vector<double> max_reaction;         ///< per pair of m.joints(): largest |F| (N) ...
  std::vector<double> max_reaction_t;       ///< ... and when
  std::vector<double> pin_friction_energy;  ///< per compound pin (J)
  std::vector<double> pin_max_force;        ///< per compound pin: largest |F| on a member (N) ...
  std::vector<double> pin_max_force_t;      ///< ... and when
  int rows = 0;                             ///< rows solved (converged)
  int limit_rows = 0;                       ///< of which at a removable singular position (values as limits)
  std::vector<double> unbounded_t;          ///< singular positions where the reactions have no limit
  int flagged = 0;                          ///< rows near self-locking (not converged): friction-dependent cells empty
  int max_iterations = 0;
  double mean_iterations = 0.0;
  std::vector<double> flagged_t;  ///< times of rows flagged near self-locking
};

/// A pair's reaction columns (the names io::kinetostatics_table and the simulation's rows use):
/// gear `<joint>.torque`; else `.Fx`, `.Fy`, `.F`, and for a prismatic pair `.N`, `.M` (what
/// the first body exerts on the second).
void add_reaction_columns(const Joint& j, Table& table);
/// The values of those columns, in the same order, through put(value).
template <class Put>
void put_reaction(const Joint& j, const JointReaction& r, Put&& put) {
  if (j.type == JointType::gear) {
    put(r.moment);
    return;
  }
  put(r.force.x());
  put(r.force.y());
  put(r.force.norm());
  if (j.type == JointType::prismatic) {
    put(r.normal);
    put(r.moment);
  }
}

/// A compound pin's reaction columns: per member, in the listed order, `<pin>.<body>.Fx`,
/// `.Fy`, `.F` (the force the pin exerts on that body).
void add_pin_reaction_columns(const Mechanism& m, const CompoundPin& pin, Table& table);

/// The reactions in the pairs as arrays, one row per position, one column per pair of
/// Mechanism::joints() (the model's pairs, then the compound pins' member pairs): what the pair's
/// first body exerts on its second (JointReaction); per compound pin, per member in the listed
/// order, the force the pin exerts on that member.
struct PairReactions {
  Eigen::MatrixXd force_x, force_y;  ///< per pair: the force (revolute: pin; prismatic: normal) (N)
  Eigen::MatrixXd moment, normal;    ///< per pair: JointReaction::moment, ::normal
  std::vector<Eigen::MatrixXd> pin_force_x, pin_force_y;  ///< per compound pin: per member (N)
  [[nodiscard]] JointReaction reaction(Eigen::Index row, size_t pair) const;
  [[nodiscard]] Vec2 pin_force(Eigen::Index row, size_t pin, Eigen::Index member) const;
};
/// Room for `rows` rows of m's reactions.
void allocate_rows(const Mechanism& m, Eigen::Index rows, PairReactions& r);
/// Row `row` from the workspace's reactions (solve_reactions); NaN everywhere unless `valid`.
void record_row(const Mechanism& m, const Workspace& ws, Eigen::Index row, bool valid, PairReactions& r);
/// Keeps the first `rows` rows.
void keep_rows(Eigen::Index rows, PairReactions& r);

/// Kinetostatics over a sweep as arrays: one row per position where the mechanism is assembled
/// and not at a dead point (the values at a removable singular position are limits, flagged),
/// one column per driver, pair of Mechanism::joints() (as in PairReactions) or compound pin. On
/// a row near self-locking the values that depend on friction are
/// NaN (the friction iterations did not converge).
struct KinetostaticsResult {
  Eigen::VectorXd t;
  Eigen::MatrixXd q;                            ///< per driver
  Eigen::MatrixXd effort, effort_frictionless;  ///< per driver: torque (N m) or force (N)
  PairReactions reactions;
  Eigen::MatrixXd friction_power;                      ///< per pair: power lost to friction (W, >= 0; 0 in a gear)
  Eigen::MatrixXd pin_friction_power;                  ///< per compound pin (W)
  Eigen::VectorXd total_friction_power, driver_power;  ///< W
  Eigen::VectorXd efficiency;  ///< 1 - friction / driver power while the drivers deliver power, else NaN
  Eigen::VectorXi iterations;  ///< friction iterations
  std::vector<bool> self_locking, limit;
  KinetostaticsSummary summary;
  [[nodiscard]] Eigen::Index rows() const { return t.size(); }
};

/// Kinetostatics at every position of the grid (sweep_kinematics, then solve_kinetostatics), with
/// the cycle's integrals in the summary.
[[nodiscard]] KinetostaticsResult kinetostatics(const Mechanism& m, const TimeGrid& grid,
                                                const KinetostaticsOptions& options);
/// A sweep with something to show, else: AnalysisError when the friction iterations converged
/// at no position (self-locking over the whole sweep), InputError when a load marked useful
/// does no work over it.
void check_kinetostatics(const Mechanism& m, const KinetostaticsResult& result);
void check_kinetostatics(const Mechanism& m, const KinetostaticsSummary& summary);
/// The same rows in chunks of at most `chunk_rows` rows, for output streamed as it is computed
/// (memory independent of the grid's length): `on_chunk` gets each chunk in order, the last one
/// possibly shorter or empty, and may take it over (move from it). Returns the summary of the
/// whole sweep.
[[nodiscard]] KinetostaticsSummary kinetostatics(const Mechanism& m, const TimeGrid& grid,
                                                 const KinetostaticsOptions& options, Eigen::Index chunk_rows,
                                                 const std::function<void(KinetostaticsResult&)>& on_chunk);

}  // namespace linkdyn::planar
