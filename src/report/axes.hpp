#pragma once
// The charts' axes: time, the drivers' coordinates (the x axis of the plots and of the
// animation's readout), rates and efforts, and the quantities several charts share.
#include <vector>

#include <Eigen/Core>

#include "linkdyn/planar/mechanism.hpp"
#include "linkdyn/report/chart.hpp"

namespace linkdyn::report {

struct XAxis {
  Axis axis;
  std::vector<double> values;  ///< one per table row
};

/// The time t (s).
[[nodiscard]] Axis time_axis();
Axis angle_axis();    ///< deg
Axis force_axis();    ///< N
Axis torque_axis();   ///< N m
Axis power_axis();    ///< W
Axis current_axis();  ///< A
/// Driver d's coordinate: its angle (deg) or position (m).
[[nodiscard]] Axis coordinate_axis(const planar::Mechanism& m, size_t d);
/// Driver d's rate (its column's name): rad/s or m/s.
[[nodiscard]] Axis rate_axis(const planar::Mechanism& m, size_t d);
/// What driver d exerts: a torque (N m) or a force (N).
[[nodiscard]] Axis effort_axis(const planar::Mechanism& m, size_t d);

/// The first driver's coordinate q.col(0) when it is monotonic over the rows (in deg for a
/// rotational driver), else time t.
[[nodiscard]] XAxis x_axis(const planar::Mechanism& m, const Eigen::VectorXd& t, const Eigen::MatrixXd& q);

/// The first driver's coordinate at the values q (in deg for a rotational driver).
[[nodiscard]] XAxis driver_axis(const planar::Mechanism& m, const std::vector<double>& q);

}  // namespace linkdyn::report
