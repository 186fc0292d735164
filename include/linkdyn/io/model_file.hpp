#pragma once
// Model files (YAML), documented in docs/model-format.md. A model describes a planar mechanism
// and, optionally, what direct dynamics adds to it (actuators, constraint actions) and its
// elastic links: one spec per capability.
#include <string>
#include <vector>

#include "linkdyn/dynamics/machine.hpp"
#include "linkdyn/dynamics/machine_spec.hpp"
#include "linkdyn/flex/elastic_link.hpp"
#include "linkdyn/planar/mechanism.hpp"

namespace linkdyn::io {

/// Everything a model file describes.
struct Model {
  planar::MechanismSpec mechanism;
  dynamics::MachineSpec machine;                     ///< `actuators:`, `constraint_actions:`
  std::vector<flex::ElasticLinkSpec> elastic_links;  ///< `elastic_links:`
};

/// Reads a model file. Throws InputError naming file, line and entity.
[[nodiscard]] Model read_model(const std::string& path);
/// Reads from text; `path` names it in errors and anchors relative file names (tables).
[[nodiscard]] Model parse_model(const std::string& text, const std::string& path);
/// A model file's text as JSON, scalars typed (plain numbers as numbers, true/false, null;
/// quoted scalars and text such as "30 deg" stay strings): for scripts that change a model's
/// entries and parse it again (parse_model reads JSON, YAML being its superset). Throws
/// InputError when the file cannot be read or is not valid YAML.
[[nodiscard]] std::string model_file_as_json(const std::string& path);
/// The mechanism alone (read_model(path).mechanism).
[[nodiscard]] planar::MechanismSpec read_planar_model(const std::string& path);
[[nodiscard]] planar::MechanismSpec parse_planar_model(const std::string& text, const std::string& path);
/// read_planar_model + compile.
[[nodiscard]] planar::Mechanism load_mechanism(const std::string& path, const planar::CompileOptions& options = {});
/// The machine of direct dynamics: the compiled mechanism with its actuators and constraint
/// actions.
[[nodiscard]] dynamics::DynamicSystem load_machine(const std::string& path);

}  // namespace linkdyn::io
