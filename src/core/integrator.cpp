// Boost.Odeint's schemes behind one stepping interface, and event location by TOMS 748.
#include "linkdyn/core/integrator.hpp"

#include <fmt/format.h>

#include "linkdyn/core/error.hpp"

#include <boost/math/tools/toms748_solve.hpp>
#include <boost/numeric/odeint.hpp>
#include <cmath>
#include <functional>

namespace linkdyn {
namespace {

namespace odeint = boost::numeric::odeint;
using State = Stepper::State;

/// Dormand-Prince 5(4) with its dense output.
class DenseDopri5 final : public Stepper {
 public:
  DenseDopri5(double abs_tol, double rel_tol, double max_step)
      : stepper_(odeint::make_dense_output(abs_tol, rel_tol, max_step, odeint::runge_kutta_dopri5<State>())) {}
  void initialize(const State& y, double t, double dt) override { stepper_.initialize(y, t, dt); }
  // The system by reference: odeint takes it by value, and a copied std::function allocates.
  std::pair<double, double> step(const System& f) override {
    const auto interval = stepper_.do_step(std::cref(f));
    check(interval.first, interval.second);
    return interval;
  }
  void state_at(const System&, double t, State& y) override { stepper_.calc_state(t, y); }
  [[nodiscard]] const State& state() const override { return stepper_.current_state(); }
  [[nodiscard]] double time() const override { return stepper_.current_time(); }
  [[nodiscard]] double step_size() const override { return stepper_.current_time_step(); }

 private:
  static void check(double a, double b) {
    if (!(b > a)) throw AnalysisError(fmt::format("the integrator's step vanished at t = {:.12g} s", a));
  }
  odeint::dense_output_runge_kutta<odeint::controlled_runge_kutta<odeint::runge_kutta_dopri5<State>>> stepper_;
};

/// Runge-Kutta-Fehlberg 7(8) under step control; the state inside a step by an exact step from
/// its start (13 evaluations, the scheme's own order).
class ExactRkf78 final : public Stepper {
 public:
  ExactRkf78(double abs_tol, double rel_tol, double max_step)
      : controlled_(odeint::make_controlled(abs_tol, rel_tol, max_step, odeint::runge_kutta_fehlberg78<State>())) {}
  void initialize(const State& y, double t, double dt) override {
    y_ = y;
    start_ = y;
    trial_ = y;
    t_ = t_start_ = t;
    dt_ = dt;
  }
  std::pair<double, double> step(const System& f) override {
    std::copy(y_.begin(), y_.end(), start_.begin());
    t_start_ = t_;
    for (int attempt = 0; attempt < 500; ++attempt) {
      // try_step keeps y_ and t_ on failure and shrinks dt_; on success it advances them and
      // proposes the next dt_.
      if (controlled_.try_step(std::cref(f), y_, t_, dt_) == odeint::success) return {t_start_, t_};
      if (!(t_ + dt_ > t_)) break;
    }
    throw AnalysisError(fmt::format(
        "the integrator's step vanished at t = {:.12g} s (a stiff or discontinuous right-hand side)", t_start_));
  }
  void state_at(const System& f, double t, State& y) override {
    if (t == t_) {
      std::copy(y_.begin(), y_.end(), y.begin());
      return;
    }
    if (t == t_start_) {
      std::copy(start_.begin(), start_.end(), y.begin());
      return;
    }
    controlled_.stepper().do_step(std::cref(f), start_, t_start_, y, t - t_start_);
  }
  [[nodiscard]] const State& state() const override { return y_; }
  [[nodiscard]] double time() const override { return t_; }
  [[nodiscard]] double step_size() const override { return dt_; }

 private:
  odeint::controlled_runge_kutta<odeint::runge_kutta_fehlberg78<State>> controlled_;
  State y_, start_, trial_;
  double t_ = 0.0, t_start_ = 0.0, dt_ = 1e-3;
};

}  // namespace

std::unique_ptr<Stepper> Stepper::make(Integrator scheme, double abs_tol, double rel_tol, double max_step) {
  if (scheme == Integrator::dopri5) return std::make_unique<DenseDopri5>(abs_tol, rel_tol, max_step);
  return std::make_unique<ExactRkf78>(abs_tol, rel_tol, max_step);
}

double locate_sign_change(double a, double b, const std::function<double(double)>& g) {
  double ga = g(a);
  const double gb = g(b);
  if (ga == 0.0 && gb != 0.0) {
    // Starting on the boundary itself (just after an event there): the change sought is the
    // next one, away from a.
    for (double step = 1e-12 * (b - a); ga == 0.0 && a + step < b; step *= 16.0)
      ga = g(a + step), a = ga == 0.0 ? a : a + step;
  }
  if (ga == 0.0 || ga * gb > 0.0) return a;
  if (gb == 0.0) return b;
  std::uintmax_t iterations = 100;
  // g by reference: TOMS 748 copies its function at each bracketing, and a copied std::function allocates.
  const auto bracket = boost::math::tools::toms748_solve(std::cref(g), a, b, ga, gb,
                                                         boost::math::tools::eps_tolerance<double>(50), iterations);
  return bracket.second;
}

}  // namespace linkdyn
