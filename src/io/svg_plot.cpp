#include "linkdyn/io/svg_plot.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <limits>

#include "linkdyn/core/error.hpp"
#include "linkdyn/io/table_writer.hpp"

namespace linkdyn::io {
namespace {

const char* palette[] = {"#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd",
                         "#8c564b", "#e377c2", "#7f7f7f", "#bcbd22", "#17becf"};

std::string escape(const std::string& text) {
  std::string out;
  for (char c : text) {
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      default: out += c;
    }
  }
  return out;
}

/// A "nice" tick step (1, 2 or 5 times a power of ten) for about `count` ticks over `span`.
double tick_step(double span, int count) {
  const double raw = span / count;
  const double power = std::pow(10.0, std::floor(std::log10(raw)));
  const double f = raw / power;
  return power * (f < 1.5 ? 1.0 : f < 3.5 ? 2.0 : f < 7.5 ? 5.0 : 10.0);
}

struct Range {
  double lo = std::numeric_limits<double>::infinity(), hi = -std::numeric_limits<double>::infinity();
  void add(double v) {
    if (std::isfinite(v)) lo = std::min(lo, v), hi = std::max(hi, v);
  }
  void widen() {
    if (!(lo <= hi)) lo = 0.0, hi = 1.0;
    if (hi - lo < 1e-12 * (1.0 + std::abs(hi))) {
      const double pad = std::max(1e-9, 0.05 * std::abs(hi));
      lo -= pad, hi += pad;
    }
  }
};

}  // namespace

std::vector<size_t> display_indices(const std::vector<double>& y, size_t max_points) {
  std::vector<size_t> keep;
  const size_t n = y.size();
  if (n <= max_points) {
    keep.resize(n);
    for (size_t k = 0; k < n; ++k) keep[k] = k;
    return keep;
  }
  const size_t buckets = std::max<size_t>(1, max_points / 3);
  for (size_t b = 0; b < buckets; ++b) {
    const size_t from = b * n / buckets, to = (b + 1) * n / buckets;
    size_t lo = from, hi = from;
    for (size_t k = from; k < to; ++k) {
      if (!std::isfinite(y[k])) continue;
      if (!std::isfinite(y[lo]) || y[k] < y[lo]) lo = k;
      if (!std::isfinite(y[hi]) || y[k] > y[hi]) hi = k;
    }
    keep.push_back(from);
    if (lo != from) keep.push_back(lo);
    if (hi != from && hi != lo) keep.push_back(hi);
  }
  keep.push_back(n - 1);
  std::sort(keep.begin(), keep.end());
  keep.erase(std::unique(keep.begin(), keep.end()), keep.end());
  return keep;
}

std::string render_svg(const Plot& plot, int width, int height, size_t max_points) {
  const double left = 72, right = width - 16.0, top = 34, bottom = height - 46.0;
  Range xr, yr;
  for (const PlotSeries& s : plot.series) {
    for (double v : s.x) xr.add(v);
    for (double v : s.y) yr.add(v);
  }
  xr.widen();
  yr.widen();
  if (plot.path) {
    // Equal scales: widen the shorter range about its centre.
    const double sx = (xr.hi - xr.lo) / (right - left), sy = (yr.hi - yr.lo) / (bottom - top);
    const double s = std::max(sx, sy) * 1.05;
    const double cx = 0.5 * (xr.lo + xr.hi), cy = 0.5 * (yr.lo + yr.hi);
    xr.lo = cx - 0.5 * s * (right - left), xr.hi = cx + 0.5 * s * (right - left);
    yr.lo = cy - 0.5 * s * (bottom - top), yr.hi = cy + 0.5 * s * (bottom - top);
  } else {
    const double pad = 0.05 * (yr.hi - yr.lo);
    yr.lo -= pad, yr.hi += pad;
  }
  auto px = [&](double x) { return left + (x - xr.lo) / (xr.hi - xr.lo) * (right - left); };
  auto py = [&](double y) { return bottom - (y - yr.lo) / (yr.hi - yr.lo) * (bottom - top); };

  std::string svg = fmt::format(
      "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"plot\" id=\"{}\" width=\"{}\" height=\"{}\" "
      "viewBox=\"0 0 {} {}\" data-x0=\"{:.9g}\" data-x1=\"{:.9g}\" data-y0=\"{:.9g}\" data-y1=\"{:.9g}\" "
      "data-left=\"{}\" data-right=\"{}\" data-top=\"{}\" data-bottom=\"{}\" data-path=\"{}\" "
      "font-family=\"sans-serif\" font-size=\"12\">\n",
      escape(plot.id), width, height, width, height, xr.lo, xr.hi, yr.lo, yr.hi, left, right, top, bottom,
      plot.path ? 1 : 0);
  svg += fmt::format("<rect width=\"{}\" height=\"{}\" fill=\"white\"/>\n", width, height);
  svg += fmt::format("<text x=\"{}\" y=\"20\" text-anchor=\"middle\" font-size=\"14\" font-weight=\"bold\">{}</text>\n",
                     0.5 * (left + right), escape(plot.title));
  // Grid and ticks.
  const double xs = tick_step(xr.hi - xr.lo, 6), ys = tick_step(yr.hi - yr.lo, 5);
  for (double x = std::ceil(xr.lo / xs) * xs; x <= xr.hi + 1e-9 * xs; x += xs) {
    const double v = std::abs(x) < 1e-9 * xs ? 0.0 : x;
    svg += fmt::format(
        "<line x1=\"{0:.1f}\" y1=\"{1}\" x2=\"{0:.1f}\" y2=\"{2}\" stroke=\"#e5e5e5\"/>"
        "<text x=\"{0:.1f}\" y=\"{3}\" text-anchor=\"middle\">{4:.6g}</text>\n",
        px(x), top, bottom, bottom + 16, v);
  }
  for (double y = std::ceil(yr.lo / ys) * ys; y <= yr.hi + 1e-9 * ys; y += ys) {
    const double v = std::abs(y) < 1e-9 * ys ? 0.0 : y;
    svg += fmt::format(
        "<line x1=\"{0}\" y1=\"{1:.1f}\" x2=\"{2}\" y2=\"{1:.1f}\" stroke=\"#e5e5e5\"/>"
        "<text x=\"{3}\" y=\"{4:.1f}\" text-anchor=\"end\">{5:.6g}</text>\n",
        left, py(y), right, left - 6, py(y) + 4, v);
  }
  svg += fmt::format("<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"none\" stroke=\"#444\"/>\n", left, top,
                     right - left, bottom - top);
  svg += fmt::format("<text x=\"{}\" y=\"{}\" text-anchor=\"middle\">{}</text>\n", 0.5 * (left + right), height - 8,
                     escape(plot.x_label));
  svg += fmt::format("<text transform=\"translate(16 {}) rotate(-90)\" text-anchor=\"middle\">{}</text>\n",
                     0.5 * (top + bottom), escape(plot.y_label));
  // Series.
  for (size_t s = 0; s < plot.series.size(); ++s) {
    const PlotSeries& ser = plot.series[s];
    const char* colour = palette[s % 10];
    std::string points;
    auto flush = [&]() {
      if (!points.empty())
        svg +=
            fmt::format("<polyline fill=\"none\" stroke=\"{}\" stroke-width=\"1.6\" points=\"{}\"/>\n", colour, points);
      points.clear();
    };
    for (size_t k : display_indices(ser.y, max_points)) {
      if (!std::isfinite(ser.x[k]) || !std::isfinite(ser.y[k])) {
        flush();
        continue;
      }
      points += fmt::format("{:.1f},{:.1f} ", px(ser.x[k]), py(ser.y[k]));
    }
    flush();
    // Legend, on a white box so that it does not sit on the data unreadably.
    const double ly = top + 14 + 16 * static_cast<double>(s);
    if (s == 0)
      svg += fmt::format(
          "<rect x=\"{}\" y=\"{}\" width=\"146\" height=\"{}\" fill=\"white\" fill-opacity=\"0.85\" "
          "stroke=\"#ccc\"/>\n",
          right - 154, top + 2, 16 * static_cast<double>(plot.series.size()) + 4);
    svg += fmt::format(
        "<line x1=\"{}\" y1=\"{}\" x2=\"{}\" y2=\"{}\" stroke=\"{}\" stroke-width=\"2\"/>"
        "<text x=\"{}\" y=\"{}\">{}</text>\n",
        right - 150, ly - 4, right - 130, ly - 4, colour, right - 125, ly, escape(ser.label));
    if (plot.path && plot.linked)
      svg += fmt::format("<circle class=\"marker\" data-point=\"{}\" r=\"4\" cx=\"-10\" cy=\"-10\" fill=\"{}\"/>\n",
                         escape(ser.point), colour);
  }
  if (!plot.path && plot.linked)
    svg += fmt::format(
        "<line class=\"marker\" x1=\"{0}\" y1=\"{1}\" x2=\"{0}\" y2=\"{2}\" stroke=\"#000\" "
        "stroke-dasharray=\"4 3\"/>\n",
        left, top, bottom);
  svg += "</svg>\n";
  return svg;
}

std::vector<std::string> write_svg_files(const std::string& dir, const std::vector<Plot>& plots) {
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  std::vector<std::string> paths;
  for (const Plot& p : plots) {
    const std::string path = (std::filesystem::path(dir) / (p.id + ".svg")).string();
    write_file(path, [&](std::ostream& out) {
      out << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n" << render_svg(p);
    });
    paths.push_back(path);
  }
  return paths;
}

}  // namespace linkdyn::io
