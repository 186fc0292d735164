// linkdyn robot {id|fd|mass-matrix|energy|jerk|simulate|fk|jacobian|coriolis|derivatives} MODEL
// --states FILE.csv: kinematic trees (serial arms, branched robots, floating bases) from URDF or
// YAML, one result row per state row.
#include <fmt/core.h>

#include <algorithm>
#include <fstream>
#include <iostream>
#include <memory>
#include <sstream>

#include "commands.hpp"
#include "linkdyn/core/version.hpp"
#include "linkdyn/io/chain_file.hpp"
#include "linkdyn/io/result_tables.hpp"
#include "linkdyn/io/table_reader.hpp"
#include "linkdyn/io/table_writer.hpp"
#include "linkdyn/spatial/derivatives.hpp"
#include "linkdyn/spatial/energy.hpp"
#include "linkdyn/spatial/higher_order.hpp"
#include "linkdyn/spatial/kinematics.hpp"
#include "linkdyn/spatial/simulate.hpp"

namespace linkdyn::cli {
namespace {
using namespace spatial;

struct RobotOptions {
  std::string model, states, csv, json, method = "aba", frame, torques, kp, kd, rotation = "quaternion";
  bool no_friction = false, floating_base = false, strict = false, balance_inertia = false, check = false;
  double t_end = 1.0;
  int steps = 100;
};

const char* const derivative_suffix[] = {"q", "qd", "qdd", "qddd", "qdddd"};

/// The header of a CSV file (the first line that is not blank or a '#' comment) and its line.
std::pair<std::vector<std::string>, int> csv_header(const std::string& path) {
  std::ifstream in(path);
  std::string line;
  for (int n = 1; std::getline(in, line); ++n) {
    const auto first = line.find_first_not_of(" \t\r");
    if (first == std::string::npos || line[first] == '#') continue;
    std::vector<std::string> names;
    std::stringstream cells(line);
    for (std::string c; std::getline(cells, c, ',');) {
      const auto a = c.find_first_not_of(" \t\r"), b = c.find_last_not_of(" \t\r");
      names.push_back(a == std::string::npos ? "" : c.substr(a, b - a + 1));
    }
    return {names, n};
  }
  return {{}, 0};
}

/// The states file: columns <coordinate>.q for the configuration (Chain::q_names) and
/// <dof>.qd ... .qdddd, .tau for the velocity's coordinates (Chain::v_names), optionally t.
class States {
 public:
  /// Checks that every column of the header names a coordinate (and, for fd, that the driving
  /// forces are there) before reading the rows, then that the columns `needed` are there.
  States(const Chain& chain, std::string path, const std::vector<std::string>& needed, const std::string& command)
      : chain_(chain), path_(std::move(path)) {
    const auto [header, line] = csv_header(path_);
    for (const std::string& c : header) check_column(c, line);
    auto require = [&](const std::string& suffix) {
      for (const std::string& name : suffix == "q" ? chain_.q_names : chain_.v_names)
        if (std::find(header.begin(), header.end(), name + "." + suffix) == header.end())
          throw InputError({path_, line}, "column '" + name + "." + suffix + "'", "'robot " + command + "' needs it",
                           hint(command, suffix, name));
    };
    // Forward dynamics says first that it needs the driving forces (a trajectory file has none).
    if (command == "fd") require("tau");
    csv_ = io::read_csv_table(path_);
    for (const std::string& suffix : needed) require(suffix);
  }
  size_t rows() const { return csv_.table.rows(); }
  bool has(const std::string& suffix) const {
    return csv_.table.column((suffix == "q" ? chain_.q_names : chain_.v_names)[0] + "." + suffix) >= 0;
  }
  /// Row `row` of the columns <name>.<suffix> over q_names or v_names into `out`.
  void read(size_t row, const std::string& suffix, Eigen::Ref<Eigen::VectorXd> out) const {
    const auto& names = suffix == "q" ? chain_.q_names : chain_.v_names;
    for (size_t i = 0; i < names.size(); ++i)
      out(Eigen::Index(i)) = csv_.table.at(row, size_t(csv_.table.column(names[i] + "." + suffix)));
  }
  int time_column() const { return csv_.table.column("t"); }
  double at(size_t row, int col) const { return csv_.table.at(row, size_t(col)); }
  const std::string& path() const { return path_; }
  int row_line(size_t row) const { return csv_.row_lines[row]; }

 private:
  static std::string hint(const std::string& command, const std::string& suffix, const std::string& name) {
    if (suffix == "tau" && command == "fd")
      return "forward dynamics computes qdd from q, qd and the driving forces tau: add a column " + name +
             ".tau (`linkdyn robot id MODEL --states FILE --csv tau.csv` writes tau along a trajectory; "
             "examples/robots/iiwa14-fd-states.csv has q, qd and tau)";
    return "add a column " + name + "." + suffix + " to the header";
  }
  void check_column(const std::string& c, int line) const {
    if (c == "t") return;
    const auto dot = c.rfind('.');
    const std::string coordinate = dot == std::string::npos ? c : c.substr(0, dot);
    const std::string quantity = dot == std::string::npos ? "" : c.substr(dot + 1);
    const bool is_q = chain_.q_coordinate(coordinate) >= 0, is_v = chain_.v_coordinate(coordinate) >= 0;
    if (!is_q && !is_v) {
      auto list = [](const std::vector<std::string>& names) {
        std::string out;
        for (const std::string& n : names) out += (out.empty() ? "" : ", ") + n;
        return out;
      };
      const bool floating = std::any_of(chain_.spec.joints.begin(), chain_.spec.joints.end(),
                                        [](const ChainJoint& j) { return j.type == JointType::free_flyer; });
      if (!floating)
        throw InputError({path_, line}, "column '" + c + "'",
                         "no joint named '" + coordinate + "' in " + chain_.spec.name,
                         "name columns <joint>.q, <joint>.qd, ... with the joints: " + list(chain_.v_names));
      throw InputError(
          {path_, line}, "column '" + c + "'", "no coordinate named '" + coordinate + "' in " + chain_.spec.name,
          "name columns <coordinate>.q with " + list(chain_.q_names) + " (free-flyers: " +
              (chain_.spec.rotation_coordinates == RotationCoordinates::quaternion
                   ? "quaternion qx, qy, qz, qw; --rotation exponential for rx, ry, rz"
                   : "rotation vector rx, ry, rz; without --rotation exponential a quaternion qx, qy, qz, qw") +
              "), and <dof>.qd, .qdd, ... .tau with " + list(chain_.v_names));
    }
    const bool ok = (is_q && quantity == "q") ||
                    (is_v && std::find(std::begin(derivative_suffix) + 1, std::end(derivative_suffix), quantity) !=
                                 std::end(derivative_suffix)) ||
                    (is_v && quantity == "tau");
    if (!ok)
      throw InputError({path_, line}, "column '" + c + "'", "unknown quantity '" + quantity + "'",
                       "name columns <joint>.q, .qd, .qdd, .qddd, .qdddd or .tau (a free-flyer: <joint>.x.q ... "
                       "<joint>.qw.q, <joint>.x.qd ... <joint>.rz.qd)");
  }

  const Chain& chain_;
  std::string path_;
  io::CsvTable csv_;
};

/// Unit of DOF d's coordinate derivative of order `order` (0: q) and of its force (`force`).
/// The table of a robot analysis as its rows come: to the files (--csv, --json) when given, else
/// as CSV on standard output.
class RobotTable {
 public:
  RobotTable(const Chain& chain, const RobotOptions& o, const std::string& analysis) : o_(o) {
    meta_["model"] = chain.spec.name;
    meta_["model_file"] = o.model;
    meta_["linkdyn_version"] = linkdyn::version;
    meta_["analysis"] = "robot " + analysis;
    meta_["dof"] = chain.dof;
    meta_["states"] = o.states;
    if (!o.frame.empty()) meta_["frame"] = o.frame;
    if (!csv_file().empty() || !o.json.empty()) check_output_paths(csv_file(), o.json, inputs());
  }
  void append(const Table& rows) {
    if (o_.csv == "-") io::write_csv(std::cout, rows, 0, /*header=*/!started_);  // --csv -: the table on stdout
    if (o_.csv.empty() && o_.json.empty()) {                                     // no file: a summary at the end
      if (!started_) columns_.columns = rows.columns, columns_.units = rows.units, ranges_.assign(rows.width(), {});
      // Where a magnitude peaks: at the time t, or at a row number when the states have no t.
      update_ranges(rows, ranges_, timed() ? -1 : static_cast<long>(row_count_));
      row_count_ += rows.rows();
    } else if (!csv_file().empty() || !o_.json.empty()) {
      if (!files_)
        files_ = std::make_unique<TableFiles>(rows, csv_file(), o_.json, inputs());
      else
        files_->append(rows);
    }
    started_ = true;
  }
  /// Completes the files, or prints the summary: each column's range and where its magnitude
  /// peaks, as the planar verbs do; `stopped` (the reason a run stopped early) goes into the
  /// metadata.
  void finish(const std::string& stopped = "") {
    if (!stopped.empty()) meta_["stopped"] = stopped;
    if (files_) files_->finish(meta_, o_.csv == "-" ? stderr : stdout);
    if (o_.csv.empty() && o_.json.empty()) {
      fmt::print("{} of {}: {} rows (the table: --csv FILE, --json FILE, or --csv - on stdout)\n",
                 meta_["analysis"].get<std::string>(), meta_["model"].get<std::string>(), row_count_);
      fmt::print("{:<28} {:>14} {:>14} {:>14}\n", "quantity", "min", "max",
                 timed() ? "at t (max |.|)" : "at row (max |.|)");
      for (size_t c = timed() ? 1 : 0; c < columns_.width(); ++c)
        if (ranges_[c].peak >= 0)
          fmt::print("{:<28} {:>14.6g} {:>14.6g} {:>14.6g}  {}\n", columns_.columns[c], ranges_[c].lo, ranges_[c].hi,
                     ranges_[c].t_peak, columns_.units[c]);
    }
  }

 private:
  std::vector<std::string> inputs() const { return {o_.model, o_.states, o_.torques}; }
  bool timed() const { return !columns_.columns.empty() && columns_.columns.front() == "t"; }
  std::string csv_file() const { return o_.csv == "-" ? std::string() : o_.csv; }  ///< "-": stdout, no file
  const RobotOptions& o_;
  nlohmann::ordered_json meta_;
  std::unique_ptr<TableFiles> files_;
  Table columns_;  ///< without files: the columns' names and units, for the summary
  std::vector<ColumnRange> ranges_;
  size_t row_count_ = 0;
  bool started_ = false;
};

void emit(const Chain& chain, const RobotOptions& o, const std::string& analysis, const Table& table) {
  RobotTable out(chain, o, analysis);
  out.append(table);
  out.finish();
}

Chain load_model(const RobotOptions& o) {
  io::ChainFileOptions fo;
  fo.floating_base = o.floating_base;
  fo.exponential_coordinates = o.rotation == "exponential";
  BuildOptions bo;
  bo.inertia = o.strict ? InertiaCheck::refuse : o.balance_inertia ? InertiaCheck::balance : InertiaCheck::warn;
  Chain chain = build_chain(io::read_chain_file(o.model, fo), bo);
  for (const std::string& w : chain.warnings)
    fmt::print(stderr, "warning: {}{}\n", w,
               bo.inertia == InertiaCheck::warn ? " (--balance-inertia sets the moments to their mean as MuJoCo's "
                                                  "balanceinertia, --strict refuses the model)"
                                                : "");
  return chain;
}

/// A square matrix's columns M_<i>_<j> (1-based, row-major) named `prefix`.
void add_matrix_columns(Table& table, const std::string& prefix, int rows, int cols) {
  for (int i = 0; i < rows; ++i)
    for (int j = 0; j < cols; ++j) table.add_column(fmt::format("{}_{}_{}", prefix, i + 1, j + 1), "");
}
template <class M>
void push_matrix(Table& table, const M& m) {
  for (int i = 0; i < m.rows(); ++i)
    for (int j = 0; j < m.cols(); ++j) table.values.push_back(m(i, j));
}

/// Per-DOF gains from "400" (all DOFs) or "400,300,..." (one per 1-DOF joint in model order).
Eigen::VectorXd gains(const Chain& chain, const std::string& text, const char* option) {
  std::vector<double> values;
  std::stringstream in(text);
  for (std::string cell; std::getline(in, cell, ',');) {
    try {
      size_t used = 0;
      values.push_back(std::stod(cell, &used));
      if (used != cell.size()) throw std::invalid_argument(cell);
    } catch (const std::exception&) {
      throw InputError({}, option, "'" + cell + "' is not a number",
                       "give one gain, or one per joint, separated by commas");
    }
  }
  int actuated = 0;
  for (int k = 0; k < chain.links; ++k) actuated += chain.joint(k).type == JointType::free_flyer ? 0 : 1;
  if (values.size() != 1 && int(values.size()) != actuated)
    throw InputError({}, option, fmt::format("{} gains for {} actuated joints", values.size(), actuated),
                     "give one gain for all, or one per revolute/prismatic joint in the model's order");
  Eigen::VectorXd g = Eigen::VectorXd::Zero(chain.dof);  // free-flyers are not actuated
  int next = 0;
  for (int k = 0; k < chain.links; ++k)
    if (chain.joint(k).type != JointType::free_flyer) {
      g(chain.v_index[size_t(k)]) = values.size() == 1 ? values[0] : values[size_t(next)];
      ++next;
    }
  return g;
}

/// Linear interpolation in t of the rows of a table's columns, held beyond the ends.
class TimeSeries {
 public:
  TimeSeries(const std::string& path, const Table& table, std::vector<int> columns)
      : table_(table), columns_(std::move(columns)), t_(table.column("t")) {
    if (t_ < 0)
      throw InputError({path, 0}, "column 't'", "a trajectory needs the time", "add a column t (s) to the header");
    for (size_t r = 1; r < table.rows(); ++r)
      if (!(table.at(r, size_t(t_)) > table.at(r - 1, size_t(t_))))
        throw InputError({path, 0}, "column 't'", fmt::format("time does not increase at row {}", r + 1),
                         "give the rows in increasing time");
  }
  void at(double t, Eigen::Ref<Eigen::VectorXd> out) const {
    const size_t n = table_.rows();
    size_t r = 0;
    while (r + 2 < n && table_.at(r + 1, size_t(t_)) <= t) ++r;
    const double t0 = table_.at(r, size_t(t_)), t1 = n > 1 ? table_.at(r + 1, size_t(t_)) : t0;
    const double s = n > 1 ? std::clamp((t - t0) / (t1 - t0), 0.0, 1.0) : 0.0;
    for (size_t i = 0; i < columns_.size(); ++i) {
      const double a = table_.at(r, size_t(columns_[i])), b = n > 1 ? table_.at(r + 1, size_t(columns_[i])) : a;
      out(Eigen::Index(i)) = a + s * (b - a);
    }
  }

 private:
  const Table& table_;
  std::vector<int> columns_;
  int t_;
};

std::vector<int> columns_of(const Table& t, const std::vector<std::string>& names, const std::string& suffix,
                            const std::string& path) {
  std::vector<int> idx;
  for (const std::string& n : names) {
    const int k = t.column(n + "." + suffix);
    if (k < 0)
      throw InputError({path, 0}, "column '" + n + "." + suffix + "'", "the trajectory needs it", "add the column");
    idx.push_back(k);
  }
  return idx;
}

void run_simulation(const Chain& chain, ChainData& data, const RobotOptions& o, const States& states) {
  Eigen::VectorXd q0(chain.nq), qd0(chain.dof), tau0 = Eigen::VectorXd::Zero(chain.dof);
  states.read(0, "q", q0);
  states.read(0, "qd", qd0);
  if (states.has("tau")) states.read(0, "tau", tau0);
  require_within_max_steps(o.steps, {}, "--steps");
  ChainSimulationOptions so;
  so.t_end = o.t_end;
  so.steps = o.steps;
  so.terms.friction = !o.no_friction;
  so.method = o.method == "crba" ? ForwardMethod::mass_matrix_cholesky : ForwardMethod::articulated_body;
  // Driving forces: a torque trajectory (--torques), plus a PD controller to the states file's
  // q(t), qd(t) (--kp, --kd); else the first row's tau, held.
  std::unique_ptr<io::CsvTable> torque_file;
  std::unique_ptr<TimeSeries> torque_series, q_reference, qd_reference;
  std::unique_ptr<io::CsvTable> reference_file;
  if (!o.torques.empty()) {
    torque_file = std::make_unique<io::CsvTable>(io::read_csv_table(o.torques));
    torque_series = std::make_unique<TimeSeries>(o.torques, torque_file->table,
                                                 columns_of(torque_file->table, chain.v_names, "tau", o.torques));
  }
  const bool pd = !o.kp.empty() || !o.kd.empty();
  Eigen::VectorXd Kp = Eigen::VectorXd::Zero(chain.dof), Kd = Eigen::VectorXd::Zero(chain.dof);
  if (pd) {
    if (!o.kp.empty()) Kp = gains(chain, o.kp, "--kp");
    if (!o.kd.empty()) Kd = gains(chain, o.kd, "--kd");
    reference_file = std::make_unique<io::CsvTable>(io::read_csv_table(o.states));
    const Table& ref = reference_file->table;
    // Each 1-DOF joint follows its q and qd columns; free-flyers are not controlled (their slots
    // read the time column and are skipped by the law).
    std::vector<int> qcols;
    for (int d = 0; d < chain.dof; ++d) {
      const int link = chain.dof_link[size_t(d)];
      qcols.push_back(chain.joint(link).type == JointType::free_flyer
                          ? ref.column("t")
                          : ref.column(chain.q_names[size_t(chain.q_index[size_t(link)])] + ".q"));
    }
    q_reference = std::make_unique<TimeSeries>(o.states, ref, qcols);
    qd_reference = std::make_unique<TimeSeries>(o.states, ref, columns_of(ref, chain.v_names, "qd", o.states));
  }
  Eigen::VectorXd feed = tau0, ref_q(chain.dof), ref_qd(chain.dof);
  const TorqueLaw law = [&](double t, VectorIn q, VectorIn qd, Eigen::Ref<Eigen::VectorXd> tau) {
    if (torque_series) torque_series->at(t, feed);
    tau = feed;
    if (!pd) return;
    q_reference->at(t, ref_q);
    qd_reference->at(t, ref_qd);
    for (int d = 0; d < chain.dof; ++d) {
      const int link = chain.dof_link[size_t(d)];
      if (chain.joint(link).type == JointType::free_flyer) continue;
      tau(d) +=
          Kp(d) * (ref_q(d) - q(chain.q_index[size_t(link)])) + Kd(d) * (ref_qd(d) - qd(d));  // tau = Kp e + Kd e'
    }
  };
  RobotTable out(chain, o, "simulate");  // rows streamed as they are computed
  so.on_rows = [&](const ChainSimulationResult& rows) { out.append(io::chain_simulation_table(chain, rows)); };
  ChainSimulationResult res;
  try {
    res = simulate_chain(chain, data, q0, qd0, law, so);
  } catch (const std::runtime_error& stop) {  // a stall or Ctrl-C: what was computed is written
    out.finish(stop.what());
    throw;
  }
  fmt::print(stderr, "{}: simulated {:g} s from the first state row ({} right-hand sides{})\n", chain.spec.name,
             o.t_end, res.rhs_evaluations,
             pd              ? ", PD control to the states' trajectory"
             : torque_series ? ", torques from " + o.torques
                             : "");
  out.finish();
}

/// The largest relative difference between the analytic derivatives in `data` and central
/// differences (4th order, step 1e-4) of the inverse dynamics at the same state.
std::pair<double, double> difference_check(const Chain& chain, const ChainData& data, VectorIn q, VectorIn qd,
                                           VectorIn qdd, const Terms& terms) {
  ChainData e(chain);
  const double h = 1e-4;
  Eigen::MatrixXd Dq(chain.dof, chain.dof), Dqd(chain.dof, chain.dof);
  Eigen::VectorXd qs(chain.nq);
  for (int j = 0; j < chain.dof; ++j) {
    const Eigen::VectorXd ej = Eigen::VectorXd::Unit(chain.dof, j);
    auto tq = [&](double s) {
      integrate_configuration(chain, q, s * ej, qs);
      return Eigen::VectorXd(inverse_dynamics(chain, e, qs, qd, qdd, terms));
    };
    auto tv = [&](double s) { return Eigen::VectorXd(inverse_dynamics(chain, e, q, qd + s * ej, qdd, terms)); };
    Dq.col(j) = (8 * (tq(h) - tq(-h)) - (tq(2 * h) - tq(-2 * h))) / (12 * h);
    Dqd.col(j) = (8 * (tv(h) - tv(-h)) - (tv(2 * h) - tv(-2 * h))) / (12 * h);
  }
  auto rel = [](const Eigen::MatrixXd& a, const Eigen::MatrixXd& b) {
    return (a - b).cwiseAbs().maxCoeff() / std::max(1.0, b.cwiseAbs().maxCoeff());
  };
  return {rel(data.dtau_dq, Dq), rel(data.dtau_dqd, Dqd)};
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

/// The columns each analysis reads from the states file.
std::vector<std::string> needed_columns(const std::string& analysis) {
  if (analysis == "id" || analysis == "derivatives") return {"q", "qd", "qdd"};
  if (analysis == "fd") return {"q", "qd", "tau"};
  if (analysis == "jerk") return {"q", "qd", "qdd", "qddd", "qdddd"};
  if (analysis == "energy") return {"q", "qd", "qdd"};
  if (analysis == "simulate" || analysis == "coriolis") return {"q", "qd"};
  return {"q"};  // mass-matrix, fk, jacobian
}

void run_rows(const std::string& analysis, const RobotOptions& o, size_t& current_row) {
  const Chain chain = load_model(o);
  ChainData data(chain);
  const int n = chain.dof;
  int frame = -1;
  if (analysis == "jacobian") {
    frame = chain.frame_index(o.frame);
    if (frame < 0) {
      std::string names;
      for (const Frame& f : chain.frames) names += (names.empty() ? "" : ", ") + f.name;
      throw InputError({o.model, 0}, "frame '" + o.frame + "'", "the model has no frame of that name",
                       "give --frame one of: " + names);
    }
  }
  const States states(chain, o.states, needed_columns(analysis), analysis);
  if (analysis == "simulate") {
    run_simulation(chain, data, o, states);
    return;
  }
  Table table;
  const int tcol = states.time_column();
  if (tcol >= 0) table.add_column("t", "s");
  Eigen::VectorXd q(chain.nq), tau(n);
  Eigen::MatrixXd V = Eigen::MatrixXd::Zero(n, 4);  // qd, qdd, qddd, qdddd
  const int orders = analysis == "energy" ? (states.has("qdddd")  ? 5
                                             : states.has("qddd") ? 4
                                                                  : 3)
                                          : int(needed_columns(analysis).size()) - (analysis == "fd" ? 1 : 0);
  auto load_row = [&](size_t row) {
    current_row = row;
    states.read(row, "q", q);
    for (int r = 1; r < orders && r < 5; ++r) states.read(row, derivative_suffix[r], V.col(r - 1));
    if (tcol >= 0) table.values.push_back(states.at(row, tcol));
  };
  Terms terms;
  terms.friction = !o.no_friction;
  if (analysis == "id") {
    for (int d = 0; d < n; ++d) table.add_column(chain.v_names[size_t(d)] + ".tau", io::dof_unit(chain, d, 0, true));
    for (int d = 0; d < n; ++d)
      table.add_column(chain.v_names[size_t(d)] + ".friction", io::dof_unit(chain, d, 0, true));
    for (size_t r = 0; r < states.rows(); ++r) {
      load_row(r);
      inverse_dynamics(chain, data, q, V.col(0), V.col(1), terms);
      table.values.insert(table.values.end(), data.tau.begin(), data.tau.end());
      if (terms.friction)
        joint_friction(chain, data, V.col(0));
      else
        data.friction.setZero();
      table.values.insert(table.values.end(), data.friction.begin(), data.friction.end());
    }
  } else if (analysis == "fd") {
    const ForwardMethod method =
        o.method == "crba" ? ForwardMethod::mass_matrix_cholesky : ForwardMethod::articulated_body;
    for (int d = 0; d < n; ++d) table.add_column(chain.v_names[size_t(d)] + ".qdd", io::dof_unit(chain, d, 2));
    for (size_t r = 0; r < states.rows(); ++r) {
      load_row(r);
      states.read(r, "tau", tau);
      forward_dynamics(chain, data, q, V.col(0), tau, method, terms);
      table.values.insert(table.values.end(), data.qdd.begin(), data.qdd.end());
    }
  } else if (analysis == "mass-matrix") {
    add_matrix_columns(table, "M", n, n);
    for (size_t r = 0; r < states.rows(); ++r) {
      load_row(r);
      push_matrix(table, mass_matrix(chain, data, q));
    }
  } else if (analysis == "coriolis") {
    add_matrix_columns(table, "C", n, n);
    for (size_t r = 0; r < states.rows(); ++r) {
      load_row(r);
      coriolis_matrix(chain, data, q, V.col(0));
      push_matrix(table, data.coriolis);
    }
  } else if (analysis == "derivatives") {
    add_matrix_columns(table, "dtau_dq", n, n);
    add_matrix_columns(table, "dtau_dqd", n, n);
    double worst_q = 0, worst_qd = 0;
    for (size_t r = 0; r < states.rows(); ++r) {
      load_row(r);
      rnea_derivatives(chain, data, q, V.col(0), V.col(1), terms);
      push_matrix(table, data.dtau_dq);
      push_matrix(table, data.dtau_dqd);
      if (o.check) {
        const auto [eq, eqd] = difference_check(chain, data, q, V.col(0), V.col(1), terms);
        worst_q = std::max(worst_q, eq);
        worst_qd = std::max(worst_qd, eqd);
      }
    }
    if (o.check)
      fmt::print(stderr,
                 "{}: largest relative difference to central differences of the inverse dynamics over {} rows: "
                 "d tau/dq {:.2e}, d tau/dqd {:.2e}\n",
                 chain.spec.name, states.rows(), worst_q, worst_qd);
  } else if (analysis == "fk") {
    for (const Frame& f : chain.frames)
      for (const char* c : {"x", "y", "z", "qx", "qy", "qz", "qw"})
        table.add_column(f.name + "." + c, c[0] == 'q' ? "" : "m");
    for (size_t r = 0; r < states.rows(); ++r) {
      load_row(r);
      forward_kinematics(chain, data, q);
      for (int f = 0; f < int(chain.frames.size()); ++f) {
        const Pose p = frame_placement(chain, data, f);
        const Eigen::Quaterniond rotation(p.R);
        table.values.insert(table.values.end(),
                            {p.p.x(), p.p.y(), p.p.z(), rotation.x(), rotation.y(), rotation.z(), rotation.w()});
      }
    }
  } else if (analysis == "jacobian") {
    add_matrix_columns(table, "J", 6, n);
    Eigen::Matrix<double, 6, Eigen::Dynamic> J(6, n);
    for (size_t r = 0; r < states.rows(); ++r) {
      load_row(r);
      forward_kinematics(chain, data, q);
      frame_jacobian(chain, data, frame, J);
      push_matrix(table, J);
    }
  } else if (analysis == "energy") {
    table.add_column("kinetic_energy", "J");
    for (int p = 1; p <= orders - 2; ++p) table.add_column(fmt::format("E_A{}", p), fmt::format("J/s^{}", 2 * p));
    for (size_t r = 0; r < states.rows(); ++r) {
      load_row(r);
      for (int p = 0; p <= orders - 2; ++p) table.values.push_back(acceleration_energy(chain, q, V, p));
    }
  } else if (analysis == "jerk") {
    DerivativeData dd(chain);
    for (int order = 0; order < 3; ++order)
      for (int d = 0; d < n; ++d)
        table.add_column(chain.v_names[size_t(d)] + (order == 0   ? ".tau"
                                                     : order == 1 ? ".dtau"
                                                                  : ".ddtau"),
                         io::dof_unit(chain, d, order, true));
    for (size_t r = 0; r < states.rows(); ++r) {
      load_row(r);
      torque_derivatives(chain, data, dd, q, V, terms);
      for (const Eigen::VectorXd* v : {&dd.tau, &dd.dtau, &dd.ddtau})
        table.values.insert(table.values.end(), v->begin(), v->end());
    }
  }
  emit(chain, o, analysis, table);
}
}  // namespace

void add_robot_command(CLI::App& app) {
  CLI::App* robot = app.add_subcommand("robot",
                                       "Robots (URDF or YAML; serial, branched or floating): dynamics, "
                                       "kinematics, derivatives, simulation");
  robot->require_subcommand(1, 1);
  struct Entry {
    const char* name;
    const char* help;
  };
  const Entry entries[] = {
      {"id", "Inverse dynamics: <joint>.tau (and its friction part) from <joint>.q, .qd, .qdd"},
      {"fd",
       "Forward dynamics: <joint>.qdd from <joint>.q, .qd and the driving forces <joint>.tau (the states "
       "file must have the .tau columns)"},
      {"mass-matrix", "Mass matrix M_<i>_<j> (1-based, row-major) at each <joint>.q"},
      {"coriolis", "Coriolis matrix C_<i>_<j> (C qd = velocity terms, dM/dt - 2C skew) at each .q, .qd"},
      {"derivatives", "d tau/dq and d tau/dqd (dtau_dq_<i>_<j>, dtau_dqd_<i>_<j>) at each .q, .qd, .qdd"},
      {"fk", "Pose of every frame (links, fixed frames, end effector): <frame>.x, .y, .z, .qx, .qy, .qz, .qw"},
      {"jacobian",
       "Jacobian of --frame F: J_<r>_<c>, rows vx, vy, vz, wx, wy, wz in the base axes at the frame's origin"},
      {"energy",
       "Kinetic energy and acceleration energies E_A1..E_A3 from q and its derivatives (.qdd, .qddd, .qdddd)"},
      {"jerk", "Driving forces and their time derivatives <joint>.dtau, .ddtau from q up to .qdddd"},
      {"simulate",
       "Time simulation from the first row's q, qd: its .tau held, a torque trajectory (--torques) "
       "and/or a PD controller to the states' q(t), qd(t) (--kp, --kd)"}};
  for (const Entry& e : entries) {
    auto options = std::make_shared<RobotOptions>();
    const std::string name = e.name;
    CLI::App* cmd = robot->add_subcommand(e.name, e.help);
    cmd->add_option("model", options->model, "Robot model (.urdf or .yaml)")->required()->check(CLI::ExistingFile);
    cmd->add_option("--states", options->states, "CSV with a header naming <joint>.q, <joint>.qd, ... columns")
        ->required()
        ->check(CLI::ExistingFile);
    cmd->add_option("--csv", options->csv,
                    "Write the results as CSV; - writes them on stdout (default: a summary of each column on stdout)");
    cmd->add_option("--json", options->json, "Write the results as JSON with metadata");
    // Joint friction enters the driving forces and the motion only: elsewhere the flag would mean nothing.
    if (name == "id" || name == "fd" || name == "derivatives" || name == "jerk" || name == "simulate")
      cmd->add_flag("--no-friction", options->no_friction, "Leave out joint friction");
    cmd->add_flag("--floating-base", options->floating_base,
                  "URDF: the root link floats (a free-flyer joint 'floating_base' from the world to it)");
    cmd->add_option("--rotation", options->rotation,
                    "Free-flyer rotation coordinates: quaternion (default) or exponential")
        ->check(CLI::IsMember({"quaternion", "exponential"}));
    cmd->add_flag("--strict", options->strict,
                  "Refuse links whose inertia breaks the triangle inequality (default: warn)");
    cmd->add_flag("--balance-inertia", options->balance_inertia,
                  "Repair such links as MuJoCo's balanceinertia (principal moments set to their mean)");
    if (name == "fd" || name == "simulate")
      cmd->add_option("--method", options->method, "aba (articulated body, default) or crba (mass matrix + LTDL)")
          ->check(CLI::IsMember({"aba", "crba"}));
    if (name == "jacobian")
      cmd->add_option("--frame", options->frame, "Frame name (a link, a fixed frame, end_effector)")->required();
    if (name == "derivatives")
      cmd->add_flag("--check", options->check,
                    "Also compare with central differences of the inverse dynamics (stderr)");
    if (name == "simulate") {
      cmd->add_option("--t-end", options->t_end, "Simulated time (s, or with a unit: 300ms)")
          ->transform(in_si(Quantity::time))
          ->check(positive)
          ->capture_default_str();
      cmd->add_option("--steps", options->steps, "Output rows after the first")->check(positive);
      add_max_steps_option(cmd);
      cmd->add_option("--torques", options->torques, "CSV with t and <joint>.tau: driving forces, linear in t")
          ->check(CLI::ExistingFile);
      cmd->add_option("--kp", options->kp,
                      "PD proportional gain(s) to the states' q(t): one, or one per joint (N m/rad, N/m)");
      cmd->add_option("--kd", options->kd, "PD derivative gain(s) to the states' qd(t) (N m s/rad, N s/m)");
    }
    cmd->callback([name, options] {
      if (options->strict && options->balance_inertia)
        throw InputError({}, "options", "--strict and --balance-inertia exclude each other", "give one of them");
      run(name, *options);
    });
  }
}

}  // namespace linkdyn::cli
