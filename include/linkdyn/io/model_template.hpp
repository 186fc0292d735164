#pragma once
// A model file whose numeric entries a design study changes: the file read once, each variant
// parsed from a tree in which only the studied entries differ (no text parsing per variant).
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "linkdyn/core/units.hpp"
#include "linkdyn/io/model_file.hpp"

namespace linkdyn::io {

/// One numeric entry of a model file, named by a dotted path: map keys separated by dots, a
/// sequence item by its index (`ground.D[0]`, `bodies.rocker.points.C.x`: x and y name the two
/// coordinates of a point).
struct ModelEntry {
  std::string path;
  std::string canonical;  ///< the path with every index as [k]: two paths to one entry compare equal
  double value = 0.0;     ///< SI
  /// The unit it is written in ("mm"; empty for a bare number, which is SI) and its size in SI.
  std::string unit;
  double unit_size = 1.0;
  Quantity kind = Quantity::plain;
  int line = 0;  ///< in the model file
  /// False for an optional entry the file does not write (`scale` of a load table): its value
  /// is NaN (the model's default applies), and a variant adds it to its map.
  bool present = true;
};

class ModelTemplate {
 public:
  /// Reads and checks the model file (InputError as read_model).
  explicit ModelTemplate(std::string path);
  ~ModelTemplate();
  ModelTemplate(const ModelTemplate&) = delete;
  ModelTemplate& operator=(const ModelTemplate&) = delete;

  [[nodiscard]] const std::string& path() const { return path_; }
  [[nodiscard]] const std::string& text() const { return text_; }
  /// The entry at `path`, or InputError when the path leads nowhere or not to a number
  /// (`where` and `entity` name the study's line that asked for it). A path whose last key is
  /// missing from a map that exists names an entry the file does not write (present false).
  [[nodiscard]] ModelEntry entry(const std::string& path, const SourceLocation& where, const std::string& entity) const;
  /// The file's text with the entries set to `values` (SI, written in each entry's own unit),
  /// comments and layout kept: a design as a model file. With `destination` (the path it will
  /// be written to), the files it names (`file:` of tables) are named relative to it.
  [[nodiscard]] std::string text_with(const std::vector<ModelEntry>& entries, std::span<const double> values,
                                      const std::string& destination = "") const;

 private:
  std::string path_, text_;
};

/// A variant maker for one thread: its own tree of the template, the studied entries located
/// once; `model` sets them and parses.
class ModelEditor {
 public:
  ModelEditor(const ModelTemplate& model, const std::vector<ModelEntry>& entries);
  ~ModelEditor();
  ModelEditor(const ModelEditor&) = delete;
  ModelEditor& operator=(const ModelEditor&) = delete;
  /// The model with the entries set to `values` (SI). InputError when the values make it invalid.
  [[nodiscard]] Model model(std::span<const double> values);

 private:
  struct Tree;
  std::unique_ptr<Tree> tree_;
};

/// A number written with or without a unit ("0.5 mm", "40 deg", "1.2"), in SI, whatever the
/// kind of quantity its unit belongs to; the kind found (plain for a bare number).
[[nodiscard]] std::optional<std::pair<double, Quantity>> parse_any_quantity(const std::string& text);

}  // namespace linkdyn::io
