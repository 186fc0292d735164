// The tabulated reduced model [003]: node values by the kinematic and kinetostatic walks,
// interpolation by degree-7 piecewise polynomials, and refinement to a tolerance.
#include "linkdyn/dynamics/reduced_model.hpp"

#include <fmt/format.h>

#include <cmath>
#include <limits>

#include "linkdyn/dynamics/reduced.hpp"
#include "linkdyn/planar/friction.hpp"
#include "linkdyn/planar/kinetostatics.hpp"
#include "linkdyn/planar/singular.hpp"

namespace linkdyn::dynamics {

using planar::Mechanism;
using planar::Workspace;

namespace {

constexpr int degree = 7;

/// The monomial coefficients c (p(u) = sum c_k u^k) of the Hermite-Birkhoff polynomial through
/// values and u-slopes at four nodes at offsets o, as a matrix applied to (f_0..f_3, f'_0..f'_3).
Eigen::Matrix<double, 8, 8> hermite_matrix(const std::array<double, 4>& o) {
  Eigen::Matrix<double, 8, 8> A = Eigen::Matrix<double, 8, 8>::Zero();
  for (int j = 0; j < 4; ++j)
    for (int k = 0; k <= degree; ++k) {
      A(j, k) = std::pow(o[j], k);
      A(4 + j, k) = k == 0 ? 0.0 : k * std::pow(o[j], k - 1);
    }
  return A.inverse();
}

/// The Lagrange polynomial through eight nodes at offsets o (values only).
Eigen::Matrix<double, 8, 8> lagrange_matrix(const std::array<double, 8>& o) {
  Eigen::Matrix<double, 8, 8> A;
  for (int j = 0; j < 8; ++j)
    for (int k = 0; k <= degree; ++k) A(j, k) = std::pow(o[j], k);
  return A.inverse();
}

}  // namespace

CurveBundle::CurveBundle(double q0, double span, bool periodic, const Eigen::MatrixXd& values,
                         const Eigen::MatrixXd& slopes, int with_slopes)
    : curves_(static_cast<int>(values.rows())),
      intervals_(static_cast<int>(values.cols()) - 1),
      periodic_(periodic),
      q0_(q0),
      span_(span),
      h_(span / (static_cast<double>(values.cols()) - 1)) {
  const int n = intervals_;
  if (n < 8) throw AnalysisError("a reduced table needs at least 8 intervals");
  coef_.assign(static_cast<size_t>(n) * curves_ * 8, 0.0);
  // Node index of interval i's stencil point at offset o (wrapped when periodic).
  auto node = [&](int i, int o) {
    int k = i + o;
    if (periodic_) k = ((k % n) + n) % n;
    return k;
  };
  const auto interior = hermite_matrix({-1, 0, 1, 2}), first = hermite_matrix({0, 1, 2, 3}),
             last = hermite_matrix({-2, -1, 0, 1});
  Eigen::Matrix<double, 8, 1> data;
  for (int i = 0; i < n; ++i) {
    // Hermite stencil: nodes i-1 .. i+2, shifted inwards at the ends of a non-periodic range.
    int shift = -1;
    const Eigen::Matrix<double, 8, 8>* H = &interior;
    if (!periodic_ && i == 0) shift = 0, H = &first;
    if (!periodic_ && i == n - 1) shift = -2, H = &last;
    // Lagrange stencil: eight nodes around the interval, shifted inwards at the ends.
    int start = i - 3;
    if (!periodic_) start = std::clamp(start, 0, n - 7);
    std::array<double, 8> offsets{};
    for (int j = 0; j < 8; ++j) offsets[j] = start + j - i;
    const Eigen::Matrix<double, 8, 8> L = lagrange_matrix(offsets);
    for (int c = 0; c < curves_; ++c) {
      if (c < with_slopes) {
        for (int j = 0; j < 4; ++j) {
          const int k = node(i, shift + j);
          data(j) = values(c, k);
          data(4 + j) = h_ * slopes(c, k);
        }
        Eigen::Map<Eigen::Matrix<double, 8, 1>>(coef_.data() + (static_cast<size_t>(i) * curves_ + c) * 8) = *H * data;
      } else {
        for (int j = 0; j < 8; ++j) data(j) = values(c, node(i, start + j - i));
        Eigen::Map<Eigen::Matrix<double, 8, 1>>(coef_.data() + (static_cast<size_t>(i) * curves_ + c) * 8) = L * data;
      }
    }
  }
}

CurveBundle::Where CurveBundle::locate(double q, bool extrapolate) const {
  if (!std::isfinite(q)) throw AnalysisError("the coordinate is no longer finite (the motion diverged)");
  double x = q - q0_;
  if (periodic_) {
    if (x < 0.0 || x >= span_) x -= span_ * std::floor(x / span_);
  } else if (extrapolate) {
    Where w;
    const double s = x / h_;
    w.interval = std::clamp(static_cast<int>(std::floor(s)), 0, intervals_ - 1);
    w.u = s - w.interval;
    return w;
  } else if (x < -1e-12 * (1.0 + span_) || x > span_ * (1.0 + 1e-12) + 1e-12) {
    throw AnalysisError(fmt::format(
        "q = {:.9g} is outside the reduced method's tabulated range [{:.9g}, {:.9g}] (the "
        "driver law's range, or a cylinder's stroke); use --method kane or full, or give a law that covers the "
        "motion",
        q, q0_, q0_ + span_));
  }
  const double s = std::clamp(x / h_, 0.0, static_cast<double>(intervals_));
  Where w;
  w.interval = std::min(static_cast<int>(s), intervals_ - 1);
  w.u = s - w.interval;
  return w;
}

namespace {

/// The values of one node: the primary curves with their slopes, then the reaction coefficients.
class NodeEvaluator {
 public:
  NodeEvaluator(const DynamicSystem& system, ReducedModel& model, bool friction)
      : sys_(system), m_(*system.mechanism), model_(model), ws_(m_), limits_(m_) {
    const auto& loads = m_.spec().loads;
    int curve = 2;  // m, F_fixed
    for (size_t l = 0; l < loads.size(); ++l)
      for (size_t p = 0; p < loads[l].parts.size(); ++p) {
        const planar::Coordinate* x = loads[l].parts[p].magnitude.coordinate();
        if (!x) continue;  // a constant
        ReducedModel::Part part;
        part.load = static_cast<int>(l), part.part = static_cast<int>(p);
        if (!x->is<planar::Coordinate::Time>() && !x->is<planar::Coordinate::DriverValue>()) part.x = curve++;
        part.g = curve++;
        model.parts.push_back(part);
      }
    for (size_t a = 0; a < sys_.machine.actuators.size(); ++a) model.actuator_curve.push_back(curve++);
    for (const Actuator& a : sys_.machine.actuators) model.when_curve.push_back(a.condition_body() < 0 ? -1 : curve++);
    for (size_t e = 0; e < sys_.coulomb.size(); ++e) model.element_curve.push_back(curve++);
    primary_ = curve;
    // Reactions of the bearings (only where friction acts in them).
    model.friction = friction;
    model.sources = 3 + static_cast<int>(model.parts.size() + sys_.machine.actuators.size() + sys_.coulomb.size());
    model.source_part0 = 3;
    model.source_actuator0 = 3 + static_cast<int>(model.parts.size());
    model.source_element0 = model.source_actuator0 + static_cast<int>(sys_.machine.actuators.size());
    model.reaction_curve0 = primary_;
    int rows = 0;
    for (const CoulombElement& e : sys_.coulomb) {
      int n = 0;
      if (friction && e.pair_friction()) {
        const planar::Bearing& b = m_.bearings()[std::get<PairFriction>(e.site).bearing];
        const auto* slide = std::get_if<planar::Bearing::Prismatic>(&b.kind);
        n = b.is<planar::Bearing::Contact>() ? 1
            : !slide                         ? 2
                     : (m_.joints()[slide->joint].as<planar::PrismaticPair>().slider_length > 0.0 ? 2 : 1);
      }
      model.reaction_row0.push_back(n > 0 ? rows : -1);
      model.reaction_rows.push_back(n);
      rows += n;
    }
    rows_ = rows;
    secondary_ = friction ? rows * model.sources : 0;
    size_ = 2 * primary_ + secondary_;
    for (int k = 0; k < size_; ++k) kinds_.push_back(k < 2 * primary_ ? (k < primary_ ? 0 : 1) : 2);
  }
  [[nodiscard]] int size() const { return size_; }
  /// Positions (and rates for the next prediction) at q, tracked from the previous call.
  void track(double q) {
    ws_.q[0] = q, ws_.qd[0] = 1.0, ws_.qdd[0] = 0.0;
    if (!planar::solve_positions(m_, ws_).ok()) return;  // reported when a node is evaluated there
    if (planar::near_singular(m_, ws_)) {
      (void)planar::solve_rates_as_limits(m_, ws_, limits_);  // where they have limits
      return;
    }
    if (!planar::solve_velocities(m_, ws_).ok()) return;
    planar::solve_accelerations(m_, ws_);
    limits_.anchor.save(ws_);
  }
  [[nodiscard]] int primary() const { return primary_; }
  Workspace& workspace() { return ws_; }

  /// The node vector at q; positions tracked from the previous call.
  void evaluate(double q, Eigen::Ref<Eigen::VectorXd> out) {
    ++model_.evaluations;
    ws_.q[0] = q;
    ws_.qd[0] = 1.0, ws_.qdd[0] = 0.0;
    const planar::KinematicStatus s = planar::solve_positions(m_, ws_);
    if (!s.ok())
      throw TabulationError(
          "the reduced method tabulates the machine over the driver's range (a cylinder's "
          "whole stroke), and " +
          planar::describe(m_, ws_, s) +
          "; use --method kane or full for a motion that stays where the mechanism assembles");
    if (planar::near_singular(m_, ws_)) {
      Eigen::VectorXd limit;
      const bool ok = limits_.evaluate(
          m_, ws_, kinds_, [&](Workspace& sample, Eigen::Ref<Eigen::VectorXd> v) { at_position(sample, v); }, limit);
      if (ok) {
        out = limit;
        ws_.qd[0] = 1.0, ws_.qdd[0] = 0.0;
        (void)planar::solve_rates_as_limits(m_, ws_, limits_);  // for the next node's prediction
        return;
      }
      if (!planar::solve_velocities(m_, ws_).ok())
        throw TabulationError(
            fmt::format("the reduced parameters have no limit at the singular position q = {:.9g} (a dead point of the "
                        "driver); the reduced method cannot pass it",
                        q));
    }
    at_position(ws_, out);
    ws_.qd[0] = 1.0, ws_.qdd[0] = 0.0;
    (void)planar::solve_velocities(m_, ws_);  // regular here, or checked above
    planar::solve_accelerations(m_, ws_);
    limits_.anchor.save(ws_);
  }

 private:
  /// The node vector at the positions solved in ws.
  void at_position(Workspace& ws, Eigen::Ref<Eigen::VectorXd> out) {
    out.setZero();
    // Velocity coefficients and their derivatives: qd = 1, qdd = 0 (then a = dv/dq).
    ws.qd[0] = 1.0, ws.qdd[0] = 0.0;
    if (!planar::solve_velocities(m_, ws).ok()) throw TabulationError("a reduced-table node is at a dead point");
    planar::solve_accelerations(m_, ws);
    const ReducedInertia inertia = reduced_inertia_from_energy(m_, ws);
    auto put = [&](int curve, double value, double slope) { out(curve) = value, out(primary_ + curve) = slope; };
    put(0, inertia.m, inertia.dm);
    // The fixed loads: gravity and the constant parts.
    double fixed = 0.0, fixed_rate = 0.0;
    for (size_t b = 1; b < m_.bodies().size(); ++b) {
      const planar::Body& body = m_.bodies()[b];
      const Vec2 weight = body.mass * m_.spec().gravity;
      fixed += weight.dot(ws.body[b].velocity(body.com));
      fixed_rate += weight.dot(ws.body[b].acceleration(body.com));
    }
    const auto& loads = m_.spec().loads;
    for (const planar::Load& load : loads)
      for (const planar::LoadPart& part : load.parts)
        if (const auto* c = std::get_if<planar::Magnitude::Constant>(&part.magnitude.law)) {
          fixed += c->gain * planar::pattern_power(m_, ws, part);
          fixed_rate += c->gain * planar::pattern_power_rate(m_, ws, part);
        }
    put(1, fixed, fixed_rate);
    for (const ReducedModel::Part& p : model_.parts) {
      const planar::Load& load = loads[p.load];
      const planar::LoadPart& part = load.parts[p.part];
      if (p.x >= 0) {
        const planar::CoordinateValue x = planar::coordinate_value(m_, ws, 0.0, *part.magnitude.coordinate(), true);
        put(p.x, x.value, x.rate);
      }
      put(p.g, planar::pattern_power(m_, ws, part), planar::pattern_power_rate(m_, ws, part));
    }
    for (size_t a = 0; a < sys_.machine.actuators.size(); ++a) {
      const Actuator& act = sys_.machine.actuators[a];
      if (act.joint() >= 0) {
        const planar::Joint& slide = m_.joints()[act.joint()];
        put(model_.actuator_curve[a], planar::sliding_speed(slide, ws), planar::sliding_acceleration(slide, ws));
      } else {
        put(model_.actuator_curve[a], ws.body[act.body].omega, ws.body[act.body].alpha);
      }
    }
    for (size_t a = 0; a < sys_.machine.actuators.size(); ++a)
      if (model_.when_curve[a] >= 0) {
        const planar::BodyState& b = ws.body[sys_.machine.actuators[a].condition_body()];
        put(model_.when_curve[a], b.omega, b.alpha);
      }
    for (size_t e = 0; e < sys_.coulomb.size(); ++e) {
      const CoulombElement& el = sys_.coulomb[e];
      double speed = element_speed(m_, ws, el), rate = 0.0;
      if (const auto* friction = std::get_if<PairFriction>(&el.site)) {
        rate = planar::bearing_acceleration(m_, ws, m_.bearings()[friction->bearing]);
      } else if (const auto* resistance = std::get_if<BodyResistance>(&el.site)) {
        rate = ws.body[resistance->body].alpha;
      } else {
        rate = planar::sliding_acceleration(m_.joints()[std::get<GuideResistance>(el.site).joint], ws);
      }
      put(model_.element_curve[e], speed, rate);
    }
    if (secondary_ > 0) reactions(ws, out.tail(secondary_));
  }

  /// The bearings' reactions per unit of each source (rows x sources, row-major by source).
  void reactions(Workspace& ws, Eigen::Ref<Eigen::VectorXd> out) {
    const int S = model_.sources;
    auto walk = [&](int source) {
      for (auto& w : ws.friction_load) w.setZero();
      planar::solve_reactions(m_, ws);
      for (size_t e = 0; e < sys_.coulomb.size(); ++e) {
        const int row0 = model_.reaction_row0[e];
        if (row0 < 0) continue;
        const planar::Bearing& b = m_.bearings()[std::get<PairFriction>(sys_.coulomb[e].site).bearing];
        Eigen::Vector2d r = Eigen::Vector2d::Zero();
        std::visit(
            overloaded{[&](const planar::Bearing::Revolute& p) { r = ws.reaction[p.joint].force; },
                       [&](const planar::Bearing::PinMember& p) { r = planar::pin_force(m_, ws, p.pin, p.member); },
                       [&](const planar::Bearing::Prismatic& p) {
                         r << ws.reaction[p.joint].normal, ws.reaction[p.joint].moment;
                       },
                       [&](const planar::Bearing::Contact& p) { r << ws.reaction[p.joint].normal, 0.0; }},
            b.kind);
        for (int k = 0; k < model_.reaction_rows[e]; ++k) out((row0 + k) * S + source) = r(k);
      }
    };
    auto zero_applied = [&] {
      for (auto& w : ws.applied) w.setZero();
    };
    // Inertia: qdd = 1 at rest, then qd = 1 without qdd. The velocities solve at these positions
    // (regular, or a singular limit's sample: the callers check).
    ws.qd[0] = 0.0, ws.qdd[0] = 1.0;
    (void)planar::solve_velocities(m_, ws);
    planar::solve_accelerations(m_, ws);
    zero_applied();
    walk(0);
    ws.qd[0] = 1.0, ws.qdd[0] = 0.0;
    (void)planar::solve_velocities(m_, ws);
    planar::solve_accelerations(m_, ws);
    zero_applied();
    walk(1);
    // The rest at rest: no inertia, one unit source at a time.
    ws.qd[0] = 0.0, ws.qdd[0] = 0.0;
    (void)planar::solve_velocities(m_, ws);
    planar::solve_accelerations(m_, ws);
    const auto& loads = m_.spec().loads;
    zero_applied();
    for (size_t b = 1; b < m_.bodies().size(); ++b) ws.applied[b] = planar::gravity_load(m_, ws, static_cast<int>(b));
    int body[2];
    planar::Wrench w[2];
    for (const planar::Load& load : loads)
      for (const planar::LoadPart& part : load.parts)
        if (const auto* c = std::get_if<planar::Magnitude::Constant>(&part.magnitude.law)) {
          planar::part_pattern(m_, ws, part, body, w);
          ws.applied[body[0]] += c->gain * w[0];
          ws.applied[body[1]] += c->gain * w[1];
        }
    ws.applied[0].setZero();
    walk(2);
    for (size_t p = 0; p < model_.parts.size(); ++p) {
      const planar::Load& load = loads[model_.parts[p].load];
      zero_applied();
      planar::part_pattern(m_, ws, load.parts[model_.parts[p].part], body, w);
      ws.applied[body[0]] += w[0];
      ws.applied[body[1]] += w[1];
      ws.applied[0].setZero();
      walk(model_.source_part0 + static_cast<int>(p));
    }
    for (size_t a = 0; a < sys_.machine.actuators.size(); ++a) {
      zero_applied();
      add_actuator_effort(m_, ws, sys_.machine.actuators[a], 1.0, ws.applied);
      ws.applied[0].setZero();
      walk(model_.source_actuator0 + static_cast<int>(a));
    }
    for (size_t e = 0; e < sys_.coulomb.size(); ++e) {
      zero_applied();
      add_element_effort(m_, ws, sys_.coulomb[e], 1.0, ws.applied);
      ws.applied[0].setZero();
      walk(model_.source_element0 + static_cast<int>(e));
    }
  }

  const DynamicSystem& sys_;
  const Mechanism& m_;
  ReducedModel& model_;
  Workspace ws_;
  planar::SingularLimit limits_;
  std::vector<int> kinds_;
  int primary_ = 0, rows_ = 0, secondary_ = 0, size_ = 0;
};

/// The driver's tabulated range: a full turn of a rotational driver whose law turns one or
/// stands still (periodic), a cylinder's stroke (its limits, when given), else the law's range.
void table_range(const Mechanism& m, double& q0, double& span, bool& periodic) {
  const planar::TimeGrid grid = m.default_grid();
  const planar::Driver& drv = m.drivers()[0];
  if (const planar::Cylinder* c = m.driven_cylinder(0); c && c->stroke_max > 0.0) {
    q0 = c->stroke_min, span = c->stroke_max - c->stroke_min, periodic = false;
    return;
  }
  const double q_start = planar::evaluate(drv.law, grid.t0).q, q_end = planar::evaluate(drv.law, grid.t_end).q;
  periodic = drv.type == planar::DriverType::rotational &&
             (std::abs(q_end - q_start) >= 2.0 * M_PI * (1.0 - 1e-12) || q_end == q_start);
  q0 = std::min(q_start, q_end);
  span = periodic ? 2.0 * M_PI : std::abs(q_end - q_start);
  if (periodic) q0 = q_start;
  if (span == 0.0)
    throw InputError(drv.where, "driver '" + drv.name + "'", "its motion law does not move, so it gives no range of q",
                     "give a law that covers the range of the coordinate");
}

}  // namespace

ReducedModel::ReducedModel(const DynamicSystem& system, const ReducedModelOptions& options)
    : options(options), tolerance(options.tolerance) {
  const Mechanism& m = *system.mechanism;
  if (m.drivers().size() != 1)
    throw InputError(
        m.spec().where, "drivers",
        fmt::format("the reduced method needs one degree of freedom, and the mechanism has {}", m.drivers().size()),
        "use --method kane (or full) for several degrees of freedom");
  double q0 = 0.0, span = 0.0;
  bool periodic = false;
  table_range(m, q0, span, periodic);
  NodeEvaluator nodes(system, *this, options.friction && !m.bearings().empty());
  const int P = nodes.primary(), size = nodes.size();
  // Node values on a grid of n intervals (n + 1 nodes), by one tracked sweep; `known` (the
  // grid of n / 2 intervals) gives the even nodes.
  std::vector<ReducedModel::Part>& parts = this->parts;
  auto angle_kind = [&](const ReducedModel::Part& part) {
    const planar::Coordinate& x = *m.spec().loads[part.load].parts[part.part].magnitude.coordinate();
    return x.is<planar::Coordinate::BodyAngle>() || x.is<planar::Coordinate::PairAngle>();
  };
  auto detrend = [&](Eigen::Ref<Eigen::VectorXd> node, double q) {
    for (const ReducedModel::Part& part : parts)
      if (part.x >= 0 && part.advance != 0.0)
        node(part.x) -= part.advance * (q - q0) / span, node(P + part.x) -= part.advance / span;
  };
  auto sweep = [&](int n, const Eigen::MatrixXd* known) {
    Eigen::MatrixXd v(size, n + 1);
    nodes.workspace().reset_tracking();
    for (int k = 0; k <= n; ++k) {
      const double q = q0 + span * k / n;
      if (known && k % 2 == 0) {
        nodes.track(q);  // a known node: positions only, to keep the branch from node to node
        v.col(k) = known->col(k / 2);
        continue;
      }
      nodes.evaluate(q, v.col(k));
      if (known) detrend(v.col(k), q);
    }
    if (periodic && !known) {
      // An angle that turns with the driver changes by whole turns over the table's period:
      // its curve holds the angle less that steady advance (set by the first sweep).
      for (ReducedModel::Part& part : parts)
        if (part.x >= 0 && angle_kind(part))
          part.advance = 2.0 * M_PI * std::round((v(part.x, n) - v(part.x, 0)) / (2.0 * M_PI));
      for (int k = 0; k <= n; ++k) detrend(v.col(k), q0 + span * k / n);
    }
    if (periodic) {
      // After one turn the mechanism must be back in its assembly mode.
      const double scale = v.col(0).head(P).cwiseAbs().maxCoeff() + 1e-300;
      if ((v.col(n).head(P) - v.col(0).head(P)).cwiseAbs().maxCoeff() > 1e-6 * scale)
        throw TabulationError(
            "the mechanism does not come back to its assembly mode after one turn of the driver: the reduced "
            "method's periodic table does not close; use --method kane or full");
      v.col(n) = v.col(0);
    }
    return v;
  };
  auto bundle = [&](const Eigen::MatrixXd& v) {
    const Eigen::MatrixXd values = v.topRows(P);
    Eigen::MatrixXd all(P + (size - 2 * P), v.cols());
    all.topRows(P) = values;
    all.bottomRows(size - 2 * P) = v.bottomRows(size - 2 * P);
    return CurveBundle(q0, span, periodic, all, v.middleRows(P, P), P);
  };
  int n = options.intervals > 0 ? options.intervals : 32;
  Eigen::MatrixXd v = sweep(n, nullptr);
  double last_error = INFINITY;
  if (options.intervals > 0) {
    curves = bundle(v);
    return;
  }
  for (;;) {
    const CurveBundle coarse = bundle(v);
    const Eigen::MatrixXd fine = sweep(2 * n, &v);
    // The coarse interpolant against the new (midpoint) nodes, each curve against its size;
    // reaction coefficients against the largest of their row.
    const int curves_count = coarse.curves();
    Eigen::VectorXd scale = Eigen::VectorXd::Zero(curves_count);
    for (int c = 0; c < curves_count; ++c) scale(c) = fine.row(c < P ? c : 2 * P + (c - P)).cwiseAbs().maxCoeff();
    for (const ReducedModel::Part& part : parts)  // an angle's size includes its steady advance
      if (part.x >= 0) scale(part.x) = std::max(scale(part.x), std::abs(part.advance));
    if (friction) {
      // A reaction coefficient is measured against at least 1e-6 of its row (the sources' units
      // differ) and against its source's largest coefficient in any bearing times the rounding
      // level over the tolerance: the walk computes it to a few ulps of that column, so a
      // coefficient that is zero in exact arithmetic is its rounding and converges no further.
      const int rows = (curves_count - P) / std::max(sources, 1);
      Eigen::VectorXd column_size = Eigen::VectorXd::Zero(sources);
      for (int r = 0; r < rows; ++r) column_size = column_size.cwiseMax(scale.segment(P + r * sources, sources));
      const double rounding = 64.0 * std::numeric_limits<double>::epsilon() / tolerance;
      for (int r = 0; r < rows; ++r) {
        const double row_size = scale.segment(P + r * sources, sources).maxCoeff();
        for (int s = 0; s < sources; ++s)
          scale(P + r * sources + s) =
              std::max({scale(P + r * sources + s), 1e-6 * row_size, rounding * column_size(s)});
      }
    }
    // Slopes too (m' enters the equation of motion), against the larger of their own size and
    // their curve's size per radian (or metre) of q.
    Eigen::VectorXd slope_scale(P);
    for (int c = 0; c < P; ++c) slope_scale(c) = std::max(fine.row(P + c).cwiseAbs().maxCoeff(), scale(c));
    double error = 0.0, worst_q = q0;
    for (int k = 1; k < 2 * n; k += 2) {
      const CurveBundle::Where w{k / 2, 0.5};
      for (int c = 0; c < curves_count; ++c) {
        if (scale(c) == 0.0) continue;
        const double exact = fine(c < P ? c : 2 * P + (c - P), k);
        double e = std::abs(coarse.value(w, c) - exact) / scale(c);
        if (c < P) e = std::max(e, std::abs(coarse.slope(w, c) - fine(P + c, k)) / slope_scale(c));
        if (e > error) error = e, worst_q = q0 + span * k / (2 * n);
      }
    }
    v = fine;
    n *= 2;
    estimated_error = error / 256.0;
    const bool stalled = n >= 512 && error > 0.25 * last_error;  // halving h no longer divides the error
    if (error <= 16.0 * tolerance || (n >= options.max_intervals && !stalled)) break;
    if (stalled || n >= options.max_intervals) {
      estimated_error = error;
      // The nodes' rounding (amplified by 1/h in the slopes) is reached and more nodes would
      // not help; far above the tolerance, a tabulated quantity jumps or has a kink instead.
      if (estimated_error > std::max(1e3 * tolerance, 1e-8))
        throw TabulationError(fmt::format(
            "the reduced method's tables do not converge near {} = {:.9g} (estimated relative error {:.2g} with {} "
            "intervals): a reduced parameter or force jumps or has a kink there (a cam program's segment end, where "
            "the jerk jumps, or a load whose line of action is undefined, such as a spring or damper whose two points "
            "meet); use --method kane or full, or change the model",
            m.drivers()[0].name, worst_q, estimated_error, n));
      break;
    }
    last_error = error;
  }
  curves = bundle(v);
}

}  // namespace linkdyn::dynamics
