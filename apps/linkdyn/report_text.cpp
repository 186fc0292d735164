// Text shared by the commands: driver values, sweep events.
#include <fmt/core.h>

#include <cmath>

#include "commands.hpp"

namespace linkdyn::cli {

std::string driver_values(const planar::Mechanism& m, const std::vector<double>& q) {
  std::string out;
  for (size_t d = 0; d < m.drivers().size(); ++d) {
    const planar::Driver& drv = m.drivers()[d];
    if (!out.empty()) out += ", ";
    out += drv.type == planar::DriverType::rotational
               ? fmt::format("{} = {:.6g} deg", drv.name, q[d] * 180.0 / M_PI)
               : fmt::format("{} = {:.6g} m", drv.name, q[d]);
  }
  return out;
}

void print_sweep_events(const planar::Mechanism& m, const planar::SweepSummary& summary) {
  if (summary.absent > 0) {
    fmt::print("the mechanism assembles on {} of {} steps, over t in", summary.steps - summary.absent,
               summary.steps);
    for (const auto& [a, b] : summary.intervals) fmt::print(" [{:.6g}, {:.6g}] s", a, b);
    fmt::print("\n");
  }
  for (const planar::SweepEvent& e : summary.events) {
    fmt::print("  t = {:.9g} s ({}): {}\n", e.t, driver_values(m, e.q), e.message);
  }
}

void require_start_assembly(const planar::Mechanism& m, const planar::TimeGrid& grid) {
  planar::Workspace ws(m);
  planar::set_drivers(m, ws, grid.t0);
  const planar::KinematicStatus status = planar::solve_positions(m, ws);
  if (!status.ok()) {
    throw AnalysisError(m.spec().where.file + ": " + planar::describe(m, ws, status) +
                        "; change the dimensions, the drivers' start values or the assembly hints");
  }
}

}  // namespace linkdyn::cli
