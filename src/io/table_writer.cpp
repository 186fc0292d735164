#include "linkdyn/io/table_writer.hpp"

#include <fmt/format.h>

#include <unistd.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>

#include "linkdyn/core/error.hpp"

namespace linkdyn::io {
void write_file(const std::string& path, const std::function<void(std::ostream&)>& write) {
  namespace fs = std::filesystem;
  std::error_code ec;
  const fs::file_status status = fs::status(path, ec);
  const bool replace = !fs::exists(status) || fs::is_regular_file(status);
  fs::path temporary = path;
  if (replace) temporary += fmt::format(".partial-{}", static_cast<long>(::getpid()));
  {
    std::ofstream out(temporary, std::ios::binary | std::ios::trunc);
    if (!out)
      throw InputError({path, 0}, "output", "cannot write the file", "check that the folder exists and is writable");
    try {
      write(out);
      out.flush();
    } catch (...) {
      out.close();
      if (replace) fs::remove(temporary, ec);
      throw;
    }
    out.close();
    if (!out) {
      if (replace) fs::remove(temporary, ec);
      throw AnalysisError(fmt::format("{}: the write failed (disk full?); nothing was written", path));
    }
  }
  if (!replace) return;
  fs::rename(temporary, path, ec);
  if (ec) {
    fs::remove(temporary, ec);
    throw AnalysisError(fmt::format("{}: the finished file could not replace it ({})", path, ec.message()));
  }
}

void require_not_an_input(const std::string& output, const std::vector<std::string>& inputs,
                          const std::string& option) {
  namespace fs = std::filesystem;
  for (const std::string& input : inputs) {
    std::error_code ec, ec2;
    const bool same = fs::equivalent(output, input, ec) ||  // both exist: the same file by any path
                      (fs::weakly_canonical(output, ec) == fs::weakly_canonical(input, ec2) && !ec && !ec2);
    if (!input.empty() && same)
      throw InputError({output, 0}, option, "is an input of this run (" + input + ")",
                       "write the results to another file");
  }
}

namespace {
/// A missing value (NaN) is written empty; an infinite one is an overflow that no file carries.
void require_not_infinite(const Table& table, size_t row, size_t column) {
  if (std::isinf(table.at(row, column)))
    throw AnalysisError(
        fmt::format("row {} (t = {:.9g}), column '{}' is infinite: the analysis overflowed; check the "
                    "model's magnitudes (nothing was written)",
                    row + 1, table.at(row, 0), table.columns[column]));
}
}  // namespace

void write_csv(const std::string& path, const Table& table, int digits) {
  write_file(path, [&](std::ostream& out) { write_csv(out, table, digits); });
}

void write_csv(std::ostream& out, const Table& table, int digits) {
  for (size_t c = 0; c < table.width(); ++c) out << (c ? "," : "") << table.columns[c];
  out << '\n';
  std::string line;
  for (size_t r = 0; r < table.rows(); ++r) {
    line.clear();
    for (size_t c = 0; c < table.width(); ++c) {
      if (c) line += ',';
      const double v = table.at(r, c);
      require_not_infinite(table, r, c);
      if (v == 0.0)
        line += '0';  // no "-0"
      else if (std::isfinite(v))
        line += digits > 0 ? fmt::format("{:.{}g}", v, digits) : fmt::format("{}", v);
    }
    out << line << '\n';
  }
}

void write_json(const std::string& path, const Table& table, const std::string& metadata_json) {
  nlohmann::ordered_json doc;
  doc["metadata"] = nlohmann::ordered_json::parse(metadata_json);
  doc["columns"] = table.columns;
  nlohmann::ordered_json units = nlohmann::ordered_json::object();
  for (size_t c = 0; c < table.width(); ++c) units[table.columns[c]] = table.units[c];
  doc["units"] = units;
  nlohmann::ordered_json data = nlohmann::ordered_json::object();
  for (size_t c = 0; c < table.width(); ++c) {
    nlohmann::ordered_json column = nlohmann::ordered_json::array();
    for (size_t r = 0; r < table.rows(); ++r) {
      const double v = table.at(r, c);
      require_not_infinite(table, r, c);
      column.push_back(std::isfinite(v) ? nlohmann::ordered_json(v) : nlohmann::ordered_json(nullptr));
    }
    data[table.columns[c]] = std::move(column);
  }
  doc["data"] = std::move(data);
  write_file(path, [&](std::ostream& out) { out << doc.dump(1) << '\n'; });
}

}  // namespace linkdyn::io
