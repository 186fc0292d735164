// Kinematic trees from URDF (urdfdom): fixed joints merged into their parents (their links kept
// as frames), continuous joints as revolute, floating joints as free-flyers, <dynamics damping>
// as viscous and <dynamics friction> as constant dry friction.
#include <console_bridge/console.h>
#include <fmt/format.h>
#include <tinyxml.h>
#include <urdf_parser/urdf_parser.h>

#include <cmath>
#include <cstring>
#include <algorithm>
#include <filesystem>
#include <iterator>
#include <map>
#include <optional>
#include <set>
#include <sstream>

#include "linkdyn/core/units.hpp"
#include "linkdyn/io/chain_file.hpp"
#include "linkdyn/io/text_file.hpp"

namespace linkdyn::io {
using namespace spatial;

namespace {

Pose to_pose(const urdf::Pose& p) {
  double x, y, z, w;
  p.rotation.getQuaternion(x, y, z, w);
  return {Eigen::Quaterniond(w, x, y, z).normalized().toRotationMatrix(),
          Vec3(p.position.x, p.position.y, p.position.z)};
}

MassProperties link_inertia(const urdf::Link& link) {
  MassProperties b;
  if (!link.inertial) return b;
  const urdf::Inertial& in = *link.inertial;
  b.mass = in.mass;
  b.inertia_com << in.ixx, in.ixy, in.ixz, in.ixy, in.iyy, in.iyz, in.ixz, in.iyz, in.izz;
  return transformed(b, to_pose(in.origin));
}

class UrdfReader {
 public:
  UrdfReader(std::string path, const ChainFileOptions& options) : path_(std::move(path)), options_(options) {}

  /// Every number URDF defines, as strictly as the YAML models: each attribute of the table
  /// below (in <link> and <joint>, where urdfdom reads them) holds exactly its count of finite
  /// numbers within linkdyn::max_input_magnitude; a mass is >= 0 and an inertia tensor has no
  /// negative principal moment. Else InputError at the element's line naming the link or joint
  /// and the attribute (urdfdom would drop some of them in silence).
  void check_numbers(const TiXmlElement& robot) const {
    for (const TiXmlElement* e = robot.FirstChildElement(); e; e = e->NextSiblingElement()) {
      const std::string kind = e->Value();
      if (kind != "link" && kind != "joint") continue;
      const char* name = e->Attribute("name");
      check_element(*e, kind + " '" + (name ? name : "") + "'");
    }
  }

  void check_element(const TiXmlElement& element, const std::string& entity) const {
    struct Numbers {
      const char* attribute;
      int count;
      bool required;
    };
    static const std::map<std::string, std::vector<Numbers>> numbers{
        {"origin", {{"xyz", 3, false}, {"rpy", 3, false}}},
        {"axis", {{"xyz", 3, false}}},
        {"limit", {{"lower", 1, false}, {"upper", 1, false}, {"effort", 1, false}, {"velocity", 1, false}}},
        {"dynamics", {{"damping", 1, false}, {"friction", 1, false}}},
        {"calibration", {{"rising", 1, false}, {"falling", 1, false}}},
        {"safety_controller",
         {{"soft_lower_limit", 1, false},
          {"soft_upper_limit", 1, false},
          {"k_position", 1, false},
          {"k_velocity", 1, true}}},
        {"mimic", {{"multiplier", 1, false}, {"offset", 1, false}}},
        {"mass", {{"value", 1, true}}},
        {"inertia",
         {{"ixx", 1, true}, {"ixy", 1, true}, {"ixz", 1, true}, {"iyy", 1, true}, {"iyz", 1, true}, {"izz", 1, true}}},
        {"box", {{"size", 3, true}}},
        {"cylinder", {{"radius", 1, true}, {"length", 1, true}}},
        {"sphere", {{"radius", 1, true}}},
        {"mesh", {{"scale", 3, false}}},
        {"color", {{"rgba", 4, true}}}};
    const std::string tag = element.Value();
    std::vector<double> values;
    if (const auto it = numbers.find(tag); it != numbers.end())
      for (const Numbers& n : it->second) read_numbers(element, entity, n.attribute, n.count, n.required, values);
    if (tag == "mass" && values[0] < 0)
      throw InputError({path_, element.Row()}, entity + " <mass value>", "the mass is negative",
                       "give a mass >= 0 (kg)");
    if (tag == "inertia") {
      MassProperties b;
      b.inertia_com << values[0], values[1], values[2], values[1], values[3], values[4], values[2], values[4],
          values[5];
      if (const std::string problem = negative_moment_of_inertia(b); !problem.empty())
        throw InputError({path_, element.Row()}, entity + " <inertia>", problem,
                         "give ixx ... izz of a tensor with moments >= 0, about the centre of mass");
    }
    if (tag == "inertial")
      for (const char* part : {"mass", "inertia"})
        if (!element.FirstChildElement(part))
          throw InputError({path_, element.Row()}, entity + " <inertial>",
                           std::string("the inertial has no <") + part + ">",
                           "give <mass value=...> and <inertia ixx=... izz=...>, or no <inertial>");
    for (const TiXmlElement* child = element.FirstChildElement(); child; child = child->NextSiblingElement())
      check_element(*child, entity);
  }

  /// Appends attribute `name`'s `count` numbers to `values` (zeros when it is optional and absent).
  void read_numbers(const TiXmlElement& element, const std::string& entity, const char* name, int count, bool required,
                    std::vector<double>& values) const {
    const std::string what = entity + " <" + std::string(element.Value()) + " " + name + ">";
    const SourceLocation at{path_, element.Row()};
    const std::string fix = count == 1 ? "give one number (SI units)"
                                       : fmt::format("give {} numbers separated by spaces (SI units)", count);
    const char* text = element.Attribute(name);
    if (!text) {
      if (required) throw InputError(at, what, "the attribute is missing", fix);
      values.insert(values.end(), size_t(count), 0.0);
      return;
    }
    std::istringstream words(text);
    int found = 0;
    for (std::string word; words >> word; ++found) {
      std::string problem;
      const std::optional<double> value = parse_quantity(word, Quantity::plain, problem);
      if (!value) throw InputError(at, what, problem, fix);
      values.push_back(*value);
    }
    if (found != count)
      throw InputError(at, what,
                       found == 0
                           ? "the attribute is empty"
                           : fmt::format("'{}' has {} number{}, not {}", text, found, found == 1 ? "" : "s", count),
                       fix);
  }

  ChainSpec read() {
    const std::string xml = read_text_file(path_, "model", max_model_file_bytes);
    require_xml_start(xml);
    require_shallow(xml);
    // XML syntax first, with the line of the error; and the line of every joint and link.
    TiXmlDocument doc;
    doc.Parse(xml.c_str());
    if (doc.Error())
      throw InputError({path_, doc.ErrorRow()}, "URDF", std::string("not valid XML: ") + doc.ErrorDesc(),
                       "fix the XML syntax");
    const TiXmlElement* robot = doc.FirstChildElement("robot");
    if (!robot)
      throw InputError({path_, doc.RootElement() ? doc.RootElement()->Row() : 1}, "URDF", "the file has no <robot>",
                       "a URDF holds one <robot name=...> with its links and joints");
    robot_line_ = robot->Row();
    for (const TiXmlElement* e = robot->FirstChildElement(); e; e = e->NextSiblingElement()) {
      const char* name = e->Attribute("name");
      const std::string kind = e->Value();
      if (!name && kind == "link")
        throw InputError({path_, e->Row()}, "link", "the link has no name", "give name=\"...\"");
      if (!name) continue;
      const auto [at, added] = line_.emplace(kind + ":" + name, e->Row());
      if (!added && (kind == "link" || kind == "joint"))
        throw InputError({path_, e->Row()}, kind + " '" + name + "'",
                         fmt::format("the name is used twice (first at line {})", at->second),
                         "give every " + kind + " its own name");
    }
    check_joints(*robot);
    check_tree(*robot);
    check_numbers(*robot);
    console_bridge::setLogLevel(console_bridge::CONSOLE_BRIDGE_LOG_NONE);
    model_ = urdf::parseURDF(xml);
    const urdf::ModelInterfaceSharedPtr& model = model_;
    if (!model)
      throw InputError({path_, robot_line_}, "URDF",
                       "urdfdom cannot read the robot (a missing link or joint attribute, or an element "
                       "of <visual> or <collision> it refuses)",
                       "check the file against the URDF specification");
    spec_.source_file = path_;
    spec_.name = model->getName().empty() ? std::filesystem::path(path_).stem().string() : model->getName();
    if (options_.exponential_coordinates) spec_.rotation_coordinates = RotationCoordinates::exponential;
    const urdf::Link& root = *model->getRoot();
    if (options_.floating_base) {
      // The root link floats: a free-flyer from the world to it carries the root and its fixed parts.
      spec_.base_name = "world";
      ChainJoint j;
      j.name = "floating_base";
      j.type = JointType::free_flyer;
      j.parent = -1;
      j.where = where("link", root.name);
      spec_.joints.push_back(j);
      spec_.links.push_back({root.name, {}, where("link", root.name)});
      absorb(root, Pose::identity(), 0);
    } else {
      spec_.base_name = root.name;
      absorb(root, Pose::identity(), -1);
    }
    if (spec_.joints.empty())
      throw InputError({path_, robot_line_}, "robot '" + spec_.name + "'", "the robot has no moving joint",
                       "give at least one revolute, continuous, prismatic or floating joint");
    // The end effector: the one leaf of the last link's fixed parts, else the link frame itself.
    const auto& leaves = leaves_[static_cast<int>(spec_.joints.size()) - 1];
    spec_.end_effector = leaves.size() == 1 ? leaves[0] : Pose::identity();
    return spec_;
  }

 private:
  /// An XML file starts with '<' (after a byte-order mark and white space): XML parsers say
  /// "document empty" of a file that starts with text, and nothing of where.
  void require_xml_start(const std::string& xml) const {
    const size_t start = xml.find_first_not_of(" \t\r\n", xml.starts_with("\xEF\xBB\xBF") ? 3 : 0);
    if (start == std::string::npos || xml[start] == '<') return;
    const int line = 1 + static_cast<int>(std::count(xml.begin(), xml.begin() + static_cast<long>(start), '\n'));
    const size_t declaration = xml.find("<?xml");
    throw InputError({path_, line}, "URDF",
                     declaration == std::string::npos
                         ? "text before the first element: an XML file starts with '<?xml' or '<robot'"
                         : fmt::format("text before the XML declaration '<?xml' (line {}): it must come first",
                                       1 + std::count(xml.begin(), xml.begin() + static_cast<long>(declaration), '\n')),
                     "remove the text before it");
  }

  /// What urdfdom would refuse without saying where: checked here with the element's line.
  /// XML parsers recurse once per level of nesting: a file nested thousands of levels deep
  /// would exhaust the stack (and take quadratic time) before any error could be given. A
  /// URDF is a handful of levels deep; deeper than max_depth is refused before parsing.
  void require_shallow(const std::string& xml) const {
    constexpr int max_depth = 64;
    int depth = 0, line = 1;
    for (size_t k = 0; k < xml.size(); ++k) {
      if (xml[k] == '\n') ++line;
      if (xml[k] != '<') continue;
      const auto skip_to = [&](const char* end) {  // comments, CDATA, declarations
        const size_t at = xml.find(end, k);
        for (size_t i = k; i < std::min(at, xml.size()); ++i) line += xml[i] == '\n';
        k = at == std::string::npos ? xml.size() : at + std::strlen(end) - 1;
      };
      if (xml.compare(k, 4, "<!--") == 0) {
        skip_to("-->");
        continue;
      }
      if (xml.compare(k, 9, "<![CDATA[") == 0) {
        skip_to("]]>");
        continue;
      }
      if (k + 1 < xml.size() && (xml[k + 1] == '?' || xml[k + 1] == '!')) {
        skip_to(">");
        continue;
      }
      const bool closing = k + 1 < xml.size() && xml[k + 1] == '/';
      char quote = 0;  // the tag's end, outside attribute values
      size_t end = k + 1;
      for (; end < xml.size(); ++end) {
        if (quote)
          quote = xml[end] == quote ? 0 : quote;
        else if (xml[end] == '"' || xml[end] == '\'')
          quote = xml[end];
        else if (xml[end] == '>')
          break;
      }
      const bool empty = end < xml.size() && xml[end - 1] == '/';
      for (size_t i = k; i < std::min(end, xml.size()); ++i) line += xml[i] == '\n';
      k = end;
      if (closing)
        --depth;
      else if (!empty && ++depth > max_depth)
        throw InputError({path_, line}, "URDF", fmt::format("elements nested more than {} levels deep", max_depth),
                         "a URDF needs a handful of levels: check the file's structure");
    }
  }

  void check_joints(const TiXmlElement& robot) const {
    std::set<std::string> links;
    for (const TiXmlElement* e = robot.FirstChildElement("link"); e; e = e->NextSiblingElement("link"))
      if (const char* name = e->Attribute("name")) links.insert(name);
    for (const TiXmlElement* j = robot.FirstChildElement("joint"); j; j = j->NextSiblingElement("joint")) {
      const char* name = j->Attribute("name");
      const std::string entity = name ? "joint '" + std::string(name) + "'" : "joint";
      const SourceLocation at{path_, j->Row()};
      if (!name) throw InputError(at, entity, "the joint has no name", "give name=\"...\"");
      const char* type = j->Attribute("type");
      if (!type)
        throw InputError(at, entity, "the joint has no type",
                         "give type=\"revolute\", \"continuous\", \"prismatic\", \"floating\" or \"fixed\"");
      for (const char* side : {"parent", "child"}) {
        const TiXmlElement* e = j->FirstChildElement(side);
        const char* link = e ? e->Attribute("link") : nullptr;
        if (!link)
          throw InputError(at, entity, std::string("the joint has no <") + side + " link=...>",
                           "name the link it joins");
        if (!links.count(link))
          throw InputError({path_, e->Row()}, entity,
                           std::string("its ") + side + " link '" + link + "' is not defined",
                           "add <link name=\"" + std::string(link) + "\"> or correct the name");
      }
      const std::string t = type;
      if ((t == "revolute" || t == "prismatic")) {
        const TiXmlElement* limit = j->FirstChildElement("limit");
        if (!limit || !limit->Attribute("effort") || !limit->Attribute("velocity"))
          throw InputError(at, entity, "a " + t + " joint needs <limit effort=... velocity=...> in URDF",
                           "add the limit element, or use type=\"continuous\" for an unlimited revolute joint");
      }
    }
  }

  /// The links form one tree (urdfdom refuses anything else without saying why): no link is the
  /// child of two joints, no chain of parents comes back to its start, one link is the root.
  void check_tree(const TiXmlElement& robot) const {
    struct Parent {
      std::string link;
      const TiXmlElement* joint;
    };
    std::map<std::string, Parent> parent;  // child link -> its parent link and joint
    const auto link_of = [](const TiXmlElement& joint, const char* side) {
      return std::string(joint.FirstChildElement(side)->Attribute("link"));
    };
    const auto loop_error = [&](const TiXmlElement& joint, const std::vector<std::string>& links) {
      std::string names;
      for (const std::string& l : links) names += (names.empty() ? "'" : ", '") + l + "'";
      throw InputError({path_, joint.Row()}, "joint '" + std::string(joint.Attribute("name")) + "'",
                       "it closes a loop of the links " + names,
                       "URDF describes trees: remove one joint of the loop (or model the loop as a planar mechanism)");
    };
    const auto ancestors = [&](std::string link) {  // link, its parent, ... up to the root
      std::vector<std::string> up{link};
      for (auto it = parent.find(link); it != parent.end() && up.size() <= parent.size(); it = parent.find(link))
        up.push_back(link = it->second.link);
      return up;
    };
    for (const TiXmlElement* j = robot.FirstChildElement("joint"); j; j = j->NextSiblingElement("joint")) {
      const std::string child = link_of(*j, "child"), from = link_of(*j, "parent");
      if (parent.emplace(child, Parent{from, j}).second) continue;
      // A second parent: the loop runs up from one parent to where the other's path meets it.
      const Parent& first = parent.at(child);
      const std::vector<std::string> up = ancestors(first.link), other = ancestors(from);
      std::vector<std::string> loop{child};
      for (const std::string& l : up) {
        loop.push_back(l);
        if (const auto meet = std::find(other.begin(), other.end(), l); meet != other.end()) {
          loop.insert(loop.end(), std::make_reverse_iterator(meet), other.rend());
          loop_error(*j, loop);
        }
      }
      throw InputError({path_, j->Row()}, "joint '" + std::string(j->Attribute("name")) + "'",
                       fmt::format("its child link '{}' is already the child of joint '{}' (line {})", child,
                                   first.joint->Attribute("name"), first.joint->Row()),
                       "give every link one parent joint");
    }
    // A chain of parents that comes back to its start: walk up from every link once.
    std::map<std::string, int> state;  // 1: on the current walk, 2: leads to a root
    for (const auto& entry : parent) {
      std::vector<std::string> walk;
      for (std::string link = entry.first;;) {
        int& seen = state[link];
        if (seen == 1) loop_error(*parent.at(link).joint, {std::find(walk.begin(), walk.end(), link), walk.end()});
        if (seen == 2) break;
        seen = 1;
        walk.push_back(link);
        const auto it = parent.find(link);
        if (it == parent.end()) break;
        link = it->second.link;
      }
      for (const std::string& l : walk) state[l] = 2;
    }
    std::vector<std::string> roots;
    for (const TiXmlElement* e = robot.FirstChildElement("link"); e; e = e->NextSiblingElement("link"))
      if (!parent.count(e->Attribute("name"))) roots.emplace_back(e->Attribute("name"));
    if (roots.size() > 1)
      throw InputError(where("link", roots[1]), "link '" + roots[1] + "'",
                       "no joint has it as child, as the root '" + roots[0] + "': a URDF has one root",
                       "join it to the robot with a joint (type=\"fixed\" to weld it)");
  }

  SourceLocation where(const char* kind, const std::string& name) const {
    const auto it = line_.find(std::string(kind) + ":" + name);
    return {path_, it == line_.end() ? 0 : it->second};
  }

  /// Adds `link` (at `pose` in the frame of moving link `owner`, -1 for the base) and its fixed
  /// subtree to the owner, then follows each moving joint below them: every branch becomes a
  /// subtree of the parent array (depth first, so parents come before children).
  void absorb(const urdf::Link& link, const Pose& pose, int owner) {
    std::vector<std::pair<urdf::JointSharedPtr, Pose>> moving;
    collect(link, pose, owner, moving, true);
    for (const auto& [uj, at] : moving) {
      ChainJoint j;
      j.name = uj->name;
      j.where = where("joint", uj->name);
      j.parent = owner;
      j.placement = at * to_pose(uj->parent_to_joint_origin_transform);
      if (uj->type == urdf::Joint::FLOATING) {
        j.type = JointType::free_flyer;
      } else {
        j.type = uj->type == urdf::Joint::PRISMATIC ? JointType::prismatic : JointType::revolute;
        j.axis = Vec3(uj->axis.x, uj->axis.y, uj->axis.z);
        if (uj->dynamics) {
          j.friction.viscous = uj->dynamics->damping;
          j.friction.constant = uj->dynamics->friction;  // a constant dry friction torque or force
        }
      }
      spec_.joints.push_back(j);
      urdf::LinkConstSharedPtr child = model_->getLink(uj->child_link_name);
      spec_.links.push_back({child->name, {}, where("link", child->name)});
      absorb(*child, Pose::identity(), static_cast<int>(spec_.joints.size()) - 1);
    }
  }

  void collect(const urdf::Link& link, const Pose& pose, int owner,
               std::vector<std::pair<urdf::JointSharedPtr, Pose>>& moving, bool is_owner_link) {
    if (owner >= 0) {
      ChainLink& l = spec_.links[static_cast<size_t>(owner)];
      l.inertia = merged(l.inertia, transformed(link_inertia(link), pose));
    }
    if (!is_owner_link) {
      spec_.frames.push_back({link.name, owner, pose});
      if (link.child_joints.empty()) leaves_[owner].push_back(pose);
    }
    for (const urdf::JointSharedPtr& j : link.child_joints) {
      const Pose origin = pose * to_pose(j->parent_to_joint_origin_transform);
      switch (j->type) {
        case urdf::Joint::FIXED: collect(*model_->getLink(j->child_link_name), origin, owner, moving, false); break;
        case urdf::Joint::REVOLUTE:
        case urdf::Joint::CONTINUOUS:
        case urdf::Joint::PRISMATIC:
        case urdf::Joint::FLOATING: moving.emplace_back(j, pose); break;
        default:
          throw InputError(where("joint", j->name), "joint '" + j->name + "'", "planar joints are not supported",
                           "use revolute, continuous, prismatic, floating or fixed joints");
      }
    }
  }

  std::string path_;
  ChainFileOptions options_;
  urdf::ModelInterfaceSharedPtr model_;
  std::map<std::string, int> line_;
  int robot_line_ = 1;
  std::map<int, std::vector<Pose>> leaves_;  ///< per owner link: the poses of its fixed leaves
  ChainSpec spec_;
};

}  // namespace

ChainSpec read_urdf(const std::string& path, const ChainFileOptions& options) {
  return UrdfReader(path, options).read();
}

}  // namespace linkdyn::io
