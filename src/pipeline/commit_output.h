// The end of every sort's destination, records or lines: the output's
// mapping closed (timed as "unmap output"), then the commit (timed as
// "commit"): the encoder's last frame, the progress line stopped, the file
// made durable where asked (--fsync) and put in place, with --output-parts'
// other parts in one process. --verify's verdict comes before the commit.
#pragma once

#include <cstdint>
#include <functional>
#include <string>

#include "io/codec/output_encoder.h"
#include "io/output/mapped_destination.h"
#include "io/output/output_target.h"
#include "src/core/thread_pool.h"
#include "src/report/progress.h"
#include "src/report/sort_report.h"

namespace gsort {

// Unmaps the destination where it was mapped, its file cut to `bytes`.
void close_output_mapping(MappedDestination& mapped, uint64_t bytes, bool fsync, ThreadPool& pool,
                          SortReport& report);

struct CommitSteps {
  OutputTarget& target;
  OutputEncoder* encoder;  // --compress-output's, or null
  ProgressMeter& meter;
  bool fsync;
  std::string parts_directory;         // --output-parts in one process, or empty
  std::function<void()> before_commit;  // the library's hook, or empty
};

// Sets report.output_stored_bytes (report.output_bytes must be set).
void commit_output(const CommitSteps& steps, SortReport& report);

}  // namespace gsort
