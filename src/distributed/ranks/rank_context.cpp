#include "src/distributed/ranks/rank_context.h"

#include "src/config/config_layout.h"
#include "src/distributed/ranks/rank_config.h"

namespace gsort {
namespace {

uint64_t least_of_all(const RankGroup& ranks, uint64_t mine) {
  uint64_t least = 0;
  MPI_Allreduce(&mine, &least, 1, MPI_UINT64_T, MPI_MIN, ranks.comm);
  return least;
}

}  // namespace

RankContext::RankContext(const RankGroup& ranks, const SortConfig& given)
    : group(ranks),
      fence(ranks),
      config(config_for_rank(given, ranks)),
      layout(layout_of(config)),
      log(given.verbose && ranks.rank == 0),
      pool(config.threads),
      least_memory_bytes(least_of_all(ranks, config.memory_bytes)) {}

}  // namespace gsort
