// The typed results of a simulation: the recorded body motion carries the kinetic energy the
// dynamics report, and the table made at the I/O edge holds every typed array under its name.
#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "linkdyn/dynamics/simulate.hpp"
#include "linkdyn/io/result_tables.hpp"
#include "linkdyn/planar/groups/group.hpp"
#include "test_support.hpp"

using namespace linkdyn;
using namespace linkdyn::dynamics;

namespace {

/// Every shipped example by Kane's method over 0.2 s, with its kinematics and reactions.
SimulationResult short_run(const DynamicSystem& system) {
  SimulationOptions o;
  o.method = Method::kane;
  o.t_end = 0.2;
  o.steps = 20;
  o.kinematics = true;
  o.reactions = true;
  return simulate(system, o);
}

}  // namespace

TEST(SimulationResult, KineticEnergyOfTheRecordedBodyMotionIsTheEnergyRow) {
  // T = sum of 1/2 m |v_G|^2 + 1/2 I omega^2 over the moving bodies, from the recorded centres of
  // mass ("<body>.com", after the named points) and angular velocities: the energy the
  // simulation computed from its workspace, to 1e-12 relative, at every row of every example.
  for (const auto& c : test::example_cases()) {
    SCOPED_TRACE(c.name);
    const DynamicSystem system = io::load_machine(test::example(c.name));
    const planar::Mechanism& m = *system.mechanism;
    const SimulationResult r = short_run(system);
    ASSERT_GT(r.rows(), 0);
    const planar::KinematicsResult& k = r.kinematics;
    ASSERT_EQ(k.rows(), r.rows());
    EXPECT_EQ(test::largest_difference(k.q, r.q), 0.0) << "the rows' driver coordinates";
    EXPECT_EQ(test::largest_difference(k.t, r.t), 0.0);
    const size_t named = m.output_points().size();
    ASSERT_EQ(k.points.size(), named + m.bodies().size() - 1);
    double worst = 0.0;
    for (Eigen::Index row = 0; row < r.rows(); ++row) {
      double T = 0.0;
      for (size_t b = 1; b < m.bodies().size(); ++b) {
        const auto com = static_cast<Eigen::Index>(named + b - 1), body = static_cast<Eigen::Index>(b - 1);
        ASSERT_EQ(k.points[static_cast<size_t>(com)].label, m.bodies()[b].name + ".com");
        const double v2 = k.vx(row, com) * k.vx(row, com) + k.vy(row, com) * k.vy(row, com);
        T += 0.5 * (m.bodies()[b].mass * v2 + m.bodies()[b].inertia * k.omega(row, body) * k.omega(row, body));
      }
      worst = std::max(worst, std::abs(T - r.energy.kinetic(row)) / (std::abs(r.energy.kinetic(row)) + 1e-12));
    }
    EXPECT_LT(worst, 1e-12);
  }
}

TEST(SimulationTable, EveryColumnIsItsTypedArrayUnderItsName) {
  // io::simulation_table, column by column against the arrays of SimulationResult: the drivers'
  // coordinates and rates, currents, efforts, constraint actions, friction powers, energies,
  // stuck, every body's and point's motion and every pair's and pin member's reaction; and no
  // other column.
  for (const auto& c : test::example_cases()) {
    SCOPED_TRACE(c.name);
    const DynamicSystem system = io::load_machine(test::example(c.name));
    const planar::Mechanism& m = *system.mechanism;
    const SimulationResult r = short_run(system);
    const Table t = io::simulation_table(system, r);
    ASSERT_EQ(static_cast<Eigen::Index>(t.rows()), r.rows());
    size_t checked = 0;
    auto expect_column = [&](const std::string& name, const Eigen::Ref<const Eigen::VectorXd>& values) {
      const int column = t.column(name);
      ASSERT_GE(column, 0) << name;
      for (Eigen::Index row = 0; row < r.rows(); ++row)
        EXPECT_EQ(t.at(static_cast<size_t>(row), static_cast<size_t>(column)), values(row)) << name;
      ++checked;
    };
    expect_column("t", r.t);
    for (size_t d = 0; d < m.drivers().size(); ++d) {
      const auto i = static_cast<Eigen::Index>(d);
      expect_column(planar::driver_column(m.drivers()[d]), r.q.col(i));
      expect_column(planar::driver_column(m.drivers()[d], 1), r.qd.col(i));
      expect_column(planar::driver_column(m.drivers()[d], 2), r.qdd.col(i));
    }
    const auto& acts = system.machine.actuators;
    for (size_t k = 0; k < system.motors.size(); ++k)
      expect_column(acts[static_cast<size_t>(system.motors[k])].name + ".current",
                    r.current.col(static_cast<Eigen::Index>(k)));
    for (size_t k = 0; k < acts.size(); ++k) {
      const auto i = static_cast<Eigen::Index>(k);
      expect_column(acts[k].name + (acts[k].joint() >= 0 ? ".force" : ".torque"), r.effort.col(i));
      expect_column("work." + acts[k].name, r.energy.actuator_work.col(i));
    }
    for (size_t k = 0; k < system.machine.constraint_actions.size(); ++k)
      expect_column(system.machine.constraint_actions[k].name, r.constraint_action.col(static_cast<Eigen::Index>(k)));
    for (size_t k = 0; k < system.coulomb.size(); ++k)
      if (system.coulomb[k].pair_friction())
        expect_column(system.coulomb[k].name + ".friction_power", r.coulomb_power.col(static_cast<Eigen::Index>(k)));
    for (size_t l = 0; l < m.spec().loads.size(); ++l)
      expect_column("work." + m.spec().loads[l].name, r.energy.load_work.col(static_cast<Eigen::Index>(l)));
    expect_column("friction.power", r.pair_friction_power);
    expect_column("energy.kinetic", r.energy.kinetic);
    expect_column("energy.potential", r.energy.potential);
    expect_column("friction.loss", r.energy.friction_loss);
    expect_column("energy.residual", r.energy.residual);
    expect_column("stuck", r.stuck.cast<double>());
    const planar::KinematicsResult& k = r.kinematics;
    for (size_t b = 1; b < m.bodies().size(); ++b) {
      const auto i = static_cast<Eigen::Index>(b - 1);
      const std::string& n = m.bodies()[b].name;
      expect_column(n + ".angle", k.angle.col(i));
      expect_column(n + ".omega", k.omega.col(i));
      expect_column(n + ".alpha", k.alpha.col(i));
    }
    for (size_t p = 0; p < k.points.size(); ++p) {
      const auto i = static_cast<Eigen::Index>(p);
      const std::string& n = k.points[p].label;
      for (const auto& [suffix, values] :
           {std::pair{".x", &k.x}, {".y", &k.y}, {".vx", &k.vx}, {".vy", &k.vy}, {".ax", &k.ax}, {".ay", &k.ay}})
        expect_column(n + suffix, values->col(i));
    }
    for (size_t g = 0; g < k.transmission_groups.size(); ++g)
      expect_column(m.joints()[m.groups()[k.transmission_groups[g]]->label_joint()].name + ".transmission_angle",
                    k.transmission_angle.col(static_cast<Eigen::Index>(g)));
    for (size_t c = 0; c < m.cam_pairs().size(); ++c) {
      const std::string& n = m.joints()[static_cast<size_t>(m.cam_pairs()[c])].name;
      const Eigen::Index first = planar::KinematicsResult::cam_columns * static_cast<Eigen::Index>(c);
      for (const auto& [suffix, column] :
           {std::pair{".s", 0}, {".v", 1}, {".a", 2}, {".jerk", 3}, {".pressure_angle", 4}, {".radius", 5}})
        expect_column(n + suffix, k.cam.col(first + column));
    }
    const planar::PairReactions& reactions = r.reactions;
    for (size_t j = 0; j < m.spec().joints.size(); ++j) {
      const planar::Joint& joint = m.joints()[j];
      const auto i = static_cast<Eigen::Index>(j);
      if (joint.is<planar::GearPair>()) {
        expect_column(joint.name + ".torque", reactions.moment.col(i));
        continue;
      }
      expect_column(joint.name + ".Fx", reactions.force_x.col(i));
      expect_column(joint.name + ".Fy", reactions.force_y.col(i));
      Eigen::VectorXd F(r.rows());
      for (Eigen::Index row = 0; row < r.rows(); ++row) F(row) = reactions.reaction(row, j).force.norm();
      expect_column(joint.name + ".F", F);
      if (joint.is<planar::PrismaticPair>()) {
        expect_column(joint.name + ".N", reactions.normal.col(i));
        expect_column(joint.name + ".M", reactions.moment.col(i));
      }
      if (joint.is<planar::CamPair>()) expect_column(joint.name + ".N", reactions.normal.col(i));
    }
    for (size_t p = 0; p < m.pins().size(); ++p)
      for (size_t b = 0; b < m.pins()[p].bodies.size(); ++b) {
        const std::string n = m.pins()[p].name + "." + m.bodies()[m.pins()[p].bodies[b]].name;
        const auto i = static_cast<Eigen::Index>(b);
        expect_column(n + ".Fx", reactions.pin_force_x[p].col(i));
        expect_column(n + ".Fy", reactions.pin_force_y[p].col(i));
        Eigen::VectorXd F(r.rows());
        for (Eigen::Index row = 0; row < r.rows(); ++row) F(row) = reactions.pin_force(row, p, i).norm();
        expect_column(n + ".F", F);
      }
    EXPECT_EQ(checked, t.width()) << "a column the typed result does not hold";
  }
}

TEST(SimulationTable, KinematicsAndReactionsColumnsOnlyWhenRecorded) {
  const DynamicSystem system = io::load_machine(test::example("seed001-fourbar-motor"));
  SimulationOptions o;
  o.t_end = 0.05;
  o.steps = 5;
  o.kinematics = false;
  const SimulationResult r = simulate(system, o);
  EXPECT_EQ(r.kinematics.rows(), 0);
  EXPECT_EQ(r.reactions.force_x.size(), 0);
  const Table t = io::simulation_table(system, r);
  EXPECT_EQ(t.column("crank.angle"), -1);
  EXPECT_EQ(t.column("A.Fx"), -1);
  EXPECT_GE(t.column("stuck"), 0);
  EXPECT_EQ(t.columns.back(), "stuck");
}

TEST(SimulationResult, RowsHandedOverInChunksAreTheRowsOfTheWholeRun) {
  // SimulationOptions::on_rows (output streamed to files): chunks of about 3 rows, joined at the
  // I/O edge, are the table of the run that keeps every row, value for value, for every example;
  // the energies' origin is the first row's, not each chunk's.
  for (const auto& c : test::example_cases()) {
    SCOPED_TRACE(c.name);
    const DynamicSystem system = io::load_machine(test::example(c.name));
    const Table whole = io::simulation_table(system, short_run(system));
    SimulationOptions o;
    o.method = Method::kane;
    o.t_end = 0.2;
    o.steps = 20;
    o.reactions = true;
    o.chunk_values = 3 * whole.width();
    Table joined;
    int chunks = 0;
    o.on_rows = [&](const SimulationResult& rows) {
      const Table table = io::simulation_table(system, rows);
      EXPECT_LE(table.rows(), 3u);
      if (chunks++ == 0) joined.columns = table.columns;
      joined.values.insert(joined.values.end(), table.values.begin(), table.values.end());
    };
    (void)simulate(system, o);
    EXPECT_GE(chunks, 7);
    ASSERT_EQ(joined.columns, whole.columns);
    ASSERT_EQ(joined.values.size(), whole.values.size());
    for (size_t k = 0; k < whole.values.size(); ++k)
      if (!(std::isnan(whole.values[k]) && std::isnan(joined.values[k]))) {
        ASSERT_EQ(joined.values[k], whole.values[k])
            << whole.columns[k % whole.width()] << ", row " << k / whole.width();
      }
  }
}
