#pragma once
// One unit per structural group type, behind one interface [001 Figs. 1-3]: each group solves
// the position, velocity and acceleration of its bodies from the bodies already known.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "linkdyn/planar/mechanism.hpp"
#include "linkdyn/planar/workspace.hpp"

namespace linkdyn::planar {

class Group {
 public:
  Group(std::vector<int> bodies, std::vector<int> joints) : bodies_(std::move(bodies)), joints_(std::move(joints)) {}
  virtual ~Group() = default;

  /// Type letters: "R" / "P" (drivers), "RRR", "RRP", "RPR", "PRP", "RPP" (dyads), "G" (geared
  /// wheel), or the pair letters of a generic group.
  [[nodiscard]] virtual std::string type() const = 0;
  /// Assur class: I for drivers and geared wheels, II for dyads, III and up for larger groups.
  [[nodiscard]] virtual int assur_class() const = 0;
  /// Solves the poses of the group's bodies; false when the group cannot close. Sets
  /// ws.group[self].conditioning.
  [[nodiscard]] virtual bool solve_position(const Mechanism& m, Workspace& ws, int self) const = 0;
  virtual void solve_velocity(const Mechanism& m, Workspace& ws, int self) const = 0;
  virtual void solve_acceleration(const Mechanism& m, Workspace& ws, int self) const = 0;
  /// Kinetostatics [001 Fig. 3]: the reactions of the group's pairs (and a driver's effort)
  /// from the equilibrium of its bodies under ws.load; then adds the reactions on the bodies
  /// it hangs on to their ws.load, for the groups before it.
  virtual void solve_reactions(const Mechanism& m, Workspace& ws, int self) const = 0;
  [[nodiscard]] virtual bool has_transmission_angle() const { return false; }
  /// Acute transmission angle (pi/2 ideal, 0 at a dead point) for dyads that have one.
  [[nodiscard]] virtual std::optional<double> transmission_angle(const Mechanism&, const Workspace&) const {
    return std::nullopt;
  }
  /// Conditioning below which the group's rates lose accuracy (their rounding errors grow as the
  /// inverse cube of the conditioning): values there are better taken from both sides
  /// (SingularLimit). 0: the group has no such band (its conditioning is not a geometric sine).
  [[nodiscard]] virtual double near_singular_conditioning() const { return 0.0; }
  /// Size of the Newton buffers the group needs in the workspace (0 for closed forms).
  [[nodiscard]] virtual int newton_unknowns() const { return 0; }
  /// The joint that names the group in outputs (a dyad's inner joint).
  [[nodiscard]] virtual int label_joint() const { return joints_.empty() ? -1 : joints_.front(); }

  [[nodiscard]] const std::vector<int>& bodies() const { return bodies_; }
  [[nodiscard]] const std::vector<int>& joints() const { return joints_; }

 protected:
  std::vector<int> bodies_;
  std::vector<int> joints_;
};

}  // namespace linkdyn::planar
