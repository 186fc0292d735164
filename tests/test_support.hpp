#pragma once
// Shared helpers of the tests: example paths and a loader.
#include <Eigen/Core>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "linkdyn/io/model_file.hpp"
#include "linkdyn/io/result_tables.hpp"

namespace linkdyn::test {

/// The whole text of a file.
inline std::string read_text(const std::string& path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

inline std::string example(const std::string& name) { return std::string(LINKDYN_EXAMPLES_DIR) + "/" + name + ".yaml"; }

/// tests/data/cam-roller.yaml with its program from the CSV text `table`, written as lift.csv
/// into the scratch folder `folder` (under the system's temporary folder); `path` is where the
/// model would lie there (the table's path is relative to it).
inline std::string cam_roller_from_table(const std::string& table, const std::string& folder, std::string& path) {
  const std::filesystem::path dir = std::filesystem::temp_directory_path() / folder;
  std::filesystem::create_directories(dir);
  std::ofstream(dir / "lift.csv") << table;
  path = (dir / "m.yaml").string();
  std::string text = read_text(std::string(LINKDYN_TEST_DATA_DIR) + "/cam-roller.yaml");
  const size_t from = text.find("    program:"), to = text.find("drivers:");
  text.replace(from, to - from, "    program: {file: lift.csv}\n");
  return text;
}

/// The largest |a - b| over two results' arrays of the same shape (a NaN in either counts as
/// infinitely far).
inline double largest_difference(const Eigen::Ref<const Eigen::MatrixXd>& a,
                                 const Eigen::Ref<const Eigen::MatrixXd>& b) {
  if (a.rows() != b.rows() || a.cols() != b.cols()) return INFINITY;
  const Eigen::ArrayXXd d = (a - b).array().abs();
  return d.isNaN().any() ? INFINITY : (d.size() > 0 ? d.maxCoeff() : 0.0);
}

/// Every shipped planar example with the structural sequence it must decompose into (a test in
/// test_structure.cpp checks that none is missing).
struct ExampleCase {
  std::string name;
  std::string structure;
};
inline const std::vector<ExampleCase>& example_cases() {
  static const std::vector<ExampleCase> cases{
      {"seed001-fourbar", "R_I(0,1) -> RRR_II(2,3)"},
      {"offset-slider-crank", "R_I(0,1) -> RRP_II(2,3)"},
      {"fast-slider-crank-elastic", "R_I(0,1) -> RRP_II(2,3)"},
      {"inverted-slider-crank", "R_I(0,1) -> RPR_II(2,3)"},
      {"scotch-yoke", "R_I(0,1) -> RPP_II(3,2)"},
      {"wedge-cam", "P_I(0,1) -> PRP_II(2,3)"},
      {"watt-sixbar", "R_I(0,1) -> RRR_II(2,3) -> RRR_II(4,5)"},
      {"class3-triad", "R_I(0,1) -> RRRRRR_III(2,3,4,5)"},
      {"pump-2dof", "R_I(0,1) -> P_I(0,4) -> RRR_II(2,3)"},
      {"fourbar-flywheel", "R_I(0,1) -> G_I(1,4) -> RRR_II(2,3)"},
      {"fourbar-table", "R_I(0,1) -> RRR_II(2,3)"},
      {"non-grashof-fourbar", "R_I(0,1) -> RRR_II(2,3)"},
      {"seed003-bicycle", "R_I(0,1) -> G_I(1,6) -> RRR_II(2,3) -> RRR_II(4,5)"},
      {"seed003-dwell", "R_I(0,1) -> RRR_II(2,3) -> RPR_II(4,5)"},
      {"seed001-fourbar-motor", "R_I(0,1) -> RRR_II(2,3)"},
      {"seed004-pump", "R_I(0,1) -> P_I(0,4) -> RRR_II(2,3)"},
      {"toggle-press", "R_I(0,1) -> RRR_II(2,3) -> RRP_II(4,5)"},
      {"parallelogram-chain", "R_I(0,1) -> RRR_II(2,5) -> RRR_II(3,6) -> RRR_II(4,7)"},
      {"excavator", "RR[P]R_II(1,4,5) -> RR[P]R_II(2,6,7) -> RR[P]R_II(3,8,9)"},
      {"scissor-lift-cylinder", "RR[P]R_II(1,6,7) -> RRP_II(2,3) -> RPR_II(4,5)"},
      {"cam-valve-train", "R_I(0,1) -> RH_I(1,2) -> RRP_II(3,4)"},
      {"cam-pusher", "R_I(0,1) -> PH_I(1,2)"},
  };
  return cases;
}

}  // namespace linkdyn::test
