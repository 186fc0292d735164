// Fuzz target: the model-file reader, the compile step and a short kinematics sweep (the
// model's own step counts replaced by 8 positions: the sweep is bounded).
#include "fuzz_support.hpp"
#include "linkdyn/dynamics/machine.hpp"
#include "linkdyn/io/model_file.hpp"
#include "linkdyn/planar/sweep.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  return linkdyn::fuzz::expect_clear_errors([&] {
    const std::string text(reinterpret_cast<const char*>(data), size);
    linkdyn::io::Model model = linkdyn::io::parse_model(text, "/tmp/linkdyn-fuzz-model.yaml");
    const linkdyn::planar::Mechanism m = linkdyn::planar::compile(model.mechanism);
    const linkdyn::dynamics::DynamicSystem system(m, model.machine);
    const linkdyn::planar::TimeGrid grid = linkdyn::planar::analysis_grid(m, 8);
    (void)linkdyn::planar::kinematics(m, grid);
  });
}
