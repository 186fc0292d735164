#include "linkdyn/report/report.hpp"

#include "report/page.hpp"
#include "report/report_data.hpp"

namespace linkdyn::report {

std::string planar_report_html(const planar::Mechanism& m, const dynamics::MachineSpec& machine,
                               const planar::TimeGrid& grid, const ReportOptions& options) {
  return report_page(report_data(m, machine, grid, options), options.max_plot_points);
}

}  // namespace linkdyn::report
