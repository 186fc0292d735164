// The HTML page of a design study (report::study_report_html): data as JSON, drawn by the
// embedded Chart.js (Debian's libjs-chart.js) and study_report.js.
#include <fmt/format.h>

#include <cmath>
#include <nlohmann/json.hpp>

#include "linkdyn/core/version.hpp"
#include "linkdyn/report/report.hpp"
#include "report/embedded.hpp"
#include "report/page.hpp"

namespace linkdyn::report {
namespace {

using Json = nlohmann::ordered_json;

constexpr size_t max_scatter_points = 2000;  ///< per plot: a page that opens at once
constexpr int histogram_bins = 30;

Json number(double v) { return std::isfinite(v) ? Json(std::stod(fmt::format("{:.6g}", v))) : Json(nullptr); }

/// Counts over equal bins between the finite values' extremes.
Json histogram(const std::vector<double>& values) {
  double lo = INFINITY, hi = -INFINITY;
  for (double v : values)
    if (std::isfinite(v)) lo = std::min(lo, v), hi = std::max(hi, v);
  Json edges = Json::array(), counts = Json::array();
  if (!(lo <= hi)) return {{"edges", edges}, {"counts", counts}};
  const double width = hi > lo ? (hi - lo) / histogram_bins : 1.0;
  std::vector<int> n(histogram_bins, 0);
  for (double v : values)
    if (std::isfinite(v)) ++n[static_cast<size_t>(std::min<double>(histogram_bins - 1, std::floor((v - lo) / width)))];
  for (int b = 0; b <= histogram_bins; ++b) edges.push_back(number(lo + b * width));
  for (int c : n) counts.push_back(c);
  return {{"edges", edges}, {"counts", counts}};
}

std::string label(const io::StudyMetric& m) { return m.unit.empty() ? m.name : m.name + " (" + m.unit + ")"; }

}  // namespace

std::string study_report_html(const io::Study& study, const study::StudyResult& result) {
  const size_t n = result.variants.size();
  const size_t stride = std::max<size_t>(1, (n + max_scatter_points - 1) / max_scatter_points);
  Json parameters = Json::array(), metrics = Json::array();
  for (const io::StudyParameter& p : study.parameters) {
    Json values = Json::array();
    for (size_t i = 0; i < n; i += stride)
      values.push_back(number(result.variants[i].parameters[&p - study.parameters.data()]));
    const io::ModelEntry& e = p.entry;
    const std::string unit = si_unit(e.kind);
    parameters.push_back(
        {{"name", unit.empty() ? p.name : p.name + " (" + unit + ")"}, {"path", e.path}, {"values", values}});
  }
  for (size_t k = 0; k < study.metrics.size(); ++k) {
    std::vector<double> all(n);
    Json sample = Json::array();
    for (size_t i = 0; i < n; ++i) all[i] = result.variants[i].metrics[k];
    for (size_t i = 0; i < n; i += stride) sample.push_back(number(all[i]));
    Json m{{"name", label(study.metrics[k])}, {"values", sample}, {"histogram", histogram(all)}};
    if (k < result.sensitivities.size()) {
      Json src = Json::array(), sobol = Json::array();
      for (double v : result.sensitivities[k].src) src.push_back(number(v));
      for (double v : result.sensitivities[k].sobol) sobol.push_back(number(v));
      m["src"] = src, m["sobol"] = sobol, m["r2"] = number(result.sensitivities[k].r2);
    }
    metrics.push_back(m);
  }
  Json status = Json::array();
  for (size_t i = 0; i < n; i += stride) status.push_back(result.variants[i].status == study::Status::ok ? 1 : 0);
  Json data{{"parameters", parameters}, {"metrics", metrics}, {"ok", status}, {"stride", stride}};
  if (result.best < n) {
    Json p = Json::array(), m = Json::array();
    for (double v : result.variants[result.best].parameters) p.push_back(number(v));
    for (double v : result.variants[result.best].metrics) m.push_back(number(v));
    data["best"] = {{"parameters", p}, {"metrics", m}};
  }
  if (study.kind == io::StudyKind::optimisation) {
    // Convergence: the best feasible objective so far, per run, against the evaluation.
    Json runs = Json::array();
    const size_t objective = static_cast<size_t>(study.objectives[0].metric);
    for (const study::OptimumRun& r : result.runs) {
      Json best = Json::array();
      double so_far = INFINITY;
      int evaluation = 0;
      for (const study::Variant& v : result.variants) {
        if (v.run != r.run) continue;
        ++evaluation;
        double f = v.status == study::Status::ok ? v.metrics[objective] : NAN;
        if (study.objectives[0].maximise) f = -f;
        const bool better = std::isfinite(f) && f < so_far;
        if (better) so_far = f;
        if (better || evaluation == r.evaluations)
          best.push_back({evaluation, number(study.objectives[0].maximise ? -so_far : so_far)});
      }
      runs.push_back({{"run", r.run}, {"best", best}});
    }
    data["convergence"] = {{"metric", label(study.metrics[objective])}, {"runs", runs}};
    if (study.objectives.size() == 2) {
      const size_t a = static_cast<size_t>(study.objectives[0].metric),
                   b = static_cast<size_t>(study.objectives[1].metric);
      Json front = Json::array();
      for (size_t i : result.pareto)
        front.push_back({number(result.variants[i].metrics[a]), number(result.variants[i].metrics[b])});
      data["pareto"] = {
          {"x", label(study.metrics[a])}, {"y", label(study.metrics[b])}, {"a", a}, {"b", b}, {"front", front}};
    }
  }
  std::string summary;
  const int ok = result.status_counts.empty() ? 0 : result.status_counts[0];
  summary += fmt::format("{} variants, {} analysed, {} failed", n, ok, static_cast<int>(n) - ok);
  for (int s = 1; s < study::status_count; ++s)
    if (result.status_counts[static_cast<size_t>(s)] > 0)
      summary += fmt::format("\n  {}: {}", study::status_name(static_cast<study::Status>(s)),
                             result.status_counts[static_cast<size_t>(s)]);
  for (size_t k = 0; k < result.summaries.size(); ++k) {
    const study::MetricSummary& s = result.summaries[k];
    summary += fmt::format("\n{}: mean {:.6g} ({:.6g} to {:.6g}), std {:.6g}, min {:.6g}, max {:.6g}",
                           label(study.metrics[k]), s.mean, s.mean_low, s.mean_high, s.std, s.min, s.max);
  }
  if (result.best < n) {
    summary += fmt::format("\nbest design: variant {}", result.best);
    for (size_t p = 0; p < study.parameters.size(); ++p)
      summary += fmt::format("\n  {} = {:.9g}", study.parameters[p].name, result.variants[result.best].parameters[p]);
    for (size_t k = 0; k < study.metrics.size(); ++k)
      summary += fmt::format("\n  {} = {:.6g}", label(study.metrics[k]), result.variants[result.best].metrics[k]);
  }
  std::string html = fmt::format(
      R"html(<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<title>linkdyn study: {title}</title>
<style>
{style}
.chart {{ width: 560px; height: 320px; display: inline-block; margin: 4px; }}</style></head>
<body>
<h1>{title}</h1>
<p>linkdyn {version}: {kind} of {model}. Hover a chart to read its values; click a legend entry to hide a series;
the CSV and JSON outputs hold every value.{decimated}</p>
<h2>Summary</h2><pre id="summary">{summary}</pre>
<div id="charts"></div>
)html",
      fmt::arg("title", escape_html(study.file)), fmt::arg("style", report_css), fmt::arg("version", version),
      fmt::arg("kind", study.kind == io::StudyKind::sweep         ? "sweep"
                       : study.kind == io::StudyKind::monte_carlo ? "Monte Carlo tolerance analysis"
                                                                  : "optimisation"),
      fmt::arg("model", escape_html(study.model_file)), fmt::arg("summary", escape_html(summary)),
      fmt::arg("decimated", stride > 1 ? fmt::format(" Scatter plots show every {}th variant.", stride) : ""));
  html += "<script id=\"data\" type=\"application/json\">" + script_safe(data.dump()) + "</script>\n";
  html += "<script>\n";
  html += chart_js;
  html += "\n</script>\n<script>\n";
  html += study_report_js;
  html += "</script>\n</body></html>\n";
  return html;
}

}  // namespace linkdyn::report
