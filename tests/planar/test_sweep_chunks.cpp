// Sweeps streamed in chunks (for output files written as the rows come) give exactly the rows
// and the summary of the sweep that keeps every row: the chunks cut nothing and repeat nothing,
// also across the gaps where a mechanism does not assemble.
#include <gtest/gtest.h>

#include "linkdyn/io/model_file.hpp"
#include "linkdyn/planar/kinetostatics.hpp"
#include "linkdyn/planar/sweep.hpp"
#include "test_support.hpp"

using namespace linkdyn;

namespace {

/// Appends the rows of `chunk` below those of `all` (a vector or matrix of any width).
template <class M>
void append_rows(const M& chunk, M& all) {
  const Eigen::Index before = all.rows();
  all.conservativeResize(before + chunk.rows(), chunk.cols());
  all.bottomRows(chunk.rows()) = chunk;
}

/// Bitwise equality where NaN equals NaN (a missing value is missing in both).
template <class M>
void expect_same(const M& a, const M& b, const char* what) {
  ASSERT_EQ(a.rows(), b.rows()) << what;
  ASSERT_EQ(a.cols(), b.cols()) << what;
  EXPECT_TRUE(((a.array() == b.array()) || (a.array().isNaN() && b.array().isNaN())).all()) << what;
}

constexpr Eigen::Index chunk_rows = 7;  // many chunks, the last one short

}  // namespace

TEST(SweepChunks, KinematicsInChunksOfSevenRowsAreTheRowsOfTheWholeSweepForEveryExample) {
  for (const auto& c : test::example_cases()) {
    SCOPED_TRACE(c.name);
    const planar::Mechanism m = io::load_mechanism(test::example(c.name));
    const planar::TimeGrid grid = planar::analysis_grid(m, 100);
    const planar::KinematicsResult whole = planar::kinematics(m, grid);
    planar::KinematicsResult joined;
    std::vector<planar::StepStatus> status;
    int chunks = 0;
    const planar::SweepSummary summary =
        planar::kinematics(m, grid, planar::default_singular_tolerance, chunk_rows, [&](planar::KinematicsResult& r) {
          EXPECT_LE(r.rows(), chunk_rows);
          ++chunks;
          append_rows(r.t, joined.t);
          append_rows(r.angle, joined.angle);
          append_rows(r.omega, joined.omega);
          append_rows(r.alpha, joined.alpha);
          append_rows(r.x, joined.x);
          append_rows(r.ay, joined.ay);
          append_rows(r.transmission_angle, joined.transmission_angle);
          status.insert(status.end(), r.status.begin(), r.status.end());
        });
    EXPECT_EQ(chunks, (whole.rows() + chunk_rows - 1) / chunk_rows);
    expect_same(joined.t, whole.t, "t");
    expect_same(joined.angle, whole.angle, "angle");
    expect_same(joined.omega, whole.omega, "omega");
    expect_same(joined.alpha, whole.alpha, "alpha");
    expect_same(joined.x, whole.x, "x");
    expect_same(joined.ay, whole.ay, "ay");
    expect_same(joined.transmission_angle, whole.transmission_angle, "transmission angle");
    EXPECT_EQ(status, whole.status);
    EXPECT_EQ(summary.intervals, whole.summary.intervals);
    EXPECT_EQ(summary.absent, whole.summary.absent);
  }
}

TEST(SweepChunks, KinetostaticsWithFrictionInChunksOfSevenRowsAreTheRowsAndWorksOfTheWholeSweep) {
  for (const auto& c : test::example_cases()) {
    SCOPED_TRACE(c.name);
    const planar::Mechanism m = io::load_mechanism(test::example(c.name));
    const planar::TimeGrid grid = planar::analysis_grid(m, 100);
    const planar::KinetostaticsOptions options;
    const planar::KinetostaticsResult whole = planar::kinetostatics(m, grid, options);
    planar::KinetostaticsResult joined;
    std::vector<bool> self_locking, limit;
    const planar::KinetostaticsSummary summary =
        planar::kinetostatics(m, grid, options, chunk_rows, [&](planar::KinetostaticsResult& r) {
          EXPECT_LE(r.rows(), chunk_rows);
          append_rows(r.t, joined.t);
          append_rows(r.effort, joined.effort);
          append_rows(r.reactions.force_x, joined.reactions.force_x);
          append_rows(r.reactions.normal, joined.reactions.normal);
          append_rows(r.friction_power, joined.friction_power);
          append_rows(r.efficiency, joined.efficiency);
          append_rows(r.iterations, joined.iterations);
          self_locking.insert(self_locking.end(), r.self_locking.begin(), r.self_locking.end());
          limit.insert(limit.end(), r.limit.begin(), r.limit.end());
        });
    expect_same(joined.t, whole.t, "t");
    expect_same(joined.effort, whole.effort, "effort");
    expect_same(joined.reactions.force_x, whole.reactions.force_x, "force_x");
    expect_same(joined.reactions.normal, whole.reactions.normal, "normal");
    expect_same(joined.friction_power, whole.friction_power, "friction power");
    expect_same(joined.efficiency, whole.efficiency, "efficiency");
    EXPECT_EQ(joined.iterations, whole.iterations);
    EXPECT_EQ(self_locking, whole.self_locking);
    EXPECT_EQ(limit, whole.limit);
    EXPECT_EQ(summary.driver_work, whole.summary.driver_work);
    EXPECT_EQ(summary.friction_work, whole.summary.friction_work);
    EXPECT_EQ(summary.max_reaction, whole.summary.max_reaction);
    EXPECT_EQ(summary.rows, whole.summary.rows);
  }
}
