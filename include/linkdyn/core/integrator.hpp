#pragma once
// One interface to the Runge-Kutta schemes of Boost.Odeint, for integrations that stop at
// events and write rows at given times: steps under error control, and the state at any time
// within the last step (the dense output of Dormand-Prince 5(4); for Runge-Kutta-Fehlberg
// 7(8), which has none, an exact step from the step's start, so rows and events keep the
// scheme's order). Events are located on it by Boost.Math's TOMS 748 (locate_sign_change).
#include <functional>
#include <memory>
#include <utility>
#include <vector>

namespace linkdyn {

/// The Runge-Kutta scheme: Fehlberg 7(8) (the default of direct dynamics: high order, few
/// steps at tight tolerances) or Dormand-Prince 5(4) with its dense output.
enum class Integrator { rkf78, dopri5 };

class Stepper {
 public:
  using State = std::vector<double>;
  using System = std::function<void(const State& y, State& dydt, double t)>;
  virtual ~Stepper() = default;
  /// `max_step` > 0 bounds the steps (a switching function that changes sign twice within one
  /// step is not seen).
  [[nodiscard]] static std::unique_ptr<Stepper> make(Integrator scheme, double abs_tol, double rel_tol,
                                                     double max_step = 0.0);
  /// Starts (or restarts, after an event) at (t, y) with a first step dt.
  virtual void initialize(const State& y, double t, double dt) = 0;
  /// One accepted step; its interval [t_a, t_b]. Throws AnalysisError when the step size falls
  /// below the time's rounding (a stiff or discontinuous right-hand side).
  [[nodiscard]] virtual std::pair<double, double> step(const System& f) = 0;
  /// The state at t within the last step's interval.
  virtual void state_at(const System& f, double t, State& y) = 0;
  /// The state and time at the end of the last step; the step size proposed next.
  [[nodiscard]] virtual const State& state() const = 0;
  [[nodiscard]] virtual double time() const = 0;
  [[nodiscard]] virtual double step_size() const = 0;
};

/// The instant in [a, b] where `g` changes sign, on the far side of the change (g(a) and g(b)
/// of opposite signs; Boost.Math's TOMS 748 to the time's rounding).
[[nodiscard]] double locate_sign_change(double a, double b, const std::function<double(double)>& g);

}  // namespace linkdyn
