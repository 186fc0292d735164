// linkdyn simulate MODEL: direct dynamics of a one-DOF machine with its actuators [003].
#include <fmt/core.h>

#include <chrono>
#include <cmath>

#include "commands.hpp"
#include "linkdyn/dynamics/direct.hpp"
#include "linkdyn/io/model_file.hpp"

namespace linkdyn::cli {
namespace {

struct SimulateOptions {
  std::string model, csv, json, method = "reduced";
  dynamics::SimulationOptions sim;
};

void run_simulate(SimulateOptions o) {
  const planar::Mechanism m = io::load_mechanism(o.model);
  analysis_grid(m, 0);
  o.sim.method = o.method == "full" ? dynamics::Method::full : dynamics::Method::reduced;
  const dynamics::DynamicSystem system(m);
  const auto start = std::chrono::steady_clock::now();
  const dynamics::SimulationResult r = dynamics::simulate(system, o.sim);
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  const Table& t = r.table;
  double lo = INFINITY, hi = -INFINITY, sum = 0.0;
  for (size_t k = 0; k < t.rows(); ++k) {
    const double qd = t.at(k, 2);
    lo = std::min(lo, qd), hi = std::max(hi, qd), sum += qd;
  }
  fmt::print("{}: {} method, t = [{:g}, {:g}] s, {} rows; {} events, {} right-hand sides, {:.3g} s of computing ({:.0f}x real time)\n",
             m.spec().name, o.method, o.sim.t0, o.sim.t_end, t.rows(), r.events, r.rhs_evaluations, seconds,
             (o.sim.t_end - o.sim.t0) / seconds);
  fmt::print("qd from {:.6g} to {:.6g}, mean {:.6g}; q at the end {:.9g}\n", lo, hi, sum / t.rows(), t.at(t.rows() - 1, 1));
  nlohmann::ordered_json extra;
  extra["settings"] = {{"method", o.method}, {"t0", o.sim.t0}, {"t_end", o.sim.t_end}, {"steps", o.sim.steps},
                       {"rel_tol", o.sim.rel_tol}, {"abs_tol", o.sim.abs_tol}, {"table_points", o.sim.table_points}};
  write_outputs(m, o.model, "simulate", t, planar::SweepSummary{}, o.csv, o.json, extra);
}

}  // namespace

void add_simulate_command(CLI::App& app) {
  auto options = std::make_shared<SimulateOptions>();
  CLI::App* cmd = app.add_subcommand("simulate", "Direct dynamics of a one-DOF machine with motors and resistances");
  cmd->add_option("MODEL", options->model, "Model file (YAML)")->required();
  cmd->add_option("--t-end", options->sim.t_end, "End time (s)")->check(CLI::PositiveNumber);
  cmd->add_option("--steps", options->sim.steps, "Output rows - 1")->check(CLI::PositiveNumber);
  cmd->add_option("--method", options->method, "reduced (tabulated parameters, fast) or full (whole constrained model)")
      ->check(CLI::IsMember({"reduced", "full"}));
  cmd->add_option("--qd0", options->sim.qd0, "Initial speed of the driver coordinate (default: its motion law's)");
  cmd->add_option("--rtol", options->sim.rel_tol, "Relative tolerance of the integrator")->check(CLI::PositiveNumber);
  cmd->add_option("--points", options->sim.table_points, "Reduced method: table points per cycle")->check(CLI::Range(8, 10000000));
  cmd->add_option("--csv", options->csv, "Write the table as CSV");
  cmd->add_option("--json", options->json, "Write the table and metadata as JSON");
  cmd->callback([options] { run_simulate(*options); });
}

}  // namespace linkdyn::cli
