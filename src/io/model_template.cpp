// Model files as templates of design studies (io::ModelTemplate, io::ModelEditor).
#include "linkdyn/io/model_template.hpp"

#include <fmt/format.h>
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <charconv>
#include <filesystem>
#include <limits>

#include "io/yaml_reader.hpp"
#include "linkdyn/io/text_file.hpp"

namespace linkdyn::io {
namespace {

/// The steps of a dotted path: keys, and sequence indices written [k] or .k (.x, .y for 0, 1).
struct Step {
  std::string key;
  int index = -1;  ///< >= 0: a sequence item
};

std::vector<Step> split_path(const std::string& path) {
  std::vector<Step> steps;
  std::string part;
  auto flush = [&] {
    if (!part.empty()) steps.push_back({part, -1});
    part.clear();
  };
  for (size_t k = 0; k < path.size(); ++k) {
    const char c = path[k];
    if (c == '.') {
      flush();
    } else if (c == '[') {
      flush();
      const size_t close = path.find(']', k);
      if (close == std::string::npos) return {};
      int index = -1;
      const auto [at, error] = std::from_chars(path.data() + k + 1, path.data() + close, index);
      if (error != std::errc() || at != path.data() + close || index < 0) return {};
      steps.push_back({"", index});
      k = close;
    } else {
      part += c;
    }
  }
  flush();
  return steps;
}

/// The node at `steps` under root, or an invalid node; `failed_at` names the first step not found.
YAML::Node walk(const YAML::Node& root, const std::vector<Step>& steps, std::string* failed_at = nullptr,
                std::string* canonical = nullptr) {
  YAML::Node node;
  node.reset(root);
  std::string so_far;
  for (const Step& step : steps) {
    int index = step.index;
    if (index < 0 && node.IsSequence()) {  // .0, .x, .y on a sequence
      if (step.key == "x")
        index = 0;
      else if (step.key == "y")
        index = 1;
      else if (!step.key.empty() && std::all_of(step.key.begin(), step.key.end(), ::isdigit))
        index = std::stoi(step.key);
    }
    const std::string label = index >= 0 ? fmt::format("[{}]", index) : (so_far.empty() ? "" : ".") + step.key;
    if (index >= 0) {
      if (!node.IsSequence() || static_cast<size_t>(index) >= node.size()) {
        if (failed_at) *failed_at = so_far + label;
        return YAML::Node(YAML::NodeType::Undefined);
      }
      node.reset(node[static_cast<size_t>(index)]);  // reset: `=` would overwrite the node itself
    } else {
      const YAML::Node& as_const = node;
      if (!node.IsMap() || !as_const[step.key]) {
        if (failed_at) *failed_at = so_far + label;
        return YAML::Node(YAML::NodeType::Undefined);
      }
      node.reset(as_const[step.key]);
    }
    so_far += label;
  }
  if (canonical) *canonical = so_far;  // indices as [k] whichever way they were written
  return node;
}

/// The keys under a map node, for "the entries here are" hints.
std::string keys_of(const YAML::Node& node) {
  std::string keys;
  if (node.IsMap())
    for (const auto& kv : node) keys += (keys.empty() ? "" : ", ") + kv.first.Scalar();
  return keys;
}

std::string read_text(const std::string& path) { return read_text_file(path, "model", max_model_file_bytes); }

/// A value in an entry's own unit: shortest text that reads back to the same double.
std::string entry_text(const ModelEntry& entry, double value) {
  if (entry.unit.empty()) return fmt::format("{}", value);
  return fmt::format("{} {}", value / entry.unit_size, entry.unit);
}

}  // namespace

std::optional<std::pair<double, Quantity>> parse_any_quantity(const std::string& text) {
  for (Quantity kind : {Quantity::plain, Quantity::length, Quantity::angle, Quantity::angular_velocity,
                        Quantity::angular_acceleration, Quantity::force, Quantity::moment}) {
    std::string problem;
    if (const std::optional<double> value = parse_quantity(text, kind, problem)) return std::pair{*value, kind};
  }
  return std::nullopt;
}

ModelTemplate::ModelTemplate(std::string path) : path_(std::move(path)), text_(read_text(path_)) {
  (void)parse_model(text_, path_);  // throws unless the template is a valid model
}

ModelTemplate::~ModelTemplate() = default;

ModelEntry ModelTemplate::entry(const std::string& path, const SourceLocation& where, const std::string& entity) const {
  const YAML::Node root = YamlReader(path_).load(text_);
  const std::vector<Step> steps = split_path(path);
  if (steps.empty())
    throw InputError(where, entity, "'" + path + "' is not a path into the model",
                     "write keys separated by dots, such as bodies.rocker.points.C[0]");
  std::string failed_at, canonical;
  const YAML::Node node = walk(root, steps, &failed_at, &canonical);
  const std::vector<Step> parent_steps(steps.begin(), steps.end() - 1);
  if (const YAML::Node parent = walk(root, parent_steps);
      !node && steps.back().index < 0 && parent && parent.IsMap()) {  // an optional entry not written
    ModelEntry e;
    e.path = path;
    e.canonical = failed_at;
    e.value = std::numeric_limits<double>::quiet_NaN();
    e.present = false;
    e.line = parent.Mark().line + 1;
    return e;
  }
  if (!node) {
    const size_t cut = failed_at.find_last_of(".[");
    const YAML::Node parent = walk(root, split_path(cut == std::string::npos ? "" : failed_at.substr(0, cut)));
    const std::string keys = parent ? keys_of(parent) : std::string();
    throw InputError(where, entity, fmt::format("the model {} has no entry '{}'", path_, failed_at),
                     keys.empty() ? "check the path against the model file" : "the entries there are: " + keys);
  }
  if (!node.IsScalar())
    throw InputError(where, entity, fmt::format("'{}' in {} is not a single number", path, path_),
                     "name one number, such as a point's coordinate (C[0] or C.x)");
  const auto parsed = parse_any_quantity(node.Scalar());
  if (!parsed)
    throw InputError(where, entity, fmt::format("'{}' in {} is '{}', not a number", path, path_, node.Scalar()),
                     "name a numeric entry");
  ModelEntry e;
  e.path = path;
  e.canonical = canonical;
  e.value = parsed->first;
  e.kind = parsed->second;
  e.line = node.Mark().line + 1;
  const std::string& text = node.Scalar();
  const size_t end_of_number = text.find_first_of(" \t");
  if (end_of_number != std::string::npos) {
    e.unit = text.substr(text.find_first_not_of(" \t", end_of_number));
    e.unit_size = parse_any_quantity("1 " + e.unit)->first;
  }
  return e;
}

namespace {

struct Edit {
  size_t at, length;
  std::string text;
};

/// The `file:` entries under node, named relative to the folder `to` instead of `from`.
void relocate_files(const YAML::Node& node, const std::filesystem::path& from, const std::filesystem::path& to,
                    const std::string& text, std::vector<Edit>& edits) {
  if (node.IsSequence()) {
    for (const YAML::Node& item : node) relocate_files(item, from, to, text, edits);
  } else if (node.IsMap()) {
    for (const auto& kv : node) {
      if (kv.first.IsScalar() && kv.first.Scalar() == "file" && kv.second.IsScalar()) {
        const std::filesystem::path file(kv.second.Scalar());
        const auto at = static_cast<size_t>(kv.second.Mark().pos);
        if (file.is_absolute() || text.compare(at, file.native().size(), file.native()) != 0) continue;
        const std::filesystem::path moved = std::filesystem::relative(std::filesystem::absolute(from / file), to);
        if (!moved.empty() && moved != file) edits.push_back({at, file.native().size(), moved.string()});
      } else {
        relocate_files(kv.second, from, to, text, edits);
      }
    }
  }
}

}  // namespace

std::string ModelTemplate::text_with(const std::vector<ModelEntry>& entries, std::span<const double> values,
                                     const std::string& destination) const {
  const YAML::Node root = YamlReader(path_).load(text_);
  std::vector<Edit> edits;
  if (!destination.empty()) {
    const auto folder = [](const std::string& path) {
      return std::filesystem::absolute(std::filesystem::path(path)).parent_path();
    };
    relocate_files(root, folder(path_), folder(destination), text_, edits);
  }
  for (size_t k = 0; k < entries.size(); ++k) {
    const std::vector<Step> steps = split_path(entries[k].path);
    if (!entries[k].present) {  // added to its map: in a flow map before '}', else as its first key
      const YAML::Node map = walk(root, std::vector<Step>(steps.begin(), steps.end() - 1));
      const auto at = static_cast<size_t>(map.Mark().pos);
      const std::string entry = steps.back().key + ": " + entry_text(entries[k], values[k]);
      if (text_.compare(at, 1, "{") == 0) {
        size_t close = at, depth = 0;
        for (; close < text_.size(); ++close) {
          if (text_[close] == '{' || text_[close] == '[') ++depth;
          if ((text_[close] == '}' || text_[close] == ']') && --depth == 0) break;
        }
        edits.push_back({close, 0, (map.size() > 0 ? ", " : "") + entry});
      } else {
        edits.push_back({at, 0, entry + "\n" + std::string(static_cast<size_t>(map.Mark().column), ' ')});
      }
      continue;
    }
    const YAML::Node node = walk(root, steps);
    const size_t at = static_cast<size_t>(node.Mark().pos);
    const std::string& scalar = node.Scalar();
    size_t length = scalar.size();
    if (at < text_.size() && (text_[at] == '"' || text_[at] == '\'')) length += 2;  // a quoted scalar
    if (at + length > text_.size() || text_.compare(at + (length > scalar.size() ? 1 : 0), scalar.size(), scalar) != 0)
      throw InputError({path_, entries[k].line}, entries[k].path, "the entry is not written on one line",
                       "write the number on one line in the model file");
    edits.push_back({at, length, entry_text(entries[k], values[k])});
  }
  std::sort(edits.begin(), edits.end(), [](const Edit& a, const Edit& b) { return a.at > b.at; });
  std::string out = text_;
  for (const Edit& e : edits) out.replace(e.at, e.length, e.text);
  return out;
}

struct ModelEditor::Tree {
  std::string path;
  YAML::Node root;
  std::vector<YAML::Node> nodes;  ///< the studied entries, in the tree
  std::vector<ModelEntry> entries;
};

ModelEditor::ModelEditor(const ModelTemplate& model, const std::vector<ModelEntry>& entries)
    : tree_(std::make_unique<Tree>()) {
  tree_->path = model.path();
  tree_->root = YamlReader(model.path()).load(model.text());
  tree_->entries = entries;
  for (const ModelEntry& e : entries) {
    const std::vector<Step> steps = split_path(e.path);
    if (e.present) {
      tree_->nodes.push_back(walk(tree_->root, steps));
    } else {  // the entry added to its map, then set like the others
      YAML::Node map = walk(tree_->root, std::vector<Step>(steps.begin(), steps.end() - 1));
      map[steps.back().key] = "0";
      tree_->nodes.push_back(walk(tree_->root, steps));
    }
  }
}

ModelEditor::~ModelEditor() = default;

Model ModelEditor::model(std::span<const double> values) {
  for (size_t k = 0; k < tree_->nodes.size(); ++k) tree_->nodes[k] = entry_text(tree_->entries[k], values[k]);
  return parse_model_tree(tree_->root, tree_->path);
}

}  // namespace linkdyn::io
