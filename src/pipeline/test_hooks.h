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

}  // namespace gsort::test_hooks
