// The faults gsort-test-hooks can inject, chosen by environment variables:
//   GSORT_TEST_CORRUPT_OUTPUT=N[:B]  flips the low bit of byte B (default:
//   the last byte) of record N (0-based) of the final output, after the
//   records are sorted and before they are checked (--verify) and written.
//   GSORT_TEST_BLOCK_STATS_RENAME=1  makes a directory where the --stats
//   file goes, after the output's commit, so that the stats rename fails.
//   GSORT_TEST_TRUNCATE_INPUT=PATH:BYTES:CHUNK  truncates the file PATH to
//   BYTES just before chunk CHUNK (0-based) of the input is read: a file
//   that shrinks while gsort reads it.
//   GSORT_TEST_TEMP_DEVICE=ROOM_BYTES[:WRITE_MB_S]  what --compress-temp=auto
//   takes for the page cache's room and (when given) the temp device's
//   write speed, instead of measuring them (WRITE_MB_S 0: could not be
//   measured).
#pragma once

namespace gsort::test_hooks {

// Installs the hooks into src/output/test_hooks.h. Called by main() in the
// gsort-test-hooks build only.
void install_fault_hooks();

}  // namespace gsort::test_hooks
