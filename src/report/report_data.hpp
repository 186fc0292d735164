#pragma once
// What the report shows, assembled from one run of each analysis: the animation of the
// mechanism, the plots by section and the summary text.
#include <string>
#include <utility>
#include <vector>

#include "linkdyn/report/report.hpp"

namespace linkdyn::report {

/// A moving body in the animation: its points' x, y in each frame from `offset` on.
struct AnimatedBody {
  std::string name;
  size_t offset = 0;
  size_t points = 0;  ///< its named points, or 1 (its frame's origin) if it has none
};

/// The animation's SVG viewBox, y pointing down.
struct ViewBox {
  double x = 0, y = 0, width = 0, height = 0;
};

struct Animation {
  std::string x_label;
  std::vector<double> x;  ///< the x axis at each frame
  std::vector<AnimatedBody> bodies;
  std::vector<Vec2> ground;                 ///< the ground's named points
  std::vector<std::vector<double>> frames;  ///< every body's points, x then y
  /// Each output point's path: x then y at each frame.
  std::vector<std::pair<std::string, std::vector<double>>> paths;
  double size = 0;  ///< the largest extent of the drawing (scales its marks)
  ViewBox view;
};

struct PlotSection {
  std::string heading;
  std::vector<Plot> plots;
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
ReportData report_data(const planar::Mechanism& m, const dynamics::MachineSpec& machine, const planar::TimeGrid& grid,
                       const ReportOptions& options);

}  // namespace linkdyn::report
