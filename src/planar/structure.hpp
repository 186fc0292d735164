#pragma once
// Structural analysis: the sequence of first-class mechanisms and Assur groups.
#include <memory>
#include <vector>

#include "linkdyn/planar/groups/group.hpp"

namespace linkdyn::planar {

/// Degrees of freedom by Gruebler-Kutzbach: 3 (n - 1) - 2 (lower pairs) - (gear pairs), a
/// compound pin of k bodies counting as k - 1 revolute pairs.
[[nodiscard]] int gruebler_dof(const MechanismSpec& spec);

/// The groups in structural order: drivers first, then each group whose bodies are fixed by
/// the bodies already known [001 Fig. 3]. Uses spec.structure when given. Throws InputError
/// when the bodies cannot be ordered into groups.
///
/// `pairs` and `drivers` are the mechanism's own (m.joints() and m.drivers(), being compiled):
/// `pairs` holds the model's joints on entry; the binary pairs of the compound pins are
/// appended as the groups that place their members are formed, and a driver on a compound pin
/// gets its pair's index in `joint`.
[[nodiscard]] std::vector<std::unique_ptr<Group>> find_structure(const Mechanism& m, std::vector<Joint>& pairs,
                                                                 std::vector<Driver>& drivers, bool force_generic);

}  // namespace linkdyn::planar
