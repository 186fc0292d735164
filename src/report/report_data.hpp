#pragma once
// What the report shows, assembled from one run of each analysis: the animation of the
// mechanism, the plots by section and the summary text.
#include <string>
#include <utility>
#include <vector>

#include "linkdyn/report/report.hpp"
#include "report/animation.hpp"

namespace linkdyn::report {

struct PlotSection {
  std::string heading;
  std::vector<Chart> plots;
};

struct ReportData {
  std::string title;
  bool kinetostatics = false;  ///< whether the kinetostatics ran
  std::string summary;
  Animation animation;
  std::vector<PlotSection> sections;
};

/// Runs each analysis once (the kinematic sweep gives both the table and the frames; then the
/// kinetostatics, the reduced parameters and a simulation where they apply) and assembles what
/// the page shows.
[[nodiscard]] ReportData report_data(const planar::Mechanism& m, const dynamics::MachineSpec& machine,
                                     const planar::TimeGrid& grid, const ReportOptions& options);

}  // namespace linkdyn::report
