// The command line: help, check, kinematics files, and exit codes 2 (bad input) and 3
// (cannot assemble at the start).
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <algorithm>
#include <array>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <tuple>

#include "apps/cli_run.hpp"
#include "test_support.hpp"

using linkdyn::test::CliRun;
using linkdyn::test::run;
using linkdyn::test::run_interrupted;
using linkdyn::test::write_temp;

TEST(Cli, AMisspeltCommandOrOptionIsAnsweredWithTheNearestName) {
  const std::string fourbar = linkdyn::test::example("seed001-fourbar");
  CliRun r = run("kinematcs " + fourbar);
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.output.find("unknown command 'kinematcs' (did you mean 'kinematics'?); the commands are: check, "
                          "kinematics, kinetostatics"),
            std::string::npos)
      << r.output;
  r = run("kinematics " + fourbar + " --stpes 10");
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.output.find("'kinematics' has no option '--stpes' (did you mean '--steps'?)"), std::string::npos)
      << r.output;
  r = run("robot simulate x.urdf --t-ned 3");
  EXPECT_NE(r.output.find("'robot simulate' has no option '--t-ned' (did you mean '--t-end'?)"), std::string::npos)
      << r.output;
  r = run("");
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.output.find("a command is required: check, kinematics"), std::string::npos) << r.output;
  // A range error in plain words, not CLI11's range up to the largest double.
  r = run("kinematics " + fourbar + " --steps 0");
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.output.find("--steps: must be greater than 0, not '0'"), std::string::npos) << r.output;
}

TEST(Cli, VersionNamesTheCommitAndTheDependencies) {
  const CliRun r = run("--version");
  EXPECT_EQ(r.code, 0);
  EXPECT_NE(r.output.find("linkdyn 0.1.0 (commit "), std::string::npos) << r.output;
  for (const char* dependency :
       {"Eigen 3.", "yaml-cpp 0.", "CLI11 2.", "fmt ", "nlohmann-json 3.", "Boost 1.", "NLopt 2."})
    EXPECT_NE(r.output.find(dependency), std::string::npos) << dependency << " not in " << r.output;
}

TEST(Cli, HelpListsTheCommands) {
  const CliRun r = run("--help");
  EXPECT_EQ(r.code, 0);
  EXPECT_NE(r.output.find("check"), std::string::npos);
  EXPECT_NE(r.output.find("kinematics"), std::string::npos);
  EXPECT_EQ(run("kinematics --help").code, 0);
}

TEST(Cli, CheckPrintsDofStructureAndAssembly) {
  const CliRun r = run("check " + linkdyn::test::example("seed001-fourbar"));
  EXPECT_EQ(r.code, 0) << r.output;
  EXPECT_NE(r.output.find("degrees of freedom: 1"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("R_I(0,1) -> RRR_II(2,3)"), std::string::npos);
  EXPECT_NE(r.output.find("C                (7.607143, 2.135404) m"), std::string::npos) << r.output;
}

TEST(Cli, KinematicsWritesCsvAndJsonWithoutNaN) {
  const std::string csv = ::testing::TempDir() + "/seed.csv", json = ::testing::TempDir() + "/seed.json";
  const CliRun r =
      run("kinematics " + linkdyn::test::example("seed001-fourbar") + " --steps 360 --csv " + csv + " --json " + json);
  ASSERT_EQ(r.code, 0) << r.output;
  std::ifstream in(csv);
  std::string header, line;
  std::getline(in, header);
  EXPECT_EQ(header.rfind("t,crank_drive.angle,crank.angle,crank.omega,crank.alpha,coupler.angle", 0), 0u) << header;
  EXPECT_NE(header.find("C.x,C.y,C.vx,C.vy,C.ax,C.ay"), std::string::npos);
  EXPECT_NE(header.find("C.transmission_angle"), std::string::npos);
  int rows = 0;
  while (std::getline(in, line)) {
    ++rows;
    EXPECT_EQ(line.find("nan"), std::string::npos);
  }
  EXPECT_EQ(rows, 361);
  std::stringstream j;
  j << std::ifstream(json).rdbuf();
  EXPECT_NE(j.str().find("\"structure\": \"R_I(0,1) -> RRR_II(2,3)\""), std::string::npos);
}

TEST(Cli, BadInputExitsWithCode2AndNamesFileAndLine) {
  const std::string path = write_temp("bad.yaml", "bodies:\n  crank:\n    mass: -1\n");
  const CliRun r = run("check " + path);
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.output.find(path + ":3: body 'crank': mass is negative"), std::string::npos) << r.output;
  EXPECT_EQ(run("check /nonexistent/model.yaml").code, 2);
  EXPECT_EQ(run("kinematics").code, 2);  // missing MODEL
}

TEST(Cli, CannotAssembleAtTheStartExitsWithCode3) {
  // The seed four-bar with coupler and rocker of 1 m: they cannot span |BD| = 3.5 m at the start.
  std::stringstream s;
  s << std::ifstream(linkdyn::test::example("seed001-fourbar")).rdbuf();
  std::string text = s.str();
  text.replace(text.find("C: [6.0, 0]"), 11, "C: [1.0, 0]");
  text.replace(text.find("C: [3.0, 0]"), 11, "C: [1.0, 0]");
  const CliRun r = run("kinematics " + write_temp("short.yaml", text));
  EXPECT_EQ(r.code, 3) << r.output;
  EXPECT_NE(r.output.find("cannot close"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("crank_drive = 0 rad"), std::string::npos) << r.output;
}

TEST(Cli, AMachineFarFromTheOriginAssemblesOrIsRefusedWhereItsLoopsLoseTheirDigits) {
  // The offset slider-crank's crank pin at 1e8 m: the rod still reaches the guide y = 0.03 m.
  const std::string text = linkdyn::test::read_text(linkdyn::test::example("offset-slider-crank"));
  const auto with_pin = [&](const std::string& x) {
    std::string t = text;
    t.replace(t.find("B: [0.1, 0]"), 11, "B: [" + x + ", 0]");
    t.replace(t.find("offset-slider-crank-gas.csv"), 27,
              std::string(LINKDYN_EXAMPLES_DIR) + "/offset-slider-crank-gas.csv");
    return write_temp("far-" + x + ".yaml", t);
  };
  CliRun r = run("check " + with_pin("1e8"));
  EXPECT_EQ(r.code, 0) << r.output;
  EXPECT_NE(r.output.find("P                (99999999.651288, 0.030000) m"), std::string::npos) << r.output;
  EXPECT_EQ(r.output.find("nan"), std::string::npos) << r.output;
  // At 9e11 m the loops close to 3.7e-6 m only: exit 2 in every verb, with the driver's value.
  const std::string far = with_pin("9e11");
  for (const char* verb : {"check", "kinematics", "simulate --method kane", "simulate --method full", "report"}) {
    r = run(std::string(verb) + " " + far);
    EXPECT_EQ(r.code, 2) << verb << ": " << r.output;
    EXPECT_NE(r.output.find(far + ":1: model: at motor = 0 deg the loops do not close: residual 3.67e-06 m, more "
                                  "than 1e-6 of the smallest body (0.35 m)"),
              std::string::npos)
        << r.output;
  }
}

TEST(Cli, KaneAndFullSimulationsThatStartAtADeadPointStopThereWithCode3) {
  // The flywheel four-bar with its pivot D at (-1, 0): crank and rocker start in line.
  std::string text = linkdyn::test::read_text(linkdyn::test::example("fourbar-flywheel"));
  text.replace(text.find("D: [5.5, 0]"), 11, "D: [-1, 0]");
  const std::string model = write_temp("dead-start.yaml", text);
  for (const char* method : {"kane", "full"}) {
    const CliRun r = run("simulate " + model + " --method " + method);
    EXPECT_EQ(r.code, 3) << method << ": " << r.output;
    EXPECT_NE(r.output.find("error: the simulation stops at t = 0 s, crank_drive = 3.06162e-17 rad (0.0000 deg): the "
                            "mechanism reaches a dead point"),
              std::string::npos)
        << r.output;
  }
}

TEST(Cli, KinetostaticsOfTheSeedWithAndWithoutFriction) {
  const std::string csv = ::testing::TempDir() + "/ks.csv";
  const CliRun r = run("kinetostatics " + linkdyn::test::example("seed001-fourbar") + " --csv " + csv);
  ASSERT_EQ(r.code, 0) << r.output;
  EXPECT_NE(r.output.find("friction on (tolerance 0.001 N)"), std::string::npos) << r.output;
  const std::string text = linkdyn::test::read_text(csv);
  EXPECT_EQ(
      text.rfind(
          "t,crank_drive.angle,crank_drive.torque,crank_drive.torque_frictionless,A.Fx,A.Fy,A.F,A.friction_power", 0),
      0u);
  EXPECT_NE(text.find("friction.power,driver.power,efficiency,iterations,self_locking"), std::string::npos);
  EXPECT_EQ(text.find("nan"), std::string::npos);
  const CliRun off = run("kinetostatics " + linkdyn::test::example("seed001-fourbar") + " --no-friction --steps 36");
  EXPECT_EQ(off.code, 0) << off.output;
  EXPECT_NE(off.output.find("friction off"), std::string::npos);
}

TEST(Cli, KinetostaticsGivesEachCylindersPeakPressuresAndWarnsAboveItsRelief) {
  // The excavator's stick cylinder needs its peak push at t = 4 s; its pressure column (row by
  // row, the force over the piston's area) holds the same peak as the summary's table.
  const std::string csv = ::testing::TempDir() + "/excavator.csv";
  const CliRun r = run("kinetostatics " + linkdyn::test::example("excavator") + " --csv " + csv);
  ASSERT_EQ(r.code, 0) << r.output;
  EXPECT_NE(r.output.find("cylinder           push max bar"), std::string::npos) << r.output;
  EXPECT_EQ(r.output.find("warning: cylinder"), std::string::npos) << r.output;  // all below 350 bar
  std::istringstream rows(linkdyn::test::read_text(csv));
  std::string line, cell;
  std::getline(rows, line);
  std::istringstream header(line);
  int column = -1;
  for (int k = 0; std::getline(header, cell, ','); ++k)
    if (cell == "stick_cylinder.pressure") column = k;
  ASSERT_GE(column, 0) << line;
  double peak = 0.0;
  while (std::getline(rows, line)) {
    std::istringstream row(line);
    for (int k = 0; k <= column; ++k) std::getline(row, cell, ',');
    peak = std::max(peak, std::stod(cell));
  }
  std::array<char, 32> digits{};
  std::snprintf(digits.data(), digits.size(), "%.6g", peak / 1e5);
  const std::string printed = digits.data();
  EXPECT_NE(r.output.find("stick_cylinder          " + printed), std::string::npos) << printed << "\n" << r.output;
  // Its relief set below that: the warning names the cylinder, the pressure, when, and the fix.
  std::string text = linkdyn::test::read_text(linkdyn::test::example("excavator"));
  const size_t stick = text.find("  stick_cylinder:");
  text.replace(text.find("relief: 350 bar", stick), 15, "relief: 150 bar");
  const CliRun low = run("kinetostatics " + write_temp("excavator-low-relief.yaml", text));
  ASSERT_EQ(low.code, 0) << low.output;
  EXPECT_NE(low.output.find("warning: cylinder stick_cylinder needs " + printed +
                            " bar at t = 4 s, above its relief valve's 150 bar"),
            std::string::npos)
      << low.output;
}

TEST(Cli, KinetostaticsWarnsWhereACamsFollowerWouldLeaveIt) {
  // At 600 rpm the spring keeps the roller on the cam; at 3000 rpm the follower's deceleration
  // over the rise's second half (0.25 kg x 2 pi h w^2 / beta^2, about 350 N) beats the spring.
  const std::string model = std::string(LINKDYN_TEST_DATA_DIR) + "/cam-roller.yaml";
  const CliRun slow = run("kinetostatics " + model);
  ASSERT_EQ(slow.code, 0) << slow.output;
  EXPECT_NE(slow.output.find("cam lobe: least contact force"), std::string::npos) << slow.output;
  EXPECT_EQ(slow.output.find("warning: cam lobe"), std::string::npos) << slow.output;
  std::string text = linkdyn::test::read_text(model);
  text.replace(text.find("600 rpm"), 7, "3000 rpm");
  const std::string fast_model = write_temp("cam-fast.yaml", text);
  const CliRun fast = run("kinetostatics " + fast_model);
  ASSERT_EQ(fast.code, 0) << fast.output;
  EXPECT_NE(fast.output.find("warning: cam lobe: the contact force turns negative"), std::string::npos) << fast.output;
  // Kinematics' design numbers give the cam's lift and its largest pressure angle.
  const CliRun kinematics = run("kinematics " + model);
  ASSERT_EQ(kinematics.code, 0) << kinematics.output;
  EXPECT_NE(kinematics.output.find("cam lobe: lift 10 mm; velocity up to 0.6"), std::string::npos) << kinematics.output;
  EXPECT_NE(kinematics.output.find("pressure angle up to"), std::string::npos) << kinematics.output;
  // The direct dynamics, coasting from 3000 rpm, stops with exit 3 where the follower leaves.
  const CliRun sim = run("simulate " + fast_model + " --t-end 0.01");
  EXPECT_EQ(sim.code, 3) << sim.output;
  EXPECT_NE(sim.output.find("the follower of cam 'lobe' leaves the cam"), std::string::npos) << sim.output;
}

TEST(Cli, UsefulLoadThatDoesNoWorkExitsWithCode2) {
  // A damper between the rocker's pivot and a point of the rocker never changes length.
  std::string text = linkdyn::test::read_text(linkdyn::test::example("seed001-fourbar"));
  const std::string loads = "\nloads:";
  text.insert(text.find(loads) + loads.size(),
              "\n  idle: {type: damper, between: [rocker.D, ground.D], damping: 10, useful: true}");
  const CliRun r = run("kinetostatics " + write_temp("idle.yaml", text));
  EXPECT_EQ(r.code, 2) << r.output;
  EXPECT_NE(r.output.find("load 'idle': is marked useful but does no work"), std::string::npos) << r.output;
}

TEST(Cli, SelfLockingOverTheWholeSweepExitsWithCode3) {
  // The wedge with f = 0.9 on its incline and stem cannot be pushed at all.
  std::string text = linkdyn::test::read_text(linkdyn::test::example("wedge-cam"));
  text.replace(text.find("prismatic: {coefficient: 0.15}"), 30, "prismatic: {coefficient: 0.90}");
  const std::string path = ::testing::TempDir() + "/wedge-locked.yaml";
  std::ofstream(path) << text;
  const CliRun r = run("kinetostatics " + path + " --steps 20");
  EXPECT_EQ(r.code, 3) << r.output;
  EXPECT_NE(r.output.find("self-locking over the whole sweep"), std::string::npos) << r.output;
}

TEST(Cli, PlotOptionWritesOneSvgPerPlotAndReportWritesTheHtml) {
  const std::string dir = ::testing::TempDir() + "/plots";
  const CliRun k = run("kinetostatics " + linkdyn::test::example("seed001-fourbar") + " --plot " + dir);
  ASSERT_EQ(k.code, 0) << k.output;
  // The driver torque, the reactions |F|, each of the 4 pins' reaction in components, the
  // friction power and the efficiency.
  EXPECT_NE(k.output.find("wrote 8 plot(s)"), std::string::npos) << k.output;
  const std::string svg = linkdyn::test::read_text(dir + "/kinetostatics-reactions.svg");
  EXPECT_NE(svg.find("Pair reactions |F|"), std::string::npos);
  const std::string pin_a = linkdyn::test::read_text(dir + "/kinetostatics-reaction-A.svg");
  EXPECT_NE(pin_a.find("Reaction at A: on crank from ground"), std::string::npos);
  EXPECT_NE(pin_a.find(">Fy</text>"), std::string::npos);
  const std::string html = ::testing::TempDir() + "/seed.report.html";
  const CliRun r = run("report " + linkdyn::test::example("seed001-fourbar") + " -o " + html);
  ASSERT_EQ(r.code, 0) << r.output;
  EXPECT_NE(linkdyn::test::read_text(html).find("<!DOCTYPE html>"), std::string::npos);
}

TEST(Cli, ReduceAndSimulateRunAndRefuseBadRequests) {
  const CliRun reduce = run("reduce " + linkdyn::test::example("seed003-dwell") + " --points 72");
  EXPECT_EQ(reduce.code, 0) << reduce.output;
  EXPECT_NE(reduce.output.find("kinetic energy vs kinetostatics"), std::string::npos);
  const CliRun sim =
      run("simulate " + linkdyn::test::example("seed003-dwell") + " --t-end 0.2 --steps 20 --method full");
  EXPECT_EQ(sim.code, 0) << sim.output;
  EXPECT_NE(sim.output.find("full method"), std::string::npos);
  // Two degrees of freedom: one equation of motion is not enough for the reduced method; a run
  // that does not choose takes Kane's.
  const CliRun two = run("simulate " + linkdyn::test::example("pump-2dof") + " --method reduced");
  EXPECT_EQ(two.code, 2) << two.output;
  EXPECT_NE(two.output.find("one degree of freedom"), std::string::npos) << two.output;
  const CliRun two_automatic = run("simulate " + linkdyn::test::example("pump-2dof") + " --t-end 0.1 --steps 10");
  EXPECT_EQ(two_automatic.code, 0) << two_automatic.output;
  EXPECT_NE(two_automatic.output.find("pump-2dof: kane method"), std::string::npos) << two_automatic.output;
  // An actuator that is not in the model.
  const CliRun adjust = run("simulate " + linkdyn::test::example("seed003-dwell") + " --mean-speed 20 --adjust pump");
  EXPECT_EQ(adjust.code, 2) << adjust.output;
  EXPECT_NE(adjust.output.find("error: --adjust pump: is not an actuator of the model"), std::string::npos)
      << adjust.output;
}

TEST(Cli, BadActuatorIsAnInputError) {
  std::string text = linkdyn::test::read_text(linkdyn::test::example("seed003-dwell"));
  text.replace(text.find("T0: 0.1"), 7, "T0: -0.1");
  const CliRun r = run("simulate " + write_temp("bad-actuator.yaml", text));
  EXPECT_EQ(r.code, 2) << r.output;
  EXPECT_NE(r.output.find("actuator 'resistance': T0 is negative"), std::string::npos) << r.output;
}

namespace {
/// Rows of a CSV written by the CLI: header and numbers.
struct Csv {
  std::vector<std::string> header;
  std::vector<std::vector<double>> rows;
  int col(const std::string& name) const {
    for (size_t k = 0; k < header.size(); ++k)
      if (header[k] == name) return int(k);
    return -1;
  }
};
Csv read_csv(const std::string& path) {
  Csv c;
  std::ifstream in(path);
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    std::stringstream ss(line);
    std::string cell;
    std::vector<std::string> cells;
    while (std::getline(ss, cell, ',')) cells.push_back(cell);
    if (c.header.empty())
      c.header = cells;
    else {
      std::vector<double> row;
      for (const auto& s : cells) row.push_back(std::stod(s));
      c.rows.push_back(row);
    }
  }
  return c;
}
const std::string robots = std::string(LINKDYN_EXAMPLES_DIR) + "/robots/";
}  // namespace

TEST(CliRobot, InverseThenForwardDynamicsThroughFilesReturnTheAccelerations) {
  // id writes <joint>.tau; a states file of q, qd and those tau given to fd returns the qdd.
  const std::string tau_csv = ::testing::TempDir() + "/iiwa-id.csv";
  const CliRun id =
      run("robot id " + robots + "iiwa14.urdf --states " + robots + "iiwa14-trajectory.csv --csv " + tau_csv);
  ASSERT_EQ(id.code, 0) << id.output;
  const Csv traj = read_csv(robots + "iiwa14-trajectory.csv"), tau = read_csv(tau_csv);
  ASSERT_EQ(tau.rows.size(), traj.rows.size());
  std::string states = "t";
  for (int k = 1; k <= 7; ++k) states += ",iiwa_joint_" + std::to_string(k) + ".q";
  for (int k = 1; k <= 7; ++k) states += ",iiwa_joint_" + std::to_string(k) + ".qd";
  for (int k = 1; k <= 7; ++k) states += ",iiwa_joint_" + std::to_string(k) + ".tau";
  states += "\n";
  for (size_t r = 0; r < traj.rows.size(); ++r) {
    std::ostringstream row;
    row.precision(17);
    row << traj.rows[r][0];
    for (const char* s : {".q", ".qd"})
      for (int k = 1; k <= 7; ++k) row << "," << traj.rows[r][size_t(traj.col("iiwa_joint_" + std::to_string(k) + s))];
    for (int k = 1; k <= 7; ++k) row << "," << tau.rows[r][size_t(tau.col("iiwa_joint_" + std::to_string(k) + ".tau"))];
    states += row.str() + "\n";
  }
  const std::string fd_csv = ::testing::TempDir() + "/iiwa-fd.csv";
  for (const char* method : {"aba", "crba"}) {
    const CliRun fd = run("robot fd " + robots + "iiwa14.urdf --method " + method + " --states " +
                          write_temp("iiwa-tau.csv", states) + " --csv " + fd_csv);
    ASSERT_EQ(fd.code, 0) << fd.output;
    const Csv qdd = read_csv(fd_csv);
    for (size_t r = 0; r < traj.rows.size(); ++r)
      for (int k = 1; k <= 7; ++k) {
        const std::string name = "iiwa_joint_" + std::to_string(k) + ".qdd";
        // tau is written with 12 significant digits: qdd agrees to about 1e-9.
        EXPECT_NEAR(qdd.rows[r][size_t(qdd.col(name))], traj.rows[r][size_t(traj.col(name))], 1e-8)
            << name << " row " << r;
      }
  }
}

TEST(CliRobot, MassMatrixEnergyAndJerkWriteTheirColumns) {
  const std::string out = ::testing::TempDir() + "/robot.csv";
  const std::string model = robots + "planar-3r.yaml", states = robots + "planar-3r-trajectory.csv";
  ASSERT_EQ(run("robot mass-matrix " + model + " --states " + states + " --csv " + out).code, 0);
  Csv m = read_csv(out);
  EXPECT_EQ(m.header.size(), 1u + 9u);
  EXPECT_EQ(m.header[2], "M_1_2");
  EXPECT_DOUBLE_EQ(m.rows[3][size_t(m.col("M_1_2"))], m.rows[3][size_t(m.col("M_2_1"))]);
  ASSERT_EQ(run("robot energy " + model + " --states " + states + " --csv " + out).code, 0);
  m = read_csv(out);
  for (const char* c : {"kinetic_energy", "E_A1", "E_A2", "E_A3"}) EXPECT_GE(m.col(c), 0) << c;
  for (const auto& row : m.rows) EXPECT_GT(row[size_t(m.col("E_A3"))], 0.0);
  const CliRun jerk =
      run("robot jerk " + model + " --states " + states + " --json " + ::testing::TempDir() + "/jerk.json");
  ASSERT_EQ(jerk.code, 0) << jerk.output;
  const std::string json = linkdyn::test::read_text(::testing::TempDir() + "/jerk.json");
  EXPECT_NE(json.find("\"elbow.ddtau\""), std::string::npos);
  EXPECT_NE(json.find("\"analysis\": \"robot jerk\""), std::string::npos);
}

TEST(CliRobot, SimulateWithoutFrictionKeepsKineticPlusPotentialEnergy) {
  // The iiwa has no end-effector load: without its joint damping, gravity alone acts.
  const std::string out = ::testing::TempDir() + "/iiwa-sim.csv";
  const CliRun r = run("robot simulate " + robots + "iiwa14.urdf --states " + robots + "iiwa14-trajectory.csv" +
                       " --no-friction --t-end 0.5 --steps 50 --csv " + out);
  ASSERT_EQ(r.code, 0) << r.output;
  const Csv sim = read_csv(out);
  ASSERT_EQ(sim.rows.size(), 51u);
  const size_t ke = size_t(sim.col("kinetic_energy")), pe = size_t(sim.col("potential_energy"));
  const double e0 = sim.rows[0][ke] + sim.rows[0][pe];
  for (const auto& row : sim.rows) EXPECT_NEAR(row[ke] + row[pe], e0, 1e-7 * std::abs(e0));
  EXPECT_GE(sim.col("iiwa_joint_7.qdd"), 0);
}

TEST(CliRobot, BadStatesAndModelsExitWithCode2) {
  const std::string model = robots + "planar-3r.yaml";
  CliRun r = run("robot fd " + model + " --states " + robots + "planar-3r-trajectory.csv");
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.output.find("planar-3r-trajectory.csv:3: column 'shoulder.tau'"), std::string::npos) << r.output;
  r = run("robot id " + model + " --states " + write_temp("bad-joint.csv", "knee.q,knee.qd,knee.qdd\n0,0,0\n"));
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.output.find("no joint named 'knee'"), std::string::npos) << r.output;
  r = run("robot id " + model + " --states " + write_temp("bad-number.csv", "shoulder.q,elbow.q\n0,abc\n"));
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.output.find(":2: column 'elbow.q': 'abc' is not a number"), std::string::npos) << r.output;
  r = run("robot id " + model + " --states " + write_temp("bad-quantity.csv", "shoulder.q,shoulder.qdot\n0,0\n"));
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.output.find("unknown quantity 'qdot'"), std::string::npos) << r.output;
  r = run("robot mass-matrix " + model + " --states " +
          write_temp("plus.csv", "shoulder.q,elbow.q,wrist.q\n+0.5,-0.25,+1\n"));
  EXPECT_EQ(r.code, 0) << r.output;
  r = run(
      "robot id " +
      write_temp(
          "tree.urdf",
          "<robot name=\"t\"><link name=\"b\"/>\n"
          "<joint name=\"a\" type=\"continuous\"><parent link=\"b\"/><child link=\"x\"/></joint><link name=\"x\"/>\n"
          "<joint name=\"c\" type=\"planar\"><parent link=\"b\"/><child link=\"y\"/></joint><link "
          "name=\"y\"/></robot>\n") +
      " --states " + write_temp("s.csv", "a.q\n0\n"));
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.output.find("tree.urdf:3"), std::string::npos) << r.output;
}

TEST(CliMass, BracketPropertiesInEveryFrameAndErrors) {
  const std::string json = ::testing::TempDir() + "/bracket.json";
  const CliRun r = run("mass " + std::string(LINKDYN_EXAMPLES_DIR) + "/bodies/bracket.yaml --json " + json);
  ASSERT_EQ(r.code, 0) << r.output;
  EXPECT_NE(r.output.find("4 subtracted"), std::string::npos) << r.output;
  const std::string text = linkdyn::test::read_text(json);
  for (const char* k : {"\"pivot\"", "\"tilted\"", "\"pseudo_inertia\"", "\"principal_moments\""})
    EXPECT_NE(text.find(k), std::string::npos) << k;
  const CliRun bad = run("mass " + write_temp("hollow.yaml",
                                              "parts:\n  - {shape: box, size: [0.1, 0.1, 0.1], density: 1}\n"
                                              "  - {shape: box, size: [0.2, 0.2, 0.2], density: 1, subtract: true}\n"));
  EXPECT_EQ(bad.code, 2);
  EXPECT_NE(bad.output.find("hollow.yaml:2"), std::string::npos) << bad.output;
  EXPECT_NE(bad.output.find("mass is"), std::string::npos) << bad.output;
}

TEST(Cli, SimulateByKaneRunsThePumpAndWritesItsColumns) {
  const std::string csv = ::testing::TempDir() + "/pump-kane.csv";
  const CliRun r = run("simulate " + linkdyn::test::example("seed004-pump") +
                       " --method kane --t-end 0.5 --steps 50 --reactions --csv " + csv);
  ASSERT_EQ(r.code, 0) << r.output;
  EXPECT_NE(r.output.find("kane method"), std::string::npos) << r.output;
  const std::string text = linkdyn::test::read_text(csv);
  const std::string header = text.substr(0, text.find('\n'));
  for (const char* column :
       {"t,alpha.angle,x_D.position,alpha.omega,x_D.velocity,alpha.alpha,x_D.acceleration", "rotor.torque",
        "slider_friction.force", "A.Fx", "B.F", "C.Fy", "D.F", "guide.N", "guide.M"})
    EXPECT_NE(header.find(column), std::string::npos) << column << " in " << header;
  size_t rows = 0;
  for (char ch : text) rows += ch == '\n';
  EXPECT_EQ(rows, 1u + 51u);
  // The reduced method still wants one degree of freedom.
  const CliRun reduced = run("simulate " + linkdyn::test::example("seed004-pump") + " --method reduced");
  EXPECT_EQ(reduced.code, 2) << reduced.output;
  EXPECT_NE(reduced.output.find("one degree of freedom"), std::string::npos) << reduced.output;
}

TEST(Cli, SimulateCouplesTheElasticLinksByKaneOrFullAndSaysWhereItDoesNot) {
  const std::string model = linkdyn::test::example("fast-slider-crank-elastic"),
                    csv = ::testing::TempDir() + "/coupled.csv";
  const CliRun r = run("simulate " + model + " --method kane --t-end 0.02 --steps 20 --csv " + csv);
  ASSERT_EQ(r.code, 0) << r.output;
  EXPECT_NE(r.output.find("elastic link rod: coupled, on 4 mode(s) at rest"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("elastic link rod: peak transverse deflection"), std::string::npos) << r.output;
  const std::string text = linkdyn::test::read_text(csv);
  const std::string header = text.substr(0, text.find('\n'));
  for (const char* column : {"elastic.damping_loss", "elastic.geometric_work", "rod.mid.w", "rod.n5.w", "rod.n10.u"})
    EXPECT_NE(header.find(column), std::string::npos) << column << " in " << header;
  EXPECT_EQ(text.find("nan"), std::string::npos);
  // Rigid on request, or by the reduced method (with a note); all modes with --elastic-modes 0.
  const CliRun rigid = run("simulate " + model + " --method full --rigid-links --t-end 0.02 --csv " + csv);
  ASSERT_EQ(rigid.code, 0) << rigid.output;
  EXPECT_EQ(rigid.output.find("coupled, on"), std::string::npos) << rigid.output;
  EXPECT_EQ(linkdyn::test::read_text(csv).find("rod.n5.w"), std::string::npos);
  const CliRun reduced = run("simulate " + model + " --t-end 0.02");
  ASSERT_EQ(reduced.code, 0) << reduced.output;
  EXPECT_NE(reduced.output.find("simulated as rigid bodies by the reduced method"), std::string::npos)
      << reduced.output;
  const CliRun all = run("simulate " + model + " --method kane --elastic-modes 0 --t-end 0.002 --steps 4");
  EXPECT_EQ(all.code, 0) << all.output;
  EXPECT_NE(all.output.find("on 29 mode(s)"), std::string::npos) << all.output;
  // The steady regime takes the machine rigid: refused for coupled links, with the way out.
  const CliRun steady = run("simulate " + model + " --method kane --steady");
  EXPECT_EQ(steady.code, 2) << steady.output;
  EXPECT_NE(steady.output.find("--rigid-links"), std::string::npos) << steady.output;
}

TEST(Cli, FlexWritesEigenvaluesAndSteadyResponseOfThePumpLeverWithoutNaN) {
  const std::string csv = ::testing::TempDir() + "/lever-eigen.csv",
                    response = ::testing::TempDir() + "/lever-response.csv";
  const CliRun r = run("flex " + linkdyn::test::example("seed004-pump") + " --modes 2 --steps 36 --substeps 10 --csv " +
                       csv + " --response " + response);
  ASSERT_EQ(r.code, 0) << r.output;
  EXPECT_NE(r.output.find("elastic link 'lever'"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("steady periodic"), std::string::npos) << r.output;
  for (const std::string& path : {csv, response}) {
    std::ifstream in(path);
    std::string header, line;
    std::getline(in, header);
    EXPECT_EQ(header.rfind("t,alpha.angle,x_D.position,", 0), 0u) << header;
    int rows = 0;
    while (std::getline(in, line)) {
      ++rows;
      EXPECT_EQ(line.find("nan"), std::string::npos) << path;
      EXPECT_EQ(line.find(",,"), std::string::npos) << path << ": no missing value";
    }
    EXPECT_EQ(rows, 37) << path;
    EXPECT_NE(header.find(path == csv ? "lever.f1,lever.fg1,lever.sigma1" : "lever.mid.w,lever.mid.u"),
              std::string::npos)
        << header;
    if (path == response) {
      for (const char* node : {"lever.n0.w", "lever.n5.u", "lever.n10.w"})
        EXPECT_NE(header.find(node), std::string::npos) << node;
    }
  }
}

TEST(Cli, FlexWithNoEigenWritesTheSameResponseWithoutTheEigenAnalysisAndRefusesItsTable) {
  // --no-eigen: the response alone, value for value the one computed after the eigen cycle; the
  // eigen table's options (--csv, --json) and --no-response mean nothing with it: refused.
  const std::string dir = ::testing::TempDir(), pump = linkdyn::test::example("seed004-pump");
  const CliRun both = run("flex " + pump + " --steps 36 --substeps 10 --response " + dir + "/with-eigen.csv");
  const CliRun alone = run("flex " + pump + " --steps 36 --substeps 10 --no-eigen --response " + dir + "/alone.csv");
  ASSERT_EQ(both.code, 0) << both.output;
  ASSERT_EQ(alone.code, 0) << alone.output;
  EXPECT_EQ(alone.output.find("along the cycle"), std::string::npos) << alone.output;
  EXPECT_EQ(linkdyn::test::read_text(dir + "/alone.csv"), linkdyn::test::read_text(dir + "/with-eigen.csv"));
  for (const std::string& option :
       {" --csv " + dir + "/e.csv", " --json " + dir + "/e.json", std::string(" --no-response")}) {
    const CliRun refused = run("flex " + pump + " --no-eigen" + option);
    EXPECT_EQ(refused.code, 2) << option << ": " << refused.output;
    EXPECT_NE(refused.output.find("excludes"), std::string::npos) << refused.output;
  }
}

TEST(Cli, FlexRefusesInteriorPairsTooManyElementsAndAGridThatIsNotOnePeriod) {
  const std::string pump = linkdyn::test::read_text(linkdyn::test::example("seed004-pump"));
  // The pendulum carries pair C between D and E: its force would not reach a beam D-E. (Its
  // mass, inertia and com then come from the beam.)
  std::string text = pump;
  text.erase(text.find("    mass: 5.2\n    inertia: 0.1241\n    com: [0, -0.5308]\n"), 56);
  text +=
      "  pendulum_rod: {body: pendulum, from: D, to: E, E: 210e9, rho: 7850, A: 1e-4, I: 1e-9, "
      "supports: [pinned, sliding]}\n";
  CliRun r = run("flex " + write_temp("pendulum-link.yaml", text) + " --no-response");
  EXPECT_EQ(r.code, 2) << r.output;
  EXPECT_NE(r.output.find("joint 'C' joins body 'pendulum' between the link's ends"), std::string::npos) << r.output;
  text = pump;
  text.replace(text.find("elements: 10"), 12, "elements: 1500");
  r = run("flex " + write_temp("many-elements.yaml", text));
  EXPECT_EQ(r.code, 2) << r.output;
  EXPECT_NE(r.output.find("more than 200 elements"), std::string::npos) << r.output;
  // 0.3 s is not a turn at 140 rpm (0.4286 s): no steady periodic response, exit 3.
  r = run("flex " + write_temp("short-grid.yaml", pump + "analysis: {start: 0, duration: 0.3, steps: 60}\n"));
  EXPECT_EQ(r.code, 3) << r.output;
  EXPECT_NE(r.output.find("not one period of the motion"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("driver 'alpha'"), std::string::npos) << r.output;
}

TEST(Cli, FlexRefusesAModelWithoutElasticLinksOrWithBadSupports) {
  const CliRun none = run("flex " + linkdyn::test::example("seed001-fourbar"));
  EXPECT_EQ(none.code, 2) << none.output;
  EXPECT_NE(none.output.find("has no elastic link"), std::string::npos) << none.output;
  std::string text = linkdyn::test::read_text(linkdyn::test::example("seed004-pump"));
  text.replace(text.find("[pinned, sliding]"), 17, "[free, sliding]");
  const std::string path = write_temp("free-lever.yaml", text);
  const CliRun bad = run("flex " + path);
  EXPECT_EQ(bad.code, 2) << bad.output;
  EXPECT_NE(bad.output.find(path + ":"), std::string::npos) << bad.output;
  EXPECT_NE(bad.output.find("elastic link 'lever'"), std::string::npos) << bad.output;
  EXPECT_NE(bad.output.find("rigid-body motion"), std::string::npos) << bad.output;
}

TEST(Cli, FlexReportsABucklingLinkAsAFailureAfterWritingTheEigenTable) {
  // The pump's lever with I = 1e-15 m^4: its Euler load is far below the pendulum's push.
  std::string text = linkdyn::test::read_text(linkdyn::test::example("seed004-pump"));
  text.replace(text.find("I: 3.6e-10"), 10, "I: 1e-15");
  const std::string model = write_temp("buckling-lever.yaml", text), csv = ::testing::TempDir() + "/buckling.csv";
  std::filesystem::remove(csv);
  const CliRun r = run("flex " + model + " --csv " + csv);
  EXPECT_EQ(r.code, 3) << r.output;
  EXPECT_NE(r.output.find("elastic link 'lever' is unstable at t = "), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("its first eigenvalue is negative"), std::string::npos) << r.output;
  EXPECT_TRUE(std::filesystem::exists(csv)) << "the eigen table is written before the failure";
  // Asked for, the eigen-analysis goes on with a warning; without it a response is refused too.
  const CliRun allowed = run("flex " + model + " --allow-unstable --no-response");
  EXPECT_EQ(allowed.code, 0) << allowed.output;
  EXPECT_NE(allowed.output.find("warning: elastic link 'lever' is unstable"), std::string::npos) << allowed.output;
  const CliRun grows = run("flex " + model + " --from-rest");
  EXPECT_EQ(grows.code, 3) << grows.output;
  // A stable link passes untouched.
  EXPECT_EQ(run("flex " + linkdyn::test::example("seed004-pump") + " --no-response").code, 0);
}

TEST(Cli, FlexOnAMechanismThatStopsAssemblingExitsWithCode3AndTheDriverValue) {
  // The non-Grashof four-bar does not assemble past 97.9 deg: the link needs the whole motion.
  std::string text = linkdyn::test::read_text(linkdyn::test::example("non-grashof-fourbar"));
  text.erase(text.find("    mass: 1.0\n    inertia: 0.3\n    com: [1.0, 0]\n"), 49);  // from the beam
  text +=
      "\nelastic_links:\n  bar: {body: coupler, from: B, to: C, E: 210e9, rho: 7850, A: 1e-4, I: 1e-9, supports: "
      "[pinned, sliding]}\n";
  const CliRun r = run("flex " + write_temp("non-grashof-elastic.yaml", text) + " --no-response");
  EXPECT_EQ(r.code, 3) << r.output;
  EXPECT_NE(r.output.find("cannot close"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("the elastic link needs the whole motion"), std::string::npos) << r.output;
}

TEST(Cli, FlexFromRestWithoutGyroscopicWritesJson) {
  const std::string json = ::testing::TempDir() + "/lever.json";
  const CliRun r = run("flex " + linkdyn::test::example("seed004-pump") +
                       " --modes 1 --steps 24 --substeps 5 --from-rest --no-gyroscopic --json " + json);
  ASSERT_EQ(r.code, 0) << r.output;
  EXPECT_NE(r.output.find("from rest response"), std::string::npos) << r.output;
  EXPECT_EQ(r.output.find("gyroscopic ["), std::string::npos) << r.output;
  std::stringstream j;
  j << std::ifstream(json).rdbuf();
  EXPECT_NE(j.str().find("\"analysis\": \"flex\""), std::string::npos);
  EXPECT_NE(j.str().find("\"lever.lambda1\""), std::string::npos);
  EXPECT_EQ(j.str().find("lever.fg1"), std::string::npos);
}

TEST(Cli, TogglePressWithACompoundPinRunsEveryAnalysis) {
  const std::string model = linkdyn::test::example("toggle-press"), dir = ::testing::TempDir();
  const CliRun check = run("check " + model);
  ASSERT_EQ(check.code, 0) << check.output;
  EXPECT_NE(check.output.find("compound K (3 bodies, 2 revolute pairs)"), std::string::npos) << check.output;
  EXPECT_NE(check.output.find("structural sequence: R_I(0,1) -> RRR_II(2,3) -> RRP_II(4,5)"), std::string::npos)
      << check.output;
  EXPECT_EQ(run("kinematics " + model + " --csv " + dir + "/toggle-kin.csv").code, 0);
  const std::string kin = linkdyn::test::read_text(dir + "/toggle-kin.csv");
  EXPECT_NE(kin.find(",K.x,K.y,"), std::string::npos) << "the knuckle listed once";
  EXPECT_EQ(kin.find("rod.K.x"), std::string::npos);

  const CliRun k = run("kinetostatics " + model + " --csv " + dir + "/toggle-kst.csv --plot " + dir + "/toggle-plots");
  ASSERT_EQ(k.code, 0) << k.output;
  EXPECT_NE(k.output.find("cycle efficiency useful / driving work"), std::string::npos) << k.output;
  EXPECT_NE(k.output.find("\nK "), std::string::npos) << "the pin in the summary: " << k.output;
  const std::string kst = linkdyn::test::read_text(dir + "/toggle-kst.csv");
  EXPECT_NE(
      kst.find("guide.friction_power,K.upper.Fx,K.upper.Fy,K.upper.F,K.lower.Fx,K.lower.Fy,K.lower.F,K.rod.Fx,K.rod.Fy,"
               "K.rod.F,K.friction_power,friction.power"),
      std::string::npos);
  EXPECT_EQ(kst.find("nan"), std::string::npos);
  const std::string reactions = linkdyn::test::read_text(dir + "/toggle-plots/kinetostatics-reactions.svg");
  EXPECT_NE(reactions.find("K on rod"), std::string::npos) << "each member's force plotted";

  const CliRun reduce = run("reduce " + model + " --points 90");
  EXPECT_EQ(reduce.code, 0) << reduce.output;
  for (const char* method : {"reduced", "full", "kane"}) {
    // (its upper link rigid: the coupled link, at 2 to 20 kHz, would take 10^5 steps per second)
    const CliRun sim = run("simulate " + model + " --method " + method +
                           " --rigid-links --t-end 0.5 --steps 25 --reactions --csv " + dir + "/toggle-sim.csv");
    EXPECT_EQ(sim.code, 0) << method << ": " << sim.output;
  }
  EXPECT_NE(linkdyn::test::read_text(dir + "/toggle-sim.csv").find("K.rod.Fx,K.rod.Fy,K.rod.F"), std::string::npos)
      << "Kane's pin columns";
  const CliRun flex = run("flex " + model + " --steps 24 --modes 2 --csv " + dir + "/toggle-flex.csv");
  EXPECT_EQ(flex.code, 0) << flex.output;
  EXPECT_NE(flex.output.find("elastic link 'upper_link'"), std::string::npos) << flex.output;
  const CliRun report = run("report " + model + " -o " + dir + "/toggle.html");
  ASSERT_EQ(report.code, 0) << report.output;
  const std::string html = linkdyn::test::read_text(dir + "/toggle.html");
  EXPECT_NE(html.find("compound pin K: max |F| on a member"), std::string::npos);
  // What a motor is sized by: peak (with the crank angle where it occurs) and RMS torque, with and
  // without friction; the pairs' peaks at a crank angle too.
  EXPECT_NE(html.find("driver crank_drive effort: peak "), std::string::npos);
  EXPECT_NE(html.find("driver crank_drive effort without friction: peak "), std::string::npos);
  EXPECT_NE(html.find(" N m at crank_drive = "), std::string::npos);
  EXPECT_NE(html.find("RMS "), std::string::npos);
  EXPECT_NE(html.find("pair guide: max |F| "), std::string::npos);
  EXPECT_NE(html.find("K on lower"), std::string::npos);
}

TEST(Cli, BadCompoundPinExitsWithCode2NamingFileLineJointAndFix) {
  std::string text = linkdyn::test::read_text(linkdyn::test::example("toggle-press"));
  text.replace(text.find("bodies: [upper, lower, rod]"), 27, "bodies: [upper, lower, upper]");
  const std::string path = write_temp("toggle-twice.yaml", text);
  const size_t at = text.find("\n  K: {type: revolute");
  const auto line = 2 + std::count(text.begin(), text.begin() + static_cast<std::ptrdiff_t>(at), '\n');
  for (const char* command : {"check", "kinetostatics"}) {
    const CliRun r = run(std::string(command) + " " + path);
    EXPECT_EQ(r.code, 2) << r.output;
    EXPECT_NE(r.output.find(path + ":" + std::to_string(line) +
                            ": joint 'K': lists body 'upper' twice; list each body the pin joins once"),
              std::string::npos)
        << r.output;
  }
}

TEST(Cli, MotorThatCannotOvercomeStaticFrictionLeavesTheMachineAtRestAndSaysSo) {
  // tests/data/stalled-motor.yaml: stall torque 0.25 N m against a static limit of 0.589 N m.
  const std::string model = std::string(LINKDYN_TEST_DATA_DIR) + "/stalled-motor.yaml", dir = ::testing::TempDir();
  const CliRun r = run("simulate " + model + " --t-end 0.5 --csv " + dir + "/stalled.csv");
  ASSERT_EQ(r.code, 0) << r.output;
  EXPECT_NE(r.output.find("the machine stays at rest: static friction holds it throughout"), std::string::npos)
      << r.output;
  const std::string csv = linkdyn::test::read_text(dir + "/stalled.csv");
  EXPECT_NE(csv.find(",stuck,"), std::string::npos);
  // Three times the voltage: the motor's stall torque, 0.75 N m, breaks it away at once.
  std::string text = linkdyn::test::read_text(model);
  text.replace(text.find("voltage: 5"), 10, "voltage: 15");
  const CliRun strong = run("simulate " + write_temp("strong-motor.yaml", text) + " --t-end 0.5");
  ASSERT_EQ(strong.code, 0) << strong.output;
  EXPECT_EQ(strong.output.find("rest"), std::string::npos) << strong.output;
}

TEST(Cli, LoadTableThatDoesNotCoverTheMotionStopsWithCode2AndWritesTheRowsBefore) {
  // The incline block pushed by a force tabulated over t in [0, 6] s, simulated to 8 s.
  const std::string model = std::string(LINKDYN_TEST_DATA_DIR) + "/incline-block.yaml", dir = ::testing::TempDir();
  const CliRun r = run("simulate " + model + " --q0 0 --qd0 0 --t-end 8 --steps 80 --csv " + dir + "/incline.csv");
  EXPECT_EQ(r.code, 2) << r.output;
  for (const char* part : {"incline-block.yaml:", "load 'push'", "outside its table [0, 6]", "extend the table"})
    EXPECT_NE(r.output.find(part), std::string::npos) << part << " not in: " << r.output;
  const std::string csv = linkdyn::test::read_text(dir + "/incline.csv");
  EXPECT_EQ(std::count(csv.begin(), csv.end(), '\n'), 1 + 61) << "the rows of t = 0 .. 6 s";
}

TEST(Cli, AResultNeverOverwritesItsInputs) {
  // --csv naming the model file (or a table it reads) is refused with exit 2, the file intact;
  // --csv and --json naming one file too.
  const std::string model = write_temp("own.yaml", linkdyn::test::read_text(linkdyn::test::example("seed001-fourbar")));
  const CliRun r = run("kinematics " + model + " --csv " + model);
  EXPECT_EQ(r.code, 2) << r.output;
  EXPECT_NE(r.output.find("is an input of this run"), std::string::npos) << r.output;
  EXPECT_EQ(linkdyn::test::read_text(model), linkdyn::test::read_text(linkdyn::test::example("seed001-fourbar")));
  const std::string table = std::string(LINKDYN_EXAMPLES_DIR) + "/fourbar-table.csv";
  const std::string before = linkdyn::test::read_text(table);
  EXPECT_EQ(run("kinetostatics " + linkdyn::test::example("fourbar-table") + " --csv " + table).code, 2);
  EXPECT_EQ(linkdyn::test::read_text(table), before);
  const std::string out = ::testing::TempDir() + "/both.out";
  EXPECT_EQ(run("kinematics " + model + " --csv " + out + " --json " + out).code, 2);
  EXPECT_EQ(run("report " + model + " -o " + model).code, 2);
}

TEST(Cli, ATableThatIsASymbolicLinkLoopExitsWithCode2NamingIt) {
  const std::string dir = ::testing::TempDir() + "/link-loop";
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  std::filesystem::copy_file(linkdyn::test::example("fourbar-table"), dir + "/fourbar-table.yaml");
  std::filesystem::copy_file(std::string(LINKDYN_EXAMPLES_DIR) + "/fourbar-table-load.csv",
                             dir + "/fourbar-table-load.csv");
  std::filesystem::create_symlink("loop.csv", dir + "/fourbar-table.csv");
  std::filesystem::create_symlink("fourbar-table.csv", dir + "/loop.csv");
  const CliRun r = run("kinematics " + dir + "/fourbar-table.yaml");
  EXPECT_EQ(r.code, 2) << r.output;
  EXPECT_NE(r.output.find("error: " + dir + "/fourbar-table.csv: table: is a loop of symbolic links"),
            std::string::npos)
      << r.output;
}

TEST(Cli, OneOutputFileSpelledTwoWaysIsRefusedUpFrontNamingBothOptions) {
  // --csv o.csv --json ./o.csv once left the JSON in o.csv and lost the CSV (exit 3).
  const std::string dir = ::testing::TempDir() + "/two-spellings";
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  const CliRun r = run("kinematics " + linkdyn::test::example("seed001-fourbar") + " --csv " + dir + "/o.csv --json " +
                       dir + "/./o.csv");
  EXPECT_EQ(r.code, 2) << r.output;
  EXPECT_NE(r.output.find("error: " + dir + "/./o.csv: --json: is the same file as --csv (" + dir + "/o.csv)"),
            std::string::npos)
      << r.output;
  EXPECT_TRUE(std::filesystem::is_empty(dir)) << "nothing written";
  // flex names its response option, not --csv.
  const std::string pump =
      write_temp("pump-response.yaml", linkdyn::test::read_text(linkdyn::test::example("seed004-pump")));
  const CliRun flex = run("flex " + pump + " --response " + pump);
  EXPECT_EQ(flex.code, 2) << flex.output;
  EXPECT_NE(flex.output.find("--response: is an input of this run"), std::string::npos) << flex.output;
}

TEST(Cli, AFailedWriteExitsWithCode3NamingTheFile) {
  if (!std::ifstream("/dev/full")) GTEST_SKIP() << "no /dev/full";
  const CliRun r = run("kinematics " + linkdyn::test::example("seed001-fourbar") + " --csv /dev/full");
  EXPECT_EQ(r.code, 3) << r.output;
  EXPECT_NE(r.output.find("/dev/full"), std::string::npos) << r.output;
}

TEST(Cli, ADuplicatedKeyIsRefusedNamingBothLines) {
  const std::string text = linkdyn::test::read_text(linkdyn::test::example("seed001-fourbar"));
  const std::string twice =
      text.substr(0, text.find("    inertia: 1.70")) + "    mass: 5.0\n" + text.substr(text.find("    inertia: 1.70"));
  const CliRun r = run("check " + write_temp("twice.yaml", twice));
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.output.find("'mass' in 'crank': is defined twice in the same map, on lines 12 and 13"), std::string::npos)
      << r.output;
}

TEST(Cli, AnAnchorContainingItsOwnAliasIsRefusedInEveryYamlInput) {
  // Model, body, robot and study files: exit 2 at the anchor's line, no stack overflow.
  const std::string examples = LINKDYN_EXAMPLES_DIR;
  const std::string states = " --states " + examples + "/robots/planar-3r-trajectory.csv";
  for (const auto& [verb, file, tail] :
       {std::tuple<const char*, std::string, std::string>{"check", "seed001-fourbar.yaml", ""},
        {"mass", "bodies/bracket.yaml", ""},
        {"robot id", "robots/planar-3r.yaml", states},
        {"study", "studies/fourbar-tolerances.yaml", ""}}) {
    std::string text = linkdyn::test::read_text(examples + "/" + file);
    const int line = static_cast<int>(std::count(text.begin(), text.end(), '\n')) + 1;
    text += "loop: &x {y: *x}\n";
    const std::string path = write_temp("self-alias-" + std::filesystem::path(file).filename().string(), text);
    const CliRun r = run(std::string(verb) + " " + path + tail);
    EXPECT_EQ(r.code, 2) << file << ": " << r.output;
    EXPECT_NE(r.output.find(path + ":" + std::to_string(line) +
                            ": anchor &x: contains an alias of itself (*x): its value would never end"),
              std::string::npos)
        << r.output;
  }
}

TEST(Cli, NonFiniteNumbersAreRefusedForEveryOption) {
  // NaN passes range checks (every comparison is false) and means "unset" for --q0/--qd0: any
  // option value that reads as a non-finite number is bad input.
  const std::string motor = linkdyn::test::example("seed001-fourbar-motor");
  for (const char* option : {"--qd0 nan", "--q0 inf", "--t-end nan", "--rtol 1e999", "--atol -inf"}) {
    const CliRun r = run("simulate " + motor + " --t-end 0.01 --steps 2 " + option);
    EXPECT_EQ(r.code, 2) << option << ": " << r.output;  // the option's own range check may say it first
    EXPECT_TRUE(r.output.find("is not a finite number") != std::string::npos ||
                r.output.find("not in range") != std::string::npos)
        << r.output;
  }
  EXPECT_EQ(run("kinematics " + linkdyn::test::example("seed001-fourbar") + " --singular-tol nan").code, 2);
  EXPECT_EQ(run("simulate " + motor + " --t-end 0.01 --steps 2 --qd0 12.5").code, 0);
}

TEST(Cli, CtrlCStopsASimulationCleanlyAndWritesTheRowsUpToThere) {
  const std::string dir = ::testing::TempDir() + "/interrupted";
  std::filesystem::remove_all(dir);
  std::filesystem::create_directories(dir);
  const std::string csv = dir + "/run.csv";
  const CliRun r = run_interrupted("simulate " + linkdyn::test::example("seed001-fourbar-motor") +
                                       " --t-end 1e5 --steps 1000 --max-integrator-steps 1000000000 --csv " + csv,
                                   2.0);
  EXPECT_EQ(r.code, 130) << r.output;
  EXPECT_NE(r.output.find("interrupted (Ctrl-C): the simulation stopped at t = "), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("wrote " + csv), std::string::npos) << r.output;
  // The file is whole (every row complete) and no temporary file is left beside it.
  const std::string text = linkdyn::test::read_text(csv);
  ASSERT_FALSE(text.empty());
  EXPECT_EQ(text.back(), '\n');
  for (const auto& entry : std::filesystem::directory_iterator(dir))
    EXPECT_EQ(entry.path().filename().string().find(".partial"), std::string::npos) << entry.path();
}

TEST(Cli, ALongKaneSimulationShowsItsProgressInALog) {
  // Not on a terminal: a line after 2 s, then one every 10 s (as the sweeps).
  const CliRun r = run_interrupted("simulate " + linkdyn::test::example("seed001-fourbar-motor") +
                                       " --method kane --t-end 1e5 --steps 1000 --max-integrator-steps 1000000000",
                                   4.0);
  EXPECT_EQ(r.code, 130) << r.output;
  const size_t line = r.output.find("simulate: t = ");
  ASSERT_NE(line, std::string::npos) << r.output;
  EXPECT_NE(r.output.find(" s of 100000 s (0 %), ", line), std::string::npos) << r.output;
  EXPECT_NE(r.output.find(" s left\n", line), std::string::npos) << r.output;
}

TEST(Cli, CtrlCStopsASweepWithoutWritingAnything) {
  const std::string csv = ::testing::TempDir() + "/interrupted-sweep.csv";
  std::filesystem::remove(csv);
  const CliRun r = run_interrupted(
      "kinetostatics " + linkdyn::test::example("watt-sixbar") + " --steps 2000000 --max-steps 2000000 --csv " + csv,
      2.0);
  EXPECT_EQ(r.code, 130) << r.output;
  EXPECT_NE(r.output.find("interrupted (Ctrl-C)"), std::string::npos) << r.output;
  EXPECT_FALSE(std::filesystem::exists(csv));
}

TEST(Cli, ARequestBeyondTheStepBudgetIsRefusedBeforeAnyWork) {
  // Once 3.5 GB and 545 s for 10^6 rows with --csv --json: now the number and the option, at once.
  const std::string fourbar = linkdyn::test::example("seed001-fourbar");
  for (const std::string& verb : {"kinematics " + fourbar, "kinetostatics " + fourbar, "report " + fourbar,
                                  "flex " + linkdyn::test::example("seed004-pump")}) {
    const CliRun r = run(verb + " --steps 5000000");
    EXPECT_EQ(r.code, 2) << verb << ": " << r.output;
    EXPECT_NE(r.output.find("asks for 5000000 steps, more than --max-steps 1000000"), std::string::npos) << r.output;
  }
  // The model's own steps: are held to it too, and --max-steps raises it.
  std::string text = linkdyn::test::read_text(fourbar);
  text.replace(text.find("steps: 360"), 10, "steps: 90000000");
  const std::string huge = write_temp("huge-steps.yaml", text);
  const CliRun model = run("kinematics " + huge);
  EXPECT_EQ(model.code, 2) << model.output;
  EXPECT_NE(model.output.find("huge-steps.yaml: the drivers' motion law (steps:)"), std::string::npos) << model.output;
  EXPECT_EQ(run("kinematics " + fourbar + " --steps 1500 --max-steps 2000").code, 0);
  const CliRun sim = run("simulate " + linkdyn::test::example("seed001-fourbar-motor") + " --steps 2000000");
  EXPECT_EQ(sim.code, 2) << sim.output;
  // The reduced method's table points are held to it as well, in reduce and in simulate.
  for (const std::string& verb : {std::string("reduce "), std::string("simulate ")}) {
    const CliRun table = run(verb + fourbar + " --table-points 5000000");
    EXPECT_EQ(table.code, 2) << verb << ": " << table.output;
    EXPECT_NE(table.output.find("--table-points: asks for 5000000 table points, more than --max-steps 1000000"),
              std::string::npos)
        << table.output;
  }
}

TEST(Cli, ASimulationBeyondItsIntegratorBudgetIsRefusedOrStopsWithItsRows) {
  const std::string motor = linkdyn::test::example("seed001-fourbar-motor");
  // 10^10 rad/s for 1 s: about 2.5e10 steps, refused before the first.
  const CliRun fast = run("simulate " + motor + " --qd0 1e10");
  EXPECT_EQ(fast.code, 2) << fast.output;
  EXPECT_NE(fast.output.find("needs about 2.55e+10 integrator steps"), std::string::npos) << fast.output;
  // A budget met during the run: exit 3 with t and the reason, and the rows computed so far.
  const std::string csv = ::testing::TempDir() + "/budget.csv";
  const CliRun stopped = run("simulate " + motor + " --max-integrator-steps 200 --csv " + csv);
  EXPECT_EQ(stopped.code, 3) << stopped.output;
  EXPECT_NE(stopped.output.find("more than 200 integrator steps by t = "), std::string::npos) << stopped.output;
  const std::string rows = linkdyn::test::read_text(csv);
  EXPECT_GT(std::count(rows.begin(), rows.end(), '\n'), 100);
}

TEST(Cli, ARunThatIntegratesNothingSaysSoInsteadOfASpeed) {
  // The incline block pushed by a force tabulated against its coordinate s over [0, 6]: a start
  // at s = -5 is outside the table, so the run stops at t = 0 (exit 2) with nothing integrated.
  const std::string data = std::string(LINKDYN_TEST_DATA_DIR) + "/";
  std::string text = linkdyn::test::read_text(data + "incline-block.yaml");
  text.replace(text.find("file: incline-force.csv, against: t"), 35, "file: " + data + "incline-force.csv, against: s");
  const CliRun r = run("simulate " + write_temp("incline-against-s.yaml", text) + " --q0 -5 --qd0 0 --t-end 1");
  EXPECT_EQ(r.code, 2) << r.output;
  EXPECT_NE(r.output.find("the simulation stops at t = 0 s"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("s of computing (nothing integrated)"), std::string::npos) << r.output;
  EXPECT_EQ(r.output.find("real time"), std::string::npos) << r.output;
}

TEST(Cli, HugeRealOptionsAreRefusedLikeTheModelsNumbers) {
  // |x| < 1e12 in SI, as in the model files: a speed of 1e13 rad/s has no meaning in doubles.
  const std::string motor = linkdyn::test::example("seed001-fourbar-motor");
  const CliRun r = run("simulate " + motor + " --t-end 0.01 --steps 2 --qd0 1e13");
  EXPECT_EQ(r.code, 2) << r.output;
  EXPECT_NE(r.output.find("'1e13' is too large"), std::string::npos) << r.output;
  // Just below the limit the value passes (and meets the integrator's budget instead).
  EXPECT_EQ(run("simulate " + motor + " --t-end 0.01 --steps 2 --qd0 -9.9e11").output.find("too large"),
            std::string::npos);
}

TEST(Cli, TheRelativeToleranceAndABareAngleAreCheckedAsInTheModelFile) {
  const std::string motor = linkdyn::test::example("seed001-fourbar-motor") + " --t-end 0.01 --steps 2 ";
  for (const char* rtol : {"1", "5"}) {
    const CliRun r = run("simulate " + motor + "--rtol " + rtol);
    EXPECT_EQ(r.code, 2) << r.output;
    EXPECT_NE(r.output.find("--rtol: must be greater than 0 and less than 1, not '" + std::string(rtol) + "'"),
              std::string::npos)
        << r.output;
  }
  const CliRun bare = run("simulate " + motor + "--q0 90");
  EXPECT_EQ(bare.code, 2) << bare.output;
  EXPECT_NE(bare.output.find("error: --q0: a bare angle of 90 is 14.3 turns in radians, the unit of a bare number: "
                             "write the unit, '90 deg' or, if radians are meant, '90 rad'"),
            std::string::npos)
      << bare.output;
  EXPECT_EQ(run("simulate " + motor + "--q0 90deg --rtol 0.5").code, 0);
  EXPECT_EQ(run("simulate " + motor + "--q0 1.5").code, 0);
}

TEST(Cli, ASpeedTooSlowForAFiniteCycleIsRefusedAtItsLineInEveryVerb) {
  // speed: 1e-308 rad/s: kinematics stopped at "t = inf" without file or line; the others ran.
  std::string text = linkdyn::test::read_text(linkdyn::test::example("seed001-fourbar"));
  const size_t at = text.find("speed: ");
  ASSERT_NE(at, std::string::npos);
  const int line = static_cast<int>(std::count(text.begin(), text.begin() + static_cast<std::ptrdiff_t>(at), '\n')) + 1;
  text.replace(at, text.find_first_of(",}", at) - at, "speed: 1e-308 rad/s");
  const std::string model = write_temp("slow.yaml", text);
  for (const char* verb : {"check", "kinematics", "kinetostatics", "simulate", "report"}) {
    const CliRun r = run(std::string(verb) + " " + model);
    EXPECT_EQ(r.code, 2) << verb << ": " << r.output;
    EXPECT_NE(r.output.find(model + ":" + std::to_string(line) + ": "), std::string::npos) << r.output;
    EXPECT_NE(r.output.find("at this speed one revolution takes"), std::string::npos) << r.output;
  }
}

TEST(Cli, UnitsAreAcceptedOnTheCommandLineWhereTheModelFileAcceptsThem) {
  // "300ms" is --t-end 0.3 and "300rpm" is --qd0 10 pi rad/s, file for file; a unit of the wrong
  // kind is refused with the accepted ones (exit 2); a bare number stays SI.
  const std::string model = linkdyn::test::example("seed001-fourbar-motor"), dir = ::testing::TempDir();
  const auto table = [&](const std::string& options, const std::string& name) {
    const CliRun r = run("simulate " + model + " --steps 10 " + options + " --csv " + dir + "/" + name);
    EXPECT_EQ(r.code, 0) << options << ": " << r.output;
    return linkdyn::test::read_text(dir + "/" + name);
  };
  EXPECT_EQ(table("--t-end 300ms", "ms.csv"), table("--t-end 0.3", "s.csv"));
  EXPECT_EQ(table("--t-end 0.1 --qd0 300rpm", "rpm.csv"), table("--t-end 0.1 --qd0 31.415926535897931", "rad.csv"));
  EXPECT_EQ(table("--t-end 0.1 --q0 '90 deg'", "deg.csv"), table("--t-end 0.1 --q0 1.5707963267948966", "q.csv"));
  const CliRun wrong_kind = run("simulate " + model + " --qd0 5deg");
  EXPECT_EQ(wrong_kind.code, 2) << wrong_kind.output;
  EXPECT_NE(wrong_kind.output.find("--qd0: unit 'deg' is not accepted here (accepted: rad/s, deg/s, rpm)"),
            std::string::npos)
      << wrong_kind.output;
  const CliRun time_unit = run("simulate " + model + " --t-end 3kg");
  EXPECT_EQ(time_unit.code, 2) << time_unit.output;
  EXPECT_NE(time_unit.output.find("accepted: s, ms, min"), std::string::npos) << time_unit.output;
}

TEST(Cli, AnOptionThatMeansNothingForTheVerbIsRefused) {
  // Joint friction does not enter a mass matrix: --no-friction there is refused, not ignored.
  const std::string robots = std::string(LINKDYN_EXAMPLES_DIR) + "/robots/";
  const CliRun r =
      run("robot mass-matrix " + robots + "iiwa14.urdf --states " + robots + "iiwa14-trajectory.csv --no-friction");
  EXPECT_EQ(r.code, 2) << r.output;
  EXPECT_NE(r.output.find("has no option '--no-friction'"), std::string::npos) << r.output;
}

TEST(Cli, EveryKWritesTheFirstEachKthAndTheLastRowAndTheSummaryStillCoversAll) {
  // --every 7 on 101 rows: rows 0, 7, ..., 98 and the last, each the full sweep's row verbatim;
  // the printed summary (extremes over every row) is the one without --every.
  const std::string model = linkdyn::test::example("seed001-fourbar"), dir = ::testing::TempDir();
  const CliRun full = run("kinematics " + model + " --steps 100 --csv " + dir + "/full.csv");
  const CliRun every = run("kinematics " + model + " --steps 100 --every 7 --csv " + dir + "/every.csv");
  ASSERT_EQ(full.code, 0) << full.output;
  ASSERT_EQ(every.code, 0) << every.output;
  std::vector<std::string> all, kept;
  std::istringstream a(linkdyn::test::read_text(dir + "/full.csv")), b(linkdyn::test::read_text(dir + "/every.csv"));
  for (std::string line; std::getline(a, line);) all.push_back(line);
  for (std::string line; std::getline(b, line);) kept.push_back(line);
  ASSERT_EQ(all.size(), 102u);
  std::vector<std::string> expected{all[0]};
  for (size_t row = 0; row <= 100; row += 7) expected.push_back(all[1 + row]);
  expected.push_back(all[101]);
  EXPECT_EQ(kept, expected);
  const auto summary = [](const std::string& output) { return output.substr(0, output.find("wrote")); };
  EXPECT_EQ(summary(every.output), summary(full.output));
}

TEST(Cli, FlexWritesTheStressEnvelopeOfALinkWithASectionAndRefusesASectionThatContradictsA) {
  // The pump's lever given as a 20 x 6 mm rectangle (A and I from the shape): the envelope per
  // station, zero moment at the pinned ends, and at an end the fibre stress is N / A.
  std::string pump = linkdyn::test::read_text(linkdyn::test::example("seed004-pump"));
  const std::string a_line = "    A: 1.2e-4              # m^2\n",
                    i_line = "    I: 3.6e-10             # m^4 (20 x 6^3 / 12 mm^4)\n";
  ASSERT_NE(pump.find(a_line), std::string::npos);
  ASSERT_NE(pump.find(i_line), std::string::npos);
  std::string shaped = pump;
  shaped.replace(shaped.find(a_line), a_line.size(), "    section: {shape: rectangle, width: 20 mm, height: 6 mm}\n");
  shaped.erase(shaped.find(i_line), i_line.size());
  const std::string csv = ::testing::TempDir() + "/lever-stress.csv";
  const CliRun r = run("flex " + write_temp("pump-section.yaml", shaped) + " --steps 72 --no-eigen --stress " + csv);
  ASSERT_EQ(r.code, 0) << r.output;
  EXPECT_NE(r.output.find("extreme fibre stress: |sigma| up to"), std::string::npos) << r.output;
  std::ifstream in(csv);
  std::string header, line;
  std::getline(in, header);
  EXPECT_EQ(header, "s,N.min,N.max,V.min,V.max,M.min,M.max,sigma.min,sigma.max,sigma.range,t.sigma_peak");
  std::vector<std::vector<double>> rows;
  while (std::getline(in, line)) {
    std::vector<double> row;
    std::istringstream cells(line);
    for (std::string cell; std::getline(cells, cell, ',');) row.push_back(std::stod(cell));
    rows.push_back(row);
  }
  ASSERT_EQ(rows.size(), 21u);
  double largest_moment = 0.0;
  for (const auto& row : rows) largest_moment = std::max({largest_moment, std::abs(row[5]), std::abs(row[6])});
  EXPECT_GT(largest_moment, 0.1);
  for (const auto& end : {rows.front(), rows.back()}) {
    EXPECT_LT(std::max(std::abs(end[5]), std::abs(end[6])), 1e-9 * largest_moment) << "pinned and sliding ends";
    EXPECT_NEAR(end[8], end[2] / 1.2e-4, 1e-6 * std::abs(end[8])) << "sigma = N / A without bending";
    EXPECT_NEAR(end[9], (end[2] - end[1]) / 1.2e-4, 1e-6 * end[9]) << "the range of N / A";
  }
  // A given that contradicts the shape (a 10 x 6 mm rectangle has 6e-5 m^2): refused, both named.
  std::string wrong = pump;
  wrong.replace(wrong.find(a_line), a_line.size(),
                a_line + "    section: {shape: rectangle, width: 10 mm, height: 6 mm}\n");
  const CliRun refused = run("flex " + write_temp("pump-wrong-section.yaml", wrong) + " --no-eigen");
  EXPECT_EQ(refused.code, 2) << refused.output;
  EXPECT_NE(refused.output.find("A = 0.00012 m^2 differs from the section's 6e-05 m^2 by more than 1 %"),
            std::string::npos)
      << refused.output;
}

TEST(Cli, TheFastSliderCranksElasticRodRunsBetweenItsEighthAndNinthHarmonicAndReportsItsStresses) {
  // examples/fast-slider-crank-elastic.yaml: f1 of the rod 8.3-8.7 times the cycle frequency
  // along the cycle (no harmonic crossed), a steady response, and the rod's fibre stresses.
  const CliRun r = run("flex " + linkdyn::test::example("fast-slider-crank-elastic") + " --steps 72");
  ASSERT_EQ(r.code, 0) << r.output;
  EXPECT_NE(r.output.find("f / f_cycle in [8.2"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("between harmonics 8 and 9"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("steady periodic response"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("extreme fibre stress: |sigma| up to"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("beam mass rho A L = 0.2826 kg (the rigid body's mass: 0.2826 kg)"), std::string::npos)
      << r.output;
}

namespace {
/// The command is refused with exit code 2 and a message holding `says`.
void expect_refused(const std::string& args, const std::string& says) {
  const CliRun r = run(args);
  EXPECT_EQ(r.code, 2) << args << "\n" << r.output;
  EXPECT_NE(r.output.find(says), std::string::npos) << args << "\n" << r.output;
}
/// The command succeeds and the file it wrote holds `holds`.
void expect_writes(const std::string& args, const std::string& file, const std::string& holds) {
  const CliRun r = run(args);
  EXPECT_EQ(r.code, 0) << args << "\n" << r.output;
  EXPECT_NE(linkdyn::test::read_text(file).find(holds), std::string::npos) << args;
}
}  // namespace

TEST(Cli, FlexSubstepsAreBoundedByMaxStepsAndNeverOverflow) {
  // 2^29 substeps once overflowed an int: exit 0 with an all-zero response.
  const std::string pump = linkdyn::test::example("seed004-pump");
  expect_refused(
      "flex " + pump + " --steps 36 --substeps 536870912",
      "--substeps: asks for 19327352832 Newmark steps (positions x substeps), more than --max-steps 1000000");
  expect_refused("flex " + pump + " --steps 36 --substeps 536870912 --max-steps 100000000000 --no-eigen",
                 "36 positions x 536870912 substeps are more Newmark steps than an int counts");
  const CliRun r = run("flex " + pump + " --steps 36 --substeps 10 --no-eigen");
  EXPECT_EQ(r.code, 0) << r.output;
  EXPECT_NE(r.output.find("360 Newmark steps per pass of the response"), std::string::npos) << r.output;
}

TEST(Cli, ReportDynamicsOptionsAreCheckedAndMeaningfulOnlyWithActuators) {
  const std::string press = "report " + linkdyn::test::example("toggle-press");
  const std::string html = ::testing::TempDir() + "/press.report.html";
  expect_writes(press + " --steady -o " + html, html, "steady regime: period");
  expect_writes(press + " --start-up --t-end 500ms -o " + html, html, "until t = 0.5 s");
  // Exclusive, dependent and meaningless options: one clear error, exit code 2.
  expect_refused(press + " --steady --start-up -o " + html, "excludes");
  expect_refused(press + " --t-end 2 -o " + html, "requires --start-up");
  expect_refused("report " + linkdyn::test::example("seed001-fourbar") + " --steady -o " + html, "no actuators");
}

TEST(Cli, AlongTakesATrackedPointAndAnAngleWithItsUnit) {
  const std::string press = linkdyn::test::example("toggle-press");
  const std::string html = ::testing::TempDir() + "/along.report.html";
  expect_writes("report " + press + " --along T:90deg -o " + html, html, "T along 90 deg");
  expect_refused("report " + press + " --along T:90 -o " + html, "the angle has no unit");
  // An option's error names the option, not the model file's line 1.
  expect_refused("report " + press + " --along ram.D:0deg -o " + html,
                 "error: --along ram.D: is not a tracked point; name one of: A, B");
  expect_refused("kinematics " + press + " --along T:90deg", "--along requires --plot");
}

namespace {
/// The command ends with exit code `code` and its output holds each of `says`.
void expect_exit(const std::string& args, int code, std::initializer_list<std::string> says) {
  const CliRun r = run(args);
  EXPECT_EQ(r.code, code) << args << "\n" << r.output;
  for (const std::string& text : says) EXPECT_NE(r.output.find(text), std::string::npos) << args << "\n" << r.output;
}
}  // namespace

TEST(Cli, AMethodNotChosenFallsBackToKaneWithANoteAndReportTakesMethodAndRtol) {
  const std::string data = std::string(LINKDYN_TEST_DATA_DIR) + "/", dir = ::testing::TempDir();
  const std::string rocker = data + "triple-rocker-spring.yaml", lift = data + "scissor-lift.yaml";
  const std::string swing = " --q0 40deg --qd0 0 --t-end 1 --steps 10";
  // Not chosen: Kane's method, a note on stderr and in the JSON settings, exit 0.
  expect_exit("simulate " + rocker + swing + " --json " + dir + "/rocker.json", 0,
              {"note: Kane's method, since the reduced method cannot tabulate", "triple-rocker-spring: kane method"});
  const std::string json = linkdyn::test::read_text(dir + "/rocker.json");
  EXPECT_NE(json.find("\"method\": \"kane\""), std::string::npos);
  EXPECT_NE(json.find("\"method_note\""), std::string::npos);
  // Asked for: the reduced method stops with exit 3 and the reason.
  expect_exit("simulate " + rocker + swing + " --method reduced", 3, {"does not assemble"});
  // The scissor lift runs by the reduced method at default settings, and its report by each method.
  expect_exit("simulate " + lift + " --q0 0.5 --qd0 0 --t-end 2 --steps 20", 0, {"scissor-lift: reduced method"});
  for (const std::string method : {"reduced", "kane"})
    expect_exit("report " + lift + " --start-up --t-end 1 --method " + method + " --rtol 1e-8 -o " + dir + "/lift-" +
                    method + ".html",
                0, {"wrote "});
  expect_exit("report " + lift + " --method euler", 2, {"--method"});
  // A steady search whose work per cycle cannot balance: exit 3 and the reason.
  expect_exit("simulate " + data + "fourbar-free-torque.yaml --steady", 3, {"the work per cycle cannot balance"});
}

TEST(Cli, KinematicsPrintsTheDesignNumbersAndWritesThemInTheJsonMetadata) {
  const std::string json = ::testing::TempDir() + "/fourbar-design.json";
  expect_exit("kinematics " + linkdyn::test::example("seed001-fourbar") + " --json " + json, 0,
              {"design numbers:", "rocker               swing 93.3832 deg", "time ratio 1.21942",
               "four-bar ground-crank-coupler-rocker: 5.5, 2, 6, 3 m: crank-rocker (Grashof)",
               "transmission angle at C: min 24.533 deg"});
  const std::string text = linkdyn::test::read_text(json);
  EXPECT_NE(text.find("\"design\""), std::string::npos);
  EXPECT_NE(text.find("\"type\": \"crank-rocker\""), std::string::npos);
  EXPECT_NE(text.find("\"time_ratio\": 1.2194232424"), std::string::npos);
}
