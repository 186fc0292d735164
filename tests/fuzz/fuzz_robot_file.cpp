// Fuzz target: the robot readers, URDF (input starting with '<') or YAML chains.
#include "fuzz_support.hpp"
#include "linkdyn/io/chain_file.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  return linkdyn::fuzz::expect_clear_errors([&] {
    const bool urdf = size > 0 && data[0] == '<';
    const std::string path = linkdyn::fuzz::as_file(data, size, urdf ? ".urdf" : ".yaml");
    (void)linkdyn::spatial::build_chain(linkdyn::io::read_chain_file(path));
  });
}
