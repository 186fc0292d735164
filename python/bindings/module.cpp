// The extension module linkdyn._linkdyn: errors as Python exceptions, tables as numpy views,
// then the planar and robot APIs (planar.cpp, robot.cpp). The package's Python layer
// (linkdyn/__init__.py) wraps tables into results with names, units and pandas.
#include <fmt/format.h>

#include "common.hpp"
#include "linkdyn/core/error.hpp"
#include "linkdyn/core/version.hpp"

namespace linkdyn::python {

py::array table_values(const Table& table, const py::object& owner) {
  const auto rows = static_cast<py::ssize_t>(table.rows()), width = static_cast<py::ssize_t>(table.width());
  const auto item = static_cast<py::ssize_t>(sizeof(double));
  py::array view(py::dtype::of<double>(), {rows, width}, {width * item, item}, table.values.data(), owner);
  py::detail::array_proxy(view.ptr())->flags &= ~py::detail::npy_api::NPY_ARRAY_WRITEABLE_;
  return view;
}

py::array table_column(const Table& table, size_t column, const py::object& owner) {
  const auto rows = static_cast<py::ssize_t>(table.rows()), width = static_cast<py::ssize_t>(table.width());
  const auto item = static_cast<py::ssize_t>(sizeof(double));
  py::array view(py::dtype::of<double>(), {rows}, {width * item}, table.values.data() + column, owner);
  py::detail::array_proxy(view.ptr())->flags &= ~py::detail::npy_api::NPY_ARRAY_WRITEABLE_;
  return view;
}

Array require_shape(const py::handle& value, const char* name, int width, bool allow_batch) {
  Array a;
  try {
    a = Array::ensure(value);
  } catch (const py::error_already_set&) {
    a = Array();
  }
  if (!a) throw py::value_error(fmt::format("{}: expected an array of floats", name));
  const bool single = a.ndim() == 1 && a.shape(0) == width;
  const bool batch = allow_batch && a.ndim() == 2 && a.shape(1) == width;
  if (!single && !batch) {
    std::string got = "(";
    for (py::ssize_t k = 0; k < a.ndim(); ++k) got += (k ? ", " : "") + std::to_string(a.shape(k));
    got += a.ndim() == 1 ? ",)" : ")";
    throw py::value_error(fmt::format("{}: expected shape ({},){}, got {}", name, width,
                                      allow_batch ? fmt::format(" or (N, {})", width) : "", got));
  }
  return a;
}

void bind_tables_and_errors(py::module_& m) {
  // linkdyn.Error, with InputError (bad input: file, line, entity, fix) and AnalysisError (an
  // analysis that cannot proceed).
  // Kept for the interpreter's lifetime (never destroyed after it finalizes).
  static py::object& error = *new py::object(py::reinterpret_steal<py::object>(
      PyErr_NewExceptionWithDoc("linkdyn.Error", "An error reported by linkdyn.", PyExc_RuntimeError, nullptr)));
  static py::object& input_error = *new py::object(py::reinterpret_steal<py::object>(PyErr_NewExceptionWithDoc(
      "linkdyn.InputError", "Bad input: the message names the file, line, entity and the fix (exit code 2 on the CLI).",
      error.ptr(), nullptr)));
  static py::object& analysis_error = *new py::object(py::reinterpret_steal<py::object>(PyErr_NewExceptionWithDoc(
      "linkdyn.AnalysisError",
      "An analysis that cannot proceed (does not assemble, a dead point, no convergence), with the driver value or "
      "time where it happens (exit code 3 on the CLI).",
      error.ptr(), nullptr)));
  m.attr("Error") = error;
  m.attr("InputError") = input_error;
  m.attr("AnalysisError") = analysis_error;
  py::register_exception_translator([](std::exception_ptr p) {
    try {
      if (p) std::rethrow_exception(p);
    } catch (const InputError& e) {
      py::object instance = input_error(e.what());
      instance.attr("file") = e.where().file;
      instance.attr("line") = e.where().line;
      instance.attr("entity") = e.entity();
      PyErr_SetObject(input_error.ptr(), instance.ptr());
    } catch (const AnalysisError& e) {
      PyErr_SetString(analysis_error.ptr(), e.what());
    }
  });

  py::class_<Table>(m, "Table", "A table of named columns with units (the CSV files' layout).")
      .def_property_readonly(
          "columns", [](const Table& t) { return t.columns; }, "The column names, as in the CSV header.")
      .def_property_readonly(
          "units", [](const Table& t) { return t.units; }, "The SI unit of each column.")
      .def_property_readonly(
          "values", [](const py::object& self) { return table_values(self.cast<const Table&>(), self); },
          "The values as a read-only (rows, columns) float64 array sharing the table's memory.")
      .def(
          "column",
          [](const py::object& self, const std::string& name) {
            const Table& t = self.cast<const Table&>();
            const int c = t.column(name);
            if (c < 0) throw py::key_error(fmt::format("no column '{}'", name));
            return table_column(t, static_cast<size_t>(c), self);
          },
          py::arg("name"), "One column as a read-only 1-D array sharing the table's memory (KeyError if absent).")
      .def_property_readonly("rows", &Table::rows)
      .def("__len__", &Table::rows);
}

}  // namespace linkdyn::python

PYBIND11_MODULE(_linkdyn, m) {
  m.doc() = "linkdyn: kinematics and dynamics of mechanisms (the compiled part of the linkdyn package).";
  m.attr("__version__") = linkdyn::version;
  linkdyn::python::bind_tables_and_errors(m);
  linkdyn::python::bind_planar(m);
  linkdyn::python::bind_robot(m);
}
