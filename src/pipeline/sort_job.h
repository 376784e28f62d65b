// One external sort in progress: what its stages share. external_sort.cpp
// sets it up and calls the stages in order; each stage file (sort_in_memory,
// form_runs, merge_passes) reads the plan and fills in the report.
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>
#include <string>

#include "io/output_target.h"
#include "io/run_file.h"
#include "io/temp_dir.h"
#include "io/zstd_stream.h"
#include "src/output/output_writer.h"
#include "src/pipeline/external_sort.h"
#include "src/pipeline/memory_plan.h"
#include "src/report/progress.h"
#include "src/report/sort_report.h"
#include "src/verify/output_check.h"

namespace gsort {

struct InputTally;
class RecordSource;

// A source waiting to be merged: an open input (--merge) or a spilled run.
struct PendingSource {
  std::unique_ptr<RecordSource> open;
  std::string run_path;
  int run_slot = -1;
};

// "1 record", "3 runs".
std::string plural(uint64_t n, const char* word);

struct SortJob {
  explicit SortJob(const SortContext& context);

  // The temporary directory, made (and logged) on first use.
  TempDir& temp_dir();
  // The writer of the destination: its sink (through zstd with
  // --compress-output), the --verify check and the progress counter.
  std::unique_ptr<OutputWriter> destination_writer(OutputTarget& output);
  // Writes records[order[..]] to the destination, with -u applied.
  void write_sorted_output(const uint8_t* records, const uint32_t* order, uint64_t count, OutputTarget& output);

  const SortContext& ctx;
  const uint32_t rs;  // record size
  MemoryPlan plan;
  SortReport report;
  RunCompression run_compression;  // --compress-temp
  RunDecoderPool decoders;         // shared by the readers of compressed runs
  std::unique_ptr<ZstdOutputStream> encoder;  // --compress-output
  OutputCheck* check = nullptr;               // --verify
  InputTally* tally = nullptr;
  ProgressMeter* meter = nullptr;
  uint64_t stored_total = 0;    // the inputs' size on disk, 0 if unknown
  uint64_t progress_total = 0;  // record bytes to merge, 0 if unknown
  std::atomic<uint64_t> written_bytes{0};  // to the destination
  std::atomic<uint64_t> merged_bytes{0};   // read by the merges

 private:
  std::unique_ptr<TempDir> temp_;
};

}  // namespace gsort
