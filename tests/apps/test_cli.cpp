// The command line: help, check, kinematics files, and exit codes 2 (bad input) and 3
// (cannot assemble at the start).
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <array>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>

#include "test_support.hpp"

namespace {

struct CliRun {
  int code = -1;
  std::string output;  // stdout and stderr
};

CliRun run(const std::string& args) {
  CliRun r;
  const std::string cmd = std::string(LINKDYN_CLI) + " " + args + " 2>&1";
  FILE* pipe = popen(cmd.c_str(), "r");
  if (!pipe) return r;
  std::array<char, 4096> buf{};
  while (fgets(buf.data(), buf.size(), pipe)) r.output += buf.data();
  const int status = pclose(pipe);
  r.code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return r;
}

std::string write_temp(const std::string& name, const std::string& text) {
  const std::string path = ::testing::TempDir() + "/" + name;
  std::ofstream(path) << text;
  return path;
}

}  // namespace

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
  const CliRun r = run("kinematics " + linkdyn::test::example("seed001-fourbar") + " --steps 360 --csv " + csv + " --json " + json);
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

TEST(Cli, KinetostaticsOfTheSeedWithAndWithoutFriction) {
  const std::string csv = ::testing::TempDir() + "/ks.csv";
  const CliRun r = run("kinetostatics " + linkdyn::test::example("seed001-fourbar") + " --csv " + csv);
  ASSERT_EQ(r.code, 0) << r.output;
  EXPECT_NE(r.output.find("friction on (tolerance 0.001 N)"), std::string::npos) << r.output;
  const std::string text = linkdyn::test::read_text(csv);
  EXPECT_EQ(text.rfind("t,crank_drive.angle,crank_drive.torque,crank_drive.torque_frictionless,A.Fx,A.Fy,A.F,A.friction_power", 0), 0u);
  EXPECT_NE(text.find("friction.power,driver.power,efficiency,iterations,self_locking"), std::string::npos);
  EXPECT_EQ(text.find("nan"), std::string::npos);
  const CliRun off = run("kinetostatics " + linkdyn::test::example("seed001-fourbar") + " --no-friction --steps 36");
  EXPECT_EQ(off.code, 0) << off.output;
  EXPECT_NE(off.output.find("friction off"), std::string::npos);
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
  EXPECT_NE(k.output.find("wrote 4 plot(s)"), std::string::npos) << k.output;
  const std::string svg = linkdyn::test::read_text(dir + "/kinetostatics-reactions.svg");
  EXPECT_NE(svg.find("Pair reactions |F|"), std::string::npos);
  const std::string html = ::testing::TempDir() + "/seed.report.html";
  const CliRun r = run("report " + linkdyn::test::example("seed001-fourbar") + " -o " + html);
  ASSERT_EQ(r.code, 0) << r.output;
  EXPECT_NE(linkdyn::test::read_text(html).find("<!DOCTYPE html>"), std::string::npos);
}

TEST(Cli, ReduceAndSimulateRunAndRefuseBadRequests) {
  const CliRun reduce = run("reduce " + linkdyn::test::example("seed003-dwell") + " --points 72");
  EXPECT_EQ(reduce.code, 0) << reduce.output;
  EXPECT_NE(reduce.output.find("kinetic energy vs kinetostatics"), std::string::npos);
  const CliRun sim = run("simulate " + linkdyn::test::example("seed003-dwell") + " --t-end 0.2 --steps 20 --method full");
  EXPECT_EQ(sim.code, 0) << sim.output;
  EXPECT_NE(sim.output.find("full method"), std::string::npos);
  // Two degrees of freedom: one equation of motion is not enough.
  const CliRun two = run("simulate " + linkdyn::test::example("pump-2dof"));
  EXPECT_EQ(two.code, 2) << two.output;
  EXPECT_NE(two.output.find("one degree of freedom"), std::string::npos) << two.output;
  // An actuator that is not in the model.
  const CliRun adjust = run("simulate " + linkdyn::test::example("seed003-dwell") + " --mean-speed 20 --adjust pump");
  EXPECT_EQ(adjust.code, 2) << adjust.output;
  EXPECT_NE(adjust.output.find("actuator 'pump': is not in the model"), std::string::npos) << adjust.output;
}

TEST(Cli, BadActuatorIsAnInputError) {
  std::string text = linkdyn::test::read_text(linkdyn::test::example("seed003-dwell"));
  text.replace(text.find("T0: 0.1"), 7, "T0: -0.1");
  const CliRun r = run("simulate " + write_temp("bad-actuator.yaml", text));
  EXPECT_EQ(r.code, 2) << r.output;
  EXPECT_NE(r.output.find("actuator 'resistance': T0 is negative"), std::string::npos) << r.output;
}

TEST(Cli, FlexWritesEigenvaluesAndSteadyResponseOfThePumpLeverWithoutNaN) {
  const std::string csv = ::testing::TempDir() + "/lever-eigen.csv", response = ::testing::TempDir() + "/lever-response.csv";
  const CliRun r = run("flex " + linkdyn::test::example("seed004-pump-lever") + " --modes 2 --steps 36 --substeps 10 --csv " + csv +
                       " --response " + response);
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
    EXPECT_NE(header.find(path == csv ? "lever.f1,lever.fg1,lever.sigma1" : "lever.mid.w,lever.mid.u"), std::string::npos) << header;
  }
}

TEST(Cli, FlexRefusesAModelWithoutElasticLinksOrWithBadSupports) {
  const CliRun none = run("flex " + linkdyn::test::example("seed001-fourbar"));
  EXPECT_EQ(none.code, 2) << none.output;
  EXPECT_NE(none.output.find("has no elastic link"), std::string::npos) << none.output;
  std::string text = linkdyn::test::read_text(linkdyn::test::example("seed004-pump-lever"));
  text.replace(text.find("[pinned, sliding]"), 17, "[free, sliding]");
  const std::string path = write_temp("free-lever.yaml", text);
  const CliRun bad = run("flex " + path);
  EXPECT_EQ(bad.code, 2) << bad.output;
  EXPECT_NE(bad.output.find(path + ":"), std::string::npos) << bad.output;
  EXPECT_NE(bad.output.find("elastic link 'lever'"), std::string::npos) << bad.output;
  EXPECT_NE(bad.output.find("rigid-body motion"), std::string::npos) << bad.output;
}

TEST(Cli, FlexOnAMechanismThatStopsAssemblingExitsWithCode3AndTheDriverValue) {
  // The non-Grashof four-bar does not assemble past 97.9 deg: the link needs the whole motion.
  std::string text = linkdyn::test::read_text(linkdyn::test::example("non-grashof-fourbar"));
  text += "\nelastic_links:\n  bar: {body: coupler, from: B, to: C, E: 210e9, rho: 7850, A: 1e-4, I: 1e-9, supports: [pinned, sliding]}\n";
  const CliRun r = run("flex " + write_temp("non-grashof-elastic.yaml", text) + " --no-response");
  EXPECT_EQ(r.code, 3) << r.output;
  EXPECT_NE(r.output.find("cannot close"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("the elastic link needs the whole motion"), std::string::npos) << r.output;
}

TEST(Cli, FlexFromRestWithoutGyroscopicWritesJson) {
  const std::string json = ::testing::TempDir() + "/lever.json";
  const CliRun r = run("flex " + linkdyn::test::example("seed004-pump-lever") + " --modes 1 --steps 24 --substeps 5 --from-rest --no-gyroscopic --json " + json);
  ASSERT_EQ(r.code, 0) << r.output;
  EXPECT_NE(r.output.find("from rest response"), std::string::npos) << r.output;
  EXPECT_EQ(r.output.find("gyroscopic ["), std::string::npos) << r.output;
  std::stringstream j;
  j << std::ifstream(json).rdbuf();
  EXPECT_NE(j.str().find("\"analysis\": \"flex\""), std::string::npos);
  EXPECT_NE(j.str().find("\"lever.lambda1\""), std::string::npos);
  EXPECT_EQ(j.str().find("lever.fg1"), std::string::npos);
}
