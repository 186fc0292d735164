#include "linkdyn/io/table_writer.hpp"

#include <fmt/format.h>

#include <unistd.h>

#include <cmath>
#include <nlohmann/json.hpp>

#include "linkdyn/core/error.hpp"

namespace linkdyn::io {

PartialFile::PartialFile(std::string path) : path_(std::move(path)) {
  namespace fs = std::filesystem;
  std::error_code ec;
  const fs::file_status status = fs::status(path_, ec);
  replace_ = !fs::exists(status) || fs::is_regular_file(status);
  temporary_ = path_;
  if (replace_) temporary_ += fmt::format(".partial-{}", static_cast<long>(::getpid()));
  out_.open(temporary_, std::ios::binary | std::ios::trunc);
  if (!out_)
    throw InputError({path_, 0}, "output", "cannot write the file", "check that the folder exists and is writable");
  open_ = true;
}

PartialFile::~PartialFile() { discard(); }

void PartialFile::discard() {
  if (!open_) return;
  open_ = false;
  out_.close();
  std::error_code ec;
  if (replace_) std::filesystem::remove(temporary_, ec);
}

void PartialFile::commit() {
  out_.flush();
  out_.close();
  if (!out_) {
    discard();
    throw AnalysisError(fmt::format("{}: the write failed (disk full?); nothing was written", path_));
  }
  open_ = false;
  if (!replace_) return;
  std::error_code ec;
  std::filesystem::rename(temporary_, path_, ec);
  if (ec) {
    std::filesystem::remove(temporary_, ec);
    throw AnalysisError(fmt::format("{}: the finished file could not replace it ({})", path_, ec.message()));
  }
}

void write_file(const std::string& path, const std::function<void(std::ostream&)>& write) {
  PartialFile file(path);
  write(file.stream());
  file.commit();
}

bool same_file(const std::string& a, const std::string& b) {
  namespace fs = std::filesystem;
  if (a.empty() || b.empty()) return false;
  std::error_code ec, ec2;
  if (fs::equivalent(a, b, ec)) return true;  // both exist: the same file by any path
  // Absolute first: weakly_canonical leaves a relative path of no existing part relative ("o.csv")
  // but resolves "./o.csv".
  const fs::path ca = fs::weakly_canonical(fs::absolute(a, ec), ec),
                 cb = fs::weakly_canonical(fs::absolute(b, ec2), ec2);
  return !ec && !ec2 && ca == cb;
}

void require_not_an_input(const std::string& output, const std::vector<std::string>& inputs,
                          const std::string& option) {
  for (const std::string& input : inputs) {
    if (same_file(output, input))
      throw InputError({output, 0}, option, "is an input of this run (" + input + ")",
                       "write the results to another file");
  }
}

namespace {
/// A missing value (NaN) is written empty; an infinite one is an overflow that no file carries.
void require_finite_rows(const Table& table, size_t first_row) {
  for (size_t r = 0; r < table.rows(); ++r)
    for (size_t c = 0; c < table.width(); ++c)
      if (std::isinf(table.at(r, c)))
        throw AnalysisError(
            fmt::format("row {} (t = {:.9g}), column '{}' is infinite: the analysis overflowed; check the "
                        "model's magnitudes (nothing was written)",
                        first_row + r + 1, table.at(r, 0), table.columns[c]));
}

void append_number(std::string& text, double v, int digits) {
  if (v == 0.0)
    text += '0';  // no "-0"
  else if (digits > 0)
    fmt::format_to(std::back_inserter(text), "{:.{}g}", v, digits);
  else
    fmt::format_to(std::back_inserter(text), "{}", v);
}

void append_csv_row(std::string& line, const Table& table, size_t r, int digits) {
  for (size_t c = 0; c < table.width(); ++c) {
    if (c) line += ',';
    const double v = table.at(r, c);
    if (std::isfinite(v)) append_number(line, v, digits);
  }
  line += '\n';
}

void write_csv_header(std::ostream& out, const Table& table) {
  for (size_t c = 0; c < table.width(); ++c) out << (c ? "," : "") << table.columns[c];
  out << '\n';
}

void require_written(std::FILE* file, bool ok, const std::string& path) {
  if (!ok || std::ferror(file))
    throw AnalysisError(
        fmt::format("{}: the scratch file beside it could not be written or read (disk full?); "
                    "nothing was written",
                    path));
}
}  // namespace

TableStream::TableStream(const Table& columns, const std::string& csv_path, const std::string& json_path, int digits,
                         size_t chunk_values)
    : digits_(digits) {
  header_.columns = columns.columns;
  header_.units = columns.units;
  if (!csv_path.empty()) {
    csv_ = std::make_unique<PartialFile>(csv_path);
    write_csv_header(csv_->stream(), header_);
  }
  if (!json_path.empty()) {
    json_ = std::make_unique<PartialFile>(json_path);
    const std::string scratch = json_path + fmt::format(".scratch-{}", static_cast<long>(::getpid()));
    scratch_.reset(std::fopen(scratch.c_str(), "w+b"));
    if (!scratch_)
      throw InputError({json_path, 0}, "output", "cannot write a scratch file beside it",
                       "check that the folder is writable");
    std::remove(scratch.c_str());  // unlinked: it goes with the process
    pending_.columns = header_.columns;
    chunk_rows_ = std::max<size_t>(1, chunk_values / std::max<size_t>(1, header_.width()));
    pending_.values.reserve(chunk_rows_ * header_.width());
  }
  append(columns);
}

void TableStream::append(const Table& rows) {
  if (rows.rows() == 0) return;
  if (rows.width() != header_.width())
    throw std::logic_error(fmt::format("TableStream: {} columns appended to a table of {}", rows.width(), width()));
  require_finite_rows(rows, rows_);
  if (csv_) {
    line_.clear();
    for (size_t r = 0; r < rows.rows(); ++r) {
      append_csv_row(line_, rows, r, digits_);
      if (line_.size() > (size_t{1} << 16)) csv_->stream() << line_, line_.clear();
    }
    csv_->stream() << line_;
  }
  if (json_) {
    const size_t w = width();
    for (size_t r = 0; r < rows.rows(); ++r) {
      pending_.values.insert(pending_.values.end(), rows.values.begin() + static_cast<long>(r * w),
                             rows.values.begin() + static_cast<long>((r + 1) * w));
      if (pending_.rows() == chunk_rows_) spill_pending();
    }
  }
  rows_ += rows.rows();
}

void TableStream::spill_pending() {
  const size_t n = pending_.rows(), w = width();
  if (n == 0) return;
  const long offset = std::ftell(scratch_.get());
  std::vector<double> column(n);
  for (size_t c = 0; c < w; ++c) {
    for (size_t r = 0; r < n; ++r) column[r] = pending_.at(r, c);
    require_written(scratch_.get(), std::fwrite(column.data(), sizeof(double), n, scratch_.get()) == n, json_->path());
  }
  chunks_.emplace_back(offset, n);
  pending_.values.clear();
}

void TableStream::finish(const std::string& metadata_json) {
  if (csv_) csv_->commit();
  if (!json_) return;
  spill_pending();
  std::ostream& out = json_->stream();
  out << "{\n\"metadata\": " << nlohmann::ordered_json::parse(metadata_json).dump(1) << ",\n\"columns\": [";
  for (size_t c = 0; c < width(); ++c) out << (c ? ", " : "") << nlohmann::json(header_.columns[c]).dump();
  out << "],\n\"units\": {";
  for (size_t c = 0; c < width(); ++c)
    out << (c ? ", " : "") << nlohmann::json(header_.columns[c]).dump() << ": "
        << nlohmann::json(header_.units[c]).dump();
  out << "},\n\"data\": {";
  std::vector<double> values(chunk_rows_);
  std::string text;
  for (size_t c = 0; c < width(); ++c) {
    text = (c ? ",\n " : "\n ") + nlohmann::json(header_.columns[c]).dump() + ": [";
    bool first = true;
    for (const auto& [offset, n] : chunks_) {
      const long at = offset + static_cast<long>(c * n * sizeof(double));
      require_written(scratch_.get(), std::fseek(scratch_.get(), at, SEEK_SET) == 0, json_->path());
      require_written(scratch_.get(), std::fread(values.data(), sizeof(double), n, scratch_.get()) == n, json_->path());
      for (size_t r = 0; r < n; ++r) {
        if (!first) text += ", ";
        first = false;
        if (std::isfinite(values[r]))
          append_number(text, values[r], 0);
        else
          text += "null";
      }
      out << text;
      text.clear();
    }
    out << text << ']';
  }
  out << "\n}\n}\n";
  json_->commit();
}

void write_csv(const std::string& path, const Table& table, int digits) {
  TableStream(table, path, "", digits).finish();
}

void write_csv(std::ostream& out, const Table& table, int digits, bool header) {
  require_finite_rows(table, 0);
  if (header) write_csv_header(out, table);
  std::string line;
  for (size_t r = 0; r < table.rows(); ++r) {
    line.clear();
    append_csv_row(line, table, r, digits);
    out << line;
  }
}

void write_json(const std::string& path, const Table& table, const std::string& metadata_json) {
  TableStream(table, "", path).finish(metadata_json);
}

}  // namespace linkdyn::io
