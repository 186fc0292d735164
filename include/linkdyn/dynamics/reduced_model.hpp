#pragma once
// The tabulated model of the reduced method [003]: every quantity of the one-DOF equation of
// motion as a function of the driver coordinate q, on a uniform grid, interpolated by
// piecewise polynomials of degree 7 whose error is estimated and kept below a tolerance:
//
//   m(q) qdd + 1/2 m'(q) qd^2 = F_fixed(q) + sum_p mag_p(t, x_p(q), x_p'(q) qd) g_p(q)
//                               + sum_a T_a c_a(q) + sum_e M_e c_e(q)          [003 Eqs. 2, 7-9]
//
// with g_p the generalized force of load part p's unit pattern, x_p its coordinate, c_a and
// c_e the velocity coefficients of the actuators and Coulomb elements (their speeds per unit
// qd). Where the machine has pair friction, the reactions of its bearings are tabulated too,
// per unit of every source (qdd, qd^2, the loads, the actuators, the Coulomb efforts): the
// reactions are linear in them, so friction is solved at each right-hand side from the
// tables alone.
//
// Interpolation: a curve whose derivative is known exactly (m, g_p, x_p, c_a, c_e: the
// derivatives come from the acceleration walk at qd = 1, qdd = 0) is a Hermite-Birkhoff
// polynomial through the values and slopes of four nodes (C1, error O(h^8)); a reaction
// coefficient is the Lagrange polynomial through eight nodes (error O(h^8)). The grid is
// doubled until the difference between the interpolant and the new nodes, which are the old
// intervals' midpoints, is below the tolerance (times 16: the error of the doubled grid is 256
// times smaller).
#include <Eigen/Dense>
#include <memory>
#include <vector>

#include "linkdyn/dynamics/machine.hpp"

namespace linkdyn::dynamics {

/// Curves tabulated on a uniform grid, evaluated by Horner's rule on per-interval coefficients.
class CurveBundle {
 public:
  /// Where q falls: the interval and the local coordinate u = (q - q_i) / h in [0, 1].
  struct Where {
    int interval = 0;
    double u = 0.0;
  };
  CurveBundle() = default;
  /// values (curves x nodes) and, for the first `with_slopes` curves, slopes (d/dq, the same
  /// layout). Periodic: the last node repeats the first (q0 + span).
  CurveBundle(double q0, double span, bool periodic, const Eigen::MatrixXd& values, const Eigen::MatrixXd& slopes,
              int with_slopes);
  /// Throws AnalysisError when q lies outside a non-periodic range, unless `extrapolate` (an
  /// integrator's trial stage: the end intervals' polynomials continued; the step control
  /// rejects what they give, and an accepted state outside the range stops the run).
  [[nodiscard]] Where locate(double q, bool extrapolate = false) const;
  [[nodiscard]] double value(const Where& w, int curve) const {
    const double* c = coefficients(w, curve);
    const double u = w.u;
    return c[0] + u * (c[1] + u * (c[2] + u * (c[3] + u * (c[4] + u * (c[5] + u * (c[6] + u * c[7]))))));
  }
  /// d/dq
  [[nodiscard]] double slope(const Where& w, int curve) const {
    const double* c = coefficients(w, curve);
    const double u = w.u;
    return (c[1] + u * (2 * c[2] + u * (3 * c[3] + u * (4 * c[4] + u * (5 * c[5] + u * (6 * c[6] + u * 7 * c[7])))))) /
           h_;
  }
  /// The values of `count` consecutive curves from `first` (one product with u's powers).
  void values(const Where& w, int first, int count, Eigen::Ref<Eigen::VectorXd> out) const {
    Eigen::Matrix<double, 8, 1> powers;
    powers(0) = 1.0;
    for (int k = 1; k < 8; ++k) powers(k) = powers(k - 1) * w.u;
    out.noalias() =
        Eigen::Map<const Eigen::Matrix<double, 8, Eigen::Dynamic>>(coefficients(w, first), 8, count).transpose() *
        powers;
  }
  [[nodiscard]] int curves() const { return curves_; }
  [[nodiscard]] int intervals() const { return intervals_; }
  [[nodiscard]] bool periodic() const { return periodic_; }
  [[nodiscard]] double q0() const { return q0_; }
  [[nodiscard]] double span() const { return span_; }

 private:
  [[nodiscard]] const double* coefficients(const Where& w, int curve) const {
    return coef_.data() + (static_cast<size_t>(w.interval) * curves_ + curve) * 8;
  }
  std::vector<double> coef_;
  int curves_ = 0, intervals_ = 0;
  bool periodic_ = false;
  double q0_ = 0.0, span_ = 0.0, h_ = 1.0;
};

/// The reduced method cannot tabulate the machine over the driver's range: it does not
/// assemble there, its parameters have no limit at a singular position, a periodic table does
/// not close, or the tables do not converge to the tolerance. Method::automatic then takes
/// Kane's method.
class TabulationError : public AnalysisError {
 public:
  using AnalysisError::AnalysisError;
};

struct ReducedModelOptions {
  double tolerance = 1e-11;  ///< relative interpolation error of every curve
  int intervals = 0;         ///< > 0: this many intervals, no refinement
  bool friction = true;      ///< tabulate the bearings' reactions
  int max_intervals = 1 << 16;
};

/// The reduced model of a one-DOF machine. Curve layout (index into `curves`):
/// 0 m; 1 F_fixed; then per load part x_p (if it has a coordinate of the motion) and g_p; per
/// actuator c_a; per conditional actuator its condition body's coefficient; per Coulomb element
/// c_e; then (values only) the bearing reactions.
struct ReducedModel {
  ReducedModel(const DynamicSystem& system, const ReducedModelOptions& options);

  CurveBundle curves;
  /// The load parts with a variable magnitude: (load, part), their curve g_p, and the curve of
  /// their coordinate (-1: time or the driver coordinate itself).
  struct Part {
    int load = 0, part = 0;
    int g = -1, x = -1;
    /// Periodic table: x_p's change over one turn (2 pi k for an angle that turns k times with
    /// the driver); the curve holds x_p - advance (q - q0) / span, which repeats.
    double advance = 0.0;
  };
  std::vector<Part> parts;
  std::vector<int> actuator_curve;  ///< per actuator: c_a
  std::vector<int> when_curve;      ///< per actuator: its condition body's velocity coefficient, or -1
  std::vector<int> element_curve;   ///< per Coulomb element: c_e
  /// Bearing reactions: per Coulomb element that is a bearing, its reaction components (2 for a
  /// revolute pair or pin member: Fx, Fy of the pin force; 1 or 2 for a prismatic pair: N, and
  /// M for a slider of finite length), each a row of coefficients per source.
  int sources = 0;  ///< qdd, qd^2, fixed, parts..., actuators..., Coulomb elements...
  int source_part0 = 3, source_actuator0 = 0, source_element0 = 0;
  std::vector<int> reaction_row0;  ///< per Coulomb element: first reaction curve, -1 if none
  std::vector<int> reaction_rows;  ///< per Coulomb element: number of reaction components
  int reaction_curve0 = 0;         ///< curve of (reaction row 0, source 0); rows x sources after it
  bool friction = false;
  ReducedModelOptions options;   ///< as asked
  double tolerance = 0.0;        ///< asked
  double estimated_error = 0.0;  ///< largest relative difference at the last refinement
  int evaluations = 0;           ///< positions solved to build it
};

}  // namespace linkdyn::dynamics
