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

}  // namespace

std::vector<LoadPart> load_parts(const Load& load) {
  std::vector<LoadPart> parts;
  using M = Magnitude;
  // A constant magnitude, or the load table's column.
  auto value = [&](double gain, int column) -> M::Law {
    if (load.table) return M::Table{column, load.table->against};
    return M::Constant{gain};
  };
  // A coordinate named after the load, for messages.
  auto named = [&](Coordinate::Kind kind) {
    Coordinate c;
    c.kind = std::move(kind), c.label = load.name;
    return c;
  };
  auto part = [](LoadPart::Pattern pattern, M::Law law) {
    LoadPart p;
    p.pattern = std::move(pattern);
    p.magnitude.law = std::move(law);
    return p;
  };
  std::visit(
      overloaded{
          [&](const PointForce& e) {
            for (int axis = 0; axis < 2; ++axis) {
              M::Law law = value(e.value(axis), axis);
              if (!load.table && e.viscous > 0.0) {  // F = -c v of the point, per component
                const Coordinate x = named(axis == 0 ? Coordinate::Kind{Coordinate::PointX{e.at}}
                                                     : Coordinate::Kind{Coordinate::PointY{e.at}});
                law = M::LinearRate{-e.viscous, x};
              }
              parts.push_back(part(LoadPart::Force{axis == 0 ? Vec2::UnitX() : Vec2::UnitY(), e.at}, std::move(law)));
            }
          },
          [&](const BodyMoment& e) { parts.push_back(part(LoadPart::Moment{e.body}, value(e.value, 0))); },
          // A tension between two points, or a moment pair in a revolute pair, whose magnitude is
          // linear in the distance or relative angle (gain (x - offset)), or in its rate (gain x').
          [&](const Spring& e) {
            const Coordinate x = named(Coordinate::Distance{e.between});
            parts.push_back(part(LoadPart::Tension{e.between}, M::LinearValue{e.stiffness, e.free_length, x}));
          },
          [&](const Damper& e) {
            const Coordinate x = named(Coordinate::Distance{e.between});
            parts.push_back(part(LoadPart::Tension{e.between}, M::LinearRate{e.damping, x}));
          },
          [&](const TorsionalSpring& e) {
            const Coordinate x = named(Coordinate::PairAngle{e.joint});
            parts.push_back(part(LoadPart::MomentPair{e.joint}, M::LinearValue{-e.stiffness, e.free_angle, x}));
          },
          [&](const TorsionalDamper& e) {
            const Coordinate x = named(Coordinate::PairAngle{e.joint});
            parts.push_back(part(LoadPart::MomentPair{e.joint}, M::LinearRate{-e.damping, x}));
          },
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
  using M = Magnitude;
  return std::visit(
      overloaded{[&](const M::Constant& l) { return l.gain; },
                 [&](const M::Table& l) { return table_value(load, table_coordinate(load, x), l.column, segment); },
                 [&](const M::LinearValue& l) { return l.gain * (x.value - l.offset); },
                 [&](const M::LinearRate& l) { return l.gain * x.rate; }},
      mag.law);
}

double part_magnitude(const Mechanism& m, const Workspace& ws, const Load& load, const LoadPart& part, double t) {
  if (const auto* c = std::get_if<Magnitude::Constant>(&part.magnitude.law)) return c->gain;
  const int segment = ws.load_segment[static_cast<size_t>(&load - m.spec().loads.data())];
  return magnitude_at(load, part.magnitude, coordinate_value(m, ws, t, *part.magnitude.coordinate()), segment);
}

void part_pattern(const Mechanism& m, const Workspace& ws, const LoadPart& part, int body[2], Wrench w[2]) {
  w[0].setZero();
  w[1].setZero();
  body[0] = body[1] = 0;
  std::visit(overloaded{[&](const LoadPart::Force& f) {
                          body[0] = f.at.body;
                          w[0] = force_at(ws.body[body[0]], f.at.local, f.direction);
                        },
                        [&](const LoadPart::Moment& p) {
                          body[0] = p.body;
                          w[0](2) = 1.0;
                        },
                        [&](const LoadPart::Tension& p) {
                          // Unit pulls drawing the two points together: +e at the first, -e at the second.
                          const BodyPoint &p0 = p.between[0], &p1 = p.between[1];
                          body[0] = p0.body, body[1] = p1.body;
                          const BodyState &a = ws.body[body[0]], &b = ws.body[body[1]];
                          const Vec2 d = b.position(p1.local) - a.position(p0.local);
                          const double length = d.norm();
                          if (length == 0.0) return;  // coincident ends: no line of action
                          const Vec2 e = d / length;
                          w[0] = force_at(a, p0.local, e);
                          w[1] = force_at(b, p1.local, -e);
                        },
                        [&](const LoadPart::MomentPair& p) {
                          const Joint& j = m.joints()[p.joint];
                          body[0] = j.body[0], body[1] = j.body[1];
                          w[1](2) = 1.0;
                          w[0](2) = -1.0;
                        }},
             part.pattern);
}

double pattern_power_rate(const Mechanism& m, const Workspace& ws, const LoadPart& part) {
  // d/dt of the unit pattern's power (pattern . twist) at the workspace's accelerations.
  return std::visit(
      overloaded{[&](const LoadPart::Force& f) { return f.direction.dot(ws.body[f.at.body].acceleration(f.at.local)); },
                 [&](const LoadPart::Moment& p) { return ws.body[p.body].alpha; },
                 [&](const LoadPart::Tension&) {
                   return -coordinate_value(m, ws, 0.0, *part.magnitude.coordinate(), true).acceleration;
                 },
                 [&](const LoadPart::MomentPair& p) {
                   const Joint& j = m.joints()[p.joint];
                   return ws.body[j.body[1]].alpha - ws.body[j.body[0]].alpha;
                 }},
      part.pattern);
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
    if (!part.magnitude.is<Magnitude::Constant>())
      power += part_magnitude(m, ws, load, part, t) * pattern_power(m, ws, part);
  return power;
}

double constant_load_potential(const Mechanism&, const Workspace& ws, const Load& load) {
  double potential = 0.0;
  for (const LoadPart& part : load.parts) {
    const auto* c = std::get_if<Magnitude::Constant>(&part.magnitude.law);
    if (!c) continue;
    if (const auto* f = std::get_if<LoadPart::Force>(&part.pattern))
      potential += c->gain * f->direction.dot(ws.body[f->at.body].position(f->at.local));
    else if (const auto* p = std::get_if<LoadPart::Moment>(&part.pattern))
      potential += c->gain * ws.body[p->body].theta;
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
    const auto& mag = load.parts.front().magnitude.as<Magnitude::LinearValue>();  // gain (x - offset), gain = +-k
    const double stretch = coordinate_value(m, ws, 0.0, mag.coordinate).value - mag.offset;
    energy += 0.5 * std::abs(mag.gain) * stretch * stretch;
  }
  return energy;
}

}  // namespace linkdyn::planar
