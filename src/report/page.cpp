#include "report/page.hpp"

#include <fmt/format.h>

#include <cmath>

#include "linkdyn/core/version.hpp"
#include "report/embedded.hpp"

namespace linkdyn::report {
namespace {

std::string escape_html(const std::string& text) {
  std::string out;
  for (char c : text) {
    if (c == '&') out += "&amp;";
    else if (c == '<') out += "&lt;";
    else if (c == '>') out += "&gt;";
    else out += c;
  }
  return out;
}

/// 6 significant digits: enough for a drawing and its readout, and a compact page.
std::string six_digits(double v) { return fmt::format("{:.6g}", v); }

/// A JSON string (for names; '<' escaped so that no "</script>" can appear).
std::string json_string(const std::string& text) {
  std::string out = "\"";
  for (char c : text) {
    if (c == '"' || c == '\\') out += '\\', out += c;
    else if (c == '<') out += "\\u003c";
    else if (static_cast<unsigned char>(c) < 0x20) out += ' ';
    else out += c;
  }
  return out + "\"";
}

std::string number(double v) { return std::isfinite(v) ? six_digits(v) : "null"; }

/// Appends the values as a JSON list of numbers.
void append_numbers(std::string& out, const std::vector<double>& values) {
  out += '[';
  for (size_t k = 0; k < values.size(); ++k) {
    if (k) out += ',';
    out += number(values[k]);
  }
  out += ']';
}

}  // namespace

std::string animation_json(const Animation& a) {
  std::string data = "{\"x\":";
  append_numbers(data, a.x);
  data += ",\"xlabel\":" + json_string(a.x_label) + ",\"size\":" + number(a.size) + ",\"bodies\":[";
  for (size_t b = 0; b < a.bodies.size(); ++b)
    data += fmt::format("{}{{\"name\":{},\"offset\":{},\"n\":{}}}", b ? "," : "", json_string(a.bodies[b].name),
                        a.bodies[b].offset, a.bodies[b].points);
  data += "],\"ground\":[";
  for (size_t k = 0; k < a.ground.size(); ++k) {
    if (k) data += ',';
    append_numbers(data, {a.ground[k].x(), a.ground[k].y()});
  }
  data += "],\"frames\":[";
  for (size_t k = 0; k < a.frames.size(); ++k) {
    if (k) data += ',';
    append_numbers(data, a.frames[k]);
  }
  data += "],\"paths\":{";
  for (size_t k = 0; k < a.paths.size(); ++k) {
    if (k) data += ',';
    data += json_string(a.paths[k].first) + ':';
    append_numbers(data, a.paths[k].second);
  }
  return data + "}}";
}

std::string report_page(const ReportData& data, size_t max_plot_points) {
  size_t plot_count = 0;
  for (const PlotSection& s : data.sections) plot_count += s.plots.size();
  const ViewBox& view = data.animation.view;
  std::string html = fmt::format(
      R"html(<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<title>linkdyn report: {title}</title>
<style>
{style}</style></head>
<body data-plots="{plots}">
<h1>{title}</h1>
<p>linkdyn {version}: kinematics{analyses} of a planar mechanism. Move the slider or press Play: the mechanism
and the dashed markers on every plot follow.</p>
<div id="anim">
<div><svg id="mech" viewBox="{x} {y} {width} {height}" preserveAspectRatio="xMidYMid meet"><g id="scene" transform="scale(1,-1)"></g></svg>
<div class="controls"><button id="play" type="button">Play</button>
<input id="slider" type="range" min="0" max="{last_frame}" value="0" step="1"> <span id="readout"></span></div></div>
<div><h2>Summary</h2><pre>{summary}</pre></div>
</div>
)html",
      fmt::arg("title", escape_html(data.title)), fmt::arg("style", report_css), fmt::arg("plots", plot_count),
      fmt::arg("version", linkdyn::version), fmt::arg("analyses", data.kinetostatics ? " and kinetostatics" : ""),
      fmt::arg("x", six_digits(view.x)), fmt::arg("y", six_digits(view.y)), fmt::arg("width", six_digits(view.width)),
      fmt::arg("height", six_digits(view.height)),
      fmt::arg("last_frame", data.animation.frames.empty() ? 0 : data.animation.frames.size() - 1),
      fmt::arg("summary", escape_html(data.summary)));
  for (const PlotSection& s : data.sections) {
    html += "<h2>" + escape_html(s.heading) + "</h2>\n<div class=\"plots\">\n";
    for (const Plot& p : s.plots) html += io::render_svg(p, 640, 360, max_plot_points);
    html += "</div>\n";
  }
  html += "<script id=\"data\" type=\"application/json\">" + animation_json(data.animation) + "</script>\n";
  html += "<script>\n";
  html += report_js;
  html += "</script>\n</body></html>\n";
  return html;
}

}  // namespace linkdyn::report
