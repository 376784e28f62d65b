// A destination file written around the page cache (O_DIRECT,
// io/file/direct_writer.h): for a sort whose output outgrows what the
// cache takes at memory speed, where a buffered stream waits on writeback
// and reclaim. The records' and the lines' drivers decide when; this is
// how, for both.
#pragma once

#include <cstdint>

#include "io/output/output_target.h"
#include "src/core/log.h"

namespace gsort {

// Whether the destination now writes around the cache, in staging blocks
// of a 32nd of the memory budget (1 to 64 MiB): never for an encoded
// output (--compress-output), a destination written straight into
// (standard output, a device, a FIFO), or a file system that refuses
// O_DIRECT. -v says so where it does.
bool write_around_page_cache(OutputTarget& target, bool encoded, uint64_t memory_budget, const Log& log);

}  // namespace gsort
