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

XAxis x_axis(const planar::Mechanism& m, const Table& table) {
  const size_t rows = table.rows();
  if (!m.drivers().empty() && rows > 1) {
    bool up = true, down = true;
    for (size_t r = 1; r < rows; ++r) {
      const double d = table.at(r, 1) - table.at(r - 1, 1);
      up = up && d > 0, down = down && d < 0;
    }
    if (up || down) {
      std::vector<double> q(rows);
      for (size_t r = 0; r < rows; ++r) q[r] = table.at(r, 1);
      return driver_axis(m, q);
    }
  }
  XAxis axis{"t (s)", std::vector<double>(rows)};
  for (size_t r = 0; r < rows; ++r) axis.values[r] = table.at(r, 0);
  return axis;
}

}  // namespace linkdyn::report
