#pragma once
// Typed access to YAML nodes with errors that name the file, line and entity.
#include <yaml-cpp/yaml.h>

#include <initializer_list>
#include <optional>
#include <string>

#include "linkdyn/core/error.hpp"
#include "linkdyn/core/geometry.hpp"
#include "linkdyn/core/units.hpp"

namespace linkdyn::io {

/// The entry `key` of a map, or an undefined node (false in a test) when there is none. As
/// map[key], without yaml-cpp's cost of a missing key (it formats the key through a
/// std::stringstream for an error message nobody reads): the variants of a study are parsed
/// thousands of times a second.
[[nodiscard]] YAML::Node field(const YAML::Node& map, const char* key);

class YamlReader {
 public:
  explicit YamlReader(std::string file) : file_(std::move(file)) {}
  [[nodiscard]] const std::string& file() const { return file_; }

  /// YAML text (read from the file itself when `text` is empty), parsed: InputError for text
  /// that is not YAML, or for a map that repeats a key (both lines named: YAML forbids it, and
  /// a parser would keep one silently).
  [[nodiscard]] YAML::Node load(const std::string& text) const;
  [[nodiscard]] YAML::Node load_file() const;

  [[nodiscard]] SourceLocation where(const YAML::Node& node) const;
  [[noreturn]] void fail(const YAML::Node& node, const std::string& entity, const std::string& problem,
                         const std::string& fix) const;

  /// Fails on keys outside `allowed`, suggesting the nearest allowed key.
  void allow_only(const YAML::Node& map, const std::string& entity, std::initializer_list<const char*> allowed) const;
  void require_map(const YAML::Node& node, const std::string& entity) const;
  /// The child `key`, failing when missing.
  [[nodiscard]] YAML::Node required(const YAML::Node& map, const char* key, const std::string& entity,
                                    const std::string& hint) const;

  [[nodiscard]] std::string text(const YAML::Node& node, const std::string& entity) const;
  [[nodiscard]] double number(const YAML::Node& node, const std::string& entity, Quantity kind = Quantity::plain) const;
  [[nodiscard]] int integer(const YAML::Node& node, const std::string& entity, int min_value) const;
  /// [x, y] or {r: length, angle: angle}.
  [[nodiscard]] Vec2 point(const YAML::Node& node, const std::string& entity) const;
  [[nodiscard]] std::optional<double> optional_number(const YAML::Node& map, const char* key, const std::string& entity,
                                                      Quantity kind = Quantity::plain) const;
  /// [x, y], each a `kind` (`fix`: the hint when it is not two components).
  [[nodiscard]] Vec2 vector(const YAML::Node& node, const std::string& entity, Quantity kind,
                            const std::string& fix) const;
  /// The number `key` of `map`, >= 0; 0 when it is missing and not `required`.
  [[nodiscard]] double non_negative(const YAML::Node& map, const char* key, const std::string& entity, Quantity kind,
                                    bool required) const;

 private:
  std::string file_;
};

struct Model;
/// parse_model from a parsed tree (model_file.cpp): the variants of a design study.
[[nodiscard]] Model parse_model_tree(const YAML::Node& root, const std::string& path);

}  // namespace linkdyn::io
