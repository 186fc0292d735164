#pragma once
// The page's script and style, embedded at build time from report.js and report.css
// (cmake/embed_text.cmake).
#include <string_view>

namespace linkdyn::report {

extern const std::string_view report_js;
extern const std::string_view report_css;
extern const std::string_view study_report_js;
extern const std::string_view chart_js;  ///< Chart.js, from Debian's libjs-chart.js
/// dygraphs, its style and its crosshair and synchronizer extras, from Debian's libjs-dygraphs
extern const std::string_view dygraphs_js;
extern const std::string_view dygraphs_css;
extern const std::string_view dygraphs_crosshair_js;
extern const std::string_view dygraphs_synchronizer_js;

}  // namespace linkdyn::report
