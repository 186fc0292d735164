#pragma once
// External loads, gravity and force elements [001], [003 Eqs. 7-9]. A load is a sum of parts,
// each a magnitude (constant, tabulated against a coordinate or its rate, or linear in one:
// springs, dampers, viscous forces) times a unit pattern at the load's points (LoadPart in
// mechanism.hpp). The same parts serve kinetostatics, the constrained dynamics and the reduced
// tables (which tabulate each pattern's generalized force and each coordinate against q).
#include <limits>
#include <utility>
#include <vector>

#include "linkdyn/planar/coordinate.hpp"

namespace linkdyn::planar {

/// A load table's segment not held (the segment that holds the coordinate is used).
inline constexpr int no_segment = std::numeric_limits<int>::min();

/// The parts of a load from its description (compile() stores them in Load::parts).
[[nodiscard]] std::vector<LoadPart> load_parts(const Load& load);

/// The load's table coordinate: its coordinate's value or rate.
[[nodiscard]] double table_coordinate(const Load& load, const CoordinateValue& c);
/// The table's segment (rows k, k + 1) that holds x; a periodic table's segments are numbered on
/// over the periods (k + p (rows - 1) in period p), so x never jumps within a segment.
[[nodiscard]] int table_segment(const Load& load, double x);
/// The coordinates at a segment's two ends (shifted by whole periods for a periodic table).
[[nodiscard]] std::pair<double, double> table_segment_ends(const Load& load, int segment);
/// The load's table column at x (a table coordinate): on `segment`'s line when given (held over
/// an integrator step: the table's kinks are events), else on the segment that holds x, with an
/// InputError naming the model line, the load and the value when x lies outside a
/// non-periodic table.
[[nodiscard]] double table_value(const Load& load, double x, int column, int segment = no_segment);
/// A part's magnitude from its coordinate's value and rate (on the table segment given).
[[nodiscard]] double magnitude_at(const Load& load, const Magnitude& magnitude, const CoordinateValue& x,
                                  int segment = no_segment);
/// A part's magnitude at the workspace's state and time t (on ws.load_segment's table segment).
[[nodiscard]] double part_magnitude(const Mechanism& m, const Workspace& ws, const Load& load, const LoadPart& part,
                                    double t);
/// The part's unit pattern as wrenches (about the body frames' origins) on up to two bodies.
void part_pattern(const Mechanism& m, const Workspace& ws, const LoadPart& part, int body[2], Wrench w[2]);
/// The power of the unit pattern at the workspace's velocities, and its time derivative at its
/// accelerations (for a pattern fixed in direction, d . a of the point; for a tension, -L'').
[[nodiscard]] double pattern_power(const Mechanism& m, const Workspace& ws, const LoadPart& part);
[[nodiscard]] double pattern_power_rate(const Mechanism& m, const Workspace& ws, const LoadPart& part);
/// The weight of a body as a wrench about its frame's origin.
[[nodiscard]] Wrench gravity_load(const Mechanism& m, const Workspace& ws, int body);

/// ws.applied from the model's loads, gravity and force elements at time t.
void evaluate_loads(const Mechanism& m, Workspace& ws, double t);
/// Power of the applied loads (all, gravity included, or only the useful ones) at the current
/// velocities.
[[nodiscard]] double load_power(const Mechanism& m, const Workspace& ws, double t, bool useful_only);
/// Power of one load (W).
[[nodiscard]] double load_power(const Mechanism& m, const Workspace& ws, const Load& load, double t);
/// The power of a load's parts whose magnitude varies (tables, springs, dampers, viscous).
[[nodiscard]] double variable_load_power(const Mechanism& m, const Workspace& ws, const Load& load, double t);
/// The potential of a load's constant parts: sum of gain x (direction . point) for forces and
/// gain x angle for moments; its change is their work (path-independent).
[[nodiscard]] double constant_load_potential(const Mechanism& m, const Workspace& ws, const Load& load);
/// True for springs and torsional springs (their work is a change of potential energy).
[[nodiscard]] inline bool conservative(const Load& load) { return load.is<Spring>() || load.is<TorsionalSpring>(); }

/// Potential energy of gravity, springs and torsional springs (J).
[[nodiscard]] double potential_energy(const Mechanism& m, const Workspace& ws);

}  // namespace linkdyn::planar
