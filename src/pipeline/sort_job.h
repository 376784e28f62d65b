// One external sort in progress: what its stages share. external_sort.cpp
// sets it up and calls the stages in order; each stage file (sort_in_memory,
// form_runs, merge_passes) reads the plan and fills in the report.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "io/codec/output_encoder.h"
#include "io/output/output_target.h"
#include "io/run/run_file.h"
#include "io/temp/temp_dir.h"
#include "src/output/output_writer.h"
#include "src/chunk_sort/sort_backend.h"
#include "src/pipeline/external_sort.h"
#include "src/pipeline/memory_plan.h"
#include "src/report/progress.h"
#include "src/report/sort_report.h"
#include "src/verify/output_check.h"

namespace gsort {

struct InputTally;
class RecordSource;

// One file of a spilled run. A sorted chunk is spilled as several segments
// written side by side (spill streams, run_output.h), each a contiguous
// slice of the run; a merged run is one segment.
struct RunSegment {
  TempFile file;          // open; see TempDir
  RunIdentity identity;   // the segment's, checked when it is read
};

// A source waiting to be merged: an input of --merge (opened when its
// merge begins), or a spilled run (its segments, read one after another).
struct PendingSource {
  std::function<std::unique_ptr<RecordSource>()> open_input;
  std::vector<RunSegment> segments;
  int level = 0;  // merges its records have been through
  bool is_input() const { return static_cast<bool>(open_input); }
  // Descriptors it holds while it waits.
  size_t open_files() const { return segments.size(); }
};

// How many sources one merge takes, and how many spilled runs may exist
// (each holds a descriptor) before they are merged early. From the memory
// plan, --batch-size and the open-file limit: merge_limits.h.
struct MergeLimits {
  size_t fan_in = 2;
  size_t max_open_runs = 2;
};

// "1 record", "3 runs".
std::string plural(uint64_t n, const char* word);

struct SortJob {
  explicit SortJob(const SortContext& context);

  // The temporary directory, made (and logged) on first use.
  TempDir& temp_dir();
  // The writer of the destination: its sink (through the encoder with
  // --compress-output), the --verify check and the progress counter.
  std::unique_ptr<OutputWriter> destination_writer(OutputTarget& output);
  // The same writer into a caller's sink (sort_filled_buffer's callers).
  std::unique_ptr<OutputWriter> destination_writer(WriteBehind::Sink sink);
  // Writes records[order[..]] to the destination (or the sink), with -u applied.
  void write_sorted_output(const uint8_t* records, const uint32_t* order, uint64_t count, OutputTarget& output);
  void write_sorted_output(const uint8_t* records, const uint32_t* order, uint64_t count, WriteBehind::Sink sink);

  // Fills `order` with the sorted order, reporting each final prefix
  // (ChunkSortSession::finish_in_parts, SortBackend::sort_order_in_parts).
  using SortInParts = std::function<void(uint32_t* order, const OrderProgress& ready)>;
  // Sorts records[0, count) with `sort` into `order` (count entries, at
  // least one) on a thread of its own while this thread writes each final
  // prefix of the order to the destination, so that writing overlaps the
  // sort (sort_and_write.cpp). Reports "sort" on the sorting thread and
  // "gather+write" from the first prefix on.
  void sort_and_write(const uint8_t* records, uint64_t count, uint32_t* order, const SortInParts& sort,
                      OutputTarget& output);

  const SortContext& ctx;
  const uint32_t rs;  // record size
  const uint64_t job_id;  // in every run's header (RunIdentity)
  uint64_t budget = 0;  // -S, raised to the minimum (memory_plan.h)
  MemoryPlan plan;
  MergeLimits limits;
  int deepest_level = 0;  // of any run merged so far
  SortReport report;
  RunCompression run_compression;  // --compress-temp
  RunDecoderPool decoders;         // shared by the readers of compressed runs
  std::unique_ptr<OutputEncoder> encoder;  // --compress-output
  OutputCheck* check = nullptr;               // --verify
  InputTally* tally = nullptr;
  ProgressMeter* meter = nullptr;
  uint64_t stored_total = 0;    // the inputs' size on disk, 0 if unknown
  uint64_t progress_total = 0;  // record bytes to merge, 0 if unknown
  std::atomic<uint64_t> written_bytes{0};  // to the destination
  std::atomic<uint64_t> merged_bytes{0};   // read by the merges

 private:
  void write_gathered(const uint8_t* records, const uint32_t* order, uint64_t count,
                      std::unique_ptr<OutputWriter> out);

  std::unique_ptr<TempDir> temp_;
};

}  // namespace gsort
