// External loads, gravity and force elements as generalized forces on the bodies.
#include <algorithm>
#include <cmath>
#include <fmt/format.h>

#include "linkdyn/planar/kinetostatics.hpp"

namespace linkdyn::planar {
namespace {

/// The generalized force of a force F at a body's local point: (F, arm x F).
Wrench force_at(const BodyState& b, const Vec2& local, const Vec2& F) {
  return {F.x(), F.y(), cross(b.arm(local), F)};
}

Vec2 table_value(const Mechanism& m, const Workspace& ws, const Load& load, double t) {
  const LoadTable& tab = *load.table;
  const double x = tab.driver < 0 ? t : ws.q[tab.driver];
  const double span = tab.x.back() - tab.x.front();
  if (x < tab.x.front() - 1e-12 * (1 + std::abs(span)) || x > tab.x.back() + 1e-12 * (1 + std::abs(span))) {
    throw AnalysisError(fmt::format(
        "{}:{}: load '{}': {} = {:.9g} is outside its table [{:.9g}, {:.9g}] ({}); extend the table",
        load.where.file, load.where.line, load.name,
        tab.driver < 0 ? std::string("t") : m.drivers()[tab.driver].name, x, tab.x.front(), tab.x.back(), tab.file));
  }
  size_t k = static_cast<size_t>(std::upper_bound(tab.x.begin(), tab.x.end(), x) - tab.x.begin());
  k = std::clamp<size_t>(k, 1, tab.x.size() - 1);
  const double s = std::clamp((x - tab.x[k - 1]) / (tab.x[k] - tab.x[k - 1]), 0.0, 1.0);
  return (1 - s) * tab.value[k - 1] + s * tab.value[k];
}

/// The load's generalized forces on its body (or two bodies).
void load_wrenches(const Mechanism& m, const Workspace& ws, const Load& load, double t,
                   int body[2], Wrench w[2]) {
  body[0] = load.at[0].body, body[1] = load.at[1].body;
  w[0].setZero();
  w[1].setZero();
  switch (load.type) {
    case LoadType::force:
      w[0] = force_at(ws.body[body[0]], load.at[0].local, load.table ? table_value(m, ws, load, t) : load.value);
      break;
    case LoadType::moment:
      w[0](2) = load.table ? table_value(m, ws, load, t).x() : load.value.x();
      break;
    case LoadType::spring:
    case LoadType::damper: {
      const BodyState &a = ws.body[body[0]], &b = ws.body[body[1]];
      const Vec2 d = b.position(load.at[1].local) - a.position(load.at[0].local);
      const double length = d.norm();
      if (length == 0.0) break;  // coincident ends: no line of action
      const Vec2 e = d / length;
      const double tension = load.type == LoadType::spring
                                 ? load.stiffness * (length - load.free_length)
                                 : load.damping * e.dot(b.velocity(load.at[1].local) - a.velocity(load.at[0].local));
      w[0] = force_at(a, load.at[0].local, tension * e);
      w[1] = force_at(b, load.at[1].local, -tension * e);
      break;
    }
    case LoadType::torsional_spring:
    case LoadType::torsional_damper: {
      const Joint& j = m.joints()[load.joint];
      body[0] = j.body[0], body[1] = j.body[1];
      const BodyState &a = ws.body[body[0]], &b = ws.body[body[1]];
      const double moment = load.type == LoadType::torsional_spring
                                ? -load.stiffness * (b.theta - a.theta - load.free_angle)
                                : -load.damping * (b.omega - a.omega);
      w[1](2) = moment;
      w[0](2) = -moment;
      break;
    }
  }
}

double twist_power(const BodyState& b, const Wrench& w) { return w(0) * b.v.x() + w(1) * b.v.y() + w(2) * b.omega; }

}  // namespace

void evaluate_loads(const Mechanism& m, Workspace& ws, double t) {
  for (size_t b = 0; b < m.bodies().size(); ++b) {
    ws.applied[b].setZero();
    if (b == 0) continue;
    const Body& body = m.bodies()[b];
    ws.applied[b] = force_at(ws.body[b], body.com, body.mass * m.spec().gravity);
  }
  int body[2];
  Wrench w[2];
  for (const Load& load : m.spec().loads) {
    load_wrenches(m, ws, load, t, body, w);
    ws.applied[body[0]] += w[0];
    ws.applied[body[1]] += w[1];
  }
  ws.applied[0].setZero();
}

double load_power(const Mechanism& m, const Workspace& ws, const Load& load, double t) {
  int body[2];
  Wrench w[2];
  load_wrenches(m, ws, load, t, body, w);
  return twist_power(ws.body[body[0]], w[0]) + twist_power(ws.body[body[1]], w[1]);
}

double load_power(const Mechanism& m, const Workspace& ws, double t, bool useful_only) {
  double power = 0.0;
  if (!useful_only) {
    for (size_t b = 1; b < m.bodies().size(); ++b) {
      const Body& body = m.bodies()[b];
      power += twist_power(ws.body[b], force_at(ws.body[b], body.com, body.mass * m.spec().gravity));
    }
  }
  for (const Load& load : m.spec().loads)
    if (!useful_only || load.useful) power += load_power(m, ws, load, t);
  return power;
}

}  // namespace linkdyn::planar
