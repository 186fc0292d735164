#pragma once
// What the kinetostatics over a sweep returns (planar::kinetostatics, kinetostatics.hpp): the
// drivers' efforts and the pairs' reactions as arrays, the cycle's integrals, and the names of
// the reactions' columns (io::kinetostatics_table makes the table).
#include <Eigen/Core>
#include <limits>
#include <vector>

#include "linkdyn/core/table.hpp"
#include "linkdyn/planar/kinematics_result.hpp"
#include "linkdyn/planar/mechanism.hpp"
#include "linkdyn/planar/workspace.hpp"

namespace linkdyn::planar {

/// A driver effort over the sweep: its largest magnitude, when, and its root mean square over
/// time (trapezoidal rule, the rows integrated as the works are).
struct EffortStatistics {
  double peak = 0.0, peak_t = 0.0, rms = 0.0;  ///< largest |effort|, when, RMS
  double most = 0.0, most_t = 0.0;             ///< the largest positive effort (a cylinder's push), when
  double least = 0.0, least_t = 0.0;           ///< the most negative (a cylinder's pull), when
};

/// A cam pair's closing spring over a sweep. The contact force is linear in the spring's force
/// F (its pattern's magnitude: a tension, or a torsional spring's moment): N + dF dN/dF. The
/// spring closes the cam where dN/dF keeps one sign, `sense`; its closing force is sense F, and
/// the least closing force that keeps N >= 0 at every row is the present one plus `extra`,
/// the largest -N / |dN/dF| over the rows (negative: a margin). dN/dF comes from the reactions
/// solved again with more of F, friction included (exact where N is linear in F: without
/// friction, or with friction whose directions and load signs hold).
struct CamClosing {
  int spring = -1;     ///< index into MechanismSpec::loads; -1: none
  int sense = 0;       ///< +1: more tension (or moment) presses the follower on; -1: less does
  bool closes = true;  ///< false: at some row it does not press it on
  double extra = -std::numeric_limits<double>::infinity(), extra_t = 0.0;  ///< N or N m, when it binds
  /// The closing force now at the row of the least lift (the base circle) and that lift.
  double base_force = 0.0, base_lift = std::numeric_limits<double>::infinity();
};

struct KinetostaticsSummary {
  SweepSummary sweep;
  double duration = 0.0;
  double mean_driver_power = 0.0;
  double driver_work = 0.0, useful_work = 0.0, friction_work = 0.0;  ///< over the sweep (J)
  bool has_useful_loads = false;
  /// Per driver: its effort with the pairs' friction (as the sweep ran) and without it (the
  /// frictionless walk of the same motion), N m or N.
  std::vector<EffortStatistics> effort, effort_frictionless;
  std::vector<double> friction_energy;  ///< per pair of m.joints() (J)
  std::vector<double> load_activity;    ///< per load: integral of |power| (J); 0 if it does no work
  std::vector<double> max_reaction;     ///< per pair of m.joints(): largest |F| (N) ...
  std::vector<double> max_reaction_t;   ///< ... and when
  /// Per pair: a cam pair's least contact force (N; negative where the follower would leave the
  /// cam) and when; 0 for the other pairs.
  std::vector<double> least_contact, least_contact_t;
  std::vector<CamClosing> closing;          ///< per cam pair (Mechanism::cam_pairs())
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
/// gear `<joint>.torque`; else `.Fx`, `.Fy`, `.F`, for a prismatic pair `.N`, `.M`, for a cam
/// pair `.N` (the contact force, negative where the follower would leave the cam) (what
/// the first body exerts on the second).
void add_reaction_columns(const Joint& j, Table& table);
/// The values of those columns, in the same order, through put(value).
template <class Put>
void put_reaction(const Joint& j, const JointReaction& r, Put&& put) {
  if (j.is<GearPair>()) {
    put(r.moment);
    return;
  }
  put(r.force.x());
  put(r.force.y());
  put(r.force.norm());
  if (j.is<PrismaticPair>()) {
    put(r.normal);
    put(r.moment);
  } else if (j.is<CamPair>()) {
    put(r.normal);
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

}  // namespace linkdyn::planar
