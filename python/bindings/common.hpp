#pragma once
// Shared by the binding units: numpy views of tables, array checks with ValueError.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <string>

#include "linkdyn/core/table.hpp"

namespace linkdyn::python {

namespace py = pybind11;
using Array = py::array_t<double, py::array::c_style | py::array::forcecast>;

/// A table's values as a (rows, columns) float64 array that shares the table's memory (kept
/// alive by `owner`, the Python object holding the table).
py::array table_values(const Table& table, const py::object& owner);
/// Column `column` of a table as a 1-D array sharing its memory.
py::array table_column(const Table& table, size_t column, const py::object& owner);

/// Any float64 array-like as a C-contiguous array of `dims` dimensions whose last extent is
/// `width`, else ValueError naming the argument and the expected shape.
Array require_shape(const py::handle& value, const char* name, int width, bool allow_batch);

void bind_tables_and_errors(py::module_& m);
void bind_planar(py::module_& m);
void bind_robot(py::module_& m);

}  // namespace linkdyn::python
