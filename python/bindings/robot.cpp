// The robot API in the Model/Data style of Pinocchio: an immutable Robot (the compiled tree),
// a Data workspace per thread, free functions over both. Every function takes one state (1-D
// arrays) or a batch (2-D, one state per row), looped in C++ with the GIL released, over
// `threads` threads (each with its own workspace).
#include <pybind11/eigen.h>
#include <pybind11/functional.h>

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <system_error>
#include <functional>
#include <memory>
#include <thread>
#include <vector>

#include "common.hpp"
#include "linkdyn/core/error.hpp"
#include "linkdyn/io/chain_file.hpp"
#include "linkdyn/io/result_tables.hpp"
#include "linkdyn/spatial/derivatives.hpp"
#include "linkdyn/spatial/dynamics.hpp"
#include "linkdyn/spatial/energy.hpp"
#include "linkdyn/spatial/higher_order.hpp"
#include "linkdyn/spatial/kinematics.hpp"
#include "linkdyn/spatial/simulate.hpp"

namespace linkdyn::python {
namespace {

using spatial::Chain;
using spatial::ChainData;
using ConstMap = Eigen::Map<const Eigen::VectorXd>;
using RowMajor = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

struct Robot {
  std::shared_ptr<const Chain> chain;
};

/// A workspace with the robot it was made for (Pinocchio's Data).
struct RobotData {
  std::shared_ptr<const Chain> chain;
  ChainData data;
};

spatial::Terms terms_of(bool gravity, bool friction, bool load) {
  spatial::Terms t;
  t.gravity = gravity, t.friction = friction, t.load = load;
  return t;
}

/// The states of a call: its arrays (up to three) checked against the robot's sizes, one state
/// or a batch of the same number of rows.
struct States {
  std::array<Array, 3> arrays;
  py::ssize_t rows = 1;
  bool batch = false;
  const double* row(size_t k, py::ssize_t r) const {
    const Array& a = arrays[k];
    return a.data() + (batch ? r * a.shape(1) : 0);
  }
};

struct Input {
  py::handle value;
  const char* name;
  int width;
};

States states(std::initializer_list<Input> inputs) {
  States s;
  size_t k = 0;
  for (const Input& in : inputs) {
    Array a = require_shape(in.value, in.name, in.width, true);
    const bool batch = a.ndim() == 2;
    const py::ssize_t rows = batch ? a.shape(0) : 1;
    if (k == 0) {
      s.batch = batch, s.rows = rows;
    } else if (batch != s.batch || rows != s.rows) {
      throw py::value_error(fmt::format("{}: {} state(s) where the first argument has {}", in.name, rows, s.rows));
    }
    s.arrays[k++] = std::move(a);
  }
  return s;
}

/// body(worker, row) for every row, the rows in one contiguous block per worker (worker 0 is the
/// calling thread), the GIL released. A thread that cannot be started leaves its block to the
/// calling thread; the first exception of any worker is rethrown, naming its row.
template <class Body>
void for_each_row(py::ssize_t rows, py::ssize_t workers, const Body& body) {
  const py::gil_scoped_release release;
  const py::ssize_t block = workers > 0 ? (rows + workers - 1) / workers : rows;
  std::vector<std::exception_ptr> errors(static_cast<size_t>(std::max<py::ssize_t>(workers, 1)));
  auto work = [&](py::ssize_t w) {
    py::ssize_t r = w * block;
    try {
      for (const py::ssize_t end = std::min(rows, r + block); r < end; ++r) body(w, r);
    } catch (const AnalysisError& e) {
      errors[static_cast<size_t>(w)] = std::make_exception_ptr(AnalysisError(fmt::format("state {}: {}", r, e.what())));
    } catch (...) {
      errors[static_cast<size_t>(w)] = std::current_exception();
    }
  };
  std::vector<std::thread> pool;
  std::vector<py::ssize_t> left;  // blocks whose thread did not start
  for (py::ssize_t w = 1; w < workers; ++w) {
    try {
      pool.emplace_back(work, w);
    } catch (const std::system_error&) {
      left.push_back(w);
    }
  }
  work(0);
  for (py::ssize_t w : left) work(w);
  for (std::thread& t : pool) t.join();
  for (const std::exception_ptr& e : errors)
    if (e) std::rethrow_exception(e);
}

/// The workers of a batch: at most `threads`, the machine's hardware threads and the rows.
py::ssize_t workers_for(py::ssize_t rows, int threads) {
  if (threads < 1) throw py::value_error("threads: at least 1");
  // Read once: std::thread::hardware_concurrency reads the system's files (microseconds).
  static const auto hardware = static_cast<py::ssize_t>(std::max(1u, std::thread::hardware_concurrency()));
  return std::max<py::ssize_t>(1, std::min({static_cast<py::ssize_t>(threads), hardware, rows}));
}

/// A workspace per worker: the caller's for worker 0, new ones for the others.
class Workspaces {
 public:
  Workspaces(const Chain& chain, ChainData& data, py::ssize_t workers) : first_(data) {
    for (py::ssize_t w = 1; w < workers; ++w) extra_.push_back(std::make_unique<ChainData>(chain));
  }
  ChainData& operator[](py::ssize_t w) { return w == 0 ? first_ : *extra_[static_cast<size_t>(w - 1)]; }

 private:
  ChainData& first_;
  std::vector<std::unique_ptr<ChainData>> extra_;
};

/// out[r] = f(data, r) for every row of the states (one state: no thread, the GIL kept);
/// `shape` is the shape of one result.
template <class F>
py::array batched(const Robot& robot, ChainData& data, const States& s, std::vector<py::ssize_t> shape, int threads,
                  const F& f) {
  const py::ssize_t workers = workers_for(s.rows, threads);
  py::ssize_t size = 1;
  for (py::ssize_t e : shape) size *= e;
  if (s.batch) shape.insert(shape.begin(), s.rows);
  py::array_t<double> out(shape);
  double* o = out.mutable_data();
  if (!s.batch) {  // one state: too short to be worth releasing the GIL
    f(data, 0, o);
    return out;
  }
  Workspaces workspaces(*robot.chain, data, workers);
  for_each_row(s.rows, workers, [&](py::ssize_t w, py::ssize_t r) { f(workspaces[w], r, o + r * size); });
  return out;
}

/// The time derivatives of the velocity for each state: (rows, n) for one state, (N, rows, n)
/// for N states.
struct Derivatives {
  Array array;
  py::ssize_t rows = 0;
  /// Columns v, v', ... (n x rows) of state r: a view of the array, no copy.
  auto of(py::ssize_t r, int n) const {
    return Eigen::Map<const RowMajor>(array.data() + r * rows * n, rows, n).transpose();
  }
};
Derivatives derivatives_of(const py::object& value, const States& s, int n, py::ssize_t min_rows, py::ssize_t max_rows,
                           const char* rows_text) {
  Derivatives d;
  try {
    d.array = Array::ensure(value);
  } catch (const py::error_already_set&) {
    d.array = Array();
  }
  const int dims = s.batch ? 3 : 2;
  const bool ok = d.array && d.array.ndim() == dims && d.array.shape(dims - 1) == n &&
                  d.array.shape(dims - 2) >= min_rows && d.array.shape(dims - 2) <= max_rows &&
                  (!s.batch || d.array.shape(0) == s.rows);
  if (!ok)
    throw py::value_error(fmt::format("derivatives: expected shape ({}{} rows, {}): {}",
                                      s.batch ? std::to_string(s.rows) + ", " : "", min_rows, n, rows_text));
  d.rows = d.array.shape(dims - 2);
  return d;
}

/// The workspace of `data`, refused unless it was made for `robot`.
ChainData& workspace(const Robot& robot, RobotData& data) {
  if (data.chain != robot.chain) throw py::value_error("data: made for another robot (use robot.create_data())");
  return data.data;
}

py::array rnea(const Robot& robot, RobotData& robot_data, const py::object& q, const py::object& v, const py::object& a,
               bool gravity, bool friction, bool load, int threads) {
  ChainData& data = workspace(robot, robot_data);
  const Chain& c = *robot.chain;
  const States s = states({{q, "q", c.nq}, {v, "v", c.dof}, {a, "a", c.dof}});
  const spatial::Terms t = terms_of(gravity, friction, load);
  return batched(robot, data, s, {c.dof}, threads, [&](ChainData& d, py::ssize_t r, double* out) {
    Eigen::Map<Eigen::VectorXd>(out, c.dof) = spatial::inverse_dynamics(
        c, d, ConstMap(s.row(0, r), c.nq), ConstMap(s.row(1, r), c.dof), ConstMap(s.row(2, r), c.dof), t);
  });
}

py::array crba(const Robot& robot, RobotData& robot_data, const py::object& q, int threads) {
  ChainData& data = workspace(robot, robot_data);
  const Chain& c = *robot.chain;
  const States s = states({{q, "q", c.nq}});
  return batched(robot, data, s, {c.dof, c.dof}, threads, [&](ChainData& d, py::ssize_t r, double* out) {
    Eigen::Map<RowMajor>(out, c.dof, c.dof) = spatial::mass_matrix(c, d, ConstMap(s.row(0, r), c.nq));
  });
}

py::array aba(const Robot& robot, RobotData& robot_data, const py::object& q, const py::object& v,
              const py::object& tau, const std::string& method, bool gravity, bool friction, bool load, int threads) {
  ChainData& data = workspace(robot, robot_data);
  const Chain& c = *robot.chain;
  const spatial::ForwardMethod fm = method == "aba"    ? spatial::ForwardMethod::articulated_body
                                    : method == "crba" ? spatial::ForwardMethod::mass_matrix_cholesky
                                                       : throw py::value_error("method: 'aba' or 'crba'");
  const States s = states({{q, "q", c.nq}, {v, "v", c.dof}, {tau, "tau", c.dof}});
  const spatial::Terms t = terms_of(gravity, friction, load);
  return batched(robot, data, s, {c.dof}, threads, [&](ChainData& d, py::ssize_t r, double* out) {
    Eigen::Map<Eigen::VectorXd>(out, c.dof) = spatial::forward_dynamics(
        c, d, ConstMap(s.row(0, r), c.nq), ConstMap(s.row(1, r), c.dof), ConstMap(s.row(2, r), c.dof), fm, t);
  });
}

py::array gravity(const Robot& robot, RobotData& robot_data, const py::object& q, int threads) {
  ChainData& data = workspace(robot, robot_data);
  const Chain& c = *robot.chain;
  const States s = states({{q, "q", c.nq}});
  const Eigen::VectorXd zero = Eigen::VectorXd::Zero(c.dof);
  return batched(robot, data, s, {c.dof}, threads, [&](ChainData& d, py::ssize_t r, double* out) {
    Eigen::Map<Eigen::VectorXd>(out, c.dof) =
        spatial::inverse_dynamics(c, d, ConstMap(s.row(0, r), c.nq), zero, zero, terms_of(true, false, false));
  });
}

int frame_of(const Chain& c, const std::string& frame) {
  const int k = frame.empty() ? static_cast<int>(c.frames.size()) - 1 : c.frame_index(frame);
  if (k < 0) throw py::value_error("frame: no frame named '" + frame + "'");
  return k;
}

py::array forward_kinematics(const Robot& robot, RobotData& robot_data, const py::object& q, const std::string& frame,
                             int threads) {
  ChainData& data = workspace(robot, robot_data);
  const Chain& c = *robot.chain;
  const int k = frame_of(c, frame);
  const States s = states({{q, "q", c.nq}});
  return batched(robot, data, s, {4, 4}, threads, [&](ChainData& d, py::ssize_t r, double* out) {
    spatial::forward_kinematics(c, d, ConstMap(s.row(0, r), c.nq));
    const spatial::Pose p = spatial::frame_placement(c, d, k);
    Eigen::Map<Eigen::Matrix<double, 4, 4, Eigen::RowMajor>> T(out);
    T.setIdentity();
    T.topLeftCorner<3, 3>() = p.R;
    T.topRightCorner<3, 1>() = p.p;
  });
}

py::array jacobian(const Robot& robot, RobotData& robot_data, const py::object& q, const std::string& frame,
                   int threads) {
  ChainData& data = workspace(robot, robot_data);
  const Chain& c = *robot.chain;
  const int k = frame_of(c, frame);
  const States s = states({{q, "q", c.nq}});
  return batched(robot, data, s, {6, c.dof}, threads, [&](ChainData& d, py::ssize_t r, double* out) {
    spatial::forward_kinematics(c, d, ConstMap(s.row(0, r), c.nq));
    thread_local Eigen::Matrix<double, 6, Eigen::Dynamic> J;  // per worker, sized once
    J.resize(6, c.dof);
    spatial::frame_jacobian(c, d, k, J);
    Eigen::Map<Eigen::Matrix<double, 6, Eigen::Dynamic, Eigen::RowMajor>>(out, 6, c.dof) = J;
  });
}

py::object acceleration_energy(const Robot& robot, const py::object& q, const py::object& derivatives, int order,
                               int threads) {
  const Chain& c = *robot.chain;
  if (order < 0) throw py::value_error("order: 0 or more");
  const States s = states({{q, "q", c.nq}});
  const Derivatives V = derivatives_of(derivatives, s, c.dof, order + 1, order + 1, "v and its time derivatives");
  py::array_t<double> out(s.batch ? std::vector<py::ssize_t>{s.rows} : std::vector<py::ssize_t>{});
  double* o = out.mutable_data();
  for_each_row(s.rows, workers_for(s.rows, threads), [&](py::ssize_t, py::ssize_t r) {
    o[r] = spatial::acceleration_energy(c, ConstMap(s.row(0, r), c.nq), Eigen::MatrixXd(V.of(r, c.dof)), order);
  });
  if (!s.batch) return py::float_(o[0]);
  return out;
}

py::tuple torque_derivatives(const Robot& robot, RobotData& robot_data, const py::object& q,
                             const py::object& derivatives, bool gravity, bool friction, bool load, int threads) {
  ChainData& data = workspace(robot, robot_data);
  const Chain& c = *robot.chain;
  const States s = states({{q, "q", c.nq}});
  const Derivatives V = derivatives_of(derivatives, s, c.dof, 4, 4, "v and its first three time derivatives");
  const std::vector<py::ssize_t> shape =
      s.batch ? std::vector<py::ssize_t>{s.rows, c.dof} : std::vector<py::ssize_t>{c.dof};
  py::array_t<double> tau(shape), dtau(shape), ddtau(shape);
  double *t0 = tau.mutable_data(), *t1 = dtau.mutable_data(), *t2 = ddtau.mutable_data();
  const py::ssize_t workers = workers_for(s.rows, threads);
  Workspaces workspaces(c, data, workers);
  std::vector<std::unique_ptr<spatial::DerivativeData>> derivative_data;
  for (py::ssize_t w = 0; w < workers; ++w) derivative_data.push_back(std::make_unique<spatial::DerivativeData>(c));
  const spatial::Terms terms = terms_of(gravity, friction, load);
  for_each_row(s.rows, workers, [&](py::ssize_t w, py::ssize_t r) {
    spatial::DerivativeData& d = *derivative_data[static_cast<size_t>(w)];
    spatial::torque_derivatives(c, workspaces[w], d, ConstMap(s.row(0, r), c.nq), V.of(r, c.dof), terms);
    Eigen::Map<Eigen::VectorXd>(t0 + r * c.dof, c.dof) = d.tau;
    Eigen::Map<Eigen::VectorXd>(t1 + r * c.dof, c.dof) = d.dtau;
    Eigen::Map<Eigen::VectorXd>(t2 + r * c.dof, c.dof) = d.ddtau;
  });
  return py::make_tuple(tau, dtau, ddtau);
}

py::tuple simulate(const Robot& robot, RobotData& robot_data, const py::object& q0, const py::object& v0,
                   const py::object& tau, double t_end, int steps, double rtol, double atol,
                   const std::string& integrator, const std::string& method, bool gravity, bool friction, bool load) {
  ChainData& data = workspace(robot, robot_data);
  const Chain& c = *robot.chain;
  if (!(t_end > 0.0) || steps < 1) throw py::value_error("t_end > 0 and steps >= 1");
  const Array qa = require_shape(q0, "q0", c.nq, false), va = require_shape(v0, "v0", c.dof, false);
  spatial::ChainSimulationOptions o;
  o.t_end = t_end, o.steps = steps, o.rel_tol = rtol, o.abs_tol = atol;
  o.integrator = integrator == "dopri5"  ? Integrator::dopri5
                 : integrator == "rkf78" ? Integrator::rkf78
                                         : throw py::value_error("integrator: 'dopri5' or 'rkf78'");
  o.method = method == "aba"    ? spatial::ForwardMethod::articulated_body
             : method == "crba" ? spatial::ForwardMethod::mass_matrix_cholesky
                                : throw py::value_error("method: 'aba' or 'crba'");
  o.terms = terms_of(gravity, friction, load);
  spatial::ChainSimulationResult r;
  if (py::isinstance<py::function>(tau)) {
    // A controller: tau = law(t, q, v), called with the GIL held.
    const py::function law = tau.cast<py::function>();
    const spatial::TorqueLaw torque = [&](double t, spatial::VectorIn q, spatial::VectorIn qd,
                                          Eigen::Ref<Eigen::VectorXd> out) {
      const Array value = require_shape(law(t, Eigen::VectorXd(q), Eigen::VectorXd(qd)), "tau(t, q, v)", c.dof, false);
      out = ConstMap(value.data(), c.dof);
    };
    r = spatial::simulate_chain(c, data, ConstMap(qa.data(), c.nq), ConstMap(va.data(), c.dof), torque, o);
  } else {
    const Array ta = require_shape(tau, "tau", c.dof, false);
    const py::gil_scoped_release release;
    r = spatial::simulate_chain(c, data, ConstMap(qa.data(), c.nq), ConstMap(va.data(), c.dof),
                                ConstMap(ta.data(), c.dof), o);
  }
  return py::make_tuple(py::cast(io::chain_simulation_table(c, r)),
                        py::dict(py::arg("rhs_evaluations") = r.rhs_evaluations));
}

}  // namespace

void bind_robot(py::module_& m) {
  py::class_<RobotData>(m, "Data", "The workspace of one evaluation (Pinocchio's Data): robot.create_data().");
  py::class_<Robot>(m, "Robot", "A compiled tree (immutable): serial arms, trees, floating bases.")
      .def_property_readonly("name", [](const Robot& r) { return r.chain->spec.name; })
      .def_property_readonly(
          "nq", [](const Robot& r) { return r.chain->nq; }, "Length of q.")
      .def_property_readonly(
          "nv", [](const Robot& r) { return r.chain->dof; }, "Degrees of freedom (length of v).")
      .def_property_readonly("q_names", [](const Robot& r) { return r.chain->q_names; })
      .def_property_readonly("v_names", [](const Robot& r) { return r.chain->v_names; })
      .def_property_readonly("frames",
                             [](const Robot& r) {
                               std::vector<std::string> names;
                               for (const spatial::Frame& f : r.chain->frames) names.push_back(f.name);
                               return names;
                             })
      .def(
          "neutral_configuration", [](const Robot& r) { return spatial::neutral_configuration(*r.chain); },
          "q at rest: zeros, identity quaternions.")
      .def(
          "create_data",
          [](const Robot& r) {
            return RobotData{r.chain, ChainData(*r.chain)};
          },
          "A new workspace for this robot.");

  m.def(
      "load_robot",
      [](const py::object& path, bool floating_base, const std::string& rotation) {
        io::ChainFileOptions fo;
        fo.floating_base = floating_base;
        if (rotation != "quaternion" && rotation != "exponential")
          throw py::value_error("rotation: 'quaternion' or 'exponential'");
        fo.exponential_coordinates = rotation == "exponential";
        const std::string file = py::str(py::module_::import("os").attr("fsdecode")(path));
        return Robot{std::make_shared<const Chain>(spatial::build_chain(io::read_chain_file(file, fo)))};
      },
      py::arg("path"), py::arg("floating_base") = false, py::arg("rotation") = "quaternion",
      "A robot from a URDF file or a YAML chain (docs/robots.md). floating_base: put a free-flyer between the "
      "world and the root link; rotation: the free-flyers' coordinates, 'quaternion' or 'exponential'. Raises "
      "InputError.");
  m.def("rnea", &rnea, py::arg("robot"), py::arg("data"), py::arg("q"), py::arg("v"), py::arg("a"),
        py::arg("gravity") = true, py::arg("friction") = true, py::arg("load") = true, py::arg("threads") = 1,
        "Inverse dynamics by recursive Newton-Euler: the driving forces tau (N m or N) for q (nq), v and a (nv). "
        "2-D arrays (one state per row) give one tau per row, looped in C++ with the GIL released over `threads` "
        "threads. gravity, friction, load: the terms included (the joints' friction and the end effector's load "
        "of the model file).");
  m.def("crba", &crba, py::arg("robot"), py::arg("data"), py::arg("q"), py::arg("threads") = 1,
        "The joint-space mass matrix M(q) (nv x nv, kg m^2 or kg) by the composite rigid body algorithm; "
        "(N, nv, nv) for N states.");
  m.def("aba", &aba, py::arg("robot"), py::arg("data"), py::arg("q"), py::arg("v"), py::arg("tau"),
        py::arg("method") = "aba", py::arg("gravity") = true, py::arg("friction") = true, py::arg("load") = true,
        py::arg("threads") = 1,
        "Forward dynamics: the accelerations (nv) under tau, by the articulated body algorithm (method 'aba') or "
        "M(q) and its Cholesky factor ('crba'); (N, nv) for N states. gravity, friction, load as in rnea.");
  m.def("gravity", &gravity, py::arg("robot"), py::arg("data"), py::arg("q"), py::arg("threads") = 1,
        "The generalized gravity forces g(q) (nv): the driving forces that hold the robot still.");
  m.def("forward_kinematics", &forward_kinematics, py::arg("robot"), py::arg("data"), py::arg("q"),
        py::arg("frame") = "", py::arg("threads") = 1,
        "The pose of a frame (default: the end effector) in the base as a 4 x 4 matrix (m); (N, 4, 4) for N "
        "states.");
  m.def("jacobian", &jacobian, py::arg("robot"), py::arg("data"), py::arg("q"), py::arg("frame") = "",
        py::arg("threads") = 1,
        "The frame's Jacobian (6 x nv, rows [v; omega] in the base frame; default frame: the end effector); "
        "(N, 6, nv) for N states.");
  m.def("acceleration_energy", &acceleration_energy, py::arg("robot"), py::arg("q"), py::arg("derivatives"),
        py::arg("order") = 1, py::arg("threads") = 1,
        "The acceleration energy of order p [002] (p = 0: the kinetic energy; p = 1: Appell's function) at q, "
        "with `derivatives` the rows v, v', ..., v^(p) (p + 1 rows of nv); for N states q is (N, nq), "
        "derivatives (N, p + 1, nv) and the result (N,).");
  m.def("torque_derivatives", &torque_derivatives, py::arg("robot"), py::arg("data"), py::arg("q"),
        py::arg("derivatives"), py::arg("gravity") = true, py::arg("friction") = true, py::arg("load") = true,
        py::arg("threads") = 1,
        "tau, dtau/dt and d2tau/dt2 (three arrays of nv) at q, with `derivatives` the four rows v and its first "
        "three time derivatives (4 x nv) [002]; for N states q is (N, nq), derivatives (N, 4, nv) and each result "
        "(N, nv).");
  m.def("_simulate_robot", &simulate, py::arg("robot"), py::arg("data"), py::arg("q0"), py::arg("v0"), py::arg("tau"),
        py::arg("t_end"), py::arg("steps"), py::arg("rtol"), py::arg("atol"), py::arg("integrator"), py::arg("method"),
        py::arg("gravity"), py::arg("friction"), py::arg("load"));
}

}  // namespace linkdyn::python
