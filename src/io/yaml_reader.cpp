#include "io/yaml_reader.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <sstream>
#include <unordered_map>
#include <vector>

namespace linkdyn::io {
namespace {

/// What an entry of the map under `section` is, for messages: "body 'crank'" under bodies.
std::string entry_name(const std::string& section, const std::string& key) {
  static const std::unordered_map<std::string, std::string> kinds{{"bodies", "body"},
                                                                  {"joints", "joint"},
                                                                  {"drivers", "driver"},
                                                                  {"loads", "load"},
                                                                  {"actuators", "actuator"},
                                                                  {"ground", "ground point"},
                                                                  {"points", "point"},
                                                                  {"links", "link"},
                                                                  {"frames", "frame"},
                                                                  {"elastic_links", "elastic link"},
                                                                  {"constraint_actions", "constraint action"},
                                                                  {"parts", "part"}};
  const auto kind = kinds.find(section);
  if (kind != kinds.end()) return kind->second + " '" + key + "'";
  return section.empty() ? "'" + key + "'" : "'" + key + "' in '" + section + "'";
}

/// Every map under `node` (in section `section`) with distinct keys, else InputError naming the
/// entry and both lines.
void check_unique_keys(const YAML::Node& node, const std::string& section, const std::string& file) {
  if (node.IsSequence()) {
    for (const YAML::Node& item : node) check_unique_keys(item, section, file);
  } else if (node.IsMap()) {
    std::unordered_map<std::string, int> seen;
    for (const auto& entry : node) {
      if (!entry.first.IsScalar())
        throw InputError({file, entry.first.Mark().line + 1}, section.empty() ? "model" : "'" + section + "'",
                         "has a key that is not a name", "write keys as plain names");
      const std::string& key = entry.first.Scalar();
      const int line = entry.first.Mark().line + 1;
      if (const auto [at, fresh] = seen.emplace(key, line); !fresh)
        throw InputError({file, line}, entry_name(section, key),
                         fmt::format("is defined twice in the same map, on lines {} and {}", at->second, line),
                         "keep one of them (YAML allows a key once per map)");
      check_unique_keys(entry.second, key, file);
    }
  }
}

}  // namespace

YAML::Node field(const YAML::Node& map, const char* key) {
  if (map.IsMap())
    for (const auto& entry : map)
      if (entry.first.IsScalar() && entry.first.Scalar() == key) return entry.second;
  static const YAML::Node none(YAML::NodeType::Undefined);  // shared: a new one allocates
  return none;
}

YAML::Node YamlReader::load(const std::string& text) const {
  YAML::Node root;
  try {
    root = YAML::Load(text);
  } catch (const YAML::Exception& e) {
    throw InputError({file_, e.mark.line + 1}, "model", "not valid YAML: " + e.msg, "fix the YAML syntax");
  }
  check_unique_keys(root, "", file_);
  return root;
}

YAML::Node YamlReader::load_file() const {
  std::ifstream in(file_);
  if (!in) throw InputError({file_, 0}, "model", "cannot open the file", "check the path");
  std::stringstream text;
  text << in.rdbuf();
  return load(text.str());
}

SourceLocation YamlReader::where(const YAML::Node& node) const {
  const YAML::Mark mark = node.Mark();
  return {file_, mark.line >= 0 ? mark.line + 1 : 0};
}

void YamlReader::fail(const YAML::Node& node, const std::string& entity, const std::string& problem,
                      const std::string& fix) const {
  throw InputError(where(node), entity, problem, fix);
}

void YamlReader::require_map(const YAML::Node& node, const std::string& entity) const {
  if (!node.IsMap()) fail(node, entity, "expected a map of 'key: value' entries", "see docs/model-format.md");
}

void YamlReader::allow_only(const YAML::Node& map, const std::string& entity,
                            std::initializer_list<const char*> allowed) const {
  require_map(map, entity);
  for (const auto& kv : map) {
    const std::string& key = kv.first.Scalar();
    if (std::any_of(allowed.begin(), allowed.end(), [&](const char* a) { return key == a; })) continue;
    const std::vector<std::string> names(allowed.begin(), allowed.end());
    const std::string nearest = nearest_name(key, names);
    std::string all;
    for (const std::string& a : names) all += (all.empty() ? "" : ", ") + a;
    fail(kv.first, entity, "unknown field '" + key + "'",
         nearest.empty() ? "the fields here are: " + all : "did you mean '" + nearest + "'?");
  }
}

YAML::Node YamlReader::required(const YAML::Node& map, const char* key, const std::string& entity,
                                const std::string& hint) const {
  require_map(map, entity);
  YAML::Node child = field(map, key);
  if (!child) fail(map, entity, std::string("missing field '") + key + "'", hint);
  return child;
}

std::string YamlReader::text(const YAML::Node& node, const std::string& entity) const {
  if (!node.IsScalar()) fail(node, entity, "expected a name or word", "write a single value");
  return node.Scalar();
}

double YamlReader::number(const YAML::Node& node, const std::string& entity, Quantity kind) const {
  if (!node.IsScalar())
    fail(node, entity, "expected a number",
         kind == Quantity::plain ? "write a number"
                                 : "write a number, optionally with a unit (" + accepted_units(kind) + ")");
  std::string problem;
  const std::optional<double> value = parse_quantity(node.Scalar(), kind, problem);
  if (!value) {
    fail(node, entity, problem,
         kind == Quantity::plain ? "write a plain number in SI units"
                                 : "write a number in SI units or with a unit (" + accepted_units(kind) + ")");
  }
  return *value;
}

int YamlReader::integer(const YAML::Node& node, const std::string& entity, int min_value) const {
  const double v = number(node, entity);
  if (v != std::floor(v) || v < min_value || v > 1e8)
    fail(node, entity, "expected a whole number >= " + std::to_string(min_value), "write an integer such as 360");
  return static_cast<int>(v);
}

Vec2 YamlReader::point(const YAML::Node& node, const std::string& entity) const {
  if (node.IsSequence()) {
    if (node.size() != 2) fail(node, entity, "a point has two coordinates", "write [x, y] in m");
    return {number(node[0], entity, Quantity::length), number(node[1], entity, Quantity::length)};
  }
  if (node.IsMap()) {
    allow_only(node, entity, {"r", "angle"});
    const double r = number(required(node, "r", entity, "write {r: length, angle: angle}"), entity, Quantity::length);
    const double a =
        number(required(node, "angle", entity, "write {r: length, angle: angle}"), entity, Quantity::angle);
    return {r * std::cos(a), r * std::sin(a)};
  }
  fail(node, entity, "expected a point", "write [x, y] in m, or {r: length, angle: angle}");
}

std::optional<double> YamlReader::optional_number(const YAML::Node& map, const char* key, const std::string& entity,
                                                  Quantity kind) const {
  const YAML::Node child = field(map, key);
  if (!child) return std::nullopt;
  return number(child, entity + "." + key, kind);
}

}  // namespace linkdyn::io
