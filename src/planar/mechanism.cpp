// Compiling a mechanism description: checks, degrees of freedom, structural sequence.
#include "linkdyn/planar/mechanism.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <numeric>

#include "linkdyn/planar/friction.hpp"
#include "linkdyn/planar/groups/group.hpp"
#include "linkdyn/planar/loads.hpp"
#include "planar/structure.hpp"

namespace linkdyn::planar {

int Body::find_point(const std::string& point_name) const {
  for (size_t k = 0; k < points.size(); ++k)
    if (points[k].name == point_name) return static_cast<int>(k);
  return -1;
}

int MechanismSpec::find_body(const std::string& body_name) const {
  for (size_t k = 0; k < bodies.size(); ++k)
    if (bodies[k].name == body_name) return static_cast<int>(k);
  return -1;
}

int MechanismSpec::find_joint(const std::string& joint_name) const {
  for (size_t k = 0; k < joints.size(); ++k)
    if (joints[k].name == joint_name) return static_cast<int>(k);
  return -1;
}

int MechanismSpec::find_pin(const std::string& pin_name) const {
  for (size_t k = 0; k < pins.size(); ++k)
    if (pins[k].name == pin_name) return static_cast<int>(k);
  return -1;
}

int CompoundPin::member(int body) const {
  for (size_t k = 0; k < bodies.size(); ++k)
    if (bodies[k] == body) return static_cast<int>(k);
  return -1;
}

Mechanism::Mechanism(Mechanism&&) noexcept = default;
Mechanism& Mechanism::operator=(Mechanism&&) noexcept = default;
Mechanism::~Mechanism() = default;

TimeGrid Mechanism::default_grid() const {
  if (spec_.grid) return *spec_.grid;
  if (spec_.drivers.empty()) return {};
  return natural_grid(spec_.drivers.front().law);
}

std::string Mechanism::structure_string() const {
  static const char* roman[] = {"0", "I", "II", "III", "IV", "V", "VI", "VII", "VIII", "IX"};
  std::string out;
  for (const auto& g : groups_) {
    if (!out.empty()) out += " -> ";
    const int cls = std::min(g->assur_class(), 9);
    out += g->type() + "_" + roman[cls] + "(";
    std::vector<int> shown;
    if (g->assur_class() == 1) {
      // A first-class mechanism shows the body it moves and what it moves against.
      const Joint& jt = joints_[g->joints().back()];
      shown = {jt.other(g->bodies()[0]), g->bodies()[0]};
    } else {
      shown = g->bodies();
    }
    for (size_t k = 0; k < shown.size(); ++k) {
      if (k) out += ',';
      out += std::to_string(shown[k]);
    }
    out += ")";
  }
  return out;
}

namespace {

void check_spec(const MechanismSpec& spec) {
  const auto n_bodies = static_cast<int>(spec.bodies.size());
  if (n_bodies < 2) {
    throw InputError(spec.where, "bodies", "the mechanism has no moving body",
                     "describe at least one body besides the ground");
  }
  for (int b = 1; b < n_bodies; ++b) {
    const Body& body = spec.bodies[b];
    const std::string entity = "body '" + body.name + "'";
    if (!(body.mass >= 0.0) || !std::isfinite(body.mass))
      throw InputError(body.where, entity, "mass must be zero or positive", "give mass >= 0 in kg");
    if (!(body.inertia >= 0.0) || !std::isfinite(body.inertia))
      throw InputError(body.where, entity, "moment of inertia must be zero or positive",
                       "give inertia >= 0 in kg m^2 about the centre of mass");
    const bool used =
        std::any_of(spec.joints.begin(), spec.joints.end(), [b](const Joint& j) { return j.connects(b); }) ||
        std::any_of(spec.pins.begin(), spec.pins.end(), [b](const CompoundPin& p) { return p.member(b) >= 0; });
    if (!used)
      throw InputError(body.where, entity, "is connected to nothing",
                       "join it to another body with a joint, or remove it");
  }
  for (const Joint& j : spec.joints) {
    const std::string entity = "joint '" + j.name + "'";
    if (j.body[0] < 0 || j.body[0] >= n_bodies || j.body[1] < 0 || j.body[1] >= n_bodies)
      throw InputError(j.where, entity, "refers to a body that does not exist", "name defined bodies");
    if (j.body[0] == j.body[1])
      throw InputError(j.where, entity, "joins a body to itself", "name two different bodies");
    if (j.type == JointType::prismatic && !(std::abs(j.guide_dir.norm() - 1.0) < 1e-9))
      throw InputError(j.where, entity, "guide direction must be a unit vector",
                       "give the direction as an angle or two distinct points");
    if (j.type == JointType::gear && !(std::isfinite(j.ratio) && j.ratio != 0.0))
      throw InputError(j.where, entity, "gear ratio must be finite and non-zero", "give a ratio");
  }
  for (const CompoundPin& p : spec.pins) {
    const std::string entity = "joint '" + p.name + "'";
    if (p.bodies.size() < 3 || p.points.size() != p.bodies.size() || p.point_names.size() != p.bodies.size())
      throw InputError(p.where, entity, "a compound pin needs three or more bodies, one point in each",
                       "list the bodies and one point per body");
    for (size_t k = 0; k < p.bodies.size(); ++k) {
      if (p.bodies[k] < 0 || p.bodies[k] >= n_bodies)
        throw InputError(p.where, entity, "refers to a body that does not exist", "name defined bodies");
      if (p.member(p.bodies[k]) != static_cast<int>(k))
        throw InputError(p.where, entity, "lists body '" + spec.bodies[p.bodies[k]].name + "' twice",
                         "list each body once");
    }
  }
  // Zero-length links: two pins of one body at the same place. A pin is a two-body joint, or
  // a compound pin (partner -1 - its index).
  struct BodyPin {
    const std::string* name;
    const SourceLocation* where;
    Vec2 local;
    int partner;
  };
  for (int b = 1; b < n_bodies; ++b) {
    std::vector<BodyPin> pins;
    for (const Joint& j : spec.joints)
      if (j.type == JointType::revolute && j.connects(b))
        pins.push_back({&j.name, &j.where, j.body[0] == b ? j.point[0] : j.point[1], j.other(b)});
    for (size_t p = 0; p < spec.pins.size(); ++p)
      if (const int k = spec.pins[p].member(b); k >= 0)
        pins.push_back({&spec.pins[p].name, &spec.pins[p].where, spec.pins[p].points[k], -1 - static_cast<int>(p)});
    for (size_t x = 0; x < pins.size(); ++x)
      for (size_t y = x + 1; y < pins.size(); ++y)
        if ((pins[x].local - pins[y].local).norm() < 1e-12 && pins[x].partner != pins[y].partner) {
          // The bodies the two joints join: one compound joint would join them all at this pin.
          std::vector<int> joined{b};
          for (const BodyPin* q : {&pins[x], &pins[y]}) {
            const std::vector<int> members =
                q->partner >= 0 ? std::vector<int>{q->partner} : spec.pins[-1 - q->partner].bodies;
            for (int o : members)
              if (std::find(joined.begin(), joined.end(), o) == joined.end()) joined.push_back(o);
          }
          std::string names;
          for (int o : joined) names += (names.empty() ? "" : ", ") + spec.bodies[o].name;
          throw InputError(
              *pins[y].where, "body '" + spec.bodies[b].name + "'",
              "joints '" + *pins[x].name + "' and '" + *pins[y].name + "' sit at the same point: a link of zero length",
              "give the body's pins distinct coordinates, or, if it is one pin joining "
              "several bodies, write one compound joint: bodies: [" +
                  names + "]");
        }
  }
  for (const Driver& d : spec.drivers) {
    const std::string entity = "driver '" + d.name + "'";
    if (d.pin >= 0) {
      // A driver on a compound pin turns one member about a ground pin.
      const CompoundPin* p = d.pin < static_cast<int>(spec.pins.size()) ? &spec.pins[d.pin] : nullptr;
      if (!p || d.type != DriverType::rotational || p->member(0) < 0)
        throw InputError(d.where, entity,
                         "a driver on a compound joint needs a rotational driver and a joint that includes the ground",
                         "name a joint whose bodies include the ground");
      if (d.pin_body <= 0 || p->member(d.pin_body) < 0)
        throw InputError(d.where, entity,
                         "joint '" + p->name + "' joins several bodies, and 'body' names none of its moving ones",
                         "give body: one of the joint's moving bodies, the one the driver turns");
      continue;
    }
    if (d.joint < 0 || d.joint >= static_cast<int>(spec.joints.size()))
      throw InputError(d.where, entity, "refers to a joint that does not exist", "name a defined joint");
    const Joint& j = spec.joints[d.joint];
    if (d.type == DriverType::rotational && (j.type != JointType::revolute || (j.body[0] != 0 && j.body[1] != 0)))
      throw InputError(d.where, entity,
                       "a rotational driver needs a revolute joint to the ground, and '" + j.name + "' is not one",
                       "name the revolute joint that pins the driven body to the ground");
    if (d.type == DriverType::linear && (j.type != JointType::prismatic || j.body[0] != 0))
      throw InputError(d.where, entity,
                       "a linear driver needs a prismatic joint whose guide is on the ground, "
                       "and '" +
                           j.name + "' is not one",
                       "name a prismatic joint with the ground as its first body");
  }
  const int dof = gruebler_dof(spec);
  if (dof != static_cast<int>(spec.drivers.size())) {
    throw InputError(spec.drivers.empty() ? spec.where : spec.drivers.front().where, "drivers",
                     "the mechanism has " + std::to_string(dof) + " degree(s) of freedom (Gruebler: 3 x " +
                         std::to_string(n_bodies - 1) + " moving bodies - constraints) but " +
                         std::to_string(spec.drivers.size()) + " driver(s)",
                     dof > static_cast<int>(spec.drivers.size())
                         ? "add a driver for each free coordinate, or joints that remove them"
                         : "remove drivers or joints (the mechanism is over-constrained)");
  }
}

std::vector<OutputPoint> output_points(const MechanismSpec& spec) {
  std::vector<OutputPoint> out;
  const auto n_bodies = static_cast<int>(spec.bodies.size());
  for (int b = 1; b < n_bodies; ++b) {
    for (const NamedPoint& p : spec.bodies[b].points) {
      // Bodies that carry a point of this name, grouped by the pins that join them there.
      std::vector<int> carriers;
      for (int o = 1; o < n_bodies; ++o)
        if (spec.bodies[o].find_point(p.name) >= 0) carriers.push_back(o);
      std::vector<int> component(carriers.size());
      std::iota(component.begin(), component.end(), 0);
      auto root = [&](int x) {
        while (component[x] != x) x = component[x];
        return x;
      };
      auto join = [&](int body_a, int body_c) {
        const auto a = std::find(carriers.begin(), carriers.end(), body_a);
        const auto c = std::find(carriers.begin(), carriers.end(), body_c);
        if (a != carriers.end() && c != carriers.end())
          component[root(static_cast<int>(a - carriers.begin()))] = root(static_cast<int>(c - carriers.begin()));
      };
      for (const Joint& j : spec.joints) {
        if (j.type != JointType::revolute || j.point_name[0] != p.name || j.point_name[1] != p.name) continue;
        join(j.body[0], j.body[1]);
      }
      // A compound pin joins every member whose point there has this name.
      for (const CompoundPin& pin : spec.pins)
        for (size_t x = 0; x < pin.bodies.size(); ++x)
          for (size_t y = x + 1; y < pin.bodies.size(); ++y)
            if (pin.point_names[x] == p.name && pin.point_names[y] == p.name) join(pin.bodies[x], pin.bodies[y]);
      const int mine = root(static_cast<int>(std::find(carriers.begin(), carriers.end(), b) - carriers.begin()));
      bool all_one = true, first_of_mine = true;
      for (size_t k = 0; k < carriers.size(); ++k) {
        if (root(static_cast<int>(k)) != mine)
          all_one = false;
        else if (carriers[k] < b)
          first_of_mine = false;
      }
      if (all_one && !first_of_mine) continue;  // the same point, already listed
      out.push_back({all_one ? p.name : spec.bodies[b].name + "." + p.name, b, p.local});
    }
  }
  return out;
}

}  // namespace

Mechanism compile(MechanismSpec spec, const CompileOptions& options) {
  check_spec(spec);
  Mechanism m;
  m.spec_ = std::move(spec);
  for (Load& load : m.spec_.loads) load.parts = load_parts(load);
  m.joints_ = m.spec_.joints;  // the pins' pairs are appended by the structure finder
  m.dof_ = gruebler_dof(m.spec_);
  m.output_points_ = output_points(m.spec_);
  m.groups_ = find_structure(m, m.joints_, m.spec_.drivers, options.force_generic);
  m.bearings_ = find_bearings(m);
  return m;
}

std::string driver_values(const Mechanism& m, std::span<const double> q) {
  std::string out;
  for (size_t d = 0; d < m.drivers().size() && d < q.size(); ++d) {
    const Driver& drv = m.drivers()[d];
    if (!out.empty()) out += ", ";
    out += drv.type == DriverType::rotational ? fmt::format("{} = {:.6g} deg", drv.name, q[d] * 180.0 / M_PI)
                                              : fmt::format("{} = {:.6g} m", drv.name, q[d]);
  }
  return out;
}

}  // namespace linkdyn::planar
