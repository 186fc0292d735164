// The simulation of a machine: the run from t0 to t_end, step by step on locked branches, with
// its rows at the output times and its events (friction reversals, sticking and breaking away,
// conditional torques, motors turning brakes) located within the steps.
#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "dynamics/cam_contacts.hpp"
#include "dynamics/simulation_rows.hpp"
#include "dynamics/stick_slip.hpp"
#include "linkdyn/core/interrupt.hpp"
#include "linkdyn/dynamics/reduced_model.hpp"

namespace linkdyn::dynamics {

using planar::Mechanism;
using planar::Workspace;

namespace {

/// InputError unless the options describe a run the system can take.
void check_options(const DynamicSystem& system, const SimulationOptions& o, const StateLayout& L) {
  const Mechanism& m = *system.mechanism;
  if (!m.cam_pairs().empty() && o.method == Method::reduced) {
    const planar::Joint& cam = m.joints()[static_cast<size_t>(m.cam_pairs().front())];
    throw InputError(cam.where, "cam pair '" + cam.name + "'",
                     "the reduced method cannot tabulate a cam machine (its reduced inertia's slope has a kink at "
                     "each end of a program's segment, where the jerk jumps)",
                     "use --method kane or full (or auto)");
  }
  if (L.elastic > 0 && o.method == Method::reduced)
    throw InputError(system.elastic.front().where, "elastic link '" + system.elastic.front().name + "'",
                     "is coupled with the motion, which the reduced (one-coordinate) method cannot integrate",
                     "use --method kane or full, or treat the links as rigid (--rigid-links)");
  if (!(o.t_end > o.t0) || o.steps < 1)
    throw InputError(m.spec().where, "simulation",
                     fmt::format("the time span [{:g}, {:g}] s with {} rows is empty", o.t0, o.t_end, o.steps),
                     "give an end time after the start and at least one step");
  if (!(o.rel_tol > 0.0 && o.rel_tol < 1.0) || !(o.abs_tol > 0.0))
    throw InputError(m.spec().where, "simulation",
                     fmt::format("the tolerances rtol = {:g}, atol = {:g} are not in range", o.rel_tol, o.abs_tol),
                     "give 0 < rtol < 1 and atol > 0 (e.g. rtol 1e-10, atol 1e-12)");
  if (!(o.table_tolerance >= 0.0) || o.table_points < 0 || o.table_points > 10000000)
    throw InputError(m.spec().where, "simulation",
                     fmt::format("the reduced table's tolerance {:g} or its {} points are out of range",
                                 o.table_tolerance, o.table_points),
                     "give a tolerance >= 0 and 0 to 10^7 points (0: refined to the tolerance)");
  if (o.current0.size() > L.motors || (!o.actuator_scale.empty() && o.actuator_scale.size() != L.actuators))
    throw InputError(m.spec().where, "simulation",
                     fmt::format("{} initial currents for {} DC motors, {} actuator scales for {} actuators",
                                 o.current0.size(), L.motors, o.actuator_scale.size(), L.actuators),
                     "give at most one current per motor and one scale per actuator (or none)");
}

/// The state at t0: the drivers' laws (q0 / qd0 override the first coordinate), the currents
/// given, everything else 0.
State initial_state(const DynamicSystem& system, const SimulationOptions& o, const StateLayout& L) {
  const Mechanism& m = *system.mechanism;
  State y(L.size(), 0.0);
  for (size_t i = 0; i < L.n; ++i) {
    const planar::MotionSample start = planar::evaluate(m.drivers()[i].law, o.t0);
    y[i] = start.q, y[L.n + i] = start.qd;
  }
  if (std::isfinite(o.q0)) y[0] = o.q0;
  if (std::isfinite(o.qd0)) y[L.n] = o.qd0;
  for (size_t k = 0; k < L.motors && k < o.current0.size(); ++k) y[L.current() + k] = o.current0[k];
  return y;
}

std::unique_ptr<Evaluator> make_evaluator(const DynamicSystem& system, const SimulationOptions& o, const State& y) {
  switch (o.method) {
    case Method::reduced: return make_reduced_evaluator(system, o);
    case Method::full: return make_full_evaluator(system, o, y.data());
    case Method::kane:
    case Method::automatic: break;  // resolved before
  }
  return make_kane_evaluator(system, o, y.data());
}

/// t and the drivers' values, for a stop's message.
std::string where_text(const Mechanism& m, double t, const State& y) {
  std::string out = fmt::format("t = {:.9g} s", t);
  for (size_t d = 0; d < m.drivers().size(); ++d) {
    const planar::Driver& drv = m.drivers()[d];
    out += drv.type == planar::DriverType::rotational
               ? fmt::format(", {} = {:.6g} rad ({:.4f} deg)", drv.name, y[d], y[d] * 180.0 / M_PI)
               : fmt::format(", {} = {:.6g} m", drv.name, y[d]);
  }
  return out;
}

/// The run: steps under error control on locked branches; within each step the rows at the
/// output times and the first switching function to change sign (or the stop at q), located;
/// at an event the branches switch and the integration restarts there.
class Run {
 public:
  Run(const DynamicSystem& system, const SimulationOptions& o, const StateLayout& L, Evaluator& eval,
      SimulationResult& result)
      : sys_(system),
        o_(o),
        L_(L),
        eval_(eval),
        result_(result),
        rows_(system, o, L, result),
        switches_(system, o, eval, L),
        span_(o.t_end - o.t0),
        step_budget_(o.max_integrator_steps > 0 ? o.max_integrator_steps : 100'000 + 100L * o.steps),
        stop_at_q_(std::isfinite(o.stop_q)),
        t_(o.t0) {
    e_.size_for(system, L.elastic);
    f_ = [this](const State& x, State& dx, double t) {
      eval_.evaluate(t, x.data(), switches_.branches, e_);
      L_.rates(x, e_, switches_.branches.stuck, dx);
    };
    dy_.resize(L.size()), row_state_.resize(L.size()), y_event_.resize(L.size()), start_.resize(L.size());
    // Steps no longer than the rows' spacing: a switching function that changes sign twice
    // within a step would go unseen.
    stepper_ = Stepper::make(o.integrator, o.abs_tol, o.rel_tol, span_ / o.steps);
    // The functions whose sign changes are located, made once: function `located_`, its locked
    // sign taken as positive, and the distance to the stop at q.
    switching_function_ = [this](double s) {
      stepper_->state_at(f_, s, row_state_);
      switches_.values(s, row_state_, g_probe_);
      return g_probe_[located_] * located_sign_;
    };
    distance_to_stop_ = [this](double s) {
      stepper_->state_at(f_, s, row_state_);
      return row_state_[0] - o_.stop_q;
    };
    distance_to_end_ = [this](double s) {
      stepper_->state_at(f_, s, row_state_);
      const EndStop& e = end_stops_[located_end_];
      return e.sign * (row_state_[e.index] - e.limit);
    };
    least_contact_ = [this](double s) {
      stepper_->state_at(f_, s, row_state_);
      return contact_at(s, row_state_).first;
    };
  }
  Run(const Run&) = delete;
  Run& operator=(const Run&) = delete;

  /// InputError, before the run, when the step budget cannot hold it: the start's speed needs more
  /// steps (about 16 per turn), or a load table has more rows (each crossed is a step).
  void check_budget(const State& y);
  /// The branches at the start (a one-DOF machine at rest sticks or starts), its row.
  void start(State& y);
  /// Steps to t_end, or to the stop at q.
  void integrate();
  /// A run that cannot go on: what stopped it, the totals where it stopped.
  void stop(int exit_code, const std::string& message);
  /// t and the drivers' values where the run is.
  [[nodiscard]] std::string where() const { return where_text(*sys_.mechanism, t_, state()); }
  /// The rows kept (or handed over as the last chunk).
  void finish_rows() { rows_.finish(); }

 private:
  /// The first function to leave its branch within [ta, tb], or the stop at q (function -1).
  struct Event {
    double t;
    int function = -1;
    bool stop_at_q = false;
    int end_stop = -1;    ///< a cylinder reached the end of its stroke (end_stops_)
    int separation = -1;  ///< a cam's follower leaves it: the cam pair's joint
  };
  /// A cylinder's end of stroke: the run stops where sign (q_index - limit) turns negative.
  struct EndStop {
    size_t index;
    double limit, sign;
    std::string what;
  };
  [[nodiscard]] static std::vector<EndStop> end_stops(const planar::Mechanism& m) {
    std::vector<EndStop> out;
    for (const planar::Cylinder& c : m.cylinders()) {
      if (c.driver < 0 || !(c.stroke_max > 0.0)) continue;
      const auto d = static_cast<size_t>(c.driver);
      out.push_back(
          {d, c.stroke_min, 1.0, fmt::format("cylinder '{}' is fully retracted ({:g} m)", c.name, c.stroke_min)});
      out.push_back(
          {d, c.stroke_max, -1.0, fmt::format("cylinder '{}' is fully extended ({:g} m)", c.name, c.stroke_max)});
    }
    return out;
  }
  [[nodiscard]] double out_time(int k) const { return k == o_.steps ? o_.t_end : o_.t0 + span_ * k / o_.steps; }
  /// The state where the run is: the start's until the integrator starts from it.
  [[nodiscard]] const State& state() const { return at_start_ ? *at_start_ : stepper_->state(); }
  void emit(double t, const State& x) {
    f_(x, dy_, t);
    rows_.write(t, x, e_, switches_.branches);
  }
  /// The least contact force of the cam pairs at (t, x) and its joint (an evaluation at x).
  std::pair<double, size_t> contact_at(double t, const State& x) {
    f_(x, dy_, t);
    return contacts_.least(t, x, e_, switches_.branches);
  }
  /// Exit 3 at (t, x): the follower of cam pair `joint` leaves its cam.
  void stop_at_separation(double t, const State& x, size_t joint);
  /// One step; AnalysisError beyond the budget.
  std::pair<double, double> step();
  /// Functions that had no sign yet (at rest, or a speed exactly zero) take the sign the step
  /// found, and the step is to be redone on that branch: true.
  bool redo_on_new_branches(double ta, double tb);
  /// A cam machine's step that turned a cam farther than CamContacts::turn_per_step (its speed
  /// the larger at the step's ends) is redone shorter: true. Else the contact force at tb is
  /// kept for first_event.
  bool redo_shorter_for_cams(double ta, double tb);
  Event first_event(double ta, double tb);
  /// The rows at the output times up to t.
  void write_rows_to(double t);
  /// The state at the event's time t, checked; the run reaches t.
  void reach(double t);
  /// Function `which` changed sign: the branches switch, the integration restarts.
  void switch_branches(int which);

  const DynamicSystem& sys_;
  const SimulationOptions& o_;
  const StateLayout& L_;
  Evaluator& eval_;
  SimulationResult& result_;
  RowWriter rows_;
  Switches switches_;
  Evaluation e_;
  Stepper::System f_;
  std::unique_ptr<Stepper> stepper_;
  std::function<double(double)> switching_function_, distance_to_stop_, distance_to_end_, least_contact_;
  const double span_;
  const long step_budget_;
  const std::vector<EndStop> end_stops_ = end_stops(*sys_.mechanism);
  size_t located_end_ = 0;
  double contact_end_ = 0.0;  ///< the least contact force at the last step's end
  int cam_redos_ = 0;
  CamContacts contacts_{sys_, L_};
  long switching_events_ = 0;  ///< the events that are not a table's rows
  const bool stop_at_q_;
  double stop_dir_ = 1.0;
  double speed_ = 0.0;
  double t_;
  int next_ = 0, probes_ = 0;
  size_t located_ = 0;
  double located_sign_ = 1.0;
  const State* at_start_ = nullptr;
  State dy_, row_state_, y_event_, start_;
  std::vector<double> g_end_, g_probe_;
};

void Run::check_budget(const State& y) {
  stop_dir_ = stop_at_q_ && o_.stop_q < y[0] ? -1.0 : 1.0;
  for (const EndStop& e : end_stops_)
    if (e.sign * (y[e.index] - e.limit) < 0.0)
      throw InputError(sys_.mechanism->drivers()[e.index].where, "the start",
                       fmt::format("{} = {:.9g} m is beyond the stroke: {}", sys_.mechanism->drivers()[e.index].name,
                                   y[e.index], e.what),
                       "start within the cylinder's limits (--q0, or the law's start)");
  result_.qd_min = result_.qd_max = y[L_.n];
  for (size_t i = 0; i < L_.n; ++i) speed_ = std::max(speed_, std::abs(y[L_.n + i]));
  if (const double needed = 16.0 * speed_ * span_ / (2.0 * M_PI); needed > static_cast<double>(step_budget_))
    throw InputError({}, "the start",
                     fmt::format("a speed of {:.3g} over {:.3g} s needs about {:.3g} integrator steps (16 per turn), "
                                 "more than the budget of {}",
                                 speed_, span_, needed, step_budget_),
                     "check the speeds and the time span, or raise --max-integrator-steps");
  for (const planar::Load& load : sys_.mechanism->spec().loads)
    if (load.table && static_cast<long>(load.table->x.size()) > step_budget_)
      throw InputError(load.table->where, "table " + load.table->file,
                       fmt::format("{} rows, each an event the integrator stops at when the run crosses it: more "
                                   "than the budget of {} integrator steps",
                                   load.table->x.size(), step_budget_),
                       "thin the table, or raise --max-integrator-steps");
}

void Run::start(State& y) {
  at_start_ = &y;
  switches_.lock(t_, y);
  if (switches_.one_dof_stick() && y[1] == 0.0) switches_.stop_or_start(t_, y);
  switches_.hold_at_start(t_, y);
  // A first step that turns the coordinates by about 1e-3 (the controller adapts it).
  stepper_->initialize(y, t_, std::min(span_ / o_.steps / 10.0, 1e-3 / (1.0 + speed_)));
  at_start_ = nullptr;
  emit(t_, y);
  ++next_;
  if (contacts_.empty()) return;
  if (const auto [force, joint] = contact_at(t_, y); force < 0.0) stop_at_separation(t_, y, joint);
}

void Run::integrate() {
  while (next_ <= o_.steps && !result_.stopped) {
    throw_if_stop_requested();
    std::copy(stepper_->state().begin(), stepper_->state().end(), start_.begin());  // to redo a probe step
    const auto [ta, tb] = step();
    if (redo_on_new_branches(ta, tb) || redo_shorter_for_cams(ta, tb)) continue;
    const Event event = first_event(ta, tb);
    write_rows_to(event.t);
    reach(event.t);
    if (event.stop_at_q) {
      emit(t_, y_event_);
      rows_.totals(t_, y_event_);
      return;
    }
    if (event.end_stop >= 0) {  // exit 3 with the rows up to the end of the stroke
      emit(t_, y_event_);
      result_.stopped = true;
      result_.stop_exit_code = AnalysisError::exit_code;
      result_.stop_message = fmt::format("the simulation stops at {}: {}", where_text(*sys_.mechanism, t_, y_event_),
                                         end_stops_[static_cast<size_t>(event.end_stop)].what);
      rows_.totals(t_, y_event_);
      return;
    }
    if (event.separation >= 0) {
      emit(t_, y_event_);
      stop_at_separation(t_, y_event_, static_cast<size_t>(event.separation));
      return;
    }
    if (event.function >= 0) switch_branches(event.function);
  }
  if (result_.stopped) return;
  if (stop_at_q_)
    throw AnalysisError(fmt::format("q did not reach {:.9g} by t = {:.9g} s (the machine stalls or runs backwards)",
                                    o_.stop_q, o_.t_end));
  stepper_->state_at(f_, o_.t_end, row_state_);
  rows_.totals(o_.t_end, row_state_);
}

void Run::stop_at_separation(double t, const State& x, size_t joint) {
  const auto [force, _] = contact_at(t, x);
  result_.stopped = true;
  result_.stop_exit_code = AnalysisError::exit_code;
  result_.stop_message = fmt::format(
      "the simulation stops at {}: the follower of cam '{}' leaves the cam (its contact force {} negative: "
      "it would jump); a stiffer or more preloaded spring, or a lower speed, keeps it on the cam",
      where_text(*sys_.mechanism, t, x), sys_.mechanism->joints()[joint].name,
      force < -1e-6 ? fmt::format("is {:.6g} N,", force) : std::string("turns"));
  rows_.totals(t, x);
}

void Run::stop(int exit_code, const std::string& message) {
  result_.stopped = true;
  result_.stop_exit_code = exit_code;
  result_.stop_message = message;
  rows_.totals(t_, state());
}

std::pair<double, double> Run::step() {
  const std::pair<double, double> interval = stepper_->step(f_);
  if (++result_.steps > step_budget_)
    throw AnalysisError(fmt::format(
        "more than {} integrator steps by t = {:.9g} s: the motion needs steps far shorter than expected (a stiff "
        "spring or motor, or friction that switches back and forth); lower the stiffness, loosen --rtol, or raise "
        "--max-integrator-steps",
        step_budget_, interval.second));
  return interval;
}

bool Run::redo_shorter_for_cams(double ta, double tb) {
  if (contacts_.empty()) return false;
  const double speed_a = contacts_.cam_speed();  // at ta: the last evaluation was there
  contact_end_ = contact_at(tb, stepper_->state()).first;
  const double speed = std::max(speed_a, contacts_.cam_speed()), limit = contacts_.turn_per_step();
  if (speed * (tb - ta) <= limit || cam_redos_++ >= 100) {
    cam_redos_ = 0;
    return false;
  }
  stepper_->initialize(start_, ta, 0.9 * limit / speed);
  (void)contact_at(ta, start_);  // the speed at ta again, for the redone step
  return true;
}

bool Run::redo_on_new_branches(double ta, double tb) {
  switches_.values(tb, stepper_->state(), g_end_);
  bool unlocked = false;
  for (size_t k = 0; k < g_end_.size(); ++k)
    if (switches_.locked(k) == 0.0 && g_end_[k] != 0.0 && !(switches_.branches.stuck && k < L_.elements))
      unlocked = true;
  if (unlocked && probes_++ < 100) {
    switches_.lock(tb, stepper_->state(), true);
    stepper_->initialize(start_, ta, tb - ta);
    return true;
  }
  probes_ = 0;
  return false;
}

Run::Event Run::first_event(double ta, double tb) {
  Event event{tb};
  for (size_t k = 0; k < g_end_.size(); ++k) {
    const double locked = switches_.locked(k);
    if (locked == 0.0 || sign(g_end_[k]) == 0.0 || sign(g_end_[k]) == locked) continue;
    located_ = k, located_sign_ = locked;
    const double tk = locate_sign_change(ta, tb, switching_function_);
    if (tk <= event.t) event.t = tk, event.function = static_cast<int>(k);
  }
  // The stop at q, on the same footing.
  if (stop_at_q_ && stop_dir_ * (stepper_->state()[0] - o_.stop_q) >= 0.0) {
    const double ts = locate_sign_change(ta, tb, distance_to_stop_);
    if (ts <= event.t) event = {ts, -1, true};
  }
  // A cylinder's end of stroke: the run stops there.
  for (size_t k = 0; k < end_stops_.size(); ++k) {
    const EndStop& e = end_stops_[k];
    if (e.sign * (stepper_->state()[e.index] - e.limit) >= 0.0) continue;
    located_end_ = k;
    const double ts = locate_sign_change(ta, tb, distance_to_end_);
    if (ts <= event.t) event = {ts, -1, false, static_cast<int>(k)};
  }
  // A cam's contact force turning negative: the follower leaves the cam, the run stops there.
  if (!contacts_.empty()) {
    if (contact_end_ < 0.0) {
      const double ts = locate_sign_change(ta, tb, least_contact_);
      if (ts <= event.t) {
        stepper_->state_at(f_, ts, row_state_);
        event = {ts, -1, false, -1, static_cast<int>(contact_at(ts, row_state_).second)};
      }
    }
  }
  return event;
}

void Run::write_rows_to(double t) {
  while (next_ <= o_.steps && out_time(next_) <= t + 1e-14 * (1.0 + std::abs(t))) {
    stepper_->state_at(f_, std::min(out_time(next_), t), row_state_);
    emit(out_time(next_), row_state_);
    ++next_;
  }
}

void Run::reach(double t) {
  stepper_->state_at(f_, t, y_event_);
  eval_.check(y_event_.data());
  for (size_t l = 0; l < sys_.elastic.size(); ++l)
    if (const std::string problem = flex::deflection_problem(sys_.elastic[l], L_.eta_of(y_event_, l, false));
        !problem.empty())
      throw AnalysisError(problem);
  result_.qd_min = std::min(result_.qd_min, y_event_[L_.n]), result_.qd_max = std::max(result_.qd_max, y_event_[L_.n]);
  t_ = t;
  if (o_.progress) o_.progress(t_);
}

void Run::switch_branches(int which) {
  // A friction direction reverses, a machine stops (and sticks or turns back), a stuck machine
  // breaks away, a condition or a motor's power changes sign.
  ++result_.events;
  // A table's row crossed is no switch: one step each, it is held to the step budget instead.
  if (!switches_.table_row(static_cast<size_t>(which)) && ++switching_events_ > o_.max_events)
    throw AnalysisError(
        fmt::format("more than {} switching events by t = {:.9g} s: the model chatters (an element that "
                    "should stick in a machine of several DOF?)",
                    o_.max_events, t_));
  double restart_step = stepper_->step_size();
  if (switches_.one_dof_stick() && static_cast<size_t>(which) == switches_.machine_function()) {
    if (switches_.branches.stuck)
      switches_.break_away(t_, y_event_);
    else
      switches_.stop_or_start(t_, y_event_);
    restart_step = std::min(restart_step, span_ / o_.steps / 10.0);  // the motion changes its kind
  } else {
    switches_.element_event(t_, y_event_, static_cast<size_t>(which));
    switches_.lock(t_, y_event_, false, which);
  }
  stepper_->initialize(y_event_, t_, restart_step);
}

}  // namespace

Method resolve_method(const DynamicSystem& system, const SimulationOptions& o, std::string& note) {
  note.clear();
  if (o.method != Method::automatic) return o.method;
  if (system.mechanism->drivers().size() != 1 || !system.elastic.empty()) return Method::kane;
  if (!system.mechanism->cam_pairs().empty()) {
    note = "Kane's method: the reduced method cannot tabulate a cam machine";
    return Method::kane;
  }
  try {
    (void)make_reduced_evaluator(system, o);  // builds the tables (cached in the system)
    return Method::reduced;
  } catch (const TabulationError& error) {
    note = fmt::format("Kane's method, since the reduced method cannot tabulate this machine: {}", error.what());
    return Method::kane;
  }
}

const char* method_name(Method method) {
  switch (method) {
    case Method::reduced: return "reduced";
    case Method::full: return "full";
    case Method::kane: return "kane";
    case Method::automatic: break;
  }
  return "auto";
}

Method method_named(const std::string& name) {
  for (const Method m : {Method::reduced, Method::full, Method::kane, Method::automatic})
    if (name == method_name(m)) return m;
  throw InputError({}, "method '" + name + "'", "is not a simulation method", "give reduced, full, kane or auto");
}

SimulationResult simulate(const DynamicSystem& system, const SimulationOptions& options) {
  const StateLayout L(system);
  check_options(system, options, L);
  SimulationResult result;
  SimulationOptions o = options;
  o.method = result.method = resolve_method(system, options, result.method_note);
  State y = initial_state(system, o, L);
  const std::unique_ptr<Evaluator> eval = make_evaluator(system, o, y);
  eval->report(result);
  result.friction = o.friction && !system.mechanism->bearings().empty();
  Run run(system, o, L, *eval, result);
  run.check_budget(y);
  try {
    run.start(y);
    run.integrate();
  } catch (const AnalysisError& error) {
    run.stop(AnalysisError::exit_code, fmt::format("the simulation stops at {}: {}", run.where(), error.what()));
  } catch (const Interrupted&) {
    run.stop(Interrupted::exit_code, fmt::format("the simulation stopped at {}", run.where()));
  } catch (const InputError& error) {
    run.stop(InputError::exit_code, fmt::format("the simulation stops at {}: {}", run.where(), error.what()));
  }
  run.finish_rows();
  result.rhs_evaluations = static_cast<int>(eval->evaluations);
  return result;
}

void throw_if_stopped(const SimulationResult& r) {
  if (!r.stopped) return;
  if (r.stop_exit_code == InputError::exit_code) throw InputError({}, "", r.stop_message, "");
  if (r.stop_exit_code == Interrupted::exit_code) throw Interrupted(r.stop_message);
  throw AnalysisError(r.stop_message);
}

double kinetic_energy(const DynamicSystem& system, double q, double qd) {
  return kinetic_energy(system, std::vector<double>{q}, std::vector<double>{qd});
}

double kinetic_energy(const DynamicSystem& system, const std::vector<double>& q, const std::vector<double>& qd) {
  const Mechanism& m = *system.mechanism;
  Workspace ws(m);
  ws.q = q;
  ws.qd = qd;
  if (!planar::solve_positions(m, ws).ok() || !planar::solve_velocities(m, ws).ok())
    throw AnalysisError(fmt::format("no kinetic energy at q = {:.9g}: the mechanism does not assemble", q[0]));
  return kinetic_energy(m, ws);
}

}  // namespace linkdyn::dynamics
