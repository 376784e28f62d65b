#include "src/distributed/ranks/rank_context.h"

#include "src/config/config_layout.h"
#include "src/distributed/ranks/rank_config.h"

namespace gsort {

RankContext::RankContext(const RankGroup& ranks, const SortConfig& given)
    : group(ranks),
      fence(ranks),
      config(config_for_rank(given, ranks)),
      layout(layout_of(config)),
      log(given.verbose && ranks.rank == 0),
      pool(config.threads) {}

}  // namespace gsort
