#pragma once
// The design numbers (planar/design_numbers.hpp) as the console's text and as JSON, for the
// command line, the report's summary, the JSON metadata and Python.
#include <string>

#include "linkdyn/planar/design_numbers.hpp"

namespace linkdyn::io {

/// One line per output, four-bar loop and transmission angle; angles in degrees, the driver's
/// values in its unit (deg or m). Empty when there is nothing to say.
[[nodiscard]] std::string design_numbers_text(const planar::Mechanism& m, const planar::DesignNumbers& d);
/// The same as a JSON object (SI units: rad, m): {"outputs": [...], "four_bars": [...],
/// "transmission": [...]}.
[[nodiscard]] std::string design_numbers_json(const planar::DesignNumbers& d);

}  // namespace linkdyn::io
