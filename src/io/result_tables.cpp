#include "linkdyn/io/result_tables.hpp"

#include <fmt/format.h>

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
}  // namespace

Table kinematics_table(const Mechanism& m, const planar::KinematicsResult& r) {
  Table table;
  add_driver_columns(m, table);
  const planar::KinematicsColumns columns(m);
  columns.add_motion_columns(m, table);
  table.add_column("singular", "1");
  columns.add_transmission_columns(m, table);
  auto& v = reserve_rows(table, r.rows());
  for (Eigen::Index row = 0; row < r.rows(); ++row) {
    begin_row(v, r.t, r.q, row);
    for (Eigen::Index b = 0; b < r.angle.cols(); ++b)
      v.insert(v.end(), {r.angle(row, b), r.omega(row, b), r.alpha(row, b)});
    for (Eigen::Index k = 0; k < r.x.cols(); ++k)
      v.insert(v.end(), {r.x(row, k), r.y(row, k), r.vx(row, k), r.vy(row, k), r.ax(row, k), r.ay(row, k)});
    const planar::StepStatus s = r.status[static_cast<size_t>(row)];
    v.push_back(s == planar::StepStatus::ok ? 0.0 : s == planar::StepStatus::limit ? 1.0 : 2.0);
    for (Eigen::Index g = 0; g < r.transmission_angle.cols(); ++g) v.push_back(r.transmission_angle(row, g));
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
  for (const planar::Joint& j : m.spec().joints) {  // the pins' own pairs are reported per pin
    planar::add_reaction_columns(j, table);
    if (j.type != planar::JointType::gear) table.add_column(j.name + ".friction_power", "W");
  }
  for (const planar::CompoundPin& pin : m.pins()) {
    planar::add_pin_reaction_columns(m, pin, table);
    table.add_column(pin.name + ".friction_power", "W");
  }
  for (const char* total : {"friction.power", "driver.power"}) table.add_column(total, "W");
  for (const char* flag : {"efficiency", "iterations", "self_locking", "singular"}) table.add_column(flag, "1");

  auto& v = reserve_rows(table, r.rows());
  auto put = [&v](double value) { v.push_back(value); };
  for (Eigen::Index row = 0; row < r.rows(); ++row) {
    begin_row(v, r.t, r.q, row);
    for (Eigen::Index d = 0; d < r.effort.cols(); ++d)
      v.insert(v.end(), {r.effort(row, d), r.effort_frictionless(row, d)});
    for (size_t k = 0; k < m.joints().size(); ++k) {
      const planar::Joint& j = m.joints()[k];
      if (j.pin >= 0) continue;
      const auto c = static_cast<Eigen::Index>(k);
      planar::JointReaction reaction;
      reaction.force = Vec2(r.force_x(row, c), r.force_y(row, c));
      reaction.moment = r.moment(row, c), reaction.normal = r.normal(row, c);
      planar::put_reaction(j, reaction, put);
      if (j.type != planar::JointType::gear) put(r.friction_power(row, c));
    }
    for (size_t p = 0; p < m.pins().size(); ++p) {
      for (Eigen::Index k = 0; k < r.pin_force_x[p].cols(); ++k) {
        const Vec2 F(r.pin_force_x[p](row, k), r.pin_force_y[p](row, k));
        v.insert(v.end(), {F.x(), F.y(), F.norm()});
      }
      put(r.pin_friction_power(row, static_cast<Eigen::Index>(p)));
    }
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

}  // namespace linkdyn::io
