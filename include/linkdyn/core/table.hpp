#pragma once
// A table of results: named columns with units, rows of numbers. A missing value (a velocity
// at a dead point) is stored as NaN here and written as an empty cell / null, never as NaN.
#include <cmath>
#include <limits>
#include <string>
#include <vector>

namespace linkdyn {

struct Table {
  std::vector<std::string> columns;
  std::vector<std::string> units;
  std::vector<double> values;  ///< row-major

  static constexpr double missing = std::numeric_limits<double>::quiet_NaN();
  void add_column(std::string name, std::string unit) {
    columns.push_back(std::move(name));
    units.push_back(std::move(unit));
  }
  [[nodiscard]] size_t width() const { return columns.size(); }
  [[nodiscard]] size_t rows() const { return width() == 0 ? 0 : values.size() / width(); }
  [[nodiscard]] double at(size_t row, size_t col) const { return values[row * width() + col]; }
  /// Index of a column, or -1.
  [[nodiscard]] int column(const std::string& name) const {
    for (size_t k = 0; k < columns.size(); ++k)
      if (columns[k] == name) return static_cast<int>(k);
    return -1;
  }
};

}  // namespace linkdyn
