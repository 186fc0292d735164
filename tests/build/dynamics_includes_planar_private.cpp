// Must not build: a module's private headers (src/planar/) are its own (tests/CMakeLists.txt).
#include "planar/structure.hpp"
