#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "linkdyn/core/error.hpp"
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

TEST(TableWriter, AnInfiniteValueIsAnAnalysisErrorWithItsRowAndColumnAndNoFile) {
  Table t = sample();
  t.values[3] = -INFINITY;
  for (const char* name : {"/overflow.csv", "/overflow.json"}) {
    const std::string path = ::testing::TempDir() + name;
    std::filesystem::remove(path);
    try {
      if (std::string(name).ends_with(".csv"))
        io::write_csv(path, t);
      else
        io::write_json(path, t, "{}");
      FAIL() << "an infinite value was written to " << name;
    } catch (const AnalysisError& e) {
      EXPECT_NE(std::string(e.what()).find("row 2 (t = 0.1), column 'C.vx' is infinite"), std::string::npos)
          << e.what();
    }
    EXPECT_FALSE(std::filesystem::exists(path));
  }
}

TEST(WriteFile, AnInterruptedWriteLeavesTheEarlierFileAsItWasAndNoPartialFile) {
  const std::string dir = ::testing::TempDir() + "/write_file";
  std::filesystem::create_directories(dir);
  const std::string path = dir + "/results.csv";
  io::write_csv(path, sample());
  const std::string before = test::read_text(path);
  EXPECT_THROW(io::write_file(path,
                              [](std::ostream& out) {
                                out << "t,half a row";
                                throw AnalysisError("interrupted");
                              }),
               AnalysisError);
  EXPECT_EQ(test::read_text(path), before);
  size_t files = 0;
  for ([[maybe_unused]] const auto& entry : std::filesystem::directory_iterator(dir)) ++files;
  EXPECT_EQ(files, 1u) << "a partial file was left beside the result";
}

TEST(WriteFile, AFailedWriteIsAnAnalysisErrorNamingTheFile) {
  // /dev/full accepts the open and fails every write (a full disk).
  if (!std::filesystem::exists("/dev/full")) GTEST_SKIP() << "no /dev/full";
  try {
    io::write_csv("/dev/full", sample());
    ADD_FAILURE() << "the failed write went unnoticed";
  } catch (const AnalysisError& e) {
    EXPECT_NE(std::string(e.what()).find("/dev/full"), std::string::npos) << e.what();
  }
}

TEST(WriteFile, AnOutputThatIsAnInputByAnyPathIsRefused) {
  const std::string dir = ::testing::TempDir() + "/not_an_input";
  std::filesystem::create_directories(dir);
  const std::string model = dir + "/model.yaml";
  std::ofstream(model) << "name: x\n";
  EXPECT_THROW(io::require_not_an_input(dir + "/./model.yaml", {"other.csv", model}, "--csv"), InputError);
  std::filesystem::remove(dir + "/link.yaml");
  std::filesystem::create_symlink(model, dir + "/link.yaml");
  EXPECT_THROW(io::require_not_an_input(dir + "/link.yaml", {model}, "--csv"), InputError);
  EXPECT_NO_THROW(io::require_not_an_input(dir + "/results.csv", {model}, "--csv"));
  EXPECT_EQ(test::read_text(model), "name: x\n");
}

TEST(TableStream, RowsAppendedInPiecesThroughManyScratchChunksGiveTheFilesOfTheWholeTable) {
  Table whole;
  for (const char* name : {"t", "a", "b"}) whole.add_column(name, "1");
  for (int r = 0; r < 1000; ++r)
    whole.values.insert(whole.values.end(), {0.001 * r, std::sin(r), r % 13 == 0 ? Table::missing : 1.0 / (r + 1)});
  const std::string dir = ::testing::TempDir() + "/table_stream";
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  io::write_csv(dir + "/whole.csv", whole);
  io::write_json(dir + "/whole.json", whole, R"({"model": "m"})");
  Table header = whole;
  header.values.clear();
  io::TableStream stream(header, dir + "/streamed.csv", dir + "/streamed.json", 0, 30);  // 10 rows per chunk
  for (size_t first = 0; first < whole.rows(); first += 7) {
    Table piece = header;
    const size_t last = std::min(whole.rows(), first + 7);
    piece.values.assign(whole.values.begin() + static_cast<long>(3 * first),
                        whole.values.begin() + static_cast<long>(3 * last));
    stream.append(piece);
  }
  EXPECT_FALSE(std::filesystem::exists(dir + "/streamed.csv")) << "a file under its name before it is complete";
  stream.finish(R"({"model": "m"})");
  EXPECT_EQ(stream.rows(), 1000u);
  EXPECT_EQ(test::read_text(dir + "/streamed.csv"), test::read_text(dir + "/whole.csv"));
  EXPECT_EQ(nlohmann::json::parse(test::read_text(dir + "/streamed.json")),
            nlohmann::json::parse(test::read_text(dir + "/whole.json")));
  const auto doc = nlohmann::json::parse(test::read_text(dir + "/streamed.json"));
  EXPECT_EQ(doc["data"]["a"][999].get<double>(), std::sin(999));  // full precision
  EXPECT_TRUE(doc["data"]["b"][13].is_null());
}

TEST(TableStream, AStreamLeftUnfinishedLeavesNoFileBehind) {
  const std::string dir = ::testing::TempDir() + "/table_stream_unfinished";
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  {
    io::TableStream stream(sample(), dir + "/a.csv", dir + "/a.json", 0, 2);
    stream.append(sample());
  }  // an interrupted run: the stream is destroyed without finish()
  EXPECT_TRUE(std::filesystem::is_empty(dir));
}
