#include "report/page.hpp"

#include <fmt/format.h>

#include <algorithm>
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

/// Whether every series of the chart is sampled at the first one's x.
bool shared_x(const Chart& p) {
  for (const io::PlotSeries& s : p.series)
    if (s.x != p.series.front().x || s.y.size() != s.x.size()) return false;
  return true;
}

/// A chart's data for the page's plotting library: its labels (x first) and rows [x, y1, y2 ...],
/// each series decimated to about max_points points keeping its peaks (io::display_indices).
/// Series on a common x share rows (NaN: a gap); otherwise each row carries one series' value
/// and the others are null ("merged": the page joins each series' points across them).
Json chart_json(const Chart& p, size_t max_points) {
  Json labels = Json::array({p.x.label()});
  for (const io::PlotSeries& s : p.series) labels.push_back(s.label);
  Json rows = Json::array();
  const bool merged = !p.series.empty() && !shared_x(p);
  if (!p.series.empty() && !merged) {
    std::vector<size_t> keep;
    for (const io::PlotSeries& s : p.series) {
      const std::vector<size_t> k = io::display_indices(s.y, max_points);
      keep.insert(keep.end(), k.begin(), k.end());
    }
    std::sort(keep.begin(), keep.end());
    keep.erase(std::unique(keep.begin(), keep.end()), keep.end());
    const std::vector<double>& x = p.series.front().x;
    for (size_t k : keep) {
      if (!std::isfinite(x[k])) continue;
      Json row = Json::array({compact(x[k])});
      for (const io::PlotSeries& s : p.series) row.push_back(compact(s.y[k]));
      rows.push_back(std::move(row));
    }
  } else if (merged) {
    struct Sample {
      double x;
      size_t series;
      double y;
    };
    std::vector<Sample> samples;
    for (size_t s = 0; s < p.series.size(); ++s)
      for (size_t k : io::display_indices(p.series[s].y, max_points))
        if (k < p.series[s].x.size() && std::isfinite(p.series[s].x[k]) && std::isfinite(p.series[s].y[k]))
          samples.push_back({p.series[s].x[k], s, p.series[s].y[k]});
    std::stable_sort(samples.begin(), samples.end(), [](const Sample& a, const Sample& b) { return a.x < b.x; });
    for (const Sample& sample : samples) {
      Json row = Json::array({compact(sample.x)});
      for (size_t s = 0; s < p.series.size(); ++s) row.push_back(s == sample.series ? compact(sample.y) : Json());
      rows.push_back(std::move(row));
    }
  }
  // The library wants x ascending: a driver turning backwards gives descending rows.
  if (rows.size() > 1 && rows.front()[0].get<double>() > rows.back()[0].get<double>())
    std::reverse(rows.begin(), rows.end());
  return {{"id", p.id},         {"title", p.title}, {"xlabel", p.x.label()}, {"ylabel", p.y.label()},
          {"linked", p.linked}, {"merged", merged}, {"labels", labels},      {"rows", rows}};
}

}  // namespace

std::string animation_json(const Animation& a) {
  Json bodies = Json::array(), ground = Json::array(), frames = Json::array(), paths = Json::object();
  for (const AnimatedBody& b : a.bodies) bodies.push_back({{"name", b.name}, {"offset", b.offset}, {"n", b.points}});
  for (const Vec2& g : a.ground) ground.push_back(compact({g.x(), g.y()}));
  for (const std::vector<double>& f : a.frames) frames.push_back(compact(f));
  for (const auto& [label, path] : a.paths) paths[label] = compact(path);
  auto point = [](const AnchoredPoint& p) { return Json::array({p.body, compact(p.local.x()), compact(p.local.y())}); };
  Json poses = Json::array(), pivots = Json::array(), guides = Json::array(), blocks = Json::array(),
       elements = Json::array(), loads = Json::array(), wheels = Json::array(), cams = Json::array();
  for (const std::vector<double>& p : a.poses) poses.push_back(compact(p));
  for (const Vec2& p : a.pivots) pivots.push_back(compact({p.x(), p.y()}));
  for (const GuideLine& g : a.guides)
    guides.push_back({{"at", point(g.anchor)},
                      {"dir", compact({g.direction.x(), g.direction.y()})},
                      {"span", compact({g.from, g.to})}});
  for (const SliderBlock& b : a.blocks)
    blocks.push_back({{"at", point(b.centre)}, {"guide", b.guide}, {"size", compact({b.length, b.width})}});
  for (const ForceElementLine& e : a.elements)
    elements.push_back(
        {{"kind", e.kind}, {"ends", {point(e.ends[0]), point(e.ends[1])}}, {"lengths", {e.lengths[0], e.lengths[1]}}});
  for (const LoadArrow& l : a.loads)
    loads.push_back({{"name", l.name}, {"at", point(l.at)}, {"force", compact(l.force)}});
  for (const Wheel& w : a.wheels)
    wheels.push_back({{"kind", w.kind}, {"at", point(w.centre)}, {"r", compact(w.radius)}});
  for (const CamOutline& c : a.cams) {
    std::vector<double> profile;
    for (const Vec2& p : c.profile) profile.insert(profile.end(), {p.x(), p.y()});
    cams.push_back({{"body", c.body},
                    {"profile", compact(profile)},
                    {"roller", point(c.roller)},
                    {"r", compact(c.roller_radius)}});
  }
  const Json data = {{"x", compact(a.x)},       {"xlabel", a.x_label},
                     {"size", compact(a.size)}, {"bodies", bodies},
                     {"ground", ground},        {"frames", frames},
                     {"paths", paths},          {"poses", poses},
                     {"pivots", pivots},        {"guides", guides},
                     {"blocks", blocks},        {"elements", elements},
                     {"loads", loads},          {"load_scale", compact(a.load_scale)},
                     {"wheels", wheels},        {"cams", cams}};
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
  // Point paths stay inline SVG drawn to scale (equal axes, a dot per point following the
  // slider); every other plot is an interactive chart of the embedded dygraphs.
  size_t plot_count = 0;
  for (const PlotSection& s : data.sections) plot_count += s.plots.size();
  const ViewBox& view = data.animation.view;
  std::string html = fmt::format(
      R"html(<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<title>linkdyn report: {title}</title>
<style>
{library_style}
{style}</style></head>
<body data-plots="{plots}">
<h1>{title}</h1>
<p>linkdyn {version}: kinematics{analyses} of a planar mechanism. Move the slider, press Play or move the mouse over
a plot: the mechanism, the cursors of every plot and their values follow. On a plot, drag to zoom (plots against the
same axis zoom together), shift-drag to pan, double-click to zoom out; click a legend entry to hide or show its series.</p>
<div id="anim">
<div><svg id="mech" viewBox="{x} {y} {width} {height}" preserveAspectRatio="xMidYMid meet"><g id="scene" transform="scale(1,-1)"></g></svg>
<div class="controls"><button id="play" type="button">Play</button>
<input id="slider" type="range" min="0" max="{last_frame}" value="0" step="1"> <span id="readout"></span></div></div>
<div><h2>Summary</h2><pre>{summary}</pre></div>
</div>
)html",
      fmt::arg("title", escape_html(data.title)), fmt::arg("library_style", dygraphs_css),
      fmt::arg("style", report_css), fmt::arg("plots", plot_count), fmt::arg("version", linkdyn::version),
      fmt::arg("analyses", data.kinetostatics ? " and kinetostatics" : ""), fmt::arg("x", six_digits(view.x)),
      fmt::arg("y", six_digits(view.y)), fmt::arg("width", six_digits(view.width)),
      fmt::arg("height", six_digits(view.height)),
      fmt::arg("last_frame", data.animation.frames.empty() ? 0 : data.animation.frames.size() - 1),
      fmt::arg("summary", escape_html(data.summary)));
  Json charts = Json::array();
  for (const PlotSection& s : data.sections) {
    html += "<h2>" + escape_html(s.heading) + "</h2>\n<div class=\"plots\">\n";
    for (const Chart& p : s.plots) {
      if (p.path) {
        html += io::render_svg(p.plot(), 640, 360, max_plot_points);
        continue;
      }
      html += fmt::format("<div class=\"plot chart\" id=\"{}\" data-chart=\"{}\"></div>\n", escape_html(p.id),
                          charts.size());
      charts.push_back(chart_json(p, max_plot_points));
    }
    html += "</div>\n";
  }
  html += "<script id=\"data\" type=\"application/json\">" + animation_json(data.animation) + "</script>\n";
  html += "<script id=\"charts\" type=\"application/json\">" +
          script_safe(charts.dump(-1, ' ', false, Json::error_handler_t::replace)) + "</script>\n";
  // dygraphs and its crosshair and synchronizer extras, from Debian's libjs-dygraphs (MIT).
  html += "<script id=\"dygraphs\">\n";
  html += dygraphs_js;
  html += "\n";
  html += dygraphs_crosshair_js;
  html += "\n";
  html += dygraphs_synchronizer_js;
  html += "</script>\n<script>\n";
  html += report_js;
  html += "</script>\n</body></html>\n";
  return html;
}

}  // namespace linkdyn::report
