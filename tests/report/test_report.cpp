// Reports and plots: generated for every example, self-contained, data consistent, and
// decimated for display on long sweeps.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <nlohmann/json.hpp>
#include <random>

#include "linkdyn/planar/kinetostatics.hpp"
#include "linkdyn/report/report.hpp"
#include "test_support.hpp"

using namespace linkdyn;

namespace {
size_t count(const std::string& text, const std::string& what) {
  size_t n = 0;
  for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}
nlohmann::json script_json(const std::string& html, const std::string& id) {
  const std::string open = "<script id=\"" + id + "\" type=\"application/json\">";
  const size_t from = html.find(open) + open.size();
  return nlohmann::json::parse(html.substr(from, html.find("</script>", from) - from));
}
nlohmann::json page_data(const std::string& html) { return script_json(html, "data"); }
nlohmann::json page_charts(const std::string& html) { return script_json(html, "charts"); }
/// The page without the embedded plotting library (its own text is Debian's).
std::string without_library(const std::string& html) {
  const size_t from = html.find("<script id=\"dygraphs\">"), to = html.find("</script>", from);
  return from == std::string::npos ? html : html.substr(0, from) + html.substr(to);
}
}  // namespace

TEST(Report, EveryExampleGivesASelfContainedPageWithEveryPlot) {
  for (const auto& c : test::example_cases()) {
    SCOPED_TRACE(c.name);
    const io::Model model = io::read_model(test::example(c.name));
    const planar::Mechanism m = planar::compile(model.mechanism);
    const std::string page = report::planar_report_html(m, model.machine, m.default_grid());
    // Point paths are inline SVG, every other plot an interactive chart drawn by dygraphs,
    // embedded from Debian's package (no link to fetch it).
    EXPECT_NE(page.find("<script id=\"dygraphs\">"), std::string::npos);
    EXPECT_NE(page.find("Dygraph"), std::string::npos);
    const std::string html = without_library(page);
    const size_t plots = count(html, "class=\"plot\"") + count(html, "class=\"plot chart\"");
    EXPECT_GE(plots, 7u);
    EXPECT_EQ(page_charts(html).size(), count(html, "class=\"plot chart\""));
    for (const auto& chart : page_charts(html)) {  // rows by ascending x, as the library wants
      const auto& rows = chart["rows"];
      for (size_t r = 1; r < rows.size(); ++r)
        ASSERT_LE(rows[r - 1][0].get<double>(), rows[r][0].get<double>()) << chart["id"];
    }
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
  const std::vector<report::Chart> plots = report::kinematics_plots(m, planar::kinematics(m, m.default_grid()));
  ASSERT_FALSE(plots.empty());
  EXPECT_EQ(plots[0].x.label(), "crank_drive angle (deg)");
  EXPECT_EQ(plots[0].y.label(), "angle (deg)");
  const std::string svg = io::render_svg(plots[0].plot());
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
  const std::vector<report::Chart> plots = report::kinematics_plots(m, k);
  const auto find = [&](const std::vector<report::Chart>& in, const std::string& id) {
    return std::find_if(in.begin(), in.end(), [&](const report::Chart& p) { return p.id == id; });
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
  const std::vector<report::Chart> kp = report::kinetostatics_plots(m, ks);
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
    const nlohmann::json charts = page_charts(html);
    for (const report::Chart& p : report::kinematics_plots(m, planar::kinematics(m, m.default_grid()))) {
      if (p.path) {  // drawn to scale as SVG
        EXPECT_NE(html.find(io::render_svg(p.plot(), 640, 360, options.max_plot_points)), std::string::npos) << p.id;
        continue;
      }
      // The chart's rows are the plot's samples, to the page's 6 significant digits.
      const auto chart = std::find_if(charts.begin(), charts.end(), [&](const auto& c) { return c["id"] == p.id; });
      ASSERT_NE(chart, charts.end()) << p.id;
      ASSERT_EQ((*chart)["labels"].size(), p.series.size() + 1) << p.id;
      ASSERT_FALSE((*chart)["merged"].get<bool>()) << p.id;
      // Each row is a sample (x and every y to the page's 6 digits), the rows in the samples' order.
      const std::vector<double>& x = p.series[0].x;
      auto near = [](double shown, double v) { return std::abs(shown - v) <= 6e-6 * std::abs(v) + 1e-12; };
      auto is_sample = [&](const nlohmann::json& row, size_t k) {
        if (!near(row[0].get<double>(), x[k])) return false;
        for (size_t s = 0; s < p.series.size(); ++s) {
          const double y = p.series[s].y[k];
          if (std::isfinite(y) ? row[s + 1].is_null() || !near(row[s + 1].get<double>(), y) : !row[s + 1].is_null())
            return false;
        }
        return true;
      };
      size_t k = 0;
      for (const auto& row : (*chart)["rows"]) {
        while (k < x.size() && !is_sample(row, k)) ++k;
        ASSERT_LT(k, x.size()) << p.id << ": a row that is not a sample, in order: " << row.dump();
        ++k;
      }
    }
  }
}

TEST(Report, AnimationDrawsTheMachinesGuidesSlidersGearsAndLoads) {
  {
    // Offset slider-crank: the piston's guide is the ground line y = 0.03 along x, over the
    // piston's whole travel; the block sits on the piston's point P.
    const planar::Mechanism m = io::load_mechanism(test::example("offset-slider-crank"));
    const nlohmann::json data = page_data(report::planar_report_html(m, {}, m.default_grid()));
    ASSERT_EQ(data["guides"].size(), 1u);
    ASSERT_EQ(data["blocks"].size(), 1u);
    const auto& guide = data["guides"][0];
    EXPECT_EQ(guide["at"][0], 0);  // fixed in the ground
    EXPECT_NEAR(guide["at"][2].get<double>(), 0.03, 1e-12);
    EXPECT_NEAR(guide["dir"][0].get<double>(), 1.0, 1e-12);
    const auto& P = data["paths"]["P"];
    for (size_t k = 0; k + 1 < P.size(); k += 2) {
      const double along = P[k].get<double>() - guide["at"][1].get<double>();
      EXPECT_GT(along, guide["span"][0].get<double>());
      EXPECT_LT(along, guide["span"][1].get<double>());
      EXPECT_NEAR(P[k + 1].get<double>(), 0.03, 1e-9);  // the point slides on the guide
    }
    EXPECT_EQ(data["blocks"][0]["guide"], 0);
  }
  {
    // Four-bar with a geared flywheel (ratio -3, axes 1.5 m apart): pitch circles of 1.125 m
    // and 0.375 m (r_crank = 3 r_flywheel, r_crank + r_flywheel = 1.5 m).
    const planar::Mechanism m = io::load_mechanism(test::example("fourbar-flywheel"));
    const nlohmann::json data = page_data(report::planar_report_html(m, {}, m.default_grid()));
    ASSERT_EQ(data["wheels"].size(), 2u);
    EXPECT_NEAR(data["wheels"][0]["r"].get<double>(), 1.125, 1e-9);
    EXPECT_NEAR(data["wheels"][1]["r"].get<double>(), 0.375, 1e-9);
    EXPECT_EQ(data["wheels"][1]["kind"], "gear");
  }
  {
    // Seed four-bar: the 1 kN load at S is an arrow of constant (0, -1000) N at S in every frame;
    // the ground pivots are A and D only.
    const planar::Mechanism m = io::load_mechanism(test::example("seed001-fourbar"));
    const nlohmann::json data = page_data(report::planar_report_html(m, {}, m.default_grid()));
    ASSERT_EQ(data["loads"].size(), 1u);
    EXPECT_EQ(data["loads"][0]["name"], "load_S");
    const auto& force = data["loads"][0]["force"];
    EXPECT_EQ(force.size(), 2 * data["frames"].size());
    for (size_t k = 0; k + 1 < force.size(); k += 2) {
      EXPECT_EQ(force[k].get<double>(), 0.0);
      EXPECT_EQ(force[k + 1].get<double>(), -1000.0);
    }
    EXPECT_NEAR(data["load_scale"].get<double>() * 1000.0, 0.2 * data["size"].get<double>(), 1e-5);
    EXPECT_EQ(data["pivots"].size(), 2u);
  }
  {
    // Toggle press: the ram's block on its guide, the motor's wheel on the crank.
    const io::Model model = io::read_model(test::example("toggle-press"));
    const planar::Mechanism m = planar::compile(model.mechanism);
    const nlohmann::json data = page_data(report::planar_report_html(m, model.machine, m.default_grid()));
    EXPECT_EQ(data["blocks"].size(), 1u);
    ASSERT_EQ(data["wheels"].size(), 1u);
    EXPECT_EQ(data["wheels"][0]["kind"], "motor");
  }
}

TEST(Report, VelocityRatiosIntegrateToTheStrokeAndTheMechanicalAdvantageIsTheirInverse) {
  // Offset slider-crank: the piston's v / q' integrated over the crank angle (trapezoids, 1 deg)
  // is its displacement along the guide; the ideal mechanical advantage is q' / v wherever shown.
  const planar::Mechanism m = io::load_mechanism(test::example("offset-slider-crank"));
  const planar::KinematicsResult k = planar::kinematics(m, m.default_grid());
  const std::vector<report::Chart> plots = report::kinematics_plots(m, k);
  const auto find = [&](const std::string& id) {
    const auto it = std::find_if(plots.begin(), plots.end(), [&](const report::Chart& p) { return p.id == id; });
    EXPECT_NE(it, plots.end()) << id;
    return it;
  };
  const auto s = find("kinematics-sliders"), ratio = find("kinematics-slider-ratio");
  const auto gain = find("kinematics-mechanical-advantage");
  ASSERT_TRUE(s != plots.end() && ratio != plots.end() && gain != plots.end());
  const std::vector<double>& r = ratio->series[0].y;
  double integral = 0.0, worst = 0.0;
  int shown = 0;
  for (size_t i = 1; i < r.size(); ++i) {
    integral +=
        0.5 * (r[i] + r[i - 1]) * (k.q(static_cast<Eigen::Index>(i), 0) - k.q(static_cast<Eigen::Index>(i - 1), 0));
    worst = std::max(worst, std::abs(1e3 * integral - s->series[0].y[i]));  // s in mm
  }
  // The trapezoid rule's bound over a turn, 2 pi h^2 / 12 max|s''| with s'' <= r (1 + r / l) =
  // 0.13 m/rad^2 and h = 1 deg: 0.021 mm (observed 0.005 mm).
  EXPECT_LT(worst, 0.021) << "mm, of a stroke of about 200 mm";
  for (size_t i = 0; i < r.size(); ++i)
    if (std::isfinite(gain->series[0].y[i])) {
      EXPECT_NEAR(gain->series[0].y[i] * r[i], 1.0, 1e-12);
      ++shown;
    }
  EXPECT_GT(shown, 300) << "all but the dead centres' neighbourhoods";
  // The four-bar's coupler and rocker rates per crank rate (constant speed: omega / omega_crank).
  const planar::Mechanism fourbar = io::load_mechanism(test::example("seed001-fourbar"));
  const planar::KinematicsResult fk = planar::kinematics(fourbar, fourbar.default_grid());
  const std::vector<report::Chart> fp = report::kinematics_plots(fourbar, fk);
  const auto omega =
      std::find_if(fp.begin(), fp.end(), [](const report::Chart& p) { return p.id == "kinematics-velocity-ratio"; });
  ASSERT_NE(omega, fp.end());
  ASSERT_EQ(omega->series.size(), 2u) << "the crank's own ratio (1) is left out";
  for (size_t i = 0; i < omega->series[1].y.size(); ++i)
    EXPECT_NEAR(omega->series[1].y[i],
                fk.omega(static_cast<Eigen::Index>(i), 2) / fk.omega(static_cast<Eigen::Index>(i), 0), 1e-12);
}

TEST(Report, ReactionsInComponentsAndThePrismaticPairsNormalForceAndMoment) {
  const io::Model model = io::read_model(test::example("toggle-press"));
  const planar::Mechanism m = planar::compile(model.mechanism);
  const planar::KinetostaticsResult ks = planar::kinetostatics(m, m.default_grid(), {});
  const std::vector<report::Chart> plots = report::kinetostatics_plots(m, ks);
  size_t revolute = 0;
  for (size_t j = 0; j < m.spec().joints.size(); ++j) {
    const planar::Joint& joint = m.spec().joints[j];
    if (!joint.is<planar::RevolutePair>()) continue;
    ++revolute;
    const auto p = std::find_if(plots.begin(), plots.end(),
                                [&](const report::Chart& q) { return q.id == "kinetostatics-reaction-" + joint.name; });
    ASSERT_NE(p, plots.end()) << joint.name;
    ASSERT_EQ(p->series.size(), 3u);
    for (size_t r = 0; r < p->series[0].y.size(); ++r) {
      const double fx = ks.reactions.force_x(static_cast<Eigen::Index>(r), static_cast<Eigen::Index>(j));
      if (!std::isfinite(fx)) continue;
      EXPECT_EQ(p->series[0].y[r], fx);
      EXPECT_NEAR(p->series[2].y[r], std::hypot(p->series[0].y[r], p->series[1].y[r]), 1e-9 * (1 + std::abs(fx)));
    }
  }
  EXPECT_GE(revolute, 4u);
  const auto normal = std::find_if(plots.begin(), plots.end(),
                                   [](const report::Chart& q) { return q.id == "kinetostatics-prismatic-normal"; });
  const auto moment = std::find_if(plots.begin(), plots.end(),
                                   [](const report::Chart& q) { return q.id == "kinetostatics-prismatic-moment"; });
  ASSERT_NE(normal, plots.end());
  ASSERT_NE(moment, plots.end());
  EXPECT_EQ(normal->series.at(0).label, "guide");
  EXPECT_EQ(moment->series.at(0).y.size(), static_cast<size_t>(ks.rows()));
}

TEST(Report, DirectDynamicsShowsTheSteadyCycleLinkedToTheAnimationOrTheStartUpFromRest) {
  // Toggle press with a DC motor and a flywheel: the steady cycle exists, so the report shows it
  // by default: against the crank angle (linked to the slider) and against time, periodic (the
  // speed at the cycle's end equals its start), with the motor's operating point in the summary.
  const io::Model model = io::read_model(test::example("toggle-press"));
  const planar::Mechanism m = planar::compile(model.mechanism);
  const std::string html = report::planar_report_html(m, model.machine, m.default_grid());
  const nlohmann::json charts = page_charts(html);
  auto chart = [&](const std::string& id) {
    const auto it = std::find_if(charts.begin(), charts.end(), [&](const auto& c) { return c["id"] == id; });
    EXPECT_NE(it, charts.end()) << id;
    return it == charts.end() ? nlohmann::json() : *it;
  };
  const nlohmann::json speed = chart("cycle-speed");
  ASSERT_FALSE(speed.is_null());
  EXPECT_TRUE(speed["linked"].get<bool>());
  EXPECT_EQ(speed["xlabel"], "crank_drive angle (deg)");
  const auto& rows = speed["rows"];
  EXPECT_NEAR(rows.back()[0].get<double>() - rows.front()[0].get<double>(), 360.0, 1e-3) << "one turn";
  EXPECT_NEAR(rows.back()[1].get<double>(), rows.front()[1].get<double>(), 1e-5 * rows.front()[1].get<double>())
      << "periodic";
  EXPECT_FALSE(chart("cycle-current").is_null());
  EXPECT_FALSE(chart("simulation-current")["linked"].get<bool>()) << "against time";
  EXPECT_NE(html.find("steady regime: period"), std::string::npos);
  EXPECT_NE(html.find("DC motor 'motor' operating point: current mean"), std::string::npos);
  EXPECT_NE(html.find("energy per cycle: motor"), std::string::npos);

  // On request, the start-up from rest: the speed starts at 0.
  report::ReportOptions start_up;
  start_up.dynamics = report::DynamicsRun::start_up;
  start_up.start_up_duration = 0.5;
  const std::string up = report::planar_report_html(m, model.machine, m.default_grid(), start_up);
  const nlohmann::json up_charts = page_charts(up);
  const auto run = std::find_if(up_charts.begin(), up_charts.end(),
                                [](const auto& c) { return c["id"] == "simulation-speed-crank_drive"; });
  ASSERT_NE(run, up_charts.end());
  EXPECT_EQ((*run)["rows"][0][1].get<double>(), 0.0);
  EXPECT_NEAR((*run)["rows"].back()[0].get<double>(), 0.5, 1e-9);
  EXPECT_NE(up.find("start-up from rest"), std::string::npos);
  EXPECT_EQ(up.find("cycle-speed"), std::string::npos);
}

TEST(Report, ChosenPointsAlongADirectionMoveAsTheSliderOnThatGuide) {
  // Toggle press: the ram's point T along 90 deg (the guide's direction) has the ram's signed
  // displacement, velocity and acceleration; along 0 deg it does not move. An untracked point is an
  // InputError naming the tracked ones.
  const planar::Mechanism m = io::load_mechanism(test::example("toggle-press"));
  const planar::KinematicsResult k = planar::kinematics(m, m.default_grid());
  const std::vector<report::Chart> plots = report::kinematics_plots(m, k, {{"T", M_PI / 2}, {"T", 0.0}});
  for (const char* id : {"kinematics-sliders", "kinematics-sliders-velocity", "kinematics-sliders-acceleration"}) {
    const auto p = std::find_if(plots.begin(), plots.end(), [&](const report::Chart& q) { return q.id == id; });
    ASSERT_NE(p, plots.end()) << id;
    ASSERT_EQ(p->series.size(), 3u) << id;
    EXPECT_EQ(p->series[1].label, "T along 90 deg");
    for (size_t r = 0; r < p->series[0].y.size(); ++r) {
      EXPECT_NEAR(p->series[1].y[r], p->series[0].y[r], 1e-9 * (1 + std::abs(p->series[0].y[r]))) << id << " " << r;
      EXPECT_NEAR(p->series[2].y[r], 0.0, 1e-9) << id << " " << r;
    }
  }
  EXPECT_THROW((void)report::kinematics_plots(m, k, {{"nowhere", 0.0}}), InputError);
}

TEST(Report, AGearedFlywheelsAngleHasItsOwnPanelApartFromTheCranksRamp) {
  // The flywheel turns three times per crank turn: its -1080 deg would flatten the crank's 360.
  const planar::Mechanism m = io::load_mechanism(test::example("fourbar-flywheel"));
  const std::vector<report::Chart> plots = report::kinematics_plots(m, planar::kinematics(m, m.default_grid()));
  auto labels = [&](const std::string& id) {
    std::vector<std::string> out;
    for (const report::Chart& p : plots)
      if (p.id == id)
        for (const io::PlotSeries& s : p.series) out.push_back(s.label);
    return out;
  };
  EXPECT_EQ(labels("kinematics-turning"), std::vector<std::string>{"crank"});
  EXPECT_EQ(labels("kinematics-wheels"), std::vector<std::string>{"flywheel"});
  EXPECT_EQ(labels("kinematics-angles"), (std::vector<std::string>{"coupler", "rocker"}));
}

TEST(Report, LoadArrowsFollowTheFramesWhereTheMechanismIsAbsentForPartOfTheSweep) {
  // The non-Grashof four-bar does not assemble over part of the input's turn: the frames are the
  // assembled rows only, and the arrow of a constant force has its value in every one of them.
  std::string text = test::read_text(test::example("non-grashof-fourbar"));
  text += "\nloads:\n  push: {type: force, body: coupler, point: C, value: [0, -100]}\n";
  const planar::Mechanism m = planar::compile(io::parse_model(text, "non-grashof-push.yaml").mechanism);
  report::ReportOptions options;
  options.kinetostatics = false;
  const nlohmann::json data = page_data(report::planar_report_html(m, {}, m.default_grid(), options));
  const planar::KinematicsResult k = planar::kinematics(m, m.default_grid());
  ASSERT_LT(k.rows(), m.default_grid().steps + 1) << "part of the sweep is absent";
  ASSERT_EQ(data["loads"].size(), 1u);
  const auto& force = data["loads"][0]["force"];
  ASSERT_EQ(force.size(), 2 * data["frames"].size());
  for (size_t f = 0; f + 1 < force.size(); f += 2) {
    ASSERT_FALSE(force[f].is_null()) << "frame " << f / 2;
    EXPECT_EQ(force[f + 1].get<double>(), -100.0);
  }
}

TEST(Report, TheSteadyCyclesEnergiesBalanceAndAResistanceIsNotCountedAsPairFriction) {
  // The bicycle's brake takes what the two hips give over a cycle; no pair has friction, so no
  // pair-friction line: the brake's dissipation is on its own line only.
  const io::Model model = io::read_model(test::example("seed003-bicycle"));
  const planar::Mechanism m = planar::compile(model.mechanism);
  const std::string html = report::planar_report_html(m, model.machine, m.default_grid());
  EXPECT_EQ(html.find("friction in the pairs"), std::string::npos);
  double sum = 0.0, largest = 0.0;
  int lines = 0;
  for (size_t at = html.find("energy per cycle: "); at != std::string::npos;
       at = html.find("energy per cycle: ", at + 1)) {
    const size_t value = html.find(' ', html.find(':', at) + 2) + 1;
    const double joules = std::stod(html.substr(value));
    sum += joules, largest = std::max(largest, std::abs(joules)), ++lines;
  }
  EXPECT_EQ(lines, 3);
  EXPECT_NEAR(sum, 0.0, 1e-5 * largest) << "J per cycle: the kinetic and potential energies repeat";
}

TEST(Report, AChartsAxesAndUnitsComeFromItsTypedFieldsNotFromItsLabels) {
  // The seed four-bar's charts against the crank's angle: the x axis is driver 0's angle in deg,
  // each y axis its quantity's kind and unit; the labels drawn are written from them.
  const planar::Mechanism fourbar = io::load_mechanism(test::example("seed001-fourbar"));
  const std::vector<report::Chart> plots =
      report::kinematics_plots(fourbar, planar::kinematics(fourbar, fourbar.default_grid()));
  ASSERT_FALSE(plots.empty());
  EXPECT_EQ(plots[0].x, (report::Axis{report::Kind::angle, "deg", "crank_drive angle", 0}));
  for (const report::Chart& p : plots) {
    SCOPED_TRACE(p.id);
    if (p.id == "kinematics-omega") {
      EXPECT_EQ(p.y, (report::Axis{report::Kind::angular_velocity, "rad/s", "omega"}));
    }
    if (p.id == "kinematics-speeds") {
      EXPECT_EQ(p.y.kind, report::Kind::velocity);
    }
    const io::Plot drawn = p.plot();
    EXPECT_EQ(drawn.x_label, p.x.label());
    EXPECT_EQ(drawn.y_label, p.y.label());
  }
  EXPECT_EQ((report::Axis{report::Kind::efficiency, "", "1 - friction / driver power"}).label(),
            "1 - friction / driver power");
  // A driver named "t" swinging the crank to and fro: the animation runs against time, "t (s)",
  // whose label starts with the driver's name (which the old prefix rule took for the driver's
  // axis). The reduced inertia is against the driver's angle: not linked to the animation.
  std::string text = test::read_text(test::example("seed001-fourbar"));
  text.replace(text.find("crank_drive:"), 12, "t:");
  const size_t law = text.find("law: {type: constant_speed");
  text.replace(law, text.find('}', law) + 1 - law,
               "law: {type: harmonic, c: [0, 0, 0.5, 20, 0], duration: 0.4, steps: 200}");
  const io::Model model = io::parse_model(text, "swinging-t.yaml");
  const planar::Mechanism m = planar::compile(model.mechanism);
  const planar::KinematicsResult k = planar::kinematics(m, m.default_grid());
  const std::vector<report::Chart> swinging = report::kinematics_plots(m, k);
  ASSERT_FALSE(swinging.empty());
  EXPECT_EQ(swinging[0].x.kind, report::Kind::time);
  EXPECT_EQ(swinging[0].x.label(), "t (s)");
  const std::vector<report::Chart> reduced = report::reduced_plots(m, dynamics::tabulate_reduced_parameters(m, 36));
  ASSERT_FALSE(reduced.empty());
  EXPECT_EQ(reduced[0].x, (report::Axis{report::Kind::angle, "deg", "t angle", 0}));
  report::ReportOptions options;
  options.kinetostatics = false;
  const std::string html = report::planar_report_html(m, model.machine, m.default_grid(), options);
  EXPECT_EQ(page_data(html)["xlabel"], "t (s)");
  const nlohmann::json charts = page_charts(html);
  const auto inertia =
      std::find_if(charts.begin(), charts.end(), [](const auto& c) { return c["id"] == "reduced-inertia"; });
  ASSERT_NE(inertia, charts.end());
  EXPECT_EQ((*inertia)["xlabel"], "t angle (deg)");
  EXPECT_FALSE((*inertia)["linked"].get<bool>()) << "against the driver's angle, not the animation's time";
  const auto angles =
      std::find_if(charts.begin(), charts.end(), [](const auto& c) { return c["id"] == "kinematics-angles"; });
  ASSERT_NE(angles, charts.end());
  EXPECT_TRUE((*angles)["linked"].get<bool>());
}

TEST(Report, TheSliderRatiosNameTheChosenPointsWhenThereAreSome) {
  // The subject of the velocity ratios and mechanical advantage comes from the options (points
  // chosen along a direction or not), not from another chart's title.
  const planar::Mechanism m = io::load_mechanism(test::example("toggle-press"));
  const planar::KinematicsResult k = planar::kinematics(m, m.default_grid());
  auto title = [](const std::vector<report::Chart>& plots, const std::string& id) {
    const auto p = std::find_if(plots.begin(), plots.end(), [&](const report::Chart& q) { return q.id == id; });
    return p == plots.end() ? std::string() : p->title;
  };
  const std::vector<report::Chart> sliders = report::kinematics_plots(m, k);
  const std::vector<report::Chart> points = report::kinematics_plots(m, k, {{"T", M_PI / 2}, {"T", M_PI / 2}});
  EXPECT_EQ(title(sliders, "kinematics-slider-ratio").rfind("Sliders: velocity per driver rate", 0), 0u);
  EXPECT_EQ(title(points, "kinematics-slider-ratio").rfind("Sliders and points: velocity per driver rate", 0), 0u);
  EXPECT_EQ(title(points, "kinematics-mechanical-advantage").rfind("Sliders and points: ideal mechanical", 0), 0u);
  const auto along =
      std::find_if(points.begin(), points.end(), [](const report::Chart& q) { return q.id == "kinematics-sliders"; });
  ASSERT_NE(along, points.end());
  EXPECT_EQ(along->series.size(), 2u) << "the point given twice is drawn once";
}

TEST(Report, AGridOfOnlySingularPositionsGivesTheKinematicsAndSaysWhyTheKinetostaticsAreMissing) {
  // The parallelogram chain on one or two steps: every grid point is singular or a dead point.
  const planar::Mechanism m = io::load_mechanism(test::example("parallelogram-chain"));
  for (const int steps : {1, 2}) {
    planar::TimeGrid grid = m.default_grid();
    grid.steps = steps;
    const std::string html = without_library(report::planar_report_html(m, {}, grid));
    EXPECT_NE(html.find("kinetostatics not shown: every position of the grid is singular or a dead point (reactions "
                        "unbounded at t = 0"),
              std::string::npos)
        << steps;
    EXPECT_NE(html.find("a grid of more steps passes between them"), std::string::npos);
    EXPECT_EQ(html.find("<h2>Kinetostatics</h2>"), std::string::npos);
    EXPECT_NE(html.find("<h2>Kinematics</h2>"), std::string::npos);
    EXPECT_EQ(html.find("nan"), std::string::npos);
  }
}

TEST(Report, TheCamsProfileTurnsWithItsBodyItsRollerTouchesItInEveryFrameAndItsDiagramsAreTheProgram) {
  // The valve train's cam: its profile on the camshaft's frame, at the base circle's 18 mm at
  // least (the dwell) from the camshaft's pivot; turned by each frame's pose, its nearest point
  // to the roller's centre lies one roller radius (7 mm) away (to the drawing's 360 points and 6
  // digits). The rocker's s-v-a-j diagrams peak at the program's closed forms; the contact force
  // chart's least value is the kinetostatics' least contact force.
  const io::Model model = io::read_model(test::example("cam-valve-train"));
  const planar::Mechanism m = planar::compile(model.mechanism);
  const std::string page = report::planar_report_html(m, model.machine, m.default_grid());
  const nlohmann::json data = page_data(page);
  ASSERT_EQ(data["cams"].size(), 1u);
  const auto& cam = data["cams"][0];
  const planar::Joint& lobe = m.joints()[static_cast<size_t>(m.cam_pairs()[0])];
  EXPECT_EQ(cam["body"].get<int>(), lobe.body[0]);
  EXPECT_NEAR(cam["r"].get<double>(), 0.007, 1e-12);
  const std::vector<double> profile = cam["profile"].get<std::vector<double>>();
  ASSERT_EQ(profile.size(), 720u);
  double nearest_centre = INFINITY, worst_touch = 0.0;
  for (size_t k = 0; k + 1 < profile.size(); k += 2)
    nearest_centre = std::min(nearest_centre, (Vec2(profile[k], profile[k + 1]) - lobe.point[0]).norm());
  const auto& roller = cam["roller"];
  for (const auto& pose : data["poses"]) {
    const auto at = [&](int body, const Vec2& local) -> Vec2 {
      const size_t i = 3 * static_cast<size_t>(body - 1);
      return Vec2(pose[i].get<double>(), pose[i + 1].get<double>()) + rotate(local, pose[i + 2].get<double>());
    };
    const Vec2 centre = at(roller[0].get<int>(), Vec2(roller[1].get<double>(), roller[2].get<double>()));
    double nearest = INFINITY;
    for (size_t k = 0; k + 1 < profile.size(); k += 2)
      nearest = std::min(nearest, (at(lobe.body[0], Vec2(profile[k], profile[k + 1])) - centre).norm());
    worst_touch = std::max(worst_touch, std::abs(nearest - 0.007));
  }
  std::printf("cam drawing: nearest profile point to the pivot %.6f m; |roller to profile - 7 mm| up to %.1e m\n",
              nearest_centre, worst_touch);
  EXPECT_NEAR(nearest_centre, 0.018, 1e-6);
  EXPECT_LT(worst_touch, 1e-6);
  const nlohmann::json charts = page_charts(without_library(page));
  const auto chart = [&](const std::string& id) {
    for (const auto& c : charts)
      if (c["id"] == id) return c;
    ADD_FAILURE() << "no chart " << id;
    return nlohmann::json();
  };
  const auto largest = [](const nlohmann::json& c, bool most) {
    double v = most ? -INFINITY : INFINITY;
    for (const auto& row : c["rows"])
      if (!row[1].is_null()) v = most ? std::max(v, row[1].get<double>()) : std::min(v, row[1].get<double>());
    return v;
  };
  EXPECT_NEAR(largest(chart("kinematics-cam-lobe-lift"), true), 10.0, 1e-4);
  // The 3-4-5 rise of 10 deg over 70 deg at 3000 rpm: peaks 1.875, 5.7735 times h w^k / b^k
  // (deg/s, deg/s^2; the rows every 0.5 deg catch the acceleration's peak to 1e-4); the jerk's,
  // 60 - 360 x + 360 x^2 at the first row after the start, x = 0.5 / 70 (the start itself
  // belongs to the dwell before it).
  const double w = 100 * M_PI, b = 70 * M_PI / 180;
  EXPECT_NEAR(largest(chart("kinematics-cam-lobe-velocity"), true), 1.875 * 10 * w / b, 1e-6 * 1.875 * 10 * w / b);
  EXPECT_NEAR(largest(chart("kinematics-cam-lobe-acceleration"), true), 5.7735 * 10 * w * w / (b * b),
              2e-4 * 5.7735 * 10 * w * w / (b * b));
  const double x = 0.5 / 70, jerk = (60 - 360 * x + 360 * x * x) * 10 * w * w * w / (b * b * b);
  EXPECT_NEAR(largest(chart("kinematics-cam-lobe-jerk"), true), jerk, 1e-6 * jerk);
  for (const char* id : {"kinematics-cam-pressure-angle", "kinematics-cam-radius"})
    EXPECT_GT(largest(chart(id), true), 0.0) << id;
  const planar::KinetostaticsResult k = planar::kinetostatics(m, m.default_grid(), {});
  EXPECT_NEAR(largest(chart("kinetostatics-cam-contact"), false),
              k.summary.least_contact[static_cast<size_t>(m.cam_pairs()[0])], 1e-3);
}
