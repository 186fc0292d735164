#pragma once
// Quantities written with an explicit unit in model files ("30 deg", "120 rpm"). SI inside.
#include <optional>
#include <string>
#include <string_view>

namespace linkdyn {

enum class Quantity {
  plain,
  length,
  angle,
  angular_velocity,
  angular_acceleration,
  force,
  moment,
  time,
  velocity,
  pressure
};

/// The SI unit of a quantity ("m", "rad/s"; empty for a plain number).
[[nodiscard]] std::string si_unit(Quantity kind);
/// Units accepted for a quantity, for error messages ("rad, deg").
[[nodiscard]] std::string accepted_units(Quantity kind);

/// The largest magnitude an input number may have in SI units: beyond it a double keeps too few
/// digits for the sums and differences of an analysis (and squares overflow sooner).
inline constexpr double max_input_magnitude = 1e12;

/// "" when |value| < max_input_magnitude, else the problem for a message about `text`.
[[nodiscard]] std::string magnitude_problem(double value, std::string_view text);

/// Parses "<number>" or "<number> <unit>" and returns the value in SI, or nothing with `problem`
/// set: not a number, not finite, an unknown unit, or |value| >= max_input_magnitude in SI. A
/// bare number is already SI (rad, m, rad/s); a bare angle beyond a turn is refused (degrees
/// without their unit, as a rule).
[[nodiscard]] std::optional<double> parse_quantity(std::string_view text, Quantity kind, std::string& problem);

}  // namespace linkdyn
