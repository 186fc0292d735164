#pragma once
// Reading a CSV table with a header row of column names (states files, tabulated inputs).
#include <string>
#include <vector>

#include "linkdyn/core/table.hpp"

namespace linkdyn::io {

struct CsvTable {
  Table table;
  int header_line = 0;         ///< 1-based line of the header
  std::vector<int> row_lines;  ///< 1-based line of each data row
};

/// Columns named by the header, every cell a number (SI). Blank lines and lines starting with
/// '#' are skipped. Throws InputError naming the file, line and column.
[[nodiscard]] CsvTable read_csv_table(const std::string& path);

}  // namespace linkdyn::io
