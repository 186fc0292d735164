#pragma once
// The report's page: one self-contained HTML file (inline SVG plots, the animation's data as
// JSON, the embedded script and style).
#include <string>

#include "report/report_data.hpp"

namespace linkdyn::report {

/// The animation's data as compact JSON (numbers to 6 significant digits), safe inside a
/// <script> element.
[[nodiscard]] std::string animation_json(const Animation& animation);
/// Text made safe inside HTML elements (&, <, > escaped).
[[nodiscard]] std::string escape_html(const std::string& text);
/// JSON text made safe inside a <script> element.
[[nodiscard]] std::string script_safe(const std::string& json);

/// The page, each series of a plot decimated to about max_plot_points points.
[[nodiscard]] std::string report_page(const ReportData& data, size_t max_plot_points);

}  // namespace linkdyn::report
