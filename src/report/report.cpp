#include "linkdyn/report/report.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "linkdyn/core/version.hpp"
#include "linkdyn/dynamics/direct.hpp"
#include "linkdyn/planar/groups/group.hpp"
#include "report/embedded.hpp"
#include "report/x_axis.hpp"

namespace linkdyn::report {
namespace {

using planar::Mechanism;

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

std::string number(double v) { return std::isfinite(v) ? fmt::format("{:.6g}", v) : "null"; }

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

std::string planar_report_html(const Mechanism& m, const planar::TimeGrid& grid, const ReportOptions& options) {
  // Analyses.
  planar::SweepSummary sweep;
  const Table kin = planar::kinematics_table(m, grid, &sweep);
  std::vector<Plot> kin_plots = kinematics_plots(m, kin);
  Table kst;
  planar::KinetostaticsSummary ksum;
  std::vector<Plot> kst_plots;
  if (options.kinetostatics) {
    kst = planar::kinetostatics_table(m, grid, options.solver, &ksum);
    kst_plots = kinetostatics_plots(m, kst);
  }

  // Animation frames: each body's named points in the global frame, at decimated steps.
  const XAxis x = x_axis(m, kin);
  const size_t rows = kin.rows();
  const size_t stride = std::max<size_t>(1, (rows + options.max_frames - 1) / options.max_frames);
  std::vector<size_t> frame_rows;
  for (size_t r = 0; r < rows; r += stride) frame_rows.push_back(r);
  if (!frame_rows.empty() && frame_rows.back() != rows - 1) frame_rows.push_back(rows - 1);
  std::vector<std::vector<double>> frames(frame_rows.size());
  std::vector<std::vector<double>> traces(m.output_points().size());
  {
    planar::Workspace ws(m);
    size_t row = 0, next = 0;
    planar::sweep_kinematics(m, ws, grid, [&](int, double, planar::StepStatus s) {
      if (s == planar::StepStatus::absent) return;
      if (next < frame_rows.size() && row == frame_rows[next]) {
        std::vector<double>& f = frames[next];
        for (size_t b = 1; b < m.bodies().size(); ++b) {
          for (const planar::NamedPoint& p : m.bodies()[b].points) {
            const Vec2 g = ws.body[b].position(p.local);
            f.push_back(g.x()), f.push_back(g.y());
          }
          if (m.bodies()[b].points.empty()) {  // a body without points: show its frame origin
            f.push_back(ws.body[b].r.x()), f.push_back(ws.body[b].r.y());
          }
        }
        for (size_t k = 0; k < m.output_points().size(); ++k) {
          const Vec2 g = ws.body[m.output_points()[k].body].position(m.output_points()[k].local);
          traces[k].push_back(g.x()), traces[k].push_back(g.y());
        }
        ++next;
      }
      ++row;
    });
  }
  // View box over every frame and the ground points.
  double x0 = INFINITY, x1 = -INFINITY, y0 = INFINITY, y1 = -INFINITY;
  auto grow = [&](double px, double py) { x0 = std::min(x0, px), x1 = std::max(x1, px), y0 = std::min(y0, py), y1 = std::max(y1, py); };
  for (const auto& f : frames)
    for (size_t k = 0; k + 1 < f.size(); k += 2) grow(f[k], f[k + 1]);
  for (const planar::NamedPoint& g : m.bodies()[0].points) grow(g.local.x(), g.local.y());
  if (!(x0 <= x1)) x0 = -1, x1 = 1, y0 = -1, y1 = 1;
  const double size = std::max({x1 - x0, y1 - y0, 1e-6});
  // A 4:3 view centred on everything the mechanism sweeps.
  const double view_w = 1.12 * std::max({x1 - x0, (y1 - y0) * 4.0 / 3.0, 1e-6}), view_h = 0.75 * view_w;
  const double view_x = 0.5 * (x0 + x1) - 0.5 * view_w, view_y = -0.5 * (y0 + y1) - 0.5 * view_h;

  // Data for the page.
  std::vector<double> frame_x;
  for (size_t r : frame_rows) frame_x.push_back(x.values[r]);
  std::string data = "{\"x\":";
  append_numbers(data, frame_x);
  data += ",\"xlabel\":" + json_string(x.label) + ",\"size\":" + number(size) + ",\"bodies\":[";
  size_t offset = 0;
  for (size_t b = 1; b < m.bodies().size(); ++b) {
    const size_t n = std::max<size_t>(1, m.bodies()[b].points.size());
    data += fmt::format("{}{{\"name\":{},\"offset\":{},\"n\":{}}}", b > 1 ? "," : "", json_string(m.bodies()[b].name), offset, n);
    offset += 2 * n;
  }
  data += "],\"ground\":[";
  for (size_t k = 0; k < m.bodies()[0].points.size(); ++k) {
    const Vec2& g = m.bodies()[0].points[k].local;
    if (k) data += ',';
    append_numbers(data, {g.x(), g.y()});
  }
  data += "],\"frames\":[";
  for (size_t k = 0; k < frames.size(); ++k) {
    if (k) data += ',';
    append_numbers(data, frames[k]);
  }
  data += "],\"paths\":{";
  for (size_t k = 0; k < traces.size(); ++k) {
    if (k) data += ',';
    data += json_string(m.output_points()[k].label);
    data += ':';
    append_numbers(data, traces[k]);
  }
  data += "}}";

  // Summary text.
  std::string summary = fmt::format("structure: {}\ndegrees of freedom: {}\nsteps: {} over t = [{:g}, {:g}] s\n",
                                    m.structure_string(), m.dof(), grid.steps, grid.t0, grid.t_end);
  for (const planar::SweepEvent& e : sweep.events) summary += fmt::format("t = {:.6g} s: {}\n", e.t, e.message);
  if (options.kinetostatics) {
    summary += fmt::format("mean driving power: {:.6g} W; driving work {:.6g} J; friction loss {:.6g} J\n",
                           ksum.mean_driver_power, ksum.driver_work, ksum.friction_work);
    if (ksum.has_useful_loads && ksum.driver_work > 0)
      summary += fmt::format("cycle efficiency (useful / driving work): {:.4f}\n", ksum.useful_work / ksum.driver_work);
    for (size_t k = 0; k < m.spec().joints.size(); ++k)
      if (m.joints()[k].type != planar::JointType::gear)
        summary += fmt::format("pair {}: max |F| {:.6g} N at t = {:.6g} s, friction loss {:.6g} J\n", m.joints()[k].name,
                               ksum.max_reaction[k], ksum.max_reaction_t[k], ksum.friction_energy[k]);
    for (size_t p = 0; p < m.pins().size(); ++p)
      summary += fmt::format("compound pin {}: max |F| on a member {:.6g} N at t = {:.6g} s, friction loss {:.6g} J\n",
                             m.pins()[p].name, ksum.pin_max_force[p], ksum.pin_max_force_t[p], ksum.pin_friction_energy[p]);
    if (ksum.flagged > 0) summary += fmt::format("{} position(s) near self-locking\n", ksum.flagged);
  }

  // Reduced parameters and a simulation, for one-DOF mechanisms (and when they run).
  std::vector<Plot> red_plots, sim_plots;
  if (m.dof() == 1) {
    try {
      const dynamics::ReducedTable t = dynamics::tabulate_reduced_parameters(m, 360);
      red_plots = reduced_plots(m, t);
      if (x.label.rfind(m.drivers()[0].name, 0) != 0)
        for (Plot& p : red_plots) p.linked = false;
      if (!m.spec().actuators.empty()) {
        dynamics::SimulationOptions so;
        so.t0 = grid.t0;
        so.t_end = grid.t_end;
        so.steps = 600;
        so.rel_tol = so.abs_tol = 1e-9;
        const dynamics::DynamicSystem system(m);
        sim_plots = simulation_plots(*system.mechanism, dynamics::simulate(system, so).table);
        summary += fmt::format("direct dynamics: from the driver's law at t = {:g} s, until t = {:g} s\n", grid.t0, grid.t_end);
      }
    } catch (const std::exception& e) {
      summary += std::string("reduced parameters / dynamics not shown: ") + e.what() + "\n";
    }
  }
  const size_t plot_count = kin_plots.size() + kst_plots.size() + red_plots.size() + sim_plots.size();
  std::string html = fmt::format(R"html(<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<title>linkdyn report: {0}</title>
<style>
{10}</style></head>
<body data-plots="{1}">
<h1>{0}</h1>
<p>linkdyn {2}: kinematics{3} of a planar mechanism. Move the slider or press Play: the mechanism
and the dashed markers on every plot follow.</p>
<div id="anim">
<div><svg id="mech" viewBox="{4} {5} {6} {9}" preserveAspectRatio="xMidYMid meet"><g id="scene" transform="scale(1,-1)"></g></svg>
<div class="controls"><button id="play" type="button">Play</button>
<input id="slider" type="range" min="0" max="{7}" value="0" step="1"> <span id="readout"></span></div></div>
<div><h2>Summary</h2><pre>{8}</pre></div>
</div>
)html",
                                 escape_html(m.spec().name), plot_count, linkdyn::version,
                                 options.kinetostatics ? " and kinetostatics" : "", number(view_x), number(view_y),
                                 number(view_w), frames.empty() ? 0 : frames.size() - 1, escape_html(summary),
                                 number(view_h), report_css);
  html += "<h2>Kinematics</h2>\n<div class=\"plots\">\n";
  for (const Plot& p : kin_plots) html += render_svg(p, 640, 360, options.max_plot_points);
  html += "</div>\n";
  if (options.kinetostatics) {
    html += "<h2>Kinetostatics</h2>\n<div class=\"plots\">\n";
    for (const Plot& p : kst_plots) html += render_svg(p, 640, 360, options.max_plot_points);
    html += "</div>\n";
  }
  if (!red_plots.empty()) {
    html += "<h2>Reduced parameters</h2>\n<div class=\"plots\">\n";
    for (const Plot& p : red_plots) html += render_svg(p, 640, 360, options.max_plot_points);
    html += "</div>\n";
  }
  if (!sim_plots.empty()) {
    html += "<h2>Direct dynamics (against time: not linked to the slider)</h2>\n<div class=\"plots\">\n";
    for (const Plot& p : sim_plots) html += render_svg(p, 640, 360, options.max_plot_points);
    html += "</div>\n";
  }
  html += "<script id=\"data\" type=\"application/json\">" + data + "</script>\n";
  html += "<script>\n";
  html += report_js;
  html += "</script>\n</body></html>\n";
  return html;
}

}  // namespace linkdyn::report
