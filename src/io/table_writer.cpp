#include "linkdyn/io/table_writer.hpp"

#include <fmt/format.h>

#include <cmath>
#include <fstream>
#include <nlohmann/json.hpp>

#include "linkdyn/core/error.hpp"

namespace linkdyn::io {
namespace {
std::ofstream open_output(const std::string& path) {
  std::ofstream out(path);
  if (!out)
    throw InputError({path, 0}, "output", "cannot write the file", "check that the folder exists and is writable");
  return out;
}
}  // namespace

void write_csv(const std::string& path, const Table& table, int digits) {
  std::ofstream out = open_output(path);
  write_csv(out, table, digits);
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
      column.push_back(std::isfinite(v) ? nlohmann::ordered_json(v) : nlohmann::ordered_json(nullptr));
    }
    data[table.columns[c]] = std::move(column);
  }
  doc["data"] = std::move(data);
  std::ofstream out = open_output(path);
  out << doc.dump(1) << '\n';
}

}  // namespace linkdyn::io
