// Compiling a mechanism description: checks, degrees of freedom, structural sequence.
#include "linkdyn/planar/mechanism.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <unordered_map>

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

namespace {
void check_inertia(const Body& body) {
  if (!(body.inertia >= 0.0) || !std::isfinite(body.inertia))
    throw InputError(body.where, "body '" + body.name + "'", "moment of inertia must be zero or positive",
                     "give inertia >= 0 in kg m^2 about the centre of mass");
}
}  // namespace

Mechanism::Mechanism(Mechanism&&) noexcept = default;
Mechanism& Mechanism::operator=(Mechanism&&) noexcept = default;
Mechanism::~Mechanism() = default;

Mechanism Mechanism::with_inertia(int body, double inertia) const {
  Mechanism m(*this);
  Body& b = m.spec_.bodies.at(static_cast<size_t>(body));
  b.inertia = inertia;
  check_inertia(b);
  return m;
}

const Cylinder* Mechanism::driven_cylinder(int d) const {
  const int c = spec_.drivers[static_cast<size_t>(d)].cylinder;
  return c >= 0 ? &spec_.cylinders[static_cast<size_t>(c)] : nullptr;
}

bool Mechanism::relative_driver(int d) const {
  const Driver& drv = spec_.drivers[static_cast<size_t>(d)];
  return drv.type == DriverType::linear && drv.joint >= 0 && joints_[static_cast<size_t>(drv.joint)].body[0] != 0;
}

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
  // The joints and compound pins on each body, their indices ascending (out-of-range bodies are
  // reported below).
  std::vector<std::vector<int>> joints_at(n_bodies), pins_at(n_bodies);
  for (size_t jn = 0; jn < spec.joints.size(); ++jn)
    for (int b : spec.joints[jn].body)
      if (b >= 0 && b < n_bodies && (joints_at[b].empty() || joints_at[b].back() != static_cast<int>(jn)))
        joints_at[b].push_back(static_cast<int>(jn));
  for (size_t pin = 0; pin < spec.pins.size(); ++pin)
    for (int b : spec.pins[pin].bodies)
      if (b >= 0 && b < n_bodies && (pins_at[b].empty() || pins_at[b].back() != static_cast<int>(pin)))
        pins_at[b].push_back(static_cast<int>(pin));
  for (int b = 1; b < n_bodies; ++b) {
    const Body& body = spec.bodies[b];
    const std::string entity = "body '" + body.name + "'";
    if (!(body.mass >= 0.0) || !std::isfinite(body.mass))
      throw InputError(body.where, entity, "mass must be zero or positive", "give mass >= 0 in kg");
    check_inertia(body);
    if (joints_at[b].empty() && pins_at[b].empty())
      throw InputError(body.where, entity, "is connected to nothing",
                       "join it to another body with a joint, or remove it");
  }
  for (const Joint& j : spec.joints) {
    const std::string entity = "joint '" + j.name + "'";
    if (j.body[0] < 0 || j.body[0] >= n_bodies || j.body[1] < 0 || j.body[1] >= n_bodies)
      throw InputError(j.where, entity, "refers to a body that does not exist", "name defined bodies");
    if (j.body[0] == j.body[1])
      throw InputError(j.where, entity, "joins a body to itself", "name two different bodies");
    if (const auto* p = std::get_if<PrismaticPair>(&j.kind); p && !(std::abs(p->guide_dir.norm() - 1.0) < 1e-9))
      throw InputError(j.where, entity, "guide direction must be a unit vector",
                       "give the direction as an angle or two distinct points");
    if (const auto* g = std::get_if<GearPair>(&j.kind); g && !(std::isfinite(g->ratio) && g->ratio != 0.0))
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
    int joint;  // -1 for a compound pin
  };
  // The cylinder whose end pair `joint` is, or nullptr.
  auto cylinder_at = [&](int joint) -> const Cylinder* {
    for (const Cylinder& c : spec.cylinders)
      if (joint >= 0 && (c.base_joint == joint || c.end_joint == joint)) return &c;
    return nullptr;
  };
  for (int b = 1; b < n_bodies; ++b) {
    std::vector<BodyPin> pins;
    for (int jn : joints_at[b])
      if (const Joint& j = spec.joints[jn]; j.is<RevolutePair>())
        pins.push_back({&j.name, &j.where, j.body[0] == b ? j.point[0] : j.point[1], j.other(b), jn});
    for (int p : pins_at[b])
      if (const int k = spec.pins[p].member(b); k >= 0)
        pins.push_back({&spec.pins[p].name, &spec.pins[p].where, spec.pins[p].points[k], -1 - p, -1});
    for (size_t x = 0; x < pins.size(); ++x)
      for (size_t y = x + 1; y < pins.size(); ++y)
        if ((pins[x].local - pins[y].local).norm() < 1e-12 && pins[x].partner != pins[y].partner) {
          for (const BodyPin* q : {&pins[x], &pins[y]})
            if (const Cylinder* c = cylinder_at(q->joint)) {
              const BodyPin* other = q == &pins[x] ? &pins[y] : &pins[x];
              throw InputError(c->where, "driver '" + c->name + "'",
                               "its pin on body '" + spec.bodies[b].name + "' sits on joint '" + *other->name +
                                   "': a cylinder's end cannot share a pin with another joint yet",
                               "pin the cylinder at a point of its own (a lug beside the joint)");
            }
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
    if (d.type == DriverType::rotational && (!j.is<RevolutePair>() || (j.body[0] != 0 && j.body[1] != 0)))
      throw InputError(d.where, entity,
                       "a rotational driver needs a revolute joint to the ground, and '" + j.name + "' is not one",
                       "name the revolute joint that pins the driven body to the ground");
    if (d.type == DriverType::linear && (!j.is<PrismaticPair>() || (j.body[0] != 0 && j.body[1] == 0)))
      throw InputError(d.where, entity,
                       "a linear driver needs a prismatic joint whose guide is its first body (the ground, or a "
                       "cylinder's barrel), and '" +
                           j.name + "' is not one",
                       "name a prismatic joint with the guide's body first");
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

/// The bodies that carry a point of one name, grouped by the pins that join them there.
struct PointCarriers {
  std::vector<int> bodies;  // ascending
  std::vector<int> parent;  // union-find over `bodies`
  std::vector<int> first;   // per root: the first body of its group
  int groups = 0;

  [[nodiscard]] int index(int body) const {
    return static_cast<int>(std::lower_bound(bodies.begin(), bodies.end(), body) - bodies.begin());
  }
  [[nodiscard]] int root(int x) const {
    while (parent[x] != x) x = parent[x];
    return x;
  }
  void join(int body_a, int body_c) {
    const int a = index(body_a), c = index(body_c);
    if (a < static_cast<int>(bodies.size()) && c < static_cast<int>(bodies.size()) && bodies[a] == body_a &&
        bodies[c] == body_c)
      parent[root(a)] = root(c);
  }
};

/// The points written in the output: a point shared by all the bodies that carry its name (all
/// joined there) once under its name, else each body's as body.point.
std::vector<OutputPoint> output_points(const MechanismSpec& spec) {
  const auto n_bodies = static_cast<int>(spec.bodies.size());
  std::unordered_map<std::string, PointCarriers> by_name;
  for (int b = 1; b < n_bodies; ++b)
    for (const NamedPoint& p : spec.bodies[b].points) by_name[p.name].bodies.push_back(b);
  for (auto& [name, c] : by_name) {
    c.parent.resize(c.bodies.size());
    std::iota(c.parent.begin(), c.parent.end(), 0);
  }
  auto join = [&](const std::string& name, int body_a, int body_c) {
    const auto c = by_name.find(name);
    if (c != by_name.end()) c->second.join(body_a, body_c);
  };
  for (const Joint& j : spec.joints)
    if (j.is<RevolutePair>() && j.point_name[0] == j.point_name[1]) join(j.point_name[0], j.body[0], j.body[1]);
  // A compound pin joins every member whose point there has the same name.
  for (const CompoundPin& pin : spec.pins)
    for (size_t x = 0; x < pin.bodies.size(); ++x)
      for (size_t y = x + 1; y < pin.bodies.size(); ++y)
        if (pin.point_names[x] == pin.point_names[y]) join(pin.point_names[x], pin.bodies[x], pin.bodies[y]);
  for (auto& [name, c] : by_name) {
    c.first.assign(c.bodies.size(), -1);
    for (size_t k = 0; k < c.bodies.size(); ++k) {
      int& first = c.first[c.root(static_cast<int>(k))];
      if (first < 0) {
        first = c.bodies[k];
        ++c.groups;
      }
    }
  }
  std::vector<OutputPoint> out;
  for (int b = 1; b < n_bodies; ++b) {
    for (const NamedPoint& p : spec.bodies[b].points) {
      const PointCarriers& c = by_name.at(p.name);
      const bool all_one = c.groups == 1;
      if (all_one && c.first[c.root(c.index(b))] != b) continue;  // the same point, already listed
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
  for (size_t k = 0; k < m.joints_.size(); ++k)
    if (m.joints_[k].is<CamPair>()) {
      std::get<CamPair>(m.joints_[k].kind).index = static_cast<int>(m.cam_pairs_.size());
      m.cam_pairs_.push_back(static_cast<int>(k));
    }
  m.dof_ = gruebler_dof(m.spec_);
  m.output_points_ = output_points(m.spec_);
  for (std::unique_ptr<Group>& g : find_structure(m, m.joints_, m.spec_.drivers, options.force_generic))
    m.groups_.push_back(std::move(g));
  m.bearings_ = find_bearings(m);
  m.pin_pairs_.resize(m.spec_.pins.size());
  m.pin_bearings_.resize(m.spec_.pins.size());
  for (size_t k = 0; k < m.joints_.size(); ++k)
    if (m.joints_[k].pin >= 0) m.pin_pairs_[m.joints_[k].pin].push_back(static_cast<int>(k));
  for (size_t k = 0; k < m.bearings_.size(); ++k)
    if (const auto* member = std::get_if<Bearing::PinMember>(&m.bearings_[k].kind))
      m.pin_bearings_[member->pin].push_back(static_cast<int>(k));
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
