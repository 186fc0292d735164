#pragma once
// Line plots as SVG, written from C++ (no plotting library needed offline): axes with units,
// ticks, grid, legend, and the pixel mapping as data attributes so that a page can place a
// marker at a given x. Long series are decimated for display only (min/max per bucket, which
// keeps every extreme); the CSV keeps every row.
#include <string>
#include <vector>

namespace linkdyn::io {

struct PlotSeries {
  std::string label;
  std::vector<double> x, y;  ///< NaN breaks the line
  std::string point;         ///< for path plots: the animated point this series traces
};

struct Plot {
  std::string id;  ///< file name and element id, e.g. "kinematics-angles"
  std::string title;
  std::string x_label, y_label;  ///< with units, e.g. "crank angle (deg)"
  std::vector<PlotSeries> series;
  bool path = false;   ///< an x-y path (coupler curves): equal scales, a dot per series as marker
  bool linked = true;  ///< a marker follows the report's slider (its x is the animation's x)
};

/// The indices of y kept for display, at most about max_points: all when short; else, per
/// bucket, its first point and its extremes (peaks survive decimation).
[[nodiscard]] std::vector<size_t> display_indices(const std::vector<double>& y, size_t max_points);

/// The SVG document of a plot.
[[nodiscard]] std::string render_svg(const Plot& plot, int width = 640, int height = 360, size_t max_points = 2000);
/// Writes one SVG file per plot, DIR/<id>.svg; returns the paths.
std::vector<std::string> write_svg_files(const std::string& dir, const std::vector<Plot>& plots);

}  // namespace linkdyn::io
