// linkdyn robot {id|fd|mass-matrix|energy|jerk|simulate} MODEL --states FILE.csv: serial chains
// from URDF or YAML, one result row per state row.
#include <fmt/core.h>

#include <iostream>
#include <memory>

#include "commands.hpp"
#include "linkdyn/core/version.hpp"
#include "linkdyn/io/chain_file.hpp"
#include "linkdyn/io/table_reader.hpp"
#include "linkdyn/io/table_writer.hpp"
#include "linkdyn/spatial/energy.hpp"
#include "linkdyn/spatial/higher_order.hpp"
#include "linkdyn/spatial/simulate.hpp"

namespace linkdyn::cli {
namespace {
using namespace spatial;

struct RobotOptions {
  std::string model, states, csv, json, method = "aba";
  bool no_friction = false;
  double t_end = 1.0;
  int steps = 100;
};

/// The states file's columns for each joint's derivative of order r (q, qd, qdd, qddd, qdddd).
class States {
 public:
  States(const Chain& chain, std::string path)
      : chain_(chain), path_(std::move(path)), csv_(io::read_csv_table(path_)), table_(csv_.table) {
    for (const std::string& c : table_.columns) {
      const auto dot = c.rfind('.');
      if (c == "t") continue;
      const std::string joint = dot == std::string::npos ? c : c.substr(0, dot);
      const std::string quantity = dot == std::string::npos ? "" : c.substr(dot + 1);
      if (chain_.joint_index(joint) >= 0 && quantity != "q" && quantity != "qd" && quantity != "qdd" && quantity != "qddd" &&
          quantity != "qdddd" && quantity != "tau")
        throw InputError({path_, csv_.header_line}, "column '" + c + "'", "unknown quantity '" + quantity + "'",
                         "name columns <joint>.q, .qd, .qdd, .qddd, .qdddd or .tau");
      if (chain_.joint_index(joint) < 0) {
        std::string names;
        for (const ChainJoint& j : chain_.spec.joints) names += (names.empty() ? "" : ", ") + j.name;
        throw InputError({path_, csv_.header_line}, "column '" + c + "'", "no joint named '" + joint + "' in " + chain_.spec.name,
                         "name columns <joint>.q, <joint>.qd, ... with the joints: " + names);
      }
    }
  }
  size_t rows() const { return table_.rows(); }
  bool has(const char* suffix) const { return table_.column(chain_.spec.joints[0].name + "." + suffix) >= 0; }
  /// Column indices of <joint>.<suffix> for every joint, failing with the missing one.
  std::vector<int> columns(const char* suffix, const std::string& command) const {
    std::vector<int> idx;
    for (const ChainJoint& j : chain_.spec.joints) {
      const int k = table_.column(j.name + "." + suffix);
      if (k < 0)
        throw InputError({path_, csv_.header_line}, "column '" + j.name + "." + suffix + "'", "'robot " + command + "' needs it",
                         "add a column " + j.name + "." + suffix + " to the header");
      idx.push_back(k);
    }
    return idx;
  }
  void read(size_t row, const std::vector<int>& idx, Eigen::Ref<Eigen::VectorXd> out) const {
    for (size_t i = 0; i < idx.size(); ++i) out(Eigen::Index(i)) = table_.at(row, size_t(idx[i]));
  }
  int time_column() const { return table_.column("t"); }
  double at(size_t row, int col) const { return table_.at(row, size_t(col)); }

 private:
  const Chain& chain_;
  std::string path_;
  io::CsvTable csv_;
  const Table& table_;
};

const char* unit_of(const ChainJoint& j, int order) {
  static const char* rot[] = {"rad", "rad/s", "rad/s^2", "rad/s^3", "rad/s^4"};
  static const char* lin[] = {"m", "m/s", "m/s^2", "m/s^3", "m/s^4"};
  return j.type == JointType::revolute ? rot[order] : lin[order];
}
/// Units of the driving force and its first two time derivatives.
std::string force_unit(const ChainJoint& j, int order) {
  const std::string base = j.type == JointType::revolute ? "N m" : "N";
  return order == 0 ? base : base + (order == 1 ? "/s" : "/s^2");
}

void emit(const Chain& chain, const RobotOptions& o, const std::string& analysis, const Table& table) {
  if (o.csv.empty() && o.json.empty()) {
    io::write_csv(std::cout, table);  // no output file: the table on stdout
    return;
  }
  nlohmann::ordered_json meta;
  meta["model"] = chain.spec.name;
  meta["model_file"] = o.model;
  meta["linkdyn_version"] = linkdyn::version;
  meta["analysis"] = "robot " + analysis;
  meta["dof"] = chain.dof;
  meta["states"] = o.states;
  write_table_files(table, o.csv, o.json, meta);
}

Terms terms_of(const RobotOptions& o) {
  Terms t;
  t.friction = !o.no_friction;
  return t;
}

void run_rows(const std::string& analysis, const RobotOptions& o, size_t& row);

void run(const std::string& analysis, const RobotOptions& o) {
  size_t row = 0;
  try {
    run_rows(analysis, o, row);
  } catch (const AnalysisError& e) {
    throw AnalysisError(fmt::format("{} (states row {} of {})", e.what(), row + 1, o.states));
  }
}

void run_rows(const std::string& analysis, const RobotOptions& o, size_t& current_row) {
  const Chain chain = build_chain(io::read_chain_file(o.model));
  ChainData data(chain);
  const int n = chain.dof;
  const States states(chain, o.states);
  Table table;
  const int tcol = states.time_column();
  if (tcol >= 0) table.add_column("t", "s");
  Eigen::MatrixXd Q = Eigen::MatrixXd::Zero(n, 5);
  Eigen::VectorXd tau(n);
  std::vector<std::vector<int>> cols;
  auto need = [&](int orders) {
    static const char* suffix[] = {"q", "qd", "qdd", "qddd", "qdddd"};
    for (int r = 0; r < orders; ++r) cols.push_back(states.columns(suffix[r], analysis));
  };
  auto load_row = [&](size_t row) {
    current_row = row;
    for (size_t r = 0; r < cols.size(); ++r) states.read(row, cols[r], Q.col(Eigen::Index(r)));
    if (tcol >= 0) table.values.push_back(states.at(row, tcol));
  };
  const Terms terms = terms_of(o);
  if (analysis == "id") {
    need(3);
    for (const ChainJoint& j : chain.spec.joints) table.add_column(j.name + ".tau", force_unit(j, 0));
    for (const ChainJoint& j : chain.spec.joints) table.add_column(j.name + ".friction", force_unit(j, 0));
    for (size_t r = 0; r < states.rows(); ++r) {
      load_row(r);
      inverse_dynamics(chain, data, Q.col(0), Q.col(1), Q.col(2), terms);
      table.values.insert(table.values.end(), data.tau.begin(), data.tau.end());
      if (terms.friction) joint_friction(chain, data, Q.col(1));
      else data.friction.setZero();
      table.values.insert(table.values.end(), data.friction.begin(), data.friction.end());
    }
  } else if (analysis == "fd") {
    need(2);
    const auto tau_cols = states.columns("tau", analysis);
    const ForwardMethod method = o.method == "crba" ? ForwardMethod::mass_matrix_cholesky : ForwardMethod::articulated_body;
    for (const ChainJoint& j : chain.spec.joints) table.add_column(j.name + ".qdd", unit_of(j, 2));
    for (size_t r = 0; r < states.rows(); ++r) {
      load_row(r);
      states.read(r, tau_cols, tau);
      forward_dynamics(chain, data, Q.col(0), Q.col(1), tau, method, terms);
      table.values.insert(table.values.end(), data.qdd.begin(), data.qdd.end());
    }
  } else if (analysis == "mass-matrix") {
    need(1);
    for (int i = 0; i < n; ++i)
      for (int j = 0; j < n; ++j) table.add_column(fmt::format("M_{}_{}", i + 1, j + 1), "");
    for (size_t r = 0; r < states.rows(); ++r) {
      load_row(r);
      mass_matrix(chain, data, Q.col(0));
      for (int i = 0; i < n; ++i)
        for (int j = 0; j < n; ++j) table.values.push_back(data.mass_matrix(i, j));
    }
  } else if (analysis == "energy") {
    const int orders = states.has("qdddd") ? 5 : states.has("qddd") ? 4 : 3;
    need(orders);
    table.add_column("kinetic_energy", "J");
    for (int p = 1; p <= orders - 2; ++p) table.add_column(fmt::format("E_A{}", p), fmt::format("J/s^{}", 2 * p));
    for (size_t r = 0; r < states.rows(); ++r) {
      load_row(r);
      for (int p = 0; p <= orders - 2; ++p) table.values.push_back(acceleration_energy(chain, Q, p));
    }
  } else if (analysis == "jerk") {
    need(5);
    DerivativeData d(chain);
    for (const ChainJoint& j : chain.spec.joints) table.add_column(j.name + ".tau", force_unit(j, 0));
    for (const ChainJoint& j : chain.spec.joints) table.add_column(j.name + ".dtau", force_unit(j, 1));
    for (const ChainJoint& j : chain.spec.joints) table.add_column(j.name + ".ddtau", force_unit(j, 2));
    for (size_t r = 0; r < states.rows(); ++r) {
      load_row(r);
      torque_derivatives(chain, data, d, Q, terms);
      for (const Eigen::VectorXd* v : {&d.tau, &d.dtau, &d.ddtau}) table.values.insert(table.values.end(), v->begin(), v->end());
    }
  } else if (analysis == "simulate") {
    need(2);
    tau.setZero();
    if (states.has("tau")) states.read(0, states.columns("tau", analysis), tau);
    load_row(0);
    ChainSimulationOptions so;
    so.t_end = o.t_end;
    so.steps = o.steps;
    so.terms = terms;
    so.method = o.method == "crba" ? ForwardMethod::mass_matrix_cholesky : ForwardMethod::articulated_body;
    const ChainSimulationResult res = simulate_chain(chain, data, Q.col(0), Q.col(1), tau, so);
    fmt::print(stderr, "{}: simulated {:g} s from the first state row ({} right-hand sides)\n", chain.spec.name, o.t_end,
               res.rhs_evaluations);
    emit(chain, o, analysis, res.table);
    return;
  }
  emit(chain, o, analysis, table);
}
}  // namespace

void add_robot_command(CLI::App& app) {
  CLI::App* robot = app.add_subcommand("robot", "Serial chains (URDF or YAML): inverse and forward dynamics, mass "
                                                "matrix, acceleration energies, torque derivatives, simulation");
  robot->require_subcommand(1, 1);
  struct Entry {
    const char* name;
    const char* help;
  };
  const Entry entries[] = {
      {"id", "Inverse dynamics: <joint>.tau (and its friction part) from <joint>.q, .qd, .qdd"},
      {"fd", "Forward dynamics: <joint>.qdd from <joint>.q, .qd, .tau"},
      {"mass-matrix", "Mass matrix M_<i>_<j> (1-based, row-major) at each <joint>.q"},
      {"energy", "Kinetic energy and acceleration energies E_A1..E_A3 from q and its derivatives (.qdd, .qddd, .qdddd)"},
      {"jerk", "Driving forces and their time derivatives <joint>.dtau, .ddtau from q up to .qdddd"},
      {"simulate", "Time simulation from the first row's q, qd under its constant .tau (zero if absent)"}};
  for (const Entry& e : entries) {
    auto options = std::make_shared<RobotOptions>();
    CLI::App* cmd = robot->add_subcommand(e.name, e.help);
    cmd->add_option("model", options->model, "Robot model (.urdf or .yaml)")->required()->check(CLI::ExistingFile);
    cmd->add_option("--states", options->states, "CSV with a header naming <joint>.q, <joint>.qd, ... columns")
        ->required()
        ->check(CLI::ExistingFile);
    cmd->add_option("--csv", options->csv, "Write the results as CSV (else printed on stdout)");
    cmd->add_option("--json", options->json, "Write the results as JSON with metadata");
    cmd->add_flag("--no-friction", options->no_friction, "Leave out joint friction");
    if (std::string(e.name) == "fd" || std::string(e.name) == "simulate")
      cmd->add_option("--method", options->method, "aba (articulated body, default) or crba (mass matrix + Cholesky)")
          ->check(CLI::IsMember({"aba", "crba"}));
    if (std::string(e.name) == "simulate") {
      cmd->add_option("--t-end", options->t_end, "Simulated time, s")->check(CLI::PositiveNumber);
      cmd->add_option("--steps", options->steps, "Output rows after the first")->check(CLI::Range(1, 10000000));
    }
    const std::string name = e.name;
    cmd->callback([name, options] { run(name, *options); });
  }
}

}  // namespace linkdyn::cli
