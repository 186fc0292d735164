// Must not build, on its last include: planar sits below dynamics in the module graph
// (tests/CMakeLists.txt builds this file without that include too, which must build).
#include "linkdyn/planar/kinematics.hpp"
#include "linkdyn/dynamics/reduced.hpp"
