// linkdyn study: the same files from 1 or 2 threads and from 2 MPI ranks, --resume after a
// kill, the best design as a model file, bad input as one clear error (exit 2).
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <fcntl.h>
#include <fmt/format.h>

#include <chrono>
#include <filesystem>
#include <thread>

#include "apps/cli_run.hpp"
#include "test_support.hpp"

namespace linkdyn::test {
namespace {

std::string studies() { return std::string(LINKDYN_EXAMPLES_DIR) + "/studies/"; }
std::string temp(const std::string& name) { return ::testing::TempDir() + "/" + name; }

size_t lines_of(const std::string& path) {
  const std::string text = read_text(path);
  return static_cast<size_t>(std::count(text.begin(), text.end(), '\n'));
}

TEST(StudyCli, OneThreadTwoThreadsAndTwoMpiRanksWriteTheSameFiles) {
  const std::string study = studies() + "fourbar-tolerances.yaml";
  for (const char* f : {"t1.csv", "t1.json", "t2.csv", "t2.json", "mpi.csv", "mpi.json"}) {
    std::filesystem::remove(temp(f));
    std::filesystem::remove(temp(f) + ".journal");  // of a run of this test that failed
  }
  const CliRun one =
      run("study " + study + " --threads 1 --quiet --csv " + temp("t1.csv") + " --json " + temp("t1.json"));
  ASSERT_EQ(one.code, 0) << one.output;
  EXPECT_NE(one.output.find("2000 variants: 2000 ok"), std::string::npos) << one.output;
  const CliRun two =
      run("study " + study + " --threads 2 --quiet --csv " + temp("t2.csv") + " --json " + temp("t2.json"));
  ASSERT_EQ(two.code, 0) << two.output;
  EXPECT_EQ(read_text(temp("t1.csv")), read_text(temp("t2.csv")));
  EXPECT_EQ(read_text(temp("t1.json")), read_text(temp("t2.json")));
  EXPECT_EQ(lines_of(temp("t1.csv")), 2001u);
#ifdef LINKDYN_TEST_MPIRUN
  // As CI runs: as root, two ranks on a 2-core machine.
  std::string mpirun = std::string(LINKDYN_TEST_MPIRUN) + " --oversubscribe --allow-run-as-root -np 2 ";
#ifdef LINKDYN_TEST_SANITIZED
  // Open MPI keeps its own allocations to the end (in libmpi, libopen-pal and the components it
  // loads and unloads): leak checking is off for the ranks, every other check of the
  // sanitizers stays on.
  mpirun = "ASAN_OPTIONS=\"${ASAN_OPTIONS}:detect_leaks=0\" " + mpirun + "-x ASAN_OPTIONS ";
#endif
  const std::string cmd = mpirun + LINKDYN_CLI + " study " + study + " --threads 1 --quiet --csv " + temp("mpi.csv") +
                          " --json " + temp("mpi.json") + " 2>&1";
  FILE* pipe = popen(cmd.c_str(), "r");
  ASSERT_NE(pipe, nullptr);
  std::string output;
  char buffer[4096];
  while (fgets(buffer, sizeof buffer, pipe)) output += buffer;
  ASSERT_EQ(pclose(pipe), 0) << output;
  EXPECT_NE(output.find("2 MPI rank(s) x 1 thread(s)"), std::string::npos) << output;
  EXPECT_EQ(read_text(temp("t1.csv")), read_text(temp("mpi.csv")));
  EXPECT_EQ(read_text(temp("t1.json")), read_text(temp("mpi.json")));
#else
  GTEST_FAIL() << "built without MPI: install libopenmpi-dev and openmpi-bin (make deps) and configure again";
#endif
}

TEST(StudyCli, AStudyKilledMidwayAndResumedWritesTheSameFileWithoutRedoingFinishedVariants) {
  const std::string study =
      write_temp("long-study.yaml", "study: monte_carlo\nmodel: " + std::string(LINKDYN_EXAMPLES_DIR) +
                                        R"(/seed001-fourbar.yaml
samples: 2000
seed: 9
parameters:
  crank_AB: {path: bodies.crank.points.B.x, tolerance: 0.5 mm}
  rocker_DC: {path: bodies.rocker.points.C.x, uniform: [2.0, 3.5]}
analysis: {kinetostatics: {friction: true}}
metrics:
  peak_torque: {column: crank_drive.torque, stat: max_abs}
)");
  const std::string killed = temp("killed.csv"), whole = temp("whole.csv");
  for (const std::string& f : {killed, killed + ".journal", whole}) std::filesystem::remove(f);
  const pid_t child = fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    const int null = open("/dev/null", O_WRONLY);
    dup2(null, 1), dup2(null, 2);
    execl(LINKDYN_CLI, LINKDYN_CLI, "study", study.c_str(), "--threads", "1", "--csv", killed.c_str(), nullptr);
    _exit(127);
  }
  // Kill it once a few hundred variants are in its journal.
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
  while (std::chrono::steady_clock::now() < deadline &&
         !(std::filesystem::exists(killed + ".journal") && lines_of(killed + ".journal") > 300))
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  kill(child, SIGKILL);
  int status = 0;
  waitpid(child, &status, 0);
  ASSERT_TRUE(WIFSIGNALED(status)) << "the study ended before it was killed";
  EXPECT_FALSE(std::filesystem::exists(killed)) << "no result file from an interrupted run";
  const size_t journaled = lines_of(killed + ".journal") - 1;
  const CliRun resumed = run("study " + study + " --threads 2 --quiet --resume --csv " + killed);
  ASSERT_EQ(resumed.code, 0) << resumed.output;
  EXPECT_NE(resumed.output.find(fmt::format("resumed: {} variants", journaled)), std::string::npos)
      << "journal lines " << journaled << "\n"
      << resumed.output;
  EXPECT_FALSE(std::filesystem::exists(killed + ".journal")) << "the journal is removed once the outputs are written";
  const CliRun straight = run("study " + study + " --threads 1 --csv " + whole);
  ASSERT_EQ(straight.code, 0) << straight.output;
  EXPECT_EQ(read_text(killed), read_text(whole));
  // A run longer than two seconds shows its progress and the time left on stderr.
  const double seconds = std::stod(straight.output.substr(straight.output.find("2000 variants in ") + 17));
  if (seconds > 2.5) {
    EXPECT_NE(straight.output.find("s left"), std::string::npos) << straight.output;
  }
  EXPECT_NE(straight.output.find("no_assembly"), std::string::npos)
      << straight.output;  // short rockers: rows, not aborts
}

TEST(StudyCli, TheBestDesignOfTheSynthesisIsAModelFileThatAnalyses) {
  const std::string best = temp("best.yaml"), csv = temp("synthesis.csv");
  std::filesystem::remove(best);
  const CliRun r = run("study " + studies() + "fourbar-synthesis.yaml --quiet --best " + best + " --csv " + csv);
  ASSERT_EQ(r.code, 0) << r.output;
  EXPECT_NE(r.output.find("best design (variant"), std::string::npos) << r.output;
  const std::string text = read_text(best);
  EXPECT_NE(text.find("# where the 1 kN load acts"), std::string::npos);  // the model's comments kept
  const CliRun check = run("kinetostatics " + best + " --steps 180");
  EXPECT_EQ(check.code, 0) << check.output;
  // An entry the model does not write (a load table's scale) is added; the table's file stays
  // found from wherever the best design is written.
  const std::string press = write_temp(
      "press-scale.yaml", "study: optimisation\nmodel: " + std::string(LINKDYN_EXAMPLES_DIR) + R"(/toggle-press.yaml
parameters:
  s: {path: loads.forming.table.scale, bounds: [0.5, 1.5]}
analysis: {steps: 90, kinetostatics: {friction: false}}
metrics:
  peak: {column: crank_drive.torque, stat: max_abs}
objectives: {peak: minimise}
optimiser: {global_evaluations: 10, local_evaluations: 10}
)");
  const std::string press_best = temp("press-best.yaml");
  const CliRun optimised = run("study " + press + " --quiet --best " + press_best);
  ASSERT_EQ(optimised.code, 0) << optimised.output;
  EXPECT_NE(read_text(press_best).find("periodic: true, scale: 0.5}"), std::string::npos) << read_text(press_best);
  const CliRun press_check = run("kinetostatics " + press_best + " --steps 90");
  EXPECT_EQ(press_check.code, 0) << press_check.output;
}

TEST(StudyCli, TheFlywheelSweepLowersTheSpeedFluctuationAsTheInertiaGrows) {
  const std::string csv = temp("flywheel.csv");
  const CliRun r = run("study " + studies() + "dwell-flywheel.yaml --quiet --csv " + csv);
  ASSERT_EQ(r.code, 0) << r.output;
  std::istringstream lines(read_text(csv));
  std::string line;
  std::getline(lines, line);
  double previous = INFINITY;
  int rows = 0;
  while (std::getline(lines, line)) {
    const double fluctuation = std::stod(line.substr(line.find(',', line.find(',') + 1) + 1));
    EXPECT_LT(fluctuation, previous) << line;
    previous = fluctuation, ++rows;
  }
  EXPECT_EQ(rows, 9);
}

TEST(StudyCli, BadInputIsOneClearErrorWithTheLineAndExitCode2) {
  const std::string model = std::string(LINKDYN_EXAMPLES_DIR) + "/seed001-fourbar.yaml";
  struct Case {
    std::string name, text, expected;
  };
  const std::vector<Case> cases{
      {"path",
       "parameters:\n  r: {path: bodies.rocker.points.E.x, values: [1, 2]}\nanalysis: {kinematics: true}\n"
       "metrics:\n  m: {column: C.transmission_angle, stat: min}\n",
       "bad-path.yaml:4: parameter 'r': the model"},
      {"column",
       "parameters:\n  r: {path: bodies.rocker.points.C.x, values: [3]}\nanalysis: {kinematics: true}\n"
       "metrics:\n  m: {column: C.transmision_angle, stat: min}\n",
       "did you mean 'C.transmission_angle'?"},
      {"law",
       "parameters:\n  r: {path: bodies.rocker.points.C.x, tolerance: 1 mm}\nanalysis: {kinematics: true}\n"
       "metrics:\n  m: {column: C.transmission_angle, stat: min}\n",
       "a grid sweep takes values"},
      {"stat",
       "parameters:\n  r: {path: bodies.rocker.points.C.x, values: [3]}\nanalysis: {kinematics: true}\n"
       "metrics:\n  m: {column: C.transmission_angle, stat: median}\n",
       "unknown statistic 'median'"},
      {"same",
       "parameters:\n  a: {path: ground.D.x, values: [5.5]}\n  b: {path: ground.D.0, values: [5.6]}\n"
       "analysis: {kinematics: true}\nmetrics:\n  m: {column: C.transmission_angle, stat: min}\n",
       "names the same entry of the model as parameter 'a' (ground.D[0])"},
      {"unit",
       "parameters:\n  r: {path: friction.revolute.radius, values: [7 mm, 0.5 deg]}\n"
       "analysis: {kinetostatics: true}\nmetrics:\n  m: {column: crank_drive.torque, stat: max}\n",
       "unit 'deg' is not accepted here (accepted: m, mm, cm)"},
      {"value",
       "parameters:\n  r: {path: bodies.rocker.points.C.x, values: [3]}\nanalysis: {kinetostatics: true}\n"
       "metrics:\n  m: {column: kinetostatics.driver_work, stat: max}\n",
       "make no column 'kinetostatics.driver_work'"},
      {"never",
       "parameters:\n  r: {path: bodies.rocker.points.C.x, values: [3]}\nanalysis: {kinetostatics: true}\n"
       "metrics:\n  m: {column: crank_drive.torque, at: 400 deg}\n",
       "is not defined for the nominal design"},
  };
  for (const Case& c : cases) {
    const std::string path = write_temp("bad-" + c.name + ".yaml", "study: sweep\nmodel: " + model + "\n" + c.text);
    const CliRun r = run("study " + path);
    EXPECT_EQ(r.code, 2) << c.name << ": " << r.output;
    EXPECT_NE(r.output.find(c.expected), std::string::npos) << c.name << ": " << r.output;
    EXPECT_EQ(std::count(r.output.begin(), r.output.end(), '\n'), 1 + (r.output.find("sweep of") != std::string::npos))
        << c.name << ": " << r.output;
  }
  const CliRun resume = run("study " + studies() + "dwell-flywheel.yaml --resume");
  EXPECT_EQ(resume.code, 2) << resume.output;
  EXPECT_NE(resume.output.find("there is no journal to resume from"), std::string::npos) << resume.output;
  const std::string stale = temp("stale.csv");
  std::ofstream(stale + ".journal") << "linkdyn-study-journal 1 0000000000000000\n";
  const CliRun left = run("study " + studies() + "dwell-flywheel.yaml --csv " + stale);
  EXPECT_EQ(left.code, 2) << left.output;
  EXPECT_NE(left.output.find("add --resume"), std::string::npos) << left.output;
  const CliRun other = run("study " + studies() + "dwell-flywheel.yaml --resume --csv " + stale);
  EXPECT_EQ(other.code, 2) << other.output;
  EXPECT_NE(other.output.find("belongs to another study"), std::string::npos) << other.output;
  std::filesystem::remove(stale + ".journal");
}

TEST(StudyCli, TheVariantsAreBoundedByMaxVariantsAndEstimatedBeforeTheRun) {
  // samples: 1e9 was "expected a whole number >= 1"; 1e8 started with no word of 2.35 GB or a day.
  const auto study = [](const std::string& name, const std::string& samples) {
    return write_temp(name, "study: monte_carlo\nmodel: " + std::string(LINKDYN_EXAMPLES_DIR) +
                                "/seed001-fourbar.yaml\nsamples: " + samples +
                                "\nparameters:\n  r: {path: bodies.rocker.points.C.x, tolerance: 1 mm}\n"
                                "analysis: {steps: 36, kinematics: true}\n"
                                "metrics:\n  m: {column: C.transmission_angle, stat: min}\n");
  };
  CliRun r = run("study " + study("cap.yaml", "1e9"));
  EXPECT_EQ(r.code, 2) << r.output;
  EXPECT_NE(r.output.find("cap.yaml:3: samples: 1e9 is more than 10^8, the largest count a file takes"),
            std::string::npos)
      << r.output;
  r = run("study " + study("many.yaml", "1e7"));
  EXPECT_EQ(r.code, 2) << r.output;
  EXPECT_NE(r.output.find("many.yaml:3: samples: asks for 10000000 variants, more than --max-variants 1000000"),
            std::string::npos)
      << r.output;
  r = run("study " + study("few.yaml", "20") + " --threads 1 --quiet");
  EXPECT_EQ(r.code, 0) << r.output;
  EXPECT_NE(r.output.find("20 variants: about 0.00"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("s on 1 thread(s) (the nominal design took"), std::string::npos) << r.output;
  r = run("study " + study("few.yaml", "20") + " --threads 1 --quiet --max-variants 10");
  EXPECT_EQ(r.code, 2) << r.output;
  EXPECT_NE(r.output.find("asks for 20 variants, more than --max-variants 10"), std::string::npos) << r.output;
}

}  // namespace
}  // namespace linkdyn::test
