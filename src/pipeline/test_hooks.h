// Fault injection for the tests, compiled only with GSORT_TEST_HOOKS: the
// tests build a separate copy of the engine and binary (gsort-test-hooks)
// with it; gsort itself contains none of this.
#pragma once

#ifdef GSORT_TEST_HOOKS

#include <cstdint>

namespace gsort::test_hooks {

// GSORT_TEST_CORRUPT_OUTPUT=N[:B] flips the low bit of byte B (default: the
// last byte) of record N (0-based) of the final output, after the records
// are sorted and before they are checked (--verify) and written.
// `first` is the number of the first record in `records`.
void before_final_write(uint8_t* records, uint64_t count, uint32_t record_size, uint64_t first);

}  // namespace gsort::test_hooks

#endif
