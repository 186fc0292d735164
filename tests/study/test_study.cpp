// Design studies: statistics against closed forms, the optimiser against a known optimum and
// against a grid, determinism over threads, failed variants, model templates.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <Eigen/Dense>
#include <cmath>
#include <filesystem>

#include "linkdyn/dynamics/reduced.hpp"
#include "linkdyn/io/model_template.hpp"
#include "linkdyn/io/study_file.hpp"
#include "linkdyn/io/table_writer.hpp"
#include "linkdyn/planar/kinetostatics.hpp"
#include "linkdyn/planar/sweep.hpp"
#include "linkdyn/study/study.hpp"
#include "test_support.hpp"

namespace linkdyn::test {
namespace {

/// The seed four-bar [001 Table 1] with a moment load on the crank (0 N m in the file), in the
/// test's folder; studies written beside it.
std::string fourbar_with_crank_moment() {
  const std::string dir = ::testing::TempDir() + "/study";
  std::filesystem::create_directories(dir);
  std::string text = read_text(example("seed001-fourbar"));
  const std::string anchor = "loads:                   # no gravity in [001]'s study\n";
  const size_t at = text.find(anchor);
  EXPECT_NE(at, std::string::npos);
  text.insert(at + anchor.size(), "  crank_moment: {type: moment, body: crank, value: 0}\n");
  const std::string path = dir + "/fourbar-moment.yaml";
  // Whole or not at all (a temporary file renamed): the tests run in parallel processes and
  // each writes this file; a plain rewrite let another read it empty.
  io::write_file(path, [&](std::ostream& out) { out << text; });
  return path;
}

std::string write_study(const std::string& name, const std::string& text) {
  std::filesystem::create_directories(::testing::TempDir() + "/study");
  const std::string path = ::testing::TempDir() + "/study/" + name;
  io::write_file(path, [&](std::ostream& out) { out << text; });
  return path;
}

study::StudyResult run(const io::StudyFile& file, int threads, study::StudyOptions options = {}) {
  study::ThreadExecutor executor(file.study, *file.model, threads);
  return study::run_study(file.study, *file.model, executor, options);
}

/// The crank's frictionless driving torque of the four-bar with moments a on the crank and b on
/// the rocker, at every grid position: T = T0 - a - b rho (virtual work, linear in the loads).
struct LinearTorque {
  Eigen::VectorXd t0, rho;
};
LinearTorque linear_torque(const std::string& model_path, const std::string& rocker_load) {
  auto torque = [&](double a, double b) {
    std::string text = read_text(model_path);
    text.replace(text.find("value: 0}"), 9, fmt::format("value: {}}}", a));
    text.replace(text.find(rocker_load), rocker_load.size(), fmt::format("value: {}", b));
    const planar::Mechanism m = planar::compile(io::parse_model(text, model_path).mechanism);
    planar::KinetostaticsOptions options;
    options.friction = false;
    return Eigen::VectorXd(planar::kinetostatics(m, planar::analysis_grid(m, 360), options).effort.col(0));
  };
  const Eigen::VectorXd base = torque(0.0, 0.0);
  return {base, base - torque(0.0, 1.0)};
}

TEST(StudyStatistics, SummaryOfAKnownSampleMatchesItsDefinitions) {
  std::vector<double> values(100);
  for (int k = 0; k < 100; ++k) values[static_cast<size_t>(k)] = k + 1;
  const study::MetricSummary s = study::summarize(values, {5, 50}, 0.95);
  EXPECT_EQ(s.n, 100);
  EXPECT_DOUBLE_EQ(s.mean, 50.5);
  EXPECT_NEAR(s.std, std::sqrt(100.0 * 101.0 / 12.0), 1e-12);  // (n^2 - 1) / 12 * n / (n - 1)
  EXPECT_DOUBLE_EQ(s.percentile[0], 5.95);                     // 1 + 0.05 * 99
  EXPECT_DOUBLE_EQ(s.percentile[1], 50.5);
  // Student's t(99) at 0.975 is 1.984217: the interval of the mean.
  EXPECT_NEAR(s.mean_high - s.mean, 1.984217 * s.std / 10.0, 1e-5);
  EXPECT_LT(s.percentile_low[1], 50.5);
  EXPECT_GT(s.percentile_high[1], 50.5);
}

TEST(StudyStatistics, SobolIndicesOfALinearFunctionAreTheSquaredRegressionCoefficients) {
  // y = 3 x1 + x2 + 0 x3 with independent uniform x: S_i = SRC_i^2 = b_i^2 / sum b^2.
  std::vector<std::vector<double>> x;
  std::vector<double> y;
  std::uint64_t state = 12345;
  auto uniform = [&] {
    state = state * 6364136223846793005ULL + 1442695040888963407ULL;
    return static_cast<double>(state >> 11) * 0x1.0p-53;
  };
  for (int i = 0; i < 8000; ++i) {
    x.push_back({uniform(), uniform(), uniform()});
    y.push_back(3.0 * x.back()[0] + x.back()[1]);
  }
  const study::Sensitivity s = study::sensitivity(x, y);
  EXPECT_NEAR(s.r2, 1.0, 1e-12);
  EXPECT_NEAR(s.src[0], 3.0 / std::sqrt(10.0), 0.01);
  EXPECT_NEAR(s.src[1], 1.0 / std::sqrt(10.0), 0.01);
  EXPECT_NEAR(s.src[2], 0.0, 1e-10);
  EXPECT_NEAR(s.sobol[0], 0.9, 0.02);
  EXPECT_NEAR(s.sobol[1], 0.1, 0.02);
  EXPECT_NEAR(s.sobol[2], 0.0, 0.02);
}

TEST(StudyMonteCarlo, ALoadThatEntersTheTorqueLinearlyGivesTheClosedFormMeanAndSpread) {
  // T(90 deg) = T0(90 deg) - M for a moment M on the crank: with M normal (mean 100 N m, std
  // 20 N m, truncated at +-3 std) the metric's mean is T0 - 100 and its standard deviation that
  // of the truncated law, sigma sqrt(1 - 2 beta phi(beta) / (2 Phi(beta) - 1)), beta = 3.
  const std::string model = fourbar_with_crank_moment();
  const std::string path = write_study("mc-linear.yaml", R"(study: monte_carlo
model: fourbar-moment.yaml
samples: 3000
seed: 11
parameters:
  M: {path: loads.crank_moment.value, normal: {mean: 100, std: 20, within: [40, 160]}}
analysis: {kinetostatics: {friction: false}}
metrics:
  torque_90: {column: crank_drive.torque, at: 90 deg}
statistics: {confidence: 0.99}
)");
  const io::StudyFile file = io::load_study(path);
  const study::StudyResult r = run(file, 2);
  ASSERT_EQ(r.variants.size(), 3000u);
  const LinearTorque lin = linear_torque(model, "value: -250");
  const double t0 = lin.t0(90) + 250.0 * lin.rho(90);  // row 90 of 360: 90 deg; the file's -250 N m on the rocker
  for (const study::Variant& v : r.variants) {
    ASSERT_EQ(v.status, study::Status::ok) << v.reason;
    EXPECT_NEAR(v.metrics[0] + v.parameters[0], t0, 1e-8 * std::abs(t0));  // exactly linear, slope -1
    EXPECT_GE(v.parameters[0], 40.0);
    EXPECT_LE(v.parameters[0], 160.0);
  }
  const double beta = 3.0, phi = std::exp(-0.5 * beta * beta) / std::sqrt(2.0 * M_PI);
  const double Phi = 0.5 * (1.0 + std::erf(beta / std::sqrt(2.0)));
  const double sigma = 20.0 * std::sqrt(1.0 - 2.0 * beta * phi / (2.0 * Phi - 1.0));
  const study::MetricSummary& s = r.summaries[0];
  EXPECT_LE(s.mean_low, t0 - 100.0);
  EXPECT_GE(s.mean_high, t0 - 100.0);
  EXPECT_LE(s.std_low, sigma);
  EXPECT_GE(s.std_high, sigma);
  EXPECT_LT(s.mean_high - s.mean_low, 2.0);  // 2 x 2.58 x 19.7 / sqrt(3000)
  ASSERT_EQ(r.sensitivities.size(), 1u);
  EXPECT_NEAR(r.sensitivities[0].src[0], -1.0, 1e-9);
}

TEST(StudyDesign, ALatinHypercubePutsOneSampleInEveryStratumOfEveryParameter) {
  fourbar_with_crank_moment();
  const std::string path = write_study("lhs.yaml", R"(study: sweep
design: latin_hypercube
model: fourbar-moment.yaml
samples: 97
parameters:
  crank_mass: {path: bodies.crank.mass, range: [1, 10]}
  rocker_mass: {path: bodies.rocker.mass, uniform: [2, 4]}
  M: {path: loads.crank_moment.value, normal: {std: 10, within: [-30, 30]}}
analysis: {kinetostatics: {friction: false}}
metrics:
  peak: {column: crank_drive.torque, stat: max_abs}
)");
  const io::StudyFile file = io::load_study(path);
  const size_t n = study::design_size(file.study);
  ASSERT_EQ(n, 97u);
  for (size_t j = 0; j < 2; ++j) {  // the uniform ones: stratum = floor(n (x - low) / (high - low))
    std::vector<int> hits(n, 0);
    const io::StudyParameter& p = file.study.parameters[j];
    for (size_t i = 0; i < n; ++i) {
      std::vector<double> x(3);
      study::design_point(file.study, i, x);
      ++hits[static_cast<size_t>(std::floor(static_cast<double>(n) * (x[j] - p.lower) / (p.upper - p.lower)))];
    }
    for (size_t k = 0; k < n; ++k) EXPECT_EQ(hits[k], 1) << p.name << " stratum " << k;
  }
}

TEST(StudyOptimisation, FindsTheLeastSquaresLoadsThatMinimiseTheRmsTorque) {
  // rms(T0 - a - b rho) over the grid is least at the least-squares solution of [1 rho] (a, b) = T0.
  const std::string model = fourbar_with_crank_moment();
  const std::string path = write_study("opt-ls.yaml", R"(study: optimisation
model: fourbar-moment.yaml
seed: 3
parameters:
  a: {path: loads.crank_moment.value, bounds: [-20000, 20000]}
  b: {path: loads.load_rocker.value, bounds: [-20000, 20000]}
analysis: {steps: 360, kinetostatics: {friction: false}}
metrics:
  rms_torque: {column: crank_drive.torque, stat: rms}
objectives: {rms_torque: minimise}
optimiser: {global_evaluations: 300, local_evaluations: 400, tolerance: 1e-12}
)");
  const io::StudyFile file = io::load_study(path);
  const study::StudyResult r = run(file, 1);
  const LinearTorque lin = linear_torque(model, "value: -250");
  Eigen::MatrixXd A(lin.t0.size(), 2);
  A.col(0).setOnes();
  A.col(1) = lin.rho;
  const Eigen::Vector2d best = A.colPivHouseholderQr().solve(lin.t0);
  const double rms_best = std::sqrt((lin.t0 - A * best).squaredNorm() / static_cast<double>(lin.t0.size()));
  ASSERT_LT(r.best, r.variants.size());
  const study::Variant& v = r.variants[r.best];
  EXPECT_NEAR(v.metrics[0], rms_best, 1e-6 * rms_best);
  EXPECT_NEAR(v.parameters[0], best(0), 1e-3 * 40000);
  EXPECT_NEAR(v.parameters[1], best(1), 1e-3 * 40000);
  EXPECT_TRUE(v.optimum);
}

TEST(StudyOptimisation, TheSynthesisExampleMeetsItsConstraintsAndBeatsEveryFeasibleDesignOfAGrid) {
  const io::StudyFile file = io::load_study(std::string(LINKDYN_EXAMPLES_DIR) + "/studies/fourbar-synthesis.yaml");
  const study::StudyResult r = run(file, 2);
  ASSERT_LT(r.best, r.variants.size());
  const study::Variant& best = r.variants[r.best];
  ASSERT_EQ(best.status, study::Status::ok);
  EXPECT_GE(best.metrics[1], 40.0 - 1e-4);  // transmission angle (deg), within the constraint's tolerance
  // The same problem on a 25 x 25 grid of the bounds: no feasible grid design is better.
  const std::string grid = write_study("synthesis-grid.yaml", fmt::format(R"(study: sweep
model: {}/seed001-fourbar.yaml
parameters:
  rocker_DC:  {{path: bodies.rocker.points.C.x, range: [2.0, 6.0], points: 25}}
  coupler_BC: {{path: bodies.coupler.points.C.x, range: [3.5, 8.0], points: 25}}
analysis: {{steps: 180, kinematics: true, kinetostatics: {{friction: true}}}}
metrics:
  peak_torque:            {{column: crank_drive.torque, stat: max_abs}}
  min_transmission_angle: {{column: C.transmission_angle, stat: min, unit: deg}}
)",
                                                                          LINKDYN_EXAMPLES_DIR));
  const study::StudyResult g = run(io::load_study(grid), 2);
  int feasible = 0, failed = 0;
  for (const study::Variant& v : g.variants) {
    if (v.status != study::Status::ok) {
      ++failed;
      EXPECT_FALSE(v.reason.empty());
      continue;
    }
    if (v.metrics[1] < 40.0) continue;
    ++feasible;
    EXPECT_GE(v.metrics[0], best.metrics[0] * (1.0 - 1e-9));
  }
  EXPECT_GT(feasible, 5);
  EXPECT_GT(failed, 5);                       // designs that do not turn fully: rows with their reason
  EXPECT_LT(best.metrics[0], 0.7 * 18552.9);  // the seed's peak torque, 18.55 kN m
}

TEST(StudyOptimisation, TwoObjectivesGiveANonDominatedFrontBetweenTheSingleObjectiveOptima) {
  fourbar_with_crank_moment();
  for (const char* method : {"weighted", "epsilon"}) {
    const std::string path = write_study(std::string("pareto-") + method + ".yaml", fmt::format(R"(study: optimisation
model: fourbar-moment.yaml
parameters:
  a: {{path: loads.crank_moment.value, bounds: [-5000, 5000]}}
analysis: {{steps: 90, kinetostatics: {{friction: false}}}}
metrics:
  rms_torque: {{column: crank_drive.torque, stat: rms}}
  peak_torque: {{column: crank_drive.torque, stat: max}}
objectives: {{rms_torque: minimise, peak_torque: minimise}}
optimiser: {{global_evaluations: 60, local_evaluations: 60, tolerance: 1e-10}}
pareto: {{method: {}, points: 5}}
)",
                                                                                                method));
    const study::StudyResult r = run(io::load_study(path), 2);
    ASSERT_GE(r.pareto.size(), 3u) << method;
    for (size_t k = 1; k < r.pareto.size(); ++k) {  // by the first objective up, the second down
      const auto& a = r.variants[r.pareto[k - 1]].metrics;
      const auto& b = r.variants[r.pareto[k]].metrics;
      EXPECT_GT(b[0], a[0]) << method;
      EXPECT_LT(b[1], a[1]) << method;
    }
    // The front's ends are the single-objective optima (the runs 0 and 1).
    EXPECT_EQ(r.pareto.front(), r.runs[0].best) << method;
    EXPECT_EQ(r.pareto.back(), r.runs[1].best) << method;
  }
}

TEST(StudyExecution, OneOrTwoThreadsGiveTheSameFilesByteForByte) {
  fourbar_with_crank_moment();
  const std::string path = write_study("threads.yaml", R"(study: monte_carlo
model: fourbar-moment.yaml
samples: 300
seed: 5
parameters:
  rocker: {path: bodies.rocker.points.C.x, uniform: [1.5, 3.5]}
  M: {path: loads.crank_moment.value, tolerance: 50}
analysis: {kinematics: true, kinetostatics: {friction: true}}
metrics:
  peak: {column: crank_drive.torque, stat: max_abs}
  gamma_min: {column: C.transmission_angle, stat: min, unit: deg}
)");
  const io::StudyFile file = io::load_study(path);
  const study::StudyResult one = run(file, 1), two = run(file, 2);
  EXPECT_EQ(study::variants_csv(file.study, one), study::variants_csv(file.study, two));
  EXPECT_EQ(study::study_json(file.study, one), study::study_json(file.study, two));
  EXPECT_GT(one.status_counts[static_cast<size_t>(study::Status::no_assembly)], 10);  // short rockers
  EXPECT_GT(one.status_counts[0], 10);
}

TEST(StudyExecution, ALoadTablesScaleEntersTheFrictionlessTorqueLinearly) {
  // The toggle press's forming force from its table, scaled 0, 1, 2 and 3 times: the driving
  // torque at any crank angle is T0 + s T1, so its second differences vanish.
  const std::string path = write_study("table-scale.yaml", fmt::format(R"(study: sweep
model: {}/toggle-press.yaml
parameters:
  s: {{path: loads.forming.table.scale, values: [0, 1, 2, 3]}}
analysis: {{steps: 360, kinetostatics: {{friction: false}}}}
metrics:
  at_130: {{column: crank_drive.torque, at: 130 deg}}
  at_170: {{column: crank_drive.torque, at: 170 deg}}
)",
                                                                       LINKDYN_EXAMPLES_DIR));
  const study::StudyResult r = run(io::load_study(path), 2);
  ASSERT_EQ(r.variants.size(), 4u);
  for (size_t k = 0; k < 2; ++k) {
    const double t0 = r.variants[0].metrics[k], t1 = r.variants[1].metrics[k];
    const double t2 = r.variants[2].metrics[k], t3 = r.variants[3].metrics[k];
    const double size = std::abs(t3) + std::abs(t0);
    EXPECT_NEAR(t2 - 2.0 * t1 + t0, 0.0, 1e-9 * size) << k;
    EXPECT_NEAR(t3 - 2.0 * t2 + t1, 0.0, 1e-9 * size) << k;
    EXPECT_GT(std::abs(t1 - t0), 1e-3 * size) << "the table loads the press at " << (k ? 170 : 130) << " deg";
  }
}

TEST(StudyExecution, AReducedParameterAtADriverValueIsTheReducedTablesValueThere) {
  const std::string path = write_study("reduce-at.yaml", fmt::format(R"(study: sweep
model: {}/seed001-fourbar.yaml
parameters:
  mass: {{path: bodies.coupler.mass, values: [30]}}
analysis: {{reduce: {{points: 360}}}}
metrics:
  m_90: {{column: m, at: 90 deg}}
)",
                                                                     LINKDYN_EXAMPLES_DIR));
  const study::StudyResult r = run(io::load_study(path), 1);
  const io::Model model = io::read_model(example("seed001-fourbar"));
  const planar::Mechanism m = planar::compile(model.mechanism);
  const dynamics::ReducedTable t = dynamics::tabulate_reduced_parameters(m, 360, model.machine.constraint_actions);
  ASSERT_NEAR(t.q[90], M_PI / 2.0, 1e-12);
  EXPECT_NEAR(r.variants[0].metrics[0], t.m[90], 1e-12 * t.m[90]);
}

TEST(StudyExecution, AnInvalidVariantIsARowWithTheModelsError) {
  fourbar_with_crank_moment();
  const std::string path = write_study("invalid.yaml", R"(study: sweep
model: fourbar-moment.yaml
parameters:
  mass: {path: bodies.crank.mass, values: [-1, 4.8]}
analysis: {kinetostatics: {friction: false}}
metrics:
  peak: {column: crank_drive.torque, stat: max_abs}
)");
  const study::StudyResult r = run(io::load_study(path), 1);
  ASSERT_EQ(r.variants.size(), 2u);
  EXPECT_EQ(r.variants[0].status, study::Status::invalid);
  EXPECT_NE(r.variants[0].reason.find("mass"), std::string::npos) << r.variants[0].reason;
  EXPECT_TRUE(std::isnan(r.variants[0].metrics[0]));
  EXPECT_EQ(r.variants[1].status, study::Status::ok);
}

TEST(StudyExecution, AResumedStudyTakesItsFinishedVariantsFromTheJournal) {
  fourbar_with_crank_moment();
  const std::string path = write_study("resume.yaml", R"(study: sweep
model: fourbar-moment.yaml
parameters:
  M: {path: loads.crank_moment.value, range: [0, 100], points: 11}
analysis: {kinetostatics: {friction: true}}
metrics:
  peak: {column: crank_drive.torque, stat: max_abs}
)");
  const io::StudyFile file = io::load_study(path);
  const std::string journal = ::testing::TempDir() + "/study/resume.journal";
  std::filesystem::remove(journal);
  study::StudyOptions options;
  options.journal = journal;
  const study::StudyResult first = run(file, 2, options);
  EXPECT_EQ(first.resumed, 0u);
  // A journal of the first five variants only, with a line cut short by a kill.
  std::string text = read_text(journal), kept;
  std::istringstream lines(text);
  std::string line;
  std::vector<std::string> all;
  while (std::getline(lines, line)) all.push_back(line);
  ASSERT_EQ(all.size(), 12u);  // the header and 11 variants
  for (size_t k = 0; k < 6; ++k) kept += all[k] + "\n";
  kept += all[6].substr(0, all[6].size() / 2);
  std::ofstream(journal) << kept;
  options.resume = true;
  const study::StudyResult second = run(file, 2, options);
  EXPECT_EQ(second.resumed, 5u);
  EXPECT_EQ(study::variants_csv(file.study, first), study::variants_csv(file.study, second));
  // The cut line was cut off before the journal was appended to: whole lines only, so a
  // second resume reads every variant, none glued to another.
  const std::string after = read_text(journal);
  EXPECT_EQ(std::count(after.begin(), after.end(), '\n'), 12);
  EXPECT_EQ(after.back(), '\n');
  const study::StudyResult third = run(file, 1, options);
  EXPECT_EQ(third.resumed, 11u);
  EXPECT_EQ(study::variants_csv(file.study, first), study::variants_csv(file.study, third));
  // Without --resume the journal is not overwritten silently.
  options.resume = false;
  EXPECT_THROW(run(file, 1, options), InputError);
}

TEST(ModelTemplate, AnEntryIsReadInSiAndWrittenBackInItsOwnUnitWithTheCommentsKept) {
  const io::ModelTemplate model(example("seed001-fourbar"));
  const io::ModelEntry radius = model.entry("friction.revolute.radius", {"s", 1}, "p");
  EXPECT_DOUBLE_EQ(radius.value, 0.0075);
  EXPECT_EQ(radius.unit, "mm");
  const io::ModelEntry dx = model.entry("ground.D.x", {"s", 1}, "p");
  EXPECT_DOUBLE_EQ(dx.value, 5.5);
  const io::ModelEntry angle = model.entry("bodies.coupler.points.S.angle", {"s", 1}, "p");
  EXPECT_NEAR(angle.value, M_PI / 6.0, 1e-15);
  const std::vector<double> values{0.008, 5.25, M_PI / 4.0};
  const std::string text = model.text_with({radius, dx, angle}, values);
  EXPECT_NE(text.find("radius: 8 mm"), std::string::npos);
  EXPECT_NE(text.find("D: [5.25, 0]"), std::string::npos);
  EXPECT_NE(text.find("angle: 45 deg}"), std::string::npos);
  EXPECT_NE(text.find("# where the 1 kN load acts"), std::string::npos);
  // The editor's model is the model of that text.
  io::ModelEditor editor(model, {radius, dx, angle});
  const io::Model edited = editor.model(values);
  const io::Model parsed = io::parse_model(text, model.path());
  auto ground_d = [](const io::Model& m) {
    for (const planar::NamedPoint& p : m.mechanism.bodies[0].points)
      if (p.name == "D") return p.local;
    return Vec2(NAN, NAN);
  };
  EXPECT_DOUBLE_EQ(ground_d(edited).x(), 5.25);
  EXPECT_EQ(ground_d(edited), ground_d(parsed));
}

TEST(ModelTemplate, APathThatLeadsNowhereNamesTheEntriesThere) {
  const io::ModelTemplate model(example("seed001-fourbar"));
  try {
    (void)model.entry("bodies.rocker.points.E.x", {"study.yaml", 7}, "parameter 'r'");
    FAIL() << "no error";
  } catch (const InputError& e) {
    const std::string what = e.what();
    EXPECT_NE(what.find("study.yaml:7"), std::string::npos) << what;
    EXPECT_NE(what.find("D, C"), std::string::npos) << what;
  }
  EXPECT_THROW((void)model.entry("bodies.rocker.points.C", {"s", 1}, "p"), InputError);  // a point, not a number
  EXPECT_THROW((void)model.entry("joints.A.type", {"s", 1}, "p"), InputError);           // a word
}

}  // namespace
}  // namespace linkdyn::test
