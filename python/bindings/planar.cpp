// The planar API: models from files or text, and the analyses of the command line (kinematics,
// kinetostatics, reduce, simulate, steady regime, flex, report), each returning the table the
// CLI writes (same columns, units and numbers) with a dict of its summary.

#include <fmt/format.h>

#include <cmath>
#include <memory>
#include <mutex>

#include "common.hpp"
#include "linkdyn/dynamics/reduced.hpp"
#include "linkdyn/dynamics/simulate.hpp"
#include "linkdyn/flex/link.hpp"
#include "linkdyn/io/model_file.hpp"
#include "linkdyn/io/result_tables.hpp"
#include "linkdyn/io/table_writer.hpp"
#include "linkdyn/io/design_numbers.hpp"
#include "linkdyn/report/report.hpp"

namespace linkdyn::python {
namespace {

/// A model file read and compiled once; the machine of direct dynamics is made at the first
/// simulation and kept (with the reduced method's table).
struct PlanarModel {
  std::string path;
  io::Model model;
  std::shared_ptr<const planar::Mechanism> mechanism;
  std::shared_ptr<const dynamics::DynamicSystem> system() const {
    const std::lock_guard<std::mutex> lock(*mutex_);
    if (!system_) system_ = std::make_shared<const dynamics::DynamicSystem>(*mechanism, model.machine);
    return system_;
  }

 private:
  mutable std::shared_ptr<const dynamics::DynamicSystem> system_;
  std::shared_ptr<std::mutex> mutex_ = std::make_shared<std::mutex>();
};

PlanarModel make_model(const std::string& path, io::Model model) {
  PlanarModel m;
  m.path = path;
  m.model = std::move(model);
  m.mechanism = std::make_shared<const planar::Mechanism>(planar::compile(m.model.mechanism));
  return m;
}

py::dict sweep_summary(const planar::SweepSummary& s) {
  py::list intervals, events;
  for (const auto& [a, b] : s.intervals) intervals.append(py::make_tuple(a, b));
  for (const planar::SweepEvent& e : s.events)
    events.append(py::dict(py::arg("kind") = e.kind == planar::SweepEvent::singular ? "singular" : "assembly_limit",
                           py::arg("t") = e.t, py::arg("q") = e.q, py::arg("message") = e.message));
  return py::dict(py::arg("steps") = s.steps, py::arg("absent") = s.absent, py::arg("singular") = s.singular,
                  py::arg("limits") = s.limits, py::arg("intervals") = intervals, py::arg("events") = events);
}

py::tuple result(Table table, py::dict info) { return py::make_tuple(py::cast(std::move(table)), std::move(info)); }

py::tuple kinematics(const PlanarModel& model, int steps, double singular_tol) {
  const planar::Mechanism& m = *model.mechanism;
  const planar::TimeGrid grid = planar::analysis_grid(m, steps);
  planar::KinematicsResult r;
  std::string design;
  {
    const py::gil_scoped_release release;
    r = planar::kinematics(m, grid, singular_tol);
    design = io::design_numbers_json(planar::design_numbers(m, grid));
  }
  py::dict info = sweep_summary(r.summary);
  info["t0"] = grid.t0, info["t_end"] = grid.t_end;
  info["design"] = py::module_::import("json").attr("loads")(design);  // as the CLI's JSON metadata
  return result(io::kinematics_table(m, r), info);
}

py::tuple kinetostatics(const PlanarModel& model, int steps, bool friction, double tolerance, int max_iterations) {
  const planar::Mechanism& m = *model.mechanism;
  const planar::TimeGrid grid = planar::analysis_grid(m, steps);
  planar::KinetostaticsOptions o;
  o.friction = friction, o.tolerance = tolerance, o.max_iterations = max_iterations;
  planar::KinetostaticsResult r;
  {
    const py::gil_scoped_release release;
    r = planar::kinetostatics(m, grid, o);
  }
  planar::check_kinetostatics(m, r);
  const planar::KinetostaticsSummary& s = r.summary;
  py::dict info = sweep_summary(s.sweep);
  info["t0"] = grid.t0, info["t_end"] = grid.t_end;
  info["mean_driver_power"] = s.mean_driver_power, info["driver_work"] = s.driver_work;
  info["useful_work"] = s.useful_work, info["friction_work"] = s.friction_work;
  info["efficiency"] = s.has_useful_loads && s.driver_work > 0.0 ? s.useful_work / s.driver_work : NAN;
  info["rows"] = s.rows, info["flagged"] = s.flagged, info["mean_iterations"] = s.mean_iterations;
  py::dict efforts;  // as the CLI's JSON metadata driver_efforts
  for (size_t d = 0; d < m.drivers().size(); ++d)
    efforts[py::str(m.drivers()[d].name)] =
        py::dict(py::arg("peak") = s.effort[d].peak, py::arg("peak_t") = s.effort[d].peak_t,
                 py::arg("rms") = s.effort[d].rms, py::arg("peak_frictionless") = s.effort_frictionless[d].peak,
                 py::arg("rms_frictionless") = s.effort_frictionless[d].rms);
  info["driver_efforts"] = efforts;
  return result(io::kinetostatics_table(m, r), info);
}

py::tuple reduce(const PlanarModel& model, int points) {
  const planar::Mechanism& m = *model.mechanism;
  if (points < 4) throw py::value_error("points: at least 4 intervals");
  planar::require_start_assembly(m, m.default_grid());
  dynamics::ReducedTable t;
  {
    const py::gil_scoped_release release;
    t = dynamics::tabulate_reduced_parameters(m, points, model.model.machine.constraint_actions);
  }
  return result(dynamics::reduced_table(m, t), py::dict(py::arg("periodic") = t.periodic));
}

dynamics::Method method_of(const std::string& name) {
  try {
    return dynamics::method_named(name);
  } catch (const InputError&) {
    throw py::value_error("method: 'auto', 'reduced', 'full' or 'kane', not '" + name + "'");
  }
}
Integrator integrator_of(const std::string& name) {
  if (name == "rkf78") return Integrator::rkf78;
  if (name == "dopri5") return Integrator::dopri5;
  throw py::value_error("integrator: 'rkf78' or 'dopri5', not '" + name + "'");
}

/// The options of a simulation as the Python layer passes them (defaults: SimulationOptions').
struct SimulateArgs {
  std::string method = "auto", integrator = "rkf78";
  double t0 = 0.0, t_end = 1.0;
  int steps = 1000;
  double rtol = 1e-10, atol = 1e-12;
  bool friction = true, reactions = false, kinematics = true;
  std::optional<double> q0, qd0;
  std::vector<double> current0;
  double table_tolerance = 0.0;
  int table_points = 0;
  std::optional<double> stop_q;
  bool rigid_links = false;  ///< Kane's and the full method: the elastic links rigid (else coupled)
  int elastic_modes = 4;
};

dynamics::SimulationOptions simulation_options(const SimulateArgs& a) {
  dynamics::SimulationOptions o;
  o.method = method_of(a.method);
  o.integrator = integrator_of(a.integrator);
  o.t0 = a.t0, o.t_end = a.t_end, o.steps = a.steps;
  o.rel_tol = a.rtol, o.abs_tol = a.atol;
  o.friction = a.friction, o.reactions = a.reactions, o.kinematics = a.kinematics;
  for (const auto& [value, name] : {std::pair{a.q0, "q0"}, {a.qd0, "qd0"}, {a.stop_q, "stop_q"}})
    if (value && !std::isfinite(*value)) throw py::value_error(std::string(name) + ": not finite");
  if (a.q0) o.q0 = *a.q0;
  if (a.qd0) o.qd0 = *a.qd0;
  if (a.stop_q) o.stop_q = *a.stop_q;
  o.current0 = a.current0;
  o.table_tolerance = a.table_tolerance, o.table_points = a.table_points;
  return o;
}

py::tuple simulate(const PlanarModel& model, const SimulateArgs& args) {
  const dynamics::SimulationOptions o = simulation_options(args);
  planar::require_start_assembly(*model.mechanism, model.mechanism->default_grid());
  std::shared_ptr<const dynamics::DynamicSystem> system = model.system();
  // As the command line: Kane's and the full method couple the elastic links unless asked rigid.
  const bool reduced = o.method == dynamics::Method::reduced ||
                       (o.method == dynamics::Method::automatic && model.mechanism->drivers().size() == 1);
  if (!reduced && !args.rigid_links && !model.model.elastic_links.empty()) {
    if (args.elastic_modes < 0) throw py::value_error("elastic_modes: 0 (every dof) or more");
    auto coupled = std::make_shared<dynamics::DynamicSystem>(*system);
    dynamics::couple_elastic_links(*coupled, model.model.elastic_links, args.elastic_modes);
    system = coupled;
  }
  dynamics::SimulationResult r;
  {
    const py::gil_scoped_release release;
    r = dynamics::simulate(*system, o);
  }
  dynamics::throw_if_stopped(r);
  py::dict info(py::arg("t_final") = r.t_final, py::arg("events") = r.events, py::arg("steps") = r.steps,
                py::arg("rhs_evaluations") = r.rhs_evaluations, py::arg("final_state") = r.final_state,
                py::arg("actuator_work") = r.actuator_work, py::arg("load_work") = r.load_work,
                py::arg("friction_loss") = r.friction_loss, py::arg("energy_change") = r.energy_change,
                py::arg("energy_residual") = r.energy_residual, py::arg("friction") = r.friction,
                py::arg("table_points") = r.table_points, py::arg("table_error") = r.table_error,
                py::arg("elastic_damping_loss") = r.elastic_damping_loss, py::arg("geometric_work") = r.geometric_work,
                py::arg("method") = dynamics::method_name(r.method), py::arg("method_note") = r.method_note);
  return result(io::simulation_table(*system, r), info);
}

py::dict steady_regime(const PlanarModel& model, const SimulateArgs& args, std::optional<double> qd_guess) {
  const dynamics::SimulationOptions o = simulation_options(args);
  const planar::Mechanism& m = *model.mechanism;
  planar::require_start_assembly(m, m.default_grid());
  const double guess = qd_guess ? *qd_guess : planar::evaluate(m.drivers()[0].law, o.t0).qd;
  const std::shared_ptr<const dynamics::DynamicSystem> system = model.system();
  dynamics::SteadyRegime s;
  {
    const py::gil_scoped_release release;
    s = dynamics::steady_regime(*system, o, guess);
  }
  return py::dict(py::arg("qd0") = s.qd0, py::arg("current0") = s.current0, py::arg("period") = s.period,
                  py::arg("mean_speed") = s.mean_speed, py::arg("qd_min") = s.qd_min, py::arg("qd_max") = s.qd_max,
                  py::arg("fluctuation") = s.fluctuation, py::arg("actuator_work") = s.actuator_work,
                  py::arg("iterations") = s.iterations);
}

std::vector<flex::ElasticLink> elastic_links(const PlanarModel& model) {
  return flex::require_elastic_links(*model.mechanism, model.model.elastic_links);
}

py::tuple flex_modes(const PlanarModel& model, int steps, int modes, bool gyroscopic, bool friction) {
  if (modes < 1) throw py::value_error("modes: at least 1");
  const planar::Mechanism& m = *model.mechanism;
  const std::vector<flex::ElasticLink> links = elastic_links(model);
  const planar::TimeGrid grid = planar::analysis_grid(m, steps);
  planar::KinetostaticsOptions kinetostatics;
  kinetostatics.friction = friction;
  const flex::CycleOptions cycle{modes, gyroscopic, kinetostatics};
  flex::EigenCycleResult r;
  {
    const py::gil_scoped_release release;
    r = flex::eigen_cycle(m, links, grid, cycle);
  }
  py::list names;
  for (const flex::ElasticLink& l : links) names.append(l.name);
  return result(io::eigen_cycle_table(m, links, r), py::dict(py::arg("links") = names, py::arg("modes") = modes));
}

py::tuple flex_response(const PlanarModel& model, const std::string& link_name, int steps, int substeps, bool from_rest,
                        bool friction) {
  if (substeps < 1) throw py::value_error("substeps: at least 1");
  const planar::Mechanism& m = *model.mechanism;
  const std::vector<flex::ElasticLink> links = elastic_links(model);
  const flex::ElasticLink* link = &links.front();
  if (!link_name.empty()) {
    link = nullptr;
    for (const flex::ElasticLink& l : links)
      if (l.name == link_name) link = &l;
    if (!link) throw py::value_error("link: no elastic link named '" + link_name + "'");
  }
  const planar::TimeGrid grid = planar::analysis_grid(m, steps);
  planar::KinetostaticsOptions kinetostatics;
  kinetostatics.friction = friction;
  const flex::ResponseOptions o{substeps, !from_rest, kinetostatics};
  flex::LinkResponse r;
  {
    const py::gil_scoped_release release;
    r = flex::link_response(m, *link, grid, o);
  }
  return result(io::response_table(m, *link, r),
                py::dict(py::arg("link") = link->name, py::arg("periodicity_error") = r.periodicity_error));
}

/// The files the model was read from (its own, when it has one).
std::vector<std::string> model_inputs(const PlanarModel& model) { return {model.path}; }

void write_report(const PlanarModel& model, const std::string& path, int steps, bool friction,
                  const std::string& dynamics, double t_end, const std::vector<std::pair<std::string, double>>& along,
                  const std::string& method, double rtol) {
  const planar::Mechanism& m = *model.mechanism;
  const planar::TimeGrid grid = planar::analysis_grid(m, steps);
  report::ReportOptions options;
  options.solver.friction = friction;
  // As the command line's --steady, --start-up and --t-end.
  if (dynamics == "steady")
    options.dynamics = report::DynamicsRun::steady;
  else if (dynamics == "start-up")
    options.dynamics = report::DynamicsRun::start_up;
  else if (dynamics != "auto")
    throw InputError(m.spec().where, "dynamics", "'" + dynamics + "' is not a choice", "use auto, steady or start-up");
  options.method = method_of(method);  // as --method and --rtol
  if (!(rtol > 0.0 && rtol < 1.0)) throw py::value_error("rtol: between 0 and 1");
  options.rel_tol = rtol;
  options.start_up_duration = t_end - grid.t0;                                       // NaN unless given
  for (const auto& [point, angle] : along) options.along.push_back({point, angle});  // as --along
  std::string html;
  {
    const py::gil_scoped_release release;
    html = report::planar_report_html(m, model.model.machine, grid, options);
  }
  io::require_not_an_input(path, model_inputs(model), "path");
  io::write_file(path, [&](std::ostream& out) { out << html; });
}

}  // namespace

void bind_planar(py::module_& m) {
  py::class_<PlanarModel>(m, "PlanarModel", "A model file read and compiled (immutable).")
      .def_readonly("path", &PlanarModel::path)
      .def_property_readonly("name", [](const PlanarModel& p) { return p.mechanism->spec().name; })
      .def_property_readonly("dof", [](const PlanarModel& p) { return p.mechanism->dof(); })
      .def_property_readonly("structure", [](const PlanarModel& p) { return p.mechanism->structure_string(); })
      .def_property_readonly("drivers",
                             [](const PlanarModel& p) {
                               std::vector<std::string> names;
                               for (const planar::Driver& d : p.mechanism->drivers()) names.push_back(d.name);
                               return names;
                             })
      .def_property_readonly("bodies",
                             [](const PlanarModel& p) {
                               std::vector<std::string> names;
                               for (size_t b = 1; b < p.mechanism->bodies().size(); ++b)
                                 names.push_back(p.mechanism->bodies()[b].name);
                               return names;
                             })
      .def_property_readonly("actuators", [](const PlanarModel& p) {
        std::vector<std::string> names;
        for (const dynamics::Actuator& a : p.model.machine.actuators) names.push_back(a.name);
        return names;
      });

  m.def(
      "read_model", [](const std::string& path) { return make_model(path, io::read_model(path)); }, py::arg("path"));
  m.def(
      "parse_model",
      [](const std::string& text, const std::string& path) { return make_model(path, io::parse_model(text, path)); },
      py::arg("text"), py::arg("path"));
  m.def("model_file_as_json", &io::model_file_as_json, py::arg("path"));
  m.def("kinematics", &kinematics, py::arg("model"), py::arg("steps"), py::arg("singular_tol"));
  m.def("kinetostatics", &kinetostatics, py::arg("model"), py::arg("steps"), py::arg("friction"), py::arg("tol"),
        py::arg("max_iterations"));
  m.def("reduce", &reduce, py::arg("model"), py::arg("points"));

  py::class_<SimulateArgs>(m, "SimulateArgs")
      .def(py::init<>())
      .def_readwrite("method", &SimulateArgs::method)
      .def_readwrite("integrator", &SimulateArgs::integrator)
      .def_readwrite("t0", &SimulateArgs::t0)
      .def_readwrite("t_end", &SimulateArgs::t_end)
      .def_readwrite("steps", &SimulateArgs::steps)
      .def_readwrite("rtol", &SimulateArgs::rtol)
      .def_readwrite("atol", &SimulateArgs::atol)
      .def_readwrite("friction", &SimulateArgs::friction)
      .def_readwrite("reactions", &SimulateArgs::reactions)
      .def_readwrite("kinematics", &SimulateArgs::kinematics)
      .def_readwrite("rigid_links", &SimulateArgs::rigid_links)
      .def_readwrite("elastic_modes", &SimulateArgs::elastic_modes)
      .def_readwrite("q0", &SimulateArgs::q0)
      .def_readwrite("qd0", &SimulateArgs::qd0)
      .def_readwrite("current0", &SimulateArgs::current0)
      .def_readwrite("table_tolerance", &SimulateArgs::table_tolerance)
      .def_readwrite("table_points", &SimulateArgs::table_points)
      .def_readwrite("stop_q", &SimulateArgs::stop_q);
  m.def("simulate", &simulate, py::arg("model"), py::arg("args"));
  m.def("steady_regime", &steady_regime, py::arg("model"), py::arg("args"), py::arg("qd_guess"));
  m.def("flex_modes", &flex_modes, py::arg("model"), py::arg("steps"), py::arg("modes"), py::arg("gyroscopic"),
        py::arg("friction"));
  m.def("flex_response", &flex_response, py::arg("model"), py::arg("link"), py::arg("steps"), py::arg("substeps"),
        py::arg("from_rest"), py::arg("friction"));
  m.def("report", &write_report, py::arg("model"), py::arg("path"), py::arg("steps"), py::arg("friction"),
        py::arg("dynamics"), py::arg("t_end"), py::arg("along"), py::arg("method"), py::arg("rtol"));
}

}  // namespace linkdyn::python
