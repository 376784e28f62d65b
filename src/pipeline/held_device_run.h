// The last run that the device forms, kept in the device's memory for the
// final merge instead of being written to the temporary directory and read
// back: where the merge reads its runs in order (an output that is not
// mapped), that saves writing and reading one run's bytes on the disk.
#pragma once

#include <cstdint>
#include <memory>

#include "src/chunk_sort/sort_backend.h"
#include "src/merge/pending_source.h"

namespace gsort {

// A PendingSource whose open_held reads `resident` (sorted) in order
// through its staging slots, `records` of `record_size` bytes. The device,
// its memory and the slots are given back once the merge has read the
// last record, or when the source goes unread.
PendingSource held_device_run(std::unique_ptr<ResidentSort> resident, uint64_t records, uint32_t record_size,
                              uint64_t staging_bytes);

}  // namespace gsort
