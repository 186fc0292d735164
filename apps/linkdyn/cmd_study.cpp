// linkdyn study STUDY: sweeps, Monte Carlo tolerance analyses and optimisations of a model's
// variants, on every core, or on a cluster under mpirun (docs/studies.md).
#include <fmt/core.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <climits>
#include <cmath>
#include <filesystem>
#include <memory>

#include "commands.hpp"
#include "linkdyn/core/interrupt.hpp"
#include "linkdyn/io/table_writer.hpp"
#include "linkdyn/report/report.hpp"
#include "linkdyn/study/study.hpp"
#ifdef LINKDYN_WITH_MPI
#include "linkdyn/study/mpi.hpp"
#endif

namespace linkdyn::cli {
namespace {

struct StudyCliOptions {
  std::string study, csv, json, report, best, journal;
  int threads = 0;
  long max_variants = 1'000'000;
  bool resume = false, quiet = false;
};

std::string value_text(double v) { return std::isfinite(v) ? fmt::format("{:.6g}", v) : std::string("-"); }

std::string metric_label(const io::StudyMetric& m) { return m.unit.empty() ? m.name : m.name + " (" + m.unit + ")"; }

void print_failures(const study::StudyResult& r) {
  const size_t total = r.variants.size();
  for (int s = 1; s < study::status_count; ++s) {
    const int n = r.status_counts[static_cast<size_t>(s)];
    if (n == 0) continue;
    fmt::print("  {:<18} {:>8} ({:.3g} %)", study::status_name(static_cast<study::Status>(s)), n,
               100.0 * n / static_cast<double>(total));
    for (const study::Variant& v : r.variants)
      if (static_cast<int>(v.status) == s) {
        fmt::print(", e.g. {}", v.reason);
        break;
      }
    fmt::print("\n");
  }
}

/// A grid sweep: its extremes (and every variant when there are few), not sampling statistics.
void print_grid_summary(const io::Study& s, const study::StudyResult& r) {
  if (r.variants.size() <= 40) {
    std::string header = fmt::format("{:>7}", "variant");
    for (const io::StudyParameter& p : s.parameters) header += fmt::format(" {:>14}", p.name);
    for (const io::StudyMetric& m : s.metrics) header += fmt::format(" {:>18}", m.name);
    fmt::print("{}\n", header);
    for (size_t i = 0; i < r.variants.size(); ++i) {
      const study::Variant& v = r.variants[i];
      std::string row = fmt::format("{:>7}", i);
      for (double p : v.parameters) row += fmt::format(" {:>14.6g}", p);
      for (double m : v.metrics) row += fmt::format(" {:>18}", value_text(m));
      fmt::print("{}{}\n", row, v.status == study::Status::ok ? "" : std::string("  ") + study::status_name(v.status));
    }
  }
  for (size_t k = 0; k < s.metrics.size(); ++k) {
    size_t lo = r.variants.size(), hi = r.variants.size();
    for (size_t i = 0; i < r.variants.size(); ++i) {
      const double v = r.variants[i].metrics[k];
      if (!std::isfinite(v)) continue;
      if (lo == r.variants.size() || v < r.variants[lo].metrics[k]) lo = i;
      if (hi == r.variants.size() || v > r.variants[hi].metrics[k]) hi = i;
    }
    if (lo == r.variants.size()) continue;
    fmt::print("{}: smallest {} (variant {}), largest {} (variant {})\n", metric_label(s.metrics[k]),
               value_text(r.variants[lo].metrics[k]), lo, value_text(r.variants[hi].metrics[k]), hi);
  }
}

void print_design_summary(const io::Study& s, const study::StudyResult& r) {
  const int ok = r.status_counts[0];
  fmt::print("{} variants: {} ok, {} failed\n", r.variants.size(), ok, static_cast<int>(r.variants.size()) - ok);
  print_failures(r);
  if (s.kind == io::StudyKind::sweep && s.design == io::SweepDesign::grid) return print_grid_summary(s, r);
  const int level = static_cast<int>(std::lround(100 * s.confidence));
  fmt::print("{:<28} {:>12} {:>27} {:>12} {:>12} {:>12}\n", "metric", "mean", fmt::format("({} % interval)", level),
             "std", "min", "max");
  for (size_t k = 0; k < s.metrics.size(); ++k) {
    const study::MetricSummary& m = r.summaries[k];
    fmt::print("{:<28} {:>12} {:>27} {:>12} {:>12} {:>12}\n", metric_label(s.metrics[k]), value_text(m.mean),
               fmt::format("({}, {})", value_text(m.mean_low), value_text(m.mean_high)), value_text(m.std),
               value_text(m.min), value_text(m.max));
    for (size_t q = 0; q < s.percentiles.size(); ++q)
      fmt::print("  percentile {:<5g} {:>12} ({}, {})\n", s.percentiles[q], value_text(m.percentile[q]),
                 value_text(m.percentile_low[q]), value_text(m.percentile_high[q]));
  }
  if (r.sensitivities.empty()) return;
  fmt::print("sensitivity: standardised regression coefficients (SRC) and first-order Sobol indices (S1)\n");
  for (size_t k = 0; k < s.metrics.size(); ++k) {
    const study::Sensitivity& sens = r.sensitivities[k];
    fmt::print("  {} (regression R^2 {:.3f})\n", s.metrics[k].name, sens.r2);
    for (size_t p = 0; p < s.parameters.size(); ++p)
      fmt::print("    {:<24} SRC {:>8.3f}   S1 {:>6.3f}\n", s.parameters[p].name, sens.src[p], sens.sobol[p]);
  }
}

void print_design(const io::Study& s, const study::Variant& v) {
  for (size_t p = 0; p < s.parameters.size(); ++p) {
    const io::ModelEntry& e = s.parameters[p].entry;
    fmt::print("  {:<24} {:.9g}{}\n", s.parameters[p].name, v.parameters[p] / e.unit_size,
               e.unit.empty() ? "" : " " + e.unit);
  }
  for (size_t k = 0; k < s.metrics.size(); ++k)
    fmt::print("  {:<24} {}\n", metric_label(s.metrics[k]), value_text(v.metrics[k]));
}

void print_optimisation_summary(const io::Study& s, const study::StudyResult& r) {
  fmt::print("{} evaluations in {} run(s)\n", r.variants.size(), r.runs.size());
  print_failures(r);
  if (r.best >= r.variants.size()) return;
  const bool feasible = std::any_of(r.runs.begin(), r.runs.end(),
                                    [&](const study::OptimumRun& run) { return run.best == r.best && run.feasible; });
  fmt::print("{} design (variant {}){}:\n", s.objectives.size() == 1 ? "best" : "chosen Pareto", r.best,
             feasible ? "" : ", which does NOT meet the constraints");
  print_design(s, r.variants[r.best]);
  if (!r.pareto.empty()) {
    fmt::print("Pareto front ({} designs):\n", r.pareto.size());
    const size_t a = static_cast<size_t>(s.objectives[0].metric), b = static_cast<size_t>(s.objectives[1].metric);
    for (size_t i : r.pareto)
      fmt::print("  variant {:>6}: {} = {}, {} = {}\n", i, s.metrics[a].name, value_text(r.variants[i].metrics[a]),
                 s.metrics[b].name, value_text(r.variants[i].metrics[b]));
  }
}

/// Progress with the estimated time left, on stderr, from about two seconds on (on a terminal
/// rewritten in place; else a line at 2 s, then every 10 s).
std::function<void(const study::Progress&)> progress_display(bool quiet) {
  if (quiet) return nullptr;
  const bool tty = isatty(fileno(stderr)) != 0;
  auto last = std::make_shared<double>(0.0);
  return [tty, last](const study::Progress& p) {
    if (p.seconds < 2.0 || (!tty && *last > 0.0 && p.seconds - *last < 10.0)) return;  // a log: every 10 s
    *last = p.seconds;
    const double rate = static_cast<double>(p.done) / p.seconds;
    const double left = p.total > p.done ? static_cast<double>(p.total - p.done) / std::max(rate, 1e-9) : 0.0;
    fmt::print(stderr, "{}study: {} of {} variants ({:.1f} %), {:.4g} per s, about {:.0f} s left{}", tty ? "\r" : "",
               p.done, p.total, 100.0 * static_cast<double>(p.done) / std::max<size_t>(p.total, 1), rate, left,
               tty ? "   " : "\n");
  };
}

void run_study(StudyCliOptions o) {
  const io::StudyFile file = io::load_study(o.study);
  const io::Study& s = file.study;
  std::vector<std::string> inputs = {o.study, s.model_file};
  check_output_paths(
      {{"--csv", o.csv}, {"--json", o.json}, {"--report", o.report}, {"--best", o.best}, {"--journal", o.journal}},
      inputs);
  if (o.journal.empty())
    for (const std::string* out : {&o.csv, &o.json, &o.report})
      if (!out->empty()) {
        o.journal = *out + ".journal";
        break;
      }
  if (!o.best.empty() && s.kind != io::StudyKind::optimisation)
    throw InputError({}, "--best", "only an optimisation has a best design",
                     "remove --best, or make the study an optimisation");
  if (o.resume && o.journal.empty())
    throw InputError({}, "--resume", "there is no journal to resume from",
                     "give the outputs (--csv, --json, --report) of the interrupted run, or --journal");
  const bool sampled = s.kind == io::StudyKind::monte_carlo || s.design == io::SweepDesign::latin_hypercube;
  const size_t variants = s.kind == io::StudyKind::optimisation ? 0 : study::design_size(s);
  require_within(static_cast<long>(std::min<size_t>(variants, LONG_MAX)), o.max_variants, "--max-variants",
                 sampled || s.parameters.empty() ? s.samples_where : s.parameters.front().where,
                 sampled ? "samples" : "parameters", "variants");
  std::unique_ptr<study::Executor> executor;
#ifdef LINKDYN_WITH_MPI
  if (study::launched_by_mpi()) executor = std::make_unique<study::MpiExecutor>(s, *file.model, o.threads);
#endif
  if (!executor) executor = std::make_unique<study::ThreadExecutor>(s, *file.model, o.threads);
  const bool root = executor->root();
  std::string workers = fmt::format("{} thread(s)", executor->threads());
#ifdef LINKDYN_WITH_MPI
  if (auto* mpi = dynamic_cast<study::MpiExecutor*>(executor.get()))
    workers = fmt::format("{} MPI rank(s) x {} thread(s)", mpi->ranks(), executor->threads());
#endif
  if (root)
    fmt::print("{}: {} of {} with {} parameter(s) and {} metric(s), {}\n", o.study,
               s.kind == io::StudyKind::sweep         ? "sweep"
               : s.kind == io::StudyKind::monte_carlo ? "Monte Carlo"
                                                      : "optimisation",
               s.model_file, s.parameters.size(), s.metrics.size(), workers);
  study::StudyOptions options;
  options.journal = o.journal;
  options.resume = o.resume;
  options.progress = progress_display(o.quiet || !root);
  const auto start = std::chrono::steady_clock::now();
  study::StudyResult result;
  try {
    const auto nominal_start = std::chrono::steady_clock::now();
    study::check_metrics(s, *file.model);
    if (root && variants > 0) {
      // What the variants will take: their rows in memory, and the nominal design's time each.
      const double each = std::chrono::duration<double>(std::chrono::steady_clock::now() - nominal_start).count();
      const double bytes =
          static_cast<double>(variants) *
          static_cast<double>(sizeof(study::Variant) + 64 + 8 * (s.parameters.size() + s.metrics.size()));
      fmt::print(
          "{} variants: about {:.3g} MB of results and {:.3g} s on {} thread(s) (the nominal design took "
          "{:.3g} s)\n",
          variants, bytes / 1e6, each * static_cast<double>(variants) / std::max(1, executor->threads()),
          executor->threads(), each);
    }
    result = study::run_study(s, *file.model, *executor, options);
  } catch (const Interrupted&) {
    if (!root) throw;
    throw Interrupted(o.journal.empty() ? "no output was written (give --csv, --json or --report to keep a journal)"
                                        : "the finished variants are in " + o.journal +
                                              "; run the same command with --resume to go on");
  } catch (const std::exception& e) {
#ifdef LINKDYN_WITH_MPI
    // One rank's error ends the job: the others would wait for it for ever.
    if (auto* mpi = dynamic_cast<study::MpiExecutor*>(executor.get()); mpi && mpi->ranks() > 1) {
      fmt::print(stderr, "error (rank {}): {}\n", mpi->rank(), e.what());
      mpi->abort(dynamic_cast<const InputError*>(&e) ? InputError::exit_code : AnalysisError::exit_code);
    }
#endif
    throw;
  }
  if (!root) return;
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  if (options.progress && isatty(fileno(stderr))) fmt::print(stderr, "\r{:80}\r", "");
  fmt::print("{} variants in {:.3g} s ({:.4g} per s)\n", result.variants.size(), seconds,
             static_cast<double>(result.variants.size()) / seconds);
  if (o.resume) fmt::print("resumed: {} variants read from {}, not evaluated again\n", result.resumed, o.journal);
  if (s.kind == io::StudyKind::optimisation)
    print_optimisation_summary(s, result);
  else
    print_design_summary(s, result);
  auto write = [](const std::string& path, const std::string& text) {
    if (!path.empty()) io::write_file(path, [&](std::ostream& out) { out << text; });
  };
  if (!o.csv.empty()) write(o.csv, study::variants_csv(s, result));
  if (!o.json.empty()) write(o.json, study::study_json(s, result));
  if (!o.report.empty()) write(o.report, report::study_report_html(s, result));
  if (!o.best.empty()) {
    std::vector<io::ModelEntry> entries;
    for (const io::StudyParameter& p : s.parameters) entries.push_back(p.entry);
    write(o.best, file.model->text_with(entries, result.variants[result.best].parameters, o.best));
    fmt::print("best design written to {}\n", o.best);
  }
  if (!o.journal.empty()) std::filesystem::remove(o.journal);  // every output is written
}

}  // namespace

void add_study_command(CLI::App& app) {
  auto options = std::make_shared<StudyCliOptions>();
  CLI::App* cmd = app.add_subcommand(
      "study", "Sweeps, Monte Carlo tolerance analyses and optimisations of a model (docs/studies.md)");
  cmd->add_option("STUDY", options->study, "Study file (YAML)")->required();
  cmd->add_option("--threads", options->threads, "Threads (default: every core; under mpirun: the rank's share)")
      ->check(CLI::Range(1, 4096));
  cmd->add_option("--csv", options->csv, "Write one row per variant as CSV");
  cmd->add_option("--json", options->json, "Write the variants, settings and summary as JSON");
  cmd->add_option("--report", options->report, "Write a self-contained HTML page of the results");
  cmd->add_option("--best", options->best, "Optimisation: write the best design as a model file");
  cmd->add_option("--max-variants", options->max_variants,
                  "The most variants of a sweep or Monte Carlo study (samples:, or the grid's points): more are "
                  "refused up front")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
  cmd->add_option("--journal", options->journal,
                  "Where variants are written as they finish (default: the first output + .journal)");
  cmd->add_flag("--resume", options->resume, "Continue an interrupted study from its journal");
  cmd->add_flag("--quiet", options->quiet, "No progress on stderr");
  cmd->callback([options] { run_study(*options); });
}

}  // namespace linkdyn::cli
