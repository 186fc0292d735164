// Planar model files: YAML -> MechanismSpec. Format: docs/model-format.md.
#include "linkdyn/io/model_file.hpp"

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "io/yaml_reader.hpp"

namespace linkdyn::io {
using namespace linkdyn::planar;

namespace {

class ModelParser {
 public:
  explicit ModelParser(const std::string& path) : in_(path), path_(path) {}

  MechanismSpec parse(const YAML::Node& root) {
    if (!root || root.IsNull()) {
      throw InputError({path_, 1}, "model", "the file is empty", "describe ground, bodies, joints and drivers");
    }
    in_.allow_only(root, "model",
                   {"name", "description", "ground", "bodies", "joints", "drivers", "assembly",
                    "structure", "analysis"});
    spec_.where = {path_, 1};
    spec_.name = root["name"] ? in_.text(root["name"], "name")
                              : std::filesystem::path(path_).stem().string();
    ground(root);
    bodies(in_.required(root, "bodies", "model", "add a 'bodies:' map"));
    joints(in_.required(root, "joints", "model", "add a 'joints:' map"));
    drivers(in_.required(root, "drivers", "model", "add a 'drivers:' map"));
    if (root["assembly"]) assembly(root["assembly"]);
    if (root["structure"]) structure(root["structure"]);
    if (root["analysis"]) analysis(root["analysis"]);
    return std::move(spec_);
  }

 private:
  template <class Item>
  void no_duplicate(const std::vector<Item>& items, const YAML::Node& key, const std::string& kind) {
    const std::string name = key.as<std::string>();
    for (const Item& it : items)
      if (it.name == name)
        in_.fail(key, kind + " '" + name + "'", "is defined twice", "give each " + kind + " its own name");
  }

  void ground(const YAML::Node& root) {
    Body g;
    g.name = "ground";
    g.where = {path_, 1};
    if (const YAML::Node node = root["ground"]) {
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
    in_.require_map(node, "bodies");
    for (const auto& kv : node) {
      no_duplicate(spec_.bodies, kv.first, "body");
      const std::string name = kv.first.as<std::string>();
      const std::string entity = "body '" + name + "'";
      const YAML::Node& b = kv.second;
      in_.allow_only(b, entity, {"mass", "inertia", "com", "points"});
      Body body;
      body.name = name;
      body.where = in_.where(kv.first);
      body.mass = in_.optional_number(b, "mass", entity).value_or(0.0);
      body.inertia = in_.optional_number(b, "inertia", entity).value_or(0.0);
      if (body.mass < 0.0)
        in_.fail(b["mass"], entity, "mass is negative", "give mass >= 0 in kg");
      if (body.inertia < 0.0)
        in_.fail(b["inertia"], entity, "moment of inertia is negative", "give inertia >= 0 in kg m^2 about the centre of mass");
      if (b["com"]) body.com = in_.point(b["com"], entity + ".com");
      if (const YAML::Node pts = b["points"]) {
        in_.require_map(pts, entity + ".points");
        for (const auto& p : pts) {
          no_duplicate(body.points, p.first, "point of " + entity);
          const std::string pname = p.first.as<std::string>();
          body.points.push_back({pname, in_.point(p.second, entity + " point '" + pname + "'"), in_.where(p.first)});
        }
      }
      spec_.bodies.push_back(std::move(body));
    }
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
    in_.fail(at, entity, (body == 0 ? "the ground has no point '" : "body '" + b.name + "' has no point '") + name + "'",
             body == 0 ? "add it under 'ground'" : "add it under bodies." + b.name + ".points, or name another point");
  }

  void joints(const YAML::Node& node) {
    in_.require_map(node, "joints");
    for (const auto& kv : node) {
      no_duplicate(spec_.joints, kv.first, "joint");
      const std::string name = kv.first.as<std::string>();
      const std::string entity = "joint '" + name + "'";
      const YAML::Node& j = kv.second;
      in_.require_map(j, entity);
      Joint joint;
      joint.name = name;
      joint.where = in_.where(kv.first);
      const YAML::Node type = in_.required(j, "type", entity, "give type: revolute, prismatic or gear");
      const std::string t = in_.text(type, entity + ".type");
      const YAML::Node bodies = in_.required(j, "bodies", entity, "give bodies: [first, second]");
      if (!bodies.IsSequence() || bodies.size() != 2)
        in_.fail(bodies, entity, "'bodies' must list two bodies", "write bodies: [ground, crank]");
      joint.body = {body_ref(bodies[0], entity), body_ref(bodies[1], entity)};
      if (joint.body[0] == joint.body[1])
        in_.fail(bodies, entity, "joins a body to itself", "name two different bodies");
      if (t == "revolute" || t == "R") {
        joint.type = JointType::revolute;
        in_.allow_only(j, entity, {"type", "bodies", "at", "points"});
        joint.point_name = {name, name};
        if (j["at"]) joint.point_name[0] = joint.point_name[1] = in_.text(j["at"], entity + ".at");
        if (const YAML::Node pts = j["points"]) {
          if (!pts.IsSequence() || pts.size() != 2)
            in_.fail(pts, entity, "'points' must name one point in each body", "write points: [B, B]");
          joint.point_name = {in_.text(pts[0], entity), in_.text(pts[1], entity)};
        }
        const YAML::Node at = j["points"] ? j["points"] : (j["at"] ? j["at"] : kv.first);
        for (int k = 0; k < 2; ++k) joint.point[k] = point_ref(joint.body[k], joint.point_name[k], at, entity);
      } else if (t == "prismatic" || t == "P") {
        joint.type = JointType::prismatic;
        in_.allow_only(j, entity, {"type", "bodies", "guide", "slider_point", "angle"});
        guide(j, joint, entity);
        joint.point_name[1] = j["slider_point"] ? in_.text(j["slider_point"], entity + ".slider_point") : "origin";
        joint.point[1] = point_ref(joint.body[1], joint.point_name[1], j["slider_point"] ? j["slider_point"] : kv.first, entity);
        joint.angle_offset = in_.optional_number(j, "angle", entity, Quantity::angle).value_or(0.0);
      } else if (t == "gear") {
        joint.type = JointType::gear;
        in_.allow_only(j, entity, {"type", "bodies", "ratio", "phase"});
        joint.ratio = in_.number(in_.required(j, "ratio", entity, "give ratio: theta_second / theta_first"), entity + ".ratio");
        if (joint.ratio == 0.0) in_.fail(j["ratio"], entity, "gear ratio is zero", "give a non-zero ratio");
        joint.phase = in_.optional_number(j, "phase", entity, Quantity::angle).value_or(0.0);
      } else {
        in_.fail(type, entity, "unknown joint type '" + t + "'", "use revolute, prismatic or gear");
      }
      spec_.joints.push_back(std::move(joint));
    }
    // A geared wheel must turn on a ground pivot.
    for (const Joint& g : spec_.joints) {
      if (g.type != JointType::gear) continue;
      const int wheel = g.body[1];
      const bool pivoted = std::any_of(spec_.joints.begin(), spec_.joints.end(), [&](const Joint& o) {
        return o.type == JointType::revolute && o.connects(wheel) && o.other(wheel) == 0;
      });
      if (!pivoted)
        throw InputError(g.where, "joint '" + g.name + "'",
                         "the geared wheel '" + spec_.bodies[wheel].name + "' has no revolute joint to the ground",
                         "pin the wheel (the second body of a gear) to a ground point");
    }
  }

  void guide(const YAML::Node& j, Joint& joint, const std::string& entity) {
    const YAML::Node g = in_.required(j, "guide", entity, "give guide: {point: P, direction: 0 deg} or {through: [P, Q]} on the first body");
    in_.allow_only(g, entity + ".guide", {"point", "direction", "through"});
    if (const YAML::Node through = g["through"]) {
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
    const YAML::Node point = in_.required(g, "point", entity + ".guide", "name a point of the first body on the guide line");
    joint.point_name[0] = in_.text(point, entity + ".guide.point");
    joint.point[0] = point_ref(joint.body[0], joint.point_name[0], point, entity);
    const double dir = in_.number(in_.required(g, "direction", entity + ".guide", "give direction: angle of the guide in the first body's frame"),
                                  entity + ".guide.direction", Quantity::angle);
    joint.guide_dir = Vec2(std::cos(dir), std::sin(dir));
  }

  void drivers(const YAML::Node& node) {
    in_.require_map(node, "drivers");
    for (const auto& kv : node) {
      no_duplicate(spec_.drivers, kv.first, "driver");
      const std::string name = kv.first.as<std::string>();
      const std::string entity = "driver '" + name + "'";
      const YAML::Node& d = kv.second;
      in_.allow_only(d, entity, {"type", "joint", "law"});
      Driver drv;
      drv.name = name;
      drv.where = in_.where(kv.first);
      const YAML::Node type = in_.required(d, "type", entity, "give type: rotational or linear");
      const std::string t = in_.text(type, entity + ".type");
      if (t == "rotational") drv.type = DriverType::rotational;
      else if (t == "linear") drv.type = DriverType::linear;
      else in_.fail(type, entity, "unknown driver type '" + t + "'", "use rotational or linear");
      const YAML::Node jn = in_.required(d, "joint", entity, "name the joint it drives");
      drv.joint = spec_.find_joint(in_.text(jn, entity + ".joint"));
      if (drv.joint < 0) in_.fail(jn, entity, "unknown joint '" + jn.Scalar() + "'", "name a joint defined under 'joints'");
      const Joint& j = spec_.joints[drv.joint];
      if (drv.type == DriverType::rotational &&
          (j.type != JointType::revolute || (j.body[0] != 0 && j.body[1] != 0)))
        in_.fail(jn, entity, "joint '" + j.name + "' is not a revolute joint to the ground",
                 "a rotational driver turns a body about a ground pivot: name that revolute joint");
      if (drv.type == DriverType::linear && (j.type != JointType::prismatic || j.body[0] != 0))
        in_.fail(jn, entity, "joint '" + j.name + "' is not a prismatic joint guided by the ground",
                 "a linear driver moves a slider along a ground guide: name a prismatic joint with bodies: [ground, slider]");
      drv.law = law(in_.required(d, "law", entity, "give a motion law, e.g. law: {type: constant_speed, speed: 10}"),
                    entity + ".law", drv.type);
      spec_.drivers.push_back(std::move(drv));
    }
  }

  MotionLaw law(const YAML::Node& l, const std::string& entity, DriverType kind) {
    in_.require_map(l, entity);
    const Quantity coord = kind == DriverType::rotational ? Quantity::angle : Quantity::length;
    const Quantity speed = kind == DriverType::rotational ? Quantity::angular_velocity : Quantity::plain;
    const YAML::Node type = in_.required(l, "type", entity, "give type: sweep, constant_speed, polynomial, harmonic or table");
    const std::string t = in_.text(type, entity + ".type");
    auto steps = [&](int fallback) {
      return l["steps"] ? in_.integer(l["steps"], entity + ".steps", 1) : fallback;
    };
    auto duration = [&](bool required) {
      if (!l["duration"]) {
        if (required) in_.fail(l, entity, "missing field 'duration'", "give duration: seconds");
        return 0.0;
      }
      const double v = in_.number(l["duration"], entity + ".duration");
      if (!(v > 0.0)) in_.fail(l["duration"], entity, "duration must be positive", "give duration in s");
      return v;
    };
    if (t == "sweep") {
      in_.allow_only(l, entity, {"type", "from", "to", "steps", "speed"});
      SweepLaw s;
      s.from = in_.number(in_.required(l, "from", entity, "give from: start value"), entity + ".from", coord);
      s.to = in_.number(in_.required(l, "to", entity, "give to: end value"), entity + ".to", coord);
      s.steps = steps(360);
      s.speed = in_.optional_number(l, "speed", entity, speed).value_or(1.0);
      if (s.speed == 0.0) in_.fail(l["speed"], entity, "speed is zero", "give a non-zero speed");
      if (s.from == s.to) in_.fail(l, entity, "'from' equals 'to'", "sweep over a non-empty range");
      return s;
    }
    if (t == "constant_speed") {
      in_.allow_only(l, entity, {"type", "q0", "speed", "duration", "steps"});
      ConstantSpeedLaw c;
      c.q0 = in_.optional_number(l, "q0", entity, coord).value_or(0.0);
      c.speed = in_.number(in_.required(l, "speed", entity, "give speed"), entity + ".speed", speed);
      c.steps = steps(360);
      if (l["duration"]) {
        c.duration = duration(true);
      } else if (kind == DriverType::rotational && c.speed != 0.0) {
        c.duration = 2.0 * M_PI / std::abs(c.speed);  // one revolution
      } else {
        in_.fail(l, entity, "missing field 'duration'", "give duration: seconds (a rotational driver defaults to one revolution)");
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
      const YAML::Node c = in_.required(l, "c", entity, "give c: [c1, c2, c3, c4, c5] of q = c1 + c2 t + c3 cos(c4 t + c5)");
      if (!c.IsSequence() || c.size() != 5) in_.fail(c, entity, "c must list five numbers", "write c: [c1, c2, c3, c4, c5]");
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
    const std::filesystem::path rel = in_.text(f, entity + ".file");
    const std::filesystem::path full = rel.is_absolute() ? rel : std::filesystem::path(path_).parent_path() / rel;
    law.file = full.string();
    std::ifstream in(full);
    if (!in) in_.fail(f, entity, "cannot open '" + law.file + "'", "give a path relative to the model file");
    std::string line;
    int line_no = 0;
    bool header = false;
    while (std::getline(in, line)) {
      ++line_no;
      if (!line.empty() && line.back() == '\r') line.pop_back();
      if (line.find_first_not_of(" \t") == std::string::npos || line[line.find_first_not_of(" \t")] == '#') continue;
      std::vector<std::string> cells;
      std::stringstream ss(line);
      std::string cell;
      while (std::getline(ss, cell, ',')) cells.push_back(cell);
      if (!header) {
        header = true;
        std::string joined;
        for (auto& c : cells) {
          c.erase(0, c.find_first_not_of(" \t"));
          c.erase(c.find_last_not_of(" \t") + 1);
          joined += (joined.empty() ? "" : ",") + c;
        }
        if (joined != "t,q,qd,qdd")
          throw InputError({law.file, line_no}, "table", "the header is '" + joined + "'", "the first line must be t,q,qd,qdd");
        continue;
      }
      if (cells.size() != 4)
        throw InputError({law.file, line_no}, "table", "expected 4 values, found " + std::to_string(cells.size()), "write t,q,qd,qdd on each line");
      double v[4];
      for (int k = 0; k < 4; ++k) {
        std::string problem;
        const auto x = parse_quantity(cells[k], Quantity::plain, problem);
        if (!x) throw InputError({law.file, line_no}, "table", problem, "write numbers in SI units");
        v[k] = *x;
      }
      if (!law.t.empty() && !(v[0] > law.t.back()))
        throw InputError({law.file, line_no}, "table", "time does not increase", "sort the rows by t, without repeats");
      law.t.push_back(v[0]);
      law.q.push_back(v[1]);
      law.qd.push_back(v[2]);
      law.qdd.push_back(v[3]);
    }
    if (law.t.size() < 2) throw InputError({law.file, line_no}, "table", "fewer than two rows", "give at least two rows of t,q,qd,qdd");
    return law;
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
      } else if (const auto dot = name.find('.'); dot != std::string::npos) {
        const int b = spec_.find_body(name.substr(0, dot));
        if (b <= 0) in_.fail(kv.first, entity, "unknown body '" + name.substr(0, dot) + "'", "write body.point with a moving body");
        h.anchors = {{b, point_ref(b, name.substr(dot + 1), kv.first, entity)}};
      } else {
        in_.fail(kv.first, entity, "'" + name + "' is neither a joint nor body.point", "key the hint by a joint name or body.point");
      }
      h.where = in_.where(kv.first);
      if (kv.second["near"]) h.near = in_.point(kv.second["near"], entity + ".near");
      if (kv.second["sign"]) {
        const double s = in_.number(kv.second["sign"], entity + ".sign");
        if (s != 1.0 && s != -1.0) in_.fail(kv.second["sign"], entity, "sign must be +1 or -1", "write sign: 1 or sign: -1");
        h.sign = static_cast<int>(s);
      }
      if (!h.near && h.sign == 0) in_.fail(kv.second, entity, "give 'near' or 'sign'", "write near: [x, y] or sign: 1");
      spec_.assembly.push_back(std::move(h));
    }
  }

  void structure(const YAML::Node& node) {
    spec_.structure_where = in_.where(node);
    if (!node.IsSequence()) in_.fail(node, "structure", "expected a list of groups", "write structure: [[crank], [coupler, rocker]]");
    for (const auto& g : node) {
      if (!g.IsSequence() || g.size() == 0) in_.fail(g, "structure", "each group is a list of bodies", "write [coupler, rocker]");
      std::vector<std::string> names;
      for (const auto& b : g) names.push_back(in_.text(b, "structure"));
      spec_.structure.push_back(std::move(names));
    }
  }

  void analysis(const YAML::Node& node) {
    in_.allow_only(node, "analysis", {"duration", "steps", "start"});
    TimeGrid grid;
    grid.t0 = in_.optional_number(node, "start", "analysis").value_or(0.0);
    const double duration = in_.number(in_.required(node, "duration", "analysis", "give duration: seconds"), "analysis.duration");
    if (!(duration > 0.0)) in_.fail(node["duration"], "analysis", "duration must be positive", "give duration in s");
    grid.t_end = grid.t0 + duration;
    grid.steps = node["steps"] ? in_.integer(node["steps"], "analysis.steps", 1) : 360;
    spec_.grid = grid;
  }

  YamlReader in_;
  std::string path_;
  MechanismSpec spec_;
};

}  // namespace

MechanismSpec parse_planar_model(const std::string& text, const std::string& path) {
  YAML::Node root;
  try {
    root = YAML::Load(text);
  } catch (const YAML::Exception& e) {
    throw InputError({path, e.mark.line + 1}, "model", "not valid YAML: " + e.msg, "fix the YAML syntax");
  }
  return ModelParser(path).parse(root);
}

MechanismSpec read_planar_model(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw InputError({path, 0}, "model", "cannot open the file", "check the path");
  std::stringstream buffer;
  buffer << in.rdbuf();
  return parse_planar_model(buffer.str(), path);
}

Mechanism load_mechanism(const std::string& path, const CompileOptions& options) {
  return compile(read_planar_model(path), options);
}

}  // namespace linkdyn::io
