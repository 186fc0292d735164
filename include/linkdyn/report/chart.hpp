#pragma once
// The report's charts, typed: each axis carries the kind of quantity it shows and the unit of its
// values from where the chart is made, and the charts, their links to the animation and their
// texts are chosen from these fields, never read back from a label. The labels drawn (the SVG,
// the page) are written from them.
#include <string>
#include <vector>

#include "linkdyn/io/svg_plot.hpp"

namespace linkdyn::report {

/// What a plotted quantity is.
enum class Kind {
  time,
  angle,
  length,
  angular_velocity,
  velocity,
  angular_acceleration,
  acceleration,
  jerk,                  ///< a cam follower's, linear or angular
  velocity_ratio,        ///< a rate per driver rate (a first-order kinematic coefficient)
  mechanical_advantage,  ///< an output force per driver effort
  force,
  moment,
  power,
  energy,
  current,
  efficiency,
  inertia,             ///< a reduced inertia m(q) [003]
  inertia_derivative,  ///< dm/dq
  pressure,            ///< a cylinder's
};

/// An axis of a chart: the kind of its quantity, the unit of its values as plotted ("" for a pure
/// number), its name and, for a driver's coordinate or rate, that driver's index.
struct Axis {
  Kind kind = Kind::time;
  std::string unit;  ///< e.g. "deg", "mm", "N m"
  std::string name;  ///< e.g. "angle", "crank_drive angle", "omega / q'"
  int driver = -1;   ///< index in Mechanism::drivers(), or -1
  /// "name (unit)", or the name alone for a pure number.
  [[nodiscard]] std::string label() const;
  bool operator==(const Axis&) const = default;
};

/// Series of one quantity against another.
struct Chart {
  std::string id;  ///< file name and element id, e.g. "kinematics-angles"
  std::string title;
  Axis x, y;
  std::vector<io::PlotSeries> series{};
  bool path = false;   ///< an x-y path (coupler curves): equal scales, a dot per series as marker
  bool linked = true;  ///< a marker follows the report's slider (its x is the animation's x)
  /// As drawn (io::render_svg): the axes' labels.
  [[nodiscard]] io::Plot plot() const;
};

/// Every chart as drawn.
[[nodiscard]] std::vector<io::Plot> plots(const std::vector<Chart>& charts);

}  // namespace linkdyn::report
