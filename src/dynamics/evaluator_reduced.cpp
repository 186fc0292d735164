// The reduced method's right-hand side [003 Eq. 2] from the tabulated reduced model, with the
// pairs' Coulomb friction solved from the tabulated reactions.
#include <fmt/format.h>

#include <cmath>

#include "dynamics/evaluator.hpp"
#include "linkdyn/dynamics/reduced_model.hpp"
#include "linkdyn/planar/friction.hpp"
#include "linkdyn/planar/loads.hpp"

namespace linkdyn::dynamics {
namespace {

/// The model for these options, built once per system (and per table settings).
std::shared_ptr<const ReducedModel> reduced_model(const DynamicSystem& s, const SimulationOptions& o) {
  ReducedModelOptions mo;
  mo.tolerance = o.table_tolerance > 0.0 ? o.table_tolerance : std::max(o.rel_tol / 10.0, 1e-14);
  mo.intervals = o.table_points;
  mo.friction = o.friction;
  std::lock_guard<std::mutex> lock(*s.cache_mutex);
  const auto& c = s.reduced_cache;
  if (!c || c->options.tolerance != mo.tolerance || c->options.intervals != mo.intervals ||
      c->options.friction != mo.friction)
    s.reduced_cache = std::make_shared<const ReducedModel>(s, mo);
  return s.reduced_cache;
}

class ReducedEvaluator final : public Evaluator {
 public:
  ReducedEvaluator(const DynamicSystem& s, const SimulationOptions& o) : Evaluator(s, o), model_(reduced_model(s, o)) {
    const size_t ne = sys_.coulomb.size(), na = sys_.machine.actuators.size();
    coefficient_.assign(ne, 0.0);
    load_.assign(ne, 0.0);
    magnitude_.assign(model_->parts.size(), 0.0);
    bearing_effort_.assign(ne, 0.0);
    const int rows = model_->friction ? count_rows() : 0;
    R_.setZero(rows);
    R0_.setZero(rows);
    C_.setZero(rows, model_->sources);
    reaction_values_.setZero(rows * model_->sources);
    rest_.actuator.assign(na, 0.0), rest_.actuator_speed.assign(na, 0.0), rest_.coulomb.assign(ne, 0.0);
    rest_.current_rate.assign(sys_.motors.size(), 0.0);
  }
  void report(SimulationResult& r) const override {
    r.table_points = model_->curves.intervals();
    r.table_error = model_->estimated_error;
  }

  void check(const double* y) const override { (void)model_->curves.locate(y[0]); }  // throws outside the range

  void speeds(double t, const double* y, Speeds& s) override {
    const CurveBundle::Where w = model_->curves.locate(y[0], true);
    const double qd = y[1];
    for (size_t k = 0; k < sys_.coulomb.size(); ++k)
      s.coulomb[k] = model_->curves.value(w, model_->element_curve[k]) * qd;
    for (size_t a = 0; a < sys_.machine.actuators.size(); ++a) {
      s.actuator[a] = model_->curves.value(w, model_->actuator_curve[a]) * qd;
      s.when[a] = model_->when_curve[a] >= 0 ? model_->curves.value(w, model_->when_curve[a]) * qd : 0.0;
    }
    const auto& loads = m_.spec().loads;
    for (const ReducedModel::Part& part : model_->parts) {
      const planar::Load& load = loads[part.load];
      if (!load.table) continue;
      s.table[part.load] = planar::table_coordinate(load, coordinate(w, t, y, part, load.parts[part.part].magnitude));
    }
  }

  void evaluate(double t, const double* y, const Branches& b, Evaluation& e) override {
    ++evaluations;
    const CurveBundle& c = model_->curves;
    const double q = y[0], qd = y[1];
    const CurveBundle::Where w = c.locate(q, true);
    const double m = c.value(w, 0), dm = c.slope(w, 0);
    // [003 Eq. 2]: m qdd = F - m'/2 qd^2, F the reduced force of every load, actuator and
    // Coulomb effort [003 Eqs. 7-9].
    double F = c.value(w, 1);
    std::fill(e.load_power.begin(), e.load_power.end(), 0.0);
    const auto& loads = m_.spec().loads;
    for (size_t p = 0; p < model_->parts.size(); ++p) {
      const ReducedModel::Part& part = model_->parts[p];
      const planar::Load& load = loads[part.load];
      const planar::Magnitude& mag = load.parts[part.part].magnitude;
      const double g = c.value(w, part.g);
      magnitude_[p] = planar::magnitude_at(load, mag, coordinate(w, t, y, part, mag), b.segment[part.load]);
      F += magnitude_[p] * g;
      e.load_power[part.load] += magnitude_[p] * g * qd;
    }
    const size_t na = sys_.machine.actuators.size();
    for (size_t a = 0; a < na; ++a) e.actuator_speed[a] = c.value(w, model_->actuator_curve[a]) * qd;
    actuator_efforts(y, b, e);
    for (size_t k = 0; k < sys_.coulomb.size(); ++k) {
      coefficient_[k] = c.value(w, model_->element_curve[k]);
      e.coulomb_speed[k] = coefficient_[k] * qd;
      e.coulomb[k] = 0.0;
    }
    for (size_t a = 0; a < na; ++a) F += e.actuator[a] * c.value(w, model_->actuator_curve[a]);  // smooth parts
    if (b.stuck) {
      // Held at rest: the static efforts balance the drive.
      double drive = 0.0, capacity = 0.0;
      holding_at(w, t, y, b, drive, capacity);
      holding_efforts(drive, load_, coefficient_, e);
      e.qdd[0] = 0.0;
      return;
    }
    resistance_efforts(b, e);
    for (size_t k = 0; k < sys_.coulomb.size(); ++k)
      if (!sys_.coulomb[k].pair_friction()) F += e.coulomb[k] * coefficient_[k];
    if (!model_->friction || !o_.friction) {
      e.qdd[0] = (F - 0.5 * dm * qd * qd) / m;
      return;
    }
    // Pair friction by successive approximations [001 Eqs. 12-13] on the tabulated reactions,
    // which are linear in (qdd, qd^2, loads, actuators, Coulomb efforts).
    load_reaction_coefficients(w);
    base_reactions(qd, e);
    FrictionIteration iteration(friction_tolerance_);
    double change = INFINITY;
    do {
      double Ff = F;
      for (size_t k = 0; k < sys_.coulomb.size(); ++k)
        if (sys_.coulomb[k].pair_friction()) Ff += bearing_effort_[k] * coefficient_[k];
      e.qdd[0] = (Ff - 0.5 * dm * qd * qd) / m;
      R_ = R0_ + C_.col(0) * e.qdd[0];
      for (size_t k = 0; k < sys_.coulomb.size(); ++k)
        if (sys_.coulomb[k].pair_friction())
          R_ += C_.col(model_->source_element0 + static_cast<int>(k)) * bearing_effort_[k];
      change = 0.0;
      for (size_t k = 0; k < sys_.coulomb.size(); ++k) {
        if (!sys_.coulomb[k].pair_friction()) continue;
        const double effort = -b.coulomb[k] * sys_.coulomb[k].kinetic * bearing_load(k, b.normal[k], e.normal[k]);
        change = std::max(change, std::abs(effort - bearing_effort_[k]));
        bearing_effort_[k] = effort;
      }
    } while (!iteration.done(change, scale_of_efforts()));
    e.iterations = iteration.iterations;
    for (size_t k = 0; k < sys_.coulomb.size(); ++k)
      if (sys_.coulomb[k].pair_friction()) e.coulomb[k] = bearing_effort_[k];
  }

  void holding(double t, const double* y, const Branches& b, double& drive, double& capacity,
               std::vector<double>& coefficients) override {
    const CurveBundle::Where w = model_->curves.locate(y[0]);
    for (size_t k = 0; k < sys_.coulomb.size(); ++k)
      coefficient_[k] = model_->curves.value(w, model_->element_curve[k]);
    holding_at(w, t, y, b, drive, capacity);
    coefficients = coefficient_;
  }

 private:
  /// A part's coordinate at q (its tabulated curve, time, or the driver coordinate itself).
  planar::CoordinateValue coordinate(const CurveBundle::Where& w, double t, const double* y,
                                     const ReducedModel::Part& part, const planar::Magnitude& mag) const {
    if (part.x >= 0) {
      const CurveBundle& c = model_->curves;
      const double turns = part.advance / c.span();  // an angle turning with the driver, unwrapped
      return {c.value(w, part.x) + turns * (y[0] - c.q0()), (c.slope(w, part.x) + turns) * y[1], 0.0};
    }
    if (mag.coordinate()->is<planar::Coordinate::Time>()) return {t, 1.0, 0.0};
    return {y[0], y[1], 0.0};
  }
  [[nodiscard]] int count_rows() const {
    int rows = 0;
    for (int r : model_->reaction_rows) rows += r;
    return rows;
  }
  [[nodiscard]] double scale_of_efforts() const {
    double s = 0.0;
    for (double v : bearing_effort_) s = std::max(s, std::abs(v));
    return s;
  }
  /// C_ (rows x sources) at the interval.
  void load_reaction_coefficients(const CurveBundle::Where& w) {
    const int S = model_->sources;
    // Row r's coefficients are curves reaction_curve0 + r S + s: C_ transposed, column-major.
    model_->curves.values(w, model_->reaction_curve0, static_cast<int>(C_.rows()) * S, reaction_values_);
    C_ = Eigen::Map<const Eigen::MatrixXd>(reaction_values_.data(), S, C_.rows()).transpose();
  }
  /// The reactions of everything but qdd and the bearings' efforts.
  void base_reactions(double qd, const Evaluation& e) {
    R0_ = C_.col(1) * (qd * qd) + C_.col(2);
    for (size_t p = 0; p < model_->parts.size(); ++p)
      R0_ += C_.col(model_->source_part0 + static_cast<int>(p)) * magnitude_[p];
    for (size_t a = 0; a < sys_.machine.actuators.size(); ++a) {
      double smooth = e.actuator[a];
      for (size_t k = 0; k < sys_.coulomb.size(); ++k)
        if (sys_.coulomb[k].actuator() == static_cast<int>(a)) smooth -= e.coulomb[k];
      R0_ += C_.col(model_->source_actuator0 + static_cast<int>(a)) * smooth;
    }
    for (size_t k = 0; k < sys_.coulomb.size(); ++k)
      if (!sys_.coulomb[k].pair_friction()) R0_ += C_.col(model_->source_element0 + static_cast<int>(k)) * e.coulomb[k];
  }
  /// A bearing's load from R_: r |F|, or a prismatic pair's N_p with its normal loads' signs
  /// held; the signed normal loads into `normals`.
  double bearing_load(size_t k, const std::array<double, 2>& held, std::array<double, 2>& normals) const {
    const planar::Bearing& b = m_.bearings()[std::get<PairFriction>(sys_.coulomb[k].site).bearing];
    const int row = model_->reaction_row0[k];
    normals = {0.0, 0.0};
    if (const auto* contact = std::get_if<planar::Bearing::Contact>(&b.kind))
      return planar::contact_load(m_.joints()[contact->joint], R_(row), b);
    const auto* slide = std::get_if<planar::Bearing::Prismatic>(&b.kind);
    if (!slide) return planar::bearing_radius(b) * std::sqrt(R_(row) * R_(row) + R_(row + 1) * R_(row + 1));
    double n[2] = {0.0, 0.0};
    const int count =
        planar::slider_normals(m_.joints()[slide->joint], R_(row), model_->reaction_rows[k] > 1 ? R_(row + 1) : 0.0, n);
    normals = {n[0], n[1]};
    return held_normal_load(count, n, held);
  }
  /// At rest (qd = 0, qdd = 0): the drive and the static capacity against it, with the loads of
  /// the elements in load_.
  void holding_at(const CurveBundle::Where& w, double t, const double* y, const Branches& b, double& drive,
                  double& capacity) {
    const CurveBundle& c = model_->curves;
    Evaluation& e = rest_;  // at rest: every speed 0
    const size_t na = sys_.machine.actuators.size(), ne = sys_.coulomb.size();
    std::fill(e.coulomb.begin(), e.coulomb.end(), 0.0);
    drive = c.value(w, 1);
    const auto& loads = m_.spec().loads;
    for (size_t p = 0; p < model_->parts.size(); ++p) {
      const ReducedModel::Part& part = model_->parts[p];
      const planar::Load& load = loads[part.load];
      const planar::Magnitude& mag = load.parts[part.part].magnitude;
      planar::CoordinateValue x = coordinate(w, t, y, part, mag);
      if (!mag.coordinate()->is<planar::Coordinate::Time>()) x.rate = 0.0;  // at rest
      magnitude_[p] = planar::magnitude_at(load, mag, x, b.segment[part.load]);
      drive += magnitude_[p] * c.value(w, part.g);
    }
    actuator_efforts(y, b, e);
    for (size_t a = 0; a < na; ++a) drive += e.actuator[a] * c.value(w, model_->actuator_curve[a]);
    // Static friction against motion in the drive's direction d: M_k = -d sgn(c_k) mu_s load_k,
    // the bearings' loads from the reactions this friction adds (successive approximations).
    const double d = drive >= 0.0 ? 1.0 : -1.0;
    for (size_t k = 0; k < ne; ++k) {
      const CoulombElement& el = sys_.coulomb[k];
      load_[k] = 1.0;
      if (!el.pair_friction())
        e.coulomb[k] = -d * (coefficient_[k] > 0 ? 1.0 : (coefficient_[k] < 0 ? -1.0 : 0.0)) * static_limit(el);
    }
    if (model_->friction && o_.friction) {
      load_reaction_coefficients(w);
      base_reactions(0.0, e);
      std::fill(bearing_effort_.begin(), bearing_effort_.end(), 0.0);
      FrictionIteration iteration(friction_tolerance_);
      for (;;) {
        R_ = R0_;
        for (size_t k = 0; k < ne; ++k)
          if (sys_.coulomb[k].pair_friction())
            R_ += C_.col(model_->source_element0 + static_cast<int>(k)) * bearing_effort_[k];
        double change = 0.0;
        for (size_t k = 0; k < ne; ++k) {
          if (!sys_.coulomb[k].pair_friction()) continue;
          load_[k] = bearing_load(k, unheld_, normals_);
          const double sgn = coefficient_[k] > 0 ? 1.0 : (coefficient_[k] < 0 ? -1.0 : 0.0);
          const double effort = -d * sgn * sys_.coulomb[k].static_limit * load_[k];
          change = std::max(change, std::abs(effort - bearing_effort_[k]));
          bearing_effort_[k] = effort;
        }
        if (iteration.done(change, scale_of_efforts())) break;
      }
    } else {
      for (size_t k = 0; k < ne; ++k)
        if (sys_.coulomb[k].pair_friction()) load_[k] = 0.0;
    }
    capacity = 0.0;
    for (size_t k = 0; k < ne; ++k) {
      const CoulombElement& el = sys_.coulomb[k];
      const double limit = static_limit(el);
      capacity += limit * load_[k] * std::abs(coefficient_[k]);
    }
  }

  std::shared_ptr<const ReducedModel> model_;
  std::vector<double> coefficient_, load_, magnitude_, bearing_effort_;
  Eigen::VectorXd R_, R0_;
  Eigen::MatrixXd C_;
  Eigen::VectorXd reaction_values_;  ///< C_ row by row, as the curves hold it
  Evaluation rest_;
  const std::array<double, 2> unheld_{0.0, 0.0};
  std::array<double, 2> normals_{0.0, 0.0};
};

}  // namespace

std::unique_ptr<Evaluator> make_reduced_evaluator(const DynamicSystem& system, const SimulationOptions& options) {
  return std::make_unique<ReducedEvaluator>(system, options);
}

}  // namespace linkdyn::dynamics
