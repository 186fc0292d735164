#pragma once
// Results people can look at: the plots of each analysis, and one self-contained HTML report
// with an animation of the mechanism linked to every plot (a slider moves the mechanism and a
// marker on each plot). Everything is inline: the page opens offline.
#include <string>
#include <vector>

#include "linkdyn/core/table.hpp"
#include "linkdyn/dynamics/machine_spec.hpp"
#include "linkdyn/dynamics/reduced.hpp"
#include "linkdyn/io/svg_plot.hpp"
#include "linkdyn/planar/kinetostatics.hpp"

namespace linkdyn::report {

using io::Plot;

/// Body angles, angular velocities and accelerations, point paths (coupler curves), point
/// speeds and transmission angles, against the first driver's coordinate (or time).
std::vector<Plot> kinematics_plots(const planar::Mechanism& m, const Table& kinematics);
/// Driver efforts with and without friction, pair reactions, friction power, efficiency.
std::vector<Plot> kinetostatics_plots(const planar::Mechanism& m, const Table& kinetostatics);

/// The reduced inertia m(q) and dm/dq by both methods of [003], against the coordinate.
std::vector<Plot> reduced_plots(const planar::Mechanism& m, const dynamics::ReducedTable& table);
/// Speed of each coordinate against time, and the motors' currents, actuator torques and
/// forces, constraint actions and (Kane) the pairs' reactions |F|.
std::vector<Plot> simulation_plots(const planar::Mechanism& m, const dynamics::MachineSpec& machine, const Table& simulation);

struct ReportOptions {
  bool kinetostatics = true;  ///< include the kinetostatics (frictionless if the model has none)
  planar::KinetostaticsOptions solver;
  size_t max_frames = 600;        ///< animation frames, decimated from the grid
  size_t max_plot_points = 2000;  ///< per series, decimated for display
};

/// The HTML report of a planar mechanism over `grid` (with its machine, a simulation too).
std::string planar_report_html(const planar::Mechanism& m, const dynamics::MachineSpec& machine,
                               const planar::TimeGrid& grid, const ReportOptions& options = {});

}  // namespace linkdyn::report
