#pragma once
// One self-contained HTML report of a planar mechanism, with an animation of the mechanism
// linked to every plot (a slider moves the mechanism and a marker on each plot). Everything is
// inline: the page opens offline.
#include <limits>
#include <string>

#include "linkdyn/dynamics/machine_spec.hpp"
#include "linkdyn/dynamics/simulation_result.hpp"
#include "linkdyn/planar/kinetostatics.hpp"
#include "linkdyn/report/plots.hpp"
#include "linkdyn/study/study.hpp"

namespace linkdyn::report {

/// Which run of the direct dynamics a report shows (a one-DOF machine with actuators).
enum class DynamicsRun {
  automatic,  ///< the steady cycle when one exists, else the start-up (the summary says why)
  steady,     ///< the steady cycle; AnalysisError when there is none
  start_up,   ///< from rest (speed and currents 0) for start_up_duration
};

struct ReportOptions {
  bool kinetostatics = true;  ///< include the kinetostatics (frictionless if the model has none)
  DynamicsRun dynamics = DynamicsRun::automatic;
  /// The start-up's duration (s); NaN: five times the analysis grid's, at least 1 s.
  double start_up_duration = std::numeric_limits<double>::quiet_NaN();
  planar::KinetostaticsOptions solver;
  /// The direct dynamics' method and relative tolerance (the absolute one follows it).
  dynamics::Method method = dynamics::Method::automatic;
  double rel_tol = 1e-9;
  std::vector<PointDirection> along;  ///< points whose motion along a direction is plotted
  size_t max_frames = 600;            ///< animation frames, decimated from the grid
  size_t max_plot_points = 2000;      ///< per series, decimated for display
};

/// InputError (naming the model) for options the model cannot honour: a steady cycle or a
/// start-up without actuators or with several degrees of freedom, a start-up end time without
/// the start-up or not after grid.t0, an --along point that is not tracked.
void check_report_options(const planar::Mechanism& m, const dynamics::MachineSpec& machine,
                          const planar::TimeGrid& grid, const ReportOptions& options);

/// The HTML report of a planar mechanism over `grid` (with its machine, a simulation too); the
/// options checked first (check_report_options).
[[nodiscard]] std::string planar_report_html(const planar::Mechanism& m, const dynamics::MachineSpec& machine,
                                             const planar::TimeGrid& grid, const ReportOptions& options = {});

/// The HTML page of a design study: the metrics' histograms, each metric against each parameter,
/// the sensitivities, an optimisation's convergence and Pareto front (interactive charts of the
/// embedded Chart.js: values under the cursor, series toggled from the legend).
[[nodiscard]] std::string study_report_html(const io::Study& study, const study::StudyResult& result);

}  // namespace linkdyn::report
