#pragma once
// Writing result tables: CSV (header of column names) and JSON (arrays plus metadata).
#include <ostream>
#include <string>

#include "linkdyn/core/table.hpp"

namespace linkdyn::io {

/// CSV with a header row; missing values are empty cells. Numbers in full double precision
/// (the shortest text that reads back to the same double, at most 17 significant digits), or
/// with `digits` significant digits when digits > 0.
void write_csv(const std::string& path, const Table& table, int digits = 0);
void write_csv(std::ostream& out, const Table& table, int digits = 0);
/// JSON object: {"metadata": <metadata_json>, "columns": [...], "units": {...}, "data":
/// {column: [values]}}; missing values are null. `metadata_json` must be a JSON object text.
void write_json(const std::string& path, const Table& table, const std::string& metadata_json);

}  // namespace linkdyn::io
