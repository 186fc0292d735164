#pragma once
// Planar model files (YAML), documented in docs/model-format.md.
#include <string>

#include "linkdyn/planar/mechanism.hpp"

namespace linkdyn::io {

/// Reads a model file into a description. Throws InputError naming file, line and entity.
planar::MechanismSpec read_planar_model(const std::string& path);
/// Reads from text; `path` names it in errors and anchors relative file names (tables).
planar::MechanismSpec parse_planar_model(const std::string& text, const std::string& path);
/// read_planar_model + compile.
planar::Mechanism load_mechanism(const std::string& path, const planar::CompileOptions& options = {});

}  // namespace linkdyn::io
