// The periodic (steady) regime of a one-DOF machine and the searches built on it: the
// actuators' scale for a mean speed, the flywheel for a speed fluctuation [003 Sect. 3].
#include <fmt/format.h>

#include <Eigen/Dense>
#include <algorithm>
#include <cmath>

#include "linkdyn/dynamics/simulate.hpp"

namespace linkdyn::dynamics {

using planar::Mechanism;

namespace {
void require_one_dof(const Mechanism& m, const char* what) {
  if (m.drivers().size() != 1)
    throw InputError(m.spec().where, "drivers",
                     fmt::format("{} needs one degree of freedom, and the mechanism has {}", what, m.drivers().size()),
                     "simulate a given time span (--t-end) instead");
}

/// How closely a cycle must repeat: 1e-10 of the speed, or what the integration's tolerances
/// can show (a turn integrated to rel_tol repeats to about that much, and Newton cannot go below).
double periodicity_tolerance(const SimulationOptions& o) {
  return std::max({1e-10, 10.0 * o.rel_tol, 10.0 * o.abs_tol});
}
/// AnalysisError unless the cycle's work balances: over a period the kinetic and potential
/// energy come back, so the actuators' and loads' net work equals the friction losses. Newton's
/// test on the speed is relative, and a drive that nothing resists passes it at an ever higher
/// speed, where the energy gained per turn is small against the kinetic energy but not against
/// the work that flows.
void require_balanced_cycle(const DynamicSystem& system, const SimulationResult& r) {
  double input = 0.0, flows = 0.0, loss = 0.0;
  for (double w : r.actuator_work) input += w, flows += std::abs(w);
  for (double w : r.load_work) input += w, flows += std::abs(w);
  for (double w : r.friction_loss) loss += w, flows += std::abs(w);
  if (std::abs(r.energy_change) <= 1e-2 * flows) return;
  throw AnalysisError(fmt::format(
      "no steady regime: the work per cycle cannot balance: the actuators and loads do {:.6g} J per cycle and "
      "friction and resistances take {:.6g} J, so the machine {} by {:.6g} J on every cycle (Newton's iteration "
      "stopped at {:.6g} {}); a periodic regime needs resistances that absorb the drive's work",
      input, loss, r.energy_change > 0.0 ? "gains kinetic energy" : "loses kinetic energy", std::abs(r.energy_change),
      r.qd_max, system.mechanism->drivers()[0].type == planar::DriverType::rotational ? "rad/s" : "m/s"));
}
}  // namespace

SteadyRegime steady_regime(const DynamicSystem& system, SimulationOptions o, double qd_guess) {
  const Mechanism& m = *system.mechanism;
  require_one_dof(m, "the steady regime");
  std::string note;
  o.method = resolve_method(system, o, note);  // once, not at every cycle
  const planar::Driver& d = m.drivers()[0];
  if (d.type != planar::DriverType::rotational)
    throw InputError(d.where, "driver '" + d.name + "'", "a steady regime needs a cyclic (rotational) coordinate",
                     "drive a crank");
  const double q0 = std::isfinite(o.q0) ? o.q0 : planar::evaluate(d.law, o.t0).q;
  const size_t nm = system.motors.size(), n = 1 + nm;
  o.q0 = q0;
  o.steps = 1;
  // The cycle map: (qd, currents) at q0 -> the same one turn later.
  auto cycle = [&](const Eigen::VectorXd& x, SimulationResult& r) {
    o.qd0 = x(0);
    o.current0.assign(x.data() + 1, x.data() + n);
    o.stop_q = q0 + 2.0 * M_PI * (x(0) >= 0 ? 1.0 : -1.0);
    o.t_end = o.t0 + 50.0 * 2.0 * M_PI / std::max(std::abs(x(0)), 1e-3);
    r = simulate(system, o);
    if (r.stopped) throw AnalysisError("no steady regime: " + r.stop_message);
    Eigen::VectorXd out(n);
    out(0) = r.final_state[1];
    for (size_t k = 0; k < nm; ++k) out(1 + k) = r.final_state[2 + k];
    return out;
  };
  Eigen::VectorXd x = Eigen::VectorXd::Zero(n);
  x(0) = qd_guess;
  SteadyRegime s;
  SimulationResult r;
  bool converged = false;
  for (s.iterations = 1; s.iterations <= 30; ++s.iterations) {
    const Eigen::VectorXd g = cycle(x, r) - x;
    if (g.lpNorm<Eigen::Infinity>() < periodicity_tolerance(o) * (1.0 + x.lpNorm<Eigen::Infinity>())) {
      converged = true;
      break;
    }
    Eigen::MatrixXd J(n, n);
    SimulationResult probe;
    for (size_t k = 0; k < n; ++k) {
      Eigen::VectorXd xp = x;
      const double h = 1e-6 * (1.0 + std::abs(x(k)));
      xp(k) += h;
      J.col(k) = (cycle(xp, probe) - xp - g) / h;
    }
    Eigen::VectorXd step = J.partialPivLu().solve(g);
    if (!step.allFinite()) throw AnalysisError("no steady regime found: the cycle map is singular");
    // Damped: the speed changes by at most half of itself per iteration.
    const double limit = 0.5 * std::abs(x(0));
    if (std::abs(step(0)) > limit) step *= limit / std::abs(step(0));
    x -= step;
  }
  if (!converged)
    throw AnalysisError(
        fmt::format("no steady regime: Newton's method on the cycle map did not converge in 30 iterations (last "
                    "speed {:.9g}); the machine may not have a periodic regime (no resistance to balance its "
                    "drive?)",
                    x(0)));
  cycle(x, r);
  require_balanced_cycle(system, r);
  s.qd0 = x(0);
  s.current0.assign(x.data() + 1, x.data() + n);
  s.period = r.t_final - o.t0;
  s.mean_speed = 2.0 * M_PI / s.period * (x(0) >= 0 ? 1.0 : -1.0);
  s.qd_min = r.qd_min, s.qd_max = r.qd_max;
  s.fluctuation = (s.qd_max - s.qd_min) / std::abs(s.mean_speed);
  s.actuator_work = r.actuator_work;
  return s;
}

ActuatorSolution solve_actuator_for_mean_speed(const DynamicSystem& system, SimulationOptions o,
                                               const std::vector<int>& actuators, double mean_speed, double qd_guess) {
  // Newton on (scale, qd0, currents): the cycle repeats and lasts 2 pi / mean speed. Solved
  // jointly, so that machines whose steady speed is neutral (driving and resisting work both
  // independent of the speed, as in pedalling) are handled as well as dissipative ones.
  const Mechanism& m = *system.mechanism;
  require_one_dof(m, "solving an actuator for a mean speed");
  std::string note;
  o.method = resolve_method(system, o, note);
  const size_t nm = system.motors.size(), n = 2 + nm;
  const double q0 = std::isfinite(o.q0) ? o.q0 : planar::evaluate(m.drivers()[0].law, o.t0).q;
  o.q0 = q0;
  o.steps = 1;
  o.actuator_scale.assign(system.machine.actuators.size(), 1.0);
  const double direction = mean_speed >= 0 ? 1.0 : -1.0, period = 2.0 * M_PI / std::abs(mean_speed);
  auto residual = [&](const Eigen::VectorXd& z) {
    for (int a : actuators) o.actuator_scale[a] = z(0);
    o.qd0 = z(1);
    o.current0.assign(z.data() + 2, z.data() + n);
    o.stop_q = q0 + direction * 2.0 * M_PI;
    o.t_end = o.t0 + 50.0 * period;
    const SimulationResult r = simulate(system, o);
    if (r.stopped) throw AnalysisError("no actuator value found for that mean speed: " + r.stop_message);
    Eigen::VectorXd out(n);
    out(0) = (r.t_final - o.t0 - period) / period * std::abs(mean_speed);  // in speed units
    out(1) = r.final_state[1] - z(1);
    for (size_t k = 0; k < nm; ++k) out(2 + k) = r.final_state[2 + k] - z(2 + k);
    return out;
  };
  Eigen::VectorXd z = Eigen::VectorXd::Zero(n);
  z(0) = 1.0;
  z(1) = qd_guess;
  for (int it = 0; it < 40; ++it) {
    const Eigen::VectorXd g = residual(z);
    if (g.lpNorm<Eigen::Infinity>() < 10.0 * periodicity_tolerance(o) * std::abs(mean_speed))
      return {z(0), z(1), std::vector<double>(z.data() + 2, z.data() + n)};
    Eigen::MatrixXd J(n, n);
    for (size_t k = 0; k < n; ++k) {
      Eigen::VectorXd zp = z;
      const double h = 1e-6 * (1.0 + std::abs(z(k)));
      zp(k) += h;
      J.col(k) = (residual(zp) - g) / h;
    }
    Eigen::VectorXd step = J.fullPivLu().solve(g);
    if (!step.allFinite())
      throw AnalysisError("no actuator value found for that mean speed: the cycle map is singular");
    const double limit = 0.5 * std::max(std::abs(z(0)), 0.1);
    if (std::abs(step(0)) > limit) step *= limit / std::abs(step(0));
    z -= step;
  }
  throw AnalysisError(fmt::format("no actuator value found for a mean speed of {:.6g} in 40 iterations", mean_speed));
}

double flywheel_for_fluctuation(const Mechanism& m, const MachineSpec& machine, const SimulationOptions& o, int body,
                                double fluctuation, double qd_guess) {
  const std::string entity = fmt::format("flywheel '{}'", m.bodies()[body].name);
  // A turn integrated to rel_tol repeats to periodicity_tolerance: a fluctuation must be well above it to be told
  // apart.
  const double resolved = 1e3 * periodicity_tolerance(o);
  if (!(fluctuation > resolved))
    throw InputError(
        m.spec().where, entity,
        fmt::format("a speed fluctuation of {:g} is below what the integration resolves ({:g})", fluctuation, resolved),
        "ask for a larger fluctuation or tighten the integration's tolerances (--rtol, --atol)");
  // Each steady regime starts from the mean speed of the previous one; the machine is compiled
  // once, each trial changes the flywheel's inertia only.
  double guess = qd_guess;
  const DynamicSystem compiled(m, machine);
  auto fluct = [&](double added) {
    const DynamicSystem system = with_body_inertia(compiled, body, m.bodies()[body].inertia + added);
    const SteadyRegime s = steady_regime(system, o, guess);
    guess = s.mean_speed;
    return s.fluctuation;
  };
  double previous = fluct(0.0);
  if (previous <= fluctuation) return 0.0;
  // Bracket, then bisect (the fluctuation falls as the inertia grows, about as its inverse).
  double lo = 0.0, hi = 1e-3 * (1.0 + m.bodies()[body].inertia);
  for (int growth = 0;; ++growth) {
    const double f = fluct(hi);
    if (f <= fluctuation) break;
    if (growth >= 40)
      throw AnalysisError(fmt::format("{}: no inertia up to {:.3g} kg m^2 brings the speed fluctuation below {:g}",
                                      entity, hi, fluctuation));
    if (hi > 1.0 + m.bodies()[body].inertia && f > 0.99 * previous)
      throw AnalysisError(
          fmt::format("{}: the speed fluctuation does not fall as the body gains inertia ({:.6g} with {:.3g} "
                      "kg m^2 added): it does not turn; name a rotating body",
                      entity, f, hi));
    previous = f;
    lo = hi, hi *= 4.0;
  }
  for (int it = 0; it < 40 && hi - lo > 1e-6 * hi; ++it) {
    const double mid = 0.5 * (lo + hi);
    (fluct(mid) > fluctuation ? lo : hi) = mid;
  }
  return hi;
}

}  // namespace linkdyn::dynamics
