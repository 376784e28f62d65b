#include "src/output/around_the_cache.h"

#include <algorithm>
#include <cstddef>

namespace gsort {

bool write_around_page_cache(OutputTarget& target, bool encoded, uint64_t memory_budget, const Log& log) {
  if (encoded || target.is_direct()) return false;
  const uint64_t staging = std::clamp<uint64_t>(memory_budget / 32, uint64_t{1} << 20, uint64_t{64} << 20);
  if (!target.file().write_around_cache(static_cast<size_t>(staging))) return false;
  log.info("output: written around the page cache (O_DIRECT), in blocks of " + mebibytes_text(staging));
  return true;
}

}  // namespace gsort
