// Damped Newton's method on a group's loop-closure equations.
#include "planar/groups/closure.hpp"

#include <algorithm>
#include <array>
#include <cmath>

#include "linkdyn/planar/constraints.hpp"

namespace linkdyn::planar {

namespace {
constexpr int max_iterations = 60;
constexpr int stall_window = 5;
}  // namespace

GroupClosure::GroupClosure(const Mechanism& m, std::vector<int> bodies, std::vector<int> joints,
                           std::vector<int> driven)
    : bodies_(std::move(bodies)), joints_(std::move(joints)), driven_(std::move(driven)) {
  double scale = 0.0;
  for (int jn : joints_)
    for (const Vec2& p : m.joints()[jn].point) scale = std::max(scale, p.norm());
  scale_ = std::max(scale, 1e-3);
}

int GroupClosure::column(int body) const { return group_column(bodies_, body); }

double GroupClosure::evaluate(const Mechanism& m, const Workspace& ws, GenericScratch& s) const {
  s.jacobian.setZero();
  double worst = 0.0, weight = 1.0;  // the row's weight, set before its blocks
  const int pair_rows = scatter_rows(
      m, ws, joints_, false, [this](int body) { return column(body); },
      [&](int i, const Joint& jt, const JointRows& rows, int r) {
        // Angular equations are scaled to lengths so that one tolerance serves all rows.
        weight = (jt.is<RevolutePair>() || jt.is<CamPair>() || r == 1) ? 1.0 : scale_;
        s.residual(i) = weight * rows.phi(r);
        worst = std::max(worst, std::abs(s.residual(i)));
      },
      [&](int i, int col, const auto& J) { s.jacobian.block<1, 3>(i, col) = weight * J; });
  // A driving dyad's equations: its pairs' displacements equal the drivers' coordinates.
  scatter_driver_rows(
      m, ws, driven_, pair_rows, false, [this](int body) { return column(body); },
      [&](int i, int d, const DisplacementRow& row) {
        s.residual(i) = row.value - ws.q[d];
        worst = std::max(worst, std::abs(s.residual(i)));
      },
      [&](int i, int col, const auto& J) { s.jacobian.block<1, 3>(i, col) = J; }, Skip{});
  return worst;
}

void GroupClosure::apply(Workspace& ws, const Eigen::VectorXd& x) const {
  for (size_t k = 0; k < bodies_.size(); ++k) {
    BodyState& b = ws.body[bodies_[k]];
    b.r = Vec2(x(3 * k), x(3 * k + 1));
    b.set_angle(x(3 * k + 2));
  }
}

void GroupClosure::gather(const Workspace& ws, Eigen::VectorXd& x) const {
  for (size_t k = 0; k < bodies_.size(); ++k) {
    const BodyState& b = ws.body[bodies_[k]];
    x.segment<3>(3 * k) << b.r.x(), b.r.y(), b.theta;
  }
}

void GroupClosure::predict(Workspace& ws) const {
  for (int b : bodies_) ws.body[b] = ws.prediction.of(ws.body[b]);
}

bool GroupClosure::newton(const Mechanism& m, Workspace& ws, GenericScratch& s) const {
  const double tol = 1e-13 * (1.0 + scale_);
  gather(ws, s.unknowns);
  double norm = evaluate(m, ws, s);
  // Where the group cannot close, damped Newton creeps towards a nonzero minimum of the
  // residual, each step halved up to 30 times: stalling (less than 0.1 % gained over five
  // steps, far from closure) ends the attempt, as 60 steps would, at a tenth of the cost.
  std::array<double, stall_window> recent{};
  for (int it = 0; it < max_iterations; ++it) {
    if (it >= stall_window && norm > 1e3 * tol && norm > 0.999 * recent[static_cast<size_t>(it % stall_window)]) break;
    recent[static_cast<size_t>(it % stall_window)] = norm;
    s.lu.compute(s.jacobian);
    if (s.lu.rcond() > 1e-12) {
      s.step = s.lu.solve(s.residual);
    } else {
      // Singular Jacobian (a degenerate position): the least-norm step.
      s.cod.compute(s.jacobian);
      s.step = s.cod.solve(s.residual);
    }
    if (!s.step.allFinite()) return false;
    double lambda = 1.0;
    bool improved = false;
    for (int half = 0; half < 30; ++half, lambda *= 0.5) {
      s.unknowns -= lambda * s.step;
      apply(ws, s.unknowns);
      const double trial = evaluate(m, ws, s);
      if (trial < norm || trial <= tol) {
        improved = true;
        norm = trial;
        break;
      }
      s.unknowns += lambda * s.step;
    }
    if (!improved) break;
    if (norm <= tol && lambda * s.step.lpNorm<Eigen::Infinity>() < 1e-9 * (1.0 + scale_)) return true;
  }
  apply(ws, s.unknowns);
  return evaluate(m, ws, s) <= tol;
}

double GroupClosure::conditioning(GenericScratch& s) {
  s.lu.compute(s.jacobian);
  return s.lu.rcond();
}

}  // namespace linkdyn::planar
