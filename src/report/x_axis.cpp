#include "report/x_axis.hpp"

#include <cmath>

namespace linkdyn::report {

XAxis driver_axis(const planar::Mechanism& m, const std::vector<double>& q) {
  const planar::Driver& driver = m.drivers().front();
  const bool rotational = driver.type == planar::DriverType::rotational;
  XAxis axis{driver.name + (rotational ? " angle (deg)" : " position (m)"), {}};
  axis.values.reserve(q.size());
  for (double value : q) axis.values.push_back(value * (rotational ? 180.0 / M_PI : 1.0));
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
  return XAxis{"t (s)", std::vector<double>(t.begin(), t.end())};
}

}  // namespace linkdyn::report
