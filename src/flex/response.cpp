// Newmark average-acceleration integration of [004 Eq. 20] and its periodic steady state.
#include "linkdyn/flex/response.hpp"

#include <cmath>
#include <fmt/core.h>

#include "linkdyn/core/error.hpp"
#include "linkdyn/core/interrupt.hpp"
#include "linkdyn/core/progress.hpp"

namespace linkdyn::flex {
namespace {
constexpr double beta = 0.25, gamma_ = 0.5;
}

NewmarkWorkspace::NewmarkWorkspace(const BeamModel& beam, int columns)
    : operators(make_operators(beam)),
      d(Eigen::MatrixXd::Zero(beam.size(), columns)),
      v(d),
      a(d),
      rhs(d),
      effective(beam.size(), beam.size()),
      next_a(d),
      next_d(d),
      lu(beam.size()) {}

void newmark_initialize(const BeamModel& beam, const FrameMotion& motion, NewmarkWorkspace& ws) {
  evaluate_operators(beam, motion, ws.operators);
  ws.a.noalias() = -ws.operators.stiffness * ws.d;
  ws.a.noalias() -= ws.operators.damping * ws.v;
  ws.a.col(0) += ws.operators.load;
  beam.mass_factor.solveInPlace(ws.a);
}

void newmark_step(const BeamModel& beam, const FrameMotion& next, double dt, NewmarkWorkspace& ws) {
  evaluate_operators(beam, next, ws.operators);
  const double a0 = 1.0 / (beta * dt * dt), a1 = gamma_ / (beta * dt), a2 = 1.0 / (beta * dt), a3 = 0.5 / beta - 1.0,
               a4 = gamma_ / beta - 1.0, a5 = dt * (0.5 * gamma_ / beta - 1.0);
  ws.effective = ws.operators.stiffness;
  ws.effective += a1 * ws.operators.damping;
  ws.effective += a0 * beam.mass;
  // rhs = load + m (a0 d + a2 v + a3 a) + c (a1 d + a4 v + a5 a)
  ws.next_a = a0 * ws.d + a2 * ws.v + a3 * ws.a;
  ws.rhs.noalias() = beam.mass * ws.next_a;
  ws.next_a = a1 * ws.d + a4 * ws.v + a5 * ws.a;
  ws.rhs.noalias() += ws.operators.damping * ws.next_a;
  ws.rhs.col(0) += ws.operators.load;
  ws.lu.compute(ws.effective);
  ws.next_d.noalias() = ws.lu.solve(ws.rhs);
  ws.next_a = a0 * (ws.next_d - ws.d) - a2 * ws.v - a3 * ws.a;
  ws.v += dt * ((1.0 - gamma_) * ws.a + gamma_ * ws.next_a);
  ws.a = ws.next_a;
  ws.d = ws.next_d;
}

namespace {

/// A pass of the integration: its largest |d| and |v| and its final state (for the periodicity
/// check) whether or not the history is kept.
struct Pass {
  Response response;
  double d_max = 0.0, v_max = 0.0;
  Eigen::VectorXd d_end, v_end;
};

/// Every `every`-th step's state kept in the response (`store`) and handed to `sink` (steps a
/// multiple of `every`).
Pass integrate(const BeamModel& beam, const MotionAt& motion_at, double t0, double duration, int steps, int every,
               const Eigen::VectorXd& d0, const Eigen::VectorXd& v0, bool store, const StepSink& sink) {
  NewmarkWorkspace ws(beam, 1);
  ws.d.col(0) = d0;
  ws.v.col(0) = v0;
  FrameMotion motion;
  motion_at(t0, motion);
  newmark_initialize(beam, motion, ws);
  Pass pass;
  Response& r = pass.response;
  const int kept = steps / every + 1;
  if (store) {
    r.t.resize(kept);
    r.displacement.resize(beam.size(), kept);
    r.velocity.resize(beam.size(), kept);
  }
  auto keep = [&](int k, double t) {
    pass.d_max = std::max(pass.d_max, ws.d.col(0).cwiseAbs().maxCoeff());
    pass.v_max = std::max(pass.v_max, ws.v.col(0).cwiseAbs().maxCoeff());
    if (store) {
      r.t[k] = t;
      r.displacement.col(k) = ws.d.col(0);
      r.velocity.col(k) = ws.v.col(0);
    }
    if (sink) sink(t, ws.d.col(0), ws.v.col(0));
  };
  keep(0, t0);
  const double dt = duration / steps;
  for (int k = 1; k <= steps; ++k) {
    throw_if_stop_requested();
    report_progress(k, steps + 1);
    motion_at(t0 + k * dt, motion);
    newmark_step(beam, motion, dt, ws);
    if (k % every == 0) keep(k / every, t0 + k * dt);
  }
  pass.d_end = ws.d.col(0), pass.v_end = ws.v.col(0);
  return pass;
}

}  // namespace

Response transient_response(const BeamModel& beam, const MotionAt& motion_at, double t0, double duration, int steps,
                            int every, const StepSink& sink) {
  const Eigen::VectorXd zero = Eigen::VectorXd::Zero(beam.size());
  return integrate(beam, motion_at, t0, duration, steps, every, zero, zero, !sink, sink).response;
}

Response periodic_response(const BeamModel& beam, const MotionAt& motion_at, double t0, double period, int steps,
                           int every, const StepSink& sink) {
  const int n = beam.size();
  // Column 0: forced from rest; columns 1..2n: free, from the unit states (d, v).
  NewmarkWorkspace ws(beam, 2 * n + 1);
  ws.d.rightCols(2 * n).leftCols(n).setIdentity();
  ws.v.rightCols(n).setIdentity();
  FrameMotion motion;
  motion_at(t0, motion);
  newmark_initialize(beam, motion, ws);
  const double dt = period / steps;
  for (int k = 1; k <= steps; ++k) {
    throw_if_stop_requested();
    report_progress(k, steps + 1);
    motion_at(t0 + k * dt, motion);
    newmark_step(beam, motion, dt, ws);
  }
  Eigen::MatrixXd phi(2 * n, 2 * n);
  phi << ws.d.rightCols(2 * n), ws.v.rightCols(2 * n);
  Eigen::VectorXd zp(2 * n);
  zp << ws.d.col(0), ws.v.col(0);
  const Eigen::FullPivLU<Eigen::MatrixXd> shooting(Eigen::MatrixXd::Identity(2 * n, 2 * n) - phi);
  Eigen::VectorXd z0 = shooting.solve(zp);
  auto resonance = [&](double error) {
    return AnalysisError(
        fmt::format("the beam has a free vibration of the motion's period {:g} s (resonance): "
                    "no periodic response (periodicity error {:.2g}); change the speed or the link",
                    period, error));
  };
  if (!z0.allFinite()) throw resonance(INFINITY);
  // The fixed point z0 = Phi z0 + z_p solved with the computed Phi: Newton's correction
  // z0 += (I - Phi)^-1 (z(T) - z0) on the integrated state removes the solve's rounding. What it
  // cannot remove is the rounding of the integration itself, which the undamped high modes keep
  // (a marginally stable map: about 1e-5 of the state after 4e5 steps of a 30-dof link); that
  // floor is reached when a correction no longer halves the error. Damping removes it.
  Response r;
  Eigen::VectorXd residual(2 * n), z_start(2 * n);
  double previous = INFINITY;
  for (int pass = 0;; ++pass) {
    z_start = z0;
    Pass p = integrate(beam, motion_at, t0, period, steps, every, z0.head(n), z0.tail(n), !sink, nullptr);
    r = std::move(p.response);
    // Periodicity of the state: displacements and velocities each against its largest value
    // over the period, or the other's times the cycle's circular frequency when larger.
    const double w = 2.0 * M_PI / period;
    const double d_scale = std::max({p.d_max, p.v_max / w, 1e-300}), v_scale = std::max({p.v_max, p.d_max * w, 1e-300});
    residual << p.d_end - z0.head(n), p.v_end - z0.tail(n);
    r.periodicity_error =
        std::max(residual.head(n).cwiseAbs().maxCoeff() / d_scale, residual.tail(n).cwiseAbs().maxCoeff() / v_scale);
    const bool floor = r.periodicity_error > 0.5 * previous;
    if (r.periodicity_error < periodicity_tolerance || floor || pass == 3 || !std::isfinite(r.periodicity_error)) break;
    previous = r.periodicity_error;
    z0 += shooting.solve(residual);
  }
  if (r.periodicity_error < periodicity_limit) {
    if (sink)  // the kept pass again, its steps handed over (the same numbers: the same arithmetic)
      (void)integrate(beam, motion_at, t0, period, steps, every, z_start.head(n), z_start.tail(n), false, sink);
    return r;
  }
  if (!(r.periodicity_error < 1e-3)) throw resonance(r.periodicity_error);
  throw AnalysisError(fmt::format(
      "the steady response repeats only to {:.2g} of its size after {} Newmark steps: the link's undamped high modes "
      "keep the rounding of so many steps (no resonance); give the link damping (damping: {{ratio: 0.01}}), or fewer "
      "--steps or --substeps",
      r.periodicity_error, steps));
  return r;
}

}  // namespace linkdyn::flex
