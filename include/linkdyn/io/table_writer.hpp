#pragma once
// Writing result tables: CSV (header of column names) and JSON (arrays plus metadata); every
// output file written whole or not at all (write_file).
#include <functional>
#include <ostream>
#include <string>
#include <vector>

#include "linkdyn/core/table.hpp"

namespace linkdyn::io {

/// Writes a file whole or not at all: into a temporary file beside it, renamed over `path`
/// once complete, so that an interrupted or failed run never leaves a truncated file (and an
/// earlier file stays as it was). A path that is not a regular file or absent (a device such
/// as /dev/stdout) is written directly. A file that cannot be opened is an InputError (exit 2);
/// a write that fails or is short (a full disk) is an AnalysisError naming the file (exit 3).
void write_file(const std::string& path, const std::function<void(std::ostream&)>& write);

/// InputError when `output` is one of `inputs` (the same file by any path): a result never
/// overwrites what it was computed from. `option` names the output's option (--csv, ...).
void require_not_an_input(const std::string& output, const std::vector<std::string>& inputs, const std::string& option);

/// CSV with a header row; missing values (NaN) are empty cells, an infinite value is an
/// AnalysisError naming its row and column (nothing written). Numbers in full double precision
/// (the shortest text that reads back to the same double, at most 17 significant digits), or
/// with `digits` significant digits when digits > 0.
void write_csv(const std::string& path, const Table& table, int digits = 0);
void write_csv(std::ostream& out, const Table& table, int digits = 0);
/// JSON object: {"metadata": <metadata_json>, "columns": [...], "units": {...}, "data":
/// {column: [values]}}; missing values are null, an infinite value an AnalysisError as in
/// write_csv. `metadata_json` must be a JSON object text.
void write_json(const std::string& path, const Table& table, const std::string& metadata_json);

}  // namespace linkdyn::io
