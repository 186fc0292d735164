#pragma once
// Design studies (docs/studies.md): the variants of a model, each analysed and reduced to
// metrics; sweeps, Monte Carlo tolerance analyses and optimisations over them, on every core
// (ThreadExecutor) or a cluster (MpiExecutor, linkdyn/study/mpi.hpp).
#include <cstdint>
#include <functional>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "linkdyn/io/study_file.hpp"

namespace linkdyn::study {

/// What became of a variant: analysed, or why not.
enum class Status { ok, no_assembly, self_locking, singular, no_steady_regime, stalled, invalid, failed };
[[nodiscard]] const char* status_name(Status status);
constexpr int status_count = 8;

/// One analysed design: its parameters (SI), its metrics (each in its unit; NaN unless ok).
struct Variant {
  std::vector<double> parameters, metrics;
  Status status = Status::ok;
  std::string reason;    ///< why it is not ok, with the driver value where it happened
  int run = 0;           ///< optimisation: the run (Pareto point) that evaluated it
  int phase = 0;         ///< optimisation: 0 global, 1 local
  bool optimum = false;  ///< optimisation: the best design of its run
};

/// Analyses variants of one study, one at a time: each thread owns one (its own model tree and
/// buffers); the study and the model template are shared and never changed.
class VariantEvaluator {
 public:
  VariantEvaluator(const io::Study& study, const io::ModelTemplate& model);
  ~VariantEvaluator();
  VariantEvaluator(const VariantEvaluator&) = delete;
  VariantEvaluator& operator=(const VariantEvaluator&) = delete;
  /// The variant with these parameter values (SI): a failed analysis is a status, never a throw.
  [[nodiscard]] Variant evaluate(std::span<const double> parameters);
  /// Evaluates the nominal design and checks that every metric can be taken from its outputs
  /// and is defined there: InputError naming the study's line, the metric and the nearest
  /// output; AnalysisError when the nominal design cannot be analysed.
  void check_metrics(std::span<const double> nominal);

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

/// Checks that every metric can be taken from the nominal model's analyses (a column that
/// exists, a named value of an analysis the study runs): InputError naming the study's line,
/// the metric and the nearest column.
void check_metrics(const io::Study& study, const io::ModelTemplate& model);

/// The nominal parameter values: the model's (for an entry the model does not write: the first
/// grid value, the mean, or the middle of the interval).
[[nodiscard]] std::vector<double> nominal(const io::Study& study);
/// The variants of a sweep or a Monte Carlo study: point `index` of the grid (the last
/// parameter varying fastest), of the Latin hypercube, or sample `index` (each from its own
/// random stream, seeded by the study's seed and the index: the same whatever runs it).
[[nodiscard]] size_t design_size(const io::Study& study);
void design_point(const io::Study& study, size_t index, std::span<double> out);

/// Statistics of one metric over the variants that are ok: mean, standard deviation and
/// percentiles, each with its confidence interval at study.confidence (the mean by Student's t,
/// the standard deviation by the chi-square law, the percentiles by order statistics).
struct MetricSummary {
  int n = 0;
  double mean = 0.0, mean_low = 0.0, mean_high = 0.0;
  double std = 0.0, std_low = 0.0, std_high = 0.0;
  double min = 0.0, max = 0.0;
  std::vector<double> percentile, percentile_low, percentile_high;  ///< at study.percentiles
};
[[nodiscard]] MetricSummary summarize(std::span<const double> values, const std::vector<double>& percentiles,
                                      double confidence);

/// Which parameters a metric is sensitive to: standardised regression coefficients (and the
/// regression's R^2) and first-order Sobol indices estimated from the same sample by
/// conditional means over equiprobable bins of each parameter (bias-corrected).
struct Sensitivity {
  std::vector<double> src, sobol;  ///< per parameter
  double r2 = 0.0;
};
/// x: one row per variant, one column per parameter; y: the metric.
[[nodiscard]] Sensitivity sensitivity(const std::vector<std::vector<double>>& x, std::span<const double> y);

/// An optimisation run: the optimum it reached.
struct OptimumRun {
  int run = 0;
  double weight = 0.0;                    ///< weighted sum: the first objective's weight
  double epsilon = 0.0;                   ///< epsilon constraint: the second objective's bound
  size_t best = static_cast<size_t>(-1);  ///< index into StudyResult::variants (none: -1)
  bool feasible = false;
  int evaluations = 0;
};

struct StudyResult {
  std::vector<Variant> variants;  ///< in a fixed order: design order, or runs then evaluations
  size_t resumed = 0;             ///< variants taken from the journal of an interrupted run
  // Monte Carlo and sweeps
  std::vector<MetricSummary> summaries;  ///< per metric
  std::vector<Sensitivity> sensitivities;
  std::vector<int> status_counts;  ///< per Status
  // Optimisation
  std::vector<OptimumRun> runs;
  std::vector<size_t> pareto;             ///< non-dominated run optima, by the first objective
  size_t best = static_cast<size_t>(-1);  ///< the chosen design (two objectives: nearest the utopia point)
};

/// Runs tasks 0..n-1 on threads (and ranks): a task evaluates variants with the evaluator of the
/// thread it runs on. `done` is called on the root, one task at a time, as they finish.
using TaskFunction = std::function<void(size_t task, VariantEvaluator& evaluator, std::vector<Variant>& out)>;
using TaskDone = std::function<void(size_t task, const std::vector<Variant>& variants, bool remote)>;

class Executor {
 public:
  virtual ~Executor() = default;
  /// Every task run; on the root, the variants of each task in task order (elsewhere: empty).
  [[nodiscard]] virtual std::vector<std::vector<Variant>> run(size_t tasks, const TaskFunction& task,
                                                              const TaskDone& done) = 0;
  /// The root's results made the same on every rank (a later phase is built from them).
  virtual void share(std::vector<std::vector<Variant>>& results) { (void)results; }
  [[nodiscard]] virtual bool root() const { return true; }
  [[nodiscard]] virtual int threads() const = 0;
  /// All ranks at this point (the journal is read before anyone writes it).
  virtual void barrier() {}
};

/// The cores this process may run on (its CPU affinity: taskset, a batch system's binding).
[[nodiscard]] int available_cores();

/// Every task on `threads` threads of this process (0: all cores), each thread with its own
/// VariantEvaluator made once; dynamic scheduling, results in task order.
class ThreadExecutor : public Executor {
 public:
  ThreadExecutor(const io::Study& study, const io::ModelTemplate& model, int threads = 0);
  ~ThreadExecutor() override;
  [[nodiscard]] std::vector<std::vector<Variant>> run(size_t tasks, const TaskFunction& task,
                                                      const TaskDone& done) override;
  [[nodiscard]] int threads() const override { return threads_; }
  /// Runs the tasks taken from `next` (returns false when none is left), calling `done` for each.
  void run_pulling(const std::function<bool(size_t&)>& next, const TaskFunction& task,
                   const std::function<void(size_t, std::vector<Variant>&&)>& done);

 private:
  const io::Study& study_;
  const io::ModelTemplate& model_;
  int threads_ = 1;
  std::vector<std::unique_ptr<VariantEvaluator>> evaluators_;
};

/// Progress of a running study, for a display.
struct Progress {
  size_t done = 0, total = 0;  ///< variants (an optimisation: evaluations of its budget)
  double seconds = 0.0;
};

struct StudyOptions {
  /// Where variants are written as they finish (empty: nowhere), and whether to continue from
  /// what it holds (variants found there are not evaluated again).
  std::string journal;
  bool resume = false;
  std::function<void(const Progress&)> progress;  ///< called on the root, at most a few times a second
};

/// Runs the study on the executor. On the root the result is complete; elsewhere it is empty.
[[nodiscard]] StudyResult run_study(const io::Study& study, const io::ModelTemplate& model, Executor& executor,
                                    const StudyOptions& options = {});

/// Outputs: one row per variant (variant, [run, phase,] parameters, metrics, status, reason) as
/// CSV; the same with the study's settings and summary as JSON.
[[nodiscard]] std::string variants_csv(const io::Study& study, const StudyResult& result);
[[nodiscard]] std::string study_json(const io::Study& study, const StudyResult& result);

}  // namespace linkdyn::study
