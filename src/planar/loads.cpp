// External loads, gravity and force elements as generalized forces on the bodies. Each load is
// a sum of parts, a magnitude (constant, tabulated, or linear in a coordinate or its rate) times
// a unit pattern at the load's points (mechanism.hpp, LoadPart).
#include <algorithm>
#include <cmath>
#include <type_traits>
#include <variant>
#include <fmt/format.h>

#include "linkdyn/planar/coordinate.hpp"
#include "linkdyn/planar/kinetostatics.hpp"
#include "linkdyn/planar/loads.hpp"

namespace linkdyn::planar {
namespace {

/// The generalized force of a force F at a body's local point: (F, arm x F).
Wrench force_at(const BodyState& b, const Vec2& local, const Vec2& F) { return {F.x(), F.y(), cross(b.arm(local), F)}; }

double twist_power(const BodyState& b, const Wrench& w) { return w(0) * b.v.x() + w(1) * b.v.y() + w(2) * b.omega; }

LoadPart constant_force(const Vec2& direction, double value) {
  LoadPart p;
  p.direction = direction;
  p.magnitude.gain = value;
  return p;
}

}  // namespace

std::vector<LoadPart> load_parts(const Load& load) {
  std::vector<LoadPart> parts;
  auto with_table = [&](LoadPart p, int column) {
    p.magnitude.law = Magnitude::table;
    p.magnitude.column = column;
    p.magnitude.coordinate = load.table->against;
    return p;
  };
  // A tension between two points, or a moment pair in a revolute pair, whose magnitude is
  // linear in the distance or relative angle (gain (x - offset)), or in its rate (gain x').
  auto element = [&](LoadPart::Pattern pattern, Coordinate coordinate, Magnitude::Law law, double gain, double offset) {
    LoadPart p;
    p.pattern = pattern;
    coordinate.label = load.name;
    p.magnitude.coordinate = coordinate;
    p.magnitude.law = law, p.magnitude.gain = gain, p.magnitude.offset = offset;
    return p;
  };
  auto between = [](const std::array<BodyPoint, 2>& points) {
    Coordinate c;
    c.kind = Coordinate::distance, c.point = points;
    return c;
  };
  auto relative_angle = [](int joint) {
    Coordinate c;
    c.kind = Coordinate::pair_angle, c.index = joint;
    return c;
  };
  std::visit(
      [&](const auto& e) {
        using E = std::decay_t<decltype(e)>;
        if constexpr (std::is_same_v<E, PointForce>) {
          for (int axis = 0; axis < 2; ++axis) {
            LoadPart p = constant_force(axis == 0 ? Vec2::UnitX() : Vec2::UnitY(), e.value(axis));
            if (load.table) {
              p = with_table(p, axis);
            } else if (e.viscous > 0.0) {
              // F = -c v of the point, per component.
              p.magnitude.law = Magnitude::linear_rate;
              p.magnitude.gain = -e.viscous;
              p.magnitude.coordinate.kind = axis == 0 ? Coordinate::point_x : Coordinate::point_y;
              p.magnitude.coordinate.point[0] = e.at;
              p.magnitude.coordinate.label = load.name;
            }
            p.at[0] = e.at;
            parts.push_back(p);
          }
        } else if constexpr (std::is_same_v<E, BodyMoment>) {
          LoadPart p;
          p.pattern = LoadPart::moment;
          p.magnitude.gain = e.value;
          p.at[0].body = e.body;
          parts.push_back(load.table ? with_table(p, 0) : p);
        } else if constexpr (std::is_same_v<E, Spring>) {
          parts.push_back(
              element(LoadPart::tension, between(e.between), Magnitude::linear_value, e.stiffness, e.free_length));
          parts.back().at = e.between;
        } else if constexpr (std::is_same_v<E, Damper>) {
          parts.push_back(element(LoadPart::tension, between(e.between), Magnitude::linear_rate, e.damping, 0.0));
          parts.back().at = e.between;
        } else if constexpr (std::is_same_v<E, TorsionalSpring>) {
          parts.push_back(element(LoadPart::moment_pair, relative_angle(e.joint), Magnitude::linear_value, -e.stiffness,
                                  e.free_angle));
          parts.back().joint = e.joint;
        } else {
          parts.push_back(
              element(LoadPart::moment_pair, relative_angle(e.joint), Magnitude::linear_rate, -e.damping, 0.0));
          parts.back().joint = e.joint;
        }
      },
      load.element);
  return parts;
}

double table_coordinate(const Load& load, const CoordinateValue& c) { return load.table->rate ? c.rate : c.value; }

namespace {
// A periodic table's period p and x within the table, x - p span.
int table_period(const LoadTable& tab, double x) {
  return tab.periodic ? static_cast<int>(std::floor((x - tab.x.front()) / (tab.x.back() - tab.x.front()))) : 0;
}
// Node j of a table (j = k + p (rows - 1) over the periods of a periodic one): each node has one
// value, so neighbouring segments share their ends exactly.
double table_node(const LoadTable& tab, int j) {
  if (!tab.periodic) return tab.x[static_cast<size_t>(j)];
  const int R = static_cast<int>(tab.x.size()) - 1;
  const int p = j >= 0 ? j / R : -((-j + R - 1) / R);
  return tab.x[static_cast<size_t>(j - p * R)] + p * (tab.x.back() - tab.x.front());
}
}  // namespace

int table_segment(const Load& load, double x) {
  const LoadTable& tab = *load.table;
  const int period = table_period(tab, x);
  const int rows = static_cast<int>(tab.x.size());
  const double local = x - period * (tab.x.back() - tab.x.front());
  const int k = static_cast<int>(std::upper_bound(tab.x.begin(), tab.x.end(), local) - tab.x.begin());
  int segment = std::clamp(k, 1, rows - 1) - 1 + period * (rows - 1);
  if (tab.periodic) {  // against the nodes themselves (the shift above rounds)
    while (x < table_node(tab, segment)) --segment;
    while (x >= table_node(tab, segment + 1)) ++segment;
  }
  return segment;
}

std::pair<double, double> table_segment_ends(const Load& load, int segment) {
  return {table_node(*load.table, segment), table_node(*load.table, segment + 1)};
}

double table_value(const Load& load, double x, int column, int segment) {
  const LoadTable& tab = *load.table;
  const double lo = tab.x.front(), hi = tab.x.back(), span = hi - lo;
  if (!tab.periodic && segment == no_segment &&
      (x < lo - 1e-12 * (1 + std::abs(span)) || x > hi + 1e-12 * (1 + std::abs(span)))) {
    throw InputError(tab.where, "load '" + load.name + "'",
                     fmt::format("{}{} = {:.9g} is outside its table [{:.9g}, {:.9g}] ({})", tab.against.label,
                                 tab.rate ? " rate" : "", x, lo, hi, tab.file),
                     "extend the table to cover the motion, or mark it periodic: true if it covers one period");
  }
  // The segment's straight line (continued beyond its ends when it is held over a step); a
  // periodic table's segments are numbered on, period after period, so that holding one is
  // continuous across the table's ends.
  if (segment == no_segment) segment = table_segment(load, x);
  const auto [a, b] = table_segment_ends(load, segment);
  const int rows = static_cast<int>(tab.x.size());
  const size_t k = static_cast<size_t>(((segment % (rows - 1)) + (rows - 1)) % (rows - 1)) + 1;
  const double s = (x - a) / (b - a);
  return (1 - s) * tab.value[k - 1](column) + s * tab.value[k](column);
}

double magnitude_at(const Load& load, const Magnitude& mag, const CoordinateValue& x, int segment) {
  switch (mag.law) {
    case Magnitude::constant: return mag.gain;
    case Magnitude::table: return table_value(load, table_coordinate(load, x), mag.column, segment);
    case Magnitude::linear_value: return mag.gain * (x.value - mag.offset);
    case Magnitude::linear_rate: return mag.gain * x.rate;
  }
  return 0.0;
}

double part_magnitude(const Mechanism& m, const Workspace& ws, const Load& load, const LoadPart& part, double t) {
  if (part.magnitude.law == Magnitude::constant) return part.magnitude.gain;
  const int segment = ws.load_segment[static_cast<size_t>(&load - m.spec().loads.data())];
  return magnitude_at(load, part.magnitude, coordinate_value(m, ws, t, part.magnitude.coordinate), segment);
}

void part_pattern(const Mechanism& m, const Workspace& ws, const LoadPart& part, int body[2], Wrench w[2]) {
  body[0] = part.at[0].body, body[1] = part.at[1].body;
  w[0].setZero();
  w[1].setZero();
  switch (part.pattern) {
    case LoadPart::force: w[0] = force_at(ws.body[body[0]], part.at[0].local, part.direction); break;
    case LoadPart::moment: w[0](2) = 1.0; break;
    case LoadPart::tension: {
      // Unit pulls drawing the two points together: +e at the first, -e at the second.
      const BodyState &a = ws.body[body[0]], &b = ws.body[body[1]];
      const Vec2 d = b.position(part.at[1].local) - a.position(part.at[0].local);
      const double length = d.norm();
      if (length == 0.0) break;  // coincident ends: no line of action
      const Vec2 e = d / length;
      w[0] = force_at(a, part.at[0].local, e);
      w[1] = force_at(b, part.at[1].local, -e);
      break;
    }
    case LoadPart::moment_pair: {
      const Joint& j = m.joints()[part.joint];
      body[0] = j.body[0], body[1] = j.body[1];
      w[1](2) = 1.0;
      w[0](2) = -1.0;
      break;
    }
  }
}

double pattern_power_rate(const Mechanism& m, const Workspace& ws, const LoadPart& part) {
  // d/dt of the unit pattern's power (pattern . twist) at the workspace's accelerations.
  switch (part.pattern) {
    case LoadPart::force: return part.direction.dot(ws.body[part.at[0].body].acceleration(part.at[0].local));
    case LoadPart::moment: return ws.body[part.at[0].body].alpha;
    case LoadPart::tension: return -coordinate_value(m, ws, 0.0, part.magnitude.coordinate, true).acceleration;
    case LoadPart::moment_pair: {
      const Joint& j = m.joints()[part.joint];
      return ws.body[j.body[1]].alpha - ws.body[j.body[0]].alpha;
    }
  }
  return 0.0;
}

double pattern_power(const Mechanism& m, const Workspace& ws, const LoadPart& part) {
  int body[2];
  Wrench w[2];
  part_pattern(m, ws, part, body, w);
  return twist_power(ws.body[body[0]], w[0]) + twist_power(ws.body[body[1]], w[1]);
}

Wrench gravity_load(const Mechanism& m, const Workspace& ws, int body) {
  const Body& b = m.bodies()[body];
  return force_at(ws.body[body], b.com, b.mass * m.spec().gravity);
}

void evaluate_loads(const Mechanism& m, Workspace& ws, double t) {
  ws.applied[0].setZero();
  for (size_t b = 1; b < m.bodies().size(); ++b) ws.applied[b] = gravity_load(m, ws, static_cast<int>(b));
  int body[2];
  Wrench w[2];
  for (const Load& load : m.spec().loads) {
    for (const LoadPart& part : load.parts) {
      const double magnitude = part_magnitude(m, ws, load, part, t);
      part_pattern(m, ws, part, body, w);
      ws.applied[body[0]] += magnitude * w[0];
      ws.applied[body[1]] += magnitude * w[1];
    }
  }
  ws.applied[0].setZero();
}

double load_power(const Mechanism& m, const Workspace& ws, const Load& load, double t) {
  double power = 0.0;
  for (const LoadPart& part : load.parts) power += part_magnitude(m, ws, load, part, t) * pattern_power(m, ws, part);
  return power;
}

double load_power(const Mechanism& m, const Workspace& ws, double t, bool useful_only) {
  double power = 0.0;
  if (!useful_only)
    for (size_t b = 1; b < m.bodies().size(); ++b)
      power += twist_power(ws.body[b], gravity_load(m, ws, static_cast<int>(b)));
  for (const Load& load : m.spec().loads)
    if (!useful_only || load.useful) power += load_power(m, ws, load, t);
  return power;
}

double variable_load_power(const Mechanism& m, const Workspace& ws, const Load& load, double t) {
  double power = 0.0;
  for (const LoadPart& part : load.parts)
    if (part.magnitude.law != Magnitude::constant)
      power += part_magnitude(m, ws, load, part, t) * pattern_power(m, ws, part);
  return power;
}

double constant_load_potential(const Mechanism&, const Workspace& ws, const Load& load) {
  double potential = 0.0;
  for (const LoadPart& part : load.parts) {
    if (part.magnitude.law != Magnitude::constant) continue;
    const BodyState& b = ws.body[part.at[0].body];
    if (part.pattern == LoadPart::force)
      potential += part.magnitude.gain * part.direction.dot(b.position(part.at[0].local));
    else if (part.pattern == LoadPart::moment)
      potential += part.magnitude.gain * b.theta;
  }
  return potential;
}

double potential_energy(const Mechanism& m, const Workspace& ws) {
  // Gravity: -m g . r_G; springs: k (L - L0)^2 / 2; torsional springs: k (dtheta - theta0)^2 / 2.
  double energy = 0.0;
  for (size_t b = 1; b < m.bodies().size(); ++b)
    energy -= m.bodies()[b].mass * m.spec().gravity.dot(ws.body[b].position(m.bodies()[b].com));
  for (const Load& load : m.spec().loads) {
    if (!conservative(load)) continue;
    const Magnitude& mag = load.parts.front().magnitude;  // gain (x - offset), gain = +-k
    const double stretch = coordinate_value(m, ws, 0.0, mag.coordinate).value - mag.offset;
    energy += 0.5 * std::abs(mag.gain) * stretch * stretch;
  }
  return energy;
}

}  // namespace linkdyn::planar
