#pragma once
// Quantities written with an explicit unit in model files ("30 deg", "120 rpm"). SI inside.
#include <optional>
#include <string>
#include <string_view>

namespace linkdyn {

enum class Quantity { plain, length, angle, angular_velocity, angular_acceleration, force, moment };

/// The SI unit of a quantity ("m", "rad/s"; empty for a plain number).
std::string si_unit(Quantity kind);
/// Units accepted for a quantity, for error messages ("rad, deg").
std::string accepted_units(Quantity kind);

/// Parses "<number>" or "<number> <unit>" and returns the value in SI, or nothing with `problem`
/// set. A bare number is already SI (rad, m, rad/s).
std::optional<double> parse_quantity(std::string_view text, Quantity kind, std::string& problem);

}  // namespace linkdyn
