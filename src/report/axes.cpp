#include "report/axes.hpp"

#include <cmath>

#include "linkdyn/planar/sweep.hpp"

namespace linkdyn::report {
namespace {

bool rotational(const planar::Mechanism& m, size_t d) { return m.drivers()[d].type == planar::DriverType::rotational; }

}  // namespace

Axis time_axis() { return {Kind::time, "s", "t"}; }
Axis angle_axis() { return {Kind::angle, "deg", "angle"}; }
Axis force_axis() { return {Kind::force, "N", "force"}; }
Axis torque_axis() { return {Kind::moment, "N m", "torque"}; }
Axis power_axis() { return {Kind::power, "W", "power"}; }
Axis current_axis() { return {Kind::current, "A", "current"}; }

Axis coordinate_axis(const planar::Mechanism& m, size_t d) {
  const std::string& name = m.drivers()[d].name;
  return rotational(m, d) ? Axis{Kind::angle, "deg", name + " angle", static_cast<int>(d)}
                          : Axis{Kind::length, "m", name + (m.drivers()[d].cylinder >= 0 ? " length" : " position"),
                                 static_cast<int>(d)};
}

Axis rate_axis(const planar::Mechanism& m, size_t d) {
  const std::string column = planar::driver_column(m.drivers()[d], 1);
  return rotational(m, d) ? Axis{Kind::angular_velocity, "rad/s", column, static_cast<int>(d)}
                          : Axis{Kind::velocity, "m/s", column, static_cast<int>(d)};
}

Axis effort_axis(const planar::Mechanism& m, size_t d) { return rotational(m, d) ? torque_axis() : force_axis(); }

XAxis driver_axis(const planar::Mechanism& m, const std::vector<double>& q) {
  XAxis axis{coordinate_axis(m, 0), {}};
  const double scale = axis.axis.kind == Kind::angle ? 180.0 / M_PI : 1.0;
  axis.values.reserve(q.size());
  for (double value : q) axis.values.push_back(value * scale);
  return axis;
}

XAxis x_axis(const planar::Mechanism& m, const Eigen::VectorXd& t, const Eigen::MatrixXd& q) {
  const auto rows = static_cast<size_t>(t.size());
  if (!m.drivers().empty() && rows > 1) {
    bool up = true, down = true;
    for (Eigen::Index r = 1; r < t.size(); ++r) {
      const double d = q(r, 0) - q(r - 1, 0);
      up = up && d > 0, down = down && d < 0;
    }
    if (up || down) return driver_axis(m, std::vector<double>(q.col(0).begin(), q.col(0).end()));
  }
  return XAxis{time_axis(), std::vector<double>(t.begin(), t.end())};
}

}  // namespace linkdyn::report
