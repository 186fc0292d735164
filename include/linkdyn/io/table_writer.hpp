#pragma once
// Writing result tables: CSV (header of column names) and JSON (arrays plus metadata), streamed
// row by row as an analysis computes them (TableStream: memory independent of the number of
// rows); every output file written whole or not at all (PartialFile).
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <functional>
#include <memory>
#include <ostream>
#include <string>
#include <vector>

#include "linkdyn/core/table.hpp"

namespace linkdyn::io {

/// An output file written under a temporary name beside `path` and renamed over it by commit(),
/// so that an interrupted or failed run never leaves a truncated file (and an earlier file stays
/// as it was); destroyed without commit(), the temporary file is removed. A path that is not a
/// regular file or absent (a device such as /dev/stdout) is written directly. A file that cannot
/// be opened is an InputError (exit 2); a write that fails or is short (a full disk) is an
/// AnalysisError naming the file (exit 3).
class PartialFile {
 public:
  explicit PartialFile(std::string path);
  ~PartialFile();
  PartialFile(const PartialFile&) = delete;
  PartialFile& operator=(const PartialFile&) = delete;
  [[nodiscard]] std::ostream& stream() { return out_; }
  [[nodiscard]] const std::string& path() const { return path_; }
  void commit();

 private:
  void discard();
  std::string path_;
  std::filesystem::path temporary_;
  bool replace_ = false, open_ = false;
  std::ofstream out_;
};

/// Writes a file whole or not at all (a PartialFile committed after `write`).
void write_file(const std::string& path, const std::function<void(std::ostream&)>& write);

/// Whether two paths name one file: an existing file by any path, or a new one spelled two ways
/// (o.csv and ./o.csv).
[[nodiscard]] bool same_file(const std::string& a, const std::string& b);

/// InputError when `output` is one of `inputs` (the same file by any path): a result never
/// overwrites what it was computed from. `option` names the output's option (--csv, ...).
void require_not_an_input(const std::string& output, const std::vector<std::string>& inputs, const std::string& option);

/// A table written as its rows come: CSV lines go to the file at once; the JSON's columns are
/// kept in a scratch file beside it (chunks of rows stored column by column) and assembled by
/// finish(), when the metadata (summaries of the whole run) is known. Memory: one chunk of rows.
/// Missing values (NaN) are empty cells / null; an infinite value is an AnalysisError naming its
/// row, t (the first column) and column, and nothing is written. Numbers in full double
/// precision (the shortest text that reads back to the same double), or with `digits`
/// significant digits in the CSV when digits > 0. Until finish() the files exist only under
/// temporary names (PartialFile).
class TableStream {
 public:
  /// `columns` gives the names and units (its rows, if any, are appended); an empty path writes
  /// no such file. The JSON's values go to the scratch file in chunks of about `chunk_values`.
  TableStream(const Table& columns, const std::string& csv_path, const std::string& json_path, int digits = 0,
              size_t chunk_values = size_t{1} << 20);
  TableStream(const TableStream&) = delete;
  TableStream& operator=(const TableStream&) = delete;
  /// Appends the rows of `rows` (the same columns as the constructor's table).
  void append(const Table& rows);
  /// Completes the files (`metadata_json`, a JSON object text, heads the JSON) and renames them
  /// into place.
  void finish(const std::string& metadata_json = "{}");
  [[nodiscard]] size_t rows() const { return rows_; }
  [[nodiscard]] size_t width() const { return header_.width(); }

 private:
  void spill_pending();
  Table header_;
  int digits_ = 0;
  size_t rows_ = 0;
  std::unique_ptr<PartialFile> csv_, json_;
  std::string line_;
  // JSON: rows waiting to be stored, then the scratch file's chunks (offset, rows).
  Table pending_;
  size_t chunk_rows_ = 0;
  std::unique_ptr<std::FILE, int (*)(std::FILE*)> scratch_{nullptr, &std::fclose};
  std::vector<std::pair<long, size_t>> chunks_;
};

/// CSV with a header row (a TableStream of the whole table).
void write_csv(const std::string& path, const Table& table, int digits = 0);
/// The same CSV text on a stream (standard output): the header (unless `header` is false: rows
/// that continue a table), then the rows.
void write_csv(std::ostream& out, const Table& table, int digits = 0, bool header = true);
/// JSON object: {"metadata": <metadata_json>, "columns": [...], "units": {...}, "data":
/// {column: [values]}} (a TableStream of the whole table).
void write_json(const std::string& path, const Table& table, const std::string& metadata_json);

}  // namespace linkdyn::io
