#pragma once
// Shared by the fuzz targets: the input as a file (the readers take paths), the rule of every
// target (bad input is an InputError or an AnalysisError; anything else, a crash, a sanitizer's
// report or a hang is a finding), and for the analysis targets the mutated model, read as the
// command line reads it, and the values a result must hold.
#include <unistd.h>

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <filesystem>
#include <fstream>
#include <new>
#include <string>

#include "linkdyn/core/error.hpp"
#include "linkdyn/core/table.hpp"
#include "linkdyn/io/model_file.hpp"
#include "linkdyn/planar/mechanism.hpp"

namespace linkdyn::fuzz {

/// This process's folder for its inputs, with copies of the examples' tables (the examples'
/// `file:` entries name them beside the model); removed at exit.
inline const std::filesystem::path& input_folder() {
  namespace fs = std::filesystem;
  struct Folder {
    fs::path path = fs::temp_directory_path() / ("linkdyn-fuzz-" + std::to_string(getpid()));
    Folder() {
      fs::create_directories(path);
      for (const fs::directory_entry& e : fs::directory_iterator(LINKDYN_EXAMPLES_DIR))
        if (e.path().extension() == ".csv")
          fs::copy_file(e.path(), path / e.path().filename(), fs::copy_options::overwrite_existing);
    }
    ~Folder() {
      std::error_code ec;
      fs::remove_all(path, ec);
    }
  };
  static const Folder folder;
  return folder.path;
}

/// The input written to a file of this process with the given extension; its path.
inline std::string as_file(const std::uint8_t* data, std::size_t size, const char* extension) {
  const std::string path = (input_folder() / (std::string("input") + extension)).string();
  std::ofstream(path, std::ios::binary).write(reinterpret_cast<const char*>(data), static_cast<std::streamsize>(size));
  return path;
}

/// Runs `body`; errors linkdyn reports to users pass, anything else aborts (a finding).
template <class Body>
int expect_clear_errors(Body&& body) {
  try {
    body();
  } catch (const InputError&) {
  } catch (const AnalysisError&) {
  } catch (const std::bad_alloc&) {  // the CLI's exit 3: a request too large for memory
  } catch (const std::exception& e) {
    std::fprintf(stderr, "finding: an exception that is not a clear error: %s\n", e.what());
    std::abort();
  }
  return 0;
}

/// A finding that is no crash: said on stderr, then abort (libFuzzer keeps the input).
[[noreturn]] inline void finding(const std::string& what) {
  std::fprintf(stderr, "finding: %s\n", what.c_str());
  std::abort();
}

/// A value an analysis gives as valid must be finite (the files would write it empty, as missing).
inline void require_finite(double value, const std::string& what) {
  if (!std::isfinite(value)) finding(what + " is " + std::to_string(value) + " in a result given as valid");
}

/// Every cell of `table` in the columns [first, last) of the rows `valid(row)` accepts is finite.
template <class Valid>
void require_finite(const Table& table, size_t first, size_t last, Valid&& valid) {
  for (size_t r = 0; r < table.rows(); ++r)
    if (valid(r))
      for (size_t c = first; c < last && c < table.width(); ++c)
        require_finite(table.at(r, c), "row " + std::to_string(r) + ", column '" + table.columns[c] + "'");
}
inline void require_finite(const Table& table, size_t first, size_t last) {
  require_finite(table, first, last, [](size_t) { return true; });
}

/// The analysis targets' model: the input as a model file (beside the examples' tables), read and
/// compiled as the command line does.
struct ModelInput {
  io::Model model;
  planar::Mechanism m;
  explicit ModelInput(const std::string& path) : model(io::read_model(path)), m(planar::compile(model.mechanism)) {}
  ModelInput(const std::uint8_t* data, std::size_t size) : ModelInput(as_file(data, size, ".yaml")) {}
};

/// The positions of an analysis target's sweeps: few, so that an input runs in milliseconds.
constexpr int grid_steps = 8;

}  // namespace linkdyn::fuzz
