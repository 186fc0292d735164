#pragma once
// Reading serial chains (YAML or URDF) and composite bodies (YAML) for the spatial module.
#include <string>
#include <vector>

#include "linkdyn/spatial/chain.hpp"
#include "linkdyn/spatial/mass.hpp"

namespace linkdyn::io {

/// How to read a robot file.
struct ChainFileOptions {
  /// URDF: put a free-flyer joint named "floating_base" between the world and the root link (a
  /// mobile or legged robot whose URDF has no floating joint of its own).
  bool floating_base = false;
  /// The rotation coordinates of free-flyers (else the model's: YAML rotation_coordinates, or
  /// quaternion).
  bool exponential_coordinates = false;
};

/// A tree from a YAML model (conventions: origin, dh, modified_dh, poe; `parent:` per joint; see
/// docs/robots.md) or a URDF file (by the .urdf extension). Throws InputError.
[[nodiscard]] spatial::ChainSpec read_chain_file(const std::string& path, const ChainFileOptions& options = {});

/// A tree from URDF text: fixed joints merged into their parents (their links kept as frames),
/// continuous joints as revolute, floating joints as free-flyers.
[[nodiscard]] spatial::ChainSpec read_urdf(const std::string& path, const ChainFileOptions& options = {});

/// A body made of primitives, and frames to report its properties in.
struct BodyFile {
  std::string name;
  std::vector<spatial::Primitive> parts;
  struct Frame {
    std::string name;
    spatial::Pose pose;  ///< the frame in the body frame
  };
  std::vector<Frame> frames;
  SourceLocation where;
};
[[nodiscard]] BodyFile read_body_file(const std::string& path);

}  // namespace linkdyn::io
