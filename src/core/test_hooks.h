// Where tests may inject faults: hooks gsort calls through pointers that
// it leaves null. Only the test binary gsort-test-hooks (src/main.cpp built
// with GSORT_TEST_HOOKS) sets them, at start, from its environment
// (tests/support/fault_hooks.cpp); gsort itself reads no test variable.
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

// Called before chunk `chunk` (0-based) of the input is read, by run
// formation, by the in-memory sort (its one chunk), by the line reader, and
// by -c before each buffer it reads, on the reading thread.
using ChunkReadHook = void (*)(uint64_t chunk);
extern ChunkReadHook before_chunk_read;

// Called once, when the destination's writer takes its blocks, its stream
// or its mapping (src/output/output_blocks.h), records and lines alike: the
// sort is done and the output is about to be gathered and written.
using MomentHook = void (*)();
extern MomentHook before_output;

// Called once an input is mapped instead of read (InputFile::map_rest: a
// line sort's one chunk, an in-memory sort's records), before its bytes are used.
using MappedHook = void (*)();
extern MappedHook after_input_mapped;

// Called by --compress-temp=auto after it measured the page cache's room
// (bytes), with the temp device's write speed at -1 (bytes per second): the
// hook may replace the room, and set the speed (0: "could not be
// measured"); a speed left at -1 is measured.
using TempDeviceHook = void (*)(uint64_t* page_cache_room, double* write_bytes_per_s);
extern TempDeviceHook temp_device;

// Called by every rank of a distributed sort at its phases ("exchange",
// "sort", "write"): may throw an Error there, or raise a signal, as a rank
// that fails there would.
using RankPhaseHook = void (*)(const char* phase, int rank);
extern RankPhaseHook rank_phase;

// A path of the distributed sort that a test forces: taken where it returns true.
using ChoiceHook = bool (*)();
extern ChoiceHook receive_in_files;   // whole slices land what they receive in files, as too large a partition does
extern ChoiceHook output_by_pwrite;   // ranks write their range of one output file with pwrite where they would map it
extern ChoiceHook partition_on_cpu;   // a whole slice is partitioned on the host where a GPU could take it
extern ChoiceHook rank_sort_log;      // every rank's local sort talks as one process's -v does (quiet otherwise)

// How the destination is written, forced by a test: 1 through one write()
// stream, 2 through a mapping where it can be; 0 (or null): as gsort decides.
using WayHook = int (*)();
extern WayHook output_way;

// How the final merge of spilled runs goes, forced by a test: -1 through
// the run merger's batches; N > 0 in N key ranges on the pool's threads
// wherever memory allows, however small the output; 0 (or null): as gsort
// decides.
using MergeRangesHook = long (*)();
extern MergeRangesHook final_merge_ranges;

// Called with the descriptor of each file of each spilled run (numbered
// from 0 in the merge's order) before the final merge reads them: may damage
// one, as a failing disk would.
using RunFileHook = void (*)(int fd, uint64_t run, uint64_t segment);
extern RunFileHook before_final_merge;

// Called before each allocation of device memory (cuda::DeviceBuffer):
// true makes it fail as cudaMalloc does when the device is out of memory.
using FaultHook = bool (*)();
extern FaultHook fail_device_allocation;

// A device that a test makes up: device_present says whether auto should
// count a GPU driver as installed (it then starts the device in the
// background as for a real one); device_start is called first on the
// start's thread and may take its time or throw an Error, as a slow or
// failing device would (auto then goes on with the CPU backend).
extern ChoiceHook device_present;
using StartHook = void (*)();
extern StartHook device_start;

// The most records a slot of the shared-memory exchange holds, so that small
// inputs take many steps; 0: no limit.
using CountHook = uint64_t (*)();
extern CountHook shared_slot_records;

// Text lines' runs held in the GPU's memory from inputs of this many bytes
// on, where a test wants small inputs to take that way (null, or
// UINT64_MAX: as gsort decides).
extern CountHook hold_line_runs_from;
// Those runs held in the host's memory instead of a device's: the held
// runs' pipeline on a machine without a GPU.
extern ChoiceHook hold_runs_in_host;
// The runs spilled before the held runs' store is taken (it is taken from
// this run on, once ready), so that a test mixes runs in files and held ones.
extern CountHook hold_line_runs_after;
// A stream of lines sorted in pieces of at least this many bytes while it
// arrives, on any number of threads (null, or 0: as gsort decides).
extern CountHook line_piece_bytes;
// The least records a task of a gather takes (null, or 0: gsort's own, 64 KiB
// of records), so that one build times other cuts (src/algo/gather.cpp).
extern CountHook gather_task_records;

}  // namespace gsort::test_hooks

namespace gsort {

// The distributed sort's calls, each doing nothing where its hook is null.
inline void test_fault_point(const char* phase, int rank) {
  if (test_hooks::rank_phase) test_hooks::rank_phase(phase, rank);
}
inline bool test_receive_in_files() { return test_hooks::receive_in_files && test_hooks::receive_in_files(); }
inline bool test_output_by_pwrite() { return test_hooks::output_by_pwrite && test_hooks::output_by_pwrite(); }
inline bool test_partition_on_cpu() { return test_hooks::partition_on_cpu && test_hooks::partition_on_cpu(); }
inline bool test_rank_sort_log() { return test_hooks::rank_sort_log && test_hooks::rank_sort_log(); }
inline uint64_t test_shared_slot_records() {
  return test_hooks::shared_slot_records ? test_hooks::shared_slot_records() : 0;
}

}  // namespace gsort
