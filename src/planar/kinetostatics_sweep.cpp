// Kinetostatics over a sweep: the efforts, reactions, friction power and efficiency at every
// position, and the cycle summary; the names of the reaction columns.
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>

#include "linkdyn/planar/constraints.hpp"
#include "linkdyn/planar/kinetostatics.hpp"

namespace linkdyn::planar {

void add_reaction_columns(const Joint& j, Table& table) {
  if (j.is<GearPair>()) {
    table.add_column(j.name + ".torque", "N m");
    return;
  }
  table.add_column(j.name + ".Fx", "N");
  table.add_column(j.name + ".Fy", "N");
  table.add_column(j.name + ".F", "N");
  if (j.is<PrismaticPair>()) {
    table.add_column(j.name + ".N", "N");
    table.add_column(j.name + ".M", "N m");
  } else if (j.is<CamPair>()) {
    table.add_column(j.name + ".N", "N");
  }
}

void add_pin_reaction_columns(const Mechanism& m, const CompoundPin& pin, Table& table) {
  for (int b : pin.bodies) {
    const std::string prefix = pin.name + "." + m.bodies()[b].name;
    table.add_column(prefix + ".Fx", "N");
    table.add_column(prefix + ".Fy", "N");
    table.add_column(prefix + ".F", "N");
  }
}

JointReaction PairReactions::reaction(Eigen::Index row, size_t pair) const {
  const auto c = static_cast<Eigen::Index>(pair);
  JointReaction r;
  r.force = Vec2(force_x(row, c), force_y(row, c));
  r.moment = moment(row, c), r.normal = normal(row, c);
  return r;
}

Vec2 PairReactions::pin_force(Eigen::Index row, size_t pin, Eigen::Index member) const {
  return {pin_force_x[pin](row, member), pin_force_y[pin](row, member)};
}

void allocate_rows(const Mechanism& m, Eigen::Index rows, PairReactions& r) {
  for (Eigen::MatrixXd* per_pair : {&r.force_x, &r.force_y, &r.moment, &r.normal})
    per_pair->resize(rows, static_cast<Eigen::Index>(m.joints().size()));
  r.pin_force_x.clear(), r.pin_force_y.clear();
  for (const CompoundPin& pin : m.pins()) {
    r.pin_force_x.emplace_back(rows, static_cast<Eigen::Index>(pin.bodies.size()));
    r.pin_force_y.emplace_back(rows, static_cast<Eigen::Index>(pin.bodies.size()));
  }
}

void record_row(const Mechanism& m, const Workspace& ws, Eigen::Index row, bool valid, PairReactions& r) {
  const auto kept = [valid](double value) { return valid ? value : Table::missing; };
  for (size_t k = 0; k < m.joints().size(); ++k) {
    const JointReaction& reaction = ws.reaction[k];
    const auto c = static_cast<Eigen::Index>(k);
    r.force_x(row, c) = kept(reaction.force.x()), r.force_y(row, c) = kept(reaction.force.y());
    r.moment(row, c) = kept(reaction.moment), r.normal(row, c) = kept(reaction.normal);
  }
  for (size_t p = 0; p < m.pins().size(); ++p)
    for (Eigen::Index k = 0; k < r.pin_force_x[p].cols(); ++k) {
      const Vec2 F = planar::pin_force(m, ws, static_cast<int>(p), static_cast<int>(k));
      r.pin_force_x[p](row, k) = kept(F.x()), r.pin_force_y[p](row, k) = kept(F.y());
    }
}

void keep_rows(Eigen::Index rows, PairReactions& r) {
  for (Eigen::MatrixXd* per_pair : {&r.force_x, &r.force_y, &r.moment, &r.normal})
    per_pair->conservativeResize(rows, Eigen::NoChange);
  for (auto* per_pin : {&r.pin_force_x, &r.pin_force_y})
    for (Eigen::MatrixXd& matrix : *per_pin) matrix.conservativeResize(rows, Eigen::NoChange);
}

namespace {
/// Room for `rows` rows of kinetostatics in res.
void allocate_rows(const Mechanism& m, Eigen::Index rows, KinetostaticsResult& res) {
  const auto nd = static_cast<Eigen::Index>(m.drivers().size());
  res.t.resize(rows);
  for (Eigen::MatrixXd* per_driver : {&res.q, &res.effort, &res.effort_frictionless}) per_driver->resize(rows, nd);
  allocate_rows(m, rows, res.reactions);
  res.friction_power.resize(rows, static_cast<Eigen::Index>(m.joints().size()));
  res.pin_friction_power.resize(rows, static_cast<Eigen::Index>(m.pins().size()));
  for (Eigen::VectorXd* per_row : {&res.total_friction_power, &res.driver_power, &res.efficiency})
    per_row->resize(rows);
  res.iterations.resize(rows);
  res.self_locking.clear(), res.limit.clear();
  res.self_locking.reserve(static_cast<size_t>(rows));
  res.limit.reserve(static_cast<size_t>(rows));
}

/// Keeps the first `rows` rows of res.
void keep_rows(Eigen::Index rows, KinetostaticsResult& res) {
  res.t.conservativeResize(rows);
  for (Eigen::MatrixXd* matrix :
       {&res.q, &res.effort, &res.effort_frictionless, &res.friction_power, &res.pin_friction_power})
    matrix->conservativeResize(rows, Eigen::NoChange);
  keep_rows(rows, res.reactions);
  for (Eigen::VectorXd* vector : {&res.total_friction_power, &res.driver_power, &res.efficiency})
    vector->conservativeResize(rows);
  res.iterations.conservativeResize(rows);
}
}  // namespace

KinetostaticsResult kinetostatics(const Mechanism& m, const TimeGrid& grid, const KinetostaticsOptions& options) {
  KinetostaticsResult all;
  KinetostaticsSummary summary =
      kinetostatics(m, grid, options, grid.steps + 1, [&](KinetostaticsResult& chunk) { all = std::move(chunk); });
  all.summary = std::move(summary);
  return all;
}

namespace {

/// The least closing force of each cam's spring (CamClosing) from this row: the contact forces
/// first, then per spring the reactions again with more of its force, dF = 1 + |N| (with the
/// friction's successive approximations: the contact's own friction grows with N), so
/// dN/dF = (N(F + dF) - N) / dF (the walks change ws.reaction: this comes last in a row). A rate
/// below 1e-9 (rounding: the spring does not reach the follower) closes nothing.
void update_closing(const Mechanism& m, Workspace& ws, double t, const KinetostaticsOptions& options,
                    std::vector<double>& normals, std::vector<CamClosing>& closing) {
  for (size_t c = 0; c < closing.size(); ++c) normals[c] = ws.reaction[static_cast<size_t>(m.cam_pairs()[c])].normal;
  for (size_t c = 0; c < closing.size(); ++c) {
    CamClosing& cc = closing[c];
    if (cc.spring < 0 || !cc.closes) continue;
    const int joint = m.cam_pairs()[c];
    const Joint& j = m.joints()[static_cast<size_t>(joint)];
    const Load& spring = m.spec().loads[static_cast<size_t>(cc.spring)];
    const LoadPart& part = spring.parts.front();  // its stiffness: k (L - L0) or -k (dtheta - theta0)
    const double force = part_magnitude(m, ws, spring, part, t);
    int body[2];
    Wrench unit[2];
    part_pattern(m, ws, part, body, unit);
    const double more = 1.0 + std::abs(normals[c]);
    for (int k = 0; k < 2; ++k) ws.applied[body[k]] += more * unit[k];
    solve_reactions(m, ws);
    (void)solve_friction(m, ws, options);
    for (int k = 0; k < 2; ++k) ws.applied[body[k]] -= more * unit[k];
    const double rate = (ws.reaction[static_cast<size_t>(joint)].normal - normals[c]) / more;
    const int sense = rate > 1e-9 ? 1 : (rate < -1e-9 ? -1 : 0);
    if (sense == 0 || (cc.sense != 0 && sense != cc.sense)) {
      cc.closes = false;
      continue;
    }
    cc.sense = sense;
    if (const double extra = -normals[c] / std::abs(rate); extra > cc.extra) cc.extra = extra, cc.extra_t = t;
    const double lift = j.as<CamPair>().program.at(cam_program_angle(j, ws)).s;
    if (lift < cc.base_lift - 1e-12 * (1.0 + std::abs(lift))) cc.base_lift = lift, cc.base_force = sense * force;
  }
}

}  // namespace

KinetostaticsSummary kinetostatics(const Mechanism& m, const TimeGrid& grid, const KinetostaticsOptions& options,
                                   Eigen::Index chunk_rows, const std::function<void(KinetostaticsResult&)>& on_chunk) {
  KinetostaticsResult res;
  const Eigen::Index capacity = std::clamp<Eigen::Index>(chunk_rows, 1, grid.steps + 1),
                     nd = static_cast<Eigen::Index>(m.drivers().size());
  allocate_rows(m, capacity, res);
  Eigen::Index row = 0;

  KinetostaticsSummary sum;
  const size_t n_joints = m.joints().size();
  sum.friction_energy.assign(n_joints, 0.0);
  const size_t n_loads = m.spec().loads.size();
  sum.load_activity.assign(n_loads, 0.0);
  std::vector<double> activity(n_loads), activity_prev(n_loads);
  sum.max_reaction.assign(n_joints, 0.0);
  sum.max_reaction_t.assign(n_joints, grid.t0);
  sum.least_contact.assign(n_joints, std::numeric_limits<double>::infinity());
  sum.least_contact_t.assign(n_joints, grid.t0);
  sum.closing.resize(m.cam_pairs().size());
  for (size_t c = 0; c < m.cam_pairs().size(); ++c)
    sum.closing[c].spring = m.joints()[static_cast<size_t>(m.cam_pairs()[c])].as<CamPair>().closing_spring;
  std::vector<double> contact_normals(m.cam_pairs().size());
  const size_t n_pins = m.pins().size();
  sum.pin_friction_energy.assign(n_pins, 0.0);
  sum.pin_max_force.assign(n_pins, 0.0);
  sum.pin_max_force_t.assign(n_pins, grid.t0);
  std::vector<double> pin_friction(n_pins), pin_friction_prev(n_pins);
  sum.has_useful_loads =
      std::any_of(m.spec().loads.begin(), m.spec().loads.end(), [](const Load& l) { return l.useful; });
  std::vector<double> friction(n_joints), friction_prev(n_joints);
  sum.effort.assign(static_cast<size_t>(nd), {0.0, grid.t0, 0.0});
  sum.effort_frictionless = sum.effort;
  // Per driver: the effort with friction and without, at this row and the previous one.
  std::vector<double> effort(static_cast<size_t>(nd)), effort_prev(effort), frictionless(effort),
      frictionless_prev(effort);
  Workspace ws(m);
  bool have_prev = false;
  double t_prev = 0, p_drive_prev = 0, p_useful_prev = 0, p_friction_prev = 0;
  long total_iterations = 0;

  SingularLimit limits(m);
  sum.sweep = sweep_kinematics(
      m, ws, grid,
      [&](int, double t, StepStatus step) {
        KinetostaticsStatus status;
        if (step == StepStatus::ok) {
          status = solve_kinetostatics(m, ws, t, options);
        } else if (step != StepStatus::limit || !solve_kinetostatics_as_limits(m, ws, t, options, limits, status)) {
          if (step == StepStatus::limit) sum.unbounded_t.push_back(t);
          have_prev = false;  // no integration across a gap or a dead point
          return;
        }
        // Near self-locking the reactions with friction are not defined: their values are NaN.
        const bool valid = !status.self_locking;
        const auto kept = [valid](double value) { return valid ? value : Table::missing; };
        if (row == res.rows()) {  // a full chunk: handed over, then its room reused
          on_chunk(res);
          if (res.rows() != capacity) allocate_rows(m, capacity, res);
          res.self_locking.clear(), res.limit.clear();
          row = 0;
        }
        res.t(row) = t;
        for (Eigen::Index d = 0; d < nd; ++d) {
          res.q(row, d) = ws.q[static_cast<size_t>(d)];
          res.effort(row, d) = kept(ws.effort[static_cast<size_t>(d)]);
          res.effort_frictionless(row, d) = ws.effort_frictionless[static_cast<size_t>(d)];
        }
        record_row(m, ws, row, valid, res.reactions);
        double p_friction = 0.0;
        for (size_t k = 0; k < n_joints; ++k) {
          const Joint& j = m.joints()[k];
          const JointReaction& r = ws.reaction[k];
          const auto c = static_cast<Eigen::Index>(k);
          friction[k] = j.is<GearPair>() ? 0.0 : friction_power(m, ws, static_cast<int>(k));
          res.friction_power(row, c) = kept(friction[k]);
          if (j.is<GearPair>()) continue;
          if (valid && j.is<CamPair>() && r.normal < sum.least_contact[k])
            sum.least_contact[k] = r.normal, sum.least_contact_t[k] = t;
          p_friction += friction[k];
          if (valid && r.force.norm() > sum.max_reaction[k])
            sum.max_reaction[k] = r.force.norm(), sum.max_reaction_t[k] = t;
        }
        for (size_t p = 0; p < n_pins; ++p) {
          for (size_t k = 0; k < m.pins()[p].bodies.size(); ++k) {
            const double F = pin_force(m, ws, static_cast<int>(p), static_cast<int>(k)).norm();
            if (valid && F > sum.pin_max_force[p]) sum.pin_max_force[p] = F, sum.pin_max_force_t[p] = t;
          }
          pin_friction[p] = pin_friction_power(m, ws, static_cast<int>(p));
          res.pin_friction_power(row, static_cast<Eigen::Index>(p)) = kept(pin_friction[p]);
          p_friction += pin_friction[p];
        }
        const auto peak = [t](EffortStatistics& e, double value) {
          if (std::abs(value) > e.peak) e.peak = std::abs(value), e.peak_t = t;
          if (value > e.most) e.most = value, e.most_t = t;
          if (value < e.least) e.least = value, e.least_t = t;
        };
        for (size_t d = 0; d < static_cast<size_t>(nd); ++d) {
          effort[d] = ws.effort[d], frictionless[d] = ws.effort_frictionless[d];
          if (valid) peak(sum.effort[d], effort[d]), peak(sum.effort_frictionless[d], frictionless[d]);
        }
        const double p_drive = driver_power(m, ws);
        const double p_useful = load_power(m, ws, t, true);
        for (size_t k = 0; k < n_loads; ++k) activity[k] = std::abs(load_power(m, ws, m.spec().loads[k], t));
        res.total_friction_power(row) = kept(p_friction);
        res.driver_power(row) = kept(p_drive);
        // Instantaneous efficiency while the drivers deliver power: the share not lost to friction.
        res.efficiency(row) = kept(p_drive > 0.0 ? 1.0 - p_friction / p_drive : Table::missing);
        res.iterations(row) = status.iterations;
        res.self_locking.push_back(status.self_locking);
        res.limit.push_back(step == StepStatus::limit);
        ++row;
        if (!valid) {
          ++sum.flagged;
          sum.flagged_t.push_back(t);
          have_prev = false;  // not integrated
          return;
        }

        ++sum.rows;
        if (step == StepStatus::limit) ++sum.limit_rows;
        total_iterations += status.iterations;
        sum.max_iterations = std::max(sum.max_iterations, status.iterations);
        if (have_prev) {
          const double h = t - t_prev;  // trapezoidal rule
          sum.driver_work += 0.5 * h * (p_drive + p_drive_prev);
          sum.useful_work -= 0.5 * h * (p_useful + p_useful_prev);
          sum.friction_work += 0.5 * h * (p_friction + p_friction_prev);
          for (size_t k = 0; k < n_joints; ++k) sum.friction_energy[k] += 0.5 * h * (friction[k] + friction_prev[k]);
          for (size_t p = 0; p < n_pins; ++p)
            sum.pin_friction_energy[p] += 0.5 * h * (pin_friction[p] + pin_friction_prev[p]);
          for (size_t k = 0; k < n_loads; ++k) sum.load_activity[k] += 0.5 * h * (activity[k] + activity_prev[k]);
          for (size_t d = 0; d < static_cast<size_t>(nd); ++d) {  // (the squares' integrals, rooted below)
            sum.effort[d].rms += 0.5 * h * (effort[d] * effort[d] + effort_prev[d] * effort_prev[d]);
            sum.effort_frictionless[d].rms +=
                0.5 * h * (frictionless[d] * frictionless[d] + frictionless_prev[d] * frictionless_prev[d]);
          }
          sum.duration += h;
        }
        have_prev = true;
        t_prev = t, p_drive_prev = p_drive, p_useful_prev = p_useful, p_friction_prev = p_friction;
        friction_prev = friction;
        pin_friction_prev = pin_friction;
        activity_prev = activity;
        effort_prev = effort;
        frictionless_prev = frictionless;
        if (step == StepStatus::ok) update_closing(m, ws, t, options, contact_normals, sum.closing);
      },
      limits);
  sum.mean_driver_power = sum.duration > 0.0 ? sum.driver_work / sum.duration : 0.0;
  for (std::vector<EffortStatistics>* efforts : {&sum.effort, &sum.effort_frictionless})
    for (EffortStatistics& e : *efforts) e.rms = sum.duration > 0.0 ? std::sqrt(e.rms / sum.duration) : e.peak;
  sum.mean_iterations = sum.rows > 0 ? static_cast<double>(total_iterations) / sum.rows : 0.0;
  keep_rows(row, res);
  on_chunk(res);
  return sum;
}

void check_kinetostatics(const Mechanism& m, const KinetostaticsResult& result) {
  check_kinetostatics(m, result.summary);
}

void check_kinetostatics(const Mechanism& m, const KinetostaticsSummary& summary) {
  if (summary.rows == 0 && summary.flagged > 0)
    throw AnalysisError(
        fmt::format("{}: the friction iterations converge at no position: the mechanism is self-locking "
                    "over the whole sweep (first at t = {:g} s); check the friction data",
                    m.spec().where.file, summary.flagged_t.front()));
  double all_activity = 0.0;
  for (double a : summary.load_activity) all_activity += a;
  for (size_t k = 0; k < m.spec().loads.size(); ++k) {
    const Load& load = m.spec().loads[k];
    if (load.useful && summary.load_activity[k] <= 1e-12 * (1.0 + all_activity))
      throw InputError(load.where, "load '" + load.name + "'", "is marked useful but does no work over the analysis",
                       "mark as useful the loads that the machine works against");
  }
}

}  // namespace linkdyn::planar
