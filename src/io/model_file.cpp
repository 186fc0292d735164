// Model files: YAML -> the mechanism, its machine and its elastic links (one spec each), the
// sections in order (each read in its capability's unit, io/model_parser.hpp).
// Format: docs/model-format.md.
#include "linkdyn/io/model_file.hpp"

#include <filesystem>

#include "io/model_parser.hpp"
#include "io/yaml_reader.hpp"
#include "linkdyn/io/text_file.hpp"

namespace linkdyn::io {
using namespace linkdyn::planar;

Model ModelParser::parse(const YAML::Node& root) {
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
    spec_.gravity =
        in_.vector(field(root, "gravity"), "gravity", Quantity::plain, "write gravity: [0, -9.81] in m/s^2");
  if (field(root, "loads")) loads(field(root, "loads"));
  cam_springs();
  if (field(root, "constraint_actions")) constraint_actions(field(root, "constraint_actions"));
  if (field(root, "actuators")) actuators(field(root, "actuators"));
  if (field(root, "assembly")) assembly(field(root, "assembly"));
  if (field(root, "structure")) structure(field(root, "structure"));
  if (field(root, "analysis")) analysis(field(root, "analysis"));
  cylinder_strokes();
  if (field(root, "elastic_links")) elastic_links(field(root, "elastic_links"));
  return {std::move(spec_), std::move(machine_), std::move(elastic_links_)};
}

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
