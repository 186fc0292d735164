// Optimisation runs through NLopt (study::optimise).
#include "study/optimise.hpp"

#include <fmt/format.h>
#include <nlopt.hpp>

#include <cmath>
#include <limits>

#include "linkdyn/core/interrupt.hpp"

namespace linkdyn::study {
namespace {

constexpr double failed_objective = 1e6;  ///< a design that cannot be analysed: worse than any
constexpr double feasibility_tolerance = 1e-6;

/// Constraint values of a variant, each <= 0 when met, scaled by the bound.
void constraint_values(const io::Study& study, const RunGoal& goal, const Variant& v,
                       const std::optional<std::vector<double>>& f, std::vector<double>& c) {
  c.clear();
  for (const io::StudyConstraint& k : study.constraints) {
    const double value = v.status == Status::ok ? v.metrics[static_cast<size_t>(k.metric)] : std::nan("");
    auto scaled = [&](double excess, double bound) {
      return std::isfinite(value) ? excess / (bound != 0.0 ? std::abs(bound) : 1.0) : 1.0;
    };
    if (k.min) c.push_back(scaled(*k.min - value, *k.min));
    if (k.max) c.push_back(scaled(value - *k.max, *k.max));
  }
  if (goal.epsilon) {
    const double scale = *goal.epsilon != 0.0 ? std::abs(*goal.epsilon) : 1.0;
    c.push_back(f ? ((*f)[1] - *goal.epsilon) / scale : 1.0);
  }
}

bool meets(const std::vector<double>& c) {
  return std::all_of(c.begin(), c.end(), [](double ck) { return ck <= feasibility_tolerance; });
}

nlopt::algorithm algorithm(const std::string& name, const io::Study& study) {
  const nlopt_algorithm a = nlopt_algorithm_from_string(name.c_str());
  if (static_cast<int>(a) < 0)
    throw InputError(study.optimiser.where, "optimiser", "'" + name + "' is not an NLopt algorithm",
                     "write GN_ISRES, GN_DIRECT_L, GN_CRS2_LM, LN_COBYLA, LN_BOBYQA, LN_NELDERMEAD, ... or none");
  return static_cast<nlopt::algorithm>(a);
}

/// The state NLopt's callbacks share: the last point (objective and constraints are asked at
/// the same point one after the other: one evaluation).
struct Problem {
  const io::Study& study;
  const RunGoal& goal;
  const Evaluate& evaluate;
  std::vector<Variant>& history;
  int phase = 0;
  bool penalty = false;  ///< the method takes no constraints: they are a penalty in the objective
  bool scaled = false;   ///< the objectives' scales are set
  std::vector<double> scale;
  std::vector<double> last_u, x, c;
  std::optional<double> last_value;  ///< the last point's weighted objective, if it was analysed
  double worst = 0.0;                ///< the largest objective value seen, penalties included

  void at(const double* u) {
    const size_t n = study.parameters.size();
    if (!last_u.empty() && std::equal(u, u + n, last_u.begin())) return;
    last_u.assign(u, u + n);
    x.resize(n);
    for (size_t j = 0; j < n; ++j) {
      const io::StudyParameter& p = study.parameters[j];
      x[j] = std::clamp(p.lower + u[j] * (p.upper - p.lower), p.lower, p.upper);
    }
    Variant v = evaluate(x);
    v.run = goal.run;
    v.phase = phase;
    const std::optional<std::vector<double>> f = objective_values(study, v);
    if (scale.empty()) scale = goal.scale;
    if (f && !scaled) {  // the first design analysed (the start, as a rule) sets the scales left open
      for (size_t k = 0; k < scale.size(); ++k)
        if (!(scale[k] > 0.0)) scale[k] = std::abs((*f)[k]) > 0.0 ? std::abs((*f)[k]) : 1.0;
      scaled = true;
    }
    constraint_values(study, goal, v, f, c);
    last_value.reset();
    if (f) {
      last_value = 0.0;
      for (size_t k = 0; k < f->size(); ++k) *last_value += goal.weight[k] * ((*f)[k] - goal.offset[k]) / scale[k];
    }
    history.push_back(std::move(v));
  }

  /// The objective NLopt sees at the last point: penalised when the method takes no
  /// constraints (recomputed at each call: a point cached before the switch is penalised too);
  /// a design that cannot be analysed is worse than every one seen.
  double objective_value() {
    if (!last_value) return std::max(failed_objective, 2.0 * std::abs(worst) + 1.0);
    double value = *last_value;
    if (penalty)
      for (double ck : c) value += ck > 0.0 ? 1e3 * (ck + ck * ck) : 0.0;
    worst = std::max(worst, value);
    return value;
  }
};

double objective(unsigned, const double* u, double*, void* data) {
  auto& p = *static_cast<Problem*>(data);
  p.at(u);
  return p.objective_value();
}

double constraint(unsigned, const double* u, double*, void* data) {
  auto& [p, k] = *static_cast<std::pair<Problem*, size_t>*>(data);
  p->at(u);
  return p->c[k];
}

void run_phase(Problem& problem, nlopt::algorithm method, int evaluations, double tolerance, std::vector<double>& u) {
  const size_t n = u.size();
  nlopt::opt opt(method, static_cast<unsigned>(n));
  opt.set_lower_bounds(std::vector<double>(n, 0.0));
  opt.set_upper_bounds(std::vector<double>(n, 1.0));
  opt.set_min_objective(objective, &problem);
  opt.set_maxeval(evaluations);
  if (problem.phase == 1) {
    opt.set_xtol_rel(tolerance);
    opt.set_initial_step(0.1);
  }
  size_t constraints = problem.goal.epsilon ? 1 : 0;  // one per bound, as constraint_values lists them
  for (const io::StudyConstraint& k : problem.study.constraints) constraints += (k.min ? 1 : 0) + (k.max ? 1 : 0);
  std::vector<std::pair<Problem*, size_t>> data;
  data.reserve(constraints);
  problem.penalty = false;
  try {
    for (size_t k = 0; k < constraints; ++k) {
      data.emplace_back(&problem, k);
      opt.add_inequality_constraint(constraint, &data.back(), 0.0);
    }
  } catch (const std::invalid_argument&) {
    problem.penalty = true;  // e.g. GN_DIRECT_L, LN_BOBYQA: constraints become a penalty
    opt.remove_inequality_constraints();
  }
  double value = 0.0;
  try {
    opt.optimize(u, value);
  } catch (const nlopt::roundoff_limited&) {  // the best point so far stands
  } catch (const nlopt::forced_stop&) {
  } catch (const std::invalid_argument& e) {
    throw InputError(problem.study.optimiser.where, "optimiser",
                     fmt::format("NLopt refuses the settings: {}", e.what()), "see docs/studies.md");
  } catch (const Interrupted&) {
    throw;
  } catch (const std::runtime_error&) {  // NLOPT_FAILURE (a degenerate local model): the best point so far stands
  }
}

/// The best of history[from, end): feasible first, then by objective.
size_t best_of(const io::Study& study, const RunGoal& goal, const std::vector<Variant>& history, size_t from,
               const std::vector<double>& scale) {
  size_t best = from;
  double best_value = INFINITY;
  bool best_feasible = false;
  for (size_t i = from; i < history.size(); ++i) {
    const auto f = objective_values(study, history[i]);
    if (!f) continue;
    std::vector<double> c;
    constraint_values(study, goal, history[i], f, c);
    const bool ok = meets(c);
    double value = 0.0;
    for (size_t k = 0; k < f->size(); ++k) value += goal.weight[k] * ((*f)[k] - goal.offset[k]) / scale[k];
    if (!ok) {
      value = 0.0;  // the least violation among infeasible designs
      for (double ck : c) value += std::max(ck, 0.0);
    }
    if ((ok && !best_feasible) || (ok == best_feasible && value < best_value)) {
      best = i, best_value = value, best_feasible = ok;
    }
  }
  return best;
}

}  // namespace

std::optional<std::vector<double>> objective_values(const io::Study& study, const Variant& v) {
  if (v.status != Status::ok) return std::nullopt;
  std::vector<double> f;
  for (const io::StudyObjective& o : study.objectives) {
    const double value = v.metrics[static_cast<size_t>(o.metric)];
    if (!std::isfinite(value)) return std::nullopt;
    f.push_back(o.maximise ? -value : value);
  }
  return f;
}

bool feasible(const io::Study& study, const RunGoal& goal, const Variant& v) {
  const auto f = objective_values(study, v);
  std::vector<double> c;
  constraint_values(study, goal, v, f, c);
  return f && meets(c);
}

void check_optimiser(const io::Study& study) {
  for (const std::string& name : {study.optimiser.global, study.optimiser.local})
    if (name != "none") algorithm(name, study);
}

std::pair<size_t, bool> optimise(const io::Study& study, const RunGoal& goal, const Evaluate& evaluate,
                                 std::vector<Variant>& history) {
  const size_t first = history.size();
  const size_t n = study.parameters.size();
  std::vector<double> u(n);
  const std::vector<double> model_values = nominal(study);
  for (size_t j = 0; j < n; ++j) {
    const io::StudyParameter& p = study.parameters[j];
    const double start = std::clamp(p.start.value_or(model_values[j]), p.lower, p.upper);
    u[j] = (start - p.lower) / (p.upper - p.lower);
  }
  Problem problem{study, goal, evaluate, history, 0, false, false, {}, {}, {}, {}, std::nullopt, 0.0};
  problem.at(u.data());  // the start: sets the scales
  const io::OptimiserSettings& o = study.optimiser;
  if (o.global != "none" && o.global_evaluations > 0) {
    nlopt::srand(study.seed + static_cast<unsigned long>(goal.run));  // per thread: the same run, the same path
    run_phase(problem, algorithm(o.global, study), o.global_evaluations, o.tolerance, u);
  }
  if (o.local != "none" && o.local_evaluations > 0) {
    const Variant& from = history[best_of(study, goal, history, first, problem.scale)];
    for (size_t j = 0; j < n; ++j) {
      const io::StudyParameter& p = study.parameters[j];
      u[j] = std::clamp((from.parameters[j] - p.lower) / (p.upper - p.lower), 0.0, 1.0);
    }
    problem.phase = 1;
    run_phase(problem, algorithm(o.local, study), o.local_evaluations, o.tolerance, u);
  }
  const size_t best = best_of(study, goal, history, first, problem.scale);
  return {best, feasible(study, goal, history[best])};
}

}  // namespace linkdyn::study
