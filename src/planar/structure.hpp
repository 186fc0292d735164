#pragma once
// Structural analysis: the sequence of first-class mechanisms and Assur groups.
#include <memory>
#include <vector>

#include "linkdyn/planar/groups/group.hpp"

namespace linkdyn::planar {

/// Degrees of freedom by Gruebler-Kutzbach: 3 (n - 1) - 2 (lower pairs) - (gear pairs).
int gruebler_dof(const MechanismSpec& spec);

/// The groups in structural order: drivers first, then each group whose bodies are fixed by
/// the bodies already known [001 Fig. 3]. Uses spec.structure when given. Throws InputError
/// when the bodies cannot be ordered into groups.
std::vector<std::unique_ptr<Group>> find_structure(const Mechanism& m, bool force_generic);

}  // namespace linkdyn::planar
