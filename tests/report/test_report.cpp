// Reports and plots: generated for every example, self-contained, data consistent, and
// decimated for display on long sweeps.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <nlohmann/json.hpp>
#include <random>

#include "linkdyn/report/report.hpp"
#include "test_support.hpp"

using namespace linkdyn;

namespace {
size_t count(const std::string& text, const std::string& what) {
  size_t n = 0;
  for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}
nlohmann::json page_data(const std::string& html) {
  const std::string open = "<script id=\"data\" type=\"application/json\">";
  const size_t from = html.find(open) + open.size();
  return nlohmann::json::parse(html.substr(from, html.find("</script>", from) - from));
}
}  // namespace

TEST(Report, EveryExampleGivesASelfContainedPageWithEveryPlot) {
  for (const auto& c : test::example_cases()) {
    SCOPED_TRACE(c.name);
    const io::Model model = io::read_model(test::example(c.name));
    const planar::Mechanism m = planar::compile(model.mechanism);
    const std::string html = report::planar_report_html(m, model.machine, m.default_grid());
    const size_t plots = count(html, "class=\"plot\"");
    EXPECT_GE(plots, 7u);
    EXPECT_NE(html.find("data-plots=\"" + std::to_string(plots) + "\""), std::string::npos);
    EXPECT_EQ(html.find("http://"), html.find("http://www.w3.org/2000/svg"));  // no link but the SVG namespace
    EXPECT_EQ(html.find("https://"), std::string::npos);
    EXPECT_EQ(html.find("src="), std::string::npos);
    EXPECT_EQ(html.find("nan"), std::string::npos);
    EXPECT_EQ(html.find("inf"), std::string::npos);
    const nlohmann::json data = page_data(html);
    const size_t frames = data["frames"].size();
    EXPECT_GT(frames, 100u);
    EXPECT_EQ(data["x"].size(), frames);
    // Each frame holds every body's points; each body's slice fits in it.
    for (const auto& b : data["bodies"])
      EXPECT_LE(b["offset"].get<size_t>() + 2 * b["n"].get<size_t>(), data["frames"][0].size());
  }
}

TEST(Report, AnimationFramesMatchTheKinematics) {
  // The crank pin B of the seed four-bar in the first and a middle frame.
  const planar::Mechanism m = io::load_mechanism(test::example("seed001-fourbar"));
  const nlohmann::json data = page_data(report::planar_report_html(m, {}, m.default_grid()));
  const auto& B = data["paths"]["B"];
  EXPECT_NEAR(B[0].get<double>(), 2.0, 1e-5);
  EXPECT_NEAR(B[1].get<double>(), 0.0, 1e-5);
  EXPECT_NEAR(B[2 * 90].get<double>(), 0.0, 1e-5);  // crank at 90 deg
  EXPECT_NEAR(B[2 * 90 + 1].get<double>(), 2.0, 1e-5);
  EXPECT_NEAR(data["x"][90].get<double>(), 90.0, 1e-4);
}

TEST(Report, LongSweepsAreDecimatedForDisplayKeepingExtremes) {
  const planar::Mechanism m = io::load_mechanism(test::example("seed001-fourbar"));
  planar::TimeGrid grid = m.default_grid();
  grid.steps = 100000;
  report::ReportOptions options;
  options.kinetostatics = false;
  const std::string html = report::planar_report_html(m, {}, grid, options);
  EXPECT_LT(html.size(), 2000000u);
  EXPECT_LE(page_data(html)["frames"].size(), options.max_frames + 1);
  // A noisy series of 10^5 points keeps its extreme values in at most ~2000 points.
  io::Plot plot{"noise", "noise", "k", "v", {}, false};
  io::PlotSeries s{"v", {}, {}, ""};
  std::mt19937 rng(7);
  std::normal_distribution<double> noise;
  for (int k = 0; k < 100000; ++k) s.x.push_back(k), s.y.push_back(noise(rng));
  s.y[77777] = 9.5;  // a spike that must survive
  plot.series.push_back(s);
  const std::string svg = io::render_svg(plot);
  const size_t from = svg.find("points=\"") + 8;
  const std::string points = svg.substr(from, svg.find('"', from) - from);
  EXPECT_LE(count(points, ","), 2100u);
  // The spike's pixel: the top of the y range (9.5 plus 5% padding of the range).
  double min_y = 1e9;
  for (size_t at = points.find(','); at != std::string::npos; at = points.find(',', at + 1))
    min_y = std::min(min_y, std::stod(points.substr(at + 1)));
  EXPECT_LT(min_y, 50.0);  // within the top band of the 360-pixel plot
}

TEST(Report, PlotsCarryAxesUnitsAndLegends) {
  const planar::Mechanism m = io::load_mechanism(test::example("seed001-fourbar"));
  const std::vector<io::Plot> plots = report::kinematics_plots(m, planar::kinematics(m, m.default_grid()));
  ASSERT_FALSE(plots.empty());
  EXPECT_EQ(plots[0].x_label, "crank_drive angle (deg)");
  EXPECT_EQ(plots[0].y_label, "angle (deg)");
  const std::string svg = io::render_svg(plots[0]);
  EXPECT_NE(svg.find(">rocker</text>"), std::string::npos);
  EXPECT_NE(svg.find(">angle (deg)</text>"), std::string::npos);
  EXPECT_NE(svg.find("class=\"marker\""), std::string::npos);
  // The crank's 0-360 ramp has its own panel: the swinging coupler and rocker keep their scale.
  ASSERT_GE(plots.size(), 2u);
  EXPECT_EQ(plots[0].id, "kinematics-angles");
  EXPECT_EQ(plots[0].series.size(), 2u);
  EXPECT_EQ(plots[1].id, "kinematics-turning");
  ASSERT_EQ(plots[1].series.size(), 1u);
  EXPECT_EQ(plots[1].series[0].label, "crank");
}

TEST(Report, SlidersGetTheirSignedMotionAlongTheGuideAndTheEfficiencyOnlyWhereTheDriverDrives) {
  // The offset slider-crank: the piston's displacement along its guide from the start, its velocity
  // and acceleration (signed: the stroke and the return), equal to the tracked point's motion
  // projected on the guide; the instantaneous efficiency is drawn only where the driving power
  // exceeds 5 % of its peak.
  const planar::Mechanism m = io::load_mechanism(test::example("offset-slider-crank"));
  const planar::KinematicsResult k = planar::kinematics(m, m.default_grid());
  const std::vector<io::Plot> plots = report::kinematics_plots(m, k);
  const auto find = [&](const std::vector<io::Plot>& in, const std::string& id) {
    return std::find_if(in.begin(), in.end(), [&](const io::Plot& p) { return p.id == id; });
  };
  const auto s = find(plots, "kinematics-sliders"), v = find(plots, "kinematics-sliders-velocity");
  ASSERT_NE(s, plots.end());
  ASSERT_NE(v, plots.end());
  const std::vector<double>& disp = s->series[0].y;
  double lo = INFINITY, hi = -INFINITY;
  for (double x : disp) lo = std::min(lo, x), hi = std::max(hi, x);
  EXPECT_EQ(disp.front(), 0.0);
  EXPECT_GT(hi - lo, 10.0) << "a stroke of millimetres";
  double positive = 0, negative = 0;
  for (double x : v->series[0].y) (x > 0 ? positive : negative) += 1;
  EXPECT_GT(positive, 10);
  EXPECT_GT(negative, 10) << "the return stroke is negative";
  const planar::KinetostaticsResult ks = planar::kinetostatics(m, m.default_grid(), {});
  const std::vector<io::Plot> kp = report::kinetostatics_plots(m, ks);
  const auto eff = find(kp, "kinetostatics-efficiency");
  ASSERT_NE(eff, kp.end());
  const double peak = ks.driver_power.cwiseAbs().maxCoeff();
  int gaps = 0;
  for (size_t r = 0; r < eff->series[0].y.size(); ++r) {
    const bool drives = ks.driver_power(static_cast<Eigen::Index>(r)) > 0.05 * peak;
    EXPECT_EQ(std::isfinite(eff->series[0].y[r]), drives && std::isfinite(ks.efficiency(static_cast<Eigen::Index>(r))))
        << "row " << r;
    gaps += drives ? 0 : 1;
  }
  EXPECT_GT(gaps, 0) << "the piston's return needs little power";
}

TEST(Report, KinematicsPlotsAreThoseOfTheKinematicsTable) {
  // The report plots the kinematics of planar::kinematics, the same the kinematics command writes.
  for (const auto& c : test::example_cases()) {
    SCOPED_TRACE(c.name);
    const planar::Mechanism m = io::load_mechanism(test::example(c.name));
    report::ReportOptions options;
    options.kinetostatics = false;
    const std::string html = report::planar_report_html(m, {}, m.default_grid(), options);
    for (const io::Plot& p : report::kinematics_plots(m, planar::kinematics(m, m.default_grid())))
      EXPECT_NE(html.find(io::render_svg(p, 640, 360, options.max_plot_points)), std::string::npos) << p.id;
  }
}
