#pragma once
// Eigen-analysis of a beam on a moving frame at one instant [004 Sect. 5, Fig. 6]: the
// undamped symmetric problem and the gyroscopic quadratic problem of [004 Eq. 20].
#include <Eigen/Dense>

#include "linkdyn/flex/beam.hpp"

namespace linkdyn::flex {

/// Buffers and results of the eigen-analyses, sized once for a beam (no allocation per call).
struct ModalWorkspace {
  /// `gyroscopic_basis` > 0: the gyroscopic problem is projected on that many lowest modes of the
  /// beam at rest (modal truncation: a 2k companion instead of 2n; 0 or >= n: the full problem).
  explicit ModalWorkspace(const BeamModel& beam, int gyroscopic_basis = 0);
  int basis = 0;                                ///< the modes projected on (0: none)
  double lambda1_at_rest = 0.0;                 ///< the first eigenvalue at rest (with a basis)
  Eigen::MatrixXd modes, reduced_k, reduced_c;  ///< n x basis mass-normalised modes; basis x basis
  Eigen::MatrixXd projected;                    ///< n x basis: an operator times the modes
  BeamOperators operators;
  /// L^-1 (k_total + k_total^T) / 2 L^-T with m = L L^T: k(epsilon) is skew and drops out
  Eigen::MatrixXd symmetric;
  Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> symmetric_solver;
  /// Undamped problem: eigenvalues lambda = omega^2 (1/s^2), ascending.
  Eigen::VectorXd lambda;
  Eigen::MatrixXd companion;  ///< [[0, I], [-m^-1 k_total, -m^-1 c]]
  Eigen::EigenSolver<Eigen::MatrixXd> companion_solver;
  /// Gyroscopic problem: eigenvalues s = sigma + i omega with omega >= 0, by increasing omega
  /// (one of each conjugate pair; real pairs, i.e. divergence, count with omega = 0).
  Eigen::VectorXcd gyroscopic;
  Eigen::MatrixXd scratch;
};

/// The undamped symmetric problem (k + k(epsilon) + k(omega) + geometric) x = omega^2 m x,
/// with the skew k(epsilon) dropping out of the symmetric part. Uses ws.operators as evaluated.
void solve_undamped(const BeamModel& beam, ModalWorkspace& ws);
/// The quadratic problem (s^2 m + s c(omega) + k_total) x = 0 by its first-order companion form
/// (on the workspace's basis of undamped modes when it has one: x = Phi y, Phi^T m Phi = I).
void solve_gyroscopic(const BeamModel& beam, ModalWorkspace& ws);
/// Both, for a frame motion.
void analyze_modes(const BeamModel& beam, const FrameMotion& motion, ModalWorkspace& ws, bool gyroscopic = true);

/// Frequency in Hz of an undamped eigenvalue; negative for lambda < 0 (the link buckles: the
/// sign carries the instability, never a NaN).
[[nodiscard]] double frequency_hz(double lambda);

}  // namespace linkdyn::flex
