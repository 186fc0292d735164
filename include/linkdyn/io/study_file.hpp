#pragma once
// Study files (YAML), documented in docs/studies.md: a base model, parameters that are paths
// into it, the analyses run on each variant, the metrics taken from them, and the kind of
// study (sweep, Monte Carlo tolerance analysis, optimisation).
#include <cstdint>
#include <limits>
#include <memory>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "linkdyn/core/error.hpp"
#include "linkdyn/io/model_template.hpp"

namespace linkdyn::io {

enum class StudyKind { sweep, monte_carlo, optimisation };
enum class SweepDesign { grid, latin_hypercube };

/// How a parameter varies (values in SI): a grid sweep's values, ...
struct GridValues {
  std::vector<double> values;
};
/// ... a uniform distribution on [low, high] (an optimisation's bounds, a Latin hypercube's range), ...
struct UniformLaw {
  double low = 0.0, high = 0.0;
};
/// ... or a normal distribution truncated to [low, high] (infinite bounds: not truncated).
struct NormalLaw {
  double mean = 0.0, std = 0.0;
  double low = -std::numeric_limits<double>::infinity(), high = std::numeric_limits<double>::infinity();
};
using ParameterLaw = std::variant<GridValues, UniformLaw, NormalLaw>;

struct StudyParameter {
  std::string name;  ///< its column
  ModelEntry entry;  ///< where it goes in the model, with the nominal value
  ParameterLaw law;
  double lower = 0.0, upper = 0.0;  ///< optimisation bounds (and the range of a Latin hypercube)
  std::optional<double> start;      ///< optimisation start (default: the nominal value, clamped)
  SourceLocation where;
};

/// The analyses run on every variant and their settings.
struct StudyAnalyses {
  bool kinematics = false, kinetostatics = false, reduce = false, simulate = false, flex = false;
  int steps = 0;  ///< positions over the drivers' motion (0: the model's)
  bool friction = true;
  int reduce_points = 360;
  bool steady = false;  ///< simulate: from the steady regime, `cycles` cycles
  int cycles = 1;
  std::string method = "auto";
  double t_end = 1.0;  ///< simulate without steady
  int simulate_steps = 720;
  int modes = 3;                   ///< flex
  bool require_full_cycle = true;  ///< a variant that does not assemble everywhere fails
};

/// What a metric takes: a statistic of an output column, the column at a driver value, or a
/// named result of an analysis (docs/studies.md lists them).
struct StudyMetric {
  enum class Statistic { max, min, mean, rms, range, max_abs, at, value } statistic = Statistic::max;
  std::string name;
  std::string column;  ///< statistics and `at`: an output column ("crank_drive.torque")
  std::string value;   ///< `value`: a named result ("kinetostatics.cycle_efficiency")
  double at = 0.0;     ///< `at`: the first driver's coordinate (SI)
  std::string unit;    ///< reported in this unit (empty: SI)
  double unit_size = 1.0;
  SourceLocation where;
};

struct StudyObjective {
  int metric = 0;  ///< index into Study::metrics
  bool maximise = false;
};

struct StudyConstraint {
  int metric = 0;
  std::optional<double> min, max;  ///< in the metric's unit
};

struct OptimiserSettings {
  std::string global = "GN_ISRES", local = "LN_COBYLA";  ///< NLopt algorithm names
  int global_evaluations = 1000, local_evaluations = 300;
  double tolerance = 1e-6;  ///< the local method's relative tolerance on the parameters
  enum Pareto { weighted, epsilon } pareto = weighted;
  int pareto_points = 9;  ///< two objectives: designs on the front
  SourceLocation where;
};

struct Study {
  std::string file;
  StudyKind kind = StudyKind::sweep;
  SweepDesign design = SweepDesign::grid;
  int samples = 0;               ///< Monte Carlo and Latin hypercube
  SourceLocation samples_where;  ///< of samples: (else the study file)
  std::uint64_t seed = 1;
  std::string model_file;  ///< the base model (relative to the study file)
  std::vector<StudyParameter> parameters;
  StudyAnalyses analyses;
  std::vector<StudyMetric> metrics;
  std::vector<StudyObjective> objectives;
  std::vector<StudyConstraint> constraints;
  OptimiserSettings optimiser;
  std::vector<double> percentiles{5, 50, 95};
  double confidence = 0.95;
};

/// A study file and the model it names.
struct StudyFile {
  Study study;
  std::unique_ptr<ModelTemplate> model;
};
/// Reads a study file and its model, and checks one against the other (every parameter's path
/// leads to a number of the model). Throws InputError naming the file, line and entry.
[[nodiscard]] StudyFile load_study(const std::string& path);

}  // namespace linkdyn::io
