// A study from start to end (study::run_study): its variants on the executor, then its
// statistics or its optima.
#include <fmt/format.h>

#include <cmath>

#include "study/evaluations.hpp"
#include "study/optimise.hpp"

namespace linkdyn::study {
namespace {

/// Runs the tasks on the executor through the journal: the variants of every task, in order.
std::vector<Variant> run_tasks(Executor& executor, Evaluations& evaluations, size_t tasks, const TaskFunction& task,
                               bool share = false) {
  std::vector<std::vector<Variant>> per_task =
      executor.run(tasks, task, [&](size_t, const std::vector<Variant>& variants, bool remote) {
        if (remote) evaluations.record(variants);
      });
  if (share) executor.share(per_task);
  std::vector<Variant> out;
  for (std::vector<Variant>& variants : per_task)
    for (Variant& v : variants) out.push_back(std::move(v));
  return out;
}

void count_statuses(StudyResult& result) {
  result.status_counts.assign(status_count, 0);
  for (const Variant& v : result.variants) ++result.status_counts[static_cast<size_t>(v.status)];
}

void summarise_design(const io::Study& study, StudyResult& result) {
  count_statuses(result);
  const bool sampled = study.kind == io::StudyKind::monte_carlo || study.design == io::SweepDesign::latin_hypercube;
  std::vector<std::vector<double>> x;
  for (const Variant& v : result.variants) x.push_back(v.parameters);
  std::vector<double> y(result.variants.size());
  for (size_t k = 0; k < study.metrics.size(); ++k) {
    for (size_t i = 0; i < y.size(); ++i) y[i] = result.variants[i].metrics[k];
    result.summaries.push_back(summarize(y, study.percentiles, study.confidence));
    if (sampled) result.sensitivities.push_back(sensitivity(x, y));
  }
}

/// Two objectives: the non-dominated run optima, by the first objective; the chosen design is
/// the one nearest the utopia point in objectives scaled by the front's extent.
void pareto_front(const io::Study& study, StudyResult& result) {
  std::vector<std::pair<size_t, std::vector<double>>> optima;
  for (const OptimumRun& r : result.runs)
    if (r.feasible) optima.emplace_back(r.best, *objective_values(study, result.variants[r.best]));
  for (const auto& optimum : optima) {  // (not a structured binding: clang 14 cannot capture one)
    const size_t i = optimum.first;
    const std::vector<double>& f = optimum.second;
    const bool dominated = std::any_of(optima.begin(), optima.end(), [&](const auto& other) {
      const auto& g = other.second;
      return g[0] <= f[0] && g[1] <= f[1] && (g[0] < f[0] || g[1] < f[1]);
    });
    const bool repeated = std::any_of(result.pareto.begin(), result.pareto.end(),
                                      [&](size_t j) { return *objective_values(study, result.variants[j]) == f; });
    if (!dominated && !repeated) result.pareto.push_back(i);
  }
  std::sort(result.pareto.begin(), result.pareto.end(), [&](size_t a, size_t b) {
    return (*objective_values(study, result.variants[a]))[0] < (*objective_values(study, result.variants[b]))[0];
  });
  if (result.pareto.empty()) return;
  std::vector<double> lo(2, INFINITY), hi(2, -INFINITY);
  for (size_t i : result.pareto) {
    const auto f = *objective_values(study, result.variants[i]);
    for (size_t k = 0; k < 2; ++k) lo[k] = std::min(lo[k], f[k]), hi[k] = std::max(hi[k], f[k]);
  }
  double nearest = INFINITY;
  for (size_t i : result.pareto) {
    const auto f = *objective_values(study, result.variants[i]);
    double d = 0.0;
    for (size_t k = 0; k < 2; ++k) d += std::pow((f[k] - lo[k]) / (hi[k] > lo[k] ? hi[k] - lo[k] : 1.0), 2);
    if (d < nearest) nearest = d, result.best = i;
  }
}

void run_optimisation(const io::Study& study, Executor& executor, Evaluations& evaluations, StudyResult& result) {
  check_optimiser(study);
  const size_t objectives = study.objectives.size();
  const int points = objectives == 1 ? 1 : study.optimiser.pareto_points;
  const size_t budget = 1 + static_cast<size_t>(study.optimiser.global_evaluations) +
                        static_cast<size_t>(study.optimiser.local_evaluations);
  evaluations.expect(budget * static_cast<size_t>(points));
  auto run_goals = [&](const std::vector<RunGoal>& goals) {
    const size_t offset = result.variants.size();
    std::vector<Variant> variants = run_tasks(
        executor, evaluations, goals.size(),
        [&](size_t task, VariantEvaluator& evaluator, std::vector<Variant>& out) {
          const auto [best, ok] = optimise(
              study, goals[task], [&](std::span<const double> x) { return evaluations.evaluate(evaluator, x); }, out);
          out[best].optimum = true;
        },
        true);
    for (size_t i = 0; i < variants.size(); ++i) {
      if (!variants[i].optimum) continue;
      const auto g =
          std::find_if(goals.begin(), goals.end(), [&](const RunGoal& r) { return r.run == variants[i].run; });
      OptimumRun run;
      run.run = g->run;
      run.weight = objectives == 2 && !g->epsilon ? g->weight[0] : 0.0;
      run.epsilon = g->epsilon.value_or(0.0);
      run.best = offset + i;
      run.feasible = feasible(study, *g, variants[i]);
      run.evaluations = static_cast<int>(
          std::count_if(variants.begin(), variants.end(), [&](const Variant& v) { return v.run == g->run; }));
      result.runs.push_back(run);
    }
    for (Variant& v : variants) result.variants.push_back(std::move(v));
  };
  if (objectives == 1) {
    run_goals({RunGoal{0, {1.0}, {0.0}, {0.0}, std::nullopt}});
    result.best = result.runs[0].best;
    return;
  }
  // Two objectives: each alone first (the front's ends), then the points between.
  run_goals({RunGoal{0, {1.0, 0.0}, {0.0, 0.0}, {0.0, 1.0}, std::nullopt},
             RunGoal{1, {0.0, 1.0}, {0.0, 0.0}, {1.0, 0.0}, std::nullopt}});
  for (int k = 0; k < 2; ++k)
    if (!result.runs[static_cast<size_t>(k)].feasible)
      throw AnalysisError(
          fmt::format("{}: no feasible design found for the objective '{}' alone (the constraints "
                      "cannot be met within the bounds, or the budget is too small)",
                      study.file, study.metrics[static_cast<size_t>(study.objectives[k].metric)].name));
  const auto f1 = *objective_values(study, result.variants[result.runs[0].best]);
  const auto f2 = *objective_values(study, result.variants[result.runs[1].best]);
  // The front's extent in each objective (a degenerate front: a small share of the values).
  auto extent_of = [](double span, double a, double b) {
    const double floor = 1e-9 * std::max(std::abs(a), std::abs(b));
    return std::max(span, floor > 0.0 ? floor : 1.0);
  };
  const std::vector<double> utopia{f1[0], f2[1]},
      extent{extent_of(f2[0] - f1[0], f1[0], f2[0]), extent_of(f1[1] - f2[1], f1[1], f2[1])};
  std::vector<RunGoal> goals;
  for (int k = 1; k + 1 < points; ++k) {
    const double s = static_cast<double>(k) / (points - 1);
    RunGoal g{k + 1, {1.0 - s, s}, utopia, extent, std::nullopt};
    if (study.optimiser.pareto == io::OptimiserSettings::epsilon) {
      g.weight = {1.0, 0.0};
      g.epsilon = f1[1] - s * (f1[1] - f2[1]);
    }
    goals.push_back(g);
  }
  run_goals(goals);
  pareto_front(study, result);
}

}  // namespace

StudyResult run_study(const io::Study& study, const io::ModelTemplate& model, Executor& executor,
                      const StudyOptions& options) {
  Evaluations evaluations(study, model, options, executor.root());
  executor.barrier();  // every rank has read the journal before the root appends to it
  StudyResult result;
  result.resumed = evaluations.resumed();
  if (study.kind == io::StudyKind::optimisation) {
    run_optimisation(study, executor, evaluations, result);
    if (!executor.root()) return {};
    count_statuses(result);
    return result;
  }
  const size_t n = design_size(study);
  evaluations.expect(n);
  result.variants =
      run_tasks(executor, evaluations, n, [&](size_t i, VariantEvaluator& evaluator, std::vector<Variant>& out) {
        std::vector<double> x(study.parameters.size());
        design_point(study, i, x);
        out.push_back(evaluations.evaluate(evaluator, x));
      });
  if (!executor.root()) return {};
  summarise_design(study, result);
  return result;
}

}  // namespace linkdyn::study
