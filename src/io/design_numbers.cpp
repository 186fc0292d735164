// The design numbers as text and JSON.
#include "linkdyn/io/design_numbers.hpp"

#include <fmt/format.h>

#include <cmath>
#include <nlohmann/json.hpp>

namespace linkdyn::io {

using planar::OutputTravel;

namespace {
/// The first driver's value in its unit ("crank = 30 deg").
std::string driver_value(const planar::Mechanism& m, double q) { return planar::driver_values(m, {&q, 1}); }
/// A JSON number, null when not finite.
nlohmann::ordered_json number(double x) { return std::isfinite(x) ? nlohmann::ordered_json(x) : nullptr; }
}  // namespace

std::string design_numbers_text(const planar::Mechanism& m, const planar::DesignNumbers& d) {
  std::string out;
  for (const OutputTravel& o : d.outputs) {
    if (o.revolves) {
      out += fmt::format("  {:<20} revolves with the driver\n", o.name);
      continue;
    }
    const bool swing = o.kind == OutputTravel::Kind::swing;
    const double scale = swing ? 180.0 / M_PI : 1.0;
    const char* unit = swing ? "deg" : "m";
    out += fmt::format("  {:<20} {} {:.6g} {}", o.name, swing ? "swing" : "stroke", o.travel * scale, unit);
    if (!swing) out += fmt::format(" along ({:.4g}, {:.4g})", o.direction.x(), o.direction.y());
    out += fmt::format("; limits {:.6g} {} at {} and {:.6g} {} at {}", o.low * scale, unit, driver_value(m, o.q_low),
                       o.high * scale, unit, driver_value(m, o.q_high));
    if (std::isfinite(o.time_ratio)) out += fmt::format("; time ratio {:.6g}", o.time_ratio);
    out += "\n";
  }
  for (const planar::FourBarLoop& f : d.four_bars)
    out += fmt::format("  four-bar {}-{}-{}-{}: {:.6g}, {:.6g}, {:.6g}, {:.6g} m: {} ({})\n", f.links[0], f.links[1],
                       f.links[2], f.links[3], f.lengths[0], f.lengths[1], f.lengths[2], f.lengths[3], f.type,
                       f.grashof ? "Grashof" : "non-Grashof");
  for (const planar::TransmissionExtremes& t : d.transmission)
    out += fmt::format("  transmission angle at {}: min {:.6g} deg at {}, max {:.6g} deg at {}\n", t.joint,
                       t.min * 180.0 / M_PI, driver_value(m, t.q_at_min), t.max * 180.0 / M_PI,
                       driver_value(m, t.q_at_max));
  for (const planar::CamNumbers& c : d.cams) {
    const double scale = c.oscillating ? 180.0 / M_PI : 1e3;
    const char* unit = c.oscillating ? "deg" : "mm";
    const char* rate = c.oscillating ? "rad" : "m";
    out += fmt::format(
        "  cam {}: lift {:.6g} {}; velocity up to {:.6g} {}/s, acceleration {:.6g} to {:.6g} {}/s^2, jerk up to {:.6g} "
        "{}/s^3; pressure angle up to {:.4g} deg at {}{}",
        c.joint, c.lift * scale, unit, c.v_max, rate, c.a_min, c.a_max, rate, c.jerk_max, rate,
        c.pressure_angle_max * 180.0 / M_PI, driver_value(m, c.q_at_pressure_angle_max),
        c.pressure_angle_max > c.pressure_angle_limit()
            ? fmt::format(" (above the usual {:g} deg)", c.pressure_angle_limit() * 180.0 / M_PI)
            : "");
    if (std::isfinite(c.convex_radius_min))
      out += fmt::format("; profile radius at least {:.4g} mm (convex) at {}", c.convex_radius_min * 1e3,
                         driver_value(m, c.q_at_convex_radius_min));
    if (std::isfinite(c.concave_radius_min))
      out += fmt::format(", {:.4g} mm (concave) at {}", c.concave_radius_min * 1e3,
                         driver_value(m, c.q_at_concave_radius_min));
    out += "\n";
  }
  return out.empty() ? out : "design numbers:\n" + out;
}

std::string design_numbers_json(const planar::DesignNumbers& d) {
  nlohmann::ordered_json j = {{"outputs", nlohmann::ordered_json::array()},
                              {"four_bars", nlohmann::ordered_json::array()},
                              {"transmission", nlohmann::ordered_json::array()},
                              {"cams", nlohmann::ordered_json::array()}};
  for (const OutputTravel& o : d.outputs) {
    nlohmann::ordered_json e = {
        {"name", o.name}, {"kind", o.kind == OutputTravel::Kind::swing ? "swing" : "stroke"}, {"revolves", o.revolves}};
    if (o.kind == OutputTravel::Kind::stroke) e["direction"] = {o.direction.x(), o.direction.y()};
    if (!o.revolves) {
      e["travel"] = o.travel, e["low"] = o.low, e["high"] = o.high;
      e["q_low"] = o.q_low, e["q_high"] = o.q_high, e["time_ratio"] = number(o.time_ratio);
    }
    j["outputs"].push_back(e);
  }
  for (const planar::FourBarLoop& f : d.four_bars)
    j["four_bars"].push_back({{"links", f.links}, {"lengths", f.lengths}, {"grashof", f.grashof}, {"type", f.type}});
  for (const planar::TransmissionExtremes& t : d.transmission)
    j["transmission"].push_back(
        {{"joint", t.joint}, {"min", t.min}, {"q_at_min", t.q_at_min}, {"max", t.max}, {"q_at_max", t.q_at_max}});
  for (const planar::CamNumbers& c : d.cams)
    j["cams"].push_back({{"joint", c.joint},
                         {"oscillating", c.oscillating},
                         {"lift", c.lift},
                         {"v_max", c.v_max},
                         {"a_min", c.a_min},
                         {"a_max", c.a_max},
                         {"jerk_max", c.jerk_max},
                         {"pressure_angle_max", c.pressure_angle_max},
                         {"q_at_pressure_angle_max", c.q_at_pressure_angle_max},
                         {"pressure_angle_limit", c.pressure_angle_limit()},
                         {"convex_radius_min", number(c.convex_radius_min)},
                         {"q_at_convex_radius_min", c.q_at_convex_radius_min},
                         {"concave_radius_min", number(c.concave_radius_min)},
                         {"q_at_concave_radius_min", c.q_at_concave_radius_min}});
  return j.dump();
}

}  // namespace linkdyn::io
