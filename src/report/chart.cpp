#include "linkdyn/report/chart.hpp"

namespace linkdyn::report {

std::string Axis::label() const { return unit.empty() ? name : name + " (" + unit + ")"; }

io::Plot Chart::plot() const { return {id, title, x.label(), y.label(), series, path, linked}; }

std::vector<io::Plot> plots(const std::vector<Chart>& charts) {
  std::vector<io::Plot> out;
  out.reserve(charts.size());
  for (const Chart& c : charts) out.push_back(c.plot());
  return out;
}

}  // namespace linkdyn::report
