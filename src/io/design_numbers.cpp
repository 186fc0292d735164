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
  return out.empty() ? out : "design numbers:\n" + out;
}

std::string design_numbers_json(const planar::DesignNumbers& d) {
  nlohmann::ordered_json j = {{"outputs", nlohmann::ordered_json::array()},
                              {"four_bars", nlohmann::ordered_json::array()},
                              {"transmission", nlohmann::ordered_json::array()}};
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
  return j.dump();
}

}  // namespace linkdyn::io
