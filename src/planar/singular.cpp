// Limit values at removable singular positions, by continuation along the branch and
// extrapolation from both sides.
#include "linkdyn/planar/singular.hpp"

#include <algorithm>
#include <cmath>

#include "linkdyn/planar/groups/group.hpp"

namespace linkdyn::planar {

namespace {

constexpr int samples_per_side = 4;

/// Lagrange weights of the values at `s` for the interpolating polynomial's value at 0.
template <class Points, class Weights>
void weights_at_zero(const Points& s, Weights& w) {
  const auto n = static_cast<Eigen::Index>(s.size());
  for (Eigen::Index j = 0; j < n; ++j) {
    double product = 1.0;
    for (Eigen::Index k = 0; k < n; ++k)
      if (k != j) product *= (0.0 - s[k]) / (s[j] - s[k]);
    w[j] = product;
  }
}

}  // namespace

TrackingState::TrackingState(const Workspace& ws) : body(ws.body), group(ws.group), solved(ws.solved) {}

void TrackingState::save(const Workspace& ws) {
  std::copy(ws.body.begin(), ws.body.end(), body.begin());
  std::copy(ws.group.begin(), ws.group.end(), group.begin());
  solved.level = ws.solved.level;
  std::copy(ws.solved.q.begin(), ws.solved.q.end(), solved.q.begin());
  std::copy(ws.solved.qd.begin(), ws.solved.qd.end(), solved.qd.begin());
  std::copy(ws.solved.qdd.begin(), ws.solved.qdd.end(), solved.qdd.begin());
  valid = true;
}

void TrackingState::restore(Workspace& ws) const {
  std::copy(body.begin(), body.end(), ws.body.begin());
  std::copy(group.begin(), group.end(), ws.group.begin());
  ws.solved.level = solved.level;
  std::copy(solved.q.begin(), solved.q.end(), ws.solved.q.begin());
  std::copy(solved.qd.begin(), solved.qd.end(), ws.solved.qd.begin());
  std::copy(solved.qdd.begin(), solved.qdd.end(), ws.solved.qdd.begin());
}

SingularLimit::SingularLimit(const Mechanism& m) : anchor(Workspace(m)), probe_(m) {
  const size_t n = m.drivers().size();
  q_star_.resize(n), qd_star_.resize(n), qdd_star_.resize(n), direction_.resize(n);
  double size = 0.0;
  for (const Joint& j : m.joints())
    for (const Vec2& p : j.point) size = std::max(size, p.norm());
  for (const Body& b : m.bodies())
    for (const NamedPoint& p : b.points) size = std::max(size, p.local.norm());
  length_scale_ = std::max(size, 1e-3);
}

bool SingularLimit::sample(const Mechanism& m, double s, int count, const LimitValues& values,
                           Eigen::Ref<Eigen::VectorXd> out) {
  Workspace& ws = probe_;
  for (size_t d = 0; d < q_star_.size(); ++d) ws.q[d] = q_star_[d] + s * direction_[d];
  if (!solve_positions(m, ws).ok()) return false;
  // Rates along the sampling path first (unit path speed), so that the next sample is
  // predicted along the path; then the held rates for the values.
  for (size_t d = 0; d < q_star_.size(); ++d) ws.qd[d] = direction_[d], ws.qdd[d] = 0.0;
  if (!solve_velocities(m, ws).ok()) return false;
  solve_accelerations(m, ws);
  for (size_t d = 0; d < q_star_.size(); ++d) ws.qd[d] = qd_star_[d], ws.qdd[d] = qdd_star_[d];
  if (!solve_velocities(m, ws).ok()) return false;
  solve_accelerations(m, ws);
  values(ws, out.head(count));
  if (!out.head(count).allFinite()) return false;
  // Leave the tracking state on the path, for the next sample's prediction.
  for (size_t d = 0; d < q_star_.size(); ++d) ws.qd[d] = direction_[d], ws.qdd[d] = 0.0;
  if (!solve_velocities(m, ws).ok()) return false;
  solve_accelerations(m, ws);
  return true;
}

bool SingularLimit::try_step(const Mechanism& m, const Workspace& ws, double h, const std::vector<int>& kinds,
                             const LimitValues& values, Eigen::VectorXd& limit) {
  const int count = static_cast<int>(kinds.size());
  const int n_samples = 2 * samples_per_side;
  if (count == 0) {
    limit.resize(0);
    return true;
  }
  if (values_.rows() != count || values_.cols() != n_samples) values_.resize(count, n_samples);
  Eigen::Matrix<double, 2 * samples_per_side, 1> s;
  for (int j = 0; j < samples_per_side; ++j) s(j) = -(j + 1) * h, s(samples_per_side + j) = (j + 1) * h;
  // Which side the last regular state is on: that side is walked first, from far to near, then
  // the other from near to far, so the continuation crosses the singular position once.
  double side = -1.0;
  if (anchor.valid) {
    double along = 0.0;
    for (size_t d = 0; d < q_star_.size(); ++d) along += direction_[d] * (anchor.solved.q[d] - q_star_[d]);
    side = along > 0.0 ? 1.0 : -1.0;
  }
  spread_ = -1.0;
  for (int pass = 0; pass < 2; ++pass) {
    const double sign = pass == 0 ? side : -side;
    if (anchor.valid) {
      if (pass == 0) anchor.restore(probe_);
    } else {
      // No regular state to continue from: each side starts from the singular pose, with
      // the model's assembly hints choosing the mode.
      std::copy(ws.body.begin(), ws.body.end(), probe_.body.begin());
      probe_.reset_tracking();
    }
    for (int k = 0; k < samples_per_side; ++k) {
      const int j = (anchor.valid && pass == 0) ? samples_per_side - 1 - k : k;
      const int column = (sign < 0 ? 0 : samples_per_side) + j;
      if (!sample(m, sign * (j + 1) * h, count, values, values_.col(column))) return false;
    }
  }
  Eigen::Matrix<double, 2 * samples_per_side, 1> w;
  weights_at_zero(s, w);
  limit = values_ * w;
  // One-sided extrapolations must agree: a removable singularity has one limit.
  Eigen::Matrix<double, samples_per_side, 1> s_side, w_side;
  for (int j = 0; j < samples_per_side; ++j) s_side(j) = (j + 1) * h;
  weights_at_zero(s_side, w_side);
  const Eigen::VectorXd left = values_.leftCols<samples_per_side>() * w_side;
  const Eigen::VectorXd right = values_.rightCols<samples_per_side>() * w_side;
  // Each value against its own size, with a floor from its kind's size (a value that vanishes
  // there carries only rounding) and, last, from all values.
  const double global = values_.cwiseAbs().maxCoeff();
  const int n_kinds = kinds.empty() ? 0 : *std::max_element(kinds.begin(), kinds.end()) + 1;
  kind_size_.assign(static_cast<size_t>(n_kinds), 0.0);
  for (int c = 0; c < count; ++c)
    kind_size_[kinds[c]] = std::max(kind_size_[kinds[c]], values_.row(c).cwiseAbs().maxCoeff());
  spread_ = 0.0;
  for (int c = 0; c < count; ++c) {
    const double own = values_.row(c).cwiseAbs().maxCoeff();
    const double allowed = 1e-4 * own + 1e-6 * kind_size_[kinds[c]] + 1e-9 * global + 1e-300;
    spread_ = std::max(spread_, std::abs(left(c) - right(c)) / allowed);
  }
  return spread_ <= 1.0;
}

bool SingularLimit::evaluate(const Mechanism& m, const Workspace& ws, const std::vector<int>& kinds,
                             const LimitValues& values, Eigen::VectorXd& limit) {
  const size_t n = q_star_.size();
  // The sampling direction in scaled coordinates (a turn's radian, or the mechanism's size).
  double norm = 0.0;
  for (int source = 0; source < 2 && norm == 0.0; ++source) {
    norm = 0.0;
    for (size_t d = 0; d < n; ++d) {
      const double scale = m.drivers()[d].type == DriverType::rotational ? 1.0 : length_scale_;
      direction_[d] = (source == 0 ? ws.qd[d] : ws.qdd[d]) / scale;
      norm += direction_[d] * direction_[d];
    }
  }
  if (norm == 0.0) {
    std::fill(direction_.begin(), direction_.end(), 0.0);
    direction_[0] = 1.0, norm = 1.0;
  }
  norm = std::sqrt(norm);
  for (size_t d = 0; d < n; ++d) {
    const double scale = m.drivers()[d].type == DriverType::rotational ? 1.0 : length_scale_;
    direction_[d] = direction_[d] / norm * scale;
    q_star_[d] = ws.q[d], qd_star_[d] = ws.qd[d], qdd_star_[d] = ws.qdd[d];
  }
  probe_.singular_tolerance = ws.singular_tolerance;
  // Samples 3 % of the scale apart (beyond the groups' near-singular bands, where rates carry
  // rounding errors); a smaller step if the samples meet other trouble.
  for (const double h : {3e-2, 1e-2}) {
    if (try_step(m, ws, h, kinds, values, limit)) return true;
  }
  return false;
}

bool solve_rates_as_limits(const Mechanism& m, Workspace& ws, SingularLimit& limits) {
  // Poses too: where a dyad degenerates (its outer pins meet) the direct position is decided by
  // rounding along a circle of solutions, while the branch's own pose is its limit.
  const int nb = static_cast<int>(m.bodies().size());
  if (limits.rate_kinds_.size() != 9 * static_cast<size_t>(nb)) {
    limits.rate_kinds_.resize(9 * static_cast<size_t>(nb));
    for (int k = 0; k < 9 * nb; ++k) limits.rate_kinds_[k] = (k % 9) / 3;  // poses, velocities, accelerations
  }
  // Angles and angular rates times the mechanism's size, comparable with the linear ones.
  const double L = limits.length_scale();
  Eigen::VectorXd limit;
  const bool ok = limits.evaluate(
      m, ws, limits.rate_kinds_,
      [nb, L](Workspace& s, Eigen::Ref<Eigen::VectorXd> out) {
        for (int b = 0; b < nb; ++b) {
          const BodyState& body = s.body[b];
          out.segment<9>(9 * b) << body.r.x(), body.r.y(), body.theta * L, body.v.x(), body.v.y(), body.omega * L,
              body.a.x(), body.a.y(), body.alpha * L;
        }
      },
      limit);
  if (!ok) return false;
  for (int b = 1; b < nb; ++b) {
    BodyState& body = ws.body[b];
    body.r = limit.segment<2>(9 * b);
    body.set_angle(limit(9 * b + 2) / L);
    body.v = limit.segment<2>(9 * b + 3), body.omega = limit(9 * b + 5) / L;
    body.a = limit.segment<2>(9 * b + 6), body.alpha = limit(9 * b + 8) / L;
  }
  std::copy(ws.qd.begin(), ws.qd.end(), ws.solved.qd.begin());
  std::copy(ws.qdd.begin(), ws.qdd.end(), ws.solved.qdd.begin());
  ws.solved.level = SolvedState::accelerations;
  return true;
}

}  // namespace linkdyn::planar
