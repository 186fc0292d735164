#include "linkdyn/io/chain_file.hpp"

#include <cctype>
#include <filesystem>
#include <map>

#include "io/yaml_reader.hpp"

namespace linkdyn::io {
using namespace spatial;

namespace {

class ChainReader {
 public:
  explicit ChainReader(const std::string& path) : in_(path) {}

  YAML::Node load() { return in_.load_file(); }

  [[nodiscard]] Vec3 vec3(const YAML::Node& node, const std::string& entity, Quantity kind = Quantity::plain) const {
    if (!node.IsSequence() || node.size() != 3)
      in_.fail(node, entity, "expected three numbers [x, y, z]", "write e.g. [0, 0, 1]");
    return {in_.number(node[0], entity, kind), in_.number(node[1], entity, kind), in_.number(node[2], entity, kind)};
  }

  /// xyz and rpy keys of `map` (both optional) as a pose.
  [[nodiscard]] Pose pose(const YAML::Node& map, const std::string& entity) const {
    Pose p;
    if (map["xyz"]) p.p = vec3(map["xyz"], entity + ".xyz", Quantity::length);
    if (map["rpy"]) p.R = rpy_rotation(vec3(map["rpy"], entity + ".rpy", Quantity::angle));
    return p;
  }

  [[nodiscard]] Pose frame(const YAML::Node& node, const std::string& entity) const {
    in_.allow_only(node, entity, {"xyz", "rpy"});
    return pose(node, entity);
  }

  double positive(const YAML::Node& map, const char* key, const std::string& entity, const std::string& hint) const {
    const YAML::Node node = in_.required(map, key, entity, hint);
    const double v = in_.number(node, entity + "." + key, Quantity::length);
    if (!(v > 0)) in_.fail(node, entity, std::string(key) + " must be positive", hint);
    return v;
  }

  [[nodiscard]] Primitive primitive(const YAML::Node& p, const std::string& entity) const {
    in_.require_map(p, entity);
    Primitive part;
    const YAML::Node shape = in_.required(p, "shape", entity,
                                          "give shape: box, hollow_box, cylinder, hollow_cylinder, sphere, "
                                          "hollow_sphere, cone, rod, plate, disk, ring or point");
    if (!shape_from_name(in_.text(shape, entity + ".shape"), part.shape))
      in_.fail(shape, entity, "unknown shape '" + shape.Scalar() + "'",
               "use box, hollow_box, cylinder, hollow_cylinder, sphere, hollow_sphere, cone, rod, plate, disk, ring or "
               "point");
    const char* density_key = shape_dimension(part.shape) == 3   ? "density"
                              : shape_dimension(part.shape) == 2 ? "areal_density"
                              : shape_dimension(part.shape) == 1 ? "linear_density"
                                                                 : "mass";
    std::vector<const char*> keys = {"name", "shape", "mass", "xyz", "rpy", "subtract"};
    if (shape_dimension(part.shape) > 0) keys.push_back(density_key);
    switch (part.shape) {
      case Shape::box: keys.push_back("size"); break;
      case Shape::hollow_box: keys.insert(keys.end(), {"size", "inner_size"}); break;
      case Shape::cylinder: keys.insert(keys.end(), {"radius", "length"}); break;
      case Shape::hollow_cylinder: keys.insert(keys.end(), {"radius", "inner_radius", "length"}); break;
      case Shape::sphere: keys.push_back("radius"); break;
      case Shape::hollow_sphere: keys.insert(keys.end(), {"radius", "inner_radius"}); break;
      case Shape::cone: keys.insert(keys.end(), {"radius", "height"}); break;
      case Shape::rod: keys.push_back("length"); break;
      case Shape::plate: keys.push_back("size"); break;
      case Shape::disk:
      case Shape::ring: keys.push_back("radius"); break;
      case Shape::point: break;
    }
    for (const auto& kv : p) {
      const std::string key = kv.first.as<std::string>();
      bool ok = false;
      std::string all;
      for (const char* k : keys) ok |= key == k, all += (all.empty() ? "" : ", ") + std::string(k);
      if (!ok)
        in_.fail(kv.first, entity, "field '" + key + "' does not apply to a " + shape.Scalar(),
                 "the fields of a " + shape.Scalar() + " are: " + all);
    }
    part.name = p["name"] ? in_.text(p["name"], entity + ".name") : entity;
    const std::string what = entity + " (" + shape.Scalar() + ")";
    if (part.shape == Shape::box || part.shape == Shape::hollow_box) {
      part.size =
          vec3(in_.required(p, "size", what, "give size: [x, y, z] edges in m"), what + ".size", Quantity::length);
      if (!(part.size.minCoeff() > 0)) in_.fail(p["size"], what, "an edge is not positive", "give positive edges");
    }
    if (part.shape == Shape::hollow_box) {
      part.inner_size =
          vec3(in_.required(p, "inner_size", what, "give inner_size: the cavity's edges"), what, Quantity::length);
      if (!(part.inner_size.minCoeff() > 0) || !((part.size - part.inner_size).minCoeff() > 0))
        in_.fail(p["inner_size"], what, "the cavity does not fit inside the box",
                 "give 0 < inner_size < size on every axis");
    }
    if (part.shape == Shape::plate) {
      const YAML::Node s = in_.required(p, "size", what, "give size: [x, y] in m");
      if (!s.IsSequence() || s.size() != 2) in_.fail(s, what, "expected two numbers [x, y]", "write e.g. [0.2, 0.1]");
      part.size = Vec3(in_.number(s[0], what, Quantity::length), in_.number(s[1], what, Quantity::length), 0.0);
      if (!(part.size.head<2>().minCoeff() > 0)) in_.fail(s, what, "an edge is not positive", "give positive edges");
    }
    const std::string r_hint = "give radius in m";
    switch (part.shape) {
      case Shape::cylinder:
      case Shape::hollow_cylinder:
      case Shape::sphere:
      case Shape::hollow_sphere:
      case Shape::cone:
      case Shape::disk:
      case Shape::ring: part.radius = positive(p, "radius", what, r_hint); break;
      default: break;
    }
    if (part.shape == Shape::hollow_cylinder || part.shape == Shape::hollow_sphere) {
      part.inner_radius = positive(p, "inner_radius", what, "give 0 < inner_radius < radius");
      if (!(part.inner_radius < part.radius))
        in_.fail(p["inner_radius"], what, "inner_radius is not below radius", "give 0 < inner_radius < radius");
    }
    if (part.shape == Shape::cylinder || part.shape == Shape::hollow_cylinder || part.shape == Shape::rod)
      part.length = positive(p, "length", what, "give length in m");
    if (part.shape == Shape::cone) part.length = positive(p, "height", what, "give height in m");
    const bool has_mass = bool(p["mass"]), has_density = shape_dimension(part.shape) > 0 && bool(p[density_key]);
    if (has_mass == has_density)
      in_.fail(p, what,
               has_mass ? "both mass and " + std::string(density_key) + " are given"
                        : "neither mass nor " + std::string(density_key) + " is given",
               part.shape == Shape::point ? "give mass in kg" : "give one of mass (kg) or " + std::string(density_key));
    if (has_mass) {
      part.mass = in_.number(p["mass"], what + ".mass");
      if (!(part.mass > 0)) in_.fail(p["mass"], what, "mass is not positive", "give mass > 0 in kg");
    } else {
      part.density = in_.number(p[density_key], what + "." + density_key);
      if (!(part.density > 0))
        in_.fail(p[density_key], what, std::string(density_key) + " is not positive", "give a positive density");
    }
    part.pose = pose(p, what);
    if (p["subtract"]) {
      const YAML::Node s = p["subtract"];
      if (!s.IsScalar() || (s.Scalar() != "true" && s.Scalar() != "false"))
        in_.fail(s, what, "subtract must be true or false", "write subtract: true for a hole or cavity");
      part.sign = s.Scalar() == "true" ? -1 : +1;
    }
    return part;
  }

  [[nodiscard]] std::vector<Primitive> parts(const YAML::Node& node, const std::string& entity) const {
    if (!node.IsSequence() || node.size() == 0)
      in_.fail(node, entity, "parts must be a list of primitives", "write parts: followed by '- shape: ...' entries");
    std::vector<Primitive> out;
    for (size_t k = 0; k < node.size(); ++k)
      out.push_back(primitive(node[k], entity + " part " + std::to_string(k + 1)));
    return out;
  }

  /// A body from parts, checked for physical consistency.
  [[nodiscard]] MassProperties composite(const YAML::Node& node, const std::string& entity) const {
    MassProperties b = composite_mass_properties(parts(node, entity));
    const std::string problem = physical_consistency_problem(b);
    if (!problem.empty())
      in_.fail(node, entity, "the body is not physically possible: " + problem,
               "check which parts are subtracted and their sizes");
    return b;
  }

  [[nodiscard]] ChainLink link(const YAML::Node& node, const std::string& entity) const {
    in_.allow_only(node, entity, {"name", "mass", "com", "inertia", "parts"});
    ChainLink l;
    l.name = node["name"] ? in_.text(node["name"], entity + ".name") : entity;
    if (node["parts"]) {
      if (node["mass"] || node["com"] || node["inertia"])
        in_.fail(node, entity, "both parts and mass/com/inertia are given", "describe the link one way");
      l.inertia = composite(node["parts"], entity);
      return l;
    }
    const YAML::Node mass = in_.required(node, "mass", entity, "give mass (kg), com and inertia, or parts");
    l.inertia.mass = in_.number(mass, entity + ".mass");
    if (l.inertia.mass < 0) in_.fail(mass, entity, "mass is negative", "give mass >= 0 in kg");
    if (node["com"]) l.inertia.com = vec3(node["com"], entity + ".com", Quantity::length);
    if (const YAML::Node I = node["inertia"]) {
      in_.allow_only(I, entity + ".inertia", {"ixx", "iyy", "izz", "ixy", "ixz", "iyz"});
      auto get = [&](const char* k) { return in_.optional_number(I, k, entity + ".inertia").value_or(0.0); };
      // Read first, then set: a bad entry throws, and must not do so inside Eigen's comma
      // initializer (whose destructor asserts that it was completed).
      const double ixx = get("ixx"), iyy = get("iyy"), izz = get("izz");
      const double ixy = get("ixy"), ixz = get("ixz"), iyz = get("iyz");
      // Products of inertia as in URDF: ixy is the (0,1) entry of the tensor.
      l.inertia.inertia_com << ixx, ixy, ixz, ixy, iyy, iyz, ixz, iyz, izz;
    }
    return l;
  }

  [[nodiscard]] JointFriction friction(const YAML::Node& node, const std::string& entity) const {
    in_.allow_only(node, entity, {"viscous", "coulomb", "diameter", "constant"});
    JointFriction f;
    f.constant = in_.optional_number(node, "constant", entity).value_or(0.0);
    f.viscous = in_.optional_number(node, "viscous", entity).value_or(0.0);
    f.coulomb = in_.optional_number(node, "coulomb", entity).value_or(0.0);
    f.diameter = in_.optional_number(node, "diameter", entity, Quantity::length).value_or(0.0);
    return f;
  }

  ChainSpec read(const ChainFileOptions& options) {
    const YAML::Node root = load();
    in_.allow_only(root, "model", {"name", "robot"});
    ChainSpec spec;
    spec.source_file = in_.file();
    spec.name = root["name"] ? in_.text(root["name"], "name") : std::filesystem::path(in_.file()).stem().string();
    const YAML::Node robot = in_.required(root, "robot", "model", "give robot: with joints (see docs/robot-format.md)");
    in_.allow_only(robot, "robot",
                   {"convention", "gravity", "joints", "end_effector", "load", "frames", "rotation_coordinates"});
    if (const YAML::Node rc = robot["rotation_coordinates"]) {
      const std::string r = in_.text(rc, "robot.rotation_coordinates");
      if (r != "quaternion" && r != "exponential")
        in_.fail(rc, "robot", "unknown rotation_coordinates '" + r + "'", "use quaternion or exponential");
      if (r == "exponential") spec.rotation_coordinates = RotationCoordinates::exponential;
    }
    if (options.exponential_coordinates) spec.rotation_coordinates = RotationCoordinates::exponential;
    const std::string convention = robot["convention"] ? in_.text(robot["convention"], "robot.convention") : "origin";
    if (convention != "origin" && convention != "dh" && convention != "modified_dh" && convention != "poe")
      in_.fail(robot["convention"], "robot", "unknown convention '" + convention + "'",
               "use origin, dh, modified_dh or poe");
    const YAML::Node joints = in_.required(robot, "joints", "robot", "give joints: a list from the base outwards");
    if (!joints.IsSequence() || joints.size() == 0)
      in_.fail(joints, "robot.joints", "joints must be a non-empty list",
               "write '- name: ...' entries from the base outwards");
    Pose end_effector;
    std::map<std::string, int> link_index;  // link name -> index, for parent: and frames
    link_index[spec.base_name] = -1;
    const YAML::Node ee_node = robot["end_effector"];
    if (ee_node) {
      in_.allow_only(ee_node, "robot.end_effector", {"xyz", "rpy", "link"});
      end_effector = pose(ee_node, "robot.end_effector");
    }
    std::vector<DhRow> dh;
    std::vector<PoeJoint> poe;
    for (size_t k = 0; k < joints.size(); ++k) {
      const YAML::Node j = joints[k];
      in_.require_map(j, "joint " + std::to_string(k + 1));
      ChainJoint joint;
      joint.name = j["name"] ? in_.text(j["name"], "joint " + std::to_string(k + 1)) : "joint" + std::to_string(k + 1);
      const std::string entity = "joint '" + joint.name + "'";
      joint.where = in_.where(j);
      const std::string type = j["type"] ? in_.text(j["type"], entity + ".type") : "revolute";
      if (type == "prismatic")
        joint.type = JointType::prismatic;
      else if (type == "free_flyer")
        joint.type = JointType::free_flyer;
      else if (type != "revolute")
        in_.fail(j["type"], entity, "unknown joint type '" + type + "'", "use revolute, prismatic or free_flyer");
      if (convention == "dh" || convention == "modified_dh") {
        in_.allow_only(j, entity, {"name", "type", "a", "alpha", "d", "theta", "friction", "link", "parent"});
      } else if (convention == "poe") {
        in_.allow_only(j, entity, {"name", "type", "axis", "point", "friction", "link", "parent"});
      } else {
        in_.allow_only(j, entity, {"name", "type", "origin", "axis", "friction", "link", "parent"});
      }
      if (const YAML::Node parent = j["parent"]) joint.parent = link_of(parent, link_index, entity + ".parent");
      if (joint.type == JointType::free_flyer && convention != "origin")
        in_.fail(j["type"], entity, "a free_flyer joint needs convention origin",
                 "write convention: origin (the default)");
      if (j["friction"]) joint.friction = friction(j["friction"], entity + ".friction");
      const YAML::Node link_node = in_.required(j, "link", entity, "give link: with mass, com and inertia, or parts");
      ChainLink l = link(link_node, entity + ".link");
      if (!link_node["name"]) l.name = joint.name + "_link";
      if (!link_index.emplace(l.name, static_cast<int>(k)).second)
        in_.fail(link_node, entity, "the link name '" + l.name + "' is used twice", "give every link its own name");
      if (convention == "dh" || convention == "modified_dh") {
        DhRow row{joint, 0, 0, 0, 0, l};
        row.a = in_.optional_number(j, "a", entity, Quantity::length).value_or(0.0);
        row.alpha = in_.optional_number(j, "alpha", entity, Quantity::angle).value_or(0.0);
        row.d = in_.optional_number(j, "d", entity, Quantity::length).value_or(0.0);
        row.theta = in_.optional_number(j, "theta", entity, Quantity::angle).value_or(0.0);
        dh.push_back(row);
      } else if (convention == "poe") {
        PoeJoint pj{joint, Vec3::UnitZ(), Vec3::Zero(), l};
        pj.direction = vec3(in_.required(j, "axis", entity, "give axis: its direction in the base frame at q = 0"),
                            entity + ".axis");
        if (j["point"]) pj.point = vec3(j["point"], entity + ".point", Quantity::length);
        poe.push_back(pj);
      } else {
        if (j["origin"]) joint.placement = frame(j["origin"], entity + ".origin");
        if (j["axis"]) joint.axis = vec3(j["axis"], entity + ".axis");
        spec.joints.push_back(joint);
        spec.links.push_back(l);
      }
    }
    if (convention == "dh")
      chain_from_dh(spec, dh, false, end_effector);
    else if (convention == "modified_dh")
      chain_from_dh(spec, dh, true, end_effector);
    else if (convention == "poe")
      chain_from_poe(spec, poe, end_effector);
    else
      spec.end_effector = end_effector;
    if (ee_node && ee_node["link"]) {
      const YAML::Node end_effector_link = ee_node["link"];
      if (convention == "dh" || convention == "poe")
        in_.fail(end_effector_link, "robot.end_effector", "end_effector.link is for conventions origin and modified_dh",
                 "leave it out: with " + convention + " the end effector hangs from the last joint's frame");
      spec.end_effector_link = link_of(end_effector_link, link_index, "robot.end_effector.link");
    }
    if (const YAML::Node frames = robot["frames"]) {
      if (!frames.IsSequence())
        in_.fail(frames, "robot.frames", "frames must be a list", "write '- {name: ..., link: ..., xyz: ...}' entries");
      for (size_t k = 0; k < frames.size(); ++k) {
        const YAML::Node f = frames[k];
        const std::string entity = "robot.frames[" + std::to_string(k + 1) + "]";
        in_.allow_only(f, entity, {"name", "link", "xyz", "rpy"});
        FrameSpec fs;
        fs.name = in_.text(in_.required(f, "name", entity, "give the frame a name"), entity + ".name");
        fs.link = link_of(in_.required(f, "link", entity, "name the link it is fixed to (or base)"), link_index,
                          entity + ".link");
        fs.pose = pose(f, entity);
        spec.frames.push_back(fs);
      }
    }
    if (robot["gravity"]) spec.gravity = vec3(robot["gravity"], "robot.gravity");
    if (const YAML::Node load = robot["load"]) {
      in_.allow_only(load, "robot.load", {"force", "moment", "frame"});
      if (load["force"]) spec.load.force = vec3(load["force"], "robot.load.force", Quantity::force);
      if (load["moment"]) spec.load.moment = vec3(load["moment"], "robot.load.moment", Quantity::moment);
      if (load["frame"]) {
        const std::string f = in_.text(load["frame"], "robot.load.frame");
        if (f != "base" && f != "end_effector")
          in_.fail(load["frame"], "robot.load", "unknown frame '" + f + "'", "use base or end_effector");
        spec.load.in_base_frame = f == "base";
      }
    }
    return spec;
  }

  /// The index of the link named by `node` (a link listed above, or the base).
  [[nodiscard]] int link_of(const YAML::Node& node, const std::map<std::string, int>& links,
                            const std::string& entity) const {
    const std::string name = in_.text(node, entity);
    const auto it = links.find(name);
    if (it != links.end()) return it->second;
    std::string known;
    for (const auto& [n, i] : links) known += (known.empty() ? "" : ", ") + n;
    in_.fail(node, entity, "no link named '" + name + "' above", "name the base or a link listed before: " + known);
  }

  BodyFile body() {
    const YAML::Node root = load();
    in_.allow_only(root, "body", {"name", "parts", "frames"});
    BodyFile b;
    b.name = root["name"] ? in_.text(root["name"], "name") : std::filesystem::path(in_.file()).stem().string();
    b.where = {in_.file(), 1};
    const YAML::Node parts_node = in_.required(root, "parts", "body", "give parts: a list of primitives");
    b.parts = parts(parts_node, "body");
    const std::string problem = physical_consistency_problem(composite_mass_properties(b.parts));
    if (!problem.empty())
      in_.fail(parts_node, "body '" + b.name + "'", "the body is not physically possible: " + problem,
               "check which parts are subtracted and their sizes");
    if (const YAML::Node frames = root["frames"]) {
      if (!frames.IsSequence())
        in_.fail(frames, "frames", "frames must be a list", "write '- name: ...' entries with xyz and rpy");
      for (size_t k = 0; k < frames.size(); ++k) {
        const YAML::Node f = frames[k];
        const std::string entity = "frame " + std::to_string(k + 1);
        in_.allow_only(f, entity, {"name", "xyz", "rpy"});
        b.frames.push_back(
            {in_.text(in_.required(f, "name", entity, "give the frame a name"), entity), pose(f, entity)});
      }
    }
    return b;
  }

 private:
  YamlReader in_;
};

}  // namespace

ChainSpec read_chain_file(const std::string& path, const ChainFileOptions& options) {
  std::string ext = std::filesystem::path(path).extension().string();
  for (char& c : ext) c = char(std::tolower(static_cast<unsigned char>(c)));
  if (ext == ".urdf") return read_urdf(path, options);
  if (options.floating_base)
    throw InputError({path, 0}, "model", "--floating-base applies to URDF files",
                     "give the YAML model a first joint of type free_flyer");
  return ChainReader(path).read(options);
}

BodyFile read_body_file(const std::string& path) { return ChainReader(path).body(); }

}  // namespace linkdyn::io
