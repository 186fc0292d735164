#include "report/report_data.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "linkdyn/core/interrupt.hpp"
#include "linkdyn/dynamics/direct.hpp"
#include "report/x_axis.hpp"

namespace linkdyn::report {
namespace {

using planar::Mechanism;

/// Where each moving body's points lie in a pose (x, y of each, body after body).
std::vector<AnimatedBody> animated_bodies(const Mechanism& m) {
  std::vector<AnimatedBody> bodies;
  size_t offset = 0;
  for (size_t b = 1; b < m.bodies().size(); ++b) {
    const size_t points = std::max<size_t>(1, m.bodies()[b].points.size());
    bodies.push_back({m.bodies()[b].name, offset, points});
    offset += 2 * points;
  }
  return bodies;
}

/// Every moving body's named points in the global frame (its frame's origin if it has none), in
/// the order of animated_bodies, at a row of the kinematics.
void append_pose(const Mechanism& m, const planar::KinematicsResult& r, Eigen::Index row, std::vector<double>& out) {
  for (size_t b = 1; b < m.bodies().size(); ++b) {
    const auto c = static_cast<Eigen::Index>(b - 1);
    const Vec2 origin(r.x0(row, c), r.y0(row, c));
    const double angle = r.angle(row, c), cosine = std::cos(angle), sine = std::sin(angle);
    for (const planar::NamedPoint& p : m.bodies()[b].points) {
      const Vec2 g = origin + rotate(p.local, cosine, sine);
      out.push_back(g.x()), out.push_back(g.y());
    }
    if (m.bodies()[b].points.empty()) out.push_back(origin.x()), out.push_back(origin.y());
  }
}

/// Rows 0, stride, 2 stride ... and the last: at most about max_frames + 1.
std::vector<size_t> frame_rows(size_t rows, size_t max_frames) {
  const size_t stride = std::max<size_t>(1, (rows + max_frames - 1) / max_frames);
  std::vector<size_t> out;
  for (size_t r = 0; r < rows; r += stride) out.push_back(r);
  if (!out.empty() && out.back() != rows - 1) out.push_back(rows - 1);
  return out;
}

/// A 4:3 view centred on everything the mechanism sweeps (every frame and the ground points),
/// and the drawing's size.
void frame_the_view(Animation& a) {
  double x0 = INFINITY, x1 = -INFINITY, y0 = INFINITY, y1 = -INFINITY;
  auto grow = [&](double px, double py) {
    x0 = std::min(x0, px), x1 = std::max(x1, px), y0 = std::min(y0, py), y1 = std::max(y1, py);
  };
  for (const auto& f : a.frames)
    for (size_t k = 0; k + 1 < f.size(); k += 2) grow(f[k], f[k + 1]);
  for (const Vec2& g : a.ground) grow(g.x(), g.y());
  if (!(x0 <= x1)) x0 = -1, x1 = 1, y0 = -1, y1 = 1;
  a.size = std::max({x1 - x0, y1 - y0, 1e-6});
  const double width = 1.12 * std::max({x1 - x0, (y1 - y0) * 4.0 / 3.0, 1e-6}), height = 0.75 * width;
  a.view = {0.5 * (x0 + x1) - 0.5 * width, -0.5 * (y0 + y1) - 0.5 * height, width, height};
}

/// The animation at decimated rows of the kinematics.
Animation animation(const Mechanism& m, const planar::KinematicsResult& r, const XAxis& x, size_t max_frames) {
  Animation a;
  a.x_label = x.label;
  a.bodies = animated_bodies(m);
  for (const planar::NamedPoint& g : m.bodies()[0].points) a.ground.push_back(g.local);
  for (size_t k = 0; k < m.output_points().size(); ++k) a.paths.push_back({r.points[k].label, {}});
  for (size_t row : frame_rows(static_cast<size_t>(r.rows()), max_frames)) {
    const auto i = static_cast<Eigen::Index>(row);
    a.x.push_back(x.values[row]);
    a.frames.emplace_back();
    append_pose(m, r, i, a.frames.back());
    for (size_t k = 0; k < a.paths.size(); ++k) {
      a.paths[k].second.push_back(r.x(i, static_cast<Eigen::Index>(k)));
      a.paths[k].second.push_back(r.y(i, static_cast<Eigen::Index>(k)));
    }
  }
  frame_the_view(a);
  return a;
}

std::string sweep_summary(const Mechanism& m, const planar::TimeGrid& grid, const planar::SweepSummary& sweep) {
  std::string text = fmt::format("structure: {}\ndegrees of freedom: {}\nsteps: {} over t = [{:g}, {:g}] s\n",
                                 m.structure_string(), m.dof(), grid.steps, grid.t0, grid.t_end);
  for (const planar::SweepEvent& e : sweep.events) text += fmt::format("t = {:.6g} s: {}\n", e.t, e.message);
  return text;
}

/// The drivers' values at a row: "crank_drive = 123.4 deg", several comma-separated.
std::string driver_values_at(const Mechanism& m, const planar::KinetostaticsResult& r, Eigen::Index row) {
  std::string text;
  for (size_t d = 0; d < m.drivers().size(); ++d) {
    const planar::Driver& driver = m.drivers()[d];
    const double q = r.q(row, static_cast<Eigen::Index>(d));
    text += (d ? ", " : "") + (driver.type == planar::DriverType::rotational
                                   ? fmt::format("{} = {:.4g} deg", driver.name, q * 180.0 / M_PI)
                                   : fmt::format("{} = {:.6g} m", driver.name, q));
  }
  return text;
}

/// The row nearest to time t.
Eigen::Index row_at(const planar::KinetostaticsResult& r, double t) {
  Eigen::Index best = 0;
  for (Eigen::Index k = 1; k < r.t.size(); ++k)
    if (std::abs(r.t(k) - t) < std::abs(r.t(best) - t)) best = k;
  return best;
}

std::string kinetostatics_summary(const Mechanism& m, const planar::KinetostaticsResult& r) {
  const planar::KinetostaticsSummary& ksum = r.summary;
  std::string text = fmt::format("mean driving power: {:.6g} W; driving work {:.6g} J; friction loss {:.6g} J\n",
                                 ksum.mean_driver_power, ksum.driver_work, ksum.friction_work);
  // What a motor is sized by: each driver's peak and RMS effort, with and without friction.
  for (size_t d = 0; d < m.drivers().size(); ++d) {
    const planar::Driver& driver = m.drivers()[d];
    const char* unit = driver.type == planar::DriverType::rotational ? "N m" : "N";
    for (const bool with_friction : {true, false}) {
      const Eigen::MatrixXd& effort = with_friction ? r.effort : r.effort_frictionless;
      double peak = 0.0, sum = 0.0;
      Eigen::Index at = 0, count = 0;
      for (Eigen::Index k = 0; k < effort.rows(); ++k) {
        const double v = effort(k, static_cast<Eigen::Index>(d));
        if (!std::isfinite(v)) continue;
        if (std::abs(v) > std::abs(peak)) peak = v, at = k;
        sum += v * v, ++count;
      }
      if (count == 0) continue;
      text += fmt::format("driver {} effort{}: peak {:.6g} {} at {} (t = {:.6g} s), RMS {:.6g} {}\n", driver.name,
                          with_friction ? "" : " without friction", peak, unit, driver_values_at(m, r, at), r.t(at),
                          std::sqrt(sum / static_cast<double>(count)), unit);
    }
  }
  if (ksum.has_useful_loads && ksum.driver_work > 0) {
    text += fmt::format("cycle efficiency (useful / driving work): {:.4f}\n", ksum.useful_work / ksum.driver_work);
    if (std::abs(ksum.useful_work) <= 1e-9 * ksum.driver_work)
      text +=
          "  (zero: the useful loads do no net work over the cycle, e.g. a spring or weight that gives back what "
          "it takes)\n";
  } else if (!ksum.has_useful_loads) {
    text += "cycle efficiency: no load is marked useful (useful: true), so none is computed\n";
  }
  for (size_t k = 0; k < m.spec().joints.size(); ++k)
    if (m.joints()[k].type != planar::JointType::gear)
      text +=
          fmt::format("pair {}: max |F| {:.6g} N at {} (t = {:.6g} s), friction loss {:.6g} J\n", m.joints()[k].name,
                      ksum.max_reaction[k], driver_values_at(m, r, row_at(r, ksum.max_reaction_t[k])),
                      ksum.max_reaction_t[k], ksum.friction_energy[k]);
  for (size_t p = 0; p < m.pins().size(); ++p)
    text +=
        fmt::format("compound pin {}: max |F| on a member {:.6g} N at {} (t = {:.6g} s), friction loss {:.6g} J\n",
                    m.pins()[p].name, ksum.pin_max_force[p], driver_values_at(m, r, row_at(r, ksum.pin_max_force_t[p])),
                    ksum.pin_max_force_t[p], ksum.pin_friction_energy[p]);
  if (ksum.flagged > 0) text += fmt::format("{} position(s) near self-locking\n", ksum.flagged);
  return text;
}

/// The reduced parameters and a simulation under the actuators, for a one-DOF mechanism: their
/// sections (when they run) and their lines of the summary.
void add_dynamics(const Mechanism& m, const dynamics::MachineSpec& machine, const planar::TimeGrid& grid,
                  const XAxis& x, ReportData& data) {
  try {
    std::vector<Plot> reduced = reduced_plots(m, dynamics::tabulate_reduced_parameters(m, 360));
    if (x.label.rfind(m.drivers()[0].name, 0) != 0)  // the animation runs against time
      for (Plot& p : reduced) p.linked = false;
    data.sections.push_back({"Reduced parameters", std::move(reduced)});
    if (machine.actuators.empty()) return;
    dynamics::SimulationOptions so;
    so.t0 = grid.t0;
    so.t_end = grid.t_end;
    so.steps = 600;
    so.rel_tol = so.abs_tol = 1e-9;
    so.kinematics = false;  // the plots are against time: no poses needed
    const dynamics::DynamicSystem system(m, machine);
    std::vector<Plot> simulation = simulation_plots(system, dynamics::simulate(system, so));
    if (!simulation.empty())
      data.sections.push_back({"Direct dynamics (against time: not linked to the slider)", std::move(simulation)});
    data.summary +=
        fmt::format("direct dynamics: from the driver's law at t = {:g} s, until t = {:g} s\n", grid.t0, grid.t_end);
  } catch (const Interrupted&) {
    throw;
  } catch (const std::exception& e) {
    data.summary += std::string("reduced parameters / dynamics not shown: ") + e.what() + "\n";
  }
}

}  // namespace

ReportData report_data(const Mechanism& m, const dynamics::MachineSpec& machine, const planar::TimeGrid& grid,
                       const ReportOptions& options) {
  ReportData data;
  data.title = m.spec().name;
  data.kinetostatics = options.kinetostatics;
  const planar::KinematicsResult kinematics = planar::kinematics(m, grid);
  const XAxis x = x_axis(m, kinematics.t, kinematics.q);
  data.animation = animation(m, kinematics, x, options.max_frames);
  data.summary = sweep_summary(m, grid, kinematics.summary);
  data.sections.push_back({"Kinematics", kinematics_plots(m, kinematics)});
  if (options.kinetostatics) {
    const planar::KinetostaticsResult kinetostatics = planar::kinetostatics(m, grid, options.solver);
    data.sections.push_back({"Kinetostatics", kinetostatics_plots(m, kinetostatics)});
    data.summary += kinetostatics_summary(m, kinetostatics);
  }
  if (m.dof() == 1) add_dynamics(m, machine, grid, x, data);
  return data;
}

}  // namespace linkdyn::report
