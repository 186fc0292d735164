#pragma once
// Shared set-up of the spatial tests: the example robots and random states.
#include <Eigen/Core>
#include <gtest/gtest.h>
#include <algorithm>
#include <random>
#include <string>
#include <vector>

#include "linkdyn/io/chain_file.hpp"
#include "linkdyn/spatial/chain.hpp"
#include "linkdyn/spatial/dynamics.hpp"

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

/// max |a - b| relative to max(1, max |b|).
inline double rel_diff(const Eigen::MatrixXd& a, const Eigen::MatrixXd& b) {
  return (a - b).cwiseAbs().maxCoeff() / std::max(1.0, b.cwiseAbs().maxCoeff());
}
/// Gravity and the load, no joint friction.
inline spatial::Terms frictionless() {
  spatial::Terms t;
  t.friction = false;
  return t;
}

/// The Hessian of the kinetic energy in qd at q: T = 1/2 qd^T M qd is a quadratic form, so
/// T(e_i + e_j) - T(e_i) - T(e_j) = M_ij exactly (no truncation).
inline Eigen::MatrixXd kinetic_energy_hessian(const spatial::Chain& c, spatial::ChainData& d,
                                              const Eigen::VectorXd& q) {
  Eigen::MatrixXd H(c.dof, c.dof);
  for (int i = 0; i < c.dof; ++i)
    for (int j = 0; j < c.dof; ++j) {
      const Eigen::VectorXd ei = Eigen::VectorXd::Unit(c.dof, i), ej = Eigen::VectorXd::Unit(c.dof, j);
      H(i, j) = i == j ? 2 * spatial::kinetic_energy(c, d, q, ei)
                       : spatial::kinetic_energy(c, d, q, ei + ej) - spatial::kinetic_energy(c, d, q, ei) -
                             spatial::kinetic_energy(c, d, q, ej);
    }
  return H;
}

}  // namespace linkdyn::test
