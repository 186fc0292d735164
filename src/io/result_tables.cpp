#include "linkdyn/io/result_tables.hpp"

namespace linkdyn::io {

using planar::Mechanism;

namespace {
void add_driver_columns(const Mechanism& m, Table& table) {
  table.add_column("t", "s");
  for (const planar::Driver& d : m.drivers())
    table.add_column(planar::driver_column(d), d.type == planar::DriverType::rotational ? "rad" : "m");
}
}  // namespace

Table kinematics_table(const Mechanism& m, const planar::KinematicsResult& r) {
  Table table;
  add_driver_columns(m, table);
  const planar::KinematicsColumns columns(m);
  columns.add_motion_columns(m, table);
  table.add_column("singular", "1");
  columns.add_transmission_columns(m, table);
  table.values.reserve(static_cast<size_t>(r.rows()) * table.width());
  auto& v = table.values;
  for (Eigen::Index row = 0; row < r.rows(); ++row) {
    v.push_back(r.t(row));
    for (Eigen::Index d = 0; d < r.q.cols(); ++d) v.push_back(r.q(row, d));
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

  table.values.reserve(static_cast<size_t>(r.rows()) * table.width());
  auto& v = table.values;
  auto put = [&v](double value) { v.push_back(value); };
  for (Eigen::Index row = 0; row < r.rows(); ++row) {
    v.push_back(r.t(row));
    for (Eigen::Index d = 0; d < r.q.cols(); ++d) v.push_back(r.q(row, d));
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

}  // namespace linkdyn::io
