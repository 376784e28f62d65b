// Input reading for run formation: the input in chunks of the plan's size,
// each read into one of two buffers while the other chunk is sorted and
// spilled. A chunk shorter than the plan's means the input has ended.
//
//   ChunkReader chunks(inputs, backend, chunk_records, record_size);
//   chunks.read_first();
//   do { chunks.read_ahead();  sort chunks.records()[0..count()) ... } while (chunks.advance());
#pragma once

#include <cstdint>
#include <functional>
#include <future>
#include <memory>
#include <vector>

#include "io/input/input_set.h"
#include "src/chunk_sort/sort_backend.h"
#include "src/core/host_buffer.h"
#include "src/core/staged_stream.h"
#include "src/core/thread_pool.h"
#include "src/report/sort_report.h"

namespace gsort {

class ChunkReader {
 public:
  // Allocates the first buffer (the backend's host memory). readers: the
  // threads that read a chunk of plain files (the read-ahead thread among
  // them), apart from the pool, which sorts and writes meanwhile; 1: that
  // thread alone.
  ChunkReader(InputSet& inputs, SortBackend& backend, uint64_t chunk_records, uint32_t record_size,
              unsigned readers);

  // The readers for a sort on `threads` threads (--parallel): a quarter of
  // them, at most 4. One thread copies a cached file at 3-4 GB/s, less than
  // the runs are written at (H200 host, 12 GB of records, --backend cpu
  // -S 2G, 2026-12-04: 3.3 s of reading).
  static unsigned readers_for(unsigned threads);
  ChunkReader(const ChunkReader&) = delete;
  ChunkReader& operator=(const ChunkReader&) = delete;

  // Reads the first chunk (which may be short, or empty); a stream's
  // progress goes to `arrived` (the bytes read so far) as it is read.
  void read_first(const std::function<void(uint64_t)>* arrived = nullptr);
  // The current chunk.
  uint8_t* records() { return buffers_[current_].data(); }
  uint64_t count() const { return count_; }

  // Starts reading the next chunk into the other buffer, unless the current
  // chunk is short (the input has ended).
  void read_ahead();
  // Records in the next chunk, waiting for its read; 0 at the end.
  uint64_t next_count();
  // Makes the next chunk current; false at the end of the input.
  bool advance();

  // For a merge between chunks: frees both buffers. No read may be in
  // flight (the current chunk was not read ahead of).
  void release();
  // After release(): reads the next chunk into a new buffer; false at the
  // end of the input (the released chunk was short, or nothing is left).
  bool read_after_release();

  // When each chunk was read (on the read-ahead thread after the first).
  const std::vector<PhaseSpan>& read_spans() const { return read_spans_; }

 private:
  // Reads the next chunk into `into`; `thread` names the reading thread in the timeline.
  uint64_t read_into(uint8_t* into, const char* thread, const std::function<void(uint64_t)>* arrived = nullptr);

  InputSet& inputs_;
  SortBackend& backend_;
  const uint64_t chunk_records_;
  const uint32_t rs_;
  HostBuffer buffers_[2];
  int current_ = 0;
  uint64_t count_ = 0;
  std::vector<PhaseSpan> read_spans_;  // written by the one read in flight at a time
  uint64_t chunks_read_ = 0;  // likewise
  uint64_t next_count_ = 0;
  bool next_known_ = false;
  std::unique_ptr<StagedStream> staged_;  // a stream's, made at its first read
  std::unique_ptr<ThreadPool> read_pool_;  // plain files' (null: one thread reads)
  // The read-ahead: a pipeline stage that overlaps reading with sorting,
  // not data-parallel work, so a thread of its own rather than the pool.
  // Declared last, so that a read in flight ends before the buffers go.
  std::future<uint64_t> next_;
};

}  // namespace gsort
