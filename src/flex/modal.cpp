// Eigen-analysis of a beam on a moving frame [004 Eq. 20, Sect. 5].
#include "linkdyn/flex/modal.hpp"

#include <algorithm>
#include <cmath>
#include <complex>

namespace linkdyn::flex {

ModalWorkspace::ModalWorkspace(const BeamModel& beam, int gyroscopic_basis)
    : basis(gyroscopic_basis > 0 && gyroscopic_basis < beam.size() ? gyroscopic_basis : 0),
      modes(beam.size(), basis),
      reduced_k(basis, basis),
      reduced_c(basis, basis),
      projected(beam.size(), basis),
      operators(make_operators(beam)),
      symmetric(beam.size(), beam.size()),
      symmetric_solver(beam.size()),
      lambda(beam.size()),
      companion(Eigen::MatrixXd::Zero(2 * (basis > 0 ? basis : beam.size()), 2 * (basis > 0 ? basis : beam.size()))),
      companion_solver(companion.rows()),
      gyroscopic(Eigen::VectorXcd::Constant(beam.size(), std::complex<double>(NAN, NAN))),
      scratch(beam.size(), beam.size()) {
  if (basis == 0) return;
  // The basis: the lowest modes of the beam at rest, x = L^-T y with L^-1 k L^-T y = lambda y
  // (mass-normalised), computed once (the eigenvectors' solver allocates). Fixed along the
  // cycle: good where the operators change little (the pump's lever: 4e-9), not where a fast
  // spin reshapes the modes (a rotating cantilever at gamma = 50: 10.0 for 7.34).
  Eigen::MatrixXd reduced = beam.stiffness;
  const auto lower = beam.mass_factor.matrixL();
  lower.solveInPlace(reduced);
  reduced.transposeInPlace();
  lower.solveInPlace(reduced);
  const Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> at_rest(reduced);
  modes = at_rest.eigenvectors().leftCols(basis);
  lambda1_at_rest = at_rest.eigenvalues()(0);
  beam.mass_factor.matrixU().solveInPlace(modes);
}

void solve_undamped(const BeamModel& beam, ModalWorkspace& ws) {
  // L^-1 k_sym L^-T y = lambda y with m = L L^T factored once in the model (no allocation).
  ws.symmetric = ws.operators.stiffness;
  ws.symmetric += ws.operators.stiffness.transpose();
  ws.symmetric *= 0.5;
  const auto lower = beam.mass_factor.matrixL();
  lower.solveInPlace(ws.symmetric);
  ws.symmetric.transposeInPlace();
  lower.solveInPlace(ws.symmetric);
  ws.symmetric_solver.compute(ws.symmetric, Eigen::EigenvaluesOnly);
  ws.lambda = ws.symmetric_solver.eigenvalues();
}

void solve_gyroscopic(const BeamModel& beam, ModalWorkspace& ws) {
  const int n = ws.basis > 0 ? ws.basis : beam.size();
  // State (x, x' / w_s): the companion [[0, w_s I], [-m^-1 k / w_s, -m^-1 c]] is similar to
  // [[0, I], [-m^-1 k, -m^-1 c]] (same eigenvalues) and far better balanced, w_s^2 being the
  // largest diagonal term of m^-1 k (the axial dofs are much stiffer than the bending ones).
  // On a basis of mass-normalised modes m is I: Phi^T k Phi and Phi^T c Phi.
  if (ws.basis > 0) {
    ws.projected.noalias() = ws.operators.stiffness * ws.modes;
    ws.reduced_k.noalias() = ws.modes.transpose() * ws.projected;
    ws.projected.noalias() = ws.operators.damping * ws.modes;
    ws.reduced_c.noalias() = ws.modes.transpose() * ws.projected;
  } else {
    ws.scratch = ws.operators.stiffness;
    beam.mass_factor.solveInPlace(ws.scratch);
  }
  const Eigen::MatrixXd& k = ws.basis > 0 ? ws.reduced_k : ws.scratch;
  const double scale = std::sqrt(std::max(k.diagonal().cwiseAbs().maxCoeff(), 1e-300));
  ws.companion.topRightCorner(n, n).diagonal().setConstant(scale);
  ws.companion.bottomLeftCorner(n, n) = -k / scale;
  if (ws.basis > 0) {
    ws.companion.bottomRightCorner(n, n) = -ws.reduced_c;
  } else {
    ws.scratch = -ws.operators.damping;
    beam.mass_factor.solveInPlace(ws.scratch);
    ws.companion.bottomRightCorner(n, n) = ws.scratch;
  }
  ws.companion_solver.compute(ws.companion, false);
  const auto& s = ws.companion_solver.eigenvalues();
  // Keep the eigenvalue with positive imaginary part of each complex pair (sigma + i omega);
  int kept = 0;
  for (int k = 0; k < 2 * n && kept < n; ++k)
    if (s(k).imag() > 0.0) ws.gyroscopic(kept++) = s(k);
  // then, for the rest, the real ones (omega = 0): non-negative real parts first (a pair
  // +-sigma: a mode the frame's motion makes unstable), sorted by (omega, -sigma) below; the
  // negative ones (a mode damped beyond critical, such as the axial ones under stiffness-
  // proportional damping) go last.
  for (int k = 0; k < 2 * n && kept < n; ++k)
    if (s(k).imag() == 0.0 && s(k).real() >= 0.0) ws.gyroscopic(kept++) = s(k);
  for (int k = 0; k < 2 * n && kept < n; ++k)
    if (s(k).imag() == 0.0 && s(k).real() < 0.0) ws.gyroscopic(kept++) = s(k);
  std::sort(ws.gyroscopic.data(), ws.gyroscopic.data() + kept, [](const auto& a, const auto& b) {
    const bool a_overdamped = a.imag() == 0.0 && a.real() < 0.0, b_overdamped = b.imag() == 0.0 && b.real() < 0.0;
    if (a_overdamped != b_overdamped) return b_overdamped;
    return a.imag() != b.imag() ? a.imag() < b.imag() : a.real() > b.real();
  });
}

void analyze_modes(const BeamModel& beam, const FrameMotion& motion, ModalWorkspace& ws, bool gyroscopic) {
  evaluate_operators(beam, motion, ws.operators);
  solve_undamped(beam, ws);
  if (gyroscopic) solve_gyroscopic(beam, ws);
}

double frequency_hz(double lambda) { return std::copysign(std::sqrt(std::abs(lambda)), lambda) / (2.0 * M_PI); }

}  // namespace linkdyn::flex
