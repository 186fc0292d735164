// A model file as JSON with typed scalars (io::model_file_as_json).
#include <yaml-cpp/yaml.h>

#include <charconv>
#include <cmath>
#include <nlohmann/json.hpp>

#include "io/yaml_reader.hpp"
#include "linkdyn/io/model_file.hpp"

namespace linkdyn::io {
namespace {

using Json = nlohmann::ordered_json;

/// A plain scalar as the JSON value it reads as, as the model parser reads numbers
/// (std::from_chars): an integer, a finite number, true or false, null; else (quoted, tagged or
/// text such as "30 deg") its text.
Json scalar(const YAML::Node& node) {
  const std::string& text = node.Scalar();
  if (node.Tag() != "?") return text;  // quoted ("!") or explicitly tagged: a string
  if (text == "true") return true;
  if (text == "false") return false;
  if (text.empty() || text == "~" || text == "null") return nullptr;
  const char* const begin = text.data() + (text.front() == '+' ? 1 : 0);
  const char* const end = text.data() + text.size();
  long long integer = 0;
  if (const auto [at, error] = std::from_chars(begin, end, integer); error == std::errc() && at == end) return integer;
  double number = 0.0;
  if (const auto [at, error] = std::from_chars(begin, end, number);
      error == std::errc() && at == end && std::isfinite(number))
    return number;
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
      for (const auto& entry : node) {
        const std::string key = entry.first.as<std::string>();
        object[key] = to_json(entry.second);  // keys are unique (YamlReader::load checks it)
      }
      return object;
    }
    case YAML::NodeType::Scalar: return scalar(node);
    default: return nullptr;
  }
}

}  // namespace

std::string model_file_as_json(const std::string& path) {
  const YAML::Node root = YamlReader(path).load_file();
  try {
    return to_json(root).dump();
  } catch (const YAML::Exception& e) {
    throw InputError({path, e.mark.line + 1}, "model", "unexpected YAML: " + e.msg,
                     "write the entry as docs/model-format.md shows");
  }
}

}  // namespace linkdyn::io
