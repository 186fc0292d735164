#include "io/yaml_reader.hpp"

#include <fmt/format.h>
#include <yaml-cpp/depthguard.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdlib>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "linkdyn/io/text_file.hpp"

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

/// Nesting of flow collections ([ and {) deeper than this is refused before parsing.
constexpr int max_flow_depth = 64;
/// Values the aliases of a file may add to it (each alias counted as a copy of what it names).
constexpr double max_expanded_values = 1e6;

/// The first line where [ or { collections nest deeper than max_flow_depth, else 0. Quoted
/// text and comments are skipped; a bracket inside a plain word counts (harmless: the limit is
/// far above any model).
int too_deep_flow_line(const std::string& text) {
  int depth = 0, line = 1;
  char quote = 0;
  bool comment = false;
  for (size_t k = 0; k < text.size(); ++k) {
    const char c = text[k];
    if (c == '\n') {
      ++line, comment = false;
      if (quote == 0) continue;
    }
    if (comment) continue;
    if (quote != 0) {
      if (c == quote && !(quote == '"' && k > 0 && text[k - 1] == '\\')) quote = 0;
      continue;
    }
    if (c == '#' && (k == 0 || text[k - 1] == ' ' || text[k - 1] == '\t' || text[k - 1] == '\n')) {
      comment = true;
    } else if (c == '"' || c == '\'') {
      quote = c;
    } else if (c == '[' || c == '{') {
      if (++depth > max_flow_depth) return line;
    } else if ((c == ']' || c == '}') && depth > 0) {
      --depth;
    }
  }
  return 0;
}

/// Checks every map of the tree (in section `section`): distinct keys (else InputError naming
/// the entry and both lines), no merge key. A node reached again through an alias is checked
/// once (`checked` holds the positions of the collections done).
void check_keys(const YAML::Node& node, const std::string& section, const std::string& file,
                std::unordered_set<size_t>& checked) {
  if (!(node.IsSequence() || node.IsMap()) || !checked.insert(static_cast<size_t>(node.Mark().pos)).second) return;
  if (node.IsSequence()) {
    for (const YAML::Node& item : node) check_keys(item, section, file, checked);
    return;
  }
  std::unordered_map<std::string, int> seen;
  for (const auto& entry : node) {
    const int line = entry.first.Mark().line + 1;
    if (!entry.first.IsScalar())
      throw InputError({file, line}, section.empty() ? "model" : "'" + section + "'", "has a key that is not a name",
                       "write keys as plain names");
    const std::string& key = entry.first.Scalar();
    if (key == "<<")
      throw InputError({file, line}, section.empty() ? "model" : "'" + section + "'",
                       "uses a YAML merge key ('<<'), which linkdyn does not read",
                       "write the entries out; an alias (*name) of a whole value works");
    if (const auto [at, fresh] = seen.emplace(key, line); !fresh)
      throw InputError({file, line}, entry_name(section, key),
                       fmt::format("is defined twice in the same map, on lines {} and {}", at->second, line),
                       "keep one of them (YAML allows a key once per map)");
    check_keys(entry.second, key, file, checked);
  }
}

/// The values of a tree: as written, and with every alias expanded.
struct ValueCount {
  double written = 0.0, expanded = 0.0;
};

/// Counts the values of `node`; each distinct collection is counted once (`sizes`, by position),
/// so an alias bomb costs its size in the file, not its expansion. A collection that contains an
/// alias of itself is an InputError naming its anchor (`text`: the file's, for the anchor's name).
ValueCount count_values(const YAML::Node& node, std::unordered_map<size_t, double>& sizes, const std::string& text,
                        const std::string& file) {
  if (!(node.IsSequence() || node.IsMap())) return {1.0, 1.0};
  const auto pos = static_cast<size_t>(node.Mark().pos);
  if (const auto at = sizes.find(pos); at != sizes.end()) {
    if (at->second < 0.0) {  // still being counted: the alias is inside its own anchor
      const bool named = pos < text.size() && text[pos] == '&';
      const std::string name = named ? text.substr(pos + 1, text.find_first_of(" \t\r\n[]{},", pos) - pos - 1) : "";
      throw InputError(
          {file, node.Mark().line + 1}, named ? "anchor &" + name : "anchor",
          "contains an alias of itself" + (named ? " (*" + name + ")" : std::string()) + ": its value would never end",
          "alias the anchor only outside the value it names");
    }
    return {1.0, at->second};  // an alias: one value written
  }
  sizes[pos] = -1.0;
  ValueCount n{1.0, 1.0};
  const auto add = [&](const YAML::Node& child, double key) {
    const ValueCount c = count_values(child, sizes, text, file);
    n.written += key + c.written, n.expanded += key + c.expanded;
  };
  if (node.IsSequence())
    for (const YAML::Node& item : node) add(item, 0.0);
  else
    for (const auto& entry : node) add(entry.second, 1.0);
  sizes[pos] = n.expanded;
  return n;
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
  if (const int line = too_deep_flow_line(text); line > 0)
    throw InputError({file_, line}, "model", fmt::format("lists or maps nest more than {} levels deep", max_flow_depth),
                     "flatten the structure (a model nests a few levels)");
  YAML::Node root;
  try {
    root = YAML::Load(text);
  } catch (const YAML::DeepRecursion& e) {  // yaml-cpp's own guard, for indented nesting
    throw InputError({file_, e.mark.line + 1}, "model", "lists or maps nest too deeply for the YAML reader",
                     "flatten the structure (a model nests a few levels)");
  } catch (const YAML::Exception& e) {
    throw InputError({file_, e.mark.line + 1}, "model", "not valid YAML: " + e.msg, "fix the YAML syntax");
  }
  std::unordered_set<size_t> checked;
  check_keys(root, "", file_, checked);
  std::unordered_map<size_t, double> sizes;
  if (const ValueCount n = count_values(root, sizes, text, file_); n.expanded - n.written > max_expanded_values)
    throw InputError({file_, 0}, "model",
                     fmt::format("its aliases (*name) add {:.3g} values by their expansion, more than {:.0g}",
                                 n.expanded - n.written, max_expanded_values),
                     "write the repeated entries out, or alias fewer of them");
  return root;
}

YAML::Node YamlReader::load_file() const { return load(read_text_file(file_, "model", max_model_file_bytes)); }

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
         std::isfinite(std::strtod(node.Scalar().c_str(), nullptr)) && problem.find("too large") != std::string::npos
             ? "check the value and its unit"
         : kind == Quantity::plain ? "write a plain number in SI units"
                                   : "write a number in SI units or with a unit (" + accepted_units(kind) + ")");
  }
  return *value;
}

int YamlReader::integer(const YAML::Node& node, const std::string& entity, int min_value) const {
  const double v = number(node, entity);
  if (v != std::floor(v) || v < min_value)
    fail(node, entity, "expected a whole number >= " + std::to_string(min_value), "write an integer such as 360");
  if (v > 1e8)
    fail(node, entity, fmt::format("{} is more than 10^8, the largest count a file takes", node.Scalar()),
         "give a smaller number");
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

Vec2 YamlReader::vector(const YAML::Node& node, const std::string& entity, Quantity kind,
                        const std::string& fix) const {
  if (!node.IsSequence() || node.size() != 2) fail(node, entity, "expected two components", fix);
  return {number(node[0], entity, kind), number(node[1], entity, kind)};
}

double YamlReader::non_negative(const YAML::Node& map, const char* key, const std::string& entity, Quantity kind,
                                bool required) const {
  if (!map[key]) {
    if (required) fail(map, entity, std::string("missing field '") + key + "'", std::string("give ") + key);
    return 0.0;
  }
  const double v = number(map[key], entity + "." + key, kind);
  if (v < 0.0) fail(map[key], entity, std::string(key) + " is negative", std::string("give ") + key + " >= 0");
  return v;
}

}  // namespace linkdyn::io
