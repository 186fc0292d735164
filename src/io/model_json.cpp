// A model file as JSON with typed scalars (io::model_file_as_json).
#include <yaml-cpp/yaml.h>

#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "linkdyn/io/model_file.hpp"

namespace linkdyn::io {
namespace {

using Json = nlohmann::ordered_json;

/// A plain scalar as the JSON value it reads as: an integer, a finite number, a boolean, null,
/// else its text.
Json scalar(const YAML::Node& node) {
  const std::string& text = node.Scalar();
  if (node.Tag() == "!") return text;  // quoted: a string
  if (text == "true" || text == "True") return true;
  if (text == "false" || text == "False") return false;
  if (text.empty() || text == "~" || text == "null") return nullptr;
  char* end = nullptr;
  errno = 0;
  const long long integer = std::strtoll(text.c_str(), &end, 10);
  if (errno == 0 && end == text.c_str() + text.size()) return integer;
  errno = 0;
  const double number = std::strtod(text.c_str(), &end);
  if (errno == 0 && end == text.c_str() + text.size() && std::isfinite(number)) return number;
  return text;
}

Json to_json(const YAML::Node& node) {
  switch (node.Type()) {
    case YAML::NodeType::Sequence: {
      Json out = Json::array();
      for (const YAML::Node& item : node) out.push_back(to_json(item));
      return out;
    }
    case YAML::NodeType::Map: {  // in the file's order: the order of bodies, joints and drivers counts
      Json object = Json::object();
      for (const auto& entry : node) object[entry.first.as<std::string>()] = to_json(entry.second);
      return object;
    }
    case YAML::NodeType::Scalar: return scalar(node);
    default: return nullptr;
  }
}

}  // namespace

std::string model_file_as_json(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw InputError({path, 0}, "model", "cannot open the file", "check the path");
  std::stringstream text;
  text << in.rdbuf();
  YAML::Node root;
  try {
    root = YAML::Load(text.str());
  } catch (const YAML::Exception& e) {
    throw InputError({path, e.mark.line + 1}, "model", "not valid YAML: " + e.msg, "fix the YAML syntax");
  }
  return to_json(root).dump();
}

}  // namespace linkdyn::io
