// A test hook of the distributed driver, read from the environment (used
// by tests/distributed, documented nowhere else): GSORT_TEST_FAIL_RANK=R
// and GSORT_TEST_FAIL_AT=PHASE make rank R fail at that phase: "exchange"
// (in the middle of the exchange, as an error), "exchange-signal" (there,
// by SIGTERM to itself, as mpirun sends), "sort" or "write". And
// GSORT_TEST_RECEIVE_IN_FILES=1 makes whole-slice exchanges land what they
// receive in files, as a partition too large for memory does.
// GSORT_TEST_SHM_SLOT_RECORDS=N makes the shared-memory exchange's slots at most N
// records, so that small inputs take many steps.
// GSORT_TEST_PARTITION_ON_CPU=1 keeps a whole slice's partition on the host
// where a GPU could take it (to compare the two on one machine).
// GSORT_TEST_OUTPUT_PWRITE=1 has ranks write their range of one output file
// with pwrite where they would map it.
#pragma once

#include <cstdint>

namespace gsort {

// Throws Error (or raises SIGTERM) when the hook names this rank and phase.
void test_fault_point(const char* phase, int rank);

// Whether GSORT_TEST_RECEIVE_IN_FILES is set.
bool test_receive_in_files();

// Whether GSORT_TEST_OUTPUT_PWRITE is set.
bool test_output_by_pwrite();

// Whether GSORT_TEST_PARTITION_ON_CPU is set.
bool test_partition_on_cpu();

// GSORT_TEST_SHM_SLOT_RECORDS, or 0 where it is not set.
uint64_t test_shared_slot_records();

}  // namespace gsort
