#pragma once
// The x axis of the plots and of the animation's readout.
#include <string>
#include <vector>

#include <Eigen/Core>

#include "linkdyn/planar/mechanism.hpp"

namespace linkdyn::report {

struct XAxis {
  std::string label;
  std::vector<double> values;  ///< one per table row
};

/// The first driver's coordinate q.col(0) when it is monotonic over the rows (in deg for a
/// rotational driver), else time t.
[[nodiscard]] XAxis x_axis(const planar::Mechanism& m, const Eigen::VectorXd& t, const Eigen::MatrixXd& q);

/// The first driver's coordinate at the values q (in deg for a rotational driver).
[[nodiscard]] XAxis driver_axis(const planar::Mechanism& m, const std::vector<double>& q);

}  // namespace linkdyn::report
