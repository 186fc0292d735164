#pragma once
// The model file's parser (docs/model-format.md): one object that fills the three specs, each
// section read in the unit of its capability: model_planar.cpp (bodies, joints, drivers,
// assembly), model_loads.cpp (loads and their tables), model_machine.cpp (actuators, constraint
// actions), model_elastic.cpp (elastic links); model_file.cpp reads the sections in order.
#include <fmt/format.h>

#include <string>
#include <vector>

#include "io/yaml_reader.hpp"
#include "linkdyn/io/model_file.hpp"

namespace linkdyn::io {

class ModelParser {
 public:
  explicit ModelParser(const std::string& path) : in_(path), path_(path) {}

  [[nodiscard]] Model parse(const YAML::Node& root);

 private:
  struct CamNode {
    int joint;
    YAML::Node node;
  };
  std::vector<CamNode> cam_nodes_;  ///< the cam joints, read when every joint is
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

  // The planar mechanism (model_planar.cpp).
  void ground(const YAML::Node& root);
  void bodies(const YAML::Node& node);
  [[nodiscard]] int body_ref(const YAML::Node& node, const std::string& entity);
  [[nodiscard]] Vec2 point_ref(int body, const std::string& name, const YAML::Node& at, const std::string& entity);
  [[nodiscard]] planar::BodyPoint body_point(const YAML::Node& node, const std::string& entity);
  void joints(const YAML::Node& node);
  void compound_pin(const std::string& name, const std::string& entity, const YAML::Node& key, const YAML::Node& j,
                    const YAML::Node& bodies);
  void need_two_body_joint(const YAML::Node& node, const std::string& entity, const std::string& what);
  struct PairFriction {
    double coefficient = 0.0, static_coefficient = 0.0, size = 0.0;  // size: pin radius or slider length
  };
  /// `size_key`: "radius" (a pin), "length" (a slider) or nullptr (none: a knife edge).
  void pair_friction(const YAML::Node& node, const std::string& path, const char* size_key, PairFriction& f);
  void friction_defaults(const YAML::Node& node);
  void guide(const YAML::Node& j, planar::Joint& joint, const std::string& entity);
  /// A cam joint (model_cam.cpp): its follower's point, then, once every joint is read, its
  /// follower's program and the layout its pitch curve is made for.
  void cam_joint(const YAML::Node& j, planar::Joint& joint, const std::string& entity);
  void cam_geometry();
  /// A cam's program from a CSV table of theta,s over a turn (model_cam.cpp).
  void cam_table_program(const YAML::Node& node, const std::string& entity, planar::CamProgram& program);
  /// Each cam's closing spring (CamPair::closing_spring), once the loads are read.
  void cam_springs();
  void drivers(const YAML::Node& node);
  void pin_driver(const YAML::Node& d, const YAML::Node& jn, const std::string& entity, planar::Driver& drv);
  /// A cylinder between two bodies' points (model_cylinder.cpp): its barrel and rod bodies, its
  /// three pairs, its driver and, with seal friction, its seals' resistance.
  void cylinder(const std::string& name, const std::string& entity, const YAML::Node& key, const YAML::Node& d);
  /// A cylinder's force in the direct dynamics, from its `force:` node (model_cylinder.cpp).
  dynamics::CylinderForce cylinder_force(const planar::Cylinder& c, const YAML::Node& f, const std::string& path);
  /// Each cylinder's law within its stroke over the analyses' grid (after `analysis:`).
  void cylinder_strokes();
  void two_body_driver(const YAML::Node& jn, const std::string& entity, const planar::Driver& drv);
  [[nodiscard]] planar::MotionLaw law(const YAML::Node& l, const std::string& entity, planar::DriverType kind);
  [[nodiscard]] planar::TableLaw table(const YAML::Node& f, const std::string& entity);
  void assembly(const YAML::Node& node);
  void structure(const YAML::Node& node);
  void analysis(const YAML::Node& node);

  // Loads and their tables (model_loads.cpp).
  void loads(const YAML::Node& node);
  [[nodiscard]] planar::Coordinate coordinate(const YAML::Node& node, const std::string& entity, bool& rate);
  [[nodiscard]] planar::LoadTable load_table(const YAML::Node& node, const std::string& entity, bool force);
  [[nodiscard]] std::vector<std::vector<double>> csv(const YAML::Node& f, const std::string& entity,
                                                     const std::string& header_expected, std::string& file,
                                                     std::vector<int>* lines = nullptr);

  // The machine of direct dynamics (model_machine.cpp).
  void actuators(const YAML::Node& node);
  [[nodiscard]] int prismatic_joint(const YAML::Node& jn, const std::string& entity, const std::string& what);
  [[nodiscard]] double static_resistance(const YAML::Node& n, const char* key, double kinetic,
                                         const std::string& entity, Quantity kind);
  void constraint_actions(const YAML::Node& node);

  // Elastic links (model_elastic.cpp).
  [[nodiscard]] flex::SectionProperties section_shape(const YAML::Node& link, const std::string& link_entity);
  [[nodiscard]] flex::BeamSection beam_section(const YAML::Node& n, const std::string& entity, double E, double rho);
  void elastic_links(const YAML::Node& node);
  void beam_inertia(int b);

  YamlReader in_;
  std::string path_;
  planar::MechanismSpec spec_;
  dynamics::MachineSpec machine_;
  std::vector<flex::ElasticLinkSpec> elastic_links_;
  YAML::Node bodies_node_;                               // the bodies: map, to tell given entries from defaults
  PairFriction revolute_friction_, prismatic_friction_;  // model-wide defaults
};

}  // namespace linkdyn::io
