// A study's results as CSV and JSON (study::variants_csv, study::study_json).
#include <fmt/format.h>

#include <cmath>
#include <nlohmann/json.hpp>

#include "linkdyn/core/version.hpp"
#include "linkdyn/study/study.hpp"

namespace linkdyn::study {
namespace {

using Json = nlohmann::ordered_json;

const char* kind_name(io::StudyKind kind) {
  switch (kind) {
    case io::StudyKind::sweep: return "sweep";
    case io::StudyKind::monte_carlo: return "monte_carlo";
    case io::StudyKind::optimisation: return "optimisation";
  }
  return "";
}

/// A number for a table: the shortest text that reads back to the same double; empty if undefined.
std::string cell(double v) { return std::isfinite(v) ? fmt::format("{}", v) : std::string(); }

Json number(double v) { return std::isfinite(v) ? Json(v) : Json(nullptr); }

std::string quoted(const std::string& text) {
  if (text.find_first_of(",\"\n") == std::string::npos) return text;
  std::string out = "\"";
  for (char c : text) out += c == '"' ? std::string("\"\"") : std::string(1, c);
  return out + "\"";
}

Json variant_json(const io::Study& study, const Variant& v, size_t index) {
  Json j;
  j["variant"] = index;
  if (study.kind == io::StudyKind::optimisation) {
    j["run"] = v.run;
    j["phase"] = v.phase == 0 ? "global" : "local";
    j["optimum"] = v.optimum;
  }
  Json p = Json::object(), m = Json::object();
  for (size_t k = 0; k < study.parameters.size(); ++k) p[study.parameters[k].name] = number(v.parameters[k]);
  for (size_t k = 0; k < study.metrics.size(); ++k) m[study.metrics[k].name] = number(v.metrics[k]);
  j["parameters"] = p;
  j["metrics"] = m;
  j["status"] = status_name(v.status);
  if (!v.reason.empty()) j["reason"] = v.reason;
  return j;
}

}  // namespace

std::string variants_csv(const io::Study& study, const StudyResult& result) {
  const bool optimisation = study.kind == io::StudyKind::optimisation;
  std::string out = optimisation ? "variant,run,phase,optimum" : "variant";
  for (const io::StudyParameter& p : study.parameters) out.append(",").append(quoted(p.name));
  for (const io::StudyMetric& m : study.metrics) out.append(",").append(quoted(m.name));
  out += ",status,reason\n";
  for (size_t i = 0; i < result.variants.size(); ++i) {
    const Variant& v = result.variants[i];
    out += std::to_string(i);
    if (optimisation) out += fmt::format(",{},{},{}", v.run, v.phase == 0 ? "global" : "local", v.optimum ? 1 : 0);
    for (double p : v.parameters) out.append(",").append(cell(p));
    for (double m : v.metrics) out.append(",").append(cell(m));
    out += fmt::format(",{},{}\n", status_name(v.status), quoted(v.reason));
  }
  return out;
}

std::string study_json(const io::Study& study, const StudyResult& result) {
  Json j;
  j["study"] = study.file;
  j["model"] = study.model_file;
  j["linkdyn"] = version;
  j["kind"] = kind_name(study.kind);
  j["seed"] = study.seed;
  if (study.samples > 0) j["samples"] = study.samples;
  Json parameters = Json::array();
  for (const io::StudyParameter& p : study.parameters)
    parameters.push_back({{"name", p.name},
                          {"path", p.entry.path},
                          {"unit", si_unit(p.entry.kind)},
                          {"nominal", number(p.entry.value)},
                          {"low", number(p.lower)},
                          {"high", number(p.upper)}});
  j["parameters"] = parameters;
  Json metrics = Json::array();
  for (const io::StudyMetric& m : study.metrics)
    metrics.push_back({{"name", m.name},
                       {"of", m.statistic == io::StudyMetric::Statistic::value ? m.value : m.column},
                       {"unit", m.unit}});
  j["metrics"] = metrics;
  Json summary;
  Json counts = Json::object();
  for (int s = 0; s < status_count; ++s)
    if (static_cast<size_t>(s) < result.status_counts.size() && result.status_counts[static_cast<size_t>(s)] > 0)
      counts[status_name(static_cast<Status>(s))] = result.status_counts[static_cast<size_t>(s)];
  summary["status"] = counts;
  for (size_t k = 0; k < result.summaries.size(); ++k) {
    const MetricSummary& s = result.summaries[k];
    Json m{{"n", s.n},
           {"mean", number(s.mean)},
           {"mean_interval", {number(s.mean_low), number(s.mean_high)}},
           {"std", number(s.std)},
           {"std_interval", {number(s.std_low), number(s.std_high)}},
           {"min", number(s.min)},
           {"max", number(s.max)}};
    Json pct = Json::object();
    for (size_t q = 0; q < study.percentiles.size(); ++q)
      pct[fmt::format("{}", study.percentiles[q])] = {
          {"value", number(s.percentile[q])},
          {"interval", {number(s.percentile_low[q]), number(s.percentile_high[q])}}};
    m["percentiles"] = pct;
    if (k < result.sensitivities.size()) {
      const Sensitivity& sens = result.sensitivities[k];
      Json src = Json::object(), sobol = Json::object();
      for (size_t p = 0; p < study.parameters.size(); ++p) {
        src[study.parameters[p].name] = number(sens.src[p]);
        sobol[study.parameters[p].name] = number(sens.sobol[p]);
      }
      m["sensitivity"] = {{"regression_r2", number(sens.r2)}, {"src", src}, {"sobol_first_order", sobol}};
    }
    summary["metrics"][study.metrics[k].name] = m;
  }
  if (study.kind == io::StudyKind::optimisation) {
    Json runs = Json::array();
    for (const OptimumRun& r : result.runs)
      runs.push_back({{"run", r.run},
                      {"weight", r.weight},
                      {"epsilon", r.epsilon},
                      {"best", r.best},
                      {"feasible", r.feasible},
                      {"evaluations", r.evaluations}});
    summary["runs"] = runs;
    if (!result.pareto.empty()) summary["pareto"] = result.pareto;
    if (result.best < result.variants.size())
      summary["best"] = variant_json(study, result.variants[result.best], result.best);
  }
  j["summary"] = summary;
  Json variants = Json::array();
  for (size_t i = 0; i < result.variants.size(); ++i) variants.push_back(variant_json(study, result.variants[i], i));
  j["variants"] = variants;
  return j.dump(1) + "\n";
}

}  // namespace linkdyn::study
