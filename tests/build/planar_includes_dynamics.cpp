// Must not build: planar sits below dynamics in the module graph (tests/CMakeLists.txt).
#include "linkdyn/dynamics/simulate.hpp"
