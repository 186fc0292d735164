#pragma once
// Shared set-up of the spatial tests: the example robots and random states.
#include <Eigen/Core>
#include <gtest/gtest.h>
#include <random>
#include <string>
#include <vector>

#include "linkdyn/io/chain_file.hpp"
#include "linkdyn/spatial/chain.hpp"

namespace linkdyn::test {

inline spatial::Chain robot(const std::string& file) {
  return spatial::build_chain(io::read_chain_file(std::string(LINKDYN_EXAMPLES_DIR) + "/robots/" + file));
}

inline const std::vector<std::string>& robot_files() {
  static const std::vector<std::string> files{"planar-3r.yaml", "puma560.yaml", "iiwa14.urdf", "scara.yaml"};
  return files;
}

/// gtest parameter name of a robot file: "planar-3r.yaml" -> "planar_3r".
inline std::string robot_test_name(const ::testing::TestParamInfo<std::string>& info) {
  std::string n = info.param.substr(0, info.param.find('.'));
  for (char& c : n)
    if (c == '-') c = '_';
  return n;
}

/// Uniform random vector in [-scale, scale]^n, reproducible.
inline Eigen::VectorXd random_vector(int n, double scale, unsigned seed) {
  std::mt19937 gen(seed);
  std::uniform_real_distribution<double> u(-scale, scale);
  Eigen::VectorXd v(n);
  for (int i = 0; i < n; ++i) v(i) = u(gen);
  return v;
}

}  // namespace linkdyn::test
