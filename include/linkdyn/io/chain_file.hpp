#pragma once
// Reading serial chains (YAML or URDF) and composite bodies (YAML) for the spatial module.
#include <string>
#include <vector>

#include "linkdyn/spatial/chain.hpp"
#include "linkdyn/spatial/mass.hpp"

namespace linkdyn::io {

/// A chain from a YAML model (conventions: origin, dh, modified_dh, poe; see
/// docs/robot-format.md) or a URDF file (by the .urdf extension). Throws InputError.
spatial::ChainSpec read_chain_file(const std::string& path);

/// A chain from URDF text: fixed joints merged into their parents, continuous joints as
/// revolute; a robot whose moving joints do not form one path is refused.
spatial::ChainSpec read_urdf(const std::string& path);

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
BodyFile read_body_file(const std::string& path);

}  // namespace linkdyn::io
