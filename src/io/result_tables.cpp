#include "linkdyn/io/result_tables.hpp"

#include <fmt/format.h>

#include <variant>

namespace linkdyn::io {

using planar::Mechanism;

namespace {
void add_driver_columns(const Mechanism& m, Table& table) {
  table.add_column("t", "s");
  for (const planar::Driver& d : m.drivers())
    table.add_column(planar::driver_column(d), d.type == planar::DriverType::rotational ? "rad" : "m");
}
/// The table's values, with room for `rows` rows.
std::vector<double>& reserve_rows(Table& table, Eigen::Index rows) {
  table.values.reserve(static_cast<size_t>(rows) * table.width());
  return table.values;
}

/// The start of a row: its time and the drivers' coordinates.
void begin_row(std::vector<double>& v, const Eigen::VectorXd& t, const Eigen::MatrixXd& q, Eigen::Index row) {
  v.push_back(t(row));
  for (Eigen::Index d = 0; d < q.cols(); ++d) v.push_back(q(row, d));
}

/// A row's values of KinematicsColumns::add_motion_columns.
void put_motion(const planar::KinematicsResult& r, Eigen::Index row, std::vector<double>& v) {
  for (Eigen::Index b = 0; b < r.angle.cols(); ++b)
    v.insert(v.end(), {r.angle(row, b), r.omega(row, b), r.alpha(row, b)});
  for (Eigen::Index k = 0; k < r.x.cols(); ++k)
    v.insert(v.end(), {r.x(row, k), r.y(row, k), r.vx(row, k), r.vy(row, k), r.ax(row, k), r.ay(row, k)});
}
void put_transmission(const planar::KinematicsResult& r, Eigen::Index row, std::vector<double>& v) {
  for (Eigen::Index g = 0; g < r.transmission_angle.cols(); ++g) v.push_back(r.transmission_angle(row, g));
  for (Eigen::Index c = 0; c < r.cam.cols(); ++c) v.push_back(r.cam(row, c));
}

/// Every pair's reaction columns (the model's pairs, then each compound pin's members), with
/// each one's friction power when `friction` is given (kinetostatics).
void add_reaction_columns(const Mechanism& m, Table& table, bool friction) {
  for (const planar::Joint& j : m.spec().joints) {  // the pins' own pairs are reported per pin
    planar::add_reaction_columns(j, table);
    if (friction && !j.is<planar::GearPair>()) table.add_column(j.name + ".friction_power", "W");
  }
  for (const planar::CompoundPin& pin : m.pins()) {
    planar::add_pin_reaction_columns(m, pin, table);
    if (friction) table.add_column(pin.name + ".friction_power", "W");
  }
}
/// A row's values of those columns.
void put_reactions(const Mechanism& m, const planar::PairReactions& r, const planar::KinetostaticsResult* friction,
                   Eigen::Index row, std::vector<double>& v) {
  auto put = [&v](double value) { v.push_back(value); };
  for (size_t k = 0; k < m.spec().joints.size(); ++k) {
    const planar::Joint& j = m.joints()[k];
    planar::put_reaction(j, r.reaction(row, k), put);
    if (friction && !j.is<planar::GearPair>()) put(friction->friction_power(row, static_cast<Eigen::Index>(k)));
  }
  for (size_t p = 0; p < m.pins().size(); ++p) {
    for (Eigen::Index k = 0; k < r.pin_force_x[p].cols(); ++k) {
      const Vec2 F = r.pin_force(row, p, k);
      v.insert(v.end(), {F.x(), F.y(), F.norm()});
    }
    if (friction) put(friction->pin_friction_power(row, static_cast<Eigen::Index>(p)));
  }
}
}  // namespace

Table kinematics_table(const Mechanism& m, const planar::KinematicsResult& r) {
  Table table;
  add_driver_columns(m, table);
  // A cylinder's speed and acceleration (its law's): its length is the driver's column.
  std::vector<const planar::Driver*> cylinders;
  for (const planar::Driver& d : m.drivers())
    if (d.cylinder >= 0) {
      cylinders.push_back(&d);
      table.add_column(planar::driver_column(d, 1), "m/s");
      table.add_column(planar::driver_column(d, 2), "m/s^2");
    }
  const planar::KinematicsColumns columns(m);
  columns.add_motion_columns(m, table);
  table.add_column("singular", "1");
  columns.add_transmission_columns(m, table);
  auto& v = reserve_rows(table, r.rows());
  for (Eigen::Index row = 0; row < r.rows(); ++row) {
    begin_row(v, r.t, r.q, row);
    for (const planar::Driver* d : cylinders) {
      const planar::MotionSample law = planar::evaluate(d->law, r.t(row));
      v.insert(v.end(), {law.qd, law.qdd});
    }
    put_motion(r, row, v);
    const planar::StepStatus s = r.status[static_cast<size_t>(row)];
    v.push_back(s == planar::StepStatus::ok ? 0.0 : s == planar::StepStatus::limit ? 1.0 : 2.0);
    put_transmission(r, row, v);
  }
  return table;
}

Table kinetostatics_table(const Mechanism& m, const planar::KinetostaticsResult& r) {
  Table table;
  add_driver_columns(m, table);
  for (const planar::Driver& d : m.drivers()) {
    const bool rot = d.type == planar::DriverType::rotational;
    table.add_column(d.name + (rot ? ".torque" : ".force"), rot ? "N m" : "N");
    table.add_column(d.name + (rot ? ".torque_frictionless" : ".force_frictionless"), rot ? "N m" : "N");
  }
  // A cylinder's speed (its law's), power and the pressure its force needs.
  std::vector<int> cylinders;
  for (size_t d = 0; d < m.drivers().size(); ++d)
    if (const planar::Cylinder* c = m.driven_cylinder(static_cast<int>(d))) {
      cylinders.push_back(static_cast<int>(d));
      table.add_column(planar::driver_column(m.drivers()[d], 1), "m/s");
      table.add_column(c->name + ".power", "W");
      if (c->has_areas()) table.add_column(c->name + ".pressure", "Pa");
    }
  add_reaction_columns(m, table, true);
  for (const char* total : {"friction.power", "driver.power"}) table.add_column(total, "W");
  for (const char* flag : {"efficiency", "iterations", "self_locking", "singular"}) table.add_column(flag, "1");

  auto& v = reserve_rows(table, r.rows());
  for (Eigen::Index row = 0; row < r.rows(); ++row) {
    begin_row(v, r.t, r.q, row);
    for (Eigen::Index d = 0; d < r.effort.cols(); ++d)
      v.insert(v.end(), {r.effort(row, d), r.effort_frictionless(row, d)});
    for (int d : cylinders) {
      const planar::Driver& driver = m.drivers()[static_cast<size_t>(d)];
      const double speed = planar::evaluate(driver.law, r.t(row)).qd, force = r.effort(row, d);
      v.insert(v.end(), {speed, force * speed});
      if (const planar::Cylinder* c = m.driven_cylinder(d); c->has_areas()) v.push_back(c->pressure(force));
    }
    put_reactions(m, r.reactions, &r, row, v);
    v.insert(v.end(), {r.total_friction_power(row), r.driver_power(row), r.efficiency(row),
                       static_cast<double>(r.iterations(row)), r.self_locking[static_cast<size_t>(row)] ? 1.0 : 0.0,
                       r.limit[static_cast<size_t>(row)] ? 1.0 : 0.0});
  }
  return table;
}

Table eigen_cycle_table(const Mechanism& m, const std::vector<flex::ElasticLink>& links,
                        const flex::EigenCycleResult& r) {
  Table table;
  add_driver_columns(m, table);
  for (const flex::ElasticLink& link : links) {
    table.add_column(link.name + ".omega", "rad/s");
    table.add_column(link.name + ".epsilon", "rad/s^2");
    table.add_column(link.name + ".axial_force.mid", "N");
    for (int k = 1; k <= r.modes; ++k) {
      table.add_column(fmt::format("{}.lambda{}", link.name, k), "1/s^2");
      table.add_column(fmt::format("{}.f{}", link.name, k), "Hz");
      if (r.gyroscopic) {
        table.add_column(fmt::format("{}.fg{}", link.name, k), "Hz");
        table.add_column(fmt::format("{}.sigma{}", link.name, k), "1/s");
      }
    }
  }
  auto& v = reserve_rows(table, r.t.size());
  for (Eigen::Index row = 0; row < r.t.size(); ++row) {
    begin_row(v, r.t, r.q, row);
    for (const flex::LinkModes& l : r.links) {
      v.insert(v.end(), {l.omega(row), l.epsilon(row), l.axial_force_mid(row)});
      for (int k = 0; k < r.modes; ++k) {
        v.insert(v.end(), {l.lambda(row, k), l.frequency(row, k)});
        if (r.gyroscopic) v.insert(v.end(), {l.gyroscopic_frequency(row, k), l.gyroscopic_sigma(row, k)});
      }
    }
  }
  return table;
}

Table response_table(const Mechanism& m, const flex::ElasticLink& link, const flex::LinkResponse& r) {
  Table table;
  add_driver_columns(m, table);
  for (const char* at : {".mid.w", ".mid.u", ".end.w"}) table.add_column(link.name + at, "m");
  table.add_column(link.name + ".axial_force.mid", "N");
  // Every node's deflection: transverse w and axial u, nodes 0..n from the link's first end.
  for (Eigen::Index node = 0; node < r.node_w.cols(); ++node) {
    table.add_column(fmt::format("{}.n{}.w", link.name, node), "m");
    table.add_column(fmt::format("{}.n{}.u", link.name, node), "m");
  }
  auto& v = reserve_rows(table, r.t.size());
  for (Eigen::Index row = 0; row < r.t.size(); ++row) {
    begin_row(v, r.t, r.q, row);
    v.insert(v.end(), {r.mid_w(row), r.mid_u(row), r.end_w(row), r.axial_force_mid(row)});
    for (Eigen::Index node = 0; node < r.node_w.cols(); ++node)
      v.insert(v.end(), {r.node_w(row, node), r.node_u(row, node)});
  }
  return table;
}

Table simulation_table(const dynamics::DynamicSystem& system, const dynamics::SimulationResult& r) {
  const Mechanism& m = *system.mechanism;
  const dynamics::MachineSpec& machine = system.machine;
  Table t;
  t.add_column("t", "s");
  const char* const rotational_units[] = {"rad", "rad/s", "rad/s^2"};
  const char* const linear_units[] = {"m", "m/s", "m/s^2"};
  for (int order = 0; order < 3; ++order)
    for (const planar::Driver& d : m.drivers())
      t.add_column(planar::driver_column(d, order),
                   (d.type == planar::DriverType::rotational ? rotational_units : linear_units)[order]);
  for (int k : system.motors) t.add_column(machine.actuators[static_cast<size_t>(k)].name + ".current", "A");
  for (const dynamics::Actuator& a : machine.actuators)
    t.add_column(a.name + (a.joint() >= 0 ? ".force" : ".torque"), a.joint() >= 0 ? "N" : "N m");
  for (const auto& a : machine.constraint_actions)
    t.add_column(a.name, std::holds_alternative<dynamics::PairMoment>(a.component) ? "N m" : "N");
  std::vector<Eigen::Index> pair_elements;  // the Coulomb elements of the pairs' friction
  for (size_t k = 0; k < system.coulomb.size(); ++k)
    if (system.coulomb[k].pair_friction()) {
      t.add_column(system.coulomb[k].name + ".friction_power", "W");
      pair_elements.push_back(static_cast<Eigen::Index>(k));
    }
  t.add_column("friction.power", "W");
  t.add_column("energy.kinetic", "J");
  t.add_column("energy.potential", "J");
  for (const dynamics::Actuator& a : machine.actuators) t.add_column("work." + a.name, "J");
  for (const planar::Load& l : m.spec().loads) t.add_column("work." + l.name, "J");
  t.add_column("friction.loss", "J");
  const bool coupled = !system.elastic.empty();
  if (coupled) {
    t.add_column("elastic.damping_loss", "J");
    t.add_column("elastic.geometric_work", "J");
  }
  t.add_column("energy.residual", "J");
  t.add_column("stuck", "1");
  for (const flex::ModalLink& link : system.elastic) {
    t.add_column(link.name + ".mid.w", "m");
    for (int node = 0; node <= link.beam.elements; ++node) {
      t.add_column(fmt::format("{}.n{}.w", link.name, node), "m");
      t.add_column(fmt::format("{}.n{}.u", link.name, node), "m");
    }
  }
  const bool kinematics = r.kinematics.angle.cols() > 0, reactions = r.reactions.force_x.cols() > 0;
  if (kinematics) {
    const planar::KinematicsColumns columns(m);
    columns.add_motion_columns(m, t);
    columns.add_transmission_columns(m, t);
  }
  if (reactions) add_reaction_columns(m, t, false);

  auto& v = reserve_rows(t, r.rows());
  const dynamics::EnergyRows& e = r.energy;
  auto put_row = [&v](const Eigen::MatrixXd& matrix, Eigen::Index row) {
    for (Eigen::Index c = 0; c < matrix.cols(); ++c) v.push_back(matrix(row, c));
  };
  for (Eigen::Index row = 0; row < r.rows(); ++row) {
    v.push_back(r.t(row));
    for (const Eigen::MatrixXd* matrix : {&r.q, &r.qd, &r.qdd, &r.current, &r.effort, &r.constraint_action})
      put_row(*matrix, row);
    for (Eigen::Index k : pair_elements) v.push_back(r.coulomb_power(row, k));
    v.insert(v.end(), {r.pair_friction_power(row), e.kinetic(row), e.potential(row)});
    put_row(e.actuator_work, row);
    put_row(e.load_work, row);
    v.push_back(e.friction_loss(row));
    if (coupled) v.insert(v.end(), {e.elastic_damping_loss(row), e.geometric_work(row)});
    v.insert(v.end(), {e.residual(row), static_cast<double>(r.stuck(row))});
    for (const dynamics::ElasticRows& link : r.elastic) {
      v.push_back(link.mid_w(row));
      for (Eigen::Index node = 0; node < link.node_w.cols(); ++node)
        v.insert(v.end(), {link.node_w(row, node), link.node_u(row, node)});
    }
    if (kinematics) {
      put_motion(r.kinematics, row, v);
      put_transmission(r.kinematics, row, v);
    }
    if (reactions) put_reactions(m, r.reactions, nullptr, row, v);
  }
  return t;
}

std::string dof_unit(const spatial::Chain& chain, int dof, int order, bool force) {
  const int link = chain.dof_link[static_cast<size_t>(dof)];
  const spatial::JointType type = chain.joint(link).type;
  const bool turn = type == spatial::JointType::revolute ||
                    (type == spatial::JointType::free_flyer && dof - chain.v_index[static_cast<size_t>(link)] >= 3);
  if (force) return std::string(turn ? "N m" : "N") + (order == 0 ? "" : order == 1 ? "/s" : "/s^2");
  static const char* const rotational[] = {"rad", "rad/s", "rad/s^2", "rad/s^3", "rad/s^4"};
  static const char* const linear[] = {"m", "m/s", "m/s^2", "m/s^3", "m/s^4"};
  return (turn ? rotational : linear)[order];
}

Table chain_simulation_table(const spatial::Chain& chain, const spatial::ChainSimulationResult& r) {
  Table table;
  table.add_column("t", "s");
  for (int i = 0; i < chain.nq; ++i) {
    int link = 0;  // the joint whose coordinate i is
    while (link + 1 < chain.links && chain.q_index[static_cast<size_t>(link) + 1] <= i) ++link;
    const int local = i - chain.q_index[static_cast<size_t>(link)];
    std::string unit;
    if (chain.joint(link).type != spatial::JointType::free_flyer)
      unit = dof_unit(chain, chain.v_index[static_cast<size_t>(link)], 0);
    else if (local < 3)
      unit = "m";
    else
      unit = chain.spec.rotation_coordinates == spatial::RotationCoordinates::quaternion ? "" : "rad";
    table.add_column(chain.q_names[static_cast<size_t>(i)] + ".q", unit);
  }
  for (int order : {1, 2})
    for (int d = 0; d < chain.dof; ++d)
      table.add_column(chain.v_names[static_cast<size_t>(d)] + (order == 1 ? ".qd" : ".qdd"),
                       dof_unit(chain, d, order));
  for (int d = 0; d < chain.dof; ++d)
    table.add_column(chain.v_names[static_cast<size_t>(d)] + ".tau", dof_unit(chain, d, 0, true));
  table.add_column("kinetic_energy", "J");
  table.add_column("potential_energy", "J");
  auto& v = reserve_rows(table, r.rows());
  for (Eigen::Index row = 0; row < r.rows(); ++row) {
    v.push_back(r.t(row));
    for (const Eigen::MatrixXd* matrix : {&r.q, &r.qd, &r.qdd, &r.tau})
      for (Eigen::Index c = 0; c < matrix->cols(); ++c) v.push_back((*matrix)(row, c));
    v.insert(v.end(), {r.kinetic_energy(row), r.potential_energy(row)});
  }
  return table;
}

}  // namespace linkdyn::io
