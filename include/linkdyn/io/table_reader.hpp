#pragma once
// Reading a CSV table with a header row of column names (states files, tabulated inputs).
#include <string>

#include "linkdyn/core/table.hpp"

namespace linkdyn::io {

/// Columns named by the header, every cell a number (SI). Blank lines and lines starting with
/// '#' are skipped. Throws InputError naming the file, line and column.
Table read_csv_table(const std::string& path);

}  // namespace linkdyn::io
