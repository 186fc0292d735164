// Kinematic trees from URDF (urdfdom): fixed joints merged into their parents (their links kept
// as frames), continuous joints as revolute, floating joints as free-flyers, <dynamics damping>
// as viscous and <dynamics friction> as constant dry friction.
#include <console_bridge/console.h>
#include <fmt/format.h>
#include <tinyxml.h>
#include <urdf_parser/urdf_parser.h>

#include <charconv>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <map>
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

  /// Every number in the attributes under `element` (xyz="0 0 1e300", value="nan") finite and
  /// within linkdyn::max_input_magnitude, as in the YAML files: else InputError at its line.
  void check_numbers(const TiXmlElement& element) const {
    for (const TiXmlAttribute* a = element.FirstAttribute(); a; a = a->Next()) {
      const std::string name = a->Name();
      if (name == "name" || name == "link" || name == "filename" || name == "type") continue;
      std::istringstream words(a->Value());
      for (std::string word; words >> word;) {
        double value = 0.0;
        const char* const end = word.data() + word.size();
        const auto [at, error] = std::from_chars(word.data() + (word.starts_with('+') ? 1 : 0), end, value);
        if (at != end) continue;  // not a number: urdfdom reports it
        std::string problem = error == std::errc() && std::isfinite(value) ? magnitude_problem(value, word)
                                                                           : "'" + word + "' is not a finite number";
        if (!problem.empty())
          throw InputError({path_, element.Row()}, "<" + std::string(element.Value()) + " " + name + ">", problem,
                           "check the value and its unit (URDF uses SI units)");
      }
    }
    for (const TiXmlElement* child = element.FirstChildElement(); child; child = child->NextSiblingElement())
      check_numbers(*child);
  }

  ChainSpec read() {
    const std::string xml = read_text_file(path_, "model", max_model_file_bytes);
    require_shallow(xml);
    // XML syntax first, with the line of the error; and the line of every joint and link.
    TiXmlDocument doc;
    doc.Parse(xml.c_str());
    if (doc.Error())
      throw InputError({path_, doc.ErrorRow()}, "URDF", std::string("not valid XML: ") + doc.ErrorDesc(),
                       "fix the XML syntax");
    if (const TiXmlElement* robot = doc.FirstChildElement("robot")) {
      for (const TiXmlElement* e = robot->FirstChildElement(); e; e = e->NextSiblingElement())
        if (const char* name = e->Attribute("name")) line_[std::string(e->Value()) + ":" + name] = e->Row();
    }
    if (const TiXmlElement* robot = doc.FirstChildElement("robot")) {
      check_joints(*robot);
      check_numbers(*robot);
    }
    console_bridge::setLogLevel(console_bridge::CONSOLE_BRIDGE_LOG_NONE);
    model_ = urdf::parseURDF(xml);
    const urdf::ModelInterfaceSharedPtr& model = model_;
    if (!model)
      throw InputError({path_, 1}, "URDF",
                       "urdfdom cannot read the robot (a missing <robot>, link or joint "
                       "attribute, an unknown parent or child, or a loop)",
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
      throw InputError({path_, 1}, "robot '" + spec_.name + "'", "the robot has no moving joint",
                       "give at least one revolute, continuous, prismatic or floating joint");
    // The end effector: the one leaf of the last link's fixed parts, else the link frame itself.
    const auto& leaves = leaves_[static_cast<int>(spec_.joints.size()) - 1];
    spec_.end_effector = leaves.size() == 1 ? leaves[0] : Pose::identity();
    return spec_;
  }

 private:
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
  std::map<int, std::vector<Pose>> leaves_;  ///< per owner link: the poses of its fixed leaves
  ChainSpec spec_;
};

}  // namespace

ChainSpec read_urdf(const std::string& path, const ChainFileOptions& options) {
  return UrdfReader(path, options).read();
}

}  // namespace linkdyn::io
