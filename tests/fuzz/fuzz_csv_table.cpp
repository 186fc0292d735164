// Fuzz target: CSV tables (states files, motion-law and load tables).
#include "fuzz_support.hpp"
#include "linkdyn/io/table_reader.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  return linkdyn::fuzz::expect_clear_errors(
      [&] { (void)linkdyn::io::read_csv_table(linkdyn::fuzz::as_file(data, size, ".csv")); });
}
