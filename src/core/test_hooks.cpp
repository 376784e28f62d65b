#include "src/core/test_hooks.h"

namespace gsort::test_hooks {

FinalWriteHook before_final_write = nullptr;
PathHook before_stats_rename = nullptr;
ChunkReadHook before_chunk_read = nullptr;
MappedHook after_input_mapped = nullptr;
MomentHook before_output = nullptr;
TempDeviceHook temp_device = nullptr;
RankPhaseHook rank_phase = nullptr;
ChoiceHook receive_in_files = nullptr;
ChoiceHook output_by_pwrite = nullptr;
ChoiceHook partition_on_cpu = nullptr;
ChoiceHook rank_sort_log = nullptr;
CountHook shared_slot_records = nullptr;
WayHook output_way = nullptr;
MergeRangesHook final_merge_ranges = nullptr;
RunFileHook before_final_merge = nullptr;
FaultHook fail_device_allocation = nullptr;
ChoiceHook device_present = nullptr;
StartHook device_start = nullptr;
CountHook hold_line_runs_from = nullptr;
ChoiceHook hold_runs_in_host = nullptr;
CountHook hold_line_runs_after = nullptr;
CountHook line_piece_bytes = nullptr;
CountHook gather_task_records = nullptr;

}  // namespace gsort::test_hooks
