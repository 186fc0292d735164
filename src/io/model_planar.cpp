// The model file's planar mechanism: ground, bodies and their points, joints and compound pins
// with their friction, drivers and motion laws, assembly hints, structure, the analysis grid.
#include <algorithm>
#include <cmath>

#include "io/model_parser.hpp"

namespace linkdyn::io {
using namespace linkdyn::planar;

void ModelParser::ground(const YAML::Node& root) {
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

void ModelParser::bodies(const YAML::Node& node) {
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

int ModelParser::body_ref(const YAML::Node& node, const std::string& entity) {
  const std::string name = in_.text(node, entity);
  const int b = spec_.find_body(name);
  if (b < 0) in_.fail(node, entity, "unknown body '" + name + "'", "use 'ground' or a body defined under 'bodies'");
  return b;
}

/// A named point of a body ("origin" is the body frame's origin).
Vec2 ModelParser::point_ref(int body, const std::string& name, const YAML::Node& at, const std::string& entity) {
  const Body& b = spec_.bodies[body];
  const int k = b.find_point(name);
  if (k >= 0) return b.points[k].local;
  if (name == "origin") return Vec2::Zero();
  in_.fail(at, entity, (body == 0 ? "the ground has no point '" : "body '" + b.name + "' has no point '") + name + "'",
           body == 0 ? "add it under 'ground'" : "add it under bodies." + b.name + ".points, or name another point");
}

/// "body.point" (the ground included).
BodyPoint ModelParser::body_point(const YAML::Node& node, const std::string& entity) {
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

void ModelParser::joints(const YAML::Node& node) {
  each_named(node, "joints", spec_.joints, "joint",
             [&](const std::string& name, const std::string& entity, const YAML::Node& key, const YAML::Node& value) {
               const YAML::Node& j = value;
               in_.require_map(j, entity);
               if (spec_.find_pin(name) >= 0) in_.fail(key, entity, "is defined twice", "give each joint its own name");
               Joint joint;
               joint.name = name;
               joint.where = in_.where(key);
               const YAML::Node type = in_.required(j, "type", entity, "give type: revolute, prismatic, gear or cam");
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
                 in_.allow_only(j, entity, {"type", "bodies", "at", "points", "friction"});
                 PairFriction f = revolute_friction_;
                 if (field(j, "friction")) pair_friction(field(j, "friction"), entity + ".friction", "radius", f);
                 joint.friction = f.coefficient, joint.static_friction = f.static_coefficient;
                 joint.kind = RevolutePair{f.size};
                 joint.point_name = {name, name};
                 if (field(j, "at"))
                   joint.point_name[0] = joint.point_name[1] = in_.text(field(j, "at"), entity + ".at");
                 if (const YAML::Node pts = field(j, "points")) {
                   if (!pts.IsSequence() || pts.size() != 2)
                     in_.fail(pts, entity, "'points' must name one point in each body", "write points: [B, B]");
                   joint.point_name = {in_.text(pts[0], entity), in_.text(pts[1], entity)};
                 }
                 const YAML::Node at =
                     field(j, "points") ? field(j, "points") : (field(j, "at") ? field(j, "at") : key);
                 for (int k = 0; k < 2; ++k) joint.point[k] = point_ref(joint.body[k], joint.point_name[k], at, entity);
               } else if (t == "prismatic" || t == "P") {
                 PrismaticPair& slide = joint.kind.emplace<PrismaticPair>();
                 in_.allow_only(j, entity, {"type", "bodies", "guide", "slider_point", "angle", "friction"});
                 PairFriction f = prismatic_friction_;
                 if (field(j, "friction")) pair_friction(field(j, "friction"), entity + ".friction", "length", f);
                 joint.friction = f.coefficient, joint.static_friction = f.static_coefficient;
                 slide.slider_length = f.size;
                 guide(j, joint, entity);
                 joint.point_name[1] =
                     field(j, "slider_point") ? in_.text(field(j, "slider_point"), entity + ".slider_point") : "origin";
                 joint.point[1] = point_ref(joint.body[1], joint.point_name[1],
                                            field(j, "slider_point") ? field(j, "slider_point") : key, entity);
                 slide.angle_offset = in_.optional_number(j, "angle", entity, Quantity::angle).value_or(0.0);
               } else if (t == "gear") {
                 GearPair& gear = joint.kind.emplace<GearPair>();
                 in_.allow_only(j, entity, {"type", "bodies", "ratio", "phase"});
                 gear.ratio = in_.number(in_.required(j, "ratio", entity, "give ratio: theta_second / theta_first"),
                                         entity + ".ratio");
                 if (!(std::abs(gear.ratio) >= 1e-6 && std::abs(gear.ratio) <= 1e6))
                   in_.fail(field(j, "ratio"), entity, "gear ratio must be between 1e-6 and 1e6 in magnitude",
                            "give theta_second / theta_first (a ratio beyond that is no gear)");
                 gear.phase = in_.optional_number(j, "phase", entity, Quantity::angle).value_or(0.0);
               } else if (t == "cam") {
                 cam_joint(j, joint, entity);
               } else {
                 in_.fail(type, entity, "unknown joint type '" + t + "'", "use revolute, prismatic, gear or cam");
               }
               spec_.joints.push_back(std::move(joint));
             });
  cam_geometry();
  // A geared wheel must turn on a ground pivot (a two-body joint or a compound ground pin).
  for (const Joint& g : spec_.joints) {
    if (!g.is<GearPair>()) continue;
    const int wheel = g.body[1];
    const bool pivoted =
        std::any_of(spec_.joints.begin(), spec_.joints.end(),
                    [&](const Joint& o) { return o.is<RevolutePair>() && o.connects(wheel) && o.other(wheel) == 0; }) ||
        std::any_of(spec_.pins.begin(), spec_.pins.end(),
                    [&](const CompoundPin& p) { return p.member(wheel) >= 0 && p.member(0) >= 0; });
    if (!pivoted)
      throw InputError(g.where, "joint '" + g.name + "'",
                       "the geared wheel '" + spec_.bodies[wheel].name + "' has no revolute joint to the ground",
                       "pin the wheel (the second body of a gear) to a ground point");
  }
}

/// A revolute joint of three or more bodies at one pin (docs/model-format.md, Joints).
void ModelParser::compound_pin(const std::string& name, const std::string& entity, const YAML::Node& key,
                               const YAML::Node& j, const YAML::Node& bodies) {
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
  if (field(j, "friction")) pair_friction(field(j, "friction"), entity + ".friction", "radius", f);
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
void ModelParser::need_two_body_joint(const YAML::Node& node, const std::string& entity, const std::string& what) {
  const int p = spec_.find_pin(node.Scalar());
  if (p >= 0)
    in_.fail(node, entity,
             "'" + node.Scalar() + "' is a compound joint of " + std::to_string(spec_.pins[p].bodies.size()) +
                 " bodies, and " + what + " acts between two bodies",
             "name a two-body joint");
}

/// {coefficient, static, radius} of a revolute pair or a roller, {coefficient, static, length}
/// of a prismatic pair or {coefficient, static} of a knife edge, over `f` (the defaults). The static coefficient
/// defaults to the kinetic one given beside it (else to the defaults' static one) and may not be below it.
void ModelParser::pair_friction(const YAML::Node& node, const std::string& path, const char* size_key,
                                PairFriction& f) {
  if (size_key)
    in_.allow_only(node, path, {"coefficient", "static", size_key});
  else
    in_.allow_only(node, path, {"coefficient", "static"});
  if (field(node, "coefficient")) {
    f.coefficient = in_.number(field(node, "coefficient"), path + ".coefficient");
    f.static_coefficient = f.coefficient;
  }
  if (field(node, "static")) f.static_coefficient = in_.number(field(node, "static"), path + ".static");
  if (size_key && node[size_key]) f.size = in_.number(node[size_key], path + "." + size_key, Quantity::length);
  if (f.coefficient < 0.0)
    in_.fail(field(node, "coefficient"), path, "friction coefficient is negative", "give a coefficient >= 0");
  // Dry friction coefficients of real pairs lie below about 1.5; beyond 10 a value is a typo.
  for (const char* key : {"coefficient", "static"})
    if (const YAML::Node v = field(node, key); v && in_.number(v, path) > 10.0)
      in_.fail(v, path, fmt::format("friction {} {} is above 10", key, in_.number(v, path)),
               "give a Coulomb coefficient (0.05 to 1.5 for real pairs)");
  if (f.static_coefficient < f.coefficient)
    in_.fail(field(node, "static") ? field(node, "static") : node, path,
             fmt::format("the static friction coefficient {:g} is below the kinetic one {:g}", f.static_coefficient,
                         f.coefficient),
             "give static >= coefficient (static friction holds at least what kinetic friction resists)");
  if (f.size < 0.0)
    in_.fail(node[size_key], path, std::string("friction ") + size_key + " is negative",
             std::string("give a ") + size_key + " >= 0 in m");
}

void ModelParser::friction_defaults(const YAML::Node& node) {
  in_.allow_only(node, "friction", {"revolute", "prismatic"});
  if (field(node, "revolute"))
    pair_friction(field(node, "revolute"), "friction.revolute", "radius", revolute_friction_);
  if (field(node, "prismatic"))
    pair_friction(field(node, "prismatic"), "friction.prismatic", "length", prismatic_friction_);
}

void ModelParser::guide(const YAML::Node& j, Joint& joint, const std::string& entity) {
  const YAML::Node g = in_.required(j, "guide", entity,
                                    "give guide: {point: P, direction: 0 deg} or {through: [P, Q]} on the first body");
  in_.allow_only(g, entity + ".guide", {"point", "direction", "through"});
  if (const YAML::Node through = field(g, "through")) {
    if (!through.IsSequence() || through.size() != 2)
      in_.fail(through, entity, "'through' must name two points of the first body", "write through: [P, Q]");
    const Vec2 p = point_ref(joint.body[0], in_.text(through[0], entity), through, entity);
    const Vec2 q = point_ref(joint.body[0], in_.text(through[1], entity), through, entity);
    if ((q - p).norm() < 1e-12) in_.fail(through, entity, "the two guide points coincide", "name two distinct points");
    joint.point[0] = p;
    joint.point_name[0] = through[0].Scalar();
    joint.as<PrismaticPair>().guide_dir = (q - p).normalized();
    return;
  }
  const YAML::Node point =
      in_.required(g, "point", entity + ".guide", "name a point of the first body on the guide line");
  joint.point_name[0] = in_.text(point, entity + ".guide.point");
  joint.point[0] = point_ref(joint.body[0], joint.point_name[0], point, entity);
  const double dir = in_.number(
      in_.required(g, "direction", entity + ".guide", "give direction: angle of the guide in the first body's frame"),
      entity + ".guide.direction", Quantity::angle);
  joint.as<PrismaticPair>().guide_dir = Vec2(std::cos(dir), std::sin(dir));
}

void ModelParser::drivers(const YAML::Node& node) {
  each_named(
      node, "drivers", spec_.drivers, "driver",
      [&](const std::string& name, const std::string& entity, const YAML::Node& key, const YAML::Node& value) {
        const YAML::Node& d = value;
        if (d.IsMap() && field(d, "type") && field(d, "type").IsScalar() && field(d, "type").Scalar() == "cylinder") {
          cylinder(name, entity, key, d);
          return;
        }
        in_.allow_only(d, entity, {"type", "joint", "body", "law"});
        Driver drv;
        drv.name = name;
        drv.where = in_.where(key);
        const YAML::Node type = in_.required(d, "type", entity, "give type: rotational, linear or cylinder");
        const std::string t = in_.text(type, entity + ".type");
        if (t == "rotational")
          drv.type = DriverType::rotational;
        else if (t == "linear")
          drv.type = DriverType::linear;
        else
          in_.fail(type, entity, "unknown driver type '" + t + "'", "use rotational, linear or cylinder");
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
        drv.law = law(in_.required(d, "law", entity, "give a motion law, e.g. law: {type: constant_speed, speed: 10}"),
                      entity + ".law", drv.type);
        spec_.drivers.push_back(std::move(drv));
      });
}

/// A rotational driver on a compound ground pin turns the member named by `body`.
void ModelParser::pin_driver(const YAML::Node& d, const YAML::Node& jn, const std::string& entity, Driver& drv) {
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
    in_.fail(jn, entity, "joint '" + p.name + "' joins several bodies at a ground pin: which one does the driver turn?",
             "add body: one of " + moving);
  drv.pin_body = body_ref(body, entity);
  if (drv.pin_body == 0 || p.member(drv.pin_body) < 0)
    in_.fail(body, entity, "'" + body.Scalar() + "' is not a moving body of joint '" + p.name + "'",
             "give body: one of " + moving);
}

void ModelParser::two_body_driver(const YAML::Node& jn, const std::string& entity, const Driver& drv) {
  const Joint& j = spec_.joints[drv.joint];
  if (drv.type == DriverType::rotational && (!j.is<RevolutePair>() || (j.body[0] != 0 && j.body[1] != 0)))
    in_.fail(jn, entity, "joint '" + j.name + "' is not a revolute joint to the ground",
             "a rotational driver turns a body about a ground pivot: name that revolute joint");
  if (drv.type == DriverType::linear && (!j.is<PrismaticPair>() || j.body[0] != 0))
    in_.fail(
        jn, entity, "joint '" + j.name + "' is not a prismatic joint guided by the ground",
        "a linear driver moves a slider along a ground guide: name a prismatic joint with bodies: [ground, slider]");
}

MotionLaw ModelParser::law(const YAML::Node& l, const std::string& entity, DriverType kind) {
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
  // A speed so slow that the law's span is no usable time (1e-308 rad/s: t = inf).
  auto require_finite_span = [&](double span, const char* what) {
    if (span < max_input_magnitude) return;
    const YAML::Node at = field(l, "speed") ? field(l, "speed") : l;
    in_.fail(at, entity,
             fmt::format("at this speed {} takes {:.3g} s, beyond the {:.0e} s a time may be", what, span,
                         max_input_magnitude),
             "give a faster speed");
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
    require_finite_span(std::abs(s.to - s.from) / std::abs(s.speed), "the sweep");
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
      require_finite_span(c.duration, "one revolution");
    } else {
      in_.fail(l, entity, "missing field 'duration'",
               "give duration: seconds (a rotational driver defaults to one revolution)");
    }
    return c;
  }
  if (t == "polynomial") {
    in_.allow_only(l, entity, {"type", "coefficients", "duration", "steps"});
    PolynomialLaw p;
    const YAML::Node c = in_.required(l, "coefficients", entity, "give coefficients: [c0, c1, ...] of q = sum c_k t^k");
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

TableLaw ModelParser::table(const YAML::Node& f, const std::string& entity) {
  TableLaw law;
  for (const auto& r : csv(f, entity, "t,q,qd,qdd", law.file)) {
    law.t.push_back(r[0]);
    law.q.push_back(r[1]);
    law.qd.push_back(r[2]);
    law.qdd.push_back(r[3]);
  }
  return law;
}

void ModelParser::assembly(const YAML::Node& node) {
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
        in_.fail(kv.first, entity, "unknown body '" + name.substr(0, dot) + "'", "write body.point with a moving body");
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

void ModelParser::structure(const YAML::Node& node) {
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

void ModelParser::analysis(const YAML::Node& node) {
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

}  // namespace linkdyn::io
