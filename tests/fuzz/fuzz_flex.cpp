// Fuzz target: `linkdyn flex` on a mutated model: each elastic link's eigen-analysis along a few
// positions (finite) and its steady response with few Newmark substeps (a response that grows
// without bound is refused, as the command line refuses it).
#include "fuzz_support.hpp"
#include "linkdyn/flex/elastic_link.hpp"
#include "linkdyn/flex/link.hpp"
#include "linkdyn/io/result_tables.hpp"
#include "linkdyn/planar/sweep.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  using namespace linkdyn;
  return fuzz::expect_clear_errors([&] {
    const fuzz::ModelInput in(data, size);
    const std::vector<flex::ElasticLink> links = flex::require_elastic_links(in.m, in.model.elastic_links);
    const planar::TimeGrid grid = planar::analysis_grid(in.m, fuzz::grid_steps);
    flex::CycleOptions cycle_options;
    cycle_options.modes = 2;
    const flex::EigenCycleResult cycle = flex::eigen_cycle(in.m, links, grid, cycle_options);
    const Table eigen = io::eigen_cycle_table(in.m, links, cycle);
    fuzz::require_finite(eigen, 0, eigen.width());
    (void)flex::first_instability(in.m, links, cycle);
    for (const flex::ElasticLink& link : links) {
      flex::ResponseOptions options;
      options.substeps = 4;
      (void)flex::link_response(in.m, link, grid, options, 3,
                                [&](const flex::LinkResponse& rows) { (void)io::response_table(in.m, link, rows); });
    }
  });
}
