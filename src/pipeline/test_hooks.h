// Where tests may inject faults into the pipeline, as src/output/test_hooks.h
// does into the output: null in gsort, set by gsort-test-hooks
// (tests/support/fault_hooks.cpp).
#pragma once

#include <cstdint>

namespace gsort::test_hooks {

// Called before chunk `chunk` (0-based) of the input is read, by run
// formation and by the in-memory sort (its one chunk), on the reading thread.
using ChunkReadHook = void (*)(uint64_t chunk);
extern ChunkReadHook before_chunk_read;

// Called by --compress-temp=auto after it measured the page cache's room
// (bytes), with the temp device's write speed at -1 (bytes per second): the
// hook may replace the room, and set the speed (0: "could not be
// measured"); a speed left at -1 is measured.
using TempDeviceHook = void (*)(uint64_t* page_cache_room, double* write_bytes_per_s);
extern TempDeviceHook temp_device;

}  // namespace gsort::test_hooks
