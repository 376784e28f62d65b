// Sorted records in memory written straight to the destination, not
// through a merge: by the in-memory sort, by run formation when the input
// turns out to be one chunk, and by sort_filled_buffer. Each write takes a
// writer of the destination (FinalOutput), shows its phase on the progress
// line, and reports its time and the records written.
#pragma once

#include <cstdint>
#include <functional>

#include "io/output/output_target.h"
#include "io/output/write_behind.h"
#include "io/codec/output_encoder.h"
#include "src/chunk_sort/sort_backend.h"
#include "src/core/thread_pool.h"
#include "src/output/final_output.h"
#include "src/report/progress.h"
#include "src/report/sort_report.h"

namespace gsort {

// The output file's sink, or its encoder's (--compress-output) where there is one.
WriteBehind::Sink destination_sink(OutputTarget& output, OutputEncoder* encoder);

// When the sort and the writing of sort_while_writing ran.
struct SortWriteSpans {
  PhaseSpan sort;
  double write_start = 0, write_end = 0;  // process_seconds(); both 0 when nothing was written
};
// Runs `sort` on a thread of its own, which reports each final prefix of
// an order of `count` entries through its OrderProgress, while this thread
// calls write(from, to) for each prefix as it becomes final (first(), once,
// just before the first), so that writing overlaps the sort. Rethrows the
// sort's error; the sort has ended when it returns.
SortWriteSpans sort_while_writing(uint64_t count, const std::function<void(const OrderProgress& ready)>& sort,
                                  const std::function<void()>& first,
                                  const std::function<void(uint64_t from, uint64_t to)>& write);

class DirectWrite {
 public:
  DirectWrite(FinalOutput& out, ThreadPool& pool, ProgressMeter& meter, SortReport& report)
      : out_(out), pool_(pool), meter_(meter), report_(report) {}

  // Writes records[order[0..count)], -u applied; "gather+write".
  void write(const uint8_t* records, const uint32_t* order, uint64_t count);

  // Fills `order` with the sorted order, reporting each final prefix
  // (ChunkSortSession::finish_in_parts, SortBackend::sort_order_in_parts).
  using SortInParts = std::function<void(uint32_t* order, const OrderProgress& ready)>;
  // Sorts records[0, count) with `sort` into `order` (count entries, at
  // least one) on a thread of its own while this thread writes each final
  // prefix of the order, so that writing overlaps the sort. Reports "sort"
  // on the sorting thread and "gather+write" from the first prefix on.
  void sort_and_write(const uint8_t* records, uint64_t count, uint32_t* order, const SortInParts& sort);

 private:
  FinalOutput& out_;
  ThreadPool& pool_;
  ProgressMeter& meter_;
  SortReport& report_;
};

}  // namespace gsort
