#include "report/page.hpp"

#include <fmt/format.h>

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <nlohmann/json.hpp>

#include "linkdyn/core/version.hpp"
#include "report/embedded.hpp"

namespace linkdyn::report {
namespace {

using Json = nlohmann::ordered_json;  // keys in the order written

/// 6 significant digits: enough for a drawing and its readout, and a compact page.
std::string six_digits(double v) { return fmt::format("{:.6g}", v); }

/// v to 6 significant digits, written as an integer where it is one; null if not finite.
Json compact(double v) {
  if (!std::isfinite(v)) return nullptr;
  const double rounded = std::strtod(six_digits(v).c_str(), nullptr);
  if (rounded == std::trunc(rounded) && std::abs(rounded) < 1e15) return static_cast<std::int64_t>(rounded);
  return rounded;
}

Json compact(const std::vector<double>& values) {
  Json out = Json::array();
  for (double v : values) out.push_back(compact(v));
  return out;
}

}  // namespace

std::string animation_json(const Animation& a) {
  Json bodies = Json::array(), ground = Json::array(), frames = Json::array(), paths = Json::object();
  for (const AnimatedBody& b : a.bodies) bodies.push_back({{"name", b.name}, {"offset", b.offset}, {"n", b.points}});
  for (const Vec2& g : a.ground) ground.push_back(compact({g.x(), g.y()}));
  for (const std::vector<double>& f : a.frames) frames.push_back(compact(f));
  for (const auto& [label, path] : a.paths) paths[label] = compact(path);
  const Json data = {{"x", compact(a.x)}, {"xlabel", a.x_label}, {"size", compact(a.size)}, {"bodies", bodies},
                     {"ground", ground},  {"frames", frames},    {"paths", paths}};
  return script_safe(data.dump(-1, ' ', false, Json::error_handler_t::replace));
}

std::string escape_html(const std::string& text) {
  std::string out;
  for (char c : text) {
    if (c == '&')
      out += "&amp;";
    else if (c == '<')
      out += "&lt;";
    else if (c == '>')
      out += "&gt;";
    else
      out += c;
  }
  return out;
}

std::string script_safe(const std::string& json) {
  // '<' only stands in strings: escaped, no "</script>" can close the element early.
  std::string safe;
  for (char c : json) {
    if (c == '<')
      safe += "\\u003c";
    else
      safe += c;
  }
  return safe;
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
