// Where tests may inject faults into the output. gsort leaves every hook
// null; the test binary gsort-test-hooks (src/main.cpp built with
// GSORT_TEST_HOOKS) installs tests/support/fault_hooks.cpp's hooks at start.
#pragma once

#include <cstdint>

namespace gsort::test_hooks {

// Called with each block of the final output after its records are sorted
// and before they are checked (--verify) and written. `first` is the number
// of the first record in `records`.
using FinalWriteHook = void (*)(uint8_t* records, uint64_t count, uint32_t record_size, uint64_t first);
extern FinalWriteHook before_final_write;

// Called with the --stats file's path after the output was committed and
// before the stats file is renamed into place.
using PathHook = void (*)(const char* path);
extern PathHook before_stats_rename;

}  // namespace gsort::test_hooks
