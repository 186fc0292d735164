#include "linkdyn/report/report.hpp"

#include <fmt/format.h>

#include <cmath>

#include "report/page.hpp"
#include "report/report_data.hpp"

namespace linkdyn::report {

void check_report_options(const planar::Mechanism& m, const dynamics::MachineSpec& machine,
                          const planar::TimeGrid& grid, const ReportOptions& options) {
  if (options.dynamics != DynamicsRun::automatic && (machine.actuators.empty() || m.dof() != 1))
    throw InputError(m.spec().where, options.dynamics == DynamicsRun::steady ? "the steady cycle" : "the start-up",
                     "is the direct dynamics of a one-DOF machine with actuators, and this model has " +
                         (m.dof() != 1 ? std::to_string(m.dof()) + " degrees of freedom" : std::string("no actuators")),
                     "leave --steady and --start-up out (Python: dynamics='auto'), or add an actuator "
                     "(docs/model-format.md, Actuators)");
  if (!std::isnan(options.start_up_duration)) {  // an end time given
    if (options.dynamics != DynamicsRun::start_up)
      throw InputError(m.spec().where, "the start-up's end time", "is set, and the report shows no start-up",
                       "choose the start-up (--start-up; Python: dynamics='start-up') or leave the end time out");
    if (!(options.start_up_duration > 0.0 && std::isfinite(options.start_up_duration)))
      throw InputError(
          m.spec().where, "the start-up's end time",
          fmt::format("t = {:g} s is not after the start, t = {:g} s", grid.t0 + options.start_up_duration, grid.t0),
          "give a later end time");
  }
  check_along(m, options.along);
}

std::string planar_report_html(const planar::Mechanism& m, const dynamics::MachineSpec& machine,
                               const planar::TimeGrid& grid, const ReportOptions& options) {
  check_report_options(m, machine, grid, options);
  return report_page(report_data(m, machine, grid, options), options.max_plot_points);
}

}  // namespace linkdyn::report
