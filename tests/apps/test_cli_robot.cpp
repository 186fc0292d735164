// The robot commands on trees and floating bases: fk, jacobian, coriolis, derivatives, simulate
// with a torque trajectory and a PD controller, inconsistent inertias, fd's driving forces,
// URDF friction.
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <array>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "apps/cli_run.hpp"

namespace {

using linkdyn::test::CliRun;
using linkdyn::test::run;
using linkdyn::test::write_temp;

/// A CSV written by the CLI: header and rows of numbers.
struct Csv {
  std::vector<std::string> header;
  std::vector<std::vector<double>> rows;
  double at(size_t row, const std::string& column) const {
    for (size_t k = 0; k < header.size(); ++k)
      if (header[k] == column) return rows.at(row).at(k);
    ADD_FAILURE() << "no column " << column;
    return 0;
  }
};
Csv read_csv(const std::string& path) {
  Csv c;
  std::ifstream in(path);
  for (std::string line; std::getline(in, line);) {
    if (line.empty() || line[0] == '#') continue;
    std::vector<std::string> cells;
    std::stringstream s(line);
    for (std::string cell; std::getline(s, cell, ',');) cells.push_back(cell);
    if (c.header.empty()) {
      c.header = cells;
      continue;
    }
    std::vector<double> row;
    for (const auto& cell : cells) row.push_back(cell.empty() ? NAN : std::stod(cell));
    c.rows.push_back(row);
  }
  return c;
}
const std::string robots = std::string(LINKDYN_EXAMPLES_DIR) + "/robots/";
/// A file name of this test's own (ctest runs the tests of this file in parallel processes).
std::string own(const std::string& name) {
  return std::string(::testing::UnitTest::GetInstance()->current_test_info()->name()) + "-" + name;
}
/// The output file of this test's commands.
std::string out() { return ::testing::TempDir() + "/" + own("out.csv"); }

/// A states file for the 7 iiwa joints: one row per entry of `rows`, each q, qd, qdd.
std::string iiwa_states(const std::string& name, const std::vector<std::array<std::array<double, 7>, 3>>& rows,
                        const std::vector<double>& t = {}) {
  std::ostringstream s;
  s.precision(17);
  if (!t.empty()) s << "t,";
  for (const char* x : {".q", ".qd", ".qdd"})
    for (int k = 1; k <= 7; ++k) s << "iiwa_joint_" << k << x << (k == 7 && std::string(x) == ".qdd" ? "\n" : ",");
  for (size_t r = 0; r < rows.size(); ++r) {
    if (!t.empty()) s << t[r] << ",";
    for (int o = 0; o < 3; ++o)
      for (int k = 0; k < 7; ++k) s << rows[r][size_t(o)][size_t(k)] << (o == 2 && k == 6 ? "\n" : ",");
  }
  return write_temp(own(name), s.str());
}
const std::array<double, 7> q0{0.3, -0.6, 0.4, 1.1, -0.2, 0.7, 0.5}, qd0{0.5, -0.3, 0.8, 0.2, -0.6, 0.4, 1.0}, zero{};
}  // namespace

TEST(CliRobotKinematics, FkGivesTheToolOfTheStraightArmAndJacobianItsVelocity) {
  // At q = 0 the iiwa stands straight up: the tool 1.306 m above the base, unrotated.
  ASSERT_EQ(run("robot fk " + robots + "iiwa14.urdf --states " + iiwa_states("zero.csv", {{zero, zero, zero}}) +
                " --csv " + out())
                .code,
            0);
  Csv fk = read_csv(out());
  EXPECT_NEAR(fk.at(0, "tool0.z"), 1.306, 1e-12);
  EXPECT_NEAR(fk.at(0, "tool0.qw"), 1.0, 1e-15);
  EXPECT_NEAR(fk.at(0, "end_effector.z"), 1.306, 1e-12);
  // Along q(t) = q0 + qd0 t the tool's velocity at t = 0 (4th-order central difference of fk,
  // h = 1e-3: truncation ~1e-12, the CSV's 12 digits ~1e-9) equals J(q0) qd0.
  const double h = 1e-3;
  std::vector<std::array<std::array<double, 7>, 3>> rows;
  for (double s : {-2 * h, -h, h, 2 * h}) {
    std::array<double, 7> q{};
    for (int k = 0; k < 7; ++k) q[size_t(k)] = q0[size_t(k)] + s * qd0[size_t(k)];
    rows.push_back({q, qd0, zero});
  }
  ASSERT_EQ(run("robot fk " + robots + "iiwa14.urdf --states " + iiwa_states("pm.csv", rows) + " --csv " + out()).code,
            0);
  fk = read_csv(out());
  ASSERT_EQ(run("robot jacobian " + robots + "iiwa14.urdf --frame tool0 --states " +
                iiwa_states("q0.csv", {{q0, qd0, zero}}) + " --csv " + out())
                .code,
            0);
  const Csv J = read_csv(out());
  const char* axis[] = {"x", "y", "z"};
  for (int r = 0; r < 3; ++r) {
    double v = 0;
    for (int c = 0; c < 7; ++c)
      v += J.at(0, "J_" + std::to_string(r + 1) + "_" + std::to_string(c + 1)) * qd0[size_t(c)];
    const std::string col = std::string("tool0.") + axis[r];
    EXPECT_NEAR(v, (8 * (fk.at(2, col) - fk.at(1, col)) - (fk.at(3, col) - fk.at(0, col))) / (12 * h), 1e-8) << col;
  }
  const CliRun bad = run("robot jacobian " + robots + "iiwa14.urdf --frame flange --states " +
                         iiwa_states("q1.csv", {{q0, qd0, zero}}));
  EXPECT_EQ(bad.code, 2);
  EXPECT_NE(bad.output.find("error: --frame flange: the model has no frame of that name"), std::string::npos)
      << bad.output;
  EXPECT_NE(bad.output.find("tool0"), std::string::npos) << bad.output;
}

TEST(CliRobotDynamics, CoriolisMatrixTimesVelocityIsTheVelocityTermOfInverseDynamics) {
  // C(q, qd) qd = tau(q, qd, 0) - tau(q, 0, 0) without friction (to the CSV's 12 digits).
  const std::string states = iiwa_states("cq.csv", {{q0, qd0, zero}, {q0, zero, zero}});
  ASSERT_EQ(run("robot coriolis " + robots + "iiwa14.urdf --states " + states + " --csv " + out()).code, 0);
  const Csv C = read_csv(out());
  ASSERT_EQ(run("robot id " + robots + "iiwa14.urdf --no-friction --states " + states + " --csv " + out()).code, 0);
  const Csv tau = read_csv(out());
  for (int i = 1; i <= 7; ++i) {
    double Cqd = 0;
    for (int j = 1; j <= 7; ++j)
      Cqd += C.at(0, "C_" + std::to_string(i) + "_" + std::to_string(j)) * qd0[size_t(j - 1)];
    const std::string name = "iiwa_joint_" + std::to_string(i) + ".tau";
    EXPECT_NEAR(Cqd, tau.at(0, name) - tau.at(1, name), 1e-9) << name;
  }
}

TEST(CliRobotDynamics, DerivativesAgreeWithDifferencesOnTheTreeAndTheFloatingQuadruped) {
  for (const std::string model : {"dual-iiwa14", "quadruped"}) {
    const std::string states = robots + model + (model == "quadruped" ? "-states.csv" : "-trajectory.csv");
    const CliRun r =
        run("robot derivatives " + robots + model + ".urdf --check --states " + states + " --csv " + out());
    ASSERT_EQ(r.code, 0) << r.output;
    const auto at = r.output.find("d tau/dq ");
    ASSERT_NE(at, std::string::npos) << r.output;
    double dq = 1, dqd = 1;
    ASSERT_EQ(std::sscanf(r.output.c_str() + at, "d tau/dq %lf, d tau/dqd %lf", &dq, &dqd), 2) << r.output;
    EXPECT_LT(dq, 1e-8) << model;
    EXPECT_LT(dqd, 1e-8) << model;
    const Csv d = read_csv(out());
    const int n = model == "quadruped" ? 18 : 15;
    EXPECT_EQ(d.header.size(), size_t(1 + 2 * n * n));
  }
}

TEST(CliRobotSimulate, GravityTorquesFromAFileHoldTheArmAndPdTracksTheTrajectory) {
  // tau = g(q0) from `robot id` at rest, given as a torque trajectory: the arm stays at q0.
  ASSERT_EQ(run("robot id " + robots + "iiwa14.urdf --no-friction --states " +
                iiwa_states("rest.csv", {{q0, zero, zero}, {q0, zero, zero}}, {0.0, 1.0}) + " --csv " + out())
                .code,
            0);
  const Csv g = read_csv(out());
  std::ostringstream torques;
  torques.precision(17);
  torques << "t";
  for (int k = 1; k <= 7; ++k) torques << ",iiwa_joint_" << k << ".tau";
  for (size_t r = 0; r < 2; ++r) {
    torques << "\n" << g.at(r, "t");
    for (int k = 1; k <= 7; ++k) torques << "," << g.at(r, "iiwa_joint_" + std::to_string(k) + ".tau");
  }
  const std::string tfile = write_temp(own("torques.csv"), torques.str() + "\n");
  const std::string sim = ::testing::TempDir() + "/" + own("sim.csv");
  CliRun r = run("robot simulate " + robots + "iiwa14.urdf --no-friction --t-end 0.5 --steps 10 --torques " + tfile +
                 " --states " + iiwa_states("rest0.csv", {{q0, zero, zero}}) + " --csv " + sim);
  ASSERT_EQ(r.code, 0) << r.output;
  Csv s = read_csv(sim);
  for (size_t r2 = 0; r2 < s.rows.size(); ++r2)
    for (int k = 1; k <= 7; ++k)
      EXPECT_NEAR(s.at(r2, "iiwa_joint_" + std::to_string(k) + ".q"), q0[size_t(k - 1)], 1e-9) << "row " << r2;
  // PD to the shipped trajectory from its first state: the error stays below 0.05 rad, while the
  // arm left alone falls away from it by more than 0.3 rad.
  const std::string traj = robots + "iiwa14-trajectory.csv";
  const Csv reference = read_csv(traj);
  auto worst_error = [&](const Csv& sim_csv) {
    double worst = 0;
    for (size_t k = 0; k < sim_csv.rows.size(); ++k)
      for (int j = 1; j <= 7; ++j) {
        const std::string name = "iiwa_joint_" + std::to_string(j) + ".q";
        worst = std::max(worst, std::abs(sim_csv.at(k, name) - reference.at(k, name)));
      }
    return worst;
  };
  r = run("robot simulate " + robots + "iiwa14.urdf --kp 3000 --kd 200 --t-end 1 --steps 10 --states " + traj +
          " --csv " + sim);
  ASSERT_EQ(r.code, 0) << r.output;
  EXPECT_NE(r.output.find("PD control"), std::string::npos);
  EXPECT_LT(worst_error(read_csv(sim)), 0.05);
  r = run("robot simulate " + robots + "iiwa14.urdf --t-end 1 --steps 10 --states " + traj + " --csv " + sim);
  ASSERT_EQ(r.code, 0) << r.output;
  EXPECT_GT(worst_error(read_csv(sim)), 0.3);
  EXPECT_EQ(run("robot simulate " + robots + "iiwa14.urdf --kp 1,2 --states " + traj).code, 2);  // 2 gains for 7 joints
}

TEST(CliRobotModels, InconsistentPumaInertiaWarnsRefusesOrIsBalanced) {
  const std::string model = robots + "puma560-corke.urdf";
  const std::string states =
      write_temp(own("puma.csv"), "joint1.q,joint2.q,joint3.q,joint4.q,joint5.q,joint6.q\n0.1,0.2,0.3,0.4,0.5,0.6\n");
  CliRun r = run("robot mass-matrix " + model + " --states " + states + " --csv " + out());
  EXPECT_EQ(r.code, 0) << r.output;
  EXPECT_NE(r.output.find("warning: " + model + ":72: link 'link3'"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("I1 + I2 >= I3"), std::string::npos) << r.output;
  r = run("robot mass-matrix " + model + " --strict --states " + states);
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.output.find("link 'link3'"), std::string::npos) << r.output;
  r = run("robot mass-matrix " + model + " --balance-inertia --states " + states + " --csv " + out());
  EXPECT_EQ(r.code, 0);
  EXPECT_NE(r.output.find("balanced to 0.0548333 kg m^2"), std::string::npos) << r.output;
}

TEST(CliRobotModels, ForwardDynamicsAsksForTheDrivingForcesAndRunsOnTheShippedFile) {
  CliRun r = run("robot fd " + robots + "iiwa14.urdf --states " + robots + "iiwa14-trajectory.csv");
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.output.find("'robot fd' needs it; forward dynamics computes qdd from q, qd and the driving forces"),
            std::string::npos)
      << r.output;
  r = run("robot fd " + robots + "iiwa14.urdf --states " + robots + "iiwa14-fd-states.csv --csv " + out());
  ASSERT_EQ(r.code, 0) << r.output;
  const Csv qdd = read_csv(out()), traj = read_csv(robots + "iiwa14-trajectory.csv");
  for (size_t row = 0; row < traj.rows.size(); ++row)
    for (int k = 1; k <= 7; ++k) {
      const std::string name = "iiwa_joint_" + std::to_string(k) + ".qdd";
      EXPECT_NEAR(qdd.at(row, name), traj.at(row, name), 1e-8) << name;  // tau written with 12 digits
    }
}

TEST(CliRobotModels, FloatingBaseColumnsAndUrdfFrictionInInverseDynamics) {
  // The quadruped's knees carry <dynamics damping="0.01" friction="0.2">: 0.01 qd + 0.2 sgn(qd).
  CliRun r = run("robot id " + robots + "quadruped.urdf --states " + robots + "quadruped-states.csv --csv " + out());
  ASSERT_EQ(r.code, 0) << r.output;
  const Csv id = read_csv(out()), states = read_csv(robots + "quadruped-states.csv");
  for (size_t row = 0; row < id.rows.size(); ++row) {
    const double qd = states.at(row, "FL_calf_joint.qd");
    EXPECT_NEAR(id.at(row, "FL_calf_joint.friction"), 0.01 * qd + (qd > 0 ? 0.2 : qd < 0 ? -0.2 : 0.0), 1e-12);
    EXPECT_EQ(id.at(row, "floating_base.x.friction"), 0.0);
  }
  // The trunk's wrench: its vertical force holds up the robot's weight plus m a (about 11 kg).
  EXPECT_GT(id.at(0, "floating_base.z.tau"), 100.0);
  // An arm given a floating base needs the free-flyer's columns.
  r = run("robot id " + robots + "iiwa14.urdf --floating-base --states " + robots + "iiwa14-trajectory.csv");
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.output.find("floating_base.x.q"), std::string::npos) << r.output;
}

TEST(CliRobotModels, ExponentialRotationCoordinatesGiveTheSameInverseDynamicsAsQuaternions) {
  // The shipped quadruped trot with the trunk's orientation as a rotation vector instead of a
  // unit quaternion (r = 2 atan2(|v|, w) v / |v|): the velocities are the same body twist, so
  // every driving force must be the same.
  const Csv states = read_csv(robots + "quadruped-states.csv");
  std::ostringstream s;
  s.precision(17);
  std::vector<std::string> header;
  for (const std::string& h : states.header) {
    if (h == "floating_base.qx.q" || h == "floating_base.qy.q" || h == "floating_base.qz.q") continue;
    header.push_back(h == "floating_base.qw.q" ? "floating_base.rx.q,floating_base.ry.q,floating_base.rz.q" : h);
  }
  for (size_t k = 0; k < header.size(); ++k) s << header[k] << (k + 1 < header.size() ? "," : "\n");
  for (size_t row = 0; row < states.rows.size(); ++row) {
    const double x = states.at(row, "floating_base.qx.q"), y = states.at(row, "floating_base.qy.q"),
                 z = states.at(row, "floating_base.qz.q"), w = states.at(row, "floating_base.qw.q");
    const double n = std::sqrt(x * x + y * y + z * z), angle = 2.0 * std::atan2(n, w);
    const double f = n > 0 ? angle / n : 2.0;
    bool first = true;
    for (size_t k = 0; k < states.header.size(); ++k) {
      const std::string& h = states.header[k];
      if (h == "floating_base.qx.q" || h == "floating_base.qy.q" || h == "floating_base.qz.q") continue;
      s << (first ? "" : ",");
      first = false;
      if (h == "floating_base.qw.q")
        s << f * x << "," << f * y << "," << f * z;
      else
        s << states.rows[row][k];
    }
    s << "\n";
  }
  const std::string exp_states = write_temp(own("exp.csv"), s.str()), quat_out = out(),
                    exp_out = ::testing::TempDir() + "/" + own("exp-out.csv");
  CliRun r = run("robot id " + robots + "quadruped.urdf --states " + robots + "quadruped-states.csv --csv " + quat_out);
  ASSERT_EQ(r.code, 0) << r.output;
  r = run("robot id " + robots + "quadruped.urdf --rotation exponential --states " + exp_states + " --csv " + exp_out);
  ASSERT_EQ(r.code, 0) << r.output;
  const Csv quat = read_csv(quat_out), expo = read_csv(exp_out);
  ASSERT_EQ(quat.rows.size(), states.rows.size());
  ASSERT_EQ(expo.rows.size(), states.rows.size());
  int compared = 0;
  for (size_t k = 0; k < quat.header.size(); ++k) {
    const std::string& h = quat.header[k];
    if (h.size() < 4 || h.compare(h.size() - 4, 4, ".tau") != 0) continue;
    for (size_t row = 0; row < quat.rows.size(); ++row)
      EXPECT_NEAR(expo.at(row, h), quat.rows[row][k], 1e-9 * (1.0 + std::abs(quat.rows[row][k])))
          << h << " row " << row;
    ++compared;
  }
  EXPECT_EQ(compared, 18);  // the trunk's six and the twelve leg joints
}

TEST(CliRobotOutput, WithoutAFileAVerbPrintsASummaryAndCsvDashPrintsTheTable) {
  // As the planar verbs: each column's range and where its magnitude peaks; the table itself
  // with --csv FILE, or on stdout with --csv -.
  const std::string args = "robot id " + robots + "planar-3r.yaml --states " + robots + "planar-3r-trajectory.csv";
  const CliRun summary = run(args);
  ASSERT_EQ(summary.code, 0) << summary.output;
  EXPECT_NE(summary.output.find("robot id of planar-3r: 11 rows"), std::string::npos) << summary.output;
  EXPECT_NE(summary.output.find("quantity"), std::string::npos);
  EXPECT_NE(summary.output.find("shoulder.tau"), std::string::npos);
  EXPECT_EQ(summary.output.find("t,shoulder.tau"), std::string::npos) << "no CSV on the terminal";
  const CliRun table = run(args + " --csv -");
  ASSERT_EQ(table.code, 0) << table.output;
  EXPECT_EQ(table.output.rfind("t,shoulder.tau,elbow.tau,wrist.tau", 0), 0u) << table.output;
  size_t lines = 0;
  for (char c : table.output) lines += c == '\n';
  EXPECT_EQ(lines, 12u) << "the header and 11 rows";
  // States without a time column: where a magnitude peaks is a row number.
  std::ifstream in(robots + "planar-3r-trajectory.csv");
  std::string untimed, line;
  while (std::getline(in, line))  // t is the first column; comments kept
    untimed += (line.starts_with("#") ? line : line.substr(line.find(',') + 1)) + "\n";
  const std::string path = ::testing::TempDir() + "/" + own("untimed.csv");
  std::ofstream(path) << untimed;
  const CliRun rows = run("robot id " + robots + "planar-3r.yaml --states " + path);
  ASSERT_EQ(rows.code, 0) << rows.output;
  EXPECT_NE(rows.output.find("at row (max |.|)"), std::string::npos) << rows.output;
  EXPECT_NE(rows.output.find("shoulder.tau"), std::string::npos) << rows.output;
}

TEST(CliRobotOutput, AMissingOrMisspeltRobotCommandIsAnsweredWithTheList) {
  const CliRun none = run("robot");
  EXPECT_EQ(none.code, 2);
  EXPECT_NE(none.output.find("'robot' needs one of its commands: id, fd, mass-matrix"), std::string::npos)
      << none.output;
  const CliRun misspelt = run("robot masss-matrix " + robots + "planar-3r.yaml");
  EXPECT_EQ(misspelt.code, 2);
  EXPECT_NE(misspelt.output.find("did you mean 'mass-matrix'?"), std::string::npos) << misspelt.output;
}

TEST(CliRobotModels, TheJointCountIsHeldToMaxJointsWithItsMemory) {
  // 1000 DOF by default for the verbs writing dof x dof matrices (5000 took 5.6 GB and 100 s).
  std::ostringstream urdf, header, row;
  urdf << "<robot name=\"long\">\n<link name=\"l0\"/>\n";
  for (int i = 1; i <= 30; ++i) {
    urdf << "<link name=\"l" << i << "\"><inertial><mass value=\"1\"/><inertia ixx=\"0.01\" ixy=\"0\" ixz=\"0\" "
         << "iyy=\"0.01\" iyz=\"0\" izz=\"0.01\"/></inertial></link>\n<joint name=\"j" << i
         << "\" type=\"continuous\"><parent link=\"l" << i - 1 << "\"/><child link=\"l" << i
         << "\"/><origin xyz=\"0.1 0 0\"/></joint>\n";
    header << (i > 1 ? "," : "") << "j" << i << ".q";
    row << (i > 1 ? "," : "") << "0.1";
  }
  urdf << "</robot>\n";
  const std::string model = write_temp("thirty.urdf", urdf.str()),
                    states = write_temp("thirty.csv", header.str() + "\n" + row.str() + "\n");
  CliRun r = run("robot fk " + model + " --states " + states + " --max-joints 20");
  EXPECT_EQ(r.code, 2) << r.output;
  EXPECT_NE(r.output.find("robot 'long' (about 0.36 MB for 1 state rows): asks for 30 degrees of freedom, more than "
                          "--max-joints 20"),
            std::string::npos)
      << r.output;
  r = run("robot mass-matrix " + model + " --states " + states + " --csv -");
  EXPECT_EQ(r.code, 0) << r.output;
  EXPECT_NE(r.output.find("M_30_30"), std::string::npos);
}
