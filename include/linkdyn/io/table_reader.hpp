#pragma once
// Reading a CSV table with a header row of column names (states files, tabulated inputs).
#include <functional>
#include <string>
#include <vector>

#include "linkdyn/core/table.hpp"

namespace linkdyn::io {

struct CsvTable {
  Table table;
  int header_line = 0;         ///< 1-based line of the header
  std::vector<int> row_lines;  ///< 1-based line of each data row
};

/// Called with the header's column names and line before the rows are read: a reader's own
/// checks of the columns (throwing InputError), which then come before any row's error.
using CsvHeaderCheck = std::function<void(const std::vector<std::string>& columns, int line)>;

/// Columns named by the header, every cell a number (SI). Blank lines and lines starting with
/// '#' are skipped. Throws InputError naming the file, line and column.
[[nodiscard]] CsvTable read_csv_table(const std::string& path, const CsvHeaderCheck& check_header = {});

}  // namespace linkdyn::io
