#pragma once
// One self-contained HTML report of a planar mechanism, with an animation of the mechanism
// linked to every plot (a slider moves the mechanism and a marker on each plot). Everything is
// inline: the page opens offline.
#include <string>

#include "linkdyn/dynamics/machine_spec.hpp"
#include "linkdyn/planar/kinetostatics.hpp"
#include "linkdyn/report/plots.hpp"
#include "linkdyn/study/study.hpp"

namespace linkdyn::report {

struct ReportOptions {
  bool kinetostatics = true;  ///< include the kinetostatics (frictionless if the model has none)
  planar::KinetostaticsOptions solver;
  size_t max_frames = 600;        ///< animation frames, decimated from the grid
  size_t max_plot_points = 2000;  ///< per series, decimated for display
};

/// The HTML report of a planar mechanism over `grid` (with its machine, a simulation too).
std::string planar_report_html(const planar::Mechanism& m, const dynamics::MachineSpec& machine,
                               const planar::TimeGrid& grid, const ReportOptions& options = {});

/// The HTML page of a design study: the metrics' histograms, each metric against each parameter,
/// the sensitivities, an optimisation's convergence and Pareto front (interactive charts of the
/// embedded Chart.js: values under the cursor, series toggled from the legend).
std::string study_report_html(const io::Study& study, const study::StudyResult& result);

}  // namespace linkdyn::report
