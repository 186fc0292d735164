// Fuzz target: `linkdyn study` of two variants of a mutated model (its first moving body's mass
// as given and half as large again), kinematics and kinetostatics over a few positions, a metric
// of the first driver's effort; on one thread. A variant analysed (status ok) has finite metrics.
#include <nlohmann/json.hpp>

#include "fuzz_support.hpp"
#include "linkdyn/report/report.hpp"
#include "linkdyn/study/study.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace linkdyn;
  return fuzz::expect_clear_errors([&] {
    const fuzz::ModelInput in(data, size);
    if (in.m.bodies().size() < 2 || in.m.drivers().empty()) return;
    const planar::Body& body = in.m.bodies()[1];
    const planar::Driver& driver = in.m.drivers()[0];
    const bool rotational = driver.type == planar::DriverType::rotational;
    // Names and numbers as JSON: YAML reads them so (double-quoted scalars, round-trip numbers).
    auto json = [](const auto& value) { return nlohmann::json(value).dump(); };
    const std::string text =
        "study: sweep\nmodel: input.yaml\nparameters:\n  mass: {path: " + json("bodies." + body.name + ".mass") +
        ", values: [" + json(body.mass) + ", " + json(1.5 * body.mass) +
        "]}\nanalysis: {steps: " + json(fuzz::grid_steps) +
        ", kinematics: true, kinetostatics: {friction: true}}\nmetrics:\n  effort: {column: " +
        json(driver.name + (rotational ? ".torque" : ".force")) + ", stat: max_abs}\n";
    const std::string path = (fuzz::input_folder() / "study.yaml").string();
    std::ofstream(path) << text;
    const io::StudyFile file = io::load_study(path);
    study::ThreadExecutor executor(file.study, *file.model, 1);
    study::check_metrics(file.study, *file.model);
    const study::StudyResult result = study::run_study(file.study, *file.model, executor);
    for (const study::Variant& v : result.variants)
      if (v.status == study::Status::ok)
        for (double metric : v.metrics) fuzz::require_finite(metric, "a metric of a variant analysed");
    (void)study::variants_csv(file.study, result);
    (void)report::study_report_html(file.study, result);
  });
}
