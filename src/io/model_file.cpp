// Model files: YAML -> the mechanism, its machine and its elastic links (one spec each).
// Format: docs/model-format.md.
#include "linkdyn/io/model_file.hpp"
#include "linkdyn/io/table_reader.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <filesystem>

#include "io/yaml_reader.hpp"
#include "linkdyn/io/text_file.hpp"

namespace linkdyn::io {
using namespace linkdyn::planar;

namespace {

class ModelParser {
 public:
  explicit ModelParser(const std::string& path) : in_(path), path_(path) {}

  Model parse(const YAML::Node& root) {
    if (!root || root.IsNull()) {
      throw InputError({path_, 1}, "model", "the file is empty", "describe ground, bodies, joints and drivers");
    }
    in_.allow_only(root, "model",
                   {"name", "description", "ground", "bodies", "joints", "drivers", "assembly", "structure", "analysis",
                    "gravity", "friction", "loads", "constraint_actions", "actuators", "elastic_links"});
    spec_.where = {path_, 1};
    spec_.name =
        field(root, "name") ? in_.text(field(root, "name"), "name") : std::filesystem::path(path_).stem().string();
    ground(root);
    bodies(in_.required(root, "bodies", "model", "add a 'bodies:' map"));
    if (field(root, "friction")) friction_defaults(field(root, "friction"));
    joints(in_.required(root, "joints", "model", "add a 'joints:' map"));
    drivers(in_.required(root, "drivers", "model", "add a 'drivers:' map"));
    if (field(root, "gravity"))
      spec_.gravity = vector(field(root, "gravity"), "gravity", Quantity::plain, "write gravity: [0, -9.81] in m/s^2");
    if (field(root, "loads")) loads(field(root, "loads"));
    if (field(root, "constraint_actions")) constraint_actions(field(root, "constraint_actions"));
    if (field(root, "actuators")) actuators(field(root, "actuators"));
    if (field(root, "assembly")) assembly(field(root, "assembly"));
    if (field(root, "structure")) structure(field(root, "structure"));
    if (field(root, "analysis")) analysis(field(root, "analysis"));
    if (field(root, "elastic_links")) elastic_links(field(root, "elastic_links"));
    return {std::move(spec_), std::move(machine_), std::move(elastic_links_)};
  }

 private:
  template <class Item>
  void no_duplicate(const std::vector<Item>& items, const YAML::Node& key, const std::string& kind) {
    const std::string name = key.as<std::string>();
    for (const Item& it : items)
      if (it.name == name)
        in_.fail(key, fmt::format("{} '{}'", kind, name), "is defined twice",
                 fmt::format("give each {} its own name", kind));
  }

  /// Visits each entry `name: {...}` of a section, refusing a name given twice.
  template <class Item, class Visit>
  void each_named(const YAML::Node& node, const char* section, const std::vector<Item>& items, const std::string& kind,
                  Visit&& visit) {
    in_.require_map(node, section);
    for (const auto& kv : node) {
      no_duplicate(items, kv.first, kind);
      const std::string name = kv.first.as<std::string>();
      visit(name, fmt::format("{} '{}'", kind, name), kv.first, kv.second);
    }
  }

  void ground(const YAML::Node& root) {
    Body g;
    g.name = "ground";
    g.where = {path_, 1};
    if (const YAML::Node node = field(root, "ground")) {
      in_.require_map(node, "ground");
      g.where = in_.where(node);
      for (const auto& kv : node) {
        no_duplicate(g.points, kv.first, "ground point");
        const std::string name = kv.first.as<std::string>();
        g.points.push_back({name, in_.point(kv.second, "ground point '" + name + "'"), in_.where(kv.first)});
      }
    }
    spec_.bodies.push_back(std::move(g));
  }

  void bodies(const YAML::Node& node) {
    bodies_node_ = node;
    each_named(node, "bodies", spec_.bodies, "body",
               [&](const std::string& name, const std::string& entity, const YAML::Node& key, const YAML::Node& value) {
                 const YAML::Node& b = value;
                 in_.allow_only(b, entity, {"mass", "inertia", "com", "points"});
                 Body body;
                 body.name = name;
                 body.where = in_.where(key);
                 body.mass = in_.optional_number(b, "mass", entity).value_or(0.0);
                 body.inertia = in_.optional_number(b, "inertia", entity).value_or(0.0);
                 if (body.mass < 0.0) in_.fail(field(b, "mass"), entity, "mass is negative", "give mass >= 0 in kg");
                 if (body.inertia < 0.0)
                   in_.fail(field(b, "inertia"), entity, "moment of inertia is negative",
                            "give inertia >= 0 in kg m^2 about the centre of mass");
                 if (field(b, "com")) body.com = in_.point(field(b, "com"), entity + ".com");
                 if (const YAML::Node pts = field(b, "points")) {
                   in_.require_map(pts, entity + ".points");
                   for (const auto& p : pts) {
                     no_duplicate(body.points, p.first, "point of " + entity);
                     const std::string pname = p.first.as<std::string>();
                     body.points.push_back(
                         {pname, in_.point(p.second, fmt::format("{} point '{}'", entity, pname)), in_.where(p.first)});
                   }
                 }
                 spec_.bodies.push_back(std::move(body));
               });
  }

  int body_ref(const YAML::Node& node, const std::string& entity) {
    const std::string name = in_.text(node, entity);
    const int b = spec_.find_body(name);
    if (b < 0) in_.fail(node, entity, "unknown body '" + name + "'", "use 'ground' or a body defined under 'bodies'");
    return b;
  }

  /// A named point of a body ("origin" is the body frame's origin).
  Vec2 point_ref(int body, const std::string& name, const YAML::Node& at, const std::string& entity) {
    const Body& b = spec_.bodies[body];
    const int k = b.find_point(name);
    if (k >= 0) return b.points[k].local;
    if (name == "origin") return Vec2::Zero();
    in_.fail(at, entity,
             (body == 0 ? "the ground has no point '" : "body '" + b.name + "' has no point '") + name + "'",
             body == 0 ? "add it under 'ground'" : "add it under bodies." + b.name + ".points, or name another point");
  }

  void joints(const YAML::Node& node) {
    each_named(
        node, "joints", spec_.joints, "joint",
        [&](const std::string& name, const std::string& entity, const YAML::Node& key, const YAML::Node& value) {
          const YAML::Node& j = value;
          in_.require_map(j, entity);
          if (spec_.find_pin(name) >= 0) in_.fail(key, entity, "is defined twice", "give each joint its own name");
          Joint joint;
          joint.name = name;
          joint.where = in_.where(key);
          const YAML::Node type = in_.required(j, "type", entity, "give type: revolute, prismatic or gear");
          const std::string t = in_.text(type, entity + ".type");
          const YAML::Node bodies = in_.required(j, "bodies", entity, "give bodies: [first, second]");
          if ((t == "revolute" || t == "R") && bodies.IsSequence() && bodies.size() != 2) {
            compound_pin(name, entity, key, j, bodies);
            return;
          }
          if (!bodies.IsSequence() || bodies.size() != 2)
            in_.fail(bodies, entity, "'bodies' must list two bodies", "write bodies: [ground, crank]");
          joint.body = {body_ref(bodies[0], entity), body_ref(bodies[1], entity)};
          if (joint.body[0] == joint.body[1])
            in_.fail(bodies, entity, "joins a body to itself", "name two different bodies");
          if (t == "revolute" || t == "R") {
            joint.type = JointType::revolute;
            in_.allow_only(j, entity, {"type", "bodies", "at", "points", "friction"});
            PairFriction f = revolute_friction_;
            if (field(j, "friction")) pair_friction(field(j, "friction"), entity, true, f);
            joint.friction = f.coefficient, joint.static_friction = f.static_coefficient, joint.pin_radius = f.size;
            joint.point_name = {name, name};
            if (field(j, "at")) joint.point_name[0] = joint.point_name[1] = in_.text(field(j, "at"), entity + ".at");
            if (const YAML::Node pts = field(j, "points")) {
              if (!pts.IsSequence() || pts.size() != 2)
                in_.fail(pts, entity, "'points' must name one point in each body", "write points: [B, B]");
              joint.point_name = {in_.text(pts[0], entity), in_.text(pts[1], entity)};
            }
            const YAML::Node at = field(j, "points") ? field(j, "points") : (field(j, "at") ? field(j, "at") : key);
            for (int k = 0; k < 2; ++k) joint.point[k] = point_ref(joint.body[k], joint.point_name[k], at, entity);
          } else if (t == "prismatic" || t == "P") {
            joint.type = JointType::prismatic;
            in_.allow_only(j, entity, {"type", "bodies", "guide", "slider_point", "angle", "friction"});
            PairFriction f = prismatic_friction_;
            if (field(j, "friction")) pair_friction(field(j, "friction"), entity, false, f);
            joint.friction = f.coefficient, joint.static_friction = f.static_coefficient, joint.slider_length = f.size;
            guide(j, joint, entity);
            joint.point_name[1] =
                field(j, "slider_point") ? in_.text(field(j, "slider_point"), entity + ".slider_point") : "origin";
            joint.point[1] = point_ref(joint.body[1], joint.point_name[1],
                                       field(j, "slider_point") ? field(j, "slider_point") : key, entity);
            joint.angle_offset = in_.optional_number(j, "angle", entity, Quantity::angle).value_or(0.0);
          } else if (t == "gear") {
            joint.type = JointType::gear;
            in_.allow_only(j, entity, {"type", "bodies", "ratio", "phase"});
            joint.ratio = in_.number(in_.required(j, "ratio", entity, "give ratio: theta_second / theta_first"),
                                     entity + ".ratio");
            if (!(std::abs(joint.ratio) >= 1e-6 && std::abs(joint.ratio) <= 1e6))
              in_.fail(field(j, "ratio"), entity, "gear ratio must be between 1e-6 and 1e6 in magnitude",
                       "give theta_second / theta_first (a ratio beyond that is no gear)");
            joint.phase = in_.optional_number(j, "phase", entity, Quantity::angle).value_or(0.0);
          } else {
            in_.fail(type, entity, "unknown joint type '" + t + "'", "use revolute, prismatic or gear");
          }
          spec_.joints.push_back(std::move(joint));
        });
    // A geared wheel must turn on a ground pivot (a two-body joint or a compound ground pin).
    for (const Joint& g : spec_.joints) {
      if (g.type != JointType::gear) continue;
      const int wheel = g.body[1];
      const bool pivoted =
          std::any_of(spec_.joints.begin(), spec_.joints.end(),
                      [&](const Joint& o) {
                        return o.type == JointType::revolute && o.connects(wheel) && o.other(wheel) == 0;
                      }) ||
          std::any_of(spec_.pins.begin(), spec_.pins.end(),
                      [&](const CompoundPin& p) { return p.member(wheel) >= 0 && p.member(0) >= 0; });
      if (!pivoted)
        throw InputError(g.where, "joint '" + g.name + "'",
                         "the geared wheel '" + spec_.bodies[wheel].name + "' has no revolute joint to the ground",
                         "pin the wheel (the second body of a gear) to a ground point");
    }
  }

  /// A revolute joint of three or more bodies at one pin (docs/model-format.md, Joints).
  void compound_pin(const std::string& name, const std::string& entity, const YAML::Node& key, const YAML::Node& j,
                    const YAML::Node& bodies) {
    in_.allow_only(j, entity, {"type", "bodies", "at", "points", "friction"});
    if (bodies.size() < 2)
      in_.fail(
          bodies, entity,
          bodies.size() == 0 ? "'bodies' lists no body" : "'bodies' lists one body: a joint joins two bodies or more",
          "name every body the pin joins: bodies: [crank, coupler], or three or more at one pin: bodies: [rod, upper, "
          "lower]");
    CompoundPin pin;
    pin.name = name;
    pin.where = in_.where(key);
    for (const auto& b : bodies) {
      const int body = body_ref(b, entity);
      if (pin.member(body) >= 0)
        in_.fail(b, entity, "lists body '" + spec_.bodies[body].name + "' twice", "list each body the pin joins once");
      pin.bodies.push_back(body);
    }
    PairFriction f = revolute_friction_;
    if (field(j, "friction")) pair_friction(field(j, "friction"), entity, true, f);
    pin.friction = f.coefficient, pin.static_friction = f.static_coefficient, pin.pin_radius = f.size;
    pin.point_names.assign(pin.bodies.size(), field(j, "at") ? in_.text(field(j, "at"), entity + ".at") : name);
    if (const YAML::Node pts = field(j, "points")) {
      if (!pts.IsSequence() || pts.size() != pin.bodies.size())
        in_.fail(pts, entity,
                 "'points' names " + std::to_string(pts.IsSequence() ? pts.size() : 1) + " point(s) for " +
                     std::to_string(pin.bodies.size()) + " bodies",
                 "name one point of each body, in the order of 'bodies'");
      for (size_t k = 0; k < pts.size(); ++k) pin.point_names[k] = in_.text(pts[k], entity);
    }
    const YAML::Node at = field(j, "points") ? field(j, "points") : (field(j, "at") ? field(j, "at") : key);
    for (size_t k = 0; k < pin.bodies.size(); ++k)
      pin.points.push_back(point_ref(pin.bodies[k], pin.point_names[k], at, entity));
    spec_.pins.push_back(std::move(pin));
  }

  /// Refuses a compound pin where an element needs a two-body joint.
  void need_two_body_joint(const YAML::Node& node, const std::string& entity, const std::string& what) {
    const int p = spec_.find_pin(node.Scalar());
    if (p >= 0)
      in_.fail(node, entity,
               "'" + node.Scalar() + "' is a compound joint of " + std::to_string(spec_.pins[p].bodies.size()) +
                   " bodies, and " + what + " acts between two bodies",
               "name a two-body joint");
  }

  struct PairFriction {
    double coefficient = 0.0, static_coefficient = 0.0, size = 0.0;  // size: pin radius or slider length
  };

  /// {coefficient, static, radius} of a revolute pair or {coefficient, static, length} of a
  /// prismatic one, over `f` (the defaults). The static coefficient defaults to the kinetic one
  /// given beside it (else to the defaults' static one) and may not be below it.
  void pair_friction(const YAML::Node& node, const std::string& entity, bool revolute, PairFriction& f) {
    const char* size_key = revolute ? "radius" : "length";
    in_.allow_only(node, entity + ".friction", {"coefficient", "static", size_key});
    if (field(node, "coefficient")) {
      f.coefficient = in_.number(field(node, "coefficient"), entity + ".friction.coefficient");
      f.static_coefficient = f.coefficient;
    }
    if (field(node, "static")) f.static_coefficient = in_.number(field(node, "static"), entity + ".friction.static");
    if (node[size_key]) f.size = in_.number(node[size_key], entity + ".friction." + size_key, Quantity::length);
    if (f.coefficient < 0.0)
      in_.fail(field(node, "coefficient"), entity, "friction coefficient is negative", "give a coefficient >= 0");
    // Dry friction coefficients of real pairs lie below about 1.5; beyond 10 a value is a typo.
    for (const char* key : {"coefficient", "static"})
      if (const YAML::Node v = field(node, key); v && in_.number(v, entity) > 10.0)
        in_.fail(v, entity, fmt::format("friction {} {} is above 10", key, in_.number(v, entity)),
                 "give a Coulomb coefficient (0.05 to 1.5 for real pairs)");
    if (f.static_coefficient < f.coefficient)
      in_.fail(field(node, "static") ? field(node, "static") : node, entity,
               fmt::format("the static friction coefficient {:g} is below the kinetic one {:g}", f.static_coefficient,
                           f.coefficient),
               "give static >= coefficient (static friction holds at least what kinetic friction resists)");
    if (f.size < 0.0)
      in_.fail(node[size_key], entity, std::string("friction ") + size_key + " is negative",
               std::string("give a ") + size_key + " >= 0 in m");
  }

  void friction_defaults(const YAML::Node& node) {
    in_.allow_only(node, "friction", {"revolute", "prismatic"});
    if (field(node, "revolute")) pair_friction(field(node, "revolute"), "friction.revolute", true, revolute_friction_);
    if (field(node, "prismatic"))
      pair_friction(field(node, "prismatic"), "friction.prismatic", false, prismatic_friction_);
  }

  Vec2 vector(const YAML::Node& node, const std::string& entity, Quantity kind, const std::string& fix) {
    if (!node.IsSequence() || node.size() != 2) in_.fail(node, entity, "expected two components", fix);
    return {in_.number(node[0], entity, kind), in_.number(node[1], entity, kind)};
  }

  /// "body.point" (the ground included).
  BodyPoint body_point(const YAML::Node& node, const std::string& entity) {
    const std::string text = in_.text(node, entity);
    const auto dot = text.find('.');
    if (dot == std::string::npos)
      in_.fail(node, entity, "'" + text + "' is not body.point", "write e.g. crank.B or ground.D");
    const int b = spec_.find_body(text.substr(0, dot));
    if (b < 0)
      in_.fail(node, entity, "unknown body '" + text.substr(0, dot) + "'",
               "use 'ground' or a body defined under 'bodies'");
    return {b, point_ref(b, text.substr(dot + 1), node, entity)};
  }

  double non_negative(const YAML::Node& map, const char* key, const std::string& entity, Quantity kind, bool required) {
    if (!map[key]) {
      if (required) in_.fail(map, entity, std::string("missing field '") + key + "'", std::string("give ") + key);
      return 0.0;
    }
    const double v = in_.number(map[key], entity + "." + key, kind);
    if (v < 0.0) in_.fail(map[key], entity, std::string(key) + " is negative", std::string("give ") + key + " >= 0");
    return v;
  }

  void loads(const YAML::Node& node) {
    each_named(
        node, "loads", spec_.loads, "load",
        [&](const std::string& name, const std::string& entity, const YAML::Node& key, const YAML::Node& value) {
          const YAML::Node& l = value;
          in_.require_map(l, entity);
          Load load;
          load.name = name;
          load.where = in_.where(key);
          const YAML::Node type = in_.required(
              l, "type", entity, "give type: force, moment, spring, damper, torsional_spring or torsional_damper");
          const std::string t = in_.text(type, entity + ".type");
          if (field(l, "useful")) {
            if (!field(l, "useful").IsScalar() ||
                (field(l, "useful").Scalar() != "true" && field(l, "useful").Scalar() != "false"))
              in_.fail(field(l, "useful"), entity, "useful must be true or false", "write useful: true");
            load.useful = field(l, "useful").Scalar() == "true";
          }
          auto body_of = [&]() {
            const YAML::Node b = in_.required(l, "body", entity, "name the body it acts on");
            const int body = body_ref(b, entity);
            if (body == 0)
              in_.fail(b, entity, "a load on the ground does no work and needs no analysis",
                       "apply it to a moving body");
            return body;
          };
          auto revolute_joint = [&]() {
            const YAML::Node jn = in_.required(l, "joint", entity, "name the revolute joint it acts in");
            need_two_body_joint(jn, entity, "a torsional spring or damper");
            const int joint = spec_.find_joint(in_.text(jn, entity + ".joint"));
            if (joint < 0 || spec_.joints[joint].type != JointType::revolute)
              in_.fail(jn, entity, "'" + jn.Scalar() + "' is not a revolute joint",
                       "name a revolute joint defined under 'joints'");
            return joint;
          };
          auto between = [&]() {
            const YAML::Node points = in_.required(l, "between", entity, "give between: [body.point, body.point]");
            if (!points.IsSequence() || points.size() != 2)
              in_.fail(points, entity, "'between' names two points", "write between: [crank.B, ground.D]");
            return std::array<BodyPoint, 2>{body_point(points[0], entity), body_point(points[1], entity)};
          };
          if (t == "force" || t == "moment") {
            const bool force = t == "force";
            if (force)
              in_.allow_only(l, entity, {"type", "body", "point", "value", "table", "viscous", "useful"});
            else
              in_.allow_only(l, entity, {"type", "body", "value", "table", "useful"});
            const int body = body_of();
            PointForce point_force;
            BodyMoment moment;
            if (force) {
              const YAML::Node p = in_.required(l, "point", entity, "name the point of the body where it acts");
              point_force.at = {body, point_ref(body, in_.text(p, entity + ".point"), p, entity)};
            }
            moment.body = body;
            if ((field(l, "value") ? 1 : 0) + (field(l, "table") ? 1 : 0) + (field(l, "viscous") ? 1 : 0) > 1)
              in_.fail(field(l, "table") ? field(l, "table") : field(l, "viscous"), entity,
                       "more than one of 'value', 'table', 'viscous' is given", "give one of them");
            if (field(l, "table")) {
              load.table = load_table(field(l, "table"), entity, force);
            } else if (field(l, "viscous")) {
              point_force.viscous = non_negative(l, "viscous", entity, Quantity::plain, true);
            } else {
              const YAML::Node v =
                  in_.required(l, "value", entity, force ? "give value: [Fx, Fy] in N" : "give value: M in N m");
              if (force)
                point_force.value = vector(v, entity + ".value", Quantity::force, "write value: [Fx, Fy] in N");
              else
                moment.value = in_.number(v, entity + ".value", Quantity::moment);
            }
            if (force)
              load.element = point_force;
            else
              load.element = moment;
          } else if (t == "spring") {
            in_.allow_only(l, entity, {"type", "between", "stiffness", "free_length", "useful"});
            Spring spring;
            spring.between = between();
            spring.stiffness = non_negative(l, "stiffness", entity, Quantity::plain, true);
            spring.free_length = non_negative(l, "free_length", entity, Quantity::length, true);
            load.element = spring;
          } else if (t == "damper") {
            in_.allow_only(l, entity, {"type", "between", "damping", "useful"});
            Damper damper;
            damper.between = between();
            damper.damping = non_negative(l, "damping", entity, Quantity::plain, true);
            load.element = damper;
          } else if (t == "torsional_spring") {
            in_.allow_only(l, entity, {"type", "joint", "stiffness", "free_angle", "useful"});
            TorsionalSpring spring;
            spring.joint = revolute_joint();
            spring.stiffness = non_negative(l, "stiffness", entity, Quantity::plain, true);
            spring.free_angle = in_.optional_number(l, "free_angle", entity, Quantity::angle).value_or(0.0);
            load.element = spring;
          } else if (t == "torsional_damper") {
            in_.allow_only(l, entity, {"type", "joint", "damping", "useful"});
            TorsionalDamper damper;
            damper.joint = revolute_joint();
            damper.damping = non_negative(l, "damping", entity, Quantity::plain, true);
            load.element = damper;
          } else {
            in_.fail(type, entity, "unknown load type '" + t + "'",
                     "use force, moment, spring, damper, torsional_spring or torsional_damper");
          }
          spec_.loads.push_back(std::move(load));
        });
  }

  void actuators(const YAML::Node& node) {
    each_named(
        node, "actuators", machine_.actuators, "actuator",
        [&](const std::string& name, const std::string& entity, const YAML::Node& key, const YAML::Node& value) {
          dynamics::Actuator a;
          a.name = name;
          a.where = in_.where(key);
          const YAML::Node& n = value;
          in_.require_map(n, entity);
          const YAML::Node type = in_.required(n, "type", entity, "give type: torque, resistance or dc_motor");
          const std::string t = in_.text(type, entity + ".type");
          if (t == "resistance" && field(n, "joint")) {
            // A Coulomb-viscous force along a prismatic pair, on its second body (the slider).
            const YAML::Node jn = field(n, "joint");
            need_two_body_joint(jn, entity, "a resistance in a pair");
            dynamics::Resistance r;
            r.joint = spec_.find_joint(in_.text(jn, entity + ".joint"));
            if (r.joint < 0 || spec_.joints[r.joint].type != JointType::prismatic)
              in_.fail(jn, entity, "'" + jn.Scalar() + "' is not a prismatic joint",
                       "name a prismatic joint defined under 'joints'");
            if (field(n, "body"))
              in_.fail(field(n, "body"), entity, "a resistance in a joint acts on the joint's bodies", "remove 'body'");
            a.body = spec_.joints[r.joint].body[1];
            in_.allow_only(n, entity, {"type", "joint", "F0", "F0_static", "c"});
            r.T0 = non_negative(n, "F0", entity, Quantity::force, false);
            r.T0_static = static_resistance(n, "F0_static", r.T0, entity, Quantity::force);
            r.c = non_negative(n, "c", entity, Quantity::plain, false);
            a.law = r;
            machine_.actuators.push_back(std::move(a));
            return;
          }
          const YAML::Node body =
              in_.required(n, "body", entity, "name the body it acts on (or, for a resistance, the prismatic joint)");
          a.body = body_ref(body, entity);
          if (a.body == 0) in_.fail(body, entity, "an actuator on the ground does nothing", "name a moving body");
          auto positive = [&](const char* key, Quantity kind) {
            const double v =
                in_.number(in_.required(n, key, entity, std::string("give ") + key), entity + "." + key, kind);
            if (!(v > 0.0))
              in_.fail(n[key], entity, std::string(key) + " must be positive", std::string("give ") + key + " > 0");
            return v;
          };
          if (t == "torque") {
            dynamics::Torque torque;
            in_.allow_only(n, entity, {"type", "body", "value", "when"});
            torque.value =
                in_.number(in_.required(n, "value", entity, "give value: N m"), entity + ".value", Quantity::moment);
            if (const YAML::Node w = field(n, "when")) {
              in_.allow_only(w, entity + ".when", {"body", "omega"});
              torque.when_body =
                  body_ref(in_.required(w, "body", entity + ".when", "name the body whose turning enables it"), entity);
              const std::string sign =
                  in_.text(in_.required(w, "omega", entity + ".when", "give omega: positive or negative"), entity);
              if (sign != "positive" && sign != "negative")
                in_.fail(field(w, "omega"), entity, "omega must be positive or negative", "write omega: negative");
              torque.when_sign = sign == "positive" ? 1 : -1;
            }
            a.law = torque;
          } else if (t == "resistance") {
            dynamics::Resistance r;
            in_.allow_only(n, entity, {"type", "body", "T0", "T0_static", "c"});
            r.T0 = non_negative(n, "T0", entity, Quantity::moment, false);
            r.T0_static = static_resistance(n, "T0_static", r.T0, entity, Quantity::moment);
            r.c = non_negative(n, "c", entity, Quantity::plain, false);
            a.law = r;
          } else if (t == "dc_motor") {
            dynamics::DcMotor d;
            in_.allow_only(
                n, entity,
                {"type", "body", "voltage", "resistance", "inductance", "constant", "rotor_inertia", "reducer"});
            d.voltage = in_.number(in_.required(n, "voltage", entity, "give voltage: V"), entity + ".voltage");
            d.resistance = positive("resistance", Quantity::plain);
            d.inductance = positive("inductance", Quantity::plain);
            d.constant = positive("constant", Quantity::plain);
            d.rotor_inertia = non_negative(n, "rotor_inertia", entity, Quantity::plain, false);
            if (const YAML::Node r = field(n, "reducer")) {
              in_.allow_only(r, entity + ".reducer", {"ratio", "inertia", "efficiency"});
              d.ratio = in_.number(in_.required(r, "ratio", entity + ".reducer", "give ratio: omega_out / omega_motor"),
                                   entity + ".reducer.ratio");
              if (!(std::abs(d.ratio) >= 1e-6 && std::abs(d.ratio) <= 1e6))
                in_.fail(field(r, "ratio"), entity, "reducer ratio must be between 1e-6 and 1e6 in magnitude",
                         "give omega_out / omega_motor (a ratio beyond that is no reducer)");
              d.reducer_inertia = non_negative(r, "inertia", entity + ".reducer", Quantity::plain, false);
              d.efficiency =
                  field(r, "efficiency") ? in_.number(field(r, "efficiency"), entity + ".reducer.efficiency") : 1.0;
              if (!(d.efficiency > 0.0 && d.efficiency <= 1.0))
                in_.fail(field(r, "efficiency"), entity, "efficiency must be in (0, 1]", "give efficiency: 0.9");
            }
            a.law = d;
          } else {
            in_.fail(type, entity, "unknown actuator type '" + t + "'", "use torque, resistance or dc_motor");
          }
          machine_.actuators.push_back(std::move(a));
        });
  }

  /// The static Coulomb resistance (default: the kinetic one), not below the kinetic one.
  double static_resistance(const YAML::Node& n, const char* key, double kinetic, const std::string& entity,
                           Quantity kind) {
    if (!n[key]) return kinetic;
    const double v = non_negative(n, key, entity, kind, true);
    if (v < kinetic)
      in_.fail(n[key], entity, fmt::format("{} = {:g} is below the kinetic resistance {:g}", key, v, kinetic),
               std::string("give ") + key +
                   " >= the kinetic value (static friction holds at least what kinetic friction resists)");
    return v;
  }

  void constraint_actions(const YAML::Node& node) {
    each_named(
        node, "constraint_actions", machine_.constraint_actions, "constraint action",
        [&](const std::string& name, const std::string& entity, const YAML::Node& key, const YAML::Node& value) {
          dynamics::ConstraintAction a;
          a.name = name;
          a.where = in_.where(key);
          in_.allow_only(value, entity, {"joint", "along", "direction", "component"});
          const YAML::Node jn = in_.required(value, "joint", entity, "name the joint whose reaction it follows");
          need_two_body_joint(jn, entity, "a constraint action follows the reaction that");
          a.joint = spec_.find_joint(in_.text(jn, entity + ".joint"));
          if (a.joint < 0)
            in_.fail(jn, entity, "unknown joint '" + jn.Scalar() + "'", "name a joint defined under 'joints'");
          const Joint& j = spec_.joints[a.joint];
          if (j.type == JointType::revolute) {
            if (field(value, "along")) {
              const YAML::Node along = field(value, "along");
              if (!along.IsSequence() || along.size() != 2)
                in_.fail(along, entity, "'along' names two points of one body", "write along: [leg.K, leg.A]");
              const dynamics::AlongPoints points{{body_point(along[0], entity), body_point(along[1], entity)}};
              if (points.through[0].body != points.through[1].body ||
                  (points.through[1].local - points.through[0].local).norm() < 1e-12)
                in_.fail(along, entity, "'along' needs two distinct points of the same body",
                         "write along: [leg.K, leg.A]");
              a.component = points;
            } else {
              const double angle = in_.number(
                  in_.required(value, "direction", entity, "give along: [body.P, body.Q] or direction: angle"),
                  entity + ".direction", Quantity::angle);
              a.component = dynamics::AlongDirection{Vec2(std::cos(angle), std::sin(angle))};
            }
          } else if (j.type == JointType::prismatic) {
            const std::string c =
                field(value, "component") ? in_.text(field(value, "component"), entity + ".component") : "normal";
            if (c != "normal" && c != "moment")
              in_.fail(field(value, "component"), entity, "unknown component '" + c + "'", "use normal or moment");
            if (c == "moment")
              a.component = dynamics::PairMoment{};
            else
              a.component = dynamics::NormalForce{};
          } else {
            in_.fail(jn, entity, "a gear pair has no constraint action here", "name a revolute or prismatic joint");
          }
          machine_.constraint_actions.push_back(std::move(a));
        });
  }

  /// A coordinate of the motion by name (docs/model-format.md, tabulated loads): t, a driver,
  /// <body>.angle|omega, <joint>.displacement|speed (prismatic) or .angle|omega (revolute),
  /// <body>.<point>.x|y|vx|vy or <point>.x|y|vx|vy for a point named in one moving body.
  /// `rate` tells whether the name is a rate (omega, speed, vx, vy).
  Coordinate coordinate(const YAML::Node& node, const std::string& entity, bool& rate) {
    const std::string text = in_.text(node, entity);
    const std::string fix =
        "write t, a driver's name, <body>.angle or .omega, <joint>.displacement or .speed (prismatic), <joint>.angle "
        "or "
        ".omega (revolute), or <body>.<point>.x, .y, .vx, .vy";
    Coordinate c;
    c.label = text;
    rate = false;
    if (text == "t") return c;
    for (size_t d = 0; d < spec_.drivers.size(); ++d)
      if (spec_.drivers[d].name == text) {
        c.kind = Coordinate::driver, c.index = static_cast<int>(d);
        return c;
      }
    const auto dot = text.rfind('.');
    if (dot == std::string::npos) in_.fail(node, entity, "'" + text + "' is neither t, a driver nor a coordinate", fix);
    const std::string owner = text.substr(0, dot), what = text.substr(dot + 1);
    if (what == "angle" || what == "omega") {
      rate = what == "omega";
      if (const int b = spec_.find_body(owner); b > 0) {
        c.kind = Coordinate::body_angle, c.index = b;
        return c;
      }
      if (const int j = spec_.find_joint(owner); j >= 0 && spec_.joints[j].type == JointType::revolute) {
        c.kind = Coordinate::pair_angle, c.index = j;
        return c;
      }
      in_.fail(node, entity, "'" + owner + "' is neither a moving body nor a revolute joint", fix);
    }
    if (what == "displacement" || what == "speed") {
      rate = what == "speed";
      const int j = spec_.find_joint(owner);
      if (j < 0 || spec_.joints[j].type != JointType::prismatic)
        in_.fail(node, entity, "'" + owner + "' is not a prismatic joint", fix);
      c.kind = Coordinate::pair_displacement, c.index = j;
      return c;
    }
    if (what == "x" || what == "y" || what == "vx" || what == "vy") {
      rate = what[0] == 'v';
      c.kind = what.back() == 'x' ? Coordinate::point_x : Coordinate::point_y;
      // body.point, or a point name carried by one moving body.
      const auto inner = owner.find('.');
      if (inner != std::string::npos) {
        const int b = spec_.find_body(owner.substr(0, inner));
        if (b <= 0) in_.fail(node, entity, "'" + owner.substr(0, inner) + "' is not a moving body", fix);
        c.point[0] = {b, point_ref(b, owner.substr(inner + 1), node, entity)};
        return c;
      }
      int found = 0;
      for (size_t b = 1; b < spec_.bodies.size(); ++b)
        if (const int k = spec_.bodies[b].find_point(owner); k >= 0) {
          if (found++ == 0) c.point[0] = {static_cast<int>(b), spec_.bodies[b].points[k].local};
        }
      if (found == 0) in_.fail(node, entity, "no moving body has a point '" + owner + "'", fix);
      if (found > 1)
        in_.fail(node, entity, "several bodies have a point '" + owner + "'", "write <body>." + owner + "." + what);
      return c;
    }
    in_.fail(node, entity, "unknown coordinate '" + text + "'", fix);
  }

  /// {file, against, periodic, scale}: CSV with columns x,Fx,Fy (force) or x,M (moment), its
  /// values times scale (a load's size in a design study).
  LoadTable load_table(const YAML::Node& node, const std::string& entity, bool force) {
    in_.allow_only(node, entity + ".table", {"file", "against", "periodic", "scale"});
    LoadTable tab;
    tab.where = in_.where(node);
    const YAML::Node against =
        in_.required(node, "against", entity + ".table", "give against: t, a driver's name or a coordinate");
    tab.against = coordinate(against, entity + ".table.against", tab.rate);
    if (const YAML::Node p = field(node, "periodic")) {
      const std::string v = in_.text(p, entity + ".table.periodic");
      if (v != "true" && v != "false") in_.fail(p, entity, "periodic must be true or false", "write periodic: true");
      tab.periodic = v == "true";
    }
    const std::vector<std::vector<double>> rows = csv(in_.required(node, "file", entity + ".table", "give file: a CSV"),
                                                      entity, force ? "x,Fx,Fy" : "x,M", tab.file);
    const double scale = in_.optional_number(node, "scale", entity + ".table").value_or(1.0);
    for (const auto& r : rows) {
      tab.x.push_back(r[0]);
      tab.value.emplace_back(scale * r[1], force ? scale * r[2] : 0.0);
    }
    if (tab.periodic && (tab.value.front() - tab.value.back()).norm() > 1e-9 * (1.0 + tab.value.front().norm()))
      in_.fail(field(node, "periodic"), entity,
               fmt::format("a periodic table must end with its first value, and {} ends at {:g}", tab.file,
                           tab.value.back().x()),
               "repeat the first row's values at x + period in the last row");
    return tab;
  }

  void guide(const YAML::Node& j, Joint& joint, const std::string& entity) {
    const YAML::Node g = in_.required(
        j, "guide", entity, "give guide: {point: P, direction: 0 deg} or {through: [P, Q]} on the first body");
    in_.allow_only(g, entity + ".guide", {"point", "direction", "through"});
    if (const YAML::Node through = field(g, "through")) {
      if (!through.IsSequence() || through.size() != 2)
        in_.fail(through, entity, "'through' must name two points of the first body", "write through: [P, Q]");
      const Vec2 p = point_ref(joint.body[0], in_.text(through[0], entity), through, entity);
      const Vec2 q = point_ref(joint.body[0], in_.text(through[1], entity), through, entity);
      if ((q - p).norm() < 1e-12)
        in_.fail(through, entity, "the two guide points coincide", "name two distinct points");
      joint.point[0] = p;
      joint.point_name[0] = through[0].Scalar();
      joint.guide_dir = (q - p).normalized();
      return;
    }
    const YAML::Node point =
        in_.required(g, "point", entity + ".guide", "name a point of the first body on the guide line");
    joint.point_name[0] = in_.text(point, entity + ".guide.point");
    joint.point[0] = point_ref(joint.body[0], joint.point_name[0], point, entity);
    const double dir = in_.number(
        in_.required(g, "direction", entity + ".guide", "give direction: angle of the guide in the first body's frame"),
        entity + ".guide.direction", Quantity::angle);
    joint.guide_dir = Vec2(std::cos(dir), std::sin(dir));
  }

  void drivers(const YAML::Node& node) {
    each_named(
        node, "drivers", spec_.drivers, "driver",
        [&](const std::string& name, const std::string& entity, const YAML::Node& key, const YAML::Node& value) {
          const YAML::Node& d = value;
          in_.allow_only(d, entity, {"type", "joint", "body", "law"});
          Driver drv;
          drv.name = name;
          drv.where = in_.where(key);
          const YAML::Node type = in_.required(d, "type", entity, "give type: rotational or linear");
          const std::string t = in_.text(type, entity + ".type");
          if (t == "rotational")
            drv.type = DriverType::rotational;
          else if (t == "linear")
            drv.type = DriverType::linear;
          else
            in_.fail(type, entity, "unknown driver type '" + t + "'", "use rotational or linear");
          const YAML::Node jn = in_.required(d, "joint", entity, "name the joint it drives");
          drv.joint = spec_.find_joint(in_.text(jn, entity + ".joint"));
          drv.pin = spec_.find_pin(jn.Scalar());
          if (drv.joint < 0 && drv.pin < 0)
            in_.fail(jn, entity, "unknown joint '" + jn.Scalar() + "'", "name a joint defined under 'joints'");
          if (drv.pin >= 0) {
            pin_driver(d, jn, entity, drv);
          } else {
            if (field(d, "body"))
              in_.fail(field(d, "body"), entity,
                       "'body' names the driven member of a compound joint, and '" + jn.Scalar() + "' joins two bodies",
                       "remove 'body': the driver turns the joint's moving body");
            two_body_driver(jn, entity, drv);
          }
          drv.law =
              law(in_.required(d, "law", entity, "give a motion law, e.g. law: {type: constant_speed, speed: 10}"),
                  entity + ".law", drv.type);
          spec_.drivers.push_back(std::move(drv));
        });
  }

  /// A rotational driver on a compound ground pin turns the member named by `body`.
  void pin_driver(const YAML::Node& d, const YAML::Node& jn, const std::string& entity, Driver& drv) {
    const CompoundPin& p = spec_.pins[drv.pin];
    std::string moving;
    for (int b : p.bodies)
      if (b != 0) moving += (moving.empty() ? "" : ", ") + spec_.bodies[b].name;
    if (drv.type != DriverType::rotational)
      in_.fail(
          jn, entity, "joint '" + p.name + "' is a compound revolute joint, not a prismatic joint guided by the ground",
          "a linear driver moves a slider along a ground guide: name a prismatic joint with bodies: [ground, slider]");
    if (p.member(0) < 0)
      in_.fail(jn, entity, "joint '" + p.name + "' does not include the ground",
               "a rotational driver turns a body about a ground pivot: name a joint whose bodies include the ground");
    const YAML::Node body = field(d, "body");
    if (!body)
      in_.fail(jn, entity,
               "joint '" + p.name + "' joins several bodies at a ground pin: which one does the driver turn?",
               "add body: one of " + moving);
    drv.pin_body = body_ref(body, entity);
    if (drv.pin_body == 0 || p.member(drv.pin_body) < 0)
      in_.fail(body, entity, "'" + body.Scalar() + "' is not a moving body of joint '" + p.name + "'",
               "give body: one of " + moving);
  }

  void two_body_driver(const YAML::Node& jn, const std::string& entity, const Driver& drv) {
    const Joint& j = spec_.joints[drv.joint];
    if (drv.type == DriverType::rotational && (j.type != JointType::revolute || (j.body[0] != 0 && j.body[1] != 0)))
      in_.fail(jn, entity, "joint '" + j.name + "' is not a revolute joint to the ground",
               "a rotational driver turns a body about a ground pivot: name that revolute joint");
    if (drv.type == DriverType::linear && (j.type != JointType::prismatic || j.body[0] != 0))
      in_.fail(
          jn, entity, "joint '" + j.name + "' is not a prismatic joint guided by the ground",
          "a linear driver moves a slider along a ground guide: name a prismatic joint with bodies: [ground, slider]");
  }

  MotionLaw law(const YAML::Node& l, const std::string& entity, DriverType kind) {
    in_.require_map(l, entity);
    const Quantity coord = kind == DriverType::rotational ? Quantity::angle : Quantity::length;
    const Quantity speed = kind == DriverType::rotational ? Quantity::angular_velocity : Quantity::plain;
    const YAML::Node type =
        in_.required(l, "type", entity, "give type: sweep, constant_speed, polynomial, harmonic or table");
    const std::string t = in_.text(type, entity + ".type");
    auto steps = [&](int fallback) {
      return field(l, "steps") ? in_.integer(field(l, "steps"), entity + ".steps", 1) : fallback;
    };
    auto duration = [&](bool required) {
      if (!field(l, "duration")) {
        if (required) in_.fail(l, entity, "missing field 'duration'", "give duration: seconds");
        return 0.0;
      }
      const double v = in_.number(field(l, "duration"), entity + ".duration");
      if (!(v > 0.0)) in_.fail(field(l, "duration"), entity, "duration must be positive", "give duration in s");
      return v;
    };
    if (t == "sweep") {
      in_.allow_only(l, entity, {"type", "from", "to", "steps", "speed"});
      SweepLaw s;
      s.from = in_.number(in_.required(l, "from", entity, "give from: start value"), entity + ".from", coord);
      s.to = in_.number(in_.required(l, "to", entity, "give to: end value"), entity + ".to", coord);
      s.steps = steps(360);
      s.speed = in_.optional_number(l, "speed", entity, speed).value_or(1.0);
      if (s.speed == 0.0) in_.fail(field(l, "speed"), entity, "speed is zero", "give a non-zero speed");
      if (s.from == s.to) in_.fail(l, entity, "'from' equals 'to'", "sweep over a non-empty range");
      return s;
    }
    if (t == "constant_speed") {
      in_.allow_only(l, entity, {"type", "q0", "speed", "duration", "steps"});
      ConstantSpeedLaw c;
      c.q0 = in_.optional_number(l, "q0", entity, coord).value_or(0.0);
      c.speed = in_.number(in_.required(l, "speed", entity, "give speed"), entity + ".speed", speed);
      c.steps = steps(360);
      if (field(l, "duration")) {
        c.duration = duration(true);
      } else if (kind == DriverType::rotational && c.speed != 0.0) {
        c.duration = 2.0 * M_PI / std::abs(c.speed);  // one revolution
      } else {
        in_.fail(l, entity, "missing field 'duration'",
                 "give duration: seconds (a rotational driver defaults to one revolution)");
      }
      return c;
    }
    if (t == "polynomial") {
      in_.allow_only(l, entity, {"type", "coefficients", "duration", "steps"});
      PolynomialLaw p;
      const YAML::Node c =
          in_.required(l, "coefficients", entity, "give coefficients: [c0, c1, ...] of q = sum c_k t^k");
      if (!c.IsSequence() || c.size() == 0) in_.fail(c, entity, "coefficients must be a list", "write [c0, c1, c2]");
      for (const auto& x : c) p.coeffs.push_back(in_.number(x, entity + ".coefficients"));
      p.duration = duration(true);
      p.steps = steps(360);
      return p;
    }
    if (t == "harmonic") {
      in_.allow_only(l, entity, {"type", "c", "duration", "steps"});
      HarmonicLaw h;
      const YAML::Node c =
          in_.required(l, "c", entity, "give c: [c1, c2, c3, c4, c5] of q = c1 + c2 t + c3 cos(c4 t + c5)");
      if (!c.IsSequence() || c.size() != 5)
        in_.fail(c, entity, "c must list five numbers", "write c: [c1, c2, c3, c4, c5]");
      for (int k = 0; k < 5; ++k) h.c[k] = in_.number(c[k], entity + ".c");
      h.duration = duration(true);
      h.steps = steps(360);
      return h;
    }
    if (t == "table") {
      in_.allow_only(l, entity, {"type", "file"});
      const YAML::Node f = in_.required(l, "file", entity, "give file: a CSV with columns t, q, qd, qdd");
      return table(f, entity);
    }
    in_.fail(type, entity, "unknown law '" + t + "'", "use sweep, constant_speed, polynomial, harmonic or table");
  }

  TableLaw table(const YAML::Node& f, const std::string& entity) {
    TableLaw law;
    for (const auto& r : csv(f, entity, "t,q,qd,qdd", law.file)) {
      law.t.push_back(r[0]);
      law.q.push_back(r[1]);
      law.qd.push_back(r[2]);
      law.qdd.push_back(r[3]);
    }
    return law;
  }

  /// Rows of a CSV file (path relative to the model) with the given header; the first column
  /// strictly increasing; '#' lines are comments (parsing by io::read_csv_table).
  std::vector<std::vector<double>> csv(const YAML::Node& f, const std::string& entity,
                                       const std::string& header_expected, std::string& file) {
    const std::filesystem::path rel = in_.text(f, entity + ".file");
    const std::filesystem::path full = rel.is_absolute() ? rel : std::filesystem::path(path_).parent_path() / rel;
    file = full.string();
    if (!std::filesystem::exists(full))
      in_.fail(f, entity, "'" + file + "' does not exist", "give a path relative to the model file");
    const CsvTable csv = read_csv_table(file);
    const Table& t = csv.table;
    std::string joined;
    for (const std::string& c : t.columns) joined += (joined.empty() ? "" : ",") + c;
    if (joined != header_expected)
      throw InputError({file, csv.header_line}, "table", "the header is '" + joined + "'",
                       "the first line must be " + header_expected);
    std::vector<std::vector<double>> rows;
    for (size_t r = 0; r < t.rows(); ++r) {
      rows.emplace_back(t.values.begin() + std::ptrdiff_t(r * t.width()),
                        t.values.begin() + std::ptrdiff_t((r + 1) * t.width()));
      if (r > 0 && !(rows[r][0] > rows[r - 1][0]))
        throw InputError({file, csv.row_lines[r]}, "table", "the first column does not increase",
                         "sort the rows without repeats");
    }
    if (rows.size() < 2)
      throw InputError({file, csv.row_lines.back()}, "table", "fewer than two rows",
                       "give at least two rows of " + header_expected);
    return rows;
  }

  void assembly(const YAML::Node& node) {
    in_.require_map(node, "assembly");
    for (const auto& kv : node) {
      const std::string name = kv.first.as<std::string>();
      const std::string entity = "assembly '" + name + "'";
      in_.allow_only(kv.second, entity, {"near", "sign"});
      AssemblyHint h;
      h.name = name;
      if (const int jn = spec_.find_joint(name); jn >= 0) {
        // A joint stands for its point on either body (the second one first).
        const Joint& jt = spec_.joints[jn];
        h.anchors = {{jt.body[1], jt.point[1]}, {jt.body[0], jt.point[0]}};
      } else if (const int pin = spec_.find_pin(name); pin >= 0) {
        // A compound pin stands for its point on each member.
        const CompoundPin& p = spec_.pins[pin];
        for (size_t k = 0; k < p.bodies.size(); ++k) h.anchors.emplace_back(p.bodies[k], p.points[k]);
      } else if (const auto dot = name.find('.'); dot != std::string::npos) {
        const int b = spec_.find_body(name.substr(0, dot));
        if (b <= 0)
          in_.fail(kv.first, entity, "unknown body '" + name.substr(0, dot) + "'",
                   "write body.point with a moving body");
        h.anchors = {{b, point_ref(b, name.substr(dot + 1), kv.first, entity)}};
      } else {
        in_.fail(kv.first, entity, "'" + name + "' is neither a joint nor body.point",
                 "key the hint by a joint name or body.point");
      }
      h.where = in_.where(kv.first);
      if (field(kv.second, "near")) h.near = in_.point(field(kv.second, "near"), entity + ".near");
      if (field(kv.second, "sign")) {
        const double s = in_.number(field(kv.second, "sign"), entity + ".sign");
        if (s != 1.0 && s != -1.0)
          in_.fail(field(kv.second, "sign"), entity, "sign must be +1 or -1", "write sign: 1 or sign: -1");
        h.sign = static_cast<int>(s);
      }
      if (!h.near && h.sign == 0) in_.fail(kv.second, entity, "give 'near' or 'sign'", "write near: [x, y] or sign: 1");
      spec_.assembly.push_back(std::move(h));
    }
  }

  void structure(const YAML::Node& node) {
    spec_.structure_where = in_.where(node);
    if (!node.IsSequence())
      in_.fail(node, "structure", "expected a list of groups", "write structure: [[crank], [coupler, rocker]]");
    for (const auto& g : node) {
      if (!g.IsSequence() || g.size() == 0)
        in_.fail(g, "structure", "each group is a list of bodies", "write [coupler, rocker]");
      std::vector<std::string> names;
      for (const auto& b : g) names.push_back(in_.text(b, "structure"));
      spec_.structure.push_back(std::move(names));
    }
  }

  /// A link's cross-section for its stresses: its area, second moment and section modulus W = I / c
  /// (c the extreme fibre's distance from the neutral axis, in the mechanism's plane); all 0
  /// without `section:`, only the modulus with `section: {modulus: W}`.
  struct SectionShape {
    double area = 0.0, second_moment = 0.0, modulus = 0.0;
  };
  SectionShape section_shape(const YAML::Node& link, const std::string& link_entity) {
    SectionShape out;
    const YAML::Node n = field(link, "section");
    if (!n) return out;
    const std::string entity = link_entity + ".section";
    in_.require_map(n, entity);
    const std::string hint =
        "write section: {shape: rectangle, width: 20 mm, height: 6 mm} (height in the mechanism's plane), "
        "{shape: tube, outer: , inner: }, {shape: I, height: , width: , flange: , web: } or {modulus: W in m^3}";
    if (!field(n, "shape")) {
      in_.allow_only(n, entity, {"modulus"});
      out.modulus = non_negative(n, "modulus", entity, Quantity::plain, true);
      if (!(out.modulus > 0.0)) in_.fail(n, entity, "the section modulus must be positive", hint);
      return out;
    }
    const std::string shape = in_.text(field(n, "shape"), entity + ".shape");
    const auto length = [&](const char* key, bool required = true) {
      const double v = non_negative(n, key, entity, Quantity::length, required);
      if (required && !(v > 0.0)) in_.fail(n[key], entity, std::string(key) + " must be positive", hint);
      return v;
    };
    double depth = 0.0;  // the extent in the mechanism's plane
    if (shape == "rectangle") {
      in_.allow_only(n, entity, {"shape", "width", "height"});
      const double b = length("width"), h = length("height");
      out.area = b * h, out.second_moment = b * h * h * h / 12.0, depth = h;
    } else if (shape == "tube") {
      in_.allow_only(n, entity, {"shape", "outer", "inner"});
      const double D = length("outer"), d = length("inner", false);
      if (!(d < D)) in_.fail(n["inner"], entity, "the inner diameter is not below the outer one", hint);
      out.area = M_PI * (D * D - d * d) / 4.0, out.second_moment = M_PI * (D * D * D * D - d * d * d * d) / 64.0;
      depth = D;
    } else if (shape == "I") {
      in_.allow_only(n, entity, {"shape", "height", "width", "flange", "web"});
      const double h = length("height"), b = length("width"), tf = length("flange"), tw = length("web");
      if (!(2.0 * tf < h) || !(tw <= b))
        in_.fail(n, entity, "the flanges or the web do not fit the height and width", hint);
      const double hw = h - 2.0 * tf;  // web height
      out.area = 2.0 * b * tf + tw * hw;
      out.second_moment = (b * h * h * h - (b - tw) * hw * hw * hw) / 12.0;
      depth = h;
    } else {
      in_.fail(field(n, "shape"), entity, "unknown shape '" + shape + "'", hint);
    }
    out.modulus = out.second_moment / (0.5 * depth);
    return out;
  }

  /// E, rho, A and I (A and I may come from a `section:` shape, or agree with it within 1 %) and
  /// the section modulus, of a link or of one of its segments (E, rho: the link's when given).
  flex::BeamSection beam_section(const YAML::Node& n, const std::string& entity, double E, double rho) {
    const SectionShape shape = section_shape(n, entity);
    flex::BeamSection out{E, rho, 0.0, 0.0, shape.modulus};
    double* values[4] = {&out.E, &out.rho, &out.A, &out.I};
    const char* keys[4] = {"E", "rho", "A", "I"};
    const char* units[4] = {"Pa", "kg/m^3", "m^2", "m^4"};
    for (int k = 0; k < 4; ++k) {
      const bool inherited = k < 2 && *values[k] > 0.0 && !field(n, keys[k]);  // the link's E or rho
      if (inherited) continue;
      const bool from_shape = k >= 2 && shape.area > 0.0;  // A and I may come from the section's shape
      *values[k] = non_negative(n, keys[k], entity, Quantity::plain, !from_shape);
      if (from_shape && !field(n, keys[k])) {
        *values[k] = k == 2 ? shape.area : shape.second_moment;
      } else if (from_shape) {
        const double derived = k == 2 ? shape.area : shape.second_moment;
        if (std::abs(*values[k] - derived) > 0.01 * derived)
          in_.fail(n[keys[k]], entity,
                   fmt::format("{} = {:.6g} {} differs from the section's {:.6g} {} by more than 1 %", keys[k],
                               *values[k], units[k], derived, units[k]),
                   fmt::format("leave {} out (the section gives it) or correct the section", keys[k]));
      }
      if (!(*values[k] > 0.0))
        in_.fail(n[keys[k]] ? n[keys[k]] : n, entity, std::string(keys[k]) + " must be positive",
                 std::string("give ") + keys[k] + " > 0 in " + units[k]);
    }
    return out;
  }

  /// Elastic links for `linkdyn flex` (docs/model-format.md, docs/elastic-links.md).
  void elastic_links(const YAML::Node& node) {
    each_named(
        node, "elastic_links", elastic_links_, "elastic link",
        [&](const std::string& name, const std::string& entity, const YAML::Node& key, const YAML::Node& value) {
          const YAML::Node& n = value;
          in_.require_map(n, entity);
          in_.allow_only(n, entity,
                         {"body", "from", "to", "E", "rho", "A", "I", "section", "elements", "supports",
                          "geometric_stiffness", "damping", "masses", "segments"});
          flex::ElasticLinkSpec e;
          e.name = name;
          e.where = in_.where(key);
          const YAML::Node body = in_.required(n, "body", entity, "name the body that bends");
          e.body = body_ref(body, entity);
          if (e.body == 0) in_.fail(body, entity, "the ground does not bend", "name a moving body");
          const char* ends[2] = {"from", "to"};
          for (int k = 0; k < 2; ++k) {
            const YAML::Node p = in_.required(
                n, ends[k], entity,
                std::string("name the point of the body at the beam's ") + (k == 0 ? "first" : "second") + " end");
            e.point_name[k] = in_.text(p, entity + "." + ends[k]);
            e.point[k] = point_ref(e.body, e.point_name[k], p, entity);
          }
          if (const YAML::Node list = field(n, "segments")) {
            // Piecewise sections: E and rho from the link unless a segment gives its own; A, I or
            // the section per segment.
            for (const char* key : {"A", "I", "section", "elements"})
              if (field(n, key))
                in_.fail(field(n, key), entity, std::string("gives ") + key + " and segments",
                         std::string("give ") + key + " in each segment");
            const std::string hint =
                "write segments: [{length: 0.1 m, elements: 4, section: {shape: tube, outer: 30 mm, inner: 24 mm}}, "
                "...]";
            if (!list.IsSequence() || list.size() == 0) in_.fail(list, entity, "segments must be a list", hint);
            const double E = non_negative(n, "E", entity, Quantity::plain, false),
                         rho = non_negative(n, "rho", entity, Quantity::plain, false);
            for (const YAML::Node& item : list) {
              const std::string where = entity + ".segments";
              in_.require_map(item, where);
              in_.allow_only(item, where, {"length", "elements", "E", "rho", "A", "I", "section"});
              flex::LinkSegment segment;
              segment.where = in_.where(item);
              segment.beam.length = non_negative(item, "length", where, Quantity::length, true);
              if (!(segment.beam.length > 0.0))
                in_.fail(item["length"], where, "a segment's length must be positive", hint);
              segment.beam.elements =
                  field(item, "elements") ? in_.integer(field(item, "elements"), where + ".elements", 1) : 2;
              segment.beam.section = beam_section(item, where, E, rho);
              e.segments.push_back(segment);
            }
            int elements = 0;
            for (const flex::LinkSegment& segment : e.segments) elements += segment.beam.elements;
            if (elements > 200) in_.fail(list, entity, "more than 200 elements", "give fewer elements per segment");
            e.elements = elements;
            const flex::BeamSection& first = e.segments.front().beam.section;
            e.E = first.E, e.rho = first.rho, e.A = first.A, e.I = first.I, e.section_modulus = first.W;
          } else {
            const flex::BeamSection section = beam_section(n, entity, 0.0, 0.0);
            e.E = section.E, e.rho = section.rho, e.A = section.A, e.I = section.I, e.section_modulus = section.W;
          }
          if (field(n, "elements")) {
            e.elements = in_.integer(field(n, "elements"), entity + ".elements", 1);
            // Dense assembly: a few hundred elements are far beyond what a link's low modes need.
            if (e.elements > 200)
              in_.fail(field(n, "elements"), entity, "more than 200 elements",
                       "give elements <= 200 (10 give the first three modes to 0.1 %)");
          }
          const YAML::Node supports = in_.required(
              n, "supports", entity, "give supports: [pinned, sliding] (clamped, pinned, sliding or free per end)");
          if (!supports.IsSequence() || supports.size() != 2)
            in_.fail(supports, entity, "supports must list the two ends", "write supports: [pinned, sliding]");
          for (int k = 0; k < 2; ++k) {
            const std::string s = in_.text(supports[k], entity + ".supports");
            if (s == "clamped")
              e.supports[k] = flex::BeamSupport::clamped;
            else if (s == "pinned")
              e.supports[k] = flex::BeamSupport::pinned;
            else if (s == "sliding")
              e.supports[k] = flex::BeamSupport::sliding;
            else if (s == "free")
              e.supports[k] = flex::BeamSupport::free;
            else
              in_.fail(supports[k], entity, "unknown support '" + s + "'", "use clamped, pinned, sliding or free");
          }
          if (const YAML::Node d = field(n, "damping")) {
            // Rayleigh {alpha, beta} or {ratio} for the first two modes (docs/elastic-links.md).
            in_.allow_only(d, entity + ".damping", {"alpha", "beta", "ratio"});
            const std::string hint = "write damping: {ratio: 0.02} or damping: {alpha: 1/s, beta: s}";
            if (field(d, "ratio")) {
              if (field(d, "alpha") || field(d, "beta"))
                in_.fail(d, entity, "damping gives a ratio and Rayleigh coefficients", hint);
              e.damping_ratio = non_negative(d, "ratio", entity + ".damping", Quantity::plain, true);
              if (!(e.damping_ratio < 1.0))
                in_.fail(field(d, "ratio"), entity, "a damping ratio of 1 or more leaves no vibration", hint);
            } else {
              e.damping_alpha = non_negative(d, "alpha", entity + ".damping", Quantity::plain, false);
              e.damping_beta = non_negative(d, "beta", entity + ".damping", Quantity::plain, false);
            }
          }
          if (const YAML::Node list = field(n, "masses")) {
            const std::string hint = "write masses: [{at: 0.5 m, mass: 0.2, inertia: 1e-5}] (at: from the first end)";
            if (!list.IsSequence()) in_.fail(list, entity, "masses must be a list", hint);
            for (const YAML::Node& item : list) {
              const std::string where = entity + ".masses";
              in_.require_map(item, where);
              in_.allow_only(item, where, {"at", "mass", "inertia"});
              flex::AttachedMass a;
              a.at = non_negative(item, "at", where, Quantity::length, true);
              a.mass = non_negative(item, "mass", where, Quantity::plain, true);
              a.inertia = non_negative(item, "inertia", where, Quantity::plain, false);
              a.where = in_.where(item);
              e.masses.push_back(a);
            }
          }
          if (const YAML::Node g = field(n, "geometric_stiffness")) {
            const std::string v = in_.text(g, entity + ".geometric_stiffness");
            if (v != "true" && v != "false")
              in_.fail(g, entity, "geometric_stiffness must be true or false", "write geometric_stiffness: true");
            e.geometric_stiffness = v == "true";
          }
          elastic_links_.push_back(std::move(e));
        });
    for (size_t b = 1; b < spec_.bodies.size(); ++b) beam_inertia(static_cast<int>(b));
  }

  /// A body that bends has the inertia of its beams: mass rho A L, centre at mid-chord, m L^2 / 12
  /// about it (combined by the parallel-axis theorem when it carries several). Its mass,
  /// inertia and com are set from them; values the model gives must agree within 1 % (of the
  /// mass, the inertia, the length), else InputError naming both: a body mass of 0 under a
  /// beam made the end forces, hence the axial force and the geometric stiffness, wrong.
  void beam_inertia(int b) {
    struct Beam {
      const flex::ElasticLinkSpec* link;
      double length, mass;
      Vec2 centre;
    };
    std::vector<Beam> beams;
    double mass = 0.0, length = 0.0;
    Vec2 first_moment = Vec2::Zero();
    struct Point {
      double mass, inertia;
      Vec2 at;
    };
    std::vector<Point> points;  // the links' attached masses
    for (const flex::ElasticLinkSpec& e : elastic_links_)
      if (e.body == b) {
        const double L = (e.point[1] - e.point[0]).norm();
        const Vec2 axis = L > 0.0 ? Vec2((e.point[1] - e.point[0]) / L) : Vec2::Zero();
        // One uniform rod per segment (the whole link when it has none) along the chord.
        double start = 0.0;
        for (size_t k = 0; k < std::max<size_t>(e.segments.size(), 1); ++k) {
          const double piece = e.segments.empty() ? L : e.segments[k].beam.length,
                       mu = e.segments.empty() ? e.rho * e.A : e.segments[k].beam.section.mass_per_length();
          const Vec2 centre = e.segments.empty() ? Vec2(0.5 * (e.point[0] + e.point[1]))
                                                 : Vec2(e.point[0] + (start + 0.5 * piece) * axis);
          beams.push_back({&e, piece, mu * piece, centre});
          mass += beams.back().mass, first_moment += beams.back().mass * beams.back().centre;
          start += piece;
        }
        length = std::max(length, L);
        for (const flex::AttachedMass& a : e.masses) {
          const Vec2 at = e.point[0] + (L > 0.0 ? a.at / L : 0.0) * (e.point[1] - e.point[0]);
          points.push_back({a.mass, a.inertia, at});
          mass += a.mass, first_moment += a.mass * at;
        }
      }
    if (beams.empty() || !(mass > 0.0)) return;
    const Vec2 com = first_moment / mass;
    double inertia = 0.0;  // m L^2 / 12 about each centre, moved to the body's (parallel axes)
    for (const Beam& beam : beams)
      inertia += beam.mass * (beam.length * beam.length / 12.0 + (beam.centre - com).squaredNorm());
    for (const Point& p : points) inertia += p.inertia + p.mass * (p.at - com).squaredNorm();
    Body& body = spec_.bodies[static_cast<size_t>(b)];
    const YAML::Node given = field(bodies_node_, body.name.c_str());
    const std::string entity = "body '" + body.name + "'", link = "elastic link '" + beams.front().link->name + "'";
    const std::string fix = "remove the entry (the beam gives it) or make the two agree within 1 %";
    if (const YAML::Node v = field(given, "mass"); !v)
      body.mass = mass;
    else if (std::abs(body.mass - mass) > 0.01 * mass)
      in_.fail(v, entity,
               points.empty()
                   ? fmt::format("mass {:g} kg differs from rho A L = {:g} kg of its {}", body.mass, mass, link)
                   : fmt::format("mass {:g} kg differs from the {:g} kg of its {} (rho A L and its attached masses)",
                                 body.mass, mass, link),
               fix);
    if (const YAML::Node v = field(given, "inertia"); !v)
      body.inertia = inertia;
    else if (std::abs(body.inertia - inertia) > 0.01 * inertia)
      in_.fail(v, entity,
               fmt::format("inertia {:g} kg m^2 differs from m L^2 / 12 = {:g} kg m^2 of its {}", body.inertia, inertia,
                           link),
               fix);
    if (const YAML::Node v = field(given, "com"); !v)
      body.com = com;
    else if ((body.com - com).norm() > 0.01 * length)
      in_.fail(v, entity,
               fmt::format("com ({:g}, {:g}) m differs from the mid-chord ({:g}, {:g}) m of its {}", body.com.x(),
                           body.com.y(), com.x(), com.y(), link),
               fix);
  }

  void analysis(const YAML::Node& node) {
    in_.allow_only(node, "analysis", {"duration", "steps", "start"});
    TimeGrid grid;
    grid.t0 = in_.optional_number(node, "start", "analysis").value_or(0.0);
    const double duration =
        in_.number(in_.required(node, "duration", "analysis", "give duration: seconds"), "analysis.duration");
    if (!(duration > 0.0))
      in_.fail(field(node, "duration"), "analysis", "duration must be positive", "give duration in s");
    grid.t_end = grid.t0 + duration;
    grid.steps = field(node, "steps") ? in_.integer(field(node, "steps"), "analysis.steps", 1) : 360;
    spec_.grid = grid;
  }

  YamlReader in_;
  std::string path_;
  MechanismSpec spec_;
  dynamics::MachineSpec machine_;
  std::vector<flex::ElasticLinkSpec> elastic_links_;
  YAML::Node bodies_node_;                               // the bodies: map, to tell given entries from defaults
  PairFriction revolute_friction_, prismatic_friction_;  // model-wide defaults
};

}  // namespace

Model parse_model(const std::string& text, const std::string& path) {
  return parse_model_tree(YamlReader(path).load(text), path);
}

Model parse_model_tree(const YAML::Node& root, const std::string& path) {
  try {
    return ModelParser(path).parse(root);
  } catch (const YAML::Exception& e) {  // a node of an unexpected kind (a complex key, a sequence as a name)
    throw InputError({path, e.mark.line + 1}, "model", "unexpected YAML: " + e.msg,
                     "write the entry as docs/model-format.md shows");
  }
}

Model read_model(const std::string& path) {
  return parse_model(read_text_file(path, "model", max_model_file_bytes), path);
}

MechanismSpec parse_planar_model(const std::string& text, const std::string& path) {
  return parse_model(text, path).mechanism;
}

MechanismSpec read_planar_model(const std::string& path) { return read_model(path).mechanism; }

Mechanism load_mechanism(const std::string& path, const CompileOptions& options) {
  return compile(read_planar_model(path), options);
}

dynamics::DynamicSystem load_machine(const std::string& path) {
  Model model = read_model(path);
  return dynamics::DynamicSystem(compile(model.mechanism), std::move(model.machine));
}

}  // namespace linkdyn::io
