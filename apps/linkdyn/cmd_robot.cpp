// linkdyn robot {id|fd|mass-matrix|energy|jerk|simulate|fk|jacobian|coriolis|derivatives} MODEL
// --states FILE.csv: kinematic trees (serial arms, branched robots, floating bases) from URDF or
// YAML, one result row per state row.
#include <fmt/core.h>

#include <algorithm>
#include <iostream>
#include <memory>
#include <sstream>

#include "commands.hpp"
#include "linkdyn/core/version.hpp"
#include "linkdyn/io/chain_file.hpp"
#include "linkdyn/io/result_tables.hpp"
#include "linkdyn/io/table_reader.hpp"
#include "linkdyn/io/table_writer.hpp"
#include "linkdyn/spatial/control.hpp"
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
  long max_joints = 0;  ///< 0: 10 000, or 1000 for a verb that writes dense matrices
};

const char* const derivative_suffix[] = {"q", "qd", "qdd", "qddd", "qdddd"};

/// The states file: columns <coordinate>.q for the configuration (Chain::q_names) and
/// <dof>.qd ... .qdddd, .tau for the velocity's coordinates (Chain::v_names), optionally t.
class States {
 public:
  /// Checks that every column of the header names a coordinate (and, for fd, that the driving
  /// forces are there) before reading the rows, then that the columns `needed` are there.
  States(const Chain& chain, std::string path, const std::vector<std::string>& needed, const std::string& command)
      : chain_(chain), path_(std::move(path)) {
    auto require = [&](const std::vector<std::string>& header, int line, const std::string& suffix) {
      for (const std::string& name : suffix == "q" ? chain_.q_names : chain_.v_names)
        if (std::find(header.begin(), header.end(), name + "." + suffix) == header.end())
          throw InputError({path_, line}, "column '" + name + "." + suffix + "'", "'robot " + command + "' needs it",
                           hint(command, suffix, name));
    };
    csv_ = io::read_csv_table(path_, [&](const std::vector<std::string>& header, int line) {
      for (const std::string& c : header) check_column(c, line);
      // Forward dynamics says first that it needs the driving forces (a trajectory file has none).
      if (command == "fd") require(header, line, "tau");
    });
    for (const std::string& suffix : needed) require(csv_.table.columns, csv_.header_line, suffix);
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
  const Table& table() const { return csv_.table; }

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
    check_output_paths({{"--csv", csv_file()}, {"--json", o.json}}, inputs());
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
  if (!o.torques.empty()) {
    torque_file = std::make_unique<io::CsvTable>(io::read_csv_table(o.torques));
    torque_series = std::make_unique<TimeSeries>(o.torques, torque_file->table,
                                                 columns_of(torque_file->table, chain.v_names, "tau", o.torques));
  }
  const bool pd = !o.kp.empty() || !o.kd.empty();
  PdGains pd_gains{Eigen::VectorXd::Zero(chain.dof), Eigen::VectorXd::Zero(chain.dof)};
  if (pd) {
    if (!o.kp.empty()) pd_gains.kp = gains(chain, o.kp, "--kp");
    if (!o.kd.empty()) pd_gains.kd = gains(chain, o.kd, "--kd");
    const Table& ref = states.table();
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
    add_pd_torques(chain, pd_gains, ref_q, ref_qd, q, qd, tau);
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

/// A robot command's run over the states file: the model, its data, the states and the table
/// of results, one row per state row (the state's t first when the file has it).
struct RobotRun {
  RobotRun(const Chain& c, ChainData& d, const RobotOptions& options, const States& s, int f, int derivatives,
           size_t& row)
      : chain(c),
        data(d),
        o(options),
        states(s),
        frame(f),
        orders(derivatives),
        current_row(row),
        q(c.nq),
        tau(c.dof),
        V(Eigen::MatrixXd::Zero(c.dof, 4)),
        tcol(s.time_column()) {
    terms.friction = !o.no_friction;
  }
  /// Reads row `row`'s q and its derivatives up to `orders` (V: qd, qdd, qddd, qdddd), and its t.
  void load_row(size_t row) {
    current_row = row;
    states.read(row, "q", q);
    for (int r = 1; r < orders && r < 5; ++r) states.read(row, derivative_suffix[r], V.col(r - 1));
    if (tcol >= 0) table.values.push_back(states.at(row, tcol));
  }

  const Chain& chain;
  ChainData& data;
  const RobotOptions& o;
  const States& states;
  int frame;   ///< jacobian: the frame of --frame
  int orders;  ///< q and its derivatives read per row
  size_t& current_row;
  Eigen::VectorXd q, tau;
  Eigen::MatrixXd V;
  Terms terms;
  int tcol;
  Table table;
};

void inverse_dynamics_rows(RobotRun& r) {
  const Chain& chain = r.chain;
  ChainData& data = r.data;
  Table& table = r.table;
  for (int d = 0; d < chain.dof; ++d)
    table.add_column(chain.v_names[size_t(d)] + ".tau", io::dof_unit(chain, d, 0, true));
  for (int d = 0; d < chain.dof; ++d)
    table.add_column(chain.v_names[size_t(d)] + ".friction", io::dof_unit(chain, d, 0, true));
  for (size_t row = 0; row < r.states.rows(); ++row) {
    r.load_row(row);
    inverse_dynamics(chain, data, r.q, r.V.col(0), r.V.col(1), r.terms);
    table.values.insert(table.values.end(), data.tau.begin(), data.tau.end());
    if (r.terms.friction)
      joint_friction(chain, data, r.V.col(0));
    else
      data.friction.setZero();
    table.values.insert(table.values.end(), data.friction.begin(), data.friction.end());
  }
}

void forward_dynamics_rows(RobotRun& r) {
  const ForwardMethod method =
      r.o.method == "crba" ? ForwardMethod::mass_matrix_cholesky : ForwardMethod::articulated_body;
  for (int d = 0; d < r.chain.dof; ++d)
    r.table.add_column(r.chain.v_names[size_t(d)] + ".qdd", io::dof_unit(r.chain, d, 2));
  for (size_t row = 0; row < r.states.rows(); ++row) {
    r.load_row(row);
    r.states.read(row, "tau", r.tau);
    forward_dynamics(r.chain, r.data, r.q, r.V.col(0), r.tau, method, r.terms);
    r.table.values.insert(r.table.values.end(), r.data.qdd.begin(), r.data.qdd.end());
  }
}

void mass_matrix_rows(RobotRun& r) {
  add_matrix_columns(r.table, "M", r.chain.dof, r.chain.dof);
  for (size_t row = 0; row < r.states.rows(); ++row) {
    r.load_row(row);
    push_matrix(r.table, mass_matrix(r.chain, r.data, r.q));
  }
}

void coriolis_rows(RobotRun& r) {
  add_matrix_columns(r.table, "C", r.chain.dof, r.chain.dof);
  for (size_t row = 0; row < r.states.rows(); ++row) {
    r.load_row(row);
    coriolis_matrix(r.chain, r.data, r.q, r.V.col(0));
    push_matrix(r.table, r.data.coriolis);
  }
}

void derivatives_rows(RobotRun& r) {
  const int n = r.chain.dof;
  add_matrix_columns(r.table, "dtau_dq", n, n);
  add_matrix_columns(r.table, "dtau_dqd", n, n);
  double worst_q = 0, worst_qd = 0;
  for (size_t row = 0; row < r.states.rows(); ++row) {
    r.load_row(row);
    rnea_derivatives(r.chain, r.data, r.q, r.V.col(0), r.V.col(1), r.terms);
    push_matrix(r.table, r.data.dtau_dq);
    push_matrix(r.table, r.data.dtau_dqd);
    if (r.o.check) {
      const auto [eq, eqd] = difference_check(r.chain, r.data, r.q, r.V.col(0), r.V.col(1), r.terms);
      worst_q = std::max(worst_q, eq);
      worst_qd = std::max(worst_qd, eqd);
    }
  }
  if (r.o.check)
    fmt::print(stderr,
               "{}: largest relative difference to central differences of the inverse dynamics over {} rows: "
               "d tau/dq {:.2e}, d tau/dqd {:.2e}\n",
               r.chain.spec.name, r.states.rows(), worst_q, worst_qd);
}

void forward_kinematics_rows(RobotRun& r) {
  for (const Frame& f : r.chain.frames)
    for (const char* c : {"x", "y", "z", "qx", "qy", "qz", "qw"})
      r.table.add_column(f.name + "." + c, c[0] == 'q' ? "" : "m");
  for (size_t row = 0; row < r.states.rows(); ++row) {
    r.load_row(row);
    forward_kinematics(r.chain, r.data, r.q);
    for (int f = 0; f < int(r.chain.frames.size()); ++f) {
      const Pose p = frame_placement(r.chain, r.data, f);
      const Eigen::Quaterniond rotation(p.R);
      r.table.values.insert(r.table.values.end(),
                            {p.p.x(), p.p.y(), p.p.z(), rotation.x(), rotation.y(), rotation.z(), rotation.w()});
    }
  }
}

void jacobian_rows(RobotRun& r) {
  add_matrix_columns(r.table, "J", 6, r.chain.dof);
  Eigen::Matrix<double, 6, Eigen::Dynamic> J(6, r.chain.dof);
  for (size_t row = 0; row < r.states.rows(); ++row) {
    r.load_row(row);
    forward_kinematics(r.chain, r.data, r.q);
    frame_jacobian(r.chain, r.data, r.frame, J);
    push_matrix(r.table, J);
  }
}

void energy_rows(RobotRun& r) {
  r.table.add_column("kinetic_energy", "J");
  for (int p = 1; p <= r.orders - 2; ++p) r.table.add_column(fmt::format("E_A{}", p), fmt::format("J/s^{}", 2 * p));
  for (size_t row = 0; row < r.states.rows(); ++row) {
    r.load_row(row);
    for (int p = 0; p <= r.orders - 2; ++p) r.table.values.push_back(acceleration_energy(r.chain, r.q, r.V, p));
  }
}

void jerk_rows(RobotRun& r) {
  const Chain& chain = r.chain;
  DerivativeData dd(chain);
  for (int order = 0; order < 3; ++order)
    for (int d = 0; d < chain.dof; ++d)
      r.table.add_column(chain.v_names[size_t(d)] + (order == 0   ? ".tau"
                                                     : order == 1 ? ".dtau"
                                                                  : ".ddtau"),
                         io::dof_unit(chain, d, order, true));
  for (size_t row = 0; row < r.states.rows(); ++row) {
    r.load_row(row);
    torque_derivatives(chain, r.data, dd, r.q, r.V, r.terms);
    for (const Eigen::VectorXd* v : {&dd.tau, &dd.dtau, &dd.ddtau})
      r.table.values.insert(r.table.values.end(), v->begin(), v->end());
  }
}

void simulate_rows(RobotRun& r) { run_simulation(r.chain, r.data, r.o, r.states); }

void method_option(CLI::App& cmd, RobotOptions& o) {
  cmd.add_option("--method", o.method, "aba (articulated body, default) or crba (mass matrix + LTDL)")
      ->check(CLI::IsMember({"aba", "crba"}));
}
void jacobian_options(CLI::App& cmd, RobotOptions& o) {
  cmd.add_option("--frame", o.frame, "Frame name (a link, a fixed frame, end_effector)")->required();
}
void derivatives_options(CLI::App& cmd, RobotOptions& o) {
  cmd.add_flag("--check", o.check, "Also compare with central differences of the inverse dynamics (stderr)");
}
void simulate_options(CLI::App& cmd, RobotOptions& o) {
  method_option(cmd, o);
  cmd.add_option("--t-end", o.t_end, "Simulated time (s, or with a unit: 300ms)")
      ->transform(in_si(Quantity::time))
      ->check(positive)
      ->capture_default_str();
  cmd.add_option("--steps", o.steps, "Output rows after the first")->check(positive);
  add_max_steps_option(&cmd);
  cmd.add_option("--torques", o.torques, "CSV with t and <joint>.tau: driving forces, linear in t")
      ->check(CLI::ExistingFile);
  cmd.add_option("--kp", o.kp, "PD proportional gain(s) to the states' q(t): one, or one per joint (N m/rad, N/m)");
  cmd.add_option("--kd", o.kd, "PD derivative gain(s) to the states' qd(t) (N m s/rad, N s/m)");
}

/// The robot commands: what each reads from the states file and computes.
struct RobotCommand {
  const char* name;
  const char* help;
  std::vector<std::string> columns;  ///< read from the states file
  int orders = 1;         ///< q and its derivatives read per row (0: as many as the states have, from qdd on)
  bool friction = false;  ///< joint friction enters its result (--no-friction)
  bool frame = false;     ///< --frame, looked up before the states are read
  void (*options)(CLI::App&, RobotOptions&) = nullptr;  ///< its own options
  void (*rows)(RobotRun&) = nullptr;                    ///< its results, row by row
  bool table = true;                                    ///< the rows are written at the end (simulate streams its own)
  int matrices = 0;                                     ///< dense dof x dof matrices in each row
};

const std::vector<RobotCommand>& robot_commands() {
  static const std::vector<RobotCommand> commands{
      {.name = "id",
       .help = "Inverse dynamics: <joint>.tau (and its friction part) from <joint>.q, .qd, .qdd",
       .columns = {"q", "qd", "qdd"},
       .orders = 3,
       .friction = true,
       .rows = inverse_dynamics_rows},
      {.name = "fd",
       .help = "Forward dynamics: <joint>.qdd from <joint>.q, .qd and the driving forces <joint>.tau (the states "
               "file must have the .tau columns)",
       .columns = {"q", "qd", "tau"},
       .orders = 2,
       .friction = true,
       .options = method_option,
       .rows = forward_dynamics_rows},
      {.name = "mass-matrix",
       .help = "Mass matrix M_<i>_<j> (1-based, row-major) at each <joint>.q",
       .columns = {"q"},
       .rows = mass_matrix_rows,
       .matrices = 1},
      {.name = "coriolis",
       .help = "Coriolis matrix C_<i>_<j> (C qd = velocity terms, dM/dt - 2C skew) at each .q, .qd",
       .columns = {"q", "qd"},
       .orders = 2,
       .rows = coriolis_rows,
       .matrices = 1},
      {.name = "derivatives",
       .help = "d tau/dq and d tau/dqd (dtau_dq_<i>_<j>, dtau_dqd_<i>_<j>) at each .q, .qd, .qdd",
       .columns = {"q", "qd", "qdd"},
       .orders = 3,
       .friction = true,
       .options = derivatives_options,
       .rows = derivatives_rows,
       .matrices = 2},
      {.name = "fk",
       .help = "Pose of every frame (links, fixed frames, end effector): <frame>.x, .y, .z, .qx, .qy, .qz, .qw",
       .columns = {"q"},
       .rows = forward_kinematics_rows},
      {.name = "jacobian",
       .help = "Jacobian of --frame F: J_<r>_<c>, rows vx, vy, vz, wx, wy, wz in the base axes at the frame's origin",
       .columns = {"q"},
       .frame = true,
       .options = jacobian_options,
       .rows = jacobian_rows},
      {.name = "energy",
       .help = "Kinetic energy and acceleration energies E_A1..E_A3 from q and its derivatives (.qdd, .qddd, .qdddd)",
       .columns = {"q", "qd", "qdd"},
       .orders = 0,
       .rows = energy_rows},
      {.name = "jerk",
       .help = "Driving forces and their time derivatives <joint>.dtau, .ddtau from q up to .qdddd",
       .columns = {"q", "qd", "qdd", "qddd", "qdddd"},
       .orders = 5,
       .friction = true,
       .rows = jerk_rows},
      {.name = "simulate",
       .help = "Time simulation from the first row's q, qd: its .tau held, a torque trajectory (--torques) "
               "and/or a PD controller to the states' q(t), qd(t) (--kp, --kd)",
       .columns = {"q", "qd"},
       .orders = 2,
       .friction = true,
       .options = simulate_options,
       .rows = simulate_rows,
       .table = false}};
  return commands;
}

void run_rows(const RobotCommand& command, const RobotOptions& o, size_t& current_row) {
  const Chain chain = load_model(o);
  ChainData data(chain);
  int frame = -1;
  if (command.frame) {
    frame = chain.frame_index(o.frame);
    if (frame < 0) {
      std::string names;
      for (const Frame& f : chain.frames) names += (names.empty() ? "" : ", ") + f.name;
      throw InputError({}, "--frame " + o.frame, "the model has no frame of that name",
                       "give --frame one of: " + names);
    }
  }
  const States states(chain, o.states, command.columns, command.name);
  // The model's size within --max-joints, with what it takes: about 12 kB a DOF, and 230 bytes a
  // matrix entry (its column's name) and 8 a row (measured).
  const double dof = chain.dof, megabytes = (12e3 * dof + dof * dof * command.matrices *
                                                              (230.0 + 8.0 * static_cast<double>(states.rows()))) /
                                            1e6;
  require_within(
      chain.dof,
      o.max_joints > 0       ? o.max_joints
      : command.matrices > 0 ? 1000
                             : 10'000,
      "--max-joints", {o.model, 0},
      fmt::format("robot '{}' (about {:.3g} MB for {} state rows)", chain.spec.name, megabytes, states.rows()),
      "degrees of freedom");
  if (megabytes > 100)
    fmt::print(stderr, "{}: {} degrees of freedom, {} state rows: about {:.3g} MB\n", chain.spec.name, chain.dof,
               states.rows(), megabytes);
  const int orders = command.orders > 0 ? command.orders : states.has("qdddd") ? 5 : states.has("qddd") ? 4 : 3;
  RobotRun run(chain, data, o, states, frame, orders, current_row);
  if (command.table && run.tcol >= 0) run.table.add_column("t", "s");
  command.rows(run);
  if (command.table) emit(chain, o, command.name, run.table);
}

void run(const RobotCommand& command, const RobotOptions& o) {
  size_t row = 0;
  try {
    run_rows(command, o, row);
  } catch (const AnalysisError& e) {
    throw AnalysisError(fmt::format("{} (states row {} of {})", e.what(), row + 1, o.states));
  }
}
}  // namespace

void add_robot_command(CLI::App& app) {
  CLI::App* robot = app.add_subcommand("robot",
                                       "Robots (URDF or YAML; serial, branched or floating): dynamics, "
                                       "kinematics, derivatives, simulation");
  robot->require_subcommand(1, 1);
  for (const RobotCommand& command : robot_commands()) {
    auto options = std::make_shared<RobotOptions>();
    CLI::App* cmd = robot->add_subcommand(command.name, command.help);
    cmd->add_option("model", options->model, "Robot model (.urdf or .yaml)")->required()->check(CLI::ExistingFile);
    cmd->add_option("--states", options->states, "CSV with a header naming <joint>.q, <joint>.qd, ... columns")
        ->required()
        ->check(CLI::ExistingFile);
    cmd->add_option("--csv", options->csv,
                    "Write the results as CSV; - writes them on stdout (default: a summary of each column on stdout)");
    cmd->add_option("--json", options->json, "Write the results as JSON with metadata");
    // Joint friction enters the driving forces and the motion only: elsewhere the flag would mean nothing.
    if (command.friction) cmd->add_flag("--no-friction", options->no_friction, "Leave out joint friction");
    cmd->add_flag("--floating-base", options->floating_base,
                  "URDF: the root link floats (a free-flyer joint 'floating_base' from the world to it)");
    cmd->add_option("--rotation", options->rotation,
                    "Free-flyer rotation coordinates: quaternion (default) or exponential")
        ->check(CLI::IsMember({"quaternion", "exponential"}));
    cmd->add_flag("--strict", options->strict,
                  "Refuse links whose inertia breaks the triangle inequality (default: warn)");
    cmd->add_flag("--balance-inertia", options->balance_inertia,
                  "Repair such links as MuJoCo's balanceinertia (principal moments set to their mean)");
    cmd->add_option("--max-joints", options->max_joints,
                    "The most degrees of freedom of the model (default 10000, 1000 for the verbs writing dof x dof "
                    "matrices): a larger one is refused up front with its memory")
        ->check(CLI::PositiveNumber);
    if (command.options) command.options(*cmd, *options);
    cmd->callback([&command, options] {
      if (options->strict && options->balance_inertia)
        throw InputError({}, "options", "--strict and --balance-inertia exclude each other", "give one of them");
      run(command, *options);
    });
  }
}

}  // namespace linkdyn::cli
