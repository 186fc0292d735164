// Builds: dynamics links planar, so planar's public headers are in its reach (the control case
// of the wrong-way tests in tests/CMakeLists.txt).
#include "linkdyn/dynamics/reduced.hpp"
#include "linkdyn/planar/kinematics.hpp"
