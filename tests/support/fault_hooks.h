// The faults gsort-test-hooks can inject, chosen by environment variables:
//   GSORT_TEST_CORRUPT_OUTPUT=N[:B]  flips the low bit of byte B (default:
//   the last byte) of record N (0-based) of the final output, after the
//   records are sorted and before they are checked (--verify) and written.
//   GSORT_TEST_BLOCK_STATS_RENAME=1  makes a directory where the --stats
//   file goes, after the output's commit, so that the stats rename fails.
//   GSORT_TEST_TRUNCATE_INPUT=PATH:BYTES:CHUNK  truncates the file PATH to
//   BYTES just before chunk CHUNK (0-based) of the input is read: a file
//   that shrinks while gsort reads it.
//   GSORT_TEST_SIGNAL_AT_CHUNK=CHUNK:SIG  the process sends itself signal
//   SIG (a number) just before chunk CHUNK of the input is read.
//   GSORT_TEST_FAIL_DEVICE_ALLOC=N  the N-th allocation of device memory
//   (from 1) fails as out of memory (cudaErrorMemoryAllocation).
//   GSORT_TEST_TEMP_DEVICE=ROOM_BYTES[:WRITE_MB_S]  what --compress-temp=auto
//   takes for the page cache's room and (when given) the temp device's
//   write speed, instead of measuring them (WRITE_MB_S 0: could not be
//   measured).
// And in the distributed sort (tests/distributed/distributed_test.sh):
//   GSORT_TEST_FAIL_RANK=R and GSORT_TEST_FAIL_AT=PHASE  rank R fails at
//   PHASE: "exchange" (in the middle of the exchange, as an error),
//   "exchange-signal" (there, by SIGTERM to itself, as mpirun sends),
//   "sort" or "write".
//   GSORT_TEST_RECEIVE_IN_FILES=1  whole-slice exchanges land what they
//   receive in files, as a partition too large for memory does.
//   GSORT_TEST_SHM_SLOT_RECORDS=N  the shared-memory exchange's slots hold
//   at most N records, so that small inputs take many steps.
//   GSORT_TEST_PARTITION_ON_CPU=1  a whole slice is partitioned on the host
//   where a GPU could take it (to compare the two on one machine).
//   GSORT_TEST_OUTPUT_PWRITE=1  ranks write their range of one output file
//   with pwrite where they would map it.
#pragma once

namespace gsort::test_hooks {

// Installs the hooks of src/core/test_hooks.h. Called by main() in the
// gsort-test-hooks build only.
void install_fault_hooks();

}  // namespace gsort::test_hooks
