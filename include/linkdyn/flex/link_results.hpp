#pragma once
// What the analyses of elastic links return (link.hpp): their modes and their responses along
// the drivers' motion, as arrays (io::eigen_cycle_table and io::response_table make the tables).
#include <Eigen/Core>
#include <vector>

namespace linkdyn::flex {

/// One link's eigen-analysis along the grid: per row its frame's omega (rad/s) and epsilon
/// (rad/s^2) and the axial force at mid-span (N); per row and mode k the eigenvalue lambda
/// (omega^2 of the undamped problem, 1/s^2), its frequency (Hz, negative when lambda < 0), and
/// of the gyroscopic problem the frequency (Hz) and real part sigma (1/s; empty without it).
struct LinkModes {
  Eigen::VectorXd omega, epsilon, axial_force_mid;
  int basis_positions = 0;  ///< positions whose gyroscopic problem was solved on modes at rest
  Eigen::MatrixXd lambda, frequency, gyroscopic_frequency, gyroscopic_sigma;  ///< rows x modes
};
/// The eigen-analysis of every elastic link along the grid [004 Fig. 6], one row per grid time.
struct EigenCycleResult {
  Eigen::VectorXd t;
  Eigen::MatrixXd q;             ///< per driver
  std::vector<LinkModes> links;  ///< per elastic link
  int modes = 0;
  bool gyroscopic = true;
};

/// The response of one link along the grid, one row per grid time: the deflection in the beam
/// frame (transverse w, axial u, m) at mid-span, w at the second end, the axial force at
/// mid-span (N), and w, u at every node 0..elements from the first end.
struct LinkResponse {
  Eigen::VectorXd t;
  Eigen::MatrixXd q;  ///< per driver
  Eigen::VectorXd mid_w, mid_u, end_w, axial_force_mid;
  Eigen::MatrixXd node_w, node_u;  ///< rows x nodes
  /// Internal forces (flex::internal_forces) at the stations s (nodes and element middles):
  /// rows x stations, N (tension +), V = dM/ds (N) and M (N m).
  Eigen::VectorXd station;
  Eigen::MatrixXd normal, shear, moment;
  double periodicity_error = 0.0;  ///< as in Response
};

}  // namespace linkdyn::flex
