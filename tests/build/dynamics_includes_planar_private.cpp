// Must not build, on its last include: a module's private headers (src/planar/) are its own
// (tests/CMakeLists.txt builds this file without that include too, which must build).
#include "linkdyn/planar/kinematics.hpp"
#include "planar/structure.hpp"
