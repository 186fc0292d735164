// One variant of a study: its model, its analyses, its metrics (study::VariantEvaluator).
#include <fmt/format.h>

#include <cmath>
#include <limits>
#include <map>

#include "linkdyn/core/interrupt.hpp"
#include "linkdyn/dynamics/reduced.hpp"
#include "linkdyn/dynamics/simulate.hpp"
#include "linkdyn/flex/link.hpp"
#include "linkdyn/io/result_tables.hpp"
#include "linkdyn/planar/kinetostatics.hpp"
#include "linkdyn/planar/sweep.hpp"
#include "linkdyn/study/study.hpp"

namespace linkdyn::study {
namespace {

constexpr double nan = std::numeric_limits<double>::quiet_NaN();

/// A failed analysis, with the status it gives the variant.
struct VariantFailure {
  Status status;
  std::string reason;
};

/// The drivers' values at time t (their motion laws), for messages.
std::string drivers_at(const planar::Mechanism& m, double t) {
  std::vector<double> q;
  for (const planar::Driver& d : m.drivers()) q.push_back(planar::evaluate(d.law, t).q);
  return planar::driver_values(m, q);
}

/// A statistic of a column over its defined (finite) rows; NaN when none is.
double column_statistic(const Table& table, int column, io::StudyMetric::Statistic statistic) {
  double lo = INFINITY, hi = -INFINITY, sum = 0.0, squares = 0.0, largest = 0.0;
  int n = 0;
  for (size_t row = 0; row < table.rows(); ++row) {
    const double v = table.at(row, static_cast<size_t>(column));
    if (!std::isfinite(v)) continue;
    lo = std::min(lo, v), hi = std::max(hi, v), largest = std::max(largest, std::abs(v));
    sum += v, squares += v * v, ++n;
  }
  if (n == 0) return nan;
  switch (statistic) {
    case io::StudyMetric::Statistic::max: return hi;
    case io::StudyMetric::Statistic::min: return lo;
    case io::StudyMetric::Statistic::mean: return sum / n;
    case io::StudyMetric::Statistic::rms: return std::sqrt(squares / n);
    case io::StudyMetric::Statistic::range: return hi - lo;
    case io::StudyMetric::Statistic::max_abs: return largest;
    default: return nan;
  }
}

/// The column linearly interpolated where the driver column first reaches `at`; NaN if never.
double column_at(const Table& table, int column, int driver, double at) {
  for (size_t row = 0; row + 1 < table.rows(); ++row) {
    const double q0 = table.at(row, static_cast<size_t>(driver)), q1 = table.at(row + 1, static_cast<size_t>(driver));
    if (!((q0 - at) * (q1 - at) <= 0.0) || q0 == q1) continue;
    const double s = (at - q0) / (q1 - q0);
    return (1.0 - s) * table.at(row, static_cast<size_t>(column)) + s * table.at(row + 1, static_cast<size_t>(column));
  }
  const size_t last = table.rows() - 1;
  if (table.rows() > 0 && table.at(last, static_cast<size_t>(driver)) == at)
    return table.at(last, static_cast<size_t>(column));
  return nan;
}

}  // namespace

const char* status_name(Status status) {
  switch (status) {
    case Status::ok: return "ok";
    case Status::no_assembly: return "no_assembly";
    case Status::self_locking: return "self_locking";
    case Status::singular: return "singular";
    case Status::no_steady_regime: return "no_steady_regime";
    case Status::stalled: return "stalled";
    case Status::invalid: return "invalid";
    case Status::failed: return "failed";
  }
  return "failed";
}

struct VariantEvaluator::Impl {
  Impl(const io::Study& s, const io::ModelTemplate& model) : study(s), editor(model, entries(s)) {}

  static std::vector<io::ModelEntry> entries(const io::Study& s) {
    std::vector<io::ModelEntry> out;
    for (const io::StudyParameter& p : s.parameters) out.push_back(p.entry);
    return out;
  }

  /// Runs the study's analyses on the variant: its tables (in the order kinematics,
  /// kinetostatics, reduce, simulate, flex) and named values. A failure is returned, not thrown.
  std::optional<VariantFailure> analyse(std::span<const double> parameters) {
    tables.clear();
    values.clear();
    const io::StudyAnalyses& a = study.analyses;
    io::Model model = editor.model(parameters);
    const planar::Mechanism m = planar::compile(std::move(model.mechanism));
    driver_column = planar::driver_column(m.drivers()[0], 0);
    const planar::TimeGrid grid = planar::analysis_grid(m, a.steps);  // throws when it does not assemble at the start
    auto incomplete = [&](const planar::SweepSummary& sweep) -> std::optional<VariantFailure> {
      if (sweep.absent == 0 || !a.require_full_cycle) return std::nullopt;
      for (const planar::SweepEvent& e : sweep.events)
        if (e.kind == planar::SweepEvent::assembly_limit)
          return VariantFailure{Status::no_assembly, fmt::format("does not assemble over the whole motion: {} at {}",
                                                                 e.message, planar::driver_values(m, e.q))};
      return VariantFailure{Status::no_assembly,
                            fmt::format("does not assemble at {} of {} positions", sweep.absent, sweep.steps + 1)};
    };
    if (a.kinematics) {
      const planar::KinematicsResult r = planar::kinematics(m, grid);
      values["kinematics.full_turn"] = r.summary.absent == 0 ? 1.0 : 0.0;
      values["kinematics.absent_positions"] = r.summary.absent;
      if (auto failure = incomplete(r.summary)) return failure;
      tables.emplace_back("kinematics", io::kinematics_table(m, r));
    }
    if (a.kinetostatics) {
      planar::KinetostaticsOptions options;
      options.friction = a.friction;
      const planar::KinetostaticsResult r = planar::kinetostatics(m, grid, options);
      const planar::KinetostaticsSummary& s = r.summary;
      if (auto failure = incomplete(s.sweep)) return failure;
      if (s.flagged > 0) {
        Eigen::Index row = 0;
        while (row < r.rows() && !r.self_locking[static_cast<size_t>(row)]) ++row;
        return VariantFailure{Status::self_locking,
                              fmt::format("self-locks (the friction iterations do not converge) at {} position(s), "
                                          "first at {}",
                                          s.flagged, drivers_at(m, row < r.rows() ? r.t(row) : s.flagged_t.front()))};
      }
      if (!s.unbounded_t.empty())
        return VariantFailure{Status::singular,
                              fmt::format("the reactions grow without bound at a singular position at {}",
                                          drivers_at(m, s.unbounded_t.front()))};
      values["kinetostatics.driver_work"] = s.driver_work;
      values["kinetostatics.useful_work"] = s.useful_work;
      values["kinetostatics.friction_work"] = s.friction_work;
      values["kinetostatics.mean_driver_power"] = s.mean_driver_power;
      values["kinetostatics.cycle_efficiency"] =
          s.driver_work > 0.0
              ? (s.has_useful_loads ? s.useful_work / s.driver_work : 1.0 - s.friction_work / s.driver_work)
              : nan;
      tables.emplace_back("kinetostatics", io::kinetostatics_table(m, r));
    }
    if (a.reduce) {
      const dynamics::ReducedTable r =
          dynamics::tabulate_reduced_parameters(m, a.reduce_points, model.machine.constraint_actions);
      tables.emplace_back("reduce", dynamics::reduced_table(m, r));
    }
    if (a.simulate) {
      const dynamics::DynamicSystem system(m, model.machine);
      dynamics::SimulationOptions sim;
      sim.method = dynamics::method_named(a.method);
      sim.friction = a.friction;
      sim.t_end = sim.t0 + a.t_end;
      sim.steps = a.simulate_steps;
      if (a.steady) {
        dynamics::SteadyRegime s;
        try {
          s = dynamics::steady_regime(system, sim, planar::evaluate(m.drivers()[0].law, sim.t0).qd);
        } catch (const AnalysisError& e) {
          return VariantFailure{Status::no_steady_regime, e.what()};
        }
        values["steady.fluctuation"] = s.fluctuation;
        values["steady.mean_speed"] = s.mean_speed;
        values["steady.period"] = s.period;
        values["steady.speed_min"] = s.qd_min;
        values["steady.speed_max"] = s.qd_max;
        sim.qd0 = s.qd0;
        sim.current0 = s.current0;
        sim.t_end = sim.t0 + a.cycles * s.period;
      }
      dynamics::SimulationResult r;
      try {
        r = dynamics::simulate(system, sim);
      } catch (const AnalysisError& e) {
        return VariantFailure{Status::stalled, e.what()};
      }
      const Eigen::Index last = r.t.size() - 1;
      values["simulate.energy_lost"] = last >= 0 ? r.energy.friction_loss(last) : nan;
      values["simulate.energy_residual"] = last >= 0 ? r.energy.residual.cwiseAbs().maxCoeff() : nan;
      tables.emplace_back("simulate", io::simulation_table(system, r));
    }
    if (a.flex) {
      const std::vector<flex::ElasticLink> links = flex::require_elastic_links(m, model.elastic_links);
      planar::KinetostaticsOptions kinetostatics;
      kinetostatics.friction = a.friction;
      const flex::CycleOptions cycle{a.modes, true, kinetostatics};
      tables.emplace_back("flex", io::eigen_cycle_table(m, links, flex::eigen_cycle(m, links, grid, cycle)));
    }
    return std::nullopt;
  }

  /// The table holding `column` ("analysis:column" names the table), and the column's index.
  [[nodiscard]] std::pair<const Table*, int> find(const std::string& name) const {
    const size_t colon = name.find(':');
    const std::string analysis = colon == std::string::npos ? std::string() : name.substr(0, colon);
    const std::string column = colon == std::string::npos ? name : name.substr(colon + 1);
    for (const auto& [label, table] : tables) {
      if (!analysis.empty() && label != analysis) continue;
      if (const int k = table.column(column); k >= 0) return {&table, k};
    }
    return {nullptr, -1};
  }

  [[nodiscard]] double metric(const io::StudyMetric& metric) const {
    double value = nan;
    if (metric.statistic == io::StudyMetric::Statistic::value) {
      const auto it = values.find(metric.value);
      value = it == values.end() ? nan : it->second;
    } else if (const auto [table, column] = find(metric.column); table) {
      value = metric.statistic == io::StudyMetric::Statistic::at
                  ? (driver_of(*table) >= 0 ? column_at(*table, column, driver_of(*table), metric.at) : nan)
                  : column_statistic(*table, column, metric.statistic);
    }
    return value / metric.unit_size;
  }

  /// The first driver's column of a table (the reduced parameters' is q), or -1.
  [[nodiscard]] int driver_of(const Table& table) const {
    const int k = table.column(driver_column);
    return k >= 0 ? k : table.column("q");
  }

  /// Why a metric cannot be taken from the last evaluation's outputs (empty: it can), with the
  /// nearest name that exists.
  [[nodiscard]] std::pair<std::string, std::string> problem(const io::StudyMetric& metric) const {
    std::vector<std::string> names;
    if (metric.statistic == io::StudyMetric::Statistic::value) {
      if (values.contains(metric.value)) return {};
      for (const auto& [name, v] : values) names.push_back(name);
      return {"the analyses of the study give no value '" + metric.value + "'", nearest_name(metric.value, names)};
    }
    const auto [table, column] = find(metric.column);
    if (!table) {
      const std::string prefix = metric.column.substr(0, metric.column.find(':'));
      for (const auto& [label, t] : tables)
        if (metric.column.find(':') == std::string::npos || label == prefix)
          for (const std::string& c : t.columns) names.push_back(c);
      const std::string bare = metric.column.substr(metric.column.find(':') + 1);
      return {"the analyses of the study make no column '" + metric.column + "'", nearest_name(bare, names)};
    }
    if (metric.statistic == io::StudyMetric::Statistic::at && driver_of(*table) < 0)
      return {"the table with '" + metric.column + "' has no column of the first driver to take it at", ""};
    return {};
  }

  const io::Study& study;
  io::ModelEditor editor;
  std::vector<std::pair<std::string, Table>> tables;
  std::map<std::string, double> values;
  std::string driver_column;
};

VariantEvaluator::VariantEvaluator(const io::Study& study, const io::ModelTemplate& model)
    : impl_(std::make_unique<Impl>(study, model)) {}

VariantEvaluator::~VariantEvaluator() = default;

Variant VariantEvaluator::evaluate(std::span<const double> parameters) {
  Variant v;
  v.parameters.assign(parameters.begin(), parameters.end());
  v.metrics.assign(impl_->study.metrics.size(), nan);
  try {
    if (const std::optional<VariantFailure> failure = impl_->analyse(parameters)) {
      v.status = failure->status;
      v.reason = failure->reason;
      return v;
    }
    for (size_t k = 0; k < v.metrics.size(); ++k) v.metrics[k] = impl_->metric(impl_->study.metrics[k]);
  } catch (const InputError& e) {
    v.status = Status::invalid;
    v.reason = e.what();
  } catch (const AnalysisError& e) {
    const std::string what = e.what();
    v.status = what.find("assemble") != std::string::npos   ? Status::no_assembly
               : what.find("singular") != std::string::npos ? Status::singular
                                                            : Status::failed;
    v.reason = what;
  } catch (const Interrupted&) {
    throw;  // the run stops: not a property of this variant
  } catch (const std::exception& e) {
    v.status = Status::failed;
    v.reason = e.what();
  }
  if (v.status != Status::ok) v.metrics.assign(v.metrics.size(), nan);
  return v;
}

void VariantEvaluator::check_metrics(std::span<const double> nominal) {
  const Variant v = evaluate(nominal);
  const io::Study& study = impl_->study;
  if (v.status != Status::ok)
    throw AnalysisError(fmt::format("{}: the nominal design of {} cannot be analysed ({}): {}", study.file,
                                    study.model_file, status_name(v.status), v.reason));
  for (size_t k = 0; k < study.metrics.size(); ++k) {
    const io::StudyMetric& metric = study.metrics[k];
    const std::string entity = "metric '" + metric.name + "'";
    if (const auto [what, near] = impl_->problem(metric); !what.empty())
      throw InputError(metric.where, entity, what,
                       near.empty() ? "see the columns of the analysis' CSV file (linkdyn kinematics MODEL --csv F) "
                                      "or the named values in docs/studies.md"
                                    : "did you mean '" + near + "'?");
    if (!std::isfinite(v.metrics[k]))
      throw InputError(metric.where, entity,
                       "is not defined for the nominal design (a column with no value, a "
                       "driver value the motion never reaches, an efficiency without "
                       "driving work)",
                       "choose another statistic, value or driver value");
  }
}

void check_metrics(const io::Study& study, const io::ModelTemplate& model) {
  VariantEvaluator(study, model).check_metrics(nominal(study));
}

std::vector<double> nominal(const io::Study& study) {
  std::vector<double> x;
  for (const io::StudyParameter& p : study.parameters) {
    if (p.entry.present)
      x.push_back(p.entry.value);
    else if (const auto* grid = std::get_if<io::GridValues>(&p.law))
      x.push_back(grid->values.front());  // an entry the model does not write
    else if (const auto* normal = std::get_if<io::NormalLaw>(&p.law))
      x.push_back(normal->mean);
    else
      x.push_back(0.5 * (p.lower + p.upper));
  }
  return x;
}

}  // namespace linkdyn::study
