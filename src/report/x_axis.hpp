#pragma once
// The x axis of the plots and of the animation's readout.
#include <string>
#include <vector>

#include "linkdyn/core/table.hpp"
#include "linkdyn/planar/mechanism.hpp"

namespace linkdyn::report {

struct XAxis {
  std::string label;
  std::vector<double> values;  ///< one per table row
};

/// The first driver's coordinate when it is monotonic over the table (in deg for a rotational
/// driver), else time.
XAxis x_axis(const planar::Mechanism& m, const Table& table);

/// The first driver's coordinate at the values q (in deg for a rotational driver).
XAxis driver_axis(const planar::Mechanism& m, const std::vector<double>& q);

}  // namespace linkdyn::report
