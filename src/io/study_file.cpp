// Study files (docs/studies.md): read and checked against their model.
#include "linkdyn/io/study_file.hpp"

#include <fmt/format.h>
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <limits>
#include <type_traits>
#include <utility>
#include <variant>

#include "io/yaml_reader.hpp"

namespace linkdyn::io {
namespace {

class StudyParser {
 public:
  explicit StudyParser(const std::string& path) : in_(path), path_(path) {}

  StudyFile parse() {
    const YAML::Node root = in_.load_file();
    if (!root || root.IsNull())
      throw InputError({path_, 1}, "study", "the file is empty", "give study:, model:, parameters: and metrics:");
    in_.allow_only(root, "study",
                   {"study", "model", "design", "samples", "seed", "parameters", "analysis", "metrics", "objectives",
                    "constraints", "optimiser", "pareto", "statistics", "description"});
    StudyFile out;
    Study& s = out.study;
    s.file = path_;
    kind(in_.required(root, "study", "study", "write study: sweep, monte_carlo or optimisation"), s);
    const std::string model =
        in_.text(in_.required(root, "model", "study", "name the base model: model: FILE"), "model");
    s.model_file = (std::filesystem::path(path_).parent_path() / model).lexically_normal().string();
    std::error_code ec;  // a path that exists but cannot be read: the model's reader says why
    if (!std::filesystem::exists(s.model_file, ec) && !ec)
      in_.fail(root["model"], "model", "the model file " + s.model_file + " does not exist",
               "give the model's path relative to the study file");
    out.model = std::make_unique<ModelTemplate>(s.model_file);
    if (root["design"]) design(root["design"], s);
    if (root["seed"]) s.seed = static_cast<std::uint64_t>(in_.integer(root["seed"], "seed", 0));
    s.samples_where = {path_, 0};
    if (root["samples"])
      s.samples = in_.integer(root["samples"], "samples", 1), s.samples_where = in_.where(root["samples"]);
    const bool sampled = s.kind == StudyKind::monte_carlo || s.design == SweepDesign::latin_hypercube;
    if (sampled && s.samples == 0)
      in_.fail(root, "samples", "a sampled study needs the number of samples", "add samples: 1000");
    if (!sampled && root["samples"])
      in_.fail(root["samples"], "samples", "only Monte Carlo studies and Latin hypercube sweeps take samples",
               "remove samples:, or write design: latin_hypercube");
    const YAML::Node parameters = in_.required(root, "parameters", "study", "list the parameters to vary");
    in_.require_map(parameters, "parameters");
    for (const auto& kv : parameters) {
      s.parameters.push_back(parameter(kv.first.Scalar(), kv.second, *out.model, s));
      for (size_t k = 0; k + 1 < s.parameters.size(); ++k)
        if (s.parameters[k].entry.canonical == s.parameters.back().entry.canonical)
          in_.fail(kv.second, "parameter '" + kv.first.Scalar() + "'",
                   "names the same entry of the model as parameter '" + s.parameters[k].name + "' (" +
                       s.parameters.back().entry.canonical + ")",
                   "keep one of the two");
    }
    if (s.parameters.empty()) in_.fail(parameters, "parameters", "no parameter", "add at least one parameter");
    analyses(in_.required(root, "analysis", "study", "name the analyses: analysis: {kinetostatics: true}"), s.analyses);
    const YAML::Node metrics = in_.required(root, "metrics", "study", "list the metrics to extract");
    in_.require_map(metrics, "metrics");
    for (const auto& kv : metrics) s.metrics.push_back(metric(kv.first.Scalar(), kv.second, s.analyses));
    if (s.metrics.empty()) in_.fail(metrics, "metrics", "no metric", "add at least one metric");
    if (s.kind == StudyKind::optimisation) {
      s.optimiser.where = {path_, 0};
      objectives(in_.required(root, "objectives", "study", "name the metric to minimise: objectives: {M: minimise}"),
                 s);
      if (root["constraints"]) constraints(root["constraints"], s);
      if (root["optimiser"]) optimiser(root["optimiser"], s.optimiser);
      if (root["pareto"]) pareto(root["pareto"], s);
    } else {
      for (const char* key : {"objectives", "constraints", "optimiser", "pareto"})
        if (root[key])
          in_.fail(root[key], key, "only optimisation studies take this", "remove it, or write study: optimisation");
    }
    if (root["statistics"]) statistics(root["statistics"], s);
    return out;
  }

 private:
  void kind(const YAML::Node& node, Study& s) {
    const std::string k = in_.text(node, "study");
    if (k == "sweep")
      s.kind = StudyKind::sweep;
    else if (k == "monte_carlo")
      s.kind = StudyKind::monte_carlo;
    else if (k == "optimisation" || k == "optimization")
      s.kind = StudyKind::optimisation;
    else
      in_.fail(node, "study", "unknown study kind '" + k + "'", "write sweep, monte_carlo or optimisation");
  }

  void design(const YAML::Node& node, Study& s) {
    const std::string d = in_.text(node, "design");
    if (s.kind != StudyKind::sweep) in_.fail(node, "design", "only sweeps take a design", "remove design:");
    if (d == "grid")
      s.design = SweepDesign::grid;
    else if (d == "latin_hypercube")
      s.design = SweepDesign::latin_hypercube;
    else
      in_.fail(node, "design", "unknown design '" + d + "'", "write grid or latin_hypercube");
  }

  /// A number with or without a unit, in SI. `kind`: the quantity it must be (that of the model
  /// entry it changes); plain: any unit (an entry written as a bare number has no known kind).
  [[nodiscard]] double quantity(const YAML::Node& node, const std::string& entity,
                                Quantity kind = Quantity::plain) const {
    if (!node.IsScalar()) in_.fail(node, entity, "expected a number", "write a number, with a unit if it has one");
    if (kind != Quantity::plain) return in_.number(node, entity, kind);
    const auto value = parse_any_quantity(node.Scalar());
    if (!value) in_.fail(node, entity, "'" + node.Scalar() + "' is not a number", "write 0.5 mm, 40 deg or 1.2");
    return value->first;
  }

  [[nodiscard]] std::pair<double, double> interval(const YAML::Node& node, const std::string& entity,
                                                   Quantity kind = Quantity::plain) const {
    if (!node.IsSequence() || node.size() != 2)
      in_.fail(node, entity, "expected two values [low, high]", "write [2.5, 3.5] (units allowed)");
    const double low = quantity(node[0], entity, kind), high = quantity(node[1], entity, kind);
    if (!(low < high)) in_.fail(node, entity, "low must be below high", "write [low, high]");
    return {low, high};
  }

  StudyParameter parameter(const std::string& name, const YAML::Node& node, const ModelTemplate& model,
                           const Study& s) {
    const std::string entity = "parameter '" + name + "'";
    in_.allow_only(node, entity,
                   {"path", "values", "range", "points", "bounds", "start", "uniform", "normal", "tolerance"});
    StudyParameter p;
    p.name = name;
    p.where = in_.where(node);
    p.entry = model.entry(in_.text(in_.required(node, "path", entity, "give the path of the model's entry"), entity),
                          in_.where(node["path"]), entity);
    const Quantity kind = p.entry.kind;    // values in the entry's kind of unit
    const double nominal = p.entry.value;  // NaN: the model does not write the entry
    auto needs_nominal = [&](const YAML::Node& law_node) {
      if (!p.entry.present)
        in_.fail(law_node, entity,
                 "the model does not write '" + p.entry.path + "', so there is no value to vary about",
                 "write the entry in the model file, or give the law's mean or interval");
    };
    auto laws = [&] {
      int count = 0;
      for (const char* key : {"values", "range", "bounds", "uniform", "normal", "tolerance"})
        count += node[key] ? 1 : 0;
      return count;
    }();
    if (laws != 1)
      in_.fail(node, entity, "give exactly one of values, range, bounds, uniform, normal or tolerance",
               "see docs/studies.md for which study kind takes which");
    if (const YAML::Node v = node["values"]) {
      if (!v.IsSequence() || v.size() == 0) in_.fail(v, entity, "values must be a list", "write values: [1, 2, 3]");
      GridValues grid;
      for (const YAML::Node& item : v) grid.values.push_back(quantity(item, entity, kind));
      p.law = std::move(grid);
    } else if (const YAML::Node r = node["range"] ? node["range"] : node["bounds"]) {
      const auto [low, high] = interval(r, entity, kind);
      if (node["points"]) {
        const int points = in_.integer(node["points"], entity + ".points", 2);
        GridValues grid;
        for (int k = 0; k < points; ++k) grid.values.push_back(low + (high - low) * k / (points - 1));
        p.law = std::move(grid);
      } else {
        p.law = UniformLaw{low, high};
      }
    } else if (const YAML::Node u = node["uniform"]) {
      const auto [low, high] = interval(u, entity, kind);
      p.law = UniformLaw{low, high};
    } else if (const YAML::Node n = node["normal"]) {
      in_.allow_only(n, entity + ".normal", {"mean", "std", "within"});
      NormalLaw law;
      if (!n["mean"]) needs_nominal(n);
      law.mean = n["mean"] ? quantity(n["mean"], entity, kind) : nominal;
      law.std = quantity(in_.required(n, "std", entity, "give the standard deviation: std: 0.1 mm"), entity, kind);
      if (!(law.std > 0.0)) in_.fail(n["std"], entity, "std must be positive", "give std > 0");
      if (n["within"]) std::tie(law.low, law.high) = interval(n["within"], entity, kind);
      if (!(law.low < law.mean && law.mean < law.high))
        in_.fail(n, entity, "the mean lies outside 'within'", "widen within: [low, high]");
      p.law = law;
    } else if (const YAML::Node t = node["tolerance"]) {  // a band around the nominal value
      needs_nominal(t);
      double band = 0.0;
      std::string shape = "normal";
      double sigmas = 3.0;
      if (t.IsMap()) {
        in_.allow_only(t, entity + ".tolerance", {"band", "shape", "sigmas"});
        band = quantity(in_.required(t, "band", entity, "give band: 0.5 mm"), entity, kind);
        if (t["shape"]) shape = in_.text(t["shape"], entity + ".tolerance.shape");
        if (t["sigmas"]) sigmas = quantity(t["sigmas"], entity);
        if (shape != "normal" && shape != "uniform")
          in_.fail(t["shape"], entity, "unknown shape '" + shape + "'", "write normal or uniform");
        if (!(sigmas > 0.0)) in_.fail(t["sigmas"], entity, "sigmas must be positive", "write sigmas: 3");
      } else {
        band = quantity(t, entity, kind);
      }
      if (!(band > 0.0)) in_.fail(t, entity, "the band must be positive", "write tolerance: 0.5 mm (plus or minus)");
      if (shape == "uniform")
        p.law = UniformLaw{nominal - band, nominal + band};
      else
        p.law = NormalLaw{nominal, band / sigmas, nominal - band, nominal + band};
    }
    // Which study takes which law.
    const bool grid = s.kind == StudyKind::sweep && s.design == SweepDesign::grid;
    const bool values = std::holds_alternative<GridValues>(p.law);
    if (grid && !values)
      in_.fail(node, entity, "a grid sweep takes values: [...] or range: [low, high] with points: N",
               "give values or range and points, or write design: latin_hypercube");
    if (!grid && values)
      in_.fail(node, entity, "only a grid sweep takes a list of values",
               s.kind == StudyKind::optimisation ? "give bounds: [low, high]" : "give a distribution or a range");
    // The interval the values lie in (a normal's truncation, possibly infinite).
    const auto [low, high] = std::visit(
        [](const auto& law) -> std::pair<double, double> {
          if constexpr (std::is_same_v<std::decay_t<decltype(law)>, GridValues>)
            return {*std::min_element(law.values.begin(), law.values.end()),
                    *std::max_element(law.values.begin(), law.values.end())};
          else
            return {law.low, law.high};
        },
        p.law);
    if (s.kind == StudyKind::optimisation) {
      if (!std::holds_alternative<UniformLaw>(p.law) || !(node["bounds"] || node["range"]))
        in_.fail(node, entity, "an optimisation parameter takes bounds: [low, high]", "write bounds: [2.5, 4.0]");
      p.lower = low, p.upper = high;
      if (node["start"]) {
        p.start = quantity(node["start"], entity, kind);
        if (*p.start < p.lower || *p.start > p.upper)
          in_.fail(node["start"], entity, "the start lies outside the bounds", "give a start within the bounds");
      }
    } else if (node["start"]) {
      in_.fail(node["start"], entity, "only optimisation parameters take a start", "remove start:");
    }
    if (node["points"] && !(node["range"] && grid))
      in_.fail(node["points"], entity, "points go with range: in a grid sweep", "remove points:");
    const double unbounded = std::numeric_limits<double>::quiet_NaN();
    p.lower = std::isfinite(low) ? low : unbounded;
    p.upper = std::isfinite(high) ? high : unbounded;
    return p;
  }

  [[nodiscard]] bool flag_or_map(const YAML::Node& node, const std::string& entity) const {
    if (node.IsMap()) return true;
    const std::string v = in_.text(node, entity);
    if (v != "true" && v != "false") in_.fail(node, entity, "expected true, false or a map of settings", "write true");
    return v == "true";
  }

  void analyses(const YAML::Node& node, StudyAnalyses& a) {
    in_.allow_only(node, "analysis",
                   {"steps", "kinematics", "kinetostatics", "reduce", "simulate", "flex", "require_full_cycle"});
    if (node["steps"]) a.steps = in_.integer(node["steps"], "analysis.steps", 1);
    if (node["require_full_cycle"])
      a.require_full_cycle = flag_or_map(node["require_full_cycle"], "require_full_cycle");
    if (const YAML::Node k = node["kinematics"]) a.kinematics = flag_or_map(k, "analysis.kinematics");
    if (const YAML::Node k = node["kinetostatics"]; k && (a.kinetostatics = flag_or_map(k, "analysis.kinetostatics"))) {
      if (k.IsMap()) {
        in_.allow_only(k, "analysis.kinetostatics", {"friction"});
        if (k["friction"]) a.friction = flag_or_map(k["friction"], "analysis.kinetostatics.friction");
      }
    }
    if (const YAML::Node r = node["reduce"]; r && (a.reduce = flag_or_map(r, "analysis.reduce")) && r.IsMap()) {
      in_.allow_only(r, "analysis.reduce", {"points"});
      if (r["points"]) a.reduce_points = in_.integer(r["points"], "analysis.reduce.points", 4);
    }
    if (const YAML::Node m = node["simulate"]; m && (a.simulate = flag_or_map(m, "analysis.simulate")) && m.IsMap()) {
      in_.allow_only(m, "analysis.simulate", {"steady", "cycles", "method", "t_end", "steps", "friction"});
      if (m["steady"]) a.steady = flag_or_map(m["steady"], "analysis.simulate.steady");
      if (m["cycles"]) a.cycles = in_.integer(m["cycles"], "analysis.simulate.cycles", 1);
      if (m["steps"]) a.simulate_steps = in_.integer(m["steps"], "analysis.simulate.steps", 1);
      if (m["t_end"]) {
        a.t_end = in_.number(m["t_end"], "analysis.simulate.t_end");
        if (!(a.t_end > 0.0)) in_.fail(m["t_end"], "analysis.simulate.t_end", "must be positive", "give t_end in s");
      }
      if (m["method"]) {
        a.method = in_.text(m["method"], "analysis.simulate.method");
        if (a.method != "auto" && a.method != "reduced" && a.method != "full" && a.method != "kane")
          in_.fail(m["method"], "analysis.simulate.method", "unknown method '" + a.method + "'",
                   "write auto, reduced, full or kane");
      }
      if (m["friction"]) a.friction = flag_or_map(m["friction"], "analysis.simulate.friction");
    }
    if (const YAML::Node f = node["flex"]; f && (a.flex = flag_or_map(f, "analysis.flex")) && f.IsMap()) {
      in_.allow_only(f, "analysis.flex", {"modes"});
      if (f["modes"]) a.modes = in_.integer(f["modes"], "analysis.flex.modes", 1);
    }
    if (!(a.kinematics || a.kinetostatics || a.reduce || a.simulate || a.flex))
      in_.fail(node, "analysis", "no analysis is switched on",
               "write kinematics, kinetostatics, reduce, simulate or flex: true");
  }

  StudyMetric metric(const std::string& name, const YAML::Node& node, const StudyAnalyses& a) {
    const std::string entity = "metric '" + name + "'";
    in_.allow_only(node, entity, {"column", "stat", "at", "value", "unit"});
    StudyMetric m;
    m.name = name;
    m.where = in_.where(node);
    if (node["value"]) {
      if (node["column"] || node["stat"] || node["at"])
        in_.fail(node, entity, "a metric is either a value or a column", "keep value: or column:");
      m.statistic = StudyMetric::Statistic::value;
      m.value = in_.text(node["value"], entity + ".value");
      const std::string analysis = m.value.substr(0, m.value.find('.'));
      const bool on = (analysis == "kinematics" && a.kinematics) || (analysis == "kinetostatics" && a.kinetostatics) ||
                      (analysis == "steady" && a.simulate && a.steady) || (analysis == "simulate" && a.simulate);
      if (!on)
        in_.fail(node["value"], entity, "'" + m.value + "' needs an analysis the study does not run",
                 "switch on the analysis it names under analysis:, see docs/studies.md");
    } else {
      m.column = in_.text(in_.required(node, "column", entity, "give column: or value:"), entity + ".column");
      if (node["at"]) {
        if (node["stat"]) in_.fail(node, entity, "give either stat: or at:", "keep one of them");
        m.statistic = StudyMetric::Statistic::at;
        m.at = quantity(node["at"], entity + ".at");
      } else {
        const std::string stat = in_.text(in_.required(node, "stat", entity,
                                                       "give stat: max, min, mean, rms, "
                                                       "range or max_abs"),
                                          entity + ".stat");
        if (stat == "max")
          m.statistic = StudyMetric::Statistic::max;
        else if (stat == "min")
          m.statistic = StudyMetric::Statistic::min;
        else if (stat == "mean")
          m.statistic = StudyMetric::Statistic::mean;
        else if (stat == "rms")
          m.statistic = StudyMetric::Statistic::rms;
        else if (stat == "range")
          m.statistic = StudyMetric::Statistic::range;
        else if (stat == "max_abs")
          m.statistic = StudyMetric::Statistic::max_abs;
        else
          in_.fail(node["stat"], entity, "unknown statistic '" + stat + "'",
                   "write max, min, mean, rms, range or max_abs");
      }
    }
    if (node["unit"]) {
      m.unit = in_.text(node["unit"], entity + ".unit");
      const auto size = parse_any_quantity("1 " + m.unit);
      if (!size) in_.fail(node["unit"], entity, "unknown unit '" + m.unit + "'", "write a unit such as deg, mm or kN");
      m.unit_size = size->first;
    }
    return m;
  }

  [[nodiscard]] int metric_index(const YAML::Node& key, const Study& s, const std::string& entity) const {
    for (size_t k = 0; k < s.metrics.size(); ++k)
      if (s.metrics[k].name == key.Scalar()) return static_cast<int>(k);
    in_.fail(key, entity, "'" + key.Scalar() + "' is not a metric of the study", "name a metric under metrics:");
  }

  void objectives(const YAML::Node& node, Study& s) {
    in_.require_map(node, "objectives");
    for (const auto& kv : node) {
      StudyObjective o;
      o.metric = metric_index(kv.first, s, "objectives");
      const std::string sense = in_.text(kv.second, "objective '" + kv.first.Scalar() + "'");
      if (sense != "minimise" && sense != "maximise" && sense != "minimize" && sense != "maximize")
        in_.fail(kv.second, "objectives", "unknown sense '" + sense + "'", "write minimise or maximise");
      o.maximise = sense.starts_with("max");
      s.objectives.push_back(o);
    }
    if (s.objectives.empty() || s.objectives.size() > 2)
      in_.fail(node, "objectives", "an optimisation takes one or two objectives",
               "keep one metric to minimise, or two for a Pareto front");
  }

  void constraints(const YAML::Node& node, Study& s) {
    in_.require_map(node, "constraints");
    for (const auto& kv : node) {
      const std::string entity = "constraint '" + kv.first.Scalar() + "'";
      in_.allow_only(kv.second, entity, {"min", "max"});
      StudyConstraint c;
      c.metric = metric_index(kv.first, s, "constraints");
      const StudyMetric& m = s.metrics[static_cast<size_t>(c.metric)];
      // A bound with a unit is converted to the metric's unit; a bare number is in it.
      const auto unit_kind = m.unit.empty() ? std::nullopt : parse_any_quantity("1 " + m.unit);
      auto bound = [&](const YAML::Node& b) {
        const auto value = parse_any_quantity(b.IsScalar() ? b.Scalar() : std::string());
        if (!value) in_.fail(b, entity, "expected a number", "write min: 40 deg");
        if (value->second == Quantity::plain || b.Scalar().find_first_of(" \t") == std::string::npos)
          return value->first;  // a bare number: in the metric's unit
        if (!unit_kind || unit_kind->second != value->second)
          in_.fail(b, entity, "the bound's unit is not of the metric's kind",
                   m.unit.empty() ? "give the bound in SI without a unit, or give the metric a unit: (unit: deg)"
                                  : "give the bound in " + m.unit + " or a unit of the same kind");
        return value->first / m.unit_size;
      };
      if (kv.second["min"]) c.min = bound(kv.second["min"]);
      if (kv.second["max"]) c.max = bound(kv.second["max"]);
      if (!c.min && !c.max) in_.fail(kv.second, entity, "no bound", "give min:, max: or both");
      s.constraints.push_back(c);
    }
  }

  void optimiser(const YAML::Node& node, OptimiserSettings& o) {
    in_.allow_only(node, "optimiser", {"global", "local", "global_evaluations", "local_evaluations", "tolerance"});
    o.where = in_.where(node);
    if (node["global"]) o.global = in_.text(node["global"], "optimiser.global");
    if (node["local"]) o.local = in_.text(node["local"], "optimiser.local");
    if (node["global_evaluations"])
      o.global_evaluations = in_.integer(node["global_evaluations"], "optimiser.global_evaluations", 0);
    if (node["local_evaluations"])
      o.local_evaluations = in_.integer(node["local_evaluations"], "optimiser.local_evaluations", 0);
    if (node["tolerance"]) {
      o.tolerance = in_.number(node["tolerance"], "optimiser.tolerance");
      if (!(o.tolerance > 0.0)) in_.fail(node["tolerance"], "optimiser.tolerance", "must be positive", "give 1e-6");
    }
    if (!o.global.starts_with("GN_") && o.global != "none")
      in_.fail(node["global"], "optimiser.global", "'" + o.global + "' is not a derivative-free global method",
               "write an NLopt GN_ name such as GN_ISRES, or none");
    if (!o.local.starts_with("LN_") && o.local != "none")
      in_.fail(node["local"], "optimiser.local", "'" + o.local + "' is not a derivative-free local method",
               "write an NLopt LN_ name such as LN_COBYLA, or none");
  }

  void pareto(const YAML::Node& node, Study& s) {
    in_.allow_only(node, "pareto", {"method", "points"});
    if (node["method"]) {
      const std::string method = in_.text(node["method"], "pareto.method");
      if (method == "weighted")
        s.optimiser.pareto = OptimiserSettings::weighted;
      else if (method == "epsilon")
        s.optimiser.pareto = OptimiserSettings::epsilon;
      else
        in_.fail(node["method"], "pareto.method", "unknown method '" + method + "'", "write weighted or epsilon");
    }
    if (node["points"]) s.optimiser.pareto_points = in_.integer(node["points"], "pareto.points", 3);
  }

  void statistics(const YAML::Node& node, Study& s) {
    in_.allow_only(node, "statistics", {"percentiles", "confidence"});
    if (const YAML::Node p = node["percentiles"]) {
      if (!p.IsSequence()) in_.fail(p, "statistics.percentiles", "expected a list", "write percentiles: [5, 50, 95]");
      s.percentiles.clear();
      for (const YAML::Node& item : p) {
        const double v = in_.number(item, "statistics.percentiles");
        if (!(v > 0.0 && v < 100.0)) in_.fail(item, "statistics.percentiles", "must lie in (0, 100)", "write 5 or 95");
        s.percentiles.push_back(v);
      }
    }
    if (node["confidence"]) {
      s.confidence = in_.number(node["confidence"], "statistics.confidence");
      if (!(s.confidence > 0.0 && s.confidence < 1.0))
        in_.fail(node["confidence"], "statistics.confidence", "must lie in (0, 1)", "write 0.95");
    }
  }

  YamlReader in_;
  std::string path_;
};

}  // namespace

StudyFile load_study(const std::string& path) {
  try {
    return StudyParser(path).parse();
  } catch (const YAML::Exception& e) {
    throw InputError({path, e.mark.line + 1}, "study", "unexpected YAML: " + e.msg,
                     "write the entry as docs/studies.md shows");
  }
}

}  // namespace linkdyn::io
