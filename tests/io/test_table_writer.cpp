#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "linkdyn/io/table_writer.hpp"
#include "test_support.hpp"

using namespace linkdyn;

namespace {
Table sample() {
  Table t;
  t.add_column("t", "s");
  t.add_column("C.vx", "m/s");
  t.values = {0.0, 1.5, 0.1, Table::missing};
  return t;
}
}  // namespace

TEST(TableWriter, CsvWritesMissingValuesAsEmptyCellsNeverNaN) {
  const std::string path = ::testing::TempDir() + "/table.csv";
  io::write_csv(path, sample());
  EXPECT_EQ(test::read_text(path), "t,C.vx\n0,1.5\n0.1,\n");
}

TEST(TableWriter, JsonCarriesUnitsMetadataAndNulls) {
  const std::string path = ::testing::TempDir() + "/table.json";
  io::write_json(path, sample(), R"({"model": "m"})");
  const auto doc = nlohmann::json::parse(test::read_text(path));
  EXPECT_EQ(doc["metadata"]["model"], "m");
  EXPECT_EQ(doc["units"]["C.vx"], "m/s");
  EXPECT_EQ(doc["data"]["C.vx"][0], 1.5);
  EXPECT_TRUE(doc["data"]["C.vx"][1].is_null());
}
