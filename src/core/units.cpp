#include "linkdyn/core/units.hpp"

#include <fmt/format.h>

#include <charconv>
#include <cmath>
#include <utility>
#include <vector>

namespace linkdyn {
namespace {
using UnitTable = std::vector<std::pair<std::string_view, double>>;

const UnitTable& units_of(Quantity kind) {
  static const UnitTable none{};
  static const UnitTable length{{"m", 1.0}, {"mm", 1e-3}, {"cm", 1e-2}};
  static const UnitTable angle{{"rad", 1.0}, {"deg", M_PI / 180.0}};
  static const UnitTable speed{{"rad/s", 1.0}, {"deg/s", M_PI / 180.0}, {"rpm", M_PI / 30.0}};
  static const UnitTable accel{{"rad/s^2", 1.0}, {"deg/s^2", M_PI / 180.0}};
  static const UnitTable force{{"N", 1.0}, {"kN", 1e3}};
  static const UnitTable moment{{"N m", 1.0}, {"kN m", 1e3}};
  static const UnitTable time{{"s", 1.0}, {"ms", 1e-3}, {"min", 60.0}};
  static const UnitTable velocity{{"m/s", 1.0}, {"mm/s", 1e-3}};
  static const UnitTable pressure{{"Pa", 1.0}, {"kPa", 1e3}, {"MPa", 1e6}, {"bar", 1e5}};
  switch (kind) {
    case Quantity::length: return length;
    case Quantity::angle: return angle;
    case Quantity::angular_velocity: return speed;
    case Quantity::angular_acceleration: return accel;
    case Quantity::force: return force;
    case Quantity::moment: return moment;
    case Quantity::time: return time;
    case Quantity::velocity: return velocity;
    case Quantity::pressure: return pressure;
    case Quantity::plain: break;
  }
  return none;
}

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}
}  // namespace

std::string si_unit(Quantity kind) {
  const UnitTable& units = units_of(kind);
  return units.empty() ? std::string() : std::string(units.front().first);
}

std::string accepted_units(Quantity kind) {
  std::string out;
  for (const auto& [name, factor] : units_of(kind)) {
    if (!out.empty()) out += ", ";
    out += name;
  }
  return out.empty() ? "no unit" : out;
}

std::string magnitude_problem(double value, std::string_view text) {
  if (std::abs(value) < max_input_magnitude) return {};
  return fmt::format("'{}' is too large: inputs are limited to |x| < {:g} in SI units (double precision)", text,
                     max_input_magnitude);
}

std::optional<double> parse_quantity(std::string_view text, Quantity kind, std::string& problem) {
  text = trim(text);
  double value = 0.0;
  const char* begin = text.data();
  const char* end = text.data() + text.size();
  if (!text.empty() && *begin == '+') ++begin;
  auto [ptr, ec] = std::from_chars(begin, end, value);
  if (ec != std::errc() || ptr == begin) {
    problem = fmt::format("'{}' is not a number", text);
    return std::nullopt;
  }
  if (!std::isfinite(value)) {
    problem = fmt::format("'{}' is not a finite number", text);
    return std::nullopt;
  }
  const std::string_view unit = trim(std::string_view(ptr, static_cast<size_t>(end - ptr)));
  const auto in_range = [&](double si) -> std::optional<double> {
    problem = magnitude_problem(si, text);
    if (!problem.empty()) return std::nullopt;
    return si;
  };
  // A bare angle beyond a turn is almost always degrees written without their unit ("90" would
  // be 90 rad): the unit is required there.
  if (unit.empty() && kind == Quantity::angle && std::abs(value) > 2.0 * M_PI) {
    problem = fmt::format(
        "a bare angle of {0} is {1:.3g} turns in radians, the unit of a bare number: write the unit, '{0} deg' or, "
        "if radians are meant, '{0} rad'",
        text, value / (2.0 * M_PI));
    return std::nullopt;
  }
  if (unit.empty()) return in_range(value);
  for (const auto& [name, factor] : units_of(kind)) {
    if (unit == name) return in_range(value * factor);
  }
  problem = kind == Quantity::plain
                ? fmt::format("'{}' is not a number", text)
                : fmt::format("unit '{}' is not accepted here (accepted: {})", unit, accepted_units(kind));
  return std::nullopt;
}

}  // namespace linkdyn
