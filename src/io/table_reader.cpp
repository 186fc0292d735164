#include "linkdyn/io/table_reader.hpp"

#include <charconv>
#include <cmath>
#include <sstream>
#include <string_view>
#include <vector>

#include "linkdyn/core/error.hpp"
#include "linkdyn/core/units.hpp"
#include "linkdyn/io/text_file.hpp"

namespace linkdyn::io {
namespace {
std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t' || s.front() == '\r')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r')) s.remove_suffix(1);
  return s;
}
std::vector<std::string_view> split(std::string_view line) {
  std::vector<std::string_view> cells;
  size_t start = 0;
  for (size_t k = 0; k <= line.size(); ++k)
    if (k == line.size() || line[k] == ',') {
      cells.push_back(trim(line.substr(start, k - start)));
      start = k + 1;
    }
  return cells;
}
}  // namespace

CsvTable read_csv_table(const std::string& path, const CsvHeaderCheck& check_header) {
  CsvTable result;
  std::istringstream in(read_text_file(path, "table", max_table_file_bytes));
  Table& table = result.table;
  std::string line;
  int line_no = 0;
  while (std::getline(in, line)) {
    ++line_no;
    const std::string_view text = trim(line);
    if (text.empty() || text.front() == '#') continue;
    const auto cells = split(text);
    if (table.columns.empty()) {
      for (const auto c : cells) {
        if (c.empty()) throw InputError({path, line_no}, "header", "a column has no name", "name every column");
        if (table.column(std::string(c)) >= 0)
          throw InputError({path, line_no}, "column '" + std::string(c) + "'", "the column is named twice",
                           "name every column once");
        table.add_column(std::string(c), "");
      }
      result.header_line = line_no;
      if (check_header) check_header(table.columns, line_no);
      continue;
    }
    if (cells.size() != table.width())
      throw InputError({path, line_no}, "row",
                       "expected " + std::to_string(table.width()) + " values, found " + std::to_string(cells.size()),
                       "give one value per column of the header");
    result.row_lines.push_back(line_no);
    for (size_t k = 0; k < cells.size(); ++k) {
      double v = 0.0;
      std::string_view cell = cells[k];
      if (cell.size() > 1 && cell.front() == '+') cell.remove_prefix(1);  // from_chars takes no '+'
      const auto [end, ec] = std::from_chars(cell.data(), cell.data() + cell.size(), v);
      if (ec != std::errc() || end != cell.data() + cell.size() || !std::isfinite(v))
        throw InputError({path, line_no}, "column '" + table.columns[k] + "'",
                         "'" + std::string(cells[k]) + "' is not a number", "write numbers in SI units");
      if (const std::string problem = magnitude_problem(v, cells[k]); !problem.empty())
        throw InputError({path, line_no}, "column '" + table.columns[k] + "'", problem, "check the value and its unit");
      table.values.push_back(v);
    }
  }
  if (table.columns.empty())
    throw InputError({path, line_no}, "table", "the file is empty", "give a header row and data rows");
  if (table.rows() == 0)
    throw InputError({path, line_no}, "table", "the table has no data row", "give at least one row of values");
  return result;
}

}  // namespace linkdyn::io
