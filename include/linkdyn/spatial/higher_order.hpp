#pragma once
// Time derivatives of the driving forces [002 Sect. 5, Eqs. 161-167]: dtau/dt and d2tau/dt2
// from q and its derivatives up to the fourth, by differentiating the Newton-Euler recursion.
#include <Eigen/Core>
#include <array>
#include <vector>

#include "linkdyn/spatial/dynamics.hpp"

namespace linkdyn::spatial {

/// Workspace of the differentiated recursion (world-frame quantities and their derivatives).
struct DerivativeData {
  explicit DerivativeData(const Chain& chain);
  static constexpr int orders = 4;  ///< derivatives 0..3
  /// At the base origin: per DOF its screw; per link its twist, momentum I v and joint wrench.
  std::vector<std::array<Vec6, orders>> screw, twist, momentum, force;
  std::array<Vec6, orders> load;
  Eigen::VectorXd tau, dtau, ddtau;
};

/// tau, dtau/dt, d2tau/dt2 at one instant. Column r of `q_derivatives` is q^(r), r = 0..4
/// (fewer columns: std::invalid_argument, a caller's error).
/// The recursion runs on spatial vectors at the base origin, where a link's momentum is
/// h = I v and the joint wrench is f = dh/dt - I g + ...: differentiating it needs
/// dI/dt = v x* I - I v x and d s/dt = v x s. Includes gravity, load and friction per `terms`;
/// the dry friction's derivatives exist where qd != 0 and the normal force is not zero.
void torque_derivatives(const Chain& chain, ChainData& data, DerivativeData& d, const Eigen::MatrixXd& q_derivatives,
                        Terms terms = {});
/// The same from q and the velocity's derivatives (columns v, v', v'', v''' of `v_derivatives`):
/// for models with free-flyers, whose q and v differ in size.
void torque_derivatives(const Chain& chain, ChainData& data, DerivativeData& d, VectorIn q, MatrixIn v_derivatives,
                        Terms terms = {});

}  // namespace linkdyn::spatial
